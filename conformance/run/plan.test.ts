/**
 * The order a run sends its probes in: under a budget every (rule × operation) row gets its most
 * decisive probe before any row gets a second, then every row the same share of the rest (canonical
 * values before drawn ones); always, operations take turns; no probe is lost or doubled.
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

/** Probes of few rows (so rows hold many), some from operators of a few ids, canonical or drawn. */
const operatedArb: fc.Arbitrary<Planned[]> = fc
  .array(
    fc.record({
      rule: fc.constantFrom(...rules.slice(0, 3)),
      endpoint: fc.constantFrom(...api.endpoints.slice(0, 3)),
      operator: fc.option(fc.record({ id: fc.constantFrom('a:x', 'b:y', 'c:z'), drawn: fc.boolean() }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 120 },
  )
  .map((items) =>
    items.map(({ rule, endpoint, operator }, order) => ({
      order,
      probe: {
        rule,
        endpoint,
        expect: 'observe',
        title: `#${order}`,
        request: { method: endpoint.method, url: `/${order}`, headers: {} },
        ...(operator ? { operator: { ...operator, rank: operator.id.charCodeAt(0) - 97 } } : {}),
      } as Probe,
    })),
  );

const drawn = (p: Planned) => p.probe.operator?.drawn === true;

describe('coverageFirst', () => {
  it('the first round holds one probe per row, its most decisive (canonical before drawn, then rank); none for a row already judged', () => {
    fc.assert(
      fc.property(operatedArb, fc.boolean(), (planned, someCovered) => {
        const covered = new Set(someCovered ? planned.filter((_, i) => i % 3 === 0).map(row) : []);
        const { first, rest } = coverageFirst(planned, covered);
        expect(new Set(first.map(row)).size).toBe(first.length);
        expect(new Set(first.map(row))).toEqual(new Set(planned.map(row).filter((r) => !covered.has(r))));
        for (const p of first) {
          // The canonical value of the lowest rank (an operator's first, or a probe of none), the first built among equals.
          const mine = planned.filter((q) => row(q) === row(p));
          const tier = Math.min(...mine.map((q) => Number(drawn(q))));
          const candidates = mine.filter((q) => Number(drawn(q)) === tier && !mine.some((o) => o.order < q.order && q.probe.operator && o.probe.operator?.id === q.probe.operator.id && drawn(o) === drawn(q)));
          const rank = (q: Planned) => q.probe.operator?.rank ?? 0;
          const want = candidates.reduce((a, b) => (rank(b) < rank(a) || (rank(b) === rank(a) && b.order < a.order) ? b : a));
          expect(p.order).toBe(want.order);
        }
        // Every probe once.
        expect([...first, ...rest].map((p) => p.order).sort((a, b) => a - b)).toEqual(planned.map((p) => p.order));
      }),
      { ...SEED, numRuns: 200 },
    );
  });

  it('after it, every canonical value before any drawn one, each operator\'s first of a row before any operator\'s second', () => {
    fc.assert(
      fc.property(operatedArb, (planned) => {
        const { rest } = coverageFirst(planned);
        const firstDrawn = rest.findIndex(drawn);
        if (firstDrawn >= 0) expect(rest.slice(firstDrawn).every(drawn)).toBe(true);
        for (const r of new Set(planned.map(row))) {
          for (const tier of [false, true]) {
            const mine = rest.filter((p) => row(p) === r && drawn(p) === tier && p.probe.operator);
            const turns = new Map<string, number>();
            const turn = mine.map((p) => {
              const k = turns.get(p.probe.operator!.id) ?? 0;
              turns.set(p.probe.operator!.id, k + 1);
              return k;
            });
            // The first of a row went in the first round, so its operator's turn count starts one ahead: allow one step back.
            for (let i = 1; i < turn.length; i++) expect(turn[i]!).toBeGreaterThanOrEqual(turn[i - 1]! - 1);
          }
        }
      }),
      { ...SEED, numRuns: 200 },
    );
  });

  it('a cut anywhere leaves every row the same share of its own canonical probes, to within one probe', () => {
    fc.assert(
      fc.property(operatedArb, fc.nat(), (planned, at) => {
        const { rest } = coverageFirst(planned);
        const canonical = rest.filter((p) => !drawn(p));
        const cut = canonical.slice(0, at % (canonical.length + 1));
        const sizes = new Map<string, number>();
        for (const p of canonical) sizes.set(row(p), (sizes.get(row(p)) ?? 0) + 1);
        const shares = [...sizes].map(([r, n]) => ({ n, share: cut.filter((p) => row(p) === r).length / n }));
        for (const a of shares) for (const b of shares) expect(a.share - b.share).toBeLessThanOrEqual(1 / a.n + 1 / b.n + 1e-9);
      }),
      { ...SEED, numRuns: 300 },
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
