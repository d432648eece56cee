/**
 * Reports as the reporter tests build them by hand: failures of ERR-BODY on `GET /validate`,
 * numbered, and a report holding them whose counts follow from them. Each test changes what it
 * is about (`more`).
 */
import type { Failure, Report } from '../types.ts';

export const failureOf = (n: number, more: Partial<Failure> = {}): Failure => ({
  rule: 'ERR-BODY',
  rules: ['ERR-BODY'],
  operation: 'GET /validate',
  title: `failure ${n}`,
  message: 'why',
  severity: 'error',
  probe: 'probe',
  request: { method: 'GET', url: 'http://h/v2/validate', headers: {} },
  seed: 7,
  curl: `curl -sS http://h/v2/validate -H 'x: ${n}'`,
  occurrences: 1,
  ...more,
});

export const reportOf = (failures: Failure[], more: Partial<Report> = {}): Report => ({
  ok: failures.length === 0,
  seed: 7,
  target: 'http://h/v2',
  specVersion: '1.106.0',
  startedAt: '2026-11-22T00:00:00.000Z',
  durationMs: 1,
  requests: failures.length,
  options: {},
  summary: {
    passed: failures.length ? 0 : 1,
    failed: failures.length ? 1 : 0,
    skipped: 0,
    warnings: 0,
    distinctFailures: failures.length,
    ruleViolations: failures.length,
    failingExchanges: failures.reduce((n, f) => n + f.occurrences, 0),
  },
  checks: [{ rule: 'ERR-BODY', operation: 'GET /validate', outcome: failures.length ? 'failed' : 'passed', exchanges: Math.max(1, failures.length) }],
  coverage: { checked: 1, total: 1, skipped: [], rules: { 'ERR-BODY': { checked: 1, inScope: 1, skipped: [], partly: [] } } },
  failures,
  warnings: [],
  notes: [],
  consumed: [],
  ...more,
});
