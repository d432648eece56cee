/**
 * The embedded mock on a thread of its own: `conform` without `--base-url` then spends one core
 * on the suite and another on the mock, instead of taking turns on one. Only from compiled code
 * (the package): a thread started from the sources would load a TypeScript loader and compile
 * the mock again, costing more than it saves.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startMock, type MockFixtures } from './server.ts';

/** What the thread is asked for: a variant and a layout of the catalogue, by name. */
interface Ask {
  readonly hscMockThread: true;
  readonly variant?: string;
  readonly layout?: string;
}

type Told = { readonly url: string; readonly fixtures: MockFixtures } | { readonly error: string };

export interface ThreadedMock {
  readonly url: string;
  readonly fixtures: MockFixtures;
  close(): Promise<void>;
}

/** Whether this module runs compiled (no loader needed in a new thread). */
export const canThread = import.meta.url.endsWith('.js');

/** Starts the mock in a worker thread; rejects with the thread's one-line reason when it cannot listen. */
export function startMockThread(options: { readonly variant?: string; readonly layout?: string }): Promise<ThreadedMock> {
  const ask: Ask = { hscMockThread: true, ...options };
  const worker = new Worker(new URL(import.meta.url), { workerData: ask });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise<ThreadedMock>((resolve, reject) => {
    worker.once('error', (error) => reject(error));
    worker.once('message', (told: Told) => {
      if ('error' in told) {
        reject(new Error(told.error));
        return;
      }
      // Past start-up, a failure of the thread shows as failed requests, named by the suite.
      worker.removeAllListeners('error');
      worker.on('error', () => {});
      resolve({
        url: told.url,
        fixtures: told.fixtures,
        close: async () => {
          worker.postMessage('close');
          await exited;
        },
      });
    });
  });
}

async function serve(ask: Ask): Promise<void> {
  const port = parentPort!;
  let mock;
  try {
    mock = await startMock({ port: 0, ...(ask.variant ? { variant: ask.variant } : {}), ...(ask.layout ? { layout: ask.layout } : {}) });
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies Told);
    port.close();
    return;
  }
  port.on('message', async (message) => {
    if (message !== 'close') return;
    await mock.close();
    port.close();
  });
  port.postMessage({ url: mock.url, fixtures: mock.fixtures } satisfies Told);
}

if (!isMainThread && (workerData as Partial<Ask> | undefined)?.hscMockThread) await serve(workerData as Ask);
