/**
 * Probes from mutation operators (spec/operators): each applied operator's canonical value first,
 * then values drawn from all of them, each probe shrinkable along what was drawn (the request's
 * other values, and the wrong value itself), each tagged with its operator for the plan and the
 * report.
 */
import fc from 'fast-check';
import type { Applied, Operator } from '../../spec/operators/index.ts';
import type { Probe } from '../types.ts';
import { drawValues, generatedProbe } from './request.ts';

/** What a probe is built on besides the wrong value: the rest of its request, drawn (so shrinking makes it smaller too). */
export interface Base<B> {
  readonly arbitrary: fc.Arbitrary<B>;
  readonly value: fc.Value<B>;
}

export const tagged = (probe: Probe | undefined, operator: Operator, drawn: boolean): Probe | undefined =>
  probe && { ...probe, operator: { id: operator.id, rank: operator.rank, drawn } };

const FIXED: Base<null> = { arbitrary: fc.constant(null), value: new fc.Value(null, undefined) };

/**
 * The canonical probe of each applied operator, then `depth` probes drawn over all of them (fixed
 * by `seed`). `make` builds the probe of an operator's value on a base; undefined where that
 * base cannot carry it (shrinking then skips the candidate).
 */
export function operatorProbes<T, B = null>(
  applied: readonly Applied<T>[],
  make: (operator: Operator, value: T, base: B) => Probe | undefined,
  options: { readonly seed: number; readonly depth: number; readonly base?: Base<B> },
): Probe[] {
  const used = applied.filter((a) => !a.operator.unused);
  if (!used.length) return [];
  const base = (options.base ?? FIXED) as Base<B>;
  const probes: Probe[] = [];
  for (const a of used) {
    if (a.drawnOnly) continue;
    const build = (b: B) => tagged(make(a.operator, a.first, b), a.operator, false);
    if (build(base.value.value_)) probes.push(generatedProbe(base.arbitrary, base.value, build));
  }
  if (options.depth <= 0) return probes;
  const branches = used.map((a) => a.arbitrary.map((value) => ({ operator: a.operator, value })));
  const arbitrary = fc.tuple(base.arbitrary, fc.oneof(...branches));
  const build = ([b, { operator, value }]: [B, { operator: Operator; value: T }]) => tagged(make(operator, value, b), operator, true);
  for (const drawn of drawValues(arbitrary, options.seed, options.depth)) if (build(drawn.value_)) probes.push(generatedProbe(arbitrary, drawn, build));
  return probes;
}

/** Generated probes per operator family and row: a share of `--runs`, so a small run stays small. */
export const depthOf = (runs: number, per = 0.2): number => Math.max(1, Math.round(Math.max(1, runs) * per));
