/**
 * The conformance run, in four stages with typed values between them: plan (run/plan.ts: every
 * probe and scenario, filtered by `--only`, in the order they go: coverage first under a
 * budget), execute (run/execute.ts: probes with bounded concurrency, scenarios one at a time,
 * then shrinking, all through the run's one `send`, so its pacer and budget see every request),
 * judge (run/judge.ts: every applicable check on every answer, as it comes back; what throttling
 * or the budget left without an answer judges nothing) and report (run/report.ts).
 */
import type { RuleId } from '../spec/model.ts';
import { keySecret, Sanitizer, type Secret } from '../sanitize/sanitizer.ts';
import { DEFAULT_CONCURRENCY } from './flags.ts';
import { nearMissSecrets } from './probes/near-miss.ts';
import { DEFAULT_SHRINK_BUDGET, type ShrinkBudget } from './shrink.ts';
import { RunBudget } from './schedule/budget.ts';
import type { PacerStats } from './schedule/pacer.ts';
import { executeRun, type Progress } from './run/execute.ts';
import { RunJudge } from './run/judge.ts';
import { planRun, type RunPlan } from './run/plan.ts';
import { buildReport, excerpt, MAX_FAILURES_PER_PAIR } from './run/report.ts';
import type { Check, CheckContext, CheckOptions, Probe, ProbeContext, ProbeSource, Report, ScenarioSource, Send, Target } from './types.ts';

export { MAX_TIMEOUTS_IN_A_ROW, type Progress } from './run/execute.ts';
export { FAILURE_TEXT_CAP, MAX_FAILURES_PER_PAIR } from './run/report.ts';

/** What the run applies: the checks and the sources of probes and scenarios. */
export interface Suite {
  readonly checks: readonly Check[];
  readonly probeSources: readonly ProbeSource[];
  readonly scenarioSources: readonly ScenarioSource[];
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
  /** Requests sent before the run (discovery), counted in the report's total. */
  readonly priorRequests?: number;
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
  /** What the run's pacer learned (the transport's), for the report. */
  readonly pacing?: () => PacerStats;
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

/** Clean-up requests kept per state property under --max-requests, and time kept for them all under --max-duration (each at most a tenth). */
const CLEANUP_RESERVE_REQUESTS = 20;
const CLEANUP_RESERVE_MS = 15_000;

export async function runConformance(input: RunInput): Promise<Report> {
  const startedAt = input.startedAt ?? Date.now();
  const { target, seed, runs, options, suite } = input;
  const concurrency = Math.max(1, input.concurrency ?? DEFAULT_CONCURRENCY);
  const ruleSet = input.only?.length ? new Set<RuleId>(input.only) : undefined;
  const inRules = (rule: RuleId) => !ruleSet || ruleSet.has(rule);
  const sanitizer = input.sanitizer ?? new Sanitizer();
  for (const secret of secretsOf(target)) sanitizer.add(secret);
  const context: ProbeContext = { target, seed, runs, options };
  const checkContext: CheckContext = { options };
  const budget = input.budget ?? new RunBudget();
  const keep = (exchange: Parameters<typeof excerpt>[0]) => excerpt(exchange, sanitizer);

  // ---- Plan ------------------------------------------------------------------------------
  const plan = planRun(suite, context, ruleSet, budget.bounded);
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
  });
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
    notes: input.notes ?? [],
    reportOptions: input.reportOptions ?? {},
    sanitizer,
    plan,
    judge,
    execution,
    budget,
    pacing: input.pacing?.(),
  });
}
