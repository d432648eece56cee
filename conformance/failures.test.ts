/**
 * Root causes, not echoes: the verdicts of the rules one exchange broke merge in the model's rule
 * order; failures with the same symptom (operation, rules, status) are one distinct failure with
 * its occurrences; the log lists at most `cap` distinct failures per (rule, operation, severity),
 * those first found in probe order whatever order they are recorded in, and counts every one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { RuleId } from '../spec/model.ts';
import { EXAMPLES_KEPT, FailureLog, mergeVerdicts, rulesOf, type RawFailure } from './failures.ts';
import type { Exchange } from './types.ts';

const ruleIds = api.rules.map((r) => r.id);
const verdict = (title: string) => ({ title, message: `${title} happened.` });

describe('mergeVerdicts', () => {
  it('gives one line per rule, even when a reason holds line breaks', () => {
    const merged = mergeVerdicts([
      { rule: 'NO-SERVER-ERROR', verdict: { title: 'server error 500', message: 'the server said "a\nb\r\nc"' } },
      { rule: 'ERR-BODY', verdict: verdict('odd body') },
    ]);
    expect(merged.verdict.message).toBe('ERR-BODY: odd body. odd body happened.\nNO-SERVER-ERROR: server error 500. the server said "a b c"');
  });

  it('keeps a single verdict as it is', () => {
    expect(mergeVerdicts([{ rule: 'ERR-BODY', verdict: verdict('odd body') }])).toEqual({ rule: 'ERR-BODY', rules: ['ERR-BODY'], verdict: verdict('odd body') });
  });

  it('lists the rules in the model order whatever order the checks ran in; the first leads', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ruleIds, { minLength: 2 }), (broken) => {
        const merged = mergeVerdicts(broken.map((rule) => ({ rule, verdict: verdict(`broke ${rule}`) })));
        const want = ruleIds.filter((id) => broken.includes(id));
        expect(merged.rules).toEqual(want);
        expect(merged.rule).toBe(want[0]);
        expect(merged.verdict.title).toBe(`broke ${want[0]}`);
        expect(merged.verdict.message.split('\n')).toEqual(want.map((rule) => `${rule}: broke ${rule}. broke ${rule} happened.`));
      }),
    );
  });
});

const OPS = ['GET /validate', 'GET /sites/{site_id}'];
const RULES: RuleId[] = ['AUTH-401', 'ERR-BODY', 'STATUS-SET'];

/** A failure of 1–3 of three rules on one of two operations, answered with one of two statuses. */
const recordedArb = fc.record({
  rules: fc.subarray(RULES, { minLength: 1 }),
  operation: fc.constantFrom(...OPS),
  status: fc.constantFrom(400, 500),
  warning: fc.boolean(),
});
type Recorded = { readonly rules: RuleId[]; readonly operation: string; readonly status: number; readonly warning: boolean };

const exchangeWith = (status: number): Exchange => ({
  probe: { rule: 'AUTH-401', endpoint: api.endpoints[0]!, expect: 'observe', title: '', request: { method: 'GET', url: 'http://h/v2', headers: {} } },
  response: { status, headers: {}, text: '', ms: 0 },
  throttled: 0,
});

/** The failure found at probe index `order` (its `probe` says which). */
const rawOf = (f: Recorded, order: number): RawFailure => ({
  rule: f.rules[0]!,
  rules: f.rules,
  operation: f.operation,
  verdict: { title: `#${order}`, message: '', severity: f.warning ? 'warning' : 'error' },
  probe: String(order),
  exchange: exchangeWith(f.status),
});

/** The symptom, computed here from what the test made: severity, operation, rules, status. */
const symptom = (f: Recorded) => `${f.warning} ${f.operation} ${f.rules.join('+')} ${f.status}`;

describe('FailureLog: failures with no answer', () => {
  const unanswered = (rule: RuleId, operation: string, kind: 'timeout' | 'reset', order: number): RawFailure => ({
    rule,
    operation,
    verdict: { title: `no answer: ${kind}`, message: '' },
    probe: String(order),
    exchange: { ...exchangeWith(200), response: undefined, failure: { kind, message: kind, ms: 1 } } as Exchange,
  });

  it('are one distinct failure per operation and kind, whichever rules’ probes met them, naming every such rule; rows and violations still agree', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ rule: fc.constantFrom(...RULES), operation: fc.constantFrom(...OPS), kind: fc.constantFrom('timeout' as const, 'reset' as const) }), { minLength: 1, maxLength: 40 }), (found) => {
        const log = new FailureLog(10, (f) => f);
        found.forEach((f, order) => log.record(order, unanswered(f.rule, f.operation, f.kind, order)));
        const symptoms = new Map<string, Set<RuleId>>();
        for (const f of found) symptoms.set(`${f.operation} ${f.kind}`, new Set([...(symptoms.get(`${f.operation} ${f.kind}`) ?? []), f.rule]));
        expect(log.distinct).toBe(symptoms.size);
        expect(log.violations).toBe([...symptoms.values()].reduce((n, rules) => n + rules.size, 0));
        for (const g of log.listed()) {
          const key = `${g.failure.operation} ${g.failure.exchange!.failure!.kind}`;
          expect([...rulesOf(g.failure)].sort()).toEqual([...symptoms.get(key)!].sort());
          expect(g.failure.rule).toBe(ruleIds.find((id) => symptoms.get(key)!.has(id)));
        }
        let rows = 0;
        for (const rule of RULES) for (const op of OPS) rows += log.row(rule, op)?.failures ?? 0;
        expect(rows).toBe(log.violations);
      }),
    );
  });
});

describe('FailureLog', () => {
  it('one distinct failure per symptom, with its occurrences, its first in probe order and the next few as examples; at most `cap` listed per (rule, operation, severity), all counted', () => {
    fc.assert(
      fc.property(fc.array(recordedArb, { maxLength: 80 }), fc.integer({ min: 1, max: 4 }), (found, cap) => {
        const log = new FailureLog(cap, (f) => f);
        found.forEach((f, order) => log.record(order, rawOf(f, order)));
        const listed = log.listed();

        const bySymptom = new Map<string, number[]>();
        found.forEach((f, order) => bySymptom.set(symptom(f), [...(bySymptom.get(symptom(f)) ?? []), order]));
        const errors = [...bySymptom.values()].filter((orders) => !found[orders[0]!]!.warning);
        expect(log.distinct).toBe(errors.length);
        expect(log.violations).toBe(errors.reduce((n, orders) => n + found[orders[0]!]!.rules.length, 0));
        expect(log.occurrences).toBe(found.filter((f) => !f.warning).length);

        // Each listed once, in probe order of its first occurrence, standing for its symptom's occurrences.
        const firsts = listed.map((g) => Number(g.failure.probe));
        expect(firsts).toEqual([...new Set(firsts)].sort((a, b) => a - b));
        for (const g of listed) {
          const orders = bySymptom.get(symptom(found[Number(g.failure.probe)]!))!;
          expect(Number(g.failure.probe)).toBe(orders[0]);
          expect(g.occurrences).toBe(orders.length);
          expect(g.examples.map((e) => Number(e.probe))).toEqual(orders.slice(1, 1 + EXAMPLES_KEPT));
          // Examples keep no answer: the first occurrence's is the one shown.
          for (const e of g.examples) expect(e.exchange?.response).toBeUndefined();
          expect(g.failure.exchange?.response).toBeDefined();
        }

        // Per (rule, operation, severity): the first `cap` symptoms breaking the rule there are listed.
        for (const rule of RULES) {
          for (const op of OPS) {
            for (const warning of [false, true]) {
              const mine = [...bySymptom.values()].filter((orders) => {
                const f = found[orders[0]!]!;
                return f.rules.includes(rule) && f.operation === op && f.warning === warning;
              });
              for (const orders of mine.slice(0, cap)) expect(firsts).toContain(orders[0]);
            }
          }
        }

        // Those not listed are counted once each, under the rules they broke together, with their occurrences.
        const unlisted = log.unlisted();
        const listedSymptoms = new Set(listed.map((g) => symptom(found[Number(g.failure.probe)]!)));
        const notListed = [...bySymptom.entries()].filter(([key]) => !listedSymptoms.has(key));
        expect(unlisted.reduce((n, u) => n + u.count, 0)).toBe(notListed.length);
        expect(unlisted.reduce((n, u) => n + u.occurrences, 0)).toBe(notListed.reduce((n, [, orders]) => n + orders.length, 0));

        // Rows: each distinct error failure counts once on the row of each rule it broke, so the rows add up to the violations.
        let sum = 0;
        for (const rule of RULES) {
          for (const op of OPS) {
            const mine = errors.filter((orders) => found[orders[0]!]!.rules.includes(rule) && found[orders[0]!]!.operation === op);
            const row = log.row(rule, op);
            expect(row).toEqual(mine.length ? { failures: mine.length, occurrences: mine.reduce((n, o) => n + o.length, 0) } : undefined);
            sum += row?.failures ?? 0;
          }
        }
        expect(sum).toBe(log.violations);
      }),
    );
  });

  it('lists the same distinct failures, each with its first occurrence and count, whatever order the answers arrive in', () => {
    fc.assert(
      fc.property(
        fc.array(recordedArb, { minLength: 1, maxLength: 60 }).chain((found) => fc.tuple(fc.constant(found), fc.shuffledSubarray([...found.keys()], { minLength: found.length, maxLength: found.length }))),
        fc.integer({ min: 1, max: 3 }),
        ([found, arrival], cap) => {
          const inOrder = new FailureLog(cap, (f) => f);
          found.forEach((f, order) => inOrder.record(order, rawOf(f, order)));
          const shuffled = new FailureLog(cap, (f) => f);
          for (const order of arrival) shuffled.record(order, rawOf(found[order]!, order));
          const view = (log: FailureLog) => log.listed().map((g) => [g.failure.probe, g.occurrences]);
          expect(view(shuffled)).toEqual(view(inOrder));
          expect(shuffled.unlisted()).toEqual(expect.arrayContaining(inOrder.unlisted()));
          // Examples are later occurrences of the same symptom, in probe order.
          for (const g of shuffled.listed()) {
            const examples = g.examples.map((e) => Number(e.probe));
            expect(examples).toEqual([...examples].sort((a, b) => a - b));
            for (const e of examples) expect(symptom(found[e]!)).toBe(symptom(found[Number(g.failure.probe)]!));
            expect(examples.every((e) => e > Number(g.failure.probe))).toBe(true);
          }
        },
      ),
    );
  });

  it('one symptom is one distinct failure whatever the titles: statuses and rule sets tell symptoms apart', () => {
    const log = new FailureLog(10, (f) => f);
    const f = (order: number, status: number, rules: RuleId[], title: string): RawFailure => ({ ...rawOf({ rules, operation: OPS[0]!, status, warning: false }, order), verdict: { title, message: '' } });
    log.record(0, f(0, 500, ['NO-SERVER-ERROR'], 'server error 500'));
    log.record(1, f(1, 500, ['NO-SERVER-ERROR'], 'another title, same symptom'));
    log.record(2, f(2, 502, ['NO-SERVER-ERROR'], 'server error 502'));
    log.record(3, f(3, 500, ['INPUT-ACCEPT', 'NO-SERVER-ERROR'], 'server error 500'));
    expect(log.listed().map((g) => [g.failure.probe, g.occurrences])).toEqual([['0', 2], ['2', 1], ['3', 1]]);
    expect([log.distinct, log.violations, log.occurrences]).toEqual([3, 4, 4]);
    // A scenario names its own symptom: never merged with an exchange's.
    log.record(4, { ...f(4, 500, ['NO-SERVER-ERROR'], 'server error 500'), symptom: 'scenario: x' });
    expect(log.distinct).toBe(4);
  });

  it('copies (slims) an occurrence once however many rules list it, and never one it does not keep', () => {
    let slimmed = 0;
    const log = new FailureLog(1, (f) => (slimmed++, f));
    const raw = (order: number, rules: RuleId[], status = 500): RawFailure => rawOf({ rules, operation: OPS[0]!, status, warning: false }, order);
    log.record(1, raw(1, ['AUTH-401', 'ERR-BODY']));
    expect(slimmed).toBe(1);
    // Another occurrence of the same symptom: kept as an example, up to EXAMPLES_KEPT of them.
    for (let i = 0; i < EXAMPLES_KEPT + 2; i++) log.record(2 + i, raw(2 + i, ['AUTH-401', 'ERR-BODY']));
    expect(slimmed).toBe(1 + EXAMPLES_KEPT);
    // Another symptom, earlier than the one listed: it takes the place under ERR-BODY (cap 1).
    log.record(0, raw(0, ['ERR-BODY']));
    expect(slimmed).toBe(2 + EXAMPLES_KEPT);
    expect(log.listed().map((g) => [g.failure.probe, g.occurrences])).toEqual([['0', 1], ['1', EXAMPLES_KEPT + 3]]);
    // A later symptom finds both rules' places taken: counted, never copied.
    log.record(50, raw(50, ['AUTH-401', 'ERR-BODY'], 400));
    expect(slimmed).toBe(2 + EXAMPLES_KEPT);
    expect(log.unlisted()).toEqual([{ rules: ['AUTH-401', 'ERR-BODY'], operation: OPS[0], severity: 'error', count: 1, occurrences: 1 }]);
  });
});
