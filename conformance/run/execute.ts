/**
 * Executing a run's plan: its phases in order (probes with bounded concurrency, the scenarios one
 * at a time, in one part or two), every exchange judged as it comes back (judge.ts), then the
 * failures found with a generated input shrunk (shrink.ts). Everything goes through the run's one
 * `send`, so the pacer and the budget see every request; once the budget is spent the rest come
 * back unsent at once and judge nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { operation } from '../../spec/queries.ts';
import { ownCopy, type Sanitizer } from '../../sanitize/sanitizer.ts';
import { count } from '../checks/values.ts';
import { mapConcurrently } from '../concurrently.ts';
import { rulesOf, type FailureGroup } from '../failures.ts';
import { shrinkFailures, type ShrinkBudget } from '../shrink.ts';
import { wasSent, type CheckContext, type Check, type Deadline, type Exchange, type Probe, type Scenario, type ScenarioOutcome, type ScenarioRun, type Send, type ShrinkSummary, type StateSpend } from '../types.ts';
import type { RunBudget } from '../schedule/budget.ts';
import { messageOf, stretch, type RunJudge } from './judge.ts';
import type { Phase, Planned, RunPlan } from './plan.ts';
import { clipped } from './report.ts';

/**
 * Timeouts in a row after which an operation's remaining probes are not sent: each would wait
 * out `--timeout-ms` too, and a target that hangs on every path would keep a run going for
 * hours. The rows they would have judged are skipped, with this as the reason, and a note says so.
 */
export const MAX_TIMEOUTS_IN_A_ROW = 3;

export interface Progress {
  /** `shrinking` counts requests against the run's shrinking budget. */
  readonly phase: 'probes' | 'scenarios' | 'shrinking' | 'done';
  readonly done: number;
  readonly total: number;
  /** The phase's last update, whether or not `done` reached `total` (shrinking mostly ends before its budget). */
  readonly ended?: boolean;
  readonly requests: number;
  /** Distinct failures so far (failures.ts). */
  readonly failures: number;
  /** 429 answers so far (each waited out, or given up on). */
  readonly throttled?: number;
  /** Of the probes done, those not sent (the budget spent, or their operation kept timing out). */
  readonly unsent?: number;
  /** Time left before the run's budget stops it (`--max-duration`), in ms. */
  readonly deadlineIn?: number;
}

/** A worker waits at most this long before it looks again for a probe whose key may go. */
const LOOK_AGAIN_MS = 1_000;
/** How far down the queue a worker looks for a probe whose key may go. */
const LOOKAHEAD = 1_024;

/**
 * Runs `work` on each item with at most `limit` at once, taking the first whose key the target
 * lets go now (`readyIn`), else the one it lets go soonest: keys paced or paused by the target do
 * not hold the workers while another key could go (each key paced to its own limit, side by side).
 */
async function inReadyOrder(items: readonly Planned[], limit: number, readyIn: ((probe: Probe) => number) | undefined, work: (item: Planned) => Promise<void>): Promise<void> {
  if (!readyIn) return void (await mapConcurrently(items, limit, work));
  const queue = [...items];
  const worker = async () => {
    while (queue.length) {
      let index = 0;
      let soonest = Infinity;
      for (let i = 0; i < Math.min(queue.length, LOOKAHEAD); i++) {
        const wait = readyIn(queue[i]!.probe);
        if (wait < soonest) [index, soonest] = [i, wait];
        if (wait <= 0) break;
      }
      if (soonest > LOOK_AGAIN_MS) {
        await sleep(LOOK_AGAIN_MS);
        continue;
      }
      await work(queue.splice(index, 1)[0]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}

export interface ExecuteInput {
  readonly plan: RunPlan;
  readonly judge: RunJudge;
  readonly send: Send;
  readonly concurrency: number;
  readonly sanitizer: Sanitizer;
  readonly budget: RunBudget;
  readonly checks: readonly Check[];
  readonly checkContext: CheckContext;
  readonly shrinkBudget: ShrinkBudget;
  /** What a kept failure keeps of its exchange (the runner's capped excerpt). */
  readonly keep: (exchange: Exchange) => Exchange;
  readonly onProgress?: ((progress: Progress) => void) | undefined;
  /** How long until a probe may go (the transport's pacer); without it, probes go in order. */
  readonly readyIn?: ((probe: Probe) => number) | undefined;
}

export interface Execution {
  /** The failures kept, in probe order of their first occurrence, shrunk where shrinking applied. */
  readonly kept: FailureGroup[];
  readonly shrinking: ShrinkSummary;
  readonly stateSpends: StateSpend[];
  readonly notes: string[];
}

export async function executeRun(input: ExecuteInput): Promise<Execution> {
  const { plan, judge, sanitizer } = input;
  const notes: string[] = [];
  const progress = (phase: Progress['phase'], done: number, total: number, ended?: true) =>
    input.onProgress?.({
      phase,
      done,
      total,
      ...(ended ? { ended } : {}),
      requests: judge.requests,
      failures: judge.failureLog.distinct,
      throttled: judge.throttled,
      ...(phase === 'probes' && probesUnsent ? { unsent: probesUnsent } : {}),
      ...(input.budget.deadline() < Infinity ? { deadlineIn: Math.max(0, input.budget.deadline() - performance.now()) } : {}),
    });

  const safeSend = async (probe: Probe): Promise<Exchange> => {
    for (const secret of probe.secrets ?? []) sanitizer.add(secret);
    try {
      return await input.send(probe);
    } catch (error) {
      return { probe, failure: { kind: 'other', message: `the transport threw: ${messageOf(error)}`, ms: 0 }, throttled: 0 };
    }
  };

  // ---- Probes, concurrently ----------------------------------------------------------------
  /** The probes' exchanges with the scenarios' actions, by probe order: a scenario sees what came before it. */
  const actions = new Set(plan.scenarios.flatMap((s) => (s.endpoints[0] ? [s.endpoints[0].name] : [])));
  const earlier: [order: number, exchange: Exchange][] = [];
  const timeoutsInARow = new Map<string, number>();
  const notSent = new Map<string, number>();
  let probesDone = 0;
  /** Probes done without being sent (the budget, or an operation that kept timing out). */
  let probesUnsent = 0;
  const sendProbes = async (items: readonly Planned[]) => {
    progress('probes', probesDone, plan.probes.length);
    await inReadyOrder(items, input.concurrency, input.readyIn, async ({ probe, order }) => {
      if (sanitizer.overflow) return; // the caller stops: nothing more is worth sending
      const op = probe.endpoint.name;
      if ((timeoutsInARow.get(op) ?? 0) >= MAX_TIMEOUTS_IN_A_ROW) {
        notSent.set(op, (notSent.get(op) ?? 0) + 1);
        judge.skips.push({ rule: probe.rule, endpoint: probe.endpoint, reason: `not sent: the operation timed out ${MAX_TIMEOUTS_IN_A_ROW} times in a row` });
        probesUnsent++;
      } else {
        const exchange = await safeSend(probe);
        timeoutsInARow.set(op, exchange.failure?.kind === 'timeout' ? (timeoutsInARow.get(op) ?? 0) + 1 : 0);
        judge.judge(exchange, order);
        if (!wasSent(exchange)) probesUnsent++;
        if (actions.has(probe.endpoint.name)) earlier.push([order, clipped(exchange)]);
      }
      progress('probes', ++probesDone, plan.probes.length);
    });
  };

  // ---- Scenarios, one at a time, in one part or two ------------------------------------------
  const stateSpends: StateSpend[] = [];
  const started = new Map<Scenario, { run: ScenarioRun; ms: number }>();
  let scenariosDone = 0;
  const scenarioOrder = (i: number) => plan.probes.length + i;
  const sendFor = (order: number): Send => async (probe) => {
    const exchange = await safeSend(probe);
    judge.judge(exchange, order);
    return exchange;
  };
  const earlierFor = (scenario: Scenario): Exchange[] => {
    const action = scenario.endpoints[0]?.name;
    return earlier
      .filter(([, x]) => x.probe.endpoint.name === action)
      .sort(([a], [b]) => a - b)
      .map(([, x]) => x);
  };
  const crashed = (scenario: Scenario, error: unknown): ScenarioOutcome => ({
    verdict: { title: 'scenario crashed', message: `The scenario "${scenario.title}" threw: ${messageOf(error)} (a suite bug, not a verdict on the server).` },
  });
  const deadline: Deadline = (spending) => input.budget.deadline(spending);
  const runScenarios = async (sequences: Extract<Phase, { kind: 'scenarios' }>['sequences']) => {
    if (!plan.scenarios.length) return;
    progress('scenarios', scenariosDone, plan.scenarios.length);
    for (const [i, scenario] of plan.scenarios.entries()) {
      if (sanitizer.overflow) break;
      const began = performance.now();
      let outcome: ScenarioOutcome | undefined;
      try {
        if (sequences === 'all' || !scenario.start) {
          if (sequences === 'rest' && !scenario.start) continue; // run whole in the first part
          outcome = await scenario.run(sendFor(scenarioOrder(i)), earlierFor(scenario), deadline);
        } else if (sequences === 'first') {
          const run = scenario.start(sendFor(scenarioOrder(i)), earlierFor(scenario), deadline);
          started.set(scenario, { run, ms: 0 });
          await run.more(1);
        } else {
          const part = started.get(scenario)!;
          await part.run.more('all');
          outcome = await part.run.end();
        }
      } catch (error) {
        outcome = crashed(scenario, error);
      }
      const ms = performance.now() - began;
      const part = started.get(scenario);
      if (part) part.ms += ms;
      if (!outcome) continue;
      recordScenario(judge, scenario, scenarioOrder(i), outcome, part ? part.ms : ms);
      notes.push(...(outcome.notes ?? []));
      if (outcome.spend) stateSpends.push(outcome.spend);
      progress('scenarios', ++scenariosDone, plan.scenarios.length);
    }
  };

  for (const phase of plan.phases) {
    if (sanitizer.overflow) break;
    if (phase.kind === 'probes') await sendProbes(phase.items);
    else await runScenarios(phase.sequences);
  }
  for (const [name, n] of notSent) {
    const e = plan.probes.find((p) => p.probe.endpoint.name === name)!.probe.endpoint;
    notes.push(`${operation(e)}: ${count(n, 'probe')} not sent after ${MAX_TIMEOUTS_IN_A_ROW} timeouts in a row (each would have waited --timeout-ms); the rules they judge are skipped there`);
  }

  // ---- Shrink: the first occurrence of each distinct failure with a generated input (errors
  // only; warnings do not fail the run), last: what a budget leaves goes to coverage first ------
  const kept: FailureGroup[] = judge.failureLog.listed();
  const budget = input.shrinkBudget;
  let shrinkRequests = 0;
  const shrinkable = kept.map(({ failure: f }) => ({ rule: f.rule, rules: rulesOf(f), operation: f.operation, ...(f.exchange && (f.verdict.severity ?? 'error') === 'error' ? { exchange: f.exchange } : {}) }));
  if (shrinkable.some((f) => f.exchange?.probe.generated)) progress('shrinking', 0, budget.perRun);
  const { results: shrunk, summary: shrinking } = await shrinkFailures(shrinkable, {
    send: safeSend,
    checks: input.checks,
    context: input.checkContext,
    budget,
    // Every answer is judged, shrinking's too: what a smaller request shows is as much a finding.
    received: (exchange) => {
      judge.judge(exchange, scenarioOrder(plan.scenarios.length) + shrinkRequests, true);
      progress('shrinking', ++shrinkRequests, budget.perRun);
    },
    keep: input.keep,
    halted: () => sanitizer.overflow !== undefined || input.budget.spent() !== undefined,
  });
  if (shrinking.failures > 0) progress('shrinking', shrinking.requests, budget.perRun, true);
  // Shrinking's answers were judged too: the failures listed now, each with what shrinking made of it.
  const shrunkOf = new Map(shrunk.flatMap((s, i) => (s && kept[i]!.failure.exchange ? [[kept[i]!.failure.exchange, s] as const] : [])));
  const listed = judge.failureLog.listed().map((group) => {
    const s = group.failure.exchange && shrunkOf.get(group.failure.exchange);
    return s ? { ...group, failure: { ...group.failure, shrunk: s.verdict ? { ...s, verdict: { ...s.verdict, title: ownCopy(s.verdict.title), message: ownCopy(s.verdict.message) } } : s } } : group;
  });
  progress('done', scenariosDone, plan.scenarios.length);
  return { kept: listed, shrinking, stateSpends, notes };
}

/**
 * A scenario's outcome on its rows: a skip gives them the reason (not observed is not passed); a
 * judged one counts on each, `partly` says what of it was not judged; a verdict is the action's
 * row's failure (the rule is about the action), and the other rows say where it is.
 */
function recordScenario(judge: RunJudge, scenario: Scenario, order: number, outcome: ScenarioOutcome, ms: number): void {
  const ops = scenario.endpoints.map(operation);
  if (outcome.skip !== undefined && !outcome.verdict) {
    for (const e of scenario.endpoints) judge.skips.push({ rule: scenario.rule, endpoint: e, reason: outcome.skip });
    return;
  }
  for (const op of ops) judge.tally(scenario.rule, op).exchanges++;
  // The property's whole run is the action's row's duration (the read's row shares it, and is not counted twice).
  if (ops[0]) judge.tally(scenario.rule, ops[0]).ms += ms;
  for (const op of ops) stretch(judge.tally(scenario.rule, op), ms);
  if (outcome.partly !== undefined) for (const e of scenario.endpoints) judge.skips.push({ rule: scenario.rule, endpoint: e, reason: outcome.partly });
  if (!outcome.verdict) return;
  // The property relates an action and the read that shows it: which of the two is wrong, no
  // answer tells, so the failure is each one's (the same failure, one per row).
  for (const op of ops.length ? ops : [outcome.exchange ? operation(outcome.exchange.probe.endpoint) : '*']) {
    judge.failureLog.record(order, {
      rule: scenario.rule,
      operation: op,
      verdict: outcome.verdict,
      probe: scenario.title,
      symptom: `scenario: ${scenario.title}`,
      ...(outcome.exchange ? { exchange: outcome.exchange } : {}),
      ...(outcome.sequence?.length ? { sequence: outcome.sequence } : {}),
    });
  }
}
