import { configFlagRows } from '../bin/config.ts';
import { layouts } from './layouts.ts';
import { MAX_KEPT_OPERATIONS } from './policy.ts';

/** The mock's flags as `parseFlags` reads them; a config file's `mock` section takes the same, in camelCase. */
export const mockFlagOptions = {
  host: { type: 'string' },
  port: { type: 'string' },
  variant: { type: 'string' },
  fault: { type: 'string' },
  layout: { type: 'string' },
  'unmarked-fields': { type: 'string' },
  log: { type: 'string' },
  'rate-limit': { type: 'string' },
  config: { type: 'string' },
  'no-config': { type: 'boolean' },
} as const;

/** The mock's flags as `help mock` shows them. */
export const mockFlags: readonly string[] = [
  '--host HOST     address to listen on (default 127.0.0.1)',
  '--port PORT     port to listen on, 0 for any free port (default 4010)',
  '--variant NAME  run as a variant of the catalogue: a fault or a conformant variant (self-test --list), as',
  '                conform --mock-variant names it (--fault NAME, the older spelling, is still read)',
  `--layout NAME   arrange the data and timing as another server might: ${layouts.map((l) => l.name).join(', ')}`,
  '--unmarked-fields optional|required  body fields the document does not mark: optional (default) accepts them',
  '              omitted, with an X-Contract-Warning header naming them; required refuses them with 400',
  '--log text|json|off  request log on stderr: method, path, status, duration, body (secrets redacted), warnings;',
  '              json: one object per line; off: none (default text). Written in batches, never waited on:',
  '              lines a slow reader cannot take are dropped, and a line says how many',
  '--rate-limit N/WINDOW  a token bucket per key (120/60s, 120/1m, 20/s): past it, 429 with Retry-After; every',
  '              answer carries RateLimit-Policy and RateLimit (the IETF draft), for testing a client\'s 429 handling',
  ...configFlagRows('mock', 16),
  '',
  'a 400 lists every problem in data.problems, and the log line says them; an unknown path or method answers 404',
  '              saying it is not an endpoint of the document, naming the endpoints likely meant (message and data)',
  '',
  `acknowledged operations: the newest ${MAX_KEPT_OPERATIONS} are kept in memory, the oldest dropped first`,
  'exit codes: 0 stopped by SIGINT or SIGTERM, 2 bad usage or cannot listen (port in use, unknown host)',
];
