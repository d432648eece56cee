/**
 * Start-up as a user of the package meets it: the compiled command (dist/, what the package runs
 * on Node with no loader) next to the same command from the sources through tsx (what a clone
 * runs, and what the package ran before it was compiled). Targets: `help` ≤ 100 ms median, the
 * default `conform` end to end ≤ 1 s. Builds dist/ first. Reported, never asserted.
 */
import { msRow, runCli, summarize, time, type Row, type Section } from './harness.ts';

const HELP_TARGET_MS = 100;
const CONFORM_TARGET_MS = 1000;

const COMPILED = 'dist/bin/hosted-site-contract.js';
const SOURCES = 'bin/hosted-site-contract.js';

const verdict = (median: number, target: number) => `${median <= target ? 'within' : 'OVER'} the ${target} ms target`;

/** `runs` alternating runs of `args` compiled and from the sources, so a noisy neighbour weighs on both alike. */
async function alternate(args: readonly string[], runs: number, codes: Set<number>) {
  const samples = { compiled: [] as number[], sources: [] as number[] };
  for (let i = 0; i < runs; i++) {
    for (const [which, launcher] of [['compiled', COMPILED], ['sources', SOURCES]] as const) {
      const start = performance.now();
      codes.add((await runCli(args, launcher)).code);
      samples[which].push(performance.now() - start);
    }
  }
  return { compiled: summarize(samples.compiled), sources: summarize(samples.sources) };
}

export const section: Section = {
  title: 'startup',
  async run(options) {
    const rows: Row[] = [];
    let built = 0;
    rows.push(msRow('npm run build (tsc + assets)', await time(1, async () => (built = (await runCli(['scripts/build.ts'], 'node_modules/tsx/dist/cli.mjs')).code))));
    if (built !== 0) return [...rows, { what: 'build failed: nothing measured', runs: 0, median: NaN, best: NaN, unit: '' }];

    const codes = new Set<number>();
    const h = await alternate(['help'], Math.max(3, Math.min(options.runs ?? 10, 30)), codes);
    const c = await alternate(['conform', '--reporter', 'json'], Math.max(3, Math.min(options.runs ?? 5, 10)), codes);
    rows.push(msRow('help, compiled (the package)', h.compiled, verdict(h.compiled.median, HELP_TARGET_MS)));
    rows.push(msRow('help, sources through tsx (a clone; the package before)', h.sources, `compiled/sources ${(h.compiled.median / h.sources.median).toFixed(2)}`));
    rows.push(msRow('conform (default, embedded mock), compiled', c.compiled, `${verdict(c.compiled.median, CONFORM_TARGET_MS)}; exits ${[...codes].join('/')}`));
    rows.push(msRow('conform (default, embedded mock), sources through tsx', c.sources, `compiled/sources ${(c.compiled.median / c.sources.median).toFixed(2)}`));
    return rows;
  },
};
