/**
 * The failures a run keeps: root causes, not echoes. One exchange that breaks several rules is one
 * failure listing them all; failures with the same symptom are one distinct failure with the
 * number of its occurrences. The symptom is what was observed, nothing inferred: the severity, the
 * operation, the set of rules broken together, and what the answer showed (its status, or the
 * kind of transport failure). The verdict's title does not enter: it carries values read from the
 * answer (a field path, an operation id's kind, a media type), so one cause would scatter into as
 * many failures as values; the few examples kept show the titles of the first occurrences.
 *
 * Memory stays bounded: at most `cap` distinct failures are listed per (rule, operation,
 * severity), those whose first occurrence comes first in probe order, whatever order the answers
 * arrive in; a failure is listed when any of its rules lists it. Each listed one keeps its first
 * occurrence in full and the next few (its examples) without their answers. Those not listed are
 * counted, once each, under the rules they broke together.
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
  /** What was observed besides the rules, when not the exchange's answer (`answerOf`): a scenario names itself. */
  readonly symptom?: string;
  /** The smallest failing input shrinking found from `exchange`'s (shrink.ts). */
  readonly shrunk?: Shrunk;
  /** A scenario's failure: the requests that led to it (see `Failure.sequence`). */
  readonly sequence?: readonly ScenarioStep[];
}

/** One distinct failure: its first occurrence in probe order stands for all. */
export interface FailureGroup {
  readonly failure: RawFailure;
  /** Failures with this symptom, the first included. */
  readonly occurrences: number;
  /** The next occurrences in probe order (at most `EXAMPLES_KEPT`), without their answers. */
  readonly examples: readonly RawFailure[];
}

/** Occurrences kept per distinct failure besides its first: examples of what else showed it. */
export const EXAMPLES_KEPT = 3;

export const rulesOf = (f: RawFailure): readonly RuleId[] => f.rules ?? [f.rule];

/** What an exchange's answer showed: its status, or why there was none. */
export const answerOf = (exchange: Exchange | undefined): string =>
  exchange?.response ? `status ${exchange.response.status}` : exchange?.failure ? `no answer: ${exchange.failure.kind}` : 'no exchange';

const severityOf = (f: RawFailure): 'error' | 'warning' => f.verdict.severity ?? 'error';

/**
 * A failure with no answer at all: whichever rule's probe met it, the symptom is the transport's
 * (a hang, a reset), so the rules whose probes met it on one operation are one failure together.
 */
const unanswered = (f: RawFailure): boolean => f.symptom === undefined && f.exchange !== undefined && !f.exchange.response && f.exchange.failure !== undefined;

/** How a reported failure came to break several rules: one exchange, or no answer to the probes of each. */
export const rulesTogether = (f: { readonly rules: readonly string[]; readonly transport?: unknown; readonly occurrences: number }): string =>
  f.transport !== undefined && f.occurrences > 1
    ? `no answer to probes of ${f.rules.length} rules: one symptom`
    : `one exchange, ${f.rules.length} rules broken`;

/** The symptom a failure shows: failures with the same one are one distinct failure. */
export const symptomKey = (f: RawFailure): string =>
  JSON.stringify([severityOf(f), f.operation, unanswered(f) ? 'any rule' : rulesOf(f), f.symptom ?? answerOf(f.exchange)]);

const ruleOrder = new Map(api.rules.map((r, i) => [r.id, i]));
const inRuleOrder = (rules: readonly RuleId[]): RuleId[] => [...rules].sort((a, b) => (ruleOrder.get(a) ?? Infinity) - (ruleOrder.get(b) ?? Infinity));

/** A group's first failure, naming every rule the group broke (more than its own for a failure with no answer). */
const withRules = (failure: RawFailure, rules: readonly RuleId[]): RawFailure =>
  rules.length === rulesOf(failure).length ? failure : { ...failure, rule: rules[0]!, rules };

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
  failure: RawFailure;
}

interface Group {
  /** The rules broken, in the model's order; grows for a failure with no answer as more rules' probes meet it. */
  rules: readonly RuleId[];
  readonly operation: string;
  readonly severity: 'error' | 'warning';
  occurrences: number;
  /** Where its first occurrence was found (probe index; scenarios come after), and when it was recorded (ties). */
  first: number;
  firstSeq: number;
  /** The first occurrences in probe order, at most 1 + EXAMPLES_KEPT; only while listed. */
  kept: Kept[];
  /** Pairs that list it. */
  listedIn: number;
}

interface Pair {
  /** Distinct failures listed under this (rule, operation, severity), in probe order of their first occurrence. */
  readonly groups: Group[];
}

/** A row's distinct failures (error severity) and their occurrences. */
export interface RowFailures {
  readonly failures: number;
  readonly occurrences: number;
}

export class FailureLog {
  readonly #cap: number;
  readonly #slim: (failure: RawFailure) => RawFailure;
  readonly #found: ((rules: readonly RuleId[], operation: string) => void) | undefined;
  readonly #groups = new Map<string, Group>();
  readonly #pairs = new Map<string, Pair>();
  #seq = 0;
  #distinct = 0;
  #violations = 0;
  #occurrences = 0;

  /**
   * `slim` copies what a kept failure needs (a capped excerpt of its answer), once per occurrence
   * kept; `found` hears of each failure (error severity) as it is recorded.
   */
  constructor(cap: number, slim: (failure: RawFailure) => RawFailure, found?: (rules: readonly RuleId[], operation: string) => void) {
    this.#cap = cap;
    this.#slim = slim;
    this.#found = found;
  }

  /** Distinct failures recorded (error severity), listed or not. */
  get distinct(): number {
    return this.#distinct;
  }

  /** Rules those distinct failures broke, counted once per distinct failure. */
  get violations(): number {
    return this.#violations;
  }

  /** Failures recorded (error severity): the occurrences of the distinct ones. */
  get occurrences(): number {
    return this.#occurrences;
  }

  /**
   * Records a failure found at `order` (the probe's index; scenarios come after). `onlyNew`: a
   * replay of a failure's own request made smaller (shrinking): a symptom already recorded is that
   * failure again, not another occurrence; only a new one is recorded.
   */
  record(order: number, failure: RawFailure, onlyNew = false): void {
    const key = symptomKey(failure);
    if (onlyNew && this.#groups.has(key)) return;
    let group = this.#groups.get(key);
    if (!group) {
      group = { rules: [...rulesOf(failure)], operation: failure.operation, severity: severityOf(failure), occurrences: 0, first: Infinity, firstSeq: 0, kept: [], listedIn: 0 };
      this.#groups.set(key, group);
      if (group.severity === 'error') [this.#distinct, this.#violations] = [this.#distinct + 1, this.#violations + group.rules.length];
    }
    const added = rulesOf(failure).filter((rule) => !group.rules.includes(rule));
    if (added.length) {
      group.rules = inRuleOrder([...group.rules, ...added]);
      if (group.severity === 'error') this.#violations += added.length;
    }
    if (group.severity === 'error') {
      this.#occurrences++;
      this.#found?.(group.rules, group.operation);
    }
    const seq = this.#seq++;
    group.occurrences++;
    if (order < group.first) [group.first, group.firstSeq] = [order, seq];
    for (const rule of group.rules) this.#place(this.#pair(rule, group.operation, group.severity), group);
    if (group.listedIn === 0) return;
    const kept = group.kept;
    if (kept.length >= 1 + EXAMPLES_KEPT && byOrder(kept[kept.length - 1]!, { order, seq }) < 0) return;
    const item: Kept = { order, seq, failure: this.#slim(failure) };
    kept.push(item);
    kept.sort(byOrder);
    if (kept.length > 1 + EXAMPLES_KEPT) kept.pop();
    // Examples need no answer: only the first occurrence's is shown.
    for (const k of kept.slice(1)) k.failure = withoutAnswer(k.failure);
  }

  /** The distinct failures and warnings listed under any of their rules, in probe order of their first occurrence. */
  listed(): FailureGroup[] {
    return [...this.#groups.values()]
      .filter((g) => g.listedIn > 0 && g.kept[0])
      .sort((a, b) => a.first - b.first || a.firstSeq - b.firstSeq)
      .map((g) => ({ failure: withRules(g.kept[0]!.failure, g.rules), occurrences: g.occurrences, examples: g.kept.slice(1).map((k) => k.failure) }));
  }

  /**
   * The distinct failures listed under no rule, counted per (rules broken together, operation,
   * severity): one root cause across three rules is one count, not three echoes of it.
   */
  unlisted(): Unlisted[] {
    const together = new Map<string, Unlisted>();
    for (const g of this.#groups.values()) {
      if (g.listedIn > 0) continue;
      const key = JSON.stringify([g.rules, g.operation, g.severity]);
      const u = together.get(key);
      together.set(key, { rules: g.rules, operation: g.operation, severity: g.severity, count: (u?.count ?? 0) + 1, occurrences: (u?.occurrences ?? 0) + g.occurrences });
    }
    return [...together.values()];
  }

  /** A (rule, operation) row's distinct failures of error severity, listed or not; undefined when it has none. */
  row(rule: RuleId, operation: string): RowFailures | undefined {
    let failures = 0;
    let occurrences = 0;
    for (const g of this.#groups.values()) {
      if (g.severity !== 'error' || g.operation !== operation || !g.rules.includes(rule)) continue;
      failures++;
      occurrences += g.occurrences;
    }
    return failures ? { failures, occurrences } : undefined;
  }

  /** Lists `group` under `pair` when it is among the `cap` whose first occurrence comes first; one pushed out of every pair drops its examples. */
  #place(pair: Pair, group: Group): void {
    const groups = pair.groups;
    if (!groups.includes(group)) {
      const last = groups[groups.length - 1];
      if (groups.length >= this.#cap && last && byFirst(last, group) <= 0) return;
      groups.push(group);
      group.listedIn++;
    }
    groups.sort(byFirst);
    if (groups.length <= this.#cap) return;
    const out = groups.pop()!;
    if (--out.listedIn === 0) out.kept = [];
  }

  #pair(rule: RuleId, operation: string, severity: 'error' | 'warning'): Pair {
    const key = `${rule} ${operation} ${severity}`;
    let pair = this.#pairs.get(key);
    if (!pair) this.#pairs.set(key, (pair = { groups: [] }));
    return pair;
  }
}

/** Distinct failures not listed, of one set of rules broken together on one operation. */
export interface Unlisted {
  readonly rules: readonly RuleId[];
  readonly operation: string;
  readonly severity: 'error' | 'warning';
  /** Distinct failures. */
  readonly count: number;
  /** Their occurrences. */
  readonly occurrences: number;
}

/** An example occurrence: its request and verdict, not the answer. */
function withoutAnswer(failure: RawFailure): RawFailure {
  const exchange = failure.exchange;
  if (!exchange?.response) return failure;
  const { response: _response, ...rest } = exchange;
  return { ...failure, exchange: rest };
}

const byOrder = (a: { order: number; seq: number }, b: { order: number; seq: number }) => a.order - b.order || a.seq - b.seq;
const byFirst = (a: Group, b: Group) => a.first - b.first || a.firstSeq - b.firstSeq;

/**
 * The other occurrences of a failure, as a report lists them after "also in:": each label once,
 * with how many of the kept examples it stands for (`unknown site_id (a random UUID) ×2`), then
 * how many more were not kept.
 */
export function alsoIn(f: { readonly occurrences: number; readonly examples?: readonly unknown[] }, labels: readonly string[]): string {
  const counted = new Map<string, number>();
  for (const label of labels) counted.set(label, (counted.get(label) ?? 0) + 1);
  const more = f.occurrences - 1 - (f.examples?.length ?? 0);
  return [...[...counted].map(([label, n]) => (n > 1 ? `${label} ×${n}` : label)), ...(more > 0 ? [`and ${more} more`] : [])].join('; ');
}
