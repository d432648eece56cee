/**
 * Start-up as a user of the package meets it: the compiled command (dist/, what the package runs
 * on Node with no loader) next to the same command from the sources through tsx (what a clone
 * runs, and what the package ran before it was compiled). Targets: `help` ≤ 100 ms median, the
 * default `conform` end to end ≤ 1 s. Builds dist/ first. Reported, never asserted.
 */
import { execFile } from 'node:child_process';
import { msRow, repoRoot, summarize, time, type Row, type Section } from './harness.ts';

const HELP_TARGET_MS = 100;
const CONFORM_TARGET_MS = 1000;

const COMPILED = 'dist/bin/hosted-site-contract.js';
const SOURCES = 'bin/hosted-site-contract.js';

function node(args: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...args], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }, (error) =>
      resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    );
  });
}

const verdict = (median: number, target: number) => `${median <= target ? 'within' : 'OVER'} the ${target} ms target`;

export const section: Section = {
  title: 'startup',
  async run(options) {
    const runs = Math.max(3, Math.min(options.runs ?? 10, 30));
    const rows: Row[] = [];
    let built = 0;
    rows.push(msRow('npm run build (tsc + assets)', await time(1, async () => (built = await node(['node_modules/tsx/dist/cli.mjs', 'scripts/build.ts'])))));
    if (built !== 0) return [...rows, { what: 'build failed: nothing measured', runs: 0, median: NaN, best: NaN, unit: '' }];

    // Alternating compiled and source runs, so a noisy neighbour weighs on both alike.
    const help = { compiled: [] as number[], sources: [] as number[] };
    const conform = { compiled: [] as number[], sources: [] as number[] };
    const codes = new Set<number>();
    for (let i = 0; i < runs; i++) {
      for (const [which, launcher] of [['compiled', COMPILED], ['sources', SOURCES]] as const) {
        help[which].push((await time(1, () => node([launcher, 'help']))).median);
      }
    }
    const conformRuns = Math.max(3, Math.min(options.runs ?? 5, 10));
    for (let i = 0; i < conformRuns; i++) {
      for (const [which, launcher] of [['compiled', COMPILED], ['sources', SOURCES]] as const) {
        conform[which].push((await time(1, async () => codes.add(await node([launcher, 'conform', '--reporter', 'json'])))).median);
      }
    }
    const h = { compiled: summarize(help.compiled), sources: summarize(help.sources) };
    const c = { compiled: summarize(conform.compiled), sources: summarize(conform.sources) };
    rows.push(msRow('help, compiled (the package)', h.compiled, verdict(h.compiled.median, HELP_TARGET_MS)));
    rows.push(msRow('help, sources through tsx (a clone; the package before)', h.sources, `compiled/sources ${(h.compiled.median / h.sources.median).toFixed(2)}`));
    rows.push(msRow('conform (default, embedded mock), compiled', c.compiled, `${verdict(c.compiled.median, CONFORM_TARGET_MS)}; exit ${[...codes].join('/')}`));
    rows.push(msRow('conform (default, embedded mock), sources through tsx', c.sources, `compiled/sources ${(c.compiled.median / c.sources.median).toFixed(2)}`));
    return rows;
  },
};
