/**
 * The defaults and flag descriptions of `conform`, kept free of heavy imports so `help` stays
 * instant (bin/cli.ts reads them without loading the model; the layouts' list is plain data).
 */
import { configFlagRows } from '../bin/config.ts';
import { layouts } from '../mock/layouts.ts';
import { REPORT_SCHEMA_FILE } from './report/json.ts';

/** Entries `conform --record-all` keeps (replay/har.ts holds to it). */
export const MAX_RECORDED_EXCHANGES = 5000;

/** The seed of a run without `--seed`: fixed, so two default runs send the same requests. */
export const DEFAULT_SEED = 1106;
/** Examples per property without `--runs`; the default run against the mock stays well within 30 s. */
export const DEFAULT_RUNS = 100;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The run's budget for waiting out 429s (all waits together). */
export const DEFAULT_MAX_WAIT_S = 60;
/** Answers are read up to this size; a longer one is judged unreadable (ASM-BODY-BOUNDS). */
export const DEFAULT_MAX_BODY_KB = 1024;
export const DEFAULT_CONCURRENCY = 8;

/** The flags as `parseFlags` reads them; a config file's `conform` section takes the same, in camelCase. */
export const conformFlagOptions = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'site-id': { type: 'string' },
  'other-api-key': { type: 'string' },
  'other-site-id': { type: 'string' },
  'allow-destructive': { type: 'boolean' },
  'allow-live': { type: 'boolean' },
  'allow-key-in-url': { type: 'boolean' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'state-window-s': { type: 'string' },
  'max-wait-s': { type: 'string' },
  'max-body-kb': { type: 'string' },
  rate: { type: 'string' },
  'max-requests': { type: 'string' },
  'max-duration': { type: 'string' },
  concurrency: { type: 'string' },
  only: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  'fail-on-skip': { type: 'boolean' },
  reporter: { type: 'string', multiple: true },
  output: { type: 'string' },
  verbose: { type: 'boolean' },
  'mock-variant': { type: 'string' },
  'mock-layout': { type: 'string' },
  baseline: { type: 'string' },
  record: { type: 'string' },
  'record-all': { type: 'boolean' },
  'write-baseline': { type: 'string' },
  config: { type: 'string' },
  'no-config': { type: 'boolean' },
  'print-config': { type: 'boolean' },
} as const;

export const conformFlags: readonly string[] = [
  '--base-url URL          the API to test; its path must end in /v2 (default: start the embedded mock and test it)',
  '--api-key KEY           API key of the company (or env HSC_API_KEY, preferred: it stays out of shell history)',
  '--site-id UUID          a site of that company; every other id is discovered from it',
  "--other-api-key KEY     a second company's key (or env HSC_OTHER_API_KEY), for isolation checks; needs --other-site-id",
  '--other-site-id UUID    a site of the second company',
  '--allow-destructive     send valid requests to mutating and destructive endpoints (DNS changes, restores, resets, ...);',
  '                        without it they get only requests a conformant server must refuse (always on for the mock);',
  '                        destructive ones stay off the live environment (a site reset: off a site that has one)',
  '--allow-live            with --allow-destructive: destructive requests may also act on the live environment where',
  '                        no other holds what they need, and reset a site that has one (always on for the mock)',
  '--allow-key-in-url      AUTH-BEARER may send the real key in query parameters (?access_token=, ?api_key=, ...),',
  '                        which a target\'s access logs record; without it only a loopback target (and the mock) gets them',
  `--seed N                seed of the generated requests (default ${DEFAULT_SEED}, fixed so runs repeat; failures name it)`,
  `--runs N                examples per property (default ${DEFAULT_RUNS}); with --allow-destructive each action gets up to N`,
  '                        valid requests: lower it (e.g. --runs 5) against a live API',
  `--timeout-ms N          deadline of one request, headers and body (default ${DEFAULT_TIMEOUT_MS})`,
  '--state-window-s N      how long STATE-* properties wait for an effect to show (default 10 against a live API, 1 for the mock)',
  '--rate auto|N           auto (default): pace to what the target says of its limit (Retry-After, RateLimit,',
  '                        RateLimit-Policy, X-RateLimit-*), slowing before the limit; after a 429 that says',
  '                        nothing, halve the rate and grow it back. N: at most N requests per second, fixed',
  '--max-requests N        the run stops sending after N requests (discovery included) and judges what it has',
  '--max-duration D        the run stops sending after D (90s, 10m, 1.5h) and judges what it has; with either, every',
  '                        check gets its first probe before any gets a second, each state property one sequence,',
  '                        then more examples, shrinking last; what the budget did not reach is "not judged"',
  `--max-wait-s N          the run's budget for pausing on 429 answers, each moment once (default ${DEFAULT_MAX_WAIT_S});`,
  '                        a request whose pause would pass it is given up as throttled: not judged, never failed',
  `--max-body-kb N         answers are read up to N KiB (default ${DEFAULT_MAX_BODY_KB}); a longer one is judged unreadable`,
  `--concurrency N         requests in flight at once (default ${DEFAULT_CONCURRENCY})`,
  '--only RULE,...         check only these rules (ids as in the report, e.g. AUTH-401,ERR-BODY)',
  "--strict                resolve the document's conflicts by the letter of the per-endpoint tables (the embedded",
  '                        mock then runs as the variant letter-of-the-tables, which keeps to that letter), and fail',
  '                        values implausible for their stated unit (epoch seconds where milliseconds are stated)',
  '--fail-on-skip          any skipped check fails the run (exit 1, and the coverage gate\'s testcase in JUnit), for',
  '                        gates that must cover everything; without it a run that skipped checks says on how many',
  '                        it rests, and why the others were skipped',
  '--reporter NAME         console, json, junit, github or ctrf; repeatable (default console). ctrf: CTRF JSON, a',
  '                        test per rule × operation, testId "RULE METHOD /path" (runs and shards merge by it).',
  '                        json: the report whole, with',
  `                        its $schema (the package's ${REPORT_SCHEMA_FILE}, as a path from the report's folder),`,
  '                        format and tool version. github: GitHub Actions workflow commands on stdout, an ::error',
  '                        annotation per distinct failure and a ::warning per warning (GitHub shows 10 of each per',
  '                        step; the tenth then counts the rest), and, when GITHUB_STEP_SUMMARY is set (as in every',
  '                        workflow step), a job summary in Markdown appended to the file it names (unset: none, no error)',
  '--output FILE           where the json/junit/ctrf report goes (with several, FILE takes the first and each other its',
  '                        own extension: .json, .xml, .ctrf.json; github goes there only when none is chosen); without',
  '                        it one json, junit, ctrf or github report goes to stdout and the console to stderr',
  '--verbose               the console shows every note in full: the assumptions the run rests on and the conflicts it',
  '                        met (by default one line each, naming them)',
  '--mock-variant NAME     without --base-url: run the embedded mock as this catalogue variant (see self-test --list)',
  '--mock-layout NAME      without --base-url: arrange the embedded mock\'s data and timing as this layout',
  `                        (${layouts.map((l) => l.name).join(', ')})`,
  '--baseline FILE         known findings (a file --write-baseline wrote): the run fails only on findings not in it,',
  '                        lists the known ones as known, and names its entries that no longer occur (fixed)',
  '--write-baseline FILE   write this run\'s findings there as a baseline (with --baseline: its reasons kept); the run',
  '                        is then judged against it',
  '--record FILE           write the failing exchanges there as HAR 1.2, their secrets as ${NAME} placeholders (a',
  '                        STATE-* failure as its sequence, with its pauses): `replay FILE --base-url URL` re-sends them;',
  `                        --record-all: every exchange judged, in order (the first ${MAX_RECORDED_EXCHANGES} kept, the rest counted)`,
  ...configFlagRows('conform', 24),
  '',
  'exit codes: 0 conforms, 1 a check failed (or, with --fail-on-skip, was skipped), 2 bad usage or a target the suite cannot use',
];
