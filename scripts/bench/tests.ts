/**
 * The test suite's wall time, as `npm test` runs it (vitest, every file, this machine), and its
 * ten slowest files with how many tests and assertions each holds, so a file made faster can be
 * seen to keep what it asserts. Target (issue 19): under 3 minutes. Runs only when named
 * (`npm run bench -- tests`): it takes minutes. Reported, never asserted.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, type Row, type Section } from './harness.ts';

const TARGET_MS = 3 * 60_000;

interface VitestJson {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly testResults: readonly {
    readonly name: string;
    readonly startTime: number;
    readonly endTime: number;
    readonly assertionResults: readonly { readonly status: string }[];
  }[];
}

/** `expect` calls per file, read from its source: what a faster file must not lose. */
async function assertionsIn(file: string): Promise<number> {
  const text = await readFile(file, 'utf8');
  return (text.match(/\bexpect(?:\.soft)?\(/g) ?? []).length;
}

export const section: Section = {
  title: 'tests',
  onlyWhenNamed: true,
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'hsc-bench-tests-'));
    try {
      const out = join(dir, 'vitest.json');
      const started = performance.now();
      const code = await new Promise<number>((resolve) =>
        execFile(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=json', `--outputFile=${out}`], { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 }, (error) =>
          resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
        ),
      );
      const wall = performance.now() - started;
      const result = JSON.parse(await readFile(out, 'utf8')) as VitestJson;
      const rows: Row[] = [
        {
          what: 'npm test (vitest run), wall',
          runs: 1,
          median: wall / 1000,
          best: wall / 1000,
          unit: 's',
          note: `${wall <= TARGET_MS ? 'within' : 'OVER'} the ${TARGET_MS / 60_000} min target; ${result.numPassedTests} passed, ${result.numFailedTests} failed; exit ${code}`,
        },
      ];
      const files = [...result.testResults].sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime)).slice(0, 10);
      for (const f of files) {
        const seconds = (f.endTime - f.startTime) / 1000;
        const name = f.name.startsWith(repoRoot) ? f.name.slice(repoRoot.length).replace(/^\//, '') : f.name;
        rows.push({ what: `  ${name}`, runs: 1, median: seconds, best: seconds, unit: 's', note: `${f.assertionResults.length} tests, ${await assertionsIn(f.name)} expect calls in its source` });
      }
      return rows;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
