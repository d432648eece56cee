/**
 * Judging a run's exchanges: every active check on every answer, the error verdicts of one
 * exchange as one failure (failures.ts), each row's tally, and what the target accepted of
 * mutating and destructive requests (consumed.ts).
 *
 * Only an answer can fail a rule. An exchange the suite gave up on because the target throttled,
 * or never sent because the run's budget was spent, judges nothing: the rows it would have judged
 * (its probe's own rule, and every rule that judges any answer of its operation) get the reason
 * instead, "not judged: …", a skip where nothing else judged them and "judged in part" where
 * something did.
 */
import { api } from '../../spec/api.ts';
import type { RuleId } from '../../spec/model.ts';
import { inScope, operation } from '../../spec/queries.ts';
import { ownCopy, type Sanitizer } from '../../sanitize/sanitizer.ts';
import { learnExchange } from '../body.ts';
import { ConsumptionLog } from '../consumed.ts';
import { pairKey } from '../coverage.ts';
import { FailureLog, mergeVerdicts } from '../failures.ts';
import { attemptsOf, notJudged, notJudgedReason, wasSent, type Check, type CheckContext, type Exchange, type Skip, type Verdict } from '../types.ts';

export interface Tally {
  exchanges: number;
  /** Time spent waiting on the answers judged (ms), concurrent ones added up. */
  ms: number;
  /** When the first exchange judged was sent and the last one answered (epoch ms): the row's wall time. */
  first?: number;
  last?: number;
  /** Probes of the row's own rule judged, per mutation operator they came from. */
  operators?: Map<string, number>;
}

/** How long an exchange took, answered or not. */
const tookMs = (exchange: Exchange): number => exchange.response?.ms ?? exchange.failure?.ms ?? 0;

/** A row judged something that took `ms` and ended now: its wall span grows to hold it. */
export function stretch(row: Tally, ms: number, now = Date.now()): void {
  row.first = Math.min(row.first ?? Infinity, now - ms);
  row.last = Math.max(row.last ?? -Infinity, now);
}

export interface JudgeInput {
  readonly checks: readonly Check[];
  readonly context: CheckContext;
  readonly inRules: (rule: RuleId) => boolean;
  readonly sanitizer: Sanitizer;
  readonly baseUrl: string;
  /** Failures kept per (rule, operation, severity). */
  readonly cap: number;
  /** What a kept failure keeps of its exchange (the runner's capped excerpt). */
  readonly keep: (exchange: Exchange) => Exchange;
  /** Requests sent before the run (discovery). */
  readonly priorRequests: number;
  /** Skips found while planning; the judge adds the rows it could not judge. */
  readonly skips: Skip[];
  /** Hears of each failure as it is recorded (the rules it broke, its operation). */
  readonly found?: (rules: readonly RuleId[], operation: string) => void;
  /** Hears of every exchange judged, once its secrets are learned (`conform --record-all`). */
  readonly heard?: (exchange: Exchange) => void;
}

export class RunJudge {
  readonly tallies = new Map<string, Tally>();
  /** Exchanges per endpoint name, judged or not (requests not sent left out). */
  readonly sentTo = new Map<string, number>();
  readonly failureLog: FailureLog;
  readonly consumption: ConsumptionLog;
  readonly skips: Skip[];
  /** Rows an exchange that judged nothing might have judged, had it been answered (`#notJudged`). */
  readonly maybeSkips: Skip[] = [];
  /** HTTP requests, retries included. */
  requests: number;
  /** Answers of 429, waited out or given up on. */
  throttled = 0;
  /** Exchanges that judged nothing, by why. */
  readonly unjudged = { throttled: 0, budget: 0, runner: 0 };
  /** Why the first request given up while throttled was given up (the target's own figures). */
  firstThrottled: string | undefined;
  readonly #input: JudgeInput;

  constructor(input: JudgeInput) {
    this.#input = input;
    this.requests = input.priorRequests;
    this.skips = input.skips;
    const { keep } = input;
    this.failureLog = new FailureLog(input.cap, (failure) => ({
      ...failure,
      verdict: { ...failure.verdict, title: ownCopy(failure.verdict.title), message: ownCopy(failure.verdict.message) },
      ...(failure.exchange ? { exchange: keep(failure.exchange) } : {}),
    }), input.found);
    this.consumption = new ConsumptionLog(input.baseUrl);
  }

  tally(rule: RuleId, op: string): Tally {
    const key = pairKey(rule, op);
    let t = this.tallies.get(key);
    if (!t) this.tallies.set(key, (t = { exchanges: 0, ms: 0 }));
    return t;
  }

  /** Counts an exchange's requests and learns its secrets; true when it carries something to judge. */
  received(exchange: Exchange): boolean {
    this.requests += attemptsOf(exchange);
    this.throttled += exchange.throttled;
    learnExchange(this.#input.sanitizer, exchange.probe.request, exchange.response);
    if (notJudged(exchange.failure)) {
      this.unjudged[exchange.failure!.kind as 'throttled' | 'budget' | 'runner']++;
      if (exchange.failure!.kind === 'throttled') this.firstThrottled ??= `${operation(exchange.probe.endpoint)}: ${exchange.failure!.message}`;
      return false;
    }
    // A smaller input the target accepted changed it too.
    this.consumption.observe(exchange);
    return true;
  }

  /**
   * The rows an exchange the suite gave up on would have judged: its probe's rule for certain,
   * and perhaps every active rule that judges any answer of its operation (which ones depends on
   * the answer that never came: `maybeSkips`, a row's reason only where nothing better explains
   * it). They get the reason; none is failed.
   */
  #notJudged(exchange: Exchange): void {
    const { endpoint, rule } = exchange.probe;
    const reason = notJudgedReason(exchange);
    if (this.#input.inRules(rule)) this.skips.push({ rule, endpoint, reason });
    for (const check of this.#input.checks) {
      const r = api.rules.find((x) => x.id === check.rule);
      if (check.rule !== rule && !check.ownProbesOnly && r && inScope(r, endpoint) && this.#input.inRules(check.rule)) this.maybeSkips.push({ rule: check.rule, endpoint, reason });
    }
  }

  /** A verdict about two answers fails the rule on the other's operation too (its row counts it as judged). */
  #alsoOn(rule: RuleId, verdict: Verdict, other: Exchange, order: number): void {
    const op = operation(other.probe.endpoint);
    this.tally(rule, op);
    this.failureLog.record(order, { rule, operation: op, verdict, probe: other.probe.title, exchange: this.#input.keep(other), symptom: `${verdict.title} (with another answer)` });
  }

  /**
   * Applies every active check to one exchange; its error verdicts are one failure, recorded at
   * `order`. `replay`: shrinking's smaller copy of a failing request: what it shows anew is recorded,
   * the failure it shrinks is not counted again.
   */
  judge(exchange: Exchange, order: number, replay = false): void {
    const op = operation(exchange.probe.endpoint);
    if (wasSent(exchange)) this.sentTo.set(exchange.probe.endpoint.name, (this.sentTo.get(exchange.probe.endpoint.name) ?? 0) + 1);
    if (!this.received(exchange)) return this.#notJudged(exchange);
    this.#input.heard?.(exchange);
    const { checks, context, inRules } = this.#input;
    // Once per exchange, for every row it counts on: what it took, and when it ended.
    const took = tookMs(exchange);
    const now = Date.now();
    const broken: { rule: RuleId; verdict: Verdict }[] = [];
    let owned = false;
    for (const check of checks) {
      let applies: boolean;
      try {
        applies = check.applies(exchange);
      } catch (error) {
        applies = false;
        if (inRules(check.rule)) broken.push({ rule: check.rule, verdict: crash(check.rule, 'applies', error) });
      }
      if (!applies || !inRules(check.rule)) continue;
      owned ||= exchange.failure !== undefined;
      const row = this.tally(check.rule, op);
      row.exchanges++;
      row.ms += took;
      stretch(row, took, now);
      const operator = exchange.probe.operator?.id;
      if (operator && check.rule === exchange.probe.rule) (row.operators ??= new Map()).set(operator, (row.operators.get(operator) ?? 0) + 1);
      let verdict: Verdict | undefined;
      try {
        verdict = check.check(context, exchange);
      } catch (error) {
        verdict = crash(check.rule, 'check', error);
      }
      if (verdict?.alsoOn) {
        const { alsoOn, ...own } = verdict;
        verdict = own;
        for (const other of alsoOn) this.#alsoOn(check.rule, own, other, order);
      }
      // Warnings stay apart, one per rule: they do not fail the run.
      if (verdict?.severity === 'warning') this.failureLog.record(order, { rule: check.rule, operation: op, verdict, probe: exchange.probe.title, exchange }, replay);
      else if (verdict) broken.push({ rule: check.rule, verdict });
    }
    // A transport failure no active check took is still the probe's failure: it must show, even
    // under a rule --only left out, or a server that drops connections would pass a narrowed run.
    if (exchange.failure && !owned) {
      const row = this.tally(exchange.probe.rule, op);
      row.exchanges++;
      row.ms += took;
      stretch(row, took, now);
      broken.push({ rule: exchange.probe.rule, verdict: { title: `no answer: ${exchange.failure.kind}`, message: exchange.failure.message } });
    }
    if (broken.length) this.failureLog.record(order, { ...mergeVerdicts(broken), operation: op, probe: exchange.probe.title, exchange }, replay);
  }
}

export function crash(rule: RuleId, part: string, error: unknown): Verdict {
  return { title: 'check crashed', message: `The ${rule} check's \`${part}\` threw on this exchange: ${messageOf(error)} (a suite bug, not a verdict on the server).` };
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
