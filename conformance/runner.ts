/**
 * The conformance run: builds every probe (filtered by `--only`), sends them with bounded
 * concurrency, applies every applicable check to every exchange, then runs the stateful scenarios
 * one after another (their exchanges are judged too), then shrinks the failures found with a
 * generated input (shrink.ts). The report lists one row per (rule, operation) in scope, in the
 * model's order, so it reads the same run after run; failures are root causes, not echoes: one
 * per symptom (failures.ts), in probe order of its first occurrence, listing every rule it broke
 * and how often it occurred, redacted, each with the seed and a curl line (of the shrunk request,
 * where one was found). It also says what the run covered (`coverage`) and what it changed on the
 * target: the accepted mutating and destructive requests (`consumed`).
 */
import { api } from '../spec/api.ts';
import type { Endpoint, Rule, RuleId } from '../spec/model.ts';
import { conflictsOf, inScope, operation } from '../spec/queries.ts';
import { keySecret, ownCopy, Sanitizer, unsearchedNote, type Secret } from '../sanitize/sanitizer.ts';
import { learnExchange } from './body.ts';
import { count } from './checks/values.ts';
import { mapConcurrently } from './concurrently.ts';
import { ConsumptionLog } from './consumed.ts';
import { coverageOf, pairKey, reasonsByPair } from './coverage.ts';
import { curlFor } from './curl.ts';
import { FailureLog, mergeVerdicts, rulesOf, type FailureGroup, type RowFailures } from './failures.ts';
import { sequenceOf } from './sequence.ts';
import { DEFAULT_CONCURRENCY } from './flags.ts';
import { DEFAULT_SHRINK_BUDGET, shrinkFailures, type ShrinkBudget } from './shrink.ts';
import type {
  Check,
  CheckContext,
  CheckOptions,
  CheckSummary,
  Exchange,
  Failure,
  Probe,
  ProbeContext,
  ProbeRequest,
  ProbeSource,
  Report,
  Scenario,
  ScenarioSource,
  Send,
  Skip,
  StateSpend,
  Target,
  Verdict,
} from './types.ts';

/** What the run applies: the checks and the sources of probes and scenarios. */
export interface Suite {
  readonly checks: readonly Check[];
  readonly probeSources: readonly ProbeSource[];
  readonly scenarioSources: readonly ScenarioSource[];
}

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
}


/** Distinct failures listed per (rule, operation), from the moment they are found; the rest are counted in the notes. */
export const MAX_FAILURES_PER_PAIR = 10;
/**
 * Timeouts in a row after which an operation's remaining probes are not sent: each would wait
 * out `--timeout-ms` too, and a target that hangs on every path would keep a run going for
 * hours. The rows they would have judged are skipped, with this as the reason, and a note says so.
 */
export const MAX_TIMEOUTS_IN_A_ROW = 3;
/** Response text kept in a failure; the full body is one curl away. */
export const FAILURE_TEXT_CAP = 4 * 1024;

/** The names under which the keys appear in reports and curl lines. */
export function secretsOf(target: Target): Secret[] {
  return [keySecret(target.main.apiKey, 'HSC_API_KEY'), ...(target.other ? [keySecret(target.other.apiKey, 'HSC_OTHER_API_KEY')] : [])];
}

interface Tally {
  exchanges: number;
  /** Time spent waiting on the answers judged (ms): the row's duration in reports. */
  ms: number;
}

/** How long an exchange took, answered or not. */
const tookMs = (exchange: Exchange): number => exchange.response?.ms ?? exchange.failure?.ms ?? 0;

export async function runConformance(input: RunInput): Promise<Report> {
  const started = input.startedAt ?? Date.now();
  const { target, seed, runs, options, suite } = input;
  const concurrency = Math.max(1, input.concurrency ?? DEFAULT_CONCURRENCY);
  const ruleSet = input.only?.length ? new Set<RuleId>(input.only) : undefined;
  const inRules = (rule: RuleId) => !ruleSet || ruleSet.has(rule);
  const sanitizer = input.sanitizer ?? new Sanitizer();
  for (const secret of secretsOf(target)) sanitizer.add(secret);
  const context: ProbeContext = { target, seed, runs, options };
  const checkContext: CheckContext = { options };
  const activeChecks = suite.checks.filter((c) => inRules(c.rule));
  const notes: string[] = [...(input.notes ?? [])];

  // ---- Build ------------------------------------------------------------------------------
  const skips: Skip[] = [];
  const allProbes: Probe[] = [];
  suite.probeSources.forEach((source, i) => {
    try {
      const built = source(context);
      allProbes.push(...built.probes);
      skips.push(...built.skipped);
    } catch (error) {
      notes.push(`runner: probe source ${source.name || `#${i + 1}`} failed, its probes were not sent: ${messageOf(error)}`);
    }
  });
  const scenarios: Scenario[] = [];
  suite.scenarioSources.forEach((source, i) => {
    try {
      const built = source(context);
      scenarios.push(...built.scenarios.filter((s) => inRules(s.rule)));
      skips.push(...built.skipped);
    } catch (error) {
      notes.push(`runner: scenario source ${source.name || `#${i + 1}`} failed, its scenarios did not run: ${messageOf(error)}`);
    }
  });
  const probes = selectProbes(allProbes, ruleSet, activeChecks);
  /** The probes' exchanges with the scenarios' actions, by probe order: a scenario sees what came before it. */
  const actions = new Set(scenarios.flatMap((s) => (s.endpoints[0] ? [s.endpoints[0].name] : [])));
  const earlier: [order: number, exchange: Exchange][] = [];

  // ---- Judge ------------------------------------------------------------------------------
  const tallies = new Map<string, Tally>();
  const tally = (rule: RuleId, op: string): Tally => {
    const key = pairKey(rule, op);
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { exchanges: 0, ms: 0 }));
    return t;
  };
  const sentTo = new Map<string, number>();
  let requests = input.priorRequests ?? 0;
  let throttled = 0;
  /** Notes for rows beyond their outcome, by (rule, operation): a scenario's rows that do not own its failure. */
  const rowNotes = new Map<string, string[]>();

  // Each kept failure holds a capped excerpt of its answer, and at most MAX_FAILURES_PER_PAIR are
  // listed per (rule, operation, severity): memory stays bounded whatever the target sends.
  const failureLog = new FailureLog(MAX_FAILURES_PER_PAIR, (failure) => ({
    ...failure,
    verdict: { ...failure.verdict, title: ownCopy(failure.verdict.title), message: ownCopy(failure.verdict.message) },
    ...(failure.exchange ? { exchange: excerpt(failure.exchange, sanitizer) } : {}),
  }));
  const consumption = new ConsumptionLog(target.baseUrl);

  /** Applies every active check to one exchange; its error verdicts are one failure, recorded at `order`. */
  const judge = (exchange: Exchange, order: number) => {
    const op = operation(exchange.probe.endpoint);
    sentTo.set(exchange.probe.endpoint.name, (sentTo.get(exchange.probe.endpoint.name) ?? 0) + 1);
    requests += 1 + exchange.throttled;
    throttled += exchange.throttled;
    learnExchange(sanitizer, exchange.probe.request, exchange.response);
    consumption.observe(exchange);
    const broken: { rule: RuleId; verdict: Verdict }[] = [];
    let owned = false;
    for (const check of suite.checks) {
      let applies: boolean;
      try {
        applies = check.applies(exchange);
      } catch (error) {
        applies = false;
        if (inRules(check.rule)) broken.push({ rule: check.rule, verdict: crash(check.rule, 'applies', error) });
      }
      if (!applies || !inRules(check.rule)) continue;
      owned ||= exchange.failure !== undefined;
      const row = tally(check.rule, op);
      row.exchanges++;
      row.ms += tookMs(exchange);
      let verdict: Verdict | undefined;
      try {
        verdict = check.check(checkContext, exchange);
      } catch (error) {
        verdict = crash(check.rule, 'check', error);
      }
      // Warnings stay apart, one per rule: they do not fail the run.
      if (verdict?.severity === 'warning') failureLog.record(order, { rule: check.rule, operation: op, verdict, probe: exchange.probe.title, exchange });
      else if (verdict) broken.push({ rule: check.rule, verdict });
    }
    // A transport failure no active check took is still the probe's failure: it must show, even
    // under a rule --only left out, or a server that drops connections would pass a narrowed run.
    if (exchange.failure && !owned) {
      const row = tally(exchange.probe.rule, op);
      row.exchanges++;
      row.ms += tookMs(exchange);
      broken.push({ rule: exchange.probe.rule, verdict: { title: `no answer: ${exchange.failure.kind}`, message: exchange.failure.message } });
    }
    if (broken.length) failureLog.record(order, { ...mergeVerdicts(broken), operation: op, probe: exchange.probe.title, exchange });
  };

  const safeSend = async (probe: Probe): Promise<Exchange> => {
    try {
      return await input.send(probe);
    } catch (error) {
      return { probe, failure: { kind: 'other', message: `the transport threw: ${messageOf(error)}`, ms: 0 }, throttled: 0 };
    }
  };

  const progress = (phase: Progress['phase'], done: number, total: number, ended?: true) =>
    input.onProgress?.({ phase, done, total, ...(ended ? { ended } : {}), requests, failures: failureLog.distinct });

  // ---- Probes, concurrently; results kept in probe order ---------------------------------
  let done = 0;
  progress('probes', 0, probes.length);
  const timeoutsInARow = new Map<string, number>();
  const notSent = new Map<string, number>();
  await mapConcurrently(probes, concurrency, async (probe, i) => {
    if (sanitizer.overflow) return; // the caller stops: nothing more is worth sending
    const op = probe.endpoint.name;
    if ((timeoutsInARow.get(op) ?? 0) >= MAX_TIMEOUTS_IN_A_ROW) {
      notSent.set(op, (notSent.get(op) ?? 0) + 1);
      skips.push({ rule: probe.rule, endpoint: probe.endpoint, reason: `not sent: the operation timed out ${MAX_TIMEOUTS_IN_A_ROW} times in a row` });
    } else {
      const exchange = await safeSend(probe);
      timeoutsInARow.set(op, exchange.failure?.kind === 'timeout' ? (timeoutsInARow.get(op) ?? 0) + 1 : 0);
      judge(exchange, i);
      if (actions.has(probe.endpoint.name)) earlier.push([i, excerpt(exchange, sanitizer)]);
    }
    progress('probes', ++done, probes.length);
  });
  for (const [name, n] of notSent) {
    const e = probes.find((p) => p.endpoint.name === name)!.endpoint;
    notes.push(`${operation(e)}: ${count(n, 'probe')} not sent after ${MAX_TIMEOUTS_IN_A_ROW} timeouts in a row (each would have waited --timeout-ms); the rules they judge are skipped there`);
  }

  // ---- Scenarios, one at a time -----------------------------------------------------------
  progress('scenarios', 0, scenarios.length);
  earlier.sort(([a], [b]) => a - b);
  const stateSpends: StateSpend[] = [];
  for (const [i, scenario] of scenarios.entries()) {
    if (sanitizer.overflow) break;
    const order = probes.length + i;
    const send: Send = async (probe) => {
      const exchange = await safeSend(probe);
      judge(exchange, order);
      return exchange;
    };
    const ops = scenario.endpoints.map(operation);
    let outcome: Awaited<ReturnType<Scenario['run']>>;
    const scenarioStarted = performance.now();
    try {
      const action = scenario.endpoints[0]?.name;
      outcome = await scenario.run(
        send,
        earlier.filter(([, x]) => x.probe.endpoint.name === action).map(([, x]) => x),
      );
    } catch (error) {
      outcome = { verdict: { title: 'scenario crashed', message: `The scenario "${scenario.title}" threw: ${messageOf(error)} (a suite bug, not a verdict on the server).` } };
    }
    notes.push(...(outcome.notes ?? []));
    if (outcome.spend) stateSpends.push(outcome.spend);
    if (outcome.skip !== undefined && !outcome.verdict) {
      // Not observed is not passed: the rows get the reason, as a source's skip would give them.
      for (const e of scenario.endpoints) skips.push({ rule: scenario.rule, endpoint: e, reason: outcome.skip });
      progress('scenarios', i + 1, scenarios.length);
      continue;
    }
    for (const op of ops) tally(scenario.rule, op).exchanges++;
    // The property's whole run is the action's row's duration (the read's row shares it, and is not counted twice).
    if (ops[0]) tally(scenario.rule, ops[0]).ms += performance.now() - scenarioStarted;
    if (outcome.verdict) {
      // The rule is about the action (the scenario's first endpoint): its row owns the failure, once;
      // the exchange shown may be the read that observed it, whose row says where the failure is.
      const op = ops[0] ?? (outcome.exchange ? operation(outcome.exchange.probe.endpoint) : '*');
      failureLog.record(order, {
        rule: scenario.rule,
        operation: op,
        verdict: outcome.verdict,
        probe: scenario.title,
        symptom: `scenario: ${scenario.title}`,
        ...(outcome.exchange ? { exchange: outcome.exchange } : {}),
        ...(outcome.sequence?.length ? { sequence: outcome.sequence } : {}),
      });
      const what = (outcome.verdict.severity ?? 'error') === 'error' ? 'failure' : 'warning';
      for (const other of ops) {
        if (other === op) continue;
        const key = pairKey(scenario.rule, other);
        rowNotes.set(key, [...(rowNotes.get(key) ?? []), `the property's ${what} is counted on the row of the action it is about, ${op}; this operation only observed it`]);
      }
    }
    progress('scenarios', i + 1, scenarios.length);
  }

  // ---- Shrink: the first occurrence of each distinct failure with a generated input (errors
  // only; warnings do not fail the run) -------------------------------------------------------
  const kept: FailureGroup[] = failureLog.listed();
  const budget = input.shrinkBudget ?? DEFAULT_SHRINK_BUDGET;
  let shrinkRequests = 0;
  const shrinkable = kept.map(({ failure: f }) => ({ rule: f.rule, rules: rulesOf(f), operation: f.operation, ...(f.exchange && (f.verdict.severity ?? 'error') === 'error' ? { exchange: f.exchange } : {}) }));
  if (shrinkable.some((f) => f.exchange?.probe.generated)) progress('shrinking', 0, budget.perRun);
  const { results: shrunk, summary: shrinking } = await shrinkFailures(
    shrinkable,
    {
      send: safeSend,
      checks: suite.checks,
      context: checkContext,
      budget,
      received: (exchange) => {
        requests += 1 + exchange.throttled;
        throttled += exchange.throttled;
        learnExchange(sanitizer, exchange.probe.request, exchange.response);
        // A smaller input the target accepted changed it too.
        consumption.observe(exchange);
        progress('shrinking', ++shrinkRequests, budget.perRun);
      },
      keep: (exchange) => excerpt(exchange, sanitizer),
      halted: () => sanitizer.overflow !== undefined,
    },
  );
  if (shrinking.failures > 0) progress('shrinking', shrinking.requests, budget.perRun, true);
  shrunk.forEach((s, i) => {
    const group = kept[i]!;
    if (s) kept[i] = { ...group, failure: { ...group.failure, shrunk: s.verdict ? { ...s, verdict: { ...s.verdict, title: ownCopy(s.verdict.title), message: ownCopy(s.verdict.message) } } : s } };
  });

  // ---- Report -----------------------------------------------------------------------------
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
      request,
      ...(response ? { response } : {}),
      ...(shown?.failure ? { transport: shown.failure } : {}),
      seed,
      curl: sequence?.curl ?? (shown ? curlFor(shown.probe.request, sanitizer) : ''),
      ...(f.shrunk && f.exchange ? { original: sanitizer.request(f.exchange.probe.request), shrinkSteps: f.shrunk.steps, shrink: f.shrunk.note } : {}),
      occurrences,
      ...(examples.length ? { examples: examples.map((e) => ({ probe: e.probe, title: e.verdict.title, request: e.exchange ? sanitizer.request(e.exchange.probe.request) : request })) } : {}),
      ...(sequence ? { sequence: sequence.steps } : {}),
    };
  };
  const rules = api.rules.filter((r) => inRules(r.id));
  const reasons = reasonsByPair(skips);
  const failed = (rule: RuleId, op: string) => failureLog.row(rule, op);
  const checksSummary = summarize(rules, { tallies, failed, notes: rowNotes, reasons, sentTo, target, options });
  // A failure under a rule --only left out (a transport failure) still gets its row.
  for (const { failure: f } of kept) {
    if (inRules(f.rule) || (f.verdict.severity ?? 'error') !== 'error' || checksSummary.some((c) => c.rule === f.rule && c.operation === f.operation)) continue;
    const t = tally(f.rule, f.operation);
    checksSummary.push({ rule: f.rule, operation: f.operation, outcome: 'failed', exchanges: t.exchanges, ...failed(f.rule, f.operation), reason: 'not chosen by --only, but the server gave no answer' });
  }
  // Rows judged against the target itself (BASE-PATH) have no exchange; their failure is the row's.
  const targetFailures = checksSummary
    .filter((c) => c.operation === '*' && c.outcome === 'failed')
    .map((row): FailureGroup => ({ failure: { rule: row.rule, operation: '*', verdict: { title: row.reason ?? 'failed', message: row.reason ?? '' }, probe: 'the base URL' }, occurrences: 1, examples: [] }));
  kept.push(...targetFailures);
  const failures = kept.filter((g) => (g.failure.verdict.severity ?? 'error') === 'error').map(toFailure);
  const warnings = kept.filter((g) => g.failure.verdict.severity === 'warning').map(toFailure);
  notes.push(...conflictNotes(sentTo, options), ...assumptionNotes(sentTo, throttled));
  const consumedNote = consumption.note(target.embedded);
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
  const failOnSkip = input.failOnSkip === true;
  progress('done', scenarios.length, scenarios.length);
  const report: Report = {
    // With --fail-on-skip, a skipped row is a gap the gate does not accept.
    ok: failures.length === 0 && !(failOnSkip && summary.skipped > 0),
    seed,
    target: target.baseUrl,
    specVersion: api.specVersion,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests,
    options: {
      strict: options.strict,
      runs,
      only: input.only ?? null,
      concurrency,
      allowDestructive: target.allowDestructive,
      embeddedMock: target.embedded,
      otherTenant: target.other !== undefined,
      failOnSkip,
      ...input.reportOptions,
    },
    summary,
    checks: checksSummary,
    coverage: coverageOf(checksSummary, reasons),
    failures,
    warnings,
    notes,
    consumed: consumption.entries(),
    shrinking,
    ...(stateSpends.length ? { stateShrinking: stateSpends } : {}),
  };
  return sanitizer.value(report);
}

/**
 * With `--only`, the probes of the chosen rules; but a chosen rule that judges every exchange
 * and has no probes of its own (ERR-BODY, STATUS-SET, ...) needs all probes as material.
 */
/** Under `--only`, the probes the active checks can judge: all of them unless every check judges only its own rule's. */
function selectProbes(all: readonly Probe[], only: ReadonlySet<RuleId> | undefined, active: readonly Check[]): Probe[] {
  if (!only || active.some((c) => !c.ownProbesOnly)) return [...all];
  return all.filter((p) => only.has(p.rule));
}

function crash(rule: RuleId, part: string, error: unknown): Verdict {
  return { title: 'check crashed', message: `The ${rule} check's \`${part}\` threw on this exchange: ${messageOf(error)} (a suite bug, not a verdict on the server).` };
}

/**
 * What a failure keeps of its exchange: the request, and the answer without its parsed body, its
 * text (withheld already where it names a secret: body.ts) capped, then sanitized (the cut is
 * marked `…`, so the head of a secret left before it is hidden too: sanitize/scan.ts; and a
 * 1 MiB answer costs what its first 4 KiB do), headers sanitized, every string its own copy (not
 * a view of a 1 MiB answer).
 */
function excerpt(exchange: Exchange, sanitizer: Sanitizer): Exchange {
  const response = exchange.response;
  if (!response) return exchange;
  const { json: _json, jsonError, ...rest } = response;
  // Sanitized again with the whole report: the matcher as last built will do here.
  const text = sanitizer.text(clipText(response.text, FAILURE_TEXT_CAP), { allowStale: true });
  return {
    ...exchange,
    response: { ...rest, headers: sanitizer.headers(response.headers), text: ownCopy(text), ...(jsonError === undefined ? {} : { jsonError: ownCopy(jsonError) }) },
  };
}

const clipText = (text: string, cap: number): string => (text.length <= cap ? text : `${text.slice(0, cap)}… [${text.length - cap} more characters]`);

interface SummaryInput {
  readonly tallies: ReadonlyMap<string, Tally>;
  /** A row's distinct failures (error severity), if any. */
  readonly failed: (rule: RuleId, op: string) => RowFailures | undefined;
  /** Notes per (rule, operation) besides the skip reasons. */
  readonly notes: ReadonlyMap<string, readonly string[]>;
  /** Skip reasons per (rule, operation). */
  readonly reasons: ReadonlyMap<string, readonly string[]>;
  readonly sentTo: ReadonlyMap<string, number>;
  readonly target: Target;
  readonly options: CheckOptions;
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
  const skipped = reasons.get(pairKey(rule.id, op)) ?? [];
  const exchanges = t?.exchanges ?? 0;
  const notes = [...(e ? conflictWords(rule, e, input.options) : []), ...(input.notes.get(pairKey(rule.id, op)) ?? [])];
  const ms = Math.round(t?.ms ?? 0);
  const failed = input.failed(rule.id, op);
  if (failed) return withReason({ rule: rule.id, operation: op, outcome: 'failed', exchanges, ms, ...failed }, [...notes, ...partly(skipped)]);
  if (exchanges > 0) return withReason({ rule: rule.id, operation: op, outcome: 'passed', exchanges, ms }, [...notes, ...partly(skipped)]);
  const why = skipped.length ? skipped : [fallbackReason(e, input)];
  return withReason({ rule: rule.id, operation: op, outcome: 'skipped', exchanges: 0 }, why);
}

/**
 * Why a row nobody gave a reason for was not judged. Without --allow-destructive an action gets
 * only requests it must refuse, so rules that judge its success have nothing to judge; anything
 * else is shown as it is, so a gap in the probes cannot pass unnoticed.
 */
function fallbackReason(e: Endpoint | undefined, input: SummaryInput): string {
  const sent = e ? (input.sentTo.get(e.name) ?? 0) : 0;
  if (sent === 0) return 'no probe exercised it';
  if (e && e.effect !== 'read' && !input.target.allowDestructive) return 'needs --allow-destructive';
  // No valid request could be built (INPUT-ACCEPT says why), so no rule that judges a success had one.
  const noValid = e && input.reasons.get(pairKey('INPUT-ACCEPT', operation(e)));
  if (noValid?.length) return noValid.join('; ');
  return `no answer this rule judges among the ${sent} exchange${sent === 1 ? '' : 's'} of this operation`;
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
    .filter((a) => {
      return a.scope === 'all' || exercised.some((e) => inScope(a, e));
    })
    .map((a) => `${a.id} (assumed): ${a.choice}${a.id === 'ASM-THROTTLE-429' ? ` This run waited out ${throttled} answer${throttled === 1 ? '' : 's'} of 429.` : ''}`);
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
