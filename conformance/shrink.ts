/**
 * Shrinking: a failure found with a generated input is reduced to a small counterexample with
 * fast-check's own shrinking. The probe's arbitrary shrinks the drawn value; the probe's source
 * rebuilds the request from each smaller value (markers added by a `.map` stay, since fast-check
 * shrinks what was drawn before the map); the candidate is sent through the run's transport and
 * judged by the same rule's check. Greedy descent: the first smaller candidate that still fails
 * the same symptom (every rule the failure broke, with the same status, or the same kind of
 * transport failure) becomes the new failure, until none does or a budget ends.
 *
 * Shrinking runs after the probe phase and only on the distinct failures listed in the report, the
 * first occurrence of each (the others show the same symptom: shrinking them would spend the
 * budget on the same minimum), one at a time in a fixed order (the first failure of every rule and
 * operation before the second of any), so the same seed shrinks the same failures and a budget
 * cuts at the same place.
 */
import type fc from 'fast-check';
import type { RuleId } from '../spec/model.ts';
import { count } from './checks/values.ts';
import { answerOf, mergeVerdicts } from './failures.ts';
import { requestKey } from './run/plan.ts';
import { notJudged, type Check, type CheckContext, type Exchange, type Probe, type ProbeRequest, type Send, type ShrinkNote, type ShrinkSummary, type Verdict } from './types.ts';

/** Extra requests one failure may spend on shrinking. */
export const SHRINK_REQUESTS_PER_FAILURE = 100;
/** Extra requests the whole run may spend on shrinking. */
export const SHRINK_REQUESTS_PER_RUN = 400;
/**
 * Candidates one failure may look at, sent or not (a rebuilt request already judged, or one that
 * no longer carries what the probe tests, costs no request): a bound on the work, not a budget
 * a reasonable arbitrary reaches.
 */
export const SHRINK_CANDIDATES_PER_FAILURE = 2000;
/** Candidates that time out after which shrinking stops for the run: each waited out --timeout-ms. */
export const SHRINK_TIMEOUTS_PER_RUN = 3;

export interface ShrinkBudget {
  readonly perFailure: number;
  readonly perRun: number;
}

export const DEFAULT_SHRINK_BUDGET: ShrinkBudget = { perFailure: SHRINK_REQUESTS_PER_FAILURE, perRun: SHRINK_REQUESTS_PER_RUN };

/** A failure as the runner found it: the rules it broke and the exchange that showed it. */
export interface FailureFound {
  readonly rule: RuleId;
  /** Every rule the exchange broke (default `[rule]`): a candidate must break them all. */
  readonly rules?: readonly RuleId[];
  readonly operation: string;
  readonly exchange?: Exchange;
}

/** A failure after shrinking; `exchange` and `verdict` are the smallest failing ones (the original's when `steps` is 0). */
export interface Shrunk {
  /** The smallest failing value of the probe's arbitrary. */
  readonly value: fc.Value<unknown>;
  readonly exchange: Exchange;
  /** The verdict on `exchange` (the rules' merged, as the runner merges them); absent when no step was taken (the original verdict stands). */
  readonly verdict?: Verdict;
  readonly steps: number;
  readonly note: ShrinkNote;
}

export interface ShrinkInput {
  readonly send: Send;
  readonly checks: readonly Check[];
  readonly context: CheckContext;
  readonly budget: ShrinkBudget;
  /** Every exchange shrinking receives, before it is judged (the runner counts it and learns its secrets). */
  readonly received: (exchange: Exchange) => void;
  /** What a failure keeps of an exchange (the runner's capped excerpt). */
  readonly keep: (exchange: Exchange) => Exchange;
  /** True when nothing more is worth sending (the sanitizer overflowed). */
  readonly halted: () => boolean;
}

export interface ShrinkOutcome {
  /** Aligned with the failures given: undefined where the input was not generated. */
  readonly results: readonly (Shrunk | undefined)[];
  readonly summary: ShrinkSummary;
}

/** The part of a request shrinking makes smaller, in characters (code points): the body and the query string. */
export function requestSize(request: ProbeRequest): number {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  return [...(request.body ?? '')].length + [...query].length;
}

/**
 * A candidate may be sent only if the original run could have sent it: the same rule,
 * expectation and endpoint, the same ids (path) and credentials (headers), the same promise of
 * unknown ids. Only the query string and the body may differ.
 */
export function sameSafetyClass(original: Probe, candidate: Probe): boolean {
  const [a, b] = [original.request, candidate.request];
  const site = (url: string) => url.split('?')[0];
  return (
    candidate.rule === original.rule &&
    candidate.expect === original.expect &&
    candidate.endpoint === original.endpoint &&
    candidate.idsUnknown === original.idsUnknown &&
    b.method === a.method &&
    site(b.url) === site(a.url) &&
    JSON.stringify(b.headers) === JSON.stringify(a.headers)
  );
}


/** A sent candidate, judged under every rule being shrunk, as a failure would keep it. */
interface Judged {
  readonly exchange: Exchange;
  /** Error verdicts, by rule. */
  readonly verdicts: ReadonlyMap<RuleId, Verdict>;
}

/** Failures of `failures` whose probe was generated, shrunk greedily within the budgets. */
export async function shrinkFailures(failures: readonly FailureFound[], input: ShrinkInput): Promise<ShrinkOutcome> {
  const { budget } = input;
  const results: (Shrunk | undefined)[] = failures.map(() => undefined);
  const order = shrinkOrder(failures);
  const rules = new Set(order.flatMap((i) => failures[i]!.rules ?? [failures[i]!.rule]));
  const checks = input.checks.filter((c) => rules.has(c.rule));
  // Every request sent, judged under every rule being shrunk: a failure that broke several rules
  // walks the same candidates once per rule, and sends each once.
  const judged = new Map<string, Judged>();
  const run = { spent: 0, timeouts: 0 };

  const judge = (exchange: Exchange): Judged => {
    const verdicts = new Map<RuleId, Verdict>();
    for (const check of checks) {
      if (verdicts.has(check.rule)) continue;
      try {
        if (!check.applies(exchange)) continue;
        const verdict = check.check(input.context, exchange);
        if (verdict && (verdict.severity ?? 'error') === 'error') verdicts.set(check.rule, verdict);
      } catch {
        // A check that crashes on a candidate says nothing about the rule: the candidate is not taken.
      }
    }
    return { exchange: input.keep(exchange), verdicts };
  };

  /** Why no more requests may be sent for this failure, if any. */
  const exhausted = (requests: number): Stop | undefined =>
    requests >= budget.perFailure ? 'failure-budget' : run.spent >= budget.perRun ? 'run-budget' : run.timeouts >= SHRINK_TIMEOUTS_PER_RUN ? 'timeouts' : input.halted() ? 'halted' : undefined;

  /** The candidate's judgement: from an earlier send, or from a send now; a Stop when none is allowed. */
  const judgement = async (probe: Probe, requests: number): Promise<Judged | Stop> => {
    const key = requestKey(probe.request);
    const known = judged.get(key);
    if (known) return known;
    const stop = exhausted(requests);
    if (stop) return stop;
    run.spent++;
    const exchange = await input.send(probe);
    input.received(exchange);
    // Throttled past its retries, or not sent for the run's budget: nothing to judge, and no more to send.
    if (notJudged(exchange.failure)) return 'unjudged';
    if (exchange.failure?.kind === 'timeout') run.timeouts++;
    const j = judge(exchange);
    judged.set(key, j);
    return j;
  };

  const shrinkOne = async (failure: FailureFound): Promise<Shrunk> => {
    const original = failure.exchange!;
    const generated = original.probe.generated!;
    // The same symptom: the same status (or no answer of the same kind), and every rule broken
    // again: its check fails the candidate, or, where no check took the original's missing
    // answer, the candidate's is missing the same way.
    const symptom = answerOf(original);
    const broken = failure.rules ?? [failure.rule];
    const fails = (j: Judged): Verdict | undefined => {
      if (answerOf(j.exchange) !== symptom) return undefined;
      const verdicts = broken.map((rule) => {
        const verdict = j.verdicts.get(rule) ?? (j.exchange.failure ? { title: `no answer: ${j.exchange.failure.kind}`, message: j.exchange.failure.message } : undefined);
        return verdict && { rule, verdict };
      });
      if (verdicts.some((v) => v === undefined)) return undefined;
      return mergeVerdicts(verdicts.filter((v) => v !== undefined)).verdict;
    };
    let current: { value: fc.Value<unknown>; exchange: Exchange; verdict?: Verdict } = { value: generated.value, exchange: original };
    let steps = 0;
    let requests = 0;
    let looked = 0;
    let stop: Stop | undefined = original.failure?.kind === 'timeout' ? 'original-timeout' : original.response?.unread ? 'original-unread' : undefined;
    descend: while (stop === undefined) {
      const currentKey = requestKey(current.exchange.probe.request);
      for (const next of generated.arbitrary.shrink(current.value.value_, current.value.context)) {
        if (++looked > SHRINK_CANDIDATES_PER_FAILURE) {
          stop = 'candidates';
          break descend;
        }
        const probe = generated.build(next.value_);
        if (!probe || !sameSafetyClass(original.probe, probe) || requestKey(probe.request) === currentKey) continue;
        const sentBefore = run.spent;
        const j = await judgement(probe, requests);
        if (typeof j === 'string') {
          stop = j;
          break descend;
        }
        requests += run.spent - sentBefore;
        const verdict = fails(j);
        if (verdict) {
          current = { value: next, exchange: j.exchange, verdict };
          steps++;
          continue descend;
        }
      }
      break; // no smaller candidate fails the rule: a local minimum
    }
    const note: ShrinkNote = {
      requests,
      fromSize: requestSize(original.probe.request),
      toSize: requestSize(current.exchange.probe.request),
      ...(stop !== undefined ? { stopped: `${steps === 0 && requests === 0 ? 'not shrunk' : 'stopped'}: ${stopWords(stop, budget)}` } : {}),
    };
    return { ...current, steps, note };
  };

  for (const index of order) results[index] = await shrinkOne(failures[index]!);
  const shrunk = results.filter((r): r is Shrunk => r !== undefined);
  return {
    results,
    summary: {
      perFailure: budget.perFailure,
      perRun: budget.perRun,
      requests: run.spent,
      failures: shrunk.length,
      reduced: shrunk.filter((r) => r.steps > 0).length,
      stopped: shrunk.filter((r) => r.note.stopped !== undefined).length,
    },
  };
}

/** Why shrinking a failure ended before no smaller candidate failed. */
type Stop = 'failure-budget' | 'run-budget' | 'timeouts' | 'halted' | 'unjudged' | 'candidates' | 'original-timeout' | 'original-unread';

function stopWords(stop: Stop, budget: ShrinkBudget): string {
  switch (stop) {
    case 'failure-budget':
      return `its budget of ${count(budget.perFailure, 'request')} per failure was spent`;
    case 'run-budget':
      return `the run's shrinking budget of ${count(budget.perRun, 'request')} was spent`;
    case 'timeouts':
      return `${SHRINK_TIMEOUTS_PER_RUN} candidates timed out (each waited out --timeout-ms)`;
    case 'halted':
      return 'the run stopped sending';
    case 'unjudged':
      return "a candidate got no answer to judge (throttled past its retries, or the run's budget was spent)";
    case 'candidates':
      return `${SHRINK_CANDIDATES_PER_FAILURE} candidates were looked at`;
    case 'original-timeout':
      return 'the original timed out, and each candidate would wait out --timeout-ms';
    case 'original-unread':
      // Such an answer fails on its form whatever was asked; a candidate would cost a full read and say nothing more.
      return 'the answer was not read for what it is (cut at the size cap, nested too deep or content-encoded)';
  }
}

/**
 * The failures to shrink (those with a generated probe), the first of every (rule, operation)
 * before the second of any, each rank in the failures' own order: when the run's budget ends, every
 * kind of failure has had its turn.
 */
function shrinkOrder(failures: readonly FailureFound[]): number[] {
  const seen = new Map<string, number>();
  const ranked = failures.flatMap((f, index) => {
    if (!f.exchange?.probe.generated) return [];
    const key = `${f.rule} ${f.operation}`;
    const rank = seen.get(key) ?? 0;
    seen.set(key, rank + 1);
    return [{ index, rank }];
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.index - b.index).map((r) => r.index);
}
