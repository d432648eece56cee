/**
 * `npm run test:loaded [-- --runs N --hogs N]`: `npm test` on a busy machine, as a contributor's
 * laptop or a shared CI runner is. Starts N CPU-bound processes (default 2: as many as this
 * machine has cores, on the 2-core machines the project is measured on), runs the tests N times
 * in a row beside them (default 1), stops them, and prints each run's exit code and wall time.
 * Exits with the first failing run's code. The hogs end themselves if this script dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';

/** A process that keeps one core busy, and ends once its parent is gone. */
const HOG = `
const parent = process.ppid;
for (;;) {
  const until = Date.now() + 250;
  while (Date.now() < until);
  try { process.kill(parent, 0); } catch { process.exit(0); }
}`;

function whole(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`test-loaded: --${name} needs a whole number, got '${text}'`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<number> {
  let values: { runs?: string | undefined; hogs?: string | undefined };
  try {
    ({ values } = parseArgs({ options: { runs: { type: 'string' }, hogs: { type: 'string' } }, strict: true }));
  } catch (error) {
    console.error(`test-loaded: ${(error as Error).message.split(/\.\s/)[0]} (usage: npm run test:loaded -- [--runs N] [--hogs N])`);
    return 2;
  }
  const runs = whole('runs', values.runs, 1);
  if (runs === 0) {
    console.error('test-loaded: --runs needs a whole number from 1');
    return 2;
  }
  const hogCount = whole('hogs', values.hogs, 2);
  const hogs: ChildProcess[] = Array.from({ length: hogCount }, () => spawn(process.execPath, ['-e', HOG], { stdio: 'ignore' }));
  let tests: ChildProcess | undefined;
  const stop = () => hogs.forEach((h) => h.kill('SIGKILL'));
  // Stopped, it stops what it started: the hogs, and the tests (which end their own workers).
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.on(signal, () => (stop(), tests?.kill(signal), process.exit(code)));
  const results: { code: number; seconds: number }[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      console.log(`== npm test, run ${i + 1} of ${runs}, beside ${hogCount} CPU-bound processes`);
      const started = performance.now();
      const code = await new Promise<number>((resolve) => {
        const child = (tests = spawn('npm', ['test'], { stdio: 'inherit' }));
        child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
        child.on('error', () => resolve(1));
      });
      results.push({ code, seconds: (performance.now() - started) / 1000 });
    }
  } finally {
    stop();
  }
  for (const [i, r] of results.entries()) console.log(`run ${i + 1}: exit ${r.code}, ${r.seconds.toFixed(0)} s wall, beside ${hogCount} CPU-bound processes`);
  return results.find((r) => r.code !== 0)?.code ?? 0;
}

process.exitCode = await main();
