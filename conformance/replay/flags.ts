/** The flags of `replay`, kept light so `help` loads nothing of the suite. */
import { DEFAULT_TIMEOUT_MS } from '../flags.ts';

export const replayFlagOptions = {
  'base-url': { type: 'string' },
  'allow-key-in-url': { type: 'boolean' },
  'timeout-ms': { type: 'string' },
  strict: { type: 'boolean' },
} as const;

export const replayFlags: readonly string[] = [
  'FILE               a HAR file conform --record wrote',
  '--base-url URL     the server to send to, ending in /v2 (required: keys go only where you say, never where a file says)',
  '--allow-key-in-url send a recorded request that puts a key in its URL to a non-loopback server (access logs keep URLs)',
  `--timeout-ms N     deadline of each request (default ${DEFAULT_TIMEOUT_MS})`,
  '--strict           judge by the letter of the per-endpoint tables, as conform --strict',
  '',
  'secrets: the placeholders read HSC_API_KEY, HSC_OTHER_API_KEY, and HSC_<FIELD> for a secret field the run sent (a',
  'password it chose for a request: any valid value) from the environment; a proxy recording reads CLIENT_API_KEY',
  'exit codes: 0 every entry fixed, 1 one still fails, 2 none fails but some were not judged, or bad usage',
];

