/** `hosted-site-contract mock`: runs the reference mock until SIGINT or SIGTERM, or until the process that started it goes away. */
import { watchParent } from '../bin/parent-watch.ts';
import { oneOf, parseFlags, SetupError, UsageError } from '../bin/command.ts';
import { withConfig } from '../bin/config.ts';
import { mockFlagOptions } from './flags.ts';
import { didYouMean } from '../bin/did-you-mean.ts';
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { parseRateLimit } from './rate-limit.ts';
import { startMock } from './server.ts';
import { catalogue } from './variants/index.ts';
import { layouts } from './layouts.ts';
import { UNMARKED_FIELDS_CHOICES } from './policy.ts';
import { LOG_CHOICES } from './request-log.ts';
import { fdSink } from './log-sink.ts';

export function parsePort(text: string | undefined): number {
  if (text === undefined) return 4010;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be a whole number from 0 to 65535, not '${text}'`);
  return port;
}

/** What the usual `listen` failures mean, for a one-line error. */
const listenErrors: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is already in use; pick another with --port, or --port 0 for any free one',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'the address is not one of this machine',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be looked up (no answer from DNS)',
};

/**
 * Runs the mock until a signal. The log goes to stderr through one sanitizer: the mock's (its
 * fixtures' secrets) joined with the dispatcher's `sanitizer` (the keys of the command line and
 * the environment); batched, asynchronous and bounded (log-sink.ts). A listen failure is the
 * environment's, not a failed check: `SetupError`, exit 2.
 */
export async function runMock(args: readonly string[], sanitizer?: Sanitizer): Promise<number> {
  const flags = parseFlags(withConfig('mock', args, mockFlagOptions), mockFlagOptions);
  // --variant, as conform --mock-variant and self-test name the catalogue's entries; --fault, its older spelling, still read.
  if (flags.variant !== undefined && flags.fault !== undefined) throw new UsageError('--variant and --fault name the same thing: give one');
  const variantName = flags.variant ?? flags.fault;
  const variantFlag = flags.variant !== undefined ? '--variant' : '--fault';
  const unmarkedFields = oneOf('--unmarked-fields', flags['unmarked-fields'], UNMARKED_FIELDS_CHOICES);
  const logChoice = oneOf('--log', flags.log, LOG_CHOICES);
  const host = flags.host ?? '127.0.0.1';
  const port = parsePort(flags.port);
  const variant = variantName === undefined ? undefined : catalogue.find((v) => v.name === variantName);
  if (variantName !== undefined && !variant) {
    throw new UsageError(`${variantFlag}: no variant named '${variantName}'${didYouMean(variantName, catalogue.map((v) => v.name)) || ' (list them with: hosted-site-contract self-test --list)'}`);
  }
  if (flags.layout !== undefined && !layouts.some((l) => l.name === flags.layout)) {
    throw new UsageError(`--layout: no layout named '${flags.layout}'${didYouMean(flags.layout, layouts.map((l) => l.name)) || ` (known: ${layouts.map((l) => l.name).join(', ')})`}`);
  }
  const rateLimit = flags['rate-limit'] === undefined ? undefined : parseRateLimit(flags['rate-limit']);
  if (flags['rate-limit'] !== undefined && !rateLimit) throw new UsageError(`--rate-limit needs requests per window, such as 120/60s, 120/1m or 20/s, not '${flags['rate-limit']}'`);
  const log = logChoice === 'off' ? undefined : fdSink(process.stderr.fd);
  let mock;
  try {
    mock = await startMock({ host, port, ...(variant ? { variant } : {}), ...(flags.layout !== undefined ? { layout: flags.layout } : {}), ...(log ? { log: log.write, logFormat: logChoice === 'json' ? 'json' : 'text' } : {}), ...(sanitizer ? { sanitizer } : {}), ...(unmarkedFields ? { unmarkedFields } : {}), ...(rateLimit ? { rateLimit } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SetupError(`cannot listen on ${host}:${port}: ${(code && listenErrors[code]) ?? (error as Error).message}${code ? ` (${code})` : ''}`);
  }
  // One JSON line on stdout, for scripts; everything else goes to stderr.
  process.stdout.write(`${JSON.stringify({ url: mock.url, ...mock.fixtures })}\n`);
  const parent = watchParent();
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    void parent.gone.then(() => {
      process.stderr.write('mock: the process that started it (npx, a shell) went away: stopping\n');
      stop();
    });
  });
  parent.stop();
  await mock.close();
  // A reader that stopped reading cannot be written to, not even this last line: the process
  // leaves without it rather than wait (a write still in flight would keep it alive).
  if (log && !(await log.close())) process.exit(0);
  process.stderr.write('mock stopped\n');
  return 0;
}
