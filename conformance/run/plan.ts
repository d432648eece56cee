/**
 * Planning a run: every probe and scenario the suite's sources build (filtered by `--only`), in
 * the order they are sent, and what the run may spend. Reads taken before anything could change
 * the data (`snapshot`) go first. Without a budget, the other probes go in the order their sources
 * built them (one operation at a time in turn), then the scenarios. Under a budget
 * (`--max-requests`, `--max-duration`) coverage comes first: every (rule × operation) row a probe
 * can judge gets its most decisive probe before any row gets a second, then each state property
 * runs one command sequence, then every row's other canonical probes, then the drawn ones (depth
 * after coverage: `coverageFirst`), then the properties' other sequences; shrinking comes last.
 */
import type { RuleId } from '../../spec/model.ts';
import { operation } from '../../spec/queries.ts';
import type { Check, Probe, ProbeContext, ProbeRequest, Scenario, Skip } from '../types.ts';
import type { Suite } from '../runner.ts';
import { messageOf } from './judge.ts';

/** A probe with its place in the order its source built it: failures are reported in that order, whatever the order sent. */
export interface Planned {
  readonly probe: Probe;
  readonly order: number;
}

/** One step of a run. `scenarios`' `sequences`: `first` runs one command sequence each, `rest` the others, `all` every one. */
export type Phase = { readonly kind: 'probes'; readonly items: readonly Planned[] } | { readonly kind: 'scenarios'; readonly sequences: 'first' | 'rest' | 'all' };

export interface RunPlan {
  readonly probes: readonly Planned[];
  readonly scenarios: readonly Scenario[];
  readonly phases: readonly Phase[];
  readonly skips: Skip[];
  readonly notes: string[];
}

/** What the answers before the run (discovery's) judged already: rows (`RULE METHOD /path`), and requests (`requestKey`). */
export interface JudgedBefore {
  readonly rows: ReadonlySet<string>;
  readonly requests: ReadonlySet<string>;
}

/** A request as sent: the same key, the same bytes. */
export const requestKey = (r: ProbeRequest): string => JSON.stringify([r.method, r.url, r.headers, r.body ?? null]);

/** Builds the run's probes and scenarios and the order they go in; `bounded` puts coverage first. */
export function planRun(suite: Suite, context: ProbeContext, ruleSet: ReadonlySet<RuleId> | undefined, bounded: boolean, judged: JudgedBefore = { rows: new Set(), requests: new Set() }): RunPlan {
  const inRules = (rule: RuleId) => !ruleSet || ruleSet.has(rule);
  const skips: Skip[] = [];
  const notes: string[] = [];
  const built: Probe[] = [];
  suite.probeSources.forEach((source, i) => {
    try {
      const made = source(context);
      built.push(...made.probes);
      skips.push(...made.skipped);
    } catch (error) {
      notes.push(`runner: probe source ${source.name || `#${i + 1}`} failed, its probes were not sent: ${messageOf(error)}`);
    }
  });
  const scenarios: Scenario[] = [];
  suite.scenarioSources.forEach((source, i) => {
    try {
      const made = source(context);
      scenarios.push(...made.scenarios.filter((s) => inRules(s.rule)));
      skips.push(...made.skipped);
    } catch (error) {
      notes.push(`runner: scenario source ${source.name || `#${i + 1}`} failed, its scenarios did not run: ${messageOf(error)}`);
    }
  });
  // A read discovery sent as it is adds nothing: its answer was judged.
  const probes = selectProbes(built, ruleSet, suite.checks.filter((c) => inRules(c.rule)))
    .filter((probe) => !judged.requests.has(requestKey(probe.request)))
    .map((probe, order) => ({ probe, order }));
  // Reads taken before anything that could change the data: a phase of their own, first.
  const snapshot = probes.filter((p) => p.probe.snapshot);
  const others = probes.filter((p) => !p.probe.snapshot);
  const before: Phase[] = snapshot.length ? [{ kind: 'probes', items: inTurn(snapshot) }] : [];
  if (!bounded) return { probes, scenarios, phases: [...before, { kind: 'probes', items: inTurn(others) }, { kind: 'scenarios', sequences: 'all' }], skips, notes };
  // A row a snapshot read or discovery judged has had its first probe.
  const covered = new Set([...judged.rows, ...snapshot.map((p) => rowOf(p))]);
  const { first, rest } = coverageFirst(others, covered);
  const phases: Phase[] = [
    ...before,
    { kind: 'probes', items: inTurn(first) },
    { kind: 'scenarios', sequences: 'first' },
    // The rest keeps its order: each row's share spreads the operations already, so a cut takes every row alike.
    { kind: 'probes', items: rest },
    { kind: 'scenarios', sequences: 'rest' },
  ];
  return { probes, scenarios, phases, skips, notes };
}

/** A probe's row: `RULE METHOD /path`. */
const rowOf = (p: Planned): string => `${p.probe.rule} ${operation(p.probe.endpoint)}`;

/** Where a probe stands among its row's: an operator's canonical value (0) before a drawn one (1), then by the operator's rank. */
const tierOf = (p: Planned): number => (p.probe.operator?.drawn ? 1 : 0);
const rankOf = (p: Planned): number => p.probe.operator?.rank ?? 0;

/**
 * The probes a budget sends first: the most decisive probe of each (rule × operation) row (`first`:
 * an operator's canonical value before a drawn one, the lower rank first, then as built); then
 * (`rest`) every row's other canonical values before any drawn value, each tier spread over the
 * rows in proportion (a row's j-th of n goes at j/n), so a cut leaves every row the same share
 * of its own, whatever its size: a row of many operators (a pattern's) gets as much of its depth
 * as a row of few.
 */
export function coverageFirst(probes: readonly Planned[], covered: ReadonlySet<string> = new Set()): { readonly first: Planned[]; readonly rest: Planned[] } {
  const rows = new Map<string, Planned[]>();
  for (const p of probes) {
    const key = rowOf(p);
    const row = rows.get(key);
    if (row) row.push(p);
    else rows.set(key, [p]);
  }
  const first: Planned[] = [];
  const rest: { p: Planned; tier: number; share: number }[] = [];
  for (const [key, row] of rows) {
    // Within a row, each operator's first probe before any operator's second (breadth of kinds of
    // wrong value before depth in one), the lower rank first.
    const turn = new Map<Planned, number>();
    const seen = new Map<string, number>();
    for (const p of [...row].sort((a, b) => a.order - b.order)) {
      const group = `${tierOf(p)} ${p.probe.operator?.id ?? `#${p.order}`}`;
      const k = seen.get(group) ?? 0;
      seen.set(group, k + 1);
      turn.set(p, k);
    }
    const sorted = [...row].sort((a, b) => tierOf(a) - tierOf(b) || turn.get(a)! - turn.get(b)! || rankOf(a) - rankOf(b) || a.order - b.order);
    if (!covered.has(key)) first.push(sorted[0]!);
    const others = covered.has(key) ? sorted : sorted.slice(1);
    for (const tier of [0, 1]) {
      const of = others.filter((p) => tierOf(p) === tier);
      of.forEach((p, j) => rest.push({ p, tier, share: (j + 1) / of.length }));
    }
  }
  first.sort((a, b) => a.order - b.order);
  rest.sort((a, b) => a.tier - b.tier || a.share - b.share || a.p.order - b.p.order);
  return { first, rest: rest.map((r) => r.p) };
}

/**
 * The probes one operation at a time in turn, each operation's in their order: a target that
 * limits each endpoint apart is asked of all of them at once, not of one until its limit.
 */
export function inTurn(items: readonly Planned[]): Planned[] {
  const queues = new Map<string, Planned[]>();
  for (const item of items) {
    const queue = queues.get(item.probe.endpoint.name);
    if (queue) queue.push(item);
    else queues.set(item.probe.endpoint.name, [item]);
  }
  const out: Planned[] = [];
  for (let i = 0; out.length < items.length; i++) for (const queue of queues.values()) if (i < queue.length) out.push(queue[i]!);
  return out;
}

/**
 * With `--only`, the probes the active checks can judge: all of them unless every check judges
 * only its own rule's (a chosen rule that judges every exchange, ERR-BODY or STATUS-SET, needs
 * all probes as material).
 */
function selectProbes(all: readonly Probe[], only: ReadonlySet<RuleId> | undefined, active: readonly Check[]): Probe[] {
  if (!only || active.some((c) => !c.ownProbesOnly)) return [...all];
  return all.filter((p) => only.has(p.rule));
}
