/**
 * One exchange, one failure: the verdicts of the rules it broke merge in the model's rule order;
 * the log keeps at most `cap` per (rule, operation, severity), the first in probe order whatever
 * order they are recorded in, and every (rule, operation) that failed keeps a listed failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { RuleId } from '../spec/model.ts';
import { FailureLog, mergeVerdicts, rulesOf, type RawFailure } from './failures.ts';

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

/** A failure of 1–3 of three rules on one of two operations, found at a probe index. */
const recordedArb = fc.record({
  order: fc.nat({ max: 200 }),
  rules: fc.subarray(RULES, { minLength: 1 }),
  operation: fc.constantFrom(...OPS),
  warning: fc.boolean(),
});

describe('FailureLog', () => {
  it('keeps the first `cap` per (rule, operation, severity) in probe order, lists every pair that failed, and counts all', () => {
    fc.assert(
      fc.property(fc.array(recordedArb, { maxLength: 80 }), fc.integer({ min: 1, max: 4 }), (found, cap) => {
        const log = new FailureLog(cap, (f) => f);
        const raws = found.map(
          (f, i): RawFailure => ({ rule: f.rules[0]!, rules: f.rules, operation: f.operation, verdict: { title: `#${i}`, message: '', severity: f.warning ? 'warning' : 'error' }, probe: String(f.order) }),
        );
        raws.forEach((raw, i) => log.record(found[i]!.order, raw));
        const listed = log.listed();
        const errors = found.filter((f) => !f.warning);
        expect(log.distinct).toBe(errors.length);
        expect(log.violations).toBe(errors.reduce((n, f) => n + f.rules.length, 0));
        // Bounded: no more than `cap` per pair, each failure once.
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed.length).toBeLessThanOrEqual(cap * RULES.length * OPS.length * 2);
        // In probe order.
        const orders = listed.map((f) => Number(f.probe));
        expect(orders).toEqual([...orders].sort((a, b) => a - b));
        for (const rule of RULES) {
          for (const op of OPS) {
            for (const severity of ['error', 'warning'] as const) {
              const mine = (f: RawFailure) => rulesOf(f).includes(rule) && f.operation === op && (f.verdict.severity ?? 'error') === severity;
              const all = raws.filter(mine);
              const shown = listed.filter(mine);
              // The first `cap` of the pair, by order (ties: in the order recorded), are all listed.
              const first = [...all].sort((a, b) => Number(a.probe) - Number(b.probe)).slice(0, cap);
              for (const f of first) expect(shown).toContain(f);
            }
          }
        }
        // Each failure not listed is counted once, under the rules it broke together: never once per rule.
        const unlisted = log.unlisted();
        const together = (f: { rules: readonly RuleId[]; operation: string; severity: string }) => `${f.rules.join('+')} ${f.operation} ${f.severity}`;
        const groupOf = (f: RawFailure) => together({ rules: rulesOf(f), operation: f.operation, severity: f.verdict.severity ?? 'error' });
        expect(new Set(unlisted.map(together)).size).toBe(unlisted.length);
        for (const key of new Set(raws.map(groupOf))) {
          const counted = unlisted.find((u) => together(u) === key)?.count ?? 0;
          expect(listed.filter((f) => groupOf(f) === key).length + counted).toBe(raws.filter((f) => groupOf(f) === key).length);
        }
        const unlistedErrors = unlisted.filter((u) => u.severity === 'error').reduce((n, u) => n + u.count, 0);
        expect(listed.filter((f) => f.verdict.severity !== 'warning').length + unlistedErrors).toBe(log.distinct);
      }),
    );
  });

  it('copies (slims) a failure once however many rules keep it, and never one no rule keeps', () => {
    let slimmed = 0;
    const log = new FailureLog(1, (f) => (slimmed++, f));
    const raw = (order: number, rules: RuleId[]): RawFailure => ({ rule: rules[0]!, rules, operation: OPS[0]!, verdict: verdict(String(order)), probe: String(order) });
    log.record(1, raw(1, ['AUTH-401', 'ERR-BODY']));
    expect(slimmed).toBe(1);
    log.record(2, raw(2, ['AUTH-401', 'ERR-BODY']));
    expect(slimmed).toBe(1);
    // Earlier than the one kept: it takes the place.
    log.record(0, raw(0, ['ERR-BODY']));
    expect(slimmed).toBe(2);
    expect(log.listed().map((f) => f.probe)).toEqual(['0', '1']);
    // The failure at 2 broke two rules: one count, under both.
    expect(log.unlisted()).toEqual([{ rules: ['AUTH-401', 'ERR-BODY'], operation: OPS[0], severity: 'error', count: 1 }]);
  });
});
