/** The JUnit reporter on a report full of characters XML cannot carry as they are. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Failure, Report } from '../types.ts';
import { renderJunit, xmlEscape } from './junit.ts';
import { wellFormed } from './well-formed.ts';

const nasty = 'a<b>&c"d\'e ]]> \u0001\u0008\u000b \ud800 lone \udfff end \t\r\n é ✓ 𝄞';

const failure: Failure = {
  rule: 'AUTH-401',
  rules: ['AUTH-401'],
  operation: 'GET /sites/{site_id}',
  title: `answered 200 ${nasty}`,
  message: nasty,
  severity: 'error',
  probe: `probe ${nasty}`,
  request: { method: 'GET', url: 'http://x/v2/sites/<id>?a=1&b=2', headers: { authorization: 'Bearer [redacted HSC_API_KEY]' }, body: nasty },
  response: { status: 200, headers: {}, text: `<html>${nasty}</html>`, ms: 1 },
  seed: 1,
  curl: `curl -H 'x: ${nasty}'`,
  occurrences: 1,
};

const report: Report = {
  ok: false,
  seed: 1,
  target: 'http://x/v2?<&>',
  specVersion: '1.106.0',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  requests: 3,
  options: {},
  summary: { passed: 1, failed: 1, skipped: 1, warnings: 1, distinctFailures: 2, ruleViolations: 2, failingExchanges: 2 },
  checks: [
    // Side by side: 1.5 s of answers from 100 ms to 1.3 s, and 25 ms within it.
    { rule: 'AUTH-401', operation: 'GET /sites/{site_id}', outcome: 'failed', exchanges: 2, ms: 1500, wall: { fromMs: 100, toMs: 1300 } },
    { rule: 'AUTH-401', operation: 'GET /validate', outcome: 'passed', exchanges: 1, ms: 25, wall: { fromMs: 1250, toMs: 1375 }, reason: `note ${nasty}` },
    { rule: 'ERR-BODY', operation: 'GET /validate', outcome: 'skipped', exchanges: 0, reason: `skipped ${nasty}` },
  ],
  coverage: {
    checked: 2,
    total: 3,
    skipped: [{ reason: `skipped ${nasty}`, count: 1 }],
    rules: {
      'AUTH-401': { checked: 2, inScope: 2, skipped: [], partly: [] },
      'ERR-BODY': { checked: 0, inScope: 1, skipped: [{ operation: 'GET /validate', reason: `skipped ${nasty}` }], partly: [] },
    },
  },
  failures: [failure, { ...failure, title: 'second' }],
  warnings: [{ ...failure, rule: 'AUTH-401', operation: 'GET /validate', severity: 'warning' }],
  notes: [nasty],
  consumed: [{ operation: 'DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}', effect: 'destructive', ids: { sftp_account_id: nasty }, requests: 1 }],
};

describe('renderJunit', () => {
  const xml = renderJunit(report);

  it('says what made it once: the tool and the version its package.json states, in the first testsuite\'s properties', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect(xml.match(/<properties>/g)).toHaveLength(1);
    expect(xml.indexOf('<properties>')).toBeLessThan(xml.indexOf('<testcase '));
    expect(xml.match(new RegExp(`<property name="tool" value="${pkg.name}"/>`, 'g'))).toHaveLength(1);
    expect(xml.match(new RegExp(`<property name="toolVersion" value="${pkg.version.replace(/\./g, '\\.')}"/>`, 'g'))).toHaveLength(1);
  });

  it('is well-formed XML whatever the text holds', () => {
    expect(wellFormed(xml)).toEqual([]);
  });

  it('has one testsuite per rule and one testcase per row, with failures and skips marked', () => {
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('(and 1 more distinct failure)');
    // The reason as `<skipped message>` (its first line) and whole as content; no skip count on `<testsuites>`.
    expect(xml.match(/<skipped message="skipped [^"\n]*">[^<]*<\/skipped>/g)).toHaveLength(1);
    expect(xml).not.toMatch(/<testsuites [^>]*skipped=/);
    // Wall times: a row from its first request to its last answer, a suite from its rows' first to their last, never their sum.
    expect(xml).toMatch(/<testcase classname="AUTH-401" name="GET \/sites\/\{site_id\}" time="1\.200"/);
    expect(xml).toMatch(/<testcase classname="AUTH-401" name="GET \/validate" time="0\.125"/);
    expect(xml).toMatch(/<testsuite name="AUTH-401" [^>]*time="1\.275"/);
    expect(xml).toMatch(/<testsuite name="AUTH-401" tests="2" failures="1" errors="0" skipped="0"/);
  });

  it('a real XML parser agrees, when python3 is around', () => {
    let python = true;
    try {
      execFileSync('python3', ['-c', 'pass']);
    } catch {
      python = false;
    }
    if (!python) return;
    const out = execFileSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; r = E.fromstring(sys.stdin.buffer.read()); print(len(r.findall(".//testcase")))'], { input: xml });
    expect(out.toString().trim()).toBe('3');
  });

  it.each([
    ['&<>"\'', '&amp;&lt;&gt;&quot;&apos;'],
    ['\u0000x', '\ufffdx'],
    ['𝄞', '𝄞'],
  ])('xmlEscape(%j)', (input, want) => {
    expect(xmlEscape(input)).toBe(want);
  });
});

describe('the consumed properties', () => {
  it('count the accepted changes per operation with its effect, ids and the rest together', () => {
    const op = 'DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}';
    const consumed: Report['consumed'] = [
      { operation: op, effect: 'destructive', ids: { sftp_account_id: 'a' }, requests: 1 },
      { operation: op, effect: 'destructive', ids: { sftp_account_id: 'b' }, requests: 2 },
      { operation: op, effect: 'destructive', ids: {}, requests: 5, otherIds: true },
      { operation: 'POST /sites/cdn/clear-cache', effect: 'mutating', ids: { environment_id: 'e' }, requests: 4 },
    ];
    const xml = renderJunit({ ...report, checks: report.checks.slice(0, 1), consumed });
    const properties = [...xml.matchAll(/<property name="(consumed[^"]*)" value="(\d+)"\/>/g)].map((m) => [m[1], m[2]]);
    expect(properties).toEqual([
      [`consumed (destructive): ${xmlEscape(op)}`, '8'],
      ['consumed (mutating): POST /sites/cdn/clear-cache', '4'],
    ]);
  });
});

describe('a failed row\'s <failure>', () => {
  const row = { rule: 'AUTH-401', operation: 'GET /sites/{site_id}', outcome: 'failed', exchanges: 100 } as const;
  const failureOf = (xml: string, op: string) => new RegExp(`<testcase [^>]*name="${xmlEscape(op).replace(/[{}]/g, '\\$&')}"[^>]*>\\s*<failure message="([^"]*)" type="[^"]*">([^<]*)</failure>`).exec(xml);

  it('counts all the distinct failures of the row and their occurrences, not only those listed', () => {
    const listed = Array.from({ length: 10 }, (_, i) => ({ ...failure, title: `listed ${i}`, occurrences: 3 }));
    const xml = renderJunit({ ...report, checks: [{ ...row, failures: 100, occurrences: 420 }], failures: listed });
    const [, message, text] = failureOf(xml, row.operation)!;
    expect(message).toBe('listed 0 (and 99 more distinct failures), from 420 failing exchanges');
    expect(text).toContain('listed 9');
    expect(text).toContain('… and 90 more distinct failures not listed');
  });

  it('names each distinct failure once, with how often it occurred', () => {
    const request = { method: 'GET', url: 'http://x/v2/sites/s', headers: {} };
    const many: Failure = { ...failure, title: 'answered 500', occurrences: 100, examples: [{ probe: 'valid request 2 of 100', title: 'answered 500', request }] };
    const xml = renderJunit({ ...report, checks: [{ ...row, failures: 1, occurrences: 100 }], failures: [many] });
    expect(wellFormed(xml)).toEqual([]);
    const [, message, text] = failureOf(xml, row.operation)!;
    expect(message).toBe('answered 500, from 100 failing exchanges');
    expect(text!.match(/answered 500\n/g)).toHaveLength(1);
    expect(text!).toContain('seen 100 times, the same symptom; also in: valid request 2 of 100; and 98 more');
  });

  it('a scenario\'s read row passes with a note naming the row that owns the failure; only the action\'s row fails', () => {
    const scenario: Failure = { ...failure, rule: 'STATE-DNS-UPDATE', rules: ['STATE-DNS-UPDATE'], operation: 'PUT /domains/{domain_id}/dns-records', title: 'the record was not added', message: 'after 1 s the list still lacks it' };
    const note = `the property's failure is counted on the row of the action it is about, ${scenario.operation}; this operation only observed it`;
    const checks = [
      { rule: 'STATE-DNS-UPDATE', operation: scenario.operation, outcome: 'failed', exchanges: 2, failures: 1, occurrences: 1 },
      { rule: 'STATE-DNS-UPDATE', operation: 'GET /domains/{domain_id}/dns-records', outcome: 'passed', exchanges: 2, reason: note },
    ] as const;
    const xml = renderJunit({ ...report, checks, summary: { ...report.summary, failed: 1 }, failures: [scenario] });
    expect(wellFormed(xml)).toEqual([]);
    expect(failureOf(xml, checks[0].operation)![1]).toBe('the record was not added');
    expect(failureOf(xml, checks[1].operation)).toBeNull();
    expect(xml).toContain(`<system-out>note: ${xmlEscape(note)}</system-out>`);
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });
});

describe('the coverage gate (--fail-on-skip)', () => {
  const gate = (xml: string) => /<testsuite name="coverage gate" tests="1" failures="(\d)"[^>]*>[\s\S]*?<testcase classname="coverage gate" name="--fail-on-skip: every check judged"[^>]*>([\s\S]*?)<\/testsuite>/.exec(xml);
  const total = (xml: string) => /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(xml)!.slice(1).map(Number);

  it('is a failing testcase when a row was skipped, naming the count and the reasons, and counted', () => {
    const xml = renderJunit({ ...report, ok: false, options: { failOnSkip: true } });
    expect(wellFormed(xml)).toEqual([]);
    const [, failures, body] = gate(xml)!;
    expect(failures).toBe('1');
    expect(body).toContain(`<failure message="1 of 3 checks skipped (--fail-on-skip)" type="fail-on-skip">`);
    expect(body).toContain(`- ${xmlEscape(`skipped ${nasty}`)} (1)`);
    expect(total(xml)).toEqual([report.checks.length + 1, report.summary.failed + 1]);
  });

  it('passes when nothing was skipped, and is absent without the flag', () => {
    const covered: Report = { ...report, options: { failOnSkip: true }, summary: { ...report.summary, skipped: 0 }, coverage: { ...report.coverage, skipped: [] } };
    const xml = renderJunit(covered);
    expect(gate(xml)![1]).toBe('0');
    expect(gate(xml)![2]).not.toContain('<failure');
    expect(total(xml)).toEqual([report.checks.length + 1, report.summary.failed]);
    expect(renderJunit(report)).not.toContain('coverage gate');
    expect(total(renderJunit(report))).toEqual([report.checks.length, report.summary.failed]);
  });
});
