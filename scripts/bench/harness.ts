/**
 * What a bench section is, and the few helpers sections share. `scripts/bench.ts` runs every
 * module in this folder that exports `section`; a new bench (mock throughput, a conformance run)
 * is one more file here.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchOptions {
  /** Overrides each section's default number of runs (`--runs N`). */
  readonly runs?: number;
}

/** One line of a section's table. `best` is the minimum for times, the maximum for rates. */
export interface Row {
  readonly what: string;
  readonly runs: number;
  readonly median: number;
  readonly best: number;
  readonly unit: string;
  readonly note?: string;
}

export interface Section {
  readonly title: string;
  /** Run only when named (`npm run bench -- tests`): it takes minutes. */
  readonly onlyWhenNamed?: boolean;
  run(options: BenchOptions): Promise<readonly Row[]>;
}

export interface Timing {
  readonly samples: readonly number[];
  readonly median: number;
  readonly min: number;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { samples, median, min: sorted[0] ?? Number.NaN };
}

/** Runs `fn` `runs` times in sequence and summarises the wall times in milliseconds. */
export async function time(runs: number, fn: () => unknown): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

export const msRow = (what: string, timing: Timing, note?: string): Row => ({
  what,
  runs: timing.samples.length,
  median: timing.median,
  best: timing.min,
  unit: 'ms',
  ...(note === undefined ? {} : { note }),
});

/**
 * Runs the real CLI (`node bin/hosted-site-contract.js ...`) from the repository root; `launcher`
 * names another entry, e.g. the compiled `dist/bin/hosted-site-contract.js`.
 */
export const runCli = (args: readonly string[], launcher = 'bin/hosted-site-contract.js'): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [launcher, ...args], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });

const formatNumber = (n: number): string => (Number.isNaN(n) ? '-' : n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** A plain-text table, columns aligned, numbers right-aligned. */
export function renderTable(rows: readonly Row[]): string {
  const header = ['what', 'runs', 'median', 'best', 'note'];
  const body = rows.map((r) => [r.what, String(r.runs), `${formatNumber(r.median)} ${r.unit}`, `${formatNumber(r.best)} ${r.unit}`, r.note ?? '']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const right = new Set([1, 2, 3]);
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
