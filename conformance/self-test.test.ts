/** The self-test's scoring, on hand-made run results. The runs themselves are the CI gate `npm run mutation`. */
import { describe, expect, it } from 'vitest';
import type { Variant } from '../mock/variant.ts';
import { judgeVariant, summarize, type RunResult } from './self-test.ts';

const fault: Variant = { name: 'f', kind: 'fault', rule: 'ACK-202', endpoint: 'clearCdnCache', description: '', hooks: {} };
const conformant: Variant = { name: 'c', kind: 'conformant', description: '', hooks: {} };
const op = 'POST /sites/cdn/clear-cache';
const run = (exitCode: number | null, failures: RunResult['failures'] = [], error?: string): RunResult => ({ exitCode, failures, ms: 1, ...(error ? { error } : {}) });

describe('judgeVariant', () => {
  it.each([
    ['fault caught on its rule and operation', { variant: fault, run: run(1, [{ rule: 'ACK-202', operation: op }]), want: 'killed' }],
    ['fault caught on its rule among others', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', operation: op }, { rule: 'ACK-202', operation: op }]), want: 'killed' }],
    ['fault caught in one failure with others: its rule among the rules it broke', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'ACK-202'], operation: op }]), want: 'killed' }],
    ['failures listing rules, none the fault\'s', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'ERR-BODY'], operation: op }]), want: 'misattributed' }],
    ['fault\'s rule among the rules, another operation', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'ACK-202'], operation: 'PUT /sites/edge-caching/status' }]), want: 'misattributed' }],
    ['fault caught on another rule only', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', operation: op }]), want: 'misattributed' }],
    ['fault caught on its rule, another operation', { variant: fault, run: run(1, [{ rule: 'ACK-202', operation: 'PUT /sites/edge-caching/status' }]), want: 'misattributed' }],
    ['fault not caught', { variant: fault, run: run(0), want: 'missed' }],
    ['fault run could not start (exit 2)', { variant: fault, run: run(2), want: 'error' }],
    ['fault run timed out', { variant: fault, run: run(null, [], 'no result within 120000 ms'), want: 'error' }],
    ['conformant variant passes', { variant: conformant, run: run(0), want: 'passed' }],
    ['conformant variant fails: a false alarm', { variant: conformant, run: run(1, [{ rule: 'ERR-BODY', operation: op }]), want: 'false-alarm' }],
  ] as const)('%s', (_, { variant, run: result, want }) => {
    expect(judgeVariant(variant, result).verdict).toBe(want);
  });
});

it('names every rule a failure broke among what the fault was caught as', () => {
  const result = judgeVariant(fault, run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'NO-SERVER-ERROR'], operation: op }]));
  expect(result.caughtAs).toEqual([`NO-SERVER-ERROR on ${op}`, `STATUS-SET on ${op}`]);
});

describe('summarize', () => {
  it('is ok only when every fault is killed and no conformant variant fails', () => {
    const killed = judgeVariant(fault, run(1, [{ rule: 'ACK-202', operation: op }]));
    const passed = judgeVariant(conformant, run(0));
    expect(summarize([killed, passed])).toMatchObject({ ok: true, faults: 1, killed: 1, score: 1, conformant: 1, falseAlarms: 0 });
    const missed = judgeVariant(fault, run(0));
    expect(summarize([killed, missed, passed])).toMatchObject({ ok: false, killed: 1, score: 0.5 });
    const alarm = judgeVariant(conformant, run(1));
    expect(summarize([killed, alarm])).toMatchObject({ ok: false, falseAlarms: 1 });
  });
});
