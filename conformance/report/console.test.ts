/** The console report stays readable: alike failures and huge curl lines are cut, never silently. */
import { describe, expect, it } from 'vitest';
import { coverageOf, pairKey } from '../coverage.ts';
import type { CheckSummary, Failure, Report } from '../types.ts';
import { finalLine, renderConsole } from './console.ts';

const failure = (n: number, curl = `curl -sS http://h/v2/validate -H "x: ${n}"`): Failure => ({
  rule: 'ERR-BODY',
  rules: ['ERR-BODY'],
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
  summary: { passed: 0, failed: 1, skipped: 0, warnings: 0, distinctFailures: failures.length, ruleViolations: failures.length },
  checks: [{ rule: 'ERR-BODY', operation: 'GET /validate', outcome: 'failed', exchanges: failures.length }],
  coverage: { checked: 1, total: 1, skipped: [], rules: { 'ERR-BODY': { checked: 1, inScope: 1, skipped: [], partly: [] } } },
  failures,
  warnings: [],
  notes: [],
  consumed: [],
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

/** A report of rows only: `skipped` reasons per row, the rest passed; coverage derived as the runner derives it. */
const rowsReport = (reasons: readonly string[], passed: number, extra: Partial<Report> = {}): Report => {
  const checks: CheckSummary[] = [
    ...Array.from({ length: passed }, (_, i): CheckSummary => ({ rule: 'AUTH-401', operation: `GET /p${i}`, outcome: 'passed', exchanges: 1 })),
    ...reasons.map((reason, i): CheckSummary => ({ rule: 'ACK-202', operation: `POST /a${i}`, outcome: 'skipped', exchanges: 0, reason })),
  ];
  return {
    ...report([]),
    ok: true,
    summary: { passed, failed: 0, skipped: reasons.length, warnings: 0, distinctFailures: 0, ruleViolations: 0 },
    checks,
    coverage: coverageOf(checks, new Map()),
    ...extra,
  };
};

describe('the closing line', () => {
  const skips = [...Array<string>(48).fill('needs --allow-destructive'), ...Array.from({ length: 7 }, (_, i) => `no answer this rule judges among the ${i + 2} exchanges of this operation`)];

  it('states nothing more than the totals when every check ran', () => {
    expect(finalLine(rowsReport([], 293))).toMatch(/^✓ conforms: 293 passed, 0 failed, 0 skipped, 0 warnings — /);
  });

  it('states on how many checks a pass rests, and why the others were skipped, grouped', () => {
    expect(finalLine(rowsReport(skips, 238))).toMatch(
      /^✓ conforms on 238 of 293 checks — 55 skipped: needs --allow-destructive \(48\), no answer this rule judges among the N exchanges of this operation \(7\); 0 warnings — /,
    );
  });

  it('--fail-on-skip: says the skips failed the run', () => {
    const gated = rowsReport(skips, 238, { ok: false, options: { failOnSkip: true } });
    expect(finalLine(gated)).toMatch(/^✗ does not conform: 55 of 293 checks skipped \(--fail-on-skip\) — 238 passed, 0 failed, 0 warnings; skipped: needs --allow-destructive \(48\), /);
  });

  it('a failing run counts distinct failures and the rule violations they carry, and its coverage when rows were skipped', () => {
    const failing = (skipped: string[]) => {
      const base = rowsReport(skipped, 10);
      return { ...base, ok: false, summary: { ...base.summary, passed: 8, failed: 2, distinctFailures: 1, ruleViolations: 2 } };
    };
    expect(finalLine(failing([]))).toMatch(/^✗ does not conform: 1 distinct failure \(2 rule violations\) — 8 passed, 2 failed, 0 skipped, 0 warnings — /);
    expect(finalLine(failing(['needs --allow-destructive']))).toMatch(/^✗ does not conform: 1 distinct failure \(2 rule violations\) on 10 of 11 checks — 8 passed, 2 failed, 0 warnings; 1 skipped: needs --allow-destructive \(1\) — /);
  });

  it('the SKIPPED section counts rows per reason group and names a few', () => {
    const text = renderConsole(rowsReport(skips, 238));
    expect(text).toContain('SKIPPED: 55 of 293 rows, by reason');
    expect(text).toContain('  - needs --allow-destructive (48): ACK-202 POST /a0, ACK-202 POST /a1, ACK-202 POST /a2, ACK-202 POST /a3, ACK-202 POST /a4, ACK-202 POST /a5, and 42 more');
    expect(text).toContain('  - no answer this rule judges among the N exchanges of this operation (7): ACK-202 POST /a48, ');
  });
});

describe('rows judged in part', () => {
  it('are counted per reason group and a few named, as skipped rows are; none, no section', () => {
    const base = rowsReport([], 5);
    expect(renderConsole(base)).not.toContain('JUDGED IN PART');
    // Rows GET /p0..p3 passed with some probes not sent: three for want of a company user, one for --allow-destructive.
    const reasons = new Map([
      ...[0, 1, 2].map((i): [string, string[]] => [pairKey('AUTH-401', `GET /p${i}`), [`no company user was discovered, so ${i + 1} probes were not sent`]]),
      [pairKey('AUTH-401', 'GET /p3'), ['its valid boundary cases need --allow-destructive']],
    ]);
    const text = renderConsole({ ...base, coverage: coverageOf(base.checks, reasons) });
    expect(text).toContain('JUDGED IN PART: 4 of 5 rows (some of their probes not sent), by reason');
    expect(text).toContain('  - no company user was discovered, so N probes were not sent (3): AUTH-401 GET /p0, AUTH-401 GET /p1, AUTH-401 GET /p2\n');
    expect(text).toContain('  - its valid boundary cases need --allow-destructive (1): AUTH-401 GET /p3\n');
  });
});

describe('a failure that broke several rules', () => {
  it('is shown once, under the rules it broke together, naming them all', () => {
    const merged: Failure = { ...failure(1), rules: ['ERR-BODY', 'STATUS-SET'], message: 'ERR-BODY: odd. x\nSTATUS-SET: odd status. y' };
    const text = renderConsole({ ...report([merged]), summary: { passed: 0, failed: 2, skipped: 0, warnings: 0, distinctFailures: 1, ruleViolations: 2 } });
    expect(text).toContain('FAILURES: 1 distinct failure (2 rule violations)');
    expect(text).toContain('ERR-BODY + STATUS-SET  GET /validate  (1)');
    expect(text).toContain('    rules:    ERR-BODY, STATUS-SET (one exchange, 2 rules broken)');
    expect(text).toContain('    why:      ERR-BODY: odd. x\n              STATUS-SET: odd status. y\n');
    expect(text.match(/failure 1/g)).toHaveLength(1);
  });
});
