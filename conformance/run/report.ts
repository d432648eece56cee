/**
 * Summarising a run into its report: one row per (rule, operation) in scope, in the model's
 * order, so it reads the same run after run; failures as root causes (one per symptom, in probe
 * order of first occurrence), redacted, each with the seed and a curl line (of the shrunk request
 * where one was found); what the run covered, what it changed on the target, and what its
 * schedule did (pacing, throttling, the budget and what it bought).
 */
import { api } from '../../spec/api.ts';
import type { Endpoint, Rule, RuleId } from '../../spec/model.ts';
import { conflictsOf, inScope, operation } from '../../spec/queries.ts';
import { ownCopy, unsearchedNote, type Sanitizer } from '../../sanitize/sanitizer.ts';
import { count } from '../checks/values.ts';
import { coverageOf, pairKey, reasonsByPair } from '../coverage.ts';
import { curlFor } from '../curl.ts';
import { rulesOf, type FailureGroup, type RowFailures } from '../failures.ts';
import { sequenceOf } from '../sequence.ts';
import { requestTemplate } from '../replay/placeholders.ts';
import type { RunBudget } from '../schedule/budget.ts';
import type { PacerStats } from '../schedule/pacer.ts';
import type { RunnerDelayStats } from '../schedule/runner-delay.ts';
import type { CheckOptions, CheckSummary, Exchange, Failure, ProbeRequest, Report, Schedule, Target } from '../types.ts';
import type { Execution } from './execute.ts';
import type { RunJudge, Tally } from './judge.ts';
import type { RunPlan } from './plan.ts';
import { RATE_FROM } from './forecast.ts';

/** Distinct failures listed per (rule, operation), from the moment they are found; the rest are counted in the notes. */
export const MAX_FAILURES_PER_PAIR = 10;
/** Response text kept in a failure; the full body is one curl away. */
export const FAILURE_TEXT_CAP = 4 * 1024;

export interface ReportInput {
  readonly target: Target;
  readonly seed: number;
  readonly runs: number;
  readonly options: CheckOptions;
  readonly only: readonly RuleId[] | undefined;
  readonly inRules: (rule: RuleId) => boolean;
  readonly concurrency: number;
  readonly failOnSkip: boolean;
  readonly startedAt: number;
  readonly notes: readonly string[];
  readonly reportOptions: Readonly<Record<string, unknown>>;
  readonly sanitizer: Sanitizer;
  readonly plan: RunPlan;
  readonly judge: RunJudge;
  readonly execution: Execution;
  readonly budget: RunBudget;
  /** What the run's pacer learned and did; absent when the transport has none. */
  readonly pacing?: PacerStats | undefined;
  /** How long the suite's own process could not run; absent when the transport does not watch. */
  readonly runner?: RunnerDelayStats | undefined;
}

export function buildReport(input: ReportInput): Report {
  const { target, seed, options, sanitizer, judge, execution } = input;
  const notes = [...input.notes, ...input.plan.notes, ...execution.notes];
  const kept = [...execution.kept];
  const { failureLog } = judge;
  for (const { rules: broken, operation: op, severity, count: groups, occurrences } of failureLog.unlisted()) {
    const what = count(groups, severity === 'warning' ? 'more distinct warning' : 'more distinct failure');
    notes.push(`${broken.join(' + ')} on ${op}: ${what} not listed, from ${count(occurrences, 'failing exchange')} (at most ${MAX_FAILURES_PER_PAIR} listed per rule and operation)`);
  }
  const toFailure = ({ failure: f, occurrences, examples }: FailureGroup): Failure => {
    // A shrunk failure shows its smallest failing exchange, and the first found as `original`.
    const shown = f.shrunk?.exchange ?? f.exchange;
    const verdict = f.shrunk?.verdict ?? f.verdict;
    const request: ProbeRequest = sanitizer.request(shown?.probe.request ?? { method: 'GET', url: target.baseUrl, headers: {} });
    const response = shown?.response;
    // A scenario's failure is reproduced by its sequence, not by the read that showed it.
    const sequence = f.sequence && sequenceOf(f.sequence, target.baseUrl, sanitizer);
    return {
      rule: f.rule,
      rules: rulesOf(f),
      operation: f.operation,
      title: verdict.title,
      message: verdict.message,
      severity: f.verdict.severity ?? 'error',
      probe: f.probe,
      ...(f.exchange?.probe.operator ? { operator: f.exchange.probe.operator.id } : {}),
      request,
      ...(response ? { response } : {}),
      ...(shown?.failure ? { transport: shown.failure } : {}),
      seed,
      curl: sequence?.curl ?? (shown ? curlFor(shown.probe.request, sanitizer) : ''),
      ...(f.shrunk && f.exchange ? { original: sanitizer.request(f.exchange.probe.request), shrinkSteps: f.shrunk.steps, shrink: f.shrunk.note } : {}),
      occurrences,
      ...(examples.length ? { examples: examples.map((e) => ({ probe: e.probe, title: e.verdict.title, request: e.exchange ? sanitizer.request(e.exchange.probe.request) : request })) } : {}),
      ...(sequence ? { sequence: sequence.steps } : {}),
      ...replayOf(shown, f.sequence !== undefined),
    };
  };
  const replayOf = (shown: Exchange | undefined, isSequence: boolean) => {
    const template = shown && !isSequence ? requestTemplate(shown.probe.request, sanitizer) : undefined;
    return template ? { replay: { request: template, expect: shown!.probe.expect, ...(shown!.probe.idsUnknown ? { idsUnknown: true as const } : {}) } } : {};
  };
  const rules = api.rules.filter((r) => input.inRules(r.id));
  const reasons = reasonsByPair(judge.skips);
  const maybe = reasonsByPair(judge.maybeSkips);
  const failed = (rule: RuleId, op: string) => failureLog.row(rule, op);
  const checksSummary = summarize(rules, { tallies: judge.tallies, failed, reasons, maybe, sentTo: judge.sentTo, target, options, startedAt: input.startedAt });
  // A failure under a rule --only left out (a transport failure) still gets its row.
  for (const { failure: f } of kept) {
    if (input.inRules(f.rule) || (f.verdict.severity ?? 'error') !== 'error' || checksSummary.some((c) => c.rule === f.rule && c.operation === f.operation)) continue;
    const t = judge.tally(f.rule, f.operation);
    checksSummary.push({ rule: f.rule, operation: f.operation, outcome: 'failed', exchanges: t.exchanges, ...failed(f.rule, f.operation), reason: 'not chosen by --only, but the server gave no answer' });
  }
  // Rows judged against the target itself (BASE-PATH) have no exchange; their failure is the row's.
  const targetFailures = checksSummary
    .filter((c) => c.operation === '*' && c.outcome === 'failed')
    .map((row): FailureGroup => ({ failure: { rule: row.rule, operation: '*', verdict: { title: row.reason ?? 'failed', message: row.reason ?? '' }, probe: 'the base URL' }, occurrences: 1, examples: [] }));
  kept.push(...targetFailures);
  const failures = kept.filter((g) => (g.failure.verdict.severity ?? 'error') === 'error').map(toFailure);
  const warnings = kept.filter((g) => g.failure.verdict.severity === 'warning').map(toFailure);
  const schedule = scheduleOf(input);
  notes.push(...conflictNotes(judge.sentTo, options), ...assumptionNotes(judge.sentTo, judge.throttled), ...scheduleNotes(schedule, judge.firstThrottled));
  const consumedNote = judge.consumption.note(target.embedded);
  if (consumedNote) notes.push(consumedNote);
  const secretsNote = unsearchedNote(sanitizer);
  if (secretsNote) notes.push(secretsNote);

  const summary = {
    passed: checksSummary.filter((c) => c.outcome === 'passed').length,
    failed: checksSummary.filter((c) => c.outcome === 'failed').length,
    skipped: checksSummary.filter((c) => c.outcome === 'skipped').length,
    warnings: warnings.length,
    distinctFailures: failureLog.distinct + targetFailures.length,
    ruleViolations: failureLog.violations + targetFailures.length,
    failingExchanges: failureLog.occurrences + targetFailures.length,
  };
  const report: Report = {
    // With --fail-on-skip, a skipped row is a gap the gate does not accept.
    ok: failures.length === 0 && !(input.failOnSkip && summary.skipped > 0),
    seed,
    target: target.baseUrl,
    specVersion: api.specVersion,
    startedAt: new Date(input.startedAt).toISOString(),
    durationMs: Date.now() - input.startedAt,
    requests: judge.requests,
    options: {
      strict: options.strict,
      runs: input.runs,
      only: input.only ?? null,
      concurrency: input.concurrency,
      allowDestructive: target.allowDestructive,
      embeddedMock: target.embedded,
      otherTenant: target.other !== undefined,
      failOnSkip: input.failOnSkip,
      ...input.reportOptions,
    },
    summary,
    checks: checksSummary,
    coverage: coverageOf(checksSummary, reasonsByPair([...judge.skips, ...judge.maybeSkips])),
    failures,
    warnings,
    notes,
    consumed: judge.consumption.entries(),
    shrinking: execution.shrinking,
    ...(execution.stateSpends.length ? { stateShrinking: execution.stateSpends } : {}),
    schedule,
  };
  return sanitizer.value(report);
}

/** What the schedule did: the pacing, the 429s, what was not judged and why, and the budget's spend. */
function scheduleOf(input: ReportInput): Schedule {
  const { judge, budget, pacing, runner } = input;
  const limits = budget.limits;
  return {
    throttled: judge.throttled,
    notJudged: { ...judge.unjudged },
    ...(pacing ? { pausedMs: Math.round(pacing.pausedMs), pacedMs: Math.round(pacing.pacedMs) } : {}),
    ...(pacing?.allowedRate !== undefined ? { allowedRate: Number(pacing.allowedRate.toFixed(3)) } : {}),
    ...(pacing?.source ? { rateFrom: pacing.source } : {}),
    ...(pacing?.perOperation ? { perOperation: true as const } : {}),
    ...(runner ? { runner } : {}),
    ...(budget.bounded
      ? {
          budget: {
            ...(limits.maxRequests !== undefined ? { maxRequests: limits.maxRequests } : {}),
            ...(limits.maxDurationMs !== undefined ? { maxDurationMs: limits.maxDurationMs } : {}),
            requests: budget.sent,
            ...(budget.stopped ? { stopped: budget.stopped } : {}),
            sequences: input.execution.stateSpends.map((s) => ({ rule: s.rule, run: s.sequences, of: s.budget.sequences })),
          },
        }
      : {}),
  };
}

/** The runner's own delays are noted from this much in all (a busy machine's scheduling adds a little to any run). */
const RUNNER_DELAY_NOTED_MS = 1000;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function scheduleNotes(schedule: Schedule, firstThrottled: string | undefined): string[] {
  const notes: string[] = [];
  const { throttled, notJudged } = schedule;
  if (throttled || schedule.allowedRate !== undefined || schedule.perOperation) {
    const rate = schedule.allowedRate !== undefined && schedule.rateFrom ? `; paced to ${schedule.allowedRate} requests/s, from ${RATE_FROM[schedule.rateFrom]}` : '';
    const paused = schedule.pausedMs ? `; paused ${(schedule.pausedMs / 1000).toFixed(1)} s on 429s` : '';
    const perOperation = schedule.perOperation ? '; the target limits each endpoint apart (the counts it gave showed it), so each operation was paced to its own' : '';
    notes.push(`pacing: ${count(throttled, 'answer')} of 429${rate}${paused}${perOperation}`);
  }
  if (notJudged.throttled) {
    const first = firstThrottled ? ` (the first: ${firstThrottled})` : '';
    notes.push(`not judged: ${count(notJudged.throttled, 'request')} given up on while the target throttled them${first}; the rows they would have judged say "not judged: throttled", never failed`);
  }
  const runner = schedule.runner;
  if (notJudged.runner || (runner && runner.delayedMs >= RUNNER_DELAY_NOTED_MS)) {
    const unjudged = notJudged.runner ? `; ${count(notJudged.runner, 'request')} waited for while it could not run judged nothing (the rows they would have judged are "not judged", never failed)` : '';
    notes.push(
      `runner: this process itself could not run for ${seconds(runner?.delayedMs ?? 0)} in all while requests waited for their answers (${count(runner?.stalls ?? 0, 'stall')}, the longest ${seconds(runner?.longestMs ?? 0)}: its event loop held, or its machine busy); each request's deadline counted only the time it ran${unjudged}`,
    );
  }
  if (schedule.budget?.stopped) notes.push(`budget: ${schedule.budget.stopped} after ${count(schedule.budget.requests, 'request')}; ${count(notJudged.budget, 'request')} not sent or cut short, the rows they would have judged are "not judged", never failed`);
  return notes;
}

/**
 * What a run keeps of an exchange it may still use (an action's answer a property compares): the
 * answer's text clipped and its parsed body dropped, as `excerpt` keeps it, but not yet sanitized.
 * Memory stays bounded; any of it that reaches the report is sanitized there (`excerpt`, and the
 * report value by value).
 */
export function clipped(exchange: Exchange): Exchange {
  const response = exchange.response;
  if (!response) return exchange;
  const { json: _json, ...rest } = response;
  return { ...exchange, response: { ...rest, text: ownCopy(clipText(response.text, FAILURE_TEXT_CAP)) } };
}

/**
 * What a failure keeps of its exchange: the request, and the answer without its parsed body, its
 * text (withheld already where it names a secret: body.ts) capped, then sanitized (the cut is
 * marked `…`, so the head of a secret left before it is hidden too: sanitize/scan.ts; and a
 * 1 MiB answer costs what its first 4 KiB do), headers sanitized, every string its own copy (not
 * a view of a 1 MiB answer).
 */
export function excerpt(exchange: Exchange, sanitizer: Sanitizer): Exchange {
  const response = exchange.response;
  if (!response) return exchange;
  const { json: _json, jsonError, ...rest } = response;
  // Sanitized again with the whole report (and its rendering, keys too): the matcher as last built will do here.
  const text = sanitizer.text(clipText(response.text, FAILURE_TEXT_CAP), { allowStale: true });
  return {
    ...exchange,
    response: { ...rest, headers: sanitizer.headers(response.headers, { allowStale: true }), text: ownCopy(text), ...(jsonError === undefined ? {} : { jsonError: ownCopy(jsonError) }) },
  };
}

const clipText = (text: string, cap: number): string => (text.length <= cap ? text : `${text.slice(0, cap)}… [${text.length - cap} more characters]`);

interface SummaryInput {
  readonly tallies: ReadonlyMap<string, Tally>;
  /** A row's distinct failures (error severity), if any. */
  readonly failed: (rule: RuleId, op: string) => RowFailures | undefined;
  /** Skip reasons per (rule, operation). */
  readonly reasons: ReadonlyMap<string, readonly string[]>;
  /** Why a row may not have been judged: an exchange of its operation got no answer to judge (throttled, or the budget). */
  readonly maybe: ReadonlyMap<string, readonly string[]>;
  readonly sentTo: ReadonlyMap<string, number>;
  readonly target: Target;
  readonly options: CheckOptions;
  /** The run's start (epoch ms): rows' wall spans are counted from it. */
  readonly startedAt: number;
}

/** One row per (rule, operation) in scope, plus any pair judged outside its rule's scope. */
function summarize(rules: readonly Rule[], input: SummaryInput): CheckSummary[] {
  const rows: CheckSummary[] = [];
  const reasons = input.reasons;
  for (const rule of rules) {
    if (rule.scope === 'target') {
      rows.push(targetRow(rule, input.target));
      continue;
    }
    const covered = new Set<string>();
    for (const e of api.endpoints) {
      if (!inScope(rule, e)) continue;
      covered.add(operation(e));
      rows.push(row(rule, e, operation(e), input, reasons));
    }
    // A check that judged an exchange outside its rule's scope still gets its row.
    for (const [key] of input.tallies) {
      const [id, ...rest] = key.split(' ');
      const op = rest.join(' ');
      if (id === rule.id && !covered.has(op)) rows.push(row(rule, api.endpoints.find((e) => operation(e) === op), op, input, reasons));
    }
  }
  return rows;
}

function row(rule: Rule, e: Endpoint | undefined, op: string, input: SummaryInput, reasons: ReadonlyMap<string, readonly string[]>): CheckSummary {
  const t = input.tallies.get(pairKey(rule.id, op));
  const maybe = input.maybe.get(pairKey(rule.id, op)) ?? [];
  const direct = reasons.get(pairKey(rule.id, op)) ?? [];
  const skipped = [...direct, ...maybe.filter((m) => !direct.includes(m))];
  const exchanges = t?.exchanges ?? 0;
  const notes = e ? conflictWords(rule, e, input.options) : [];
  const ms = Math.round(t?.ms ?? 0);
  const wall = t?.first !== undefined && t.last !== undefined ? { wall: { fromMs: Math.max(0, Math.round(t.first - input.startedAt)), toMs: Math.max(0, Math.round(t.last - input.startedAt)) } } : {};
  const failed = input.failed(rule.id, op);
  const operators = t?.operators?.size ? { operators: [...t.operators].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, probes]) => ({ id, probes })) } : {};
  if (failed) return withReason({ rule: rule.id, operation: op, outcome: 'failed', exchanges, ms, ...wall, ...failed, ...operators }, [...notes, ...partly(skipped)]);
  if (exchanges > 0) return withReason({ rule: rule.id, operation: op, outcome: 'passed', exchanges, ms, ...wall, ...operators }, [...notes, ...partly(skipped)]);
  // Nothing judged it: what certainly kept it from being judged; else what the run knows of it
  // (a flag it needs, or why no valid request could be built, outranks an answer that never came:
  // that answer could not have judged it); else the answers that never came.
  const fallback = direct.length ? undefined : fallbackReason(e, input);
  const why = direct.length ? direct : maybe.length && fallback!.generic ? maybe : [fallback!.reason];
  return withReason({ rule: rule.id, operation: op, outcome: 'skipped', exchanges: 0 }, why);
}

/**
 * Why a row nobody gave a reason for was not judged. Without --allow-destructive an action gets
 * only requests it must refuse, so rules that judge its success have nothing to judge; anything
 * else is shown as it is, so a gap in the probes cannot pass unnoticed.
 */
function fallbackReason(e: Endpoint | undefined, input: SummaryInput): { readonly reason: string; readonly generic: boolean } {
  const sent = e ? (input.sentTo.get(e.name) ?? 0) : 0;
  if (sent === 0) return { reason: 'no probe exercised it', generic: true };
  if (e && e.effect !== 'read' && !input.target.allowDestructive) return { reason: 'needs --allow-destructive', generic: false };
  // No valid request could be built (INPUT-ACCEPT says why), so no rule that judges a success had one.
  const noValid = e && input.reasons.get(pairKey('INPUT-ACCEPT', operation(e)))?.filter((r) => !r.startsWith('not judged'));
  if (noValid?.length) return { reason: noValid.join('; '), generic: false };
  return { reason: `no answer this rule judges among the ${sent} exchange${sent === 1 ? '' : 's'} of this operation`, generic: true };
}

const partly = (reasons: readonly string[]) => (reasons.length ? [`partly skipped: ${reasons.join('; ')}`] : []);

const withReason = (summary: CheckSummary, reasons: readonly string[]): CheckSummary =>
  reasons.length ? { ...summary, reason: reasons.join('; ') } : summary;

/** BASE-PATH: judged once against the target, from its base URL. */
function targetRow(rule: Rule, target: Target): CheckSummary {
  if (rule.id !== 'BASE-PATH') return { rule: rule.id, operation: '*', outcome: 'skipped', exchanges: 0, reason: 'no check judges this rule' };
  let path: string;
  try {
    path = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    path = target.baseUrl;
  }
  return path.endsWith(api.basePath)
    ? { rule: rule.id, operation: '*', outcome: 'passed', exchanges: 0, reason: `the base URL's path ends in ${api.basePath}` }
    : { rule: rule.id, operation: '*', outcome: 'failed', exchanges: 0, failures: 1, occurrences: 1, reason: `the base URL's path ${path} does not end in ${api.basePath}` };
}

/** How the conflicts behind a row were resolved. */
function conflictWords(rule: Rule, e: Endpoint, options: CheckOptions): string[] {
  const ids = new Set(rule.conflicts ?? []);
  return conflictsOf(e)
    .filter((c) => ids.has(c.id))
    .map((c) => `${c.id}: ${options.strict ? 'the letter (--strict)' : `either side accepted${c.extraStatus ? ` (${c.extraStatus} allowed)` : ''}`}`);
}

function conflictNotes(sentTo: ReadonlyMap<string, number>, options: CheckOptions): string[] {
  return api.conflicts
    .filter((c) => c.endpoints.some((name) => (sentTo.get(name) ?? 0) > 0))
    .map((c) => {
      const how = options.strict
        ? `resolved by the letter (--strict): ${c.letter.says}`
        : `either side accepted${c.extraStatus ? ` (${c.extraStatus} allowed besides the table)` : ''}. Letter: ${c.letter.says} Reading: ${c.reading.says}`;
      return `${c.id}: ${how}`;
    });
}

/** Which endpoints make an assumption matter; `always` for the transport's own. */
function assumptionNotes(sentTo: ReadonlyMap<string, number>, throttled: number): string[] {
  const exercised = api.endpoints.filter((e) => (sentTo.get(e.name) ?? 0) > 0);
  return api.assumptions
    .filter((a) => a.scope === 'all' || exercised.some((e) => inScope(a, e)))
    .map((a) => `${a.id} (assumed): ${a.choice}${a.id === 'ASM-THROTTLE-429' ? ` This run waited out ${throttled} answer${throttled === 1 ? '' : 's'} of 429.` : ''}`);
}
