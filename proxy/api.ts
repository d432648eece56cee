/**
 * `startProxy(options)`: the validating proxy from code, in front of a team's own test run. Its
 * options are the flags of `proxy` in camelCase (as a config file's `proxy` section takes them,
 * judged by the same parser); it listens on a free port unless `port` says otherwise, and
 * `close()` stops it and resolves to the typed report of every exchange it judged.
 */
import { Writable } from 'node:stream';
import { optionArgs, type ConfigSection } from '../bin/config.ts';
import { runProxy } from './cli.ts';
import { proxyFlagOptions } from './flags.ts';
import type { ProxyReport } from './report.ts';

export interface ProxyApiOptions extends ConfigSection<typeof proxyFlagOptions> {
  /** The server to forward to: its base URL, ending in /v2. */
  readonly target: string;
  /** Where the proxy's lines and reporters write (default: nowhere). */
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
}

export interface StartedProxy {
  /** The proxy's base URL: point the client under test at it. */
  readonly url: string;
  /** Stops the proxy (exchanges in flight get a moment to end) and resolves to its report and the exit code the command would give. */
  close(): Promise<{ readonly exitCode: number; readonly report: ProxyReport }>;
}

const nowhere = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * @example
 * const proxy = await startProxy({ target: mock.url });
 * // … the client under test calls proxy.url …
 * const { report } = await proxy.close();
 * expect(report.problems).toEqual([]);
 */
/** A proxy that could not start (bad options, a port in use): the command's one line, and its exit code 2. */
export class ProxyError extends Error {
  override readonly name = 'ProxyError';
  readonly exitCode = 2 as const;
}

export async function startProxy(options: ProxyApiOptions): Promise<StartedProxy> {
  try {
    return await started(options);
  } catch (error) {
    throw new ProxyError((error as Error).message);
  }
}

async function started(options: ProxyApiOptions): Promise<StartedProxy> {
  const { stdout, stderr, ...flags } = options;
  const args = optionArgs('startProxy()', { port: 0, ...flags }, proxyFlagOptions, process.env);
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  let report: ProxyReport | undefined;
  const ran = runProxy(args, { stdout: stdout ?? nowhere(), stderr: stderr ?? nowhere(), stopped, listening, onReport: (r) => (report = r), embedded: true });
  // A proxy that cannot start (bad options, a port in use) ends before it listens: its error is thrown here.
  const started = await Promise.race([url, ran.then((code) => Promise.reject(new Error(`the proxy ended before it listened (exit code ${code})`)))]);
  return {
    url: started,
    close: async () => {
      stop();
      const exitCode = await ran;
      return { exitCode, report: report! };
    },
  };
}
