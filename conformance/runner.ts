/**
 * The conformance run, in four stages with typed values between them: plan (run/plan.ts: every
 * probe and scenario, filtered by `--only`, in the order they go: coverage first under a
 * budget), execute (run/execute.ts: probes with bounded concurrency, scenarios one at a time,
 * then shrinking, all through the run's one `send`, so its pacer and budget see every request),
 * judge (run/judge.ts: every applicable check on every answer, as it comes back; what throttling
 * or the budget left without an answer judges nothing) and report (run/report.ts).
 */
import type { RuleId } from '../spec/model.ts';
import { operation } from '../spec/queries.ts';
import { keySecret, Sanitizer, type Secret } from '../sanitize/sanitizer.ts';
import { DEFAULT_CONCURRENCY } from './flags.ts';
import { nearMissSecrets } from './probes/near-miss.ts';
import { DEFAULT_SHRINK_BUDGET, type ShrinkBudget } from './shrink.ts';
import { RunBudget } from './schedule/budget.ts';
import type { PacerStats } from './schedule/pacer.ts';
import type { RunnerDelayStats } from './schedule/runner-delay.ts';
import { executeRun, type Progress } from './run/execute.ts';
import { RunJudge } from './run/judge.ts';
import { planRun, requestKey, type RunPlan } from './run/plan.ts';
import { buildReport, excerpt, MAX_FAILURES_PER_PAIR } from './run/report.ts';
import type { Check, CheckContext, CheckOptions, Exchange, Probe, ProbeContext, ProbeSource, Report, ScenarioSource, Send, Target } from './types.ts';

export { MAX_TIMEOUTS_IN_A_ROW, type Progress } from './run/execute.ts';
export { FAILURE_TEXT_CAP, MAX_FAILURES_PER_PAIR } from './run/report.ts';

/** What the run applies: the checks and the sources of probes and scenarios. */
export interface Suite {
  readonly checks: readonly Check[];
  readonly probeSources: readonly ProbeSource[];
  readonly scenarioSources: readonly ScenarioSource[];
}

/** A failure looked for: the rule it breaks, on the operation (`GET /sites/{site_id}`). */
export interface FailureWanted {
  readonly rule: RuleId;
  readonly operation: string;
}

export interface RunInput {
  readonly target: Target;
  readonly seed: number;
  readonly runs: number;
  readonly options: CheckOptions;
  /** Only these rules are checked and reported (`--only`). */
  readonly only?: readonly RuleId[] | undefined;
  /** Probes in flight at once (default 8). */
  readonly concurrency?: number;
  readonly send: Send;
  readonly suite: Suite;
  readonly onProgress?: (progress: Progress) => void;
  /** Notes from before the run (discovery), listed first. */
  readonly notes?: readonly string[];
  /** Requests sent before the run (discovery), counted in the report's total, besides those of `prior`. */
  readonly priorRequests?: number;
  /** Exchanges before the run (discovery's): judged first, by every check, their requests counted. */
  readonly prior?: readonly Exchange[];
  /** When the run began (epoch ms), if before the runner (discovery); default: now. */
  readonly startedAt?: number;
  /** Options to record in the report besides those the runner knows. */
  readonly reportOptions?: Readonly<Record<string, unknown>>;
  /** The process's sanitizer (it learns every secret the run meets); default: one knowing the target's keys. */
  readonly sanitizer?: Sanitizer;
  /** A skipped row fails the run (`--fail-on-skip`): for gates that must cover everything. */
  readonly failOnSkip?: boolean;
  /** Extra requests shrinking may spend (default `DEFAULT_SHRINK_BUDGET`). */
  readonly shrinkBudget?: ShrinkBudget;
  /** The run's budget (`--max-requests`, `--max-duration`), the one `send` takes its requests from; default: none. */
  readonly budget?: RunBudget;
  /** Called once the run is planned, before its first probe (the CLI states the plan). */
  readonly onPlan?: (plan: RunPlan) => void;
  /**
   * A failure that, once found, ends the run's sending (the self-test's fault runs: whether the
   * fault is caught is then decided). Shrinking stops with it; clean-up still runs.
   */
  readonly stopWhenFound?: FailureWanted;
  /** Hears of every exchange judged, its secrets learned (`--record-all`). */
  readonly heard?: (exchange: Exchange) => void;
  /** What the run's pacer learned (the transport's), for the report. */
  readonly pacing?: () => PacerStats;
  /** How long the suite's own process could not run (the transport's watch), for the report. */
  readonly runnerDelay?: () => RunnerDelayStats;
  /** How long until a probe may go (the transport's pacer), so a paused key does not hold every worker. */
  readonly readyIn?: (probe: Probe) => number;
}


/** The names under which the keys appear in reports and curl lines. */
export function secretsOf(target: Target): Secret[] {
  return [
    keySecret(target.main.apiKey, 'HSC_API_KEY'),
    ...nearMissSecrets(target.main.apiKey),
    ...(target.other ? [keySecret(target.other.apiKey, 'HSC_OTHER_API_KEY')] : []),
  ];
}

/** Clean-up requests kept under --max-requests per state property (the DNS property's removals of its probe records), and time under --max-duration (each at most a tenth). */
const CLEANUP_RESERVE_REQUESTS = 20;
const CLEANUP_RESERVE_MS = 15_000;

/** Stops the run's sending once `wanted` is found: nothing sent after it changes that it was. */
const stopWhen =
  (wanted: FailureWanted, budget: RunBudget) =>
  (rules: readonly RuleId[], operation: string): void => {
    if (operation === wanted.operation && rules.includes(wanted.rule)) budget.stop(`stopped once ${wanted.rule} on ${wanted.operation} was found`);
  };

export async function runConformance(input: RunInput): Promise<Report> {
  const startedAt = input.startedAt ?? Date.now();
  const { target, seed, runs, options, suite } = input;
  const concurrency = Math.max(1, input.concurrency ?? DEFAULT_CONCURRENCY);
  const ruleSet = input.only?.length ? new Set<RuleId>(input.only) : undefined;
  const inRules = (rule: RuleId) => !ruleSet || ruleSet.has(rule);
  const sanitizer = input.sanitizer ?? new Sanitizer();
  for (const secret of secretsOf(target)) sanitizer.add(secret);
  const context: ProbeContext = { target, seed, runs, options };
  const checkContext: CheckContext = { options, validKeys: [target.main.apiKey, ...(target.other ? [target.other.apiKey] : [])] };
  const budget = input.budget ?? new RunBudget();
  const keep = (exchange: Parameters<typeof excerpt>[0]) => excerpt(exchange, sanitizer);

  // ---- Plan ------------------------------------------------------------------------------
  // Rows discovery's answers judged already need no first probe of their own under a budget, and
  // a request discovery sent as it is would only be sent again.
  const prior = input.prior ?? [];
  const plan = planRun(suite, context, ruleSet, budget.bounded, {
    rows: new Set(prior.map((x) => `${x.probe.rule} ${operation(x.probe.endpoint)}`)),
    requests: new Set(prior.map((x) => requestKey(x.probe.request))),
  });
  // Keys derived from the real one are learned before anything is sent or printed (shrinking's, as it sends them).
  for (const { probe } of plan.probes) for (const secret of probe.secrets ?? []) sanitizer.add(secret);
  if (plan.scenarios.length) budget.reserve(CLEANUP_RESERVE_REQUESTS * plan.scenarios.length, CLEANUP_RESERVE_MS);
  input.onPlan?.(plan);

  // ---- Execute and judge -------------------------------------------------------------------
  const judge = new RunJudge({
    checks: suite.checks,
    context: checkContext,
    inRules,
    sanitizer,
    baseUrl: target.baseUrl,
    cap: MAX_FAILURES_PER_PAIR,
    keep,
    priorRequests: input.priorRequests ?? 0,
    skips: [...plan.skips],
    ...(input.stopWhenFound ? { found: stopWhen(input.stopWhenFound, budget) } : {}),
    ...(input.heard ? { heard: input.heard } : {}),
  });
  // Every answer is judged: discovery's first, in the order received.
  prior.forEach((exchange, i) => judge.judge(exchange, i - prior.length));
  const execution = await executeRun({
    plan,
    judge,
    send: input.send,
    concurrency,
    sanitizer,
    budget,
    checks: suite.checks,
    checkContext,
    shrinkBudget: input.shrinkBudget ?? DEFAULT_SHRINK_BUDGET,
    keep,
    onProgress: input.onProgress,
    readyIn: input.readyIn,
  });

  // ---- Report ------------------------------------------------------------------------------
  return buildReport({
    target,
    seed,
    runs,
    options,
    only: input.only,
    inRules,
    concurrency,
    failOnSkip: input.failOnSkip === true,
    startedAt,
    notes: [...(input.notes ?? []), ...(input.stopWhenFound && budget.stopped ? [`${budget.stopped}: what was left of the run was not sent`] : [])],
    reportOptions: input.reportOptions ?? {},
    sanitizer,
    plan,
    judge,
    execution,
    budget,
    pacing: input.pacing?.(),
    runner: input.runnerDelay?.(),
  });
}
