/**
 * Planning a run: every probe and scenario the suite's sources build (filtered by `--only`), in
 * the order they are sent, and what the run may spend. Without a budget, probes go in the order
 * their sources built them (one operation at a time in turn), then the scenarios. Under a budget (`--max-requests`,
 * `--max-duration`) coverage comes first: every (rule × operation) row a probe can judge gets its
 * first probe before any row gets a second, then each state property runs one command sequence,
 * then the other probes, then the properties' other sequences; shrinking comes last.
 */
import type { RuleId } from '../../spec/model.ts';
import { operation } from '../../spec/queries.ts';
import type { Check, Probe, ProbeContext, Scenario, Skip } from '../types.ts';
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

/** Builds the run's probes and scenarios and the order they go in; `bounded` puts coverage first. */
export function planRun(suite: Suite, context: ProbeContext, ruleSet: ReadonlySet<RuleId> | undefined, bounded: boolean): RunPlan {
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
  const probes = selectProbes(built, ruleSet, suite.checks.filter((c) => inRules(c.rule))).map((probe, order) => ({ probe, order }));
  if (!bounded) return { probes, scenarios, phases: [{ kind: 'probes', items: inTurn(probes) }, { kind: 'scenarios', sequences: 'all' }], skips, notes };
  const { first, rest } = coverageFirst(probes);
  const phases: Phase[] = [
    { kind: 'probes', items: inTurn(first) },
    { kind: 'scenarios', sequences: 'first' },
    { kind: 'probes', items: inTurn(rest) },
    { kind: 'scenarios', sequences: 'rest' },
  ];
  return { probes, scenarios, phases, skips, notes };
}

/**
 * The probes in rounds: the first probe of each (rule × operation) row, in the order built, then
 * the second of each, and so on; `first` is the first round.
 */
export function coverageFirst(probes: readonly Planned[]): { readonly first: Planned[]; readonly rest: Planned[] } {
  const seen = new Map<string, number>();
  const rounds = probes.map((p) => {
    const key = `${p.probe.rule} ${operation(p.probe.endpoint)}`;
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    return { p, round };
  });
  const sorted = [...rounds].sort((a, b) => a.round - b.round || a.p.order - b.p.order);
  return { first: sorted.filter((r) => r.round === 0).map((r) => r.p), rest: sorted.filter((r) => r.round > 0).map((r) => r.p) };
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
