/**
 * `hosted-site-contract self-test` (npm run mutation): proves the suite. Every variant of the
 * mock's catalogue is checked by the real `conform` command with its default settings (only
 * `--mock-variant` differs), in parallel worker threads that each run one variant at a time
 * through the command's own function (self-test-worker.ts). A fault is killed when the run fails with a
 * failure that broke the rule the fault breaks (among any others the same exchange broke), on
 * the operation where it shows; a conformant variant
 * passes when the run conforms. Exit 1 unless every fault is killed and nothing raises a false alarm.
 * `--shard i/n` runs one deterministic slice, so the jobs of a CI matrix share the catalogue.
 */
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { didYouMean, nearest } from '../bin/did-you-mean.ts';
import { parseFlags, SetupError, UsageError } from '../bin/command.ts';
import { probeReportFile, reportFileProblem, writeReportFile } from '../bin/report-file.ts';
import { mapConcurrently } from './concurrently.ts';
import { WorkerPool } from './self-test-worker.ts';
import { catalogue, loadVariants } from '../mock/variants/index.ts';
import { parseConformArgs } from './options.ts';
import type { Variant } from '../mock/variant.ts';
import { endpoint, operation } from '../spec/queries.ts';

/** What one `conform` run against a variant showed. */
export interface RunResult {
  readonly exitCode: number | null;
  /** `rules`: every rule the failure broke (a report from before they were listed has `rule` alone); `operator`: the mutation operator its probe came from. */
  readonly failures: readonly { readonly rule: string; readonly rules?: readonly string[]; readonly operation: string; readonly operator?: string }[];
  /** Requests the run sent. */
  readonly requests?: number;
  readonly error?: string;
  readonly ms: number;
}

export type Verdict = 'killed' | 'misattributed' | 'missed' | 'passed' | 'false-alarm' | 'error';

export interface VariantResult {
  readonly name: string;
  readonly kind: Variant['kind'];
  /** `RULE on METHOD /path`, what a fault must be caught as. */
  readonly expected?: string;
  readonly verdict: Verdict;
  /** Distinct `RULE on operation` pairs that failed. */
  readonly caughtAs: readonly string[];
  /** The mutation operators of the probes that killed it (on its own rule and operation); absent when none was drawn from one (a state property, a read). */
  readonly killedBy?: readonly string[];
  readonly ms: number;
  readonly requests?: number;
  readonly error?: string;
}

/** `--shard index/count`: the slice of the chosen variants one machine of a CI matrix runs. */
export interface Shard {
  /** From 1 to `count`. */
  readonly index: number;
  readonly count: number;
}

export interface SelfTestReport {
  /** Present when `--shard` ran a slice: which one, and how many of the chosen variants it held. */
  readonly shard?: Shard & { readonly variants: number; readonly of: number };
  readonly ok: boolean;
  readonly faults: number;
  readonly killed: number;
  readonly score: number;
  readonly conformant: number;
  readonly falseAlarms: number;
  readonly results: readonly VariantResult[];
}

const expectedOf = (v: Variant) => (v.rule ? `${v.rule}${v.endpoint ? ` on ${operation(endpoint(v.endpoint))}` : ''}` : undefined);

const rulesOf = (f: RunResult['failures'][number]): readonly string[] => f.rules ?? [f.rule];

/** The verdict on one variant, from its run: pure, so it is tested on hand-made results. */
export function judgeVariant(variant: Variant, run: RunResult): VariantResult {
  const caughtAs = [...new Set(run.failures.flatMap((f) => rulesOf(f).map((rule) => `${rule} on ${f.operation}`)))].sort();
  const base = { name: variant.name, kind: variant.kind, caughtAs, ms: run.ms, ...(run.requests !== undefined ? { requests: run.requests } : {}), ...(variant.rule ? { expected: expectedOf(variant)! } : {}) };
  if (run.error || (run.exitCode !== 0 && run.exitCode !== 1)) return { ...base, verdict: 'error', error: run.error ?? `conform exited ${run.exitCode}` };
  if (variant.kind === 'conformant') return { ...base, verdict: run.exitCode === 0 ? 'passed' : 'false-alarm' };
  if (run.exitCode === 0) return { ...base, verdict: 'missed' };
  const op = variant.endpoint ? operation(endpoint(variant.endpoint)) : undefined;
  const killing = run.failures.filter((f) => variant.rule !== undefined && rulesOf(f).includes(variant.rule) && (op === undefined || f.operation === op));
  if (!killing.length) return { ...base, verdict: 'misattributed' };
  const killedBy = [...new Set(killing.flatMap((f) => (f.operator ? [f.operator] : [])))].sort();
  return { ...base, verdict: 'killed', ...(killedBy.length ? { killedBy } : {}) };
}

export function summarize(results: readonly VariantResult[]): SelfTestReport {
  const faults = results.filter((r) => r.kind === 'fault');
  const conformant = results.filter((r) => r.kind === 'conformant');
  const killed = faults.filter((r) => r.verdict === 'killed').length;
  const falseAlarms = conformant.filter((r) => r.verdict !== 'passed').length;
  return {
    ok: killed === faults.length && falseAlarms === 0,
    faults: faults.length,
    killed,
    score: faults.length ? killed / faults.length : 1,
    conformant: conformant.length,
    falseAlarms,
    results,
  };
}

/** `i/n` with 1 ≤ i ≤ n, both whole numbers; anything else is a usage error. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(count) && index >= 1 && index <= count)) {
    throw new UsageError(`--shard needs i/n with whole numbers 1 ≤ i ≤ n (e.g. 1/3), not '${text}'`);
  }
  return { index, count };
}

/**
 * Shard `index` of `count`: the items whose position, in the order given (catalogue order), is
 * `index - 1` modulo `count`. Depends on nothing but the list, so every machine of a matrix cuts
 * it alike; each item lands in exactly one shard, and shard sizes differ by at most one.
 */
export function shardOf<T>(items: readonly T[], { index, count }: Shard): T[] {
  return items.filter((_, position) => position % count === index - 1);
}

/**
 * Runs `conform --mock-variant NAME --reporter json` (with `extra`: the run's budget) in one of the
 * pool's workers. A fault's run stops sending once the fault is caught on its own rule and
 * operation: what it would send after that cannot change the verdict.
 */
async function runConform(pool: WorkerPool, variant: Variant, timeoutMs: number, extra: readonly string[], variants?: string): Promise<RunResult> {
  const started = performance.now();
  const stopWhenFound = variant.kind === 'fault' && variant.rule && variant.endpoint ? { rule: variant.rule, operation: operation(endpoint(variant.endpoint)) } : undefined;
  const run = await pool.run(['--mock-variant', variant.name, '--reporter', 'json', ...(variant.flags ?? []), ...extra], timeoutMs, { ...(variants ? { variants } : {}), ...(stopWhenFound ? { stopWhenFound } : {}) });
  const ms = performance.now() - started;
  if (run.error) return { exitCode: run.exitCode, failures: [], ms, error: run.error };
  try {
    const report = JSON.parse(run.stdout) as { failures?: RunResult['failures']; requests?: number };
    return { exitCode: run.exitCode, failures: report.failures ?? [], ms, ...(typeof report.requests === 'number' ? { requests: report.requests } : {}) };
  } catch {
    const lastLine = run.stderr.trim().split('\n').at(-1) ?? '';
    return { exitCode: run.exitCode, failures: [], ms, error: `no JSON report (${lastLine})` };
  }
}

const MARK: Record<Verdict, string> = {
  killed: 'killed',
  passed: 'passed',
  missed: 'MISSED',
  misattributed: 'WRONG RULE',
  'false-alarm': 'FALSE ALARM',
  error: 'ERROR',
};

function renderTable(report: SelfTestReport): string {
  const width = Math.max(0, ...report.results.map((r) => r.name.length));
  const lines = report.results.map((r) => {
    const by = r.killedBy?.length ? ` (by ${r.killedBy.slice(0, 3).join(', ')}${r.killedBy.length > 3 ? ', …' : ''})` : '';
    const detail = r.verdict === 'killed' || r.verdict === 'passed' ? `${r.expected ?? ''}${by}` : r.error ?? `${r.expected ? `expected ${r.expected}; ` : ''}caught as: ${r.caughtAs.slice(0, 4).join(', ') || 'nothing'}`;
    return `  ${MARK[r.verdict].padEnd(11)} ${r.kind === 'fault' ? 'fault     ' : 'conformant'} ${r.name.padEnd(width)}  ${detail}`;
  });
  const pct = (report.score * 100).toFixed(1);
  const { shard } = report;
  return [
    ...lines,
    '',
    ...(shard ? [`shard ${shard.index}/${shard.count}: ${shard.variants} of ${shard.of} variants`] : []),
    `detection score: ${report.killed}/${report.faults} faults killed (${pct}%), each on its own rule and operation`,
    `false alarms: ${report.falseAlarms}/${report.conformant} conformant variants`,
    report.ok ? 'self-test passed' : 'self-test FAILED',
  ].join('\n');
}

export async function runSelfTest(args: readonly string[]): Promise<number> {
  const flags = parseFlags(args, {
    list: { type: 'boolean' },
    only: { type: 'string' },
    jobs: { type: 'string' },
    json: { type: 'string' },
    shard: { type: 'string' },
    variants: { type: 'string' },
    'max-requests': { type: 'string' },
    'max-duration': { type: 'string' },
  });
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  // A module of the user's own variants runs beside the catalogue (alone with --only).
  let extra: readonly Variant[] = [];
  if (flags.variants !== undefined) {
    // A variant's name where a module file is due: say which flag runs it.
    if (!existsSync(flags.variants)) {
      if (catalogue.some((v) => v.name === flags.variants)) throw new UsageError(`--variants takes a module file; '${flags.variants}' is a variant of the catalogue: run it with --only ${flags.variants}`);
      const near = nearest(flags.variants, catalogue.map((v) => v.name))[0];
      throw new UsageError(`--variants: no file ${flags.variants} (a module whose export \`variants\` lists variants)${near ? `; for a variant of the catalogue: --only ${near}` : ''}`);
    }
    try {
      extra = await loadVariants(flags.variants);
    } catch (error) {
      throw new UsageError(`--variants: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const all = [...catalogue, ...extra];
  // The run's budget, passed to every run as conform reads it (checked there: the same words for a bad value).
  const budget = [...(flags['max-requests'] !== undefined ? ['--max-requests', flags['max-requests']] : []), ...(flags['max-duration'] !== undefined ? ['--max-duration', flags['max-duration']] : [])];
  if (budget.length) parseConformArgs(budget, {});
  const names = flags.only?.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names?.filter((n) => !all.some((v) => v.name === n)) ?? [];
  if (unknown.length) throw new UsageError(`--only: no variant named ${unknown.map((n) => `'${n}'${didYouMean(n, all.map((v) => v.name))}`).join(', ')}`);
  const selected = names ? all.filter((v) => names.includes(v.name)) : all;
  const chosen = shard ? shardOf(selected, shard) : selected;
  // --list shows what a run with the same --only and --shard would run (a matrix job's share, before it runs).
  if (flags.list) {
    for (const v of chosen) console.log(`${v.kind.padEnd(10)} ${v.name}  ${expectedOf(v) ?? ''}  ${v.description}`);
    return 0;
  }
  const jobs = flags.jobs === undefined ? Math.max(2, availableParallelism()) : Number(flags.jobs);
  if (!(Number.isInteger(jobs) && jobs >= 1 && jobs <= 64)) throw new UsageError(`--jobs needs a whole number from 1 to 64, not '${flags.jobs}'`);
  // The report file is tried before the catalogue runs (minutes), as conform tries its --output.
  if (flags.json !== undefined) {
    try {
      probeReportFile(flags.json);
    } catch (error) {
      throw new UsageError(`--json: ${flags.json} cannot be written (${reportFileProblem(error)})`);
    }
  }

  const started = performance.now();
  let done = 0;
  const pool = new WorkerPool();
  let results: VariantResult[];
  try {
    // A budget the reference mock's run cannot start within (discovery alone needs more) would make
    // every variant an error: said once, as the run says it, before the catalogue.
    if (budget.length) {
      const reference = await pool.run(['--reporter', 'json', ...budget], 120_000);
      if (reference.exitCode === 2) throw new UsageError(`${budget.join(' ')}: the reference mock's run stops before it starts (${reference.stderr.trim().split('\n').at(-1)?.replace(/^hosted-site-contract conform: /, '') ?? 'exit 2'})`);
    }
    results = await mapConcurrently(chosen, jobs, async (v) => {
      const r = judgeVariant(v, await runConform(pool, v, 120_000, budget, extra.includes(v) ? flags.variants : undefined));
      process.stderr.write(`[${++done}/${chosen.length}] ${MARK[r.verdict]} ${r.name} (${(r.ms / 1000).toFixed(1)} s)\n`);
      return r;
    });
  } finally {
    await pool.close();
  }
  const report: SelfTestReport = { ...(shard ? { shard: { ...shard, variants: chosen.length, of: selected.length } } : {}), ...summarize(results) };
  console.log(renderTable(report));
  console.log(`${chosen.length} variants in ${((performance.now() - started) / 1000).toFixed(1)} s with ${jobs} parallel runs`);
  if (flags.json) {
    try {
      await writeReportFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
    } catch (error) {
      throw new SetupError(`cannot write the self-test report to ${flags.json}: ${reportFileProblem(error)}`);
    }
  }
  return report.ok ? 0 : 1;
}
