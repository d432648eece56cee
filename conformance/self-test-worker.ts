/**
 * The self-test's runs, in worker threads: each worker is the command's own launcher
 * (bin/hosted-site-contract.js, sources through tsx or the compiled package) started with
 * `workerData.role = 'self-test'`, and runs `conform` with the arguments it is sent, one run at a
 * time, through the same command function the CLI calls, its output captured and sanitized as
 * the CLI's is. A worker serves many runs: modules load and the code warms up once, not once per
 * variant. A run that outlives its time is ended by ending its worker; the pool starts another.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { thrown } from '../bin/command.ts';
import { commandLineSecrets } from '../bin/process-guard.ts';
import { Sanitizer } from '../sanitize/sanitizer.ts';
import type { FailureWanted } from './runner.ts';

export const SELF_TEST_ROLE = 'self-test';

/** What one run sent back: its exit code and what it wrote. */
export interface WorkerRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why there is no exit code (the run outlived its time, the worker died). */
  readonly error?: string;
}

interface Request {
  /** Echoed in the answer: an answer to another request is never taken for this one's. */
  readonly id: number;
  readonly args: readonly string[];
  /** A module of extra variants to load before the run (`self-test --variants FILE`). */
  readonly variants?: string;
  /** The failure whose finding ends the run's sending (a fault's own). */
  readonly stopWhenFound?: FailureWanted;
}

type Answer = WorkerRun & { readonly id: number | undefined };

/** Whether this thread is a self-test worker (bin/cli.ts asks before it dispatches). */
export const isSelfTestWorker = (): boolean => !isMainThread && (workerData as { role?: string } | undefined)?.role === SELF_TEST_ROLE;

/** A stream that keeps what is written to it as text. */
function captured(): { readonly stream: Writable; readonly text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

/** The worker's side: runs `conform` for each request, one at a time, and answers with the result. */
export function serveSelfTestRuns(): void {
  const port = parentPort!;
  port.on('message', (request: Request) => {
    void (async () => {
      if (!Array.isArray(request?.args)) return port.postMessage({ id: request?.id, exitCode: null, stdout: '', stderr: '', error: 'a request without arguments' } satisfies Answer);
      const out = captured();
      const err = captured();
      // The dispatcher's sanitizer, as the CLI builds it: keys the command line or the environment name.
      const sanitizer = new Sanitizer(commandLineSecrets(['conform', ...request.args], process.env));
      let exitCode: number;
      try {
        if (request.variants) await (await import('../mock/variants/index.ts')).loadVariants(request.variants);
        const { runConform } = await import('./cli.ts');
        exitCode = await runConform(request.args, { stdout: out.stream, stderr: err.stream, env: process.env, sanitizer, ...(request.stopWhenFound ? { stopWhenFound: request.stopWhenFound } : {}) });
      } catch (error) {
        // One line, as the CLI's dispatcher writes it.
        const outcome = thrown(error, 'hosted-site-contract', (e) => sanitizer.message(e));
        err.stream.write(`${sanitizer.oneLine(`hosted-site-contract conform: ${outcome.line}`)}\n`);
        exitCode = 2;
      }
      port.postMessage({ id: request.id, exitCode, stdout: out.text(), stderr: err.text() } satisfies Answer);
    })();
  });
}

const LAUNCHER = fileURLToPath(new URL('../bin/hosted-site-contract.js', import.meta.url));

/** Workers, one run each at a time; `run` waits for an idle one (callers keep at most `size` in flight). */
export class WorkerPool {
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();
  #requests = 0;
  /** Secrets the command line or the environment name: a worker's own failure is told through it. */
  readonly #sanitizer = new Sanitizer(commandLineSecrets(process.argv.slice(2), process.env));

  #start(): Worker {
    const worker = new Worker(LAUNCHER, { workerData: { role: SELF_TEST_ROLE }, stdout: true, stderr: true });
    // A run's output is captured; nothing it could write to the worker's own streams is kept.
    worker.stdout.resume();
    worker.stderr.resume();
    // A worker that dies while idle is never handed a run (and its error is no crash of the pool's process).
    worker.on('error', () => this.#forget(worker));
    worker.on('exit', () => this.#forget(worker));
    this.#all.add(worker);
    return worker;
  }

  #forget(worker: Worker): void {
    this.#all.delete(worker);
    const at = this.#idle.indexOf(worker);
    if (at >= 0) this.#idle.splice(at, 1);
  }

  /** `conform ARGS` in a worker (with the variants of `variants` loaded); after `timeoutMs` the worker is ended and the run has no exit code. */
  run(args: readonly string[], timeoutMs: number, extra: Pick<Request, 'variants' | 'stopWhenFound'> = {}): Promise<WorkerRun> {
    const worker = this.#idle.pop() ?? this.#start();
    const id = ++this.#requests;
    return new Promise((resolve) => {
      const settle = (result: WorkerRun, keep: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (keep && this.#all.has(worker)) this.#idle.push(worker);
        else if (!keep) {
          this.#forget(worker);
          void worker.terminate();
        }
        resolve(result);
      };
      const failed = (why: string): WorkerRun => ({ exitCode: null, stdout: '', stderr: '', error: this.#sanitizer.oneLine(why) });
      const onMessage = ({ id: answered, ...result }: Answer) => {
        if (answered === id) settle(result, true);
      };
      const onError = (error: Error) => settle(failed(`the run's worker failed: ${error.message}`), false);
      const onExit = (code: number) => settle(failed(`the run's worker exited (${code})`), false);
      const timer = setTimeout(() => settle(failed(`no result within ${timeoutMs} ms`), false), timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, args, ...extra } satisfies Request);
    });
  }

  async close(): Promise<void> {
    const workers = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
