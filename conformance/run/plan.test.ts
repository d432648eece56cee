/**
 * The order a run sends its probes in: under a budget every (rule × operation) row gets its first
 * probe before any row gets a second; always, operations take turns; no probe is lost or doubled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { operation } from '../../spec/queries.ts';
import type { Probe } from '../types.ts';
import { coverageFirst, inTurn, type Planned } from './plan.ts';

const rules = api.rules.map((r) => r.id);
/** Probes of random rules and endpoints, in a random order built. */
const plannedArb: fc.Arbitrary<Planned[]> = fc
  .array(fc.tuple(fc.constantFrom(...rules), fc.constantFrom(...api.endpoints)), { maxLength: 200 })
  .map((pairs) => pairs.map(([rule, endpoint], order) => ({ order, probe: { rule, endpoint, expect: 'observe', title: `#${order}`, request: { method: endpoint.method, url: `/${order}`, headers: {} } } as Probe })));

const row = (p: Planned) => `${p.probe.rule} ${operation(p.probe.endpoint)}`;
const SEED = { seed: 1106 };

describe('coverageFirst', () => {
  it('the first round holds exactly one probe per row, the first built; every later probe of a row comes after it', () => {
    fc.assert(
      fc.property(plannedArb, (planned) => {
        const { first, rest } = coverageFirst(planned);
        expect(new Set(first.map(row)).size).toBe(first.length);
        expect(new Set(first.map(row))).toEqual(new Set(planned.map(row)));
        for (const p of first) expect(p.order).toBe(planned.find((q) => row(q) === row(p))!.order);
        // Round by round: no row's (k+1)th probe before every row's kth.
        const seen = new Map<string, number>();
        const rounds = [...first, ...rest].map((p) => {
          const k = seen.get(row(p)) ?? 0;
          seen.set(row(p), k + 1);
          return k;
        });
        expect([...rounds].sort((a, b) => a - b)).toEqual(rounds);
        expect([...first, ...rest].map((p) => p.order).sort((a, b) => a - b)).toEqual(planned.map((p) => p.order));
      }),
      SEED,
    );
  });
});

describe('inTurn', () => {
  it('every probe once; each operation\'s in the order built; operations take turns', () => {
    fc.assert(
      fc.property(plannedArb, (planned) => {
        const out = inTurn(planned);
        expect(out.map((p) => p.order).sort((a, b) => a - b)).toEqual(planned.map((p) => p.order));
        const ops = new Set(planned.map((p) => p.probe.endpoint.name));
        for (const op of ops) {
          const orders = out.filter((p) => p.probe.endpoint.name === op).map((p) => p.order);
          expect([...orders].sort((a, b) => a - b)).toEqual(orders);
        }
        // In the first |operations| places, no operation twice.
        const head = out.slice(0, ops.size).map((p) => p.probe.endpoint.name);
        expect(new Set(head).size).toBe(head.length);
      }),
      SEED,
    );
  });
});
