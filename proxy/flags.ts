/** The proxy's flags as `help proxy` shows them: kept light, so `help` loads nothing of the proxy. */
import { DEFAULT_MAX_BODY_KB } from '../conformance/flags.ts';
import { configFlagRows } from '../bin/config.ts';
import { apiIdentity } from '../spec/identity.ts';

export const DEFAULT_TIMEOUT_MS = 30_000;

/** The flags as `parseFlags` reads them; a config file's `proxy` section takes the same, in camelCase. */
export const proxyFlagOptions = {
  target: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'max-body-kb': { type: 'string' },
  'timeout-ms': { type: 'string' },
  reporter: { type: 'string', multiple: true },
  output: { type: 'string' },
  'fail-on': { type: 'string' },
  'exit-after': { type: 'string' },
  annotate: { type: 'boolean' },
  strict: { type: 'boolean' },
  verbose: { type: 'boolean' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  record: { type: 'string' },
  'record-all': { type: 'boolean' },
  config: { type: 'string' },
  'no-config': { type: 'boolean' },
} as const;

export const proxyFlags: readonly string[] = [
  `--target URL       the server to forward to, its base URL ending in ${apiIdentity.basePath} (a live API, the mock, anything)`,
  '--host HOST        address to listen on (default 127.0.0.1)',
  '--port PORT        port to listen on, 0 for any free port (default 4011)',
  `--max-body-kb N    bytes of each body kept to judge (default ${DEFAULT_MAX_BODY_KB}); a longer body is forwarded whole, "too large to judge"`,
  `--timeout-ms N     no answer's headers from the target within N ms: 504 to the client; N ms without a byte of its body:`,
  `                   the answer is cut, as the target's was (default ${DEFAULT_TIMEOUT_MS})`,
  '--reporter R       console (default), json or junit; repeat for several (json and junit need --output unless alone)',
  '--output FILE      where the json or junit report goes (with both: the second gets its own extension)',
  '--fail-on SIDE     client, server, any (default) or none: whose problems make the exit code 1',
  '--exit-after N     stop after N exchanges (default: at SIGINT or SIGTERM)',
  '--annotate         add an X-Contract-Problem header to answers with a problem (the only change to the traffic)',
  '--strict           hold answers to the per-endpoint tables to the letter, as conform --strict',
  '--verbose          one line for every exchange, not only those with a problem',
  '-- COMMAND ...     run COMMAND with HSC_PROXY_URL set to the proxy\'s URL, and stop when it ends (a CI step in one',
  '                   foreground command, through npx or not); the exit code is the command\'s when it fails, else the proxy\'s',
  '--baseline FILE    known problems (a file --write-baseline wrote; conform\'s format): listed as known, they do not',
  '                   set the exit code; its entries no exchange showed are named',
  '--write-baseline FILE  write the problems seen there as a baseline (with --baseline: its reasons kept)',
  '--record FILE      write the exchanges with a problem there as HAR 1.2, credentials as ${CLIENT_API_KEY} placeholders',
  '                   (at most 1000 kept); replay FILE --base-url URL re-sends them. --record-all: every exchange',
  ...configFlagRows('proxy', 19),
  '',
  'each problem: its side (client: the request; server: the answer), its rule, where, and why',
  'not judged, and counted so: HEAD and OPTIONS (the document defines neither), 429 (ASM-THROTTLE-429), a 304 to a',
  'conditional request, a body past --max-body-kb or one the target answered before reading, a request target with dot',
  'segments or back-slashes (forwarded as written); answers in gzip, deflate or br are decoded (within --max-body-kb)',
  'before they are judged; exchanges the target did not answer are listed',
  'secrets: a client\'s key is learned as its request arrives; past 1000 keys, or after a body it cannot read, lines and',
  '         reports show rule, operation and status only (withheld); a second signal while stopping changes nothing',
  'exit codes: 0 no problem of the sides --fail-on names, 1 some, 2 bad usage, cannot listen, or a report file that',
  '            could not be written at the end (the report then goes to stdout)',
];
