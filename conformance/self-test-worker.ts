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
  readonly args: readonly string[];
}

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
      const out = captured();
      const err = captured();
      // The dispatcher's sanitizer, as the CLI builds it: keys the command line or the environment name.
      const sanitizer = new Sanitizer(commandLineSecrets(['conform', ...request.args], process.env));
      let exitCode: number;
      try {
        const { runConform } = await import('./cli.ts');
        exitCode = await runConform(request.args, { stdout: out.stream, stderr: err.stream, env: process.env, sanitizer });
      } catch (error) {
        // One line, as the CLI's dispatcher writes it.
        const outcome = thrown(error, 'hosted-site-contract', (e) => sanitizer.message(e));
        err.stream.write(`${sanitizer.oneLine(`hosted-site-contract conform: ${outcome.line}`)}\n`);
        exitCode = 2;
      }
      port.postMessage({ exitCode, stdout: out.text(), stderr: err.text() } satisfies WorkerRun);
    })();
  });
}

const LAUNCHER = fileURLToPath(new URL('../bin/hosted-site-contract.js', import.meta.url));

/** Workers, one run each at a time; `run` waits for an idle one (callers keep at most `size` in flight). */
export class WorkerPool {
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();

  #start(): Worker {
    const worker = new Worker(LAUNCHER, { workerData: { role: SELF_TEST_ROLE }, stdout: true, stderr: true });
    // A run's output is captured; nothing it could write to the worker's own streams is kept.
    worker.stdout.resume();
    worker.stderr.resume();
    this.#all.add(worker);
    return worker;
  }

  /** `conform ARGS` in a worker; after `timeoutMs` the worker is ended and the run has no exit code. */
  run(args: readonly string[], timeoutMs: number): Promise<WorkerRun> {
    const worker = this.#idle.pop() ?? this.#start();
    return new Promise((resolve) => {
      const settle = (result: WorkerRun, keep: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (keep) this.#idle.push(worker);
        else {
          this.#all.delete(worker);
          void worker.terminate();
        }
        resolve(result);
      };
      const onMessage = (result: WorkerRun) => settle(result, true);
      const onError = (error: Error) => settle({ exitCode: null, stdout: '', stderr: '', error: `the run's worker failed: ${error.message}` }, false);
      const onExit = (code: number) => settle({ exitCode: null, stdout: '', stderr: '', error: `the run's worker exited (${code})` }, false);
      const timer = setTimeout(() => settle({ exitCode: null, stdout: '', stderr: '', error: `no result within ${timeoutMs} ms` }, false), timeoutMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.postMessage({ args } satisfies Request);
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.#all].map((worker) => worker.terminate()));
    this.#all.clear();
    this.#idle.length = 0;
  }
}
