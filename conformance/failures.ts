/**
 * The failures a run keeps. One exchange that breaks several rules is one failure listing them
 * all (a root cause, not its echoes); the rows of every rule it broke still fail. Memory stays
 * bounded: at most `cap` failures are kept per (rule, operation, severity), the first in probe
 * order whatever order the answers arrive in; a failure is listed when any of its rules keeps it.
 * Those not listed are counted once each, under the rules they broke together.
 */
import type { Shrunk } from './shrink.ts';
import { api } from '../spec/api.ts';
import type { RuleId } from '../spec/model.ts';
import type { Exchange, ScenarioStep, Verdict } from './types.ts';

/** A failure before redaction; `request` is the raw one (the curl line is built from it). */
export interface RawFailure {
  /** The first rule it broke, in the model's rule order. */
  readonly rule: RuleId;
  /** Every rule it broke, in the model's rule order, when more than one (default `[rule]`). */
  readonly rules?: readonly RuleId[];
  readonly operation: string;
  readonly verdict: Verdict;
  readonly probe: string;
  readonly exchange?: Exchange;
  /** The smallest failing input shrinking found from `exchange`'s (shrink.ts). */
  readonly shrunk?: Shrunk;
  /** A scenario's failure: the requests that led to it (see `Failure.sequence`). */
  readonly sequence?: readonly ScenarioStep[];
}

export const rulesOf = (f: RawFailure): readonly RuleId[] => f.rules ?? [f.rule];

const ruleOrder = new Map(api.rules.map((r, i) => [r.id, i]));

/**
 * The error verdicts one exchange drew, as one failure: rules in the model's order, the first
 * rule's title, and every rule's reason in the message, one line each (line breaks within a
 * reason become spaces, so each line is one rule's); a single verdict is kept as it is.
 */
export function mergeVerdicts(broken: readonly { readonly rule: RuleId; readonly verdict: Verdict }[]): Pick<RawFailure, 'rule' | 'rules' | 'verdict'> {
  const sorted = [...broken].sort((a, b) => (ruleOrder.get(a.rule) ?? Infinity) - (ruleOrder.get(b.rule) ?? Infinity));
  const first = sorted[0];
  if (!first) throw new Error('mergeVerdicts needs at least one verdict');
  // One check judges an exchange once, so a rule appears once; a crashed `applies` and its rule's
  // verdict cannot both occur.
  const rules = [...new Set(sorted.map((b) => b.rule))];
  if (sorted.length === 1) return { rule: first.rule, rules, verdict: first.verdict };
  const message = sorted.map((b) => `${b.rule}: ${b.verdict.title}. ${b.verdict.message}`.replace(/[\r\n\u2028\u2029]+/g, ' ')).join('\n');
  return { rule: first.rule, rules, verdict: { title: first.verdict.title, message, severity: 'error' } };
}

interface Kept {
  readonly order: number;
  readonly seq: number;
  readonly failure: RawFailure;
}

interface Pair {
  readonly rule: RuleId;
  readonly operation: string;
  readonly severity: 'error' | 'warning';
  /** Failures (or warnings) that broke this rule on this operation, kept or not. */
  count: number;
  kept: Kept[];
}

export class FailureLog {
  readonly #cap: number;
  readonly #slim: (failure: RawFailure) => RawFailure;
  readonly #pairs = new Map<string, Pair>();
  /** Failures recorded per (rules broken together, operation, severity), kept or not. */
  readonly #together = new Map<string, { -readonly [K in keyof Unlisted]: Unlisted[K] }>();
  #seq = 0;
  #distinct = 0;
  #violations = 0;

  /** `slim` copies what a kept failure needs (a capped excerpt of its answer), once per failure kept. */
  constructor(cap: number, slim: (failure: RawFailure) => RawFailure) {
    this.#cap = cap;
    this.#slim = slim;
  }

  /** Failures recorded (error severity), one per exchange or scenario, kept or not. */
  get distinct(): number {
    return this.#distinct;
  }

  /** Rules those failures broke, counted per failure. */
  get violations(): number {
    return this.#violations;
  }

  /** Records a failure found at `order` (the probe's index; scenarios come after). */
  record(order: number, failure: RawFailure): void {
    const severity = failure.verdict.severity ?? 'error';
    const rules = rulesOf(failure);
    if (severity === 'error') {
      this.#distinct++;
      this.#violations += rules.length;
    }
    const pairs = rules.map((rule) => this.#pair(rule, failure.operation, severity));
    for (const pair of pairs) pair.count++;
    const together = togetherKey(rules, failure.operation, severity);
    const group = this.#together.get(together);
    if (group) group.count++;
    else this.#together.set(together, { rules: [...rules], operation: failure.operation, severity, count: 1 });
    const open = pairs.filter((p) => p.kept.length < this.#cap || p.kept[p.kept.length - 1]!.order > order);
    if (!open.length) return;
    const kept: Kept = { order, seq: this.#seq++, failure: this.#slim(failure) };
    for (const pair of open) {
      pair.kept.push(kept);
      pair.kept.sort(byOrder);
      if (pair.kept.length > this.#cap) pair.kept.pop();
    }
  }

  /** The failures and warnings kept by any of their rules, in probe order. */
  listed(): RawFailure[] {
    const all = new Set<Kept>();
    for (const pair of this.#pairs.values()) for (const k of pair.kept) all.add(k);
    return [...all].sort(byOrder).map((k) => k.failure);
  }

  /**
   * The failures listed under no rule, counted once each per (rules broken together, operation,
   * severity): one root cause across three rules is one count, not three echoes of it.
   */
  unlisted(): Unlisted[] {
    const listed = new Map<string, number>();
    for (const f of this.listed()) {
      const key = togetherKey(rulesOf(f), f.operation, f.verdict.severity ?? 'error');
      listed.set(key, (listed.get(key) ?? 0) + 1);
    }
    return [...this.#together.entries()].map(([key, g]) => ({ ...g, count: g.count - (listed.get(key) ?? 0) })).filter((g) => g.count > 0);
  }

  #pair(rule: RuleId, operation: string, severity: 'error' | 'warning'): Pair {
    const key = pairKey(rule, operation, severity);
    let pair = this.#pairs.get(key);
    if (!pair) this.#pairs.set(key, (pair = { rule, operation, severity, count: 0, kept: [] }));
    return pair;
  }
}

/** Failures not listed, of one set of rules broken together on one operation. */
export interface Unlisted {
  readonly rules: readonly RuleId[];
  readonly operation: string;
  readonly severity: 'error' | 'warning';
  readonly count: number;
}

const pairKey = (rule: string, operation: string, severity: string) => `${rule} ${operation} ${severity}`;
const togetherKey = (rules: readonly string[], operation: string, severity: string) => `${rules.join('+')} ${operation} ${severity}`;
const byOrder = (a: Kept, b: Kept) => a.order - b.order || a.seq - b.seq;
