/**
 * The proxy in process for tests: started before a target, driven by the test with its URL,
 * stopped once the test is done, and what it wrote read back.
 */
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { runProxy, type ProxyIo } from './cli.ts';
import type { ProxyReport } from './report.ts';

export interface ProxyRun {
  readonly code: number;
  /** The JSON report (asked for unless `args` name a reporter): from stdout, past the first line. */
  readonly report: ProxyReport;
  /** Everything written to stdout, the first line (the proxy's url) included. */
  readonly stdout: string;
  readonly stderr: string;
}

/** Its first stdout line names `url` and `target`, as the mock's names its URL. */
export async function throughProxy(target: string, args: readonly string[], ...given: [drive: (url: string) => Promise<void>] | [io: Pick<ProxyIo, 'maxKeys'>, drive: (url: string) => Promise<void>]): Promise<ProxyRun> {
  const [io, drive] = given.length === 1 ? [{}, given[0]] : given;
  let out = '';
  let err = '';
  const sink = (add: (text: string) => void) => new Writable({ write: (chunk: Buffer, _encoding, done) => (add(chunk.toString()), done()) });
  let release!: () => void;
  const stopped = new Promise<void>((resolve) => (release = resolve));
  let ready!: (url: string) => void;
  const listening = new Promise<string>((resolve) => (ready = resolve));
  const reporter = args.includes('--reporter') ? [] : ['--reporter', 'json'];
  const running = runProxy(['--target', target, '--port', '0', ...reporter, ...args], { ...io, stdout: sink((t) => (out += t)), stderr: sink((t) => (err += t)), stopped, listening: ready });
  const url = await Promise.race([listening, running.then((code) => Promise.reject(new Error(`the proxy exited (${code}) before listening: ${err}`)))]);
  try {
    await drive(url);
  } finally {
    await new Promise((resolve) => setImmediate(resolve)); // the last exchange's end reaches the log
    release();
  }
  const code = await running;
  const first = out.slice(0, out.indexOf('\n'));
  expect(JSON.parse(first)).toMatchObject({ url, target });
  const rest = out.slice(first.length + 1);
  const report = reporter.length ? (JSON.parse(rest.slice(rest.indexOf('{'))) as ProxyReport) : undefined;
  return {
    code,
    get report(): ProxyReport {
      if (!report) throw new Error('no JSON report: the run named its own reporter');
      return report;
    },
    stdout: out,
    stderr: err,
  };
}
