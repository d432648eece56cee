/** The console report stays readable: alike failures and huge curl lines are cut, never silently. */
import { describe, expect, it } from 'vitest';
import type { Failure, Report } from '../types.ts';
import { renderConsole } from './console.ts';

const failure = (n: number, curl = `curl -sS http://h/v2/validate -H "x: ${n}"`): Failure => ({
  rule: 'ERR-BODY',
  operation: 'GET /validate',
  title: `failure ${n}`,
  message: 'why',
  severity: 'error',
  probe: 'probe',
  request: { method: 'GET', url: 'http://h/v2/validate', headers: {} },
  seed: 7,
  curl,
});

const report = (failures: Failure[]): Report => ({
  ok: false,
  seed: 7,
  target: 'http://h/v2',
  specVersion: '1.106.0',
  startedAt: '2026-11-22T00:00:00.000Z',
  durationMs: 1,
  requests: failures.length,
  options: {},
  summary: { passed: 0, failed: 1, skipped: 0, warnings: 0 },
  checks: [{ rule: 'ERR-BODY', operation: 'GET /validate', outcome: 'failed', exchanges: failures.length }],
  failures,
  warnings: [],
  notes: [],
});

describe('renderConsole', () => {
  it('shows three failures of a (rule, operation) and counts the rest', () => {
    const text = renderConsole(report([1, 2, 3, 4, 5].map((n) => failure(n))));
    expect(text).toContain('failure 3');
    expect(text).not.toContain('failure 4');
    expect(text).toContain('… and 2 more like these (all in --reporter json)');
  });

  it('shows every failure when there are three or fewer, without a count', () => {
    const text = renderConsole(report([failure(1), failure(2)]));
    expect(text).toContain('failure 2');
    expect(text).not.toContain('more like these');
  });

  it('replaces a curl line too long for a terminal by a pointer to the JSON report', () => {
    const long = `curl -sS http://h/v2/x --data-raw '${'a'.repeat(5000)}'`;
    const text = renderConsole(report([failure(1, long)]));
    expect(text).not.toContain('a'.repeat(2000));
    expect(text).toContain(`(${long.length} characters: see failures[].curl of --reporter json)`);
    expect(renderConsole(report([failure(1)]))).toContain('curl:     curl -sS http://h/v2/validate');
  });
});
