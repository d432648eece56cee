/**
 * The three reporters tell the same story: on a run where one exchange breaks several rules and
 * rows are skipped, the console's `N distinct failures (M rule violations)`, the JSON report's
 * summary and failures, and the JUnit properties and failure elements agree, with each other and
 * with what the stub target was made to do.
 */
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../spec/queries.ts';
import { MAX_FAILURES_PER_PAIR, runConformance, type Suite } from '../runner.ts';
import type { Check, Probe, Report, Scenario, Send, Target } from '../types.ts';
import { renderConsole } from './console.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { wellFormed } from './well-formed.ts';

const target: Target = {
  baseUrl: 'http://127.0.0.1:1/v2',
  main: { apiKey: 'main-secret-key-123', ids: { companyId: 'c', siteId: 's', envIds: ['e'], envId: 'e', sftpAccountIds: [] } },
  allowDestructive: false,
  embedded: false,
};

const probe = (name: string, title: string): Probe => ({
  rule: 'AUTH-401',
  endpoint: endpoint(name),
  expect: 'unauthorized',
  title,
  request: { method: endpoint(name).method, url: `${target.baseUrl}${endpoint(name).path}`, headers: {} },
});

/** Fails on probes whose title names the rule. */
const failsOn = (rule: Check['rule'], word: string): Check => ({ rule, applies: (e) => e.response !== undefined, check: (_, e) => (e.probe.title.includes(word) ? { title: `${rule} broken`, message: 'as the stub was made to.' } : undefined) });

const send: Send = async (p) => ({ probe: p, response: { status: 500, headers: { 'content-type': 'application/json' }, text: '{}', json: {}, ms: 1 }, throttled: 0 });

const probes = [
  probe('getSite', 'status server'), // STATUS-SET + NO-SERVER-ERROR
  probe('getSite', 'status server body'), // + ERR-BODY: three rules
  probe('listEnvironments', 'server'), // NO-SERVER-ERROR alone
  probe('listEnvironments', 'fine'),
];
const suite: Suite = {
  checks: [failsOn('NO-SERVER-ERROR', 'server'), failsOn('ERR-BODY', 'body'), failsOn('STATUS-SET', 'status')],
  probeSources: [() => ({ probes, skipped: [{ rule: 'STATUS-SET', endpoint: endpoint('resetSite'), reason: 'needs --allow-destructive' }] })],
  scenarioSources: [],
};
const WANT = { distinct: 3, violations: 2 + 3 + 1 };

describe('console, JSON and JUnit agree on the counts', () => {
  let report: Report;
  const numbers = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => [Number(m[1]), Number(m[2])]);

  it('on a run with failures that broke several rules, and skipped rows', async () => {
    report = await runConformance({ target, seed: 3, runs: 1, options: { strict: false }, send, suite, only: ['STATUS-SET', 'NO-SERVER-ERROR', 'ERR-BODY'] });

    const json = JSON.parse(renderJson(report)) as Report;
    expect(json.summary).toMatchObject({ distinctFailures: WANT.distinct, ruleViolations: WANT.violations });
    expect(json.failures).toHaveLength(WANT.distinct);
    expect(json.failures.reduce((n, f) => n + f.rules.length, 0)).toBe(WANT.violations);
    // In the model's rule order, whatever order the checks ran in.
    expect(json.failures.map((f) => f.rules)).toEqual([['STATUS-SET', 'NO-SERVER-ERROR'], ['ERR-BODY', 'STATUS-SET', 'NO-SERVER-ERROR'], ['NO-SERVER-ERROR']]);

    const text = renderConsole(report);
    const said = numbers(text, /(\d+) distinct failures? \((\d+) rule violations?\)/g);
    // The FAILURES heading and the closing line.
    expect(said).toEqual([
      [WANT.distinct, WANT.violations],
      [WANT.distinct, WANT.violations],
    ]);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^✗ does not conform: ${WANT.distinct} distinct failures \\(${WANT.violations} rule violations\\) on ${json.coverage.checked} of ${json.coverage.total} checks — ${json.summary.passed} passed, ${json.summary.failed} failed, 0 warnings; ${json.summary.skipped} skipped: `));

    const xml = renderJunit(report);
    expect(wellFormed(xml)).toEqual([]);
    const property = (name: string) => Number(new RegExp(`<property name="${name}" value="(\\d+)"/>`).exec(xml)?.[1]);
    expect([property('distinctFailures'), property('ruleViolations')]).toEqual([WANT.distinct, WANT.violations]);
    expect([property('coverage\\.checked'), property('coverage\\.total')]).toEqual([json.coverage.checked, json.coverage.total]);
    // One <failure> per failed row: every rule a failure broke fails its row.
    expect(xml.match(/<failure /g)).toHaveLength(json.summary.failed);
    expect(json.summary.failed).toBe(new Set(json.failures.flatMap((f) => f.rules.map((r) => `${r} ${f.operation}`))).size);
    expect(Number(/<testsuites [^>]*failures="(\d+)"/.exec(xml)?.[1])).toBe(json.summary.failed);
    // The Jenkins JUnit schema counts skips per testsuite only: their sum is the report's.
    const suiteSkips = [...xml.matchAll(/<testsuite [^>]*skipped="(\d+)"/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(suiteSkips).toBe(json.summary.skipped);
  });
  it('on a run with more failures than are kept, and a scenario that fails: every failure counted once, and each failed row says why', async () => {
    const MANY = MAX_FAILURES_PER_PAIR + 15;
    const many = Array.from({ length: MANY }, (_, i) => probe('getSite', `status server body ${i}`));
    const scenario: Scenario = {
      rule: 'STATE-DNS-UPDATE',
      endpoints: [endpoint('updateDnsRecords'), endpoint('listDnsRecords')],
      title: 'a record added shows in the list',
      run: async () => ({ verdict: { title: 'the record was not added', message: 'the list still lacks it.' } }),
    };
    const big: Suite = { ...suite, probeSources: [() => ({ probes: many, skipped: [] })], scenarioSources: [() => ({ scenarios: [scenario], skipped: [] })] };
    const run = await runConformance({ target, seed: 3, runs: 1, options: { strict: false }, send, suite: big, only: ['STATUS-SET', 'NO-SERVER-ERROR', 'ERR-BODY', 'STATE-DNS-UPDATE'] });
    const json = JSON.parse(renderJson(run)) as Report;
    expect(json.summary).toMatchObject({ distinctFailures: MANY + 1, ruleViolations: 3 * MANY + 1 });

    // One note for the root cause broken under three rules, with its true figure: never one per rule.
    const unlisted = json.notes.filter((n) => / more failures? not listed/.test(n));
    expect(unlisted).toEqual([`ERR-BODY + STATUS-SET + NO-SERVER-ERROR on GET /sites/{site_id}: ${MANY - MAX_FAILURES_PER_PAIR} more failures not listed (at most ${MAX_FAILURES_PER_PAIR} kept per rule and operation)`]);
    const noted = unlisted.reduce((n, note) => n + Number(/: (\d+) more/.exec(note)![1]), 0);
    expect(json.failures.length + noted).toBe(json.summary.distinctFailures);

    // The console names every listed failure once, in full or on a line of failures like one in full.
    const text = renderConsole(run);
    expect(text).toContain(`FAILURES: ${MANY + 1} distinct failures (${3 * MANY + 1} rule violations); ${json.failures.length} listed, see the notes`);
    expect([...text.matchAll(/^\S.*  \((\d+)\)$/gm)].reduce((n, m) => n + Number(m[1]), 0)).toBe(json.failures.length);
    expect(text.match(/^ {4}probe: /gm)).toHaveLength(2);
    expect(text).toContain(`    … and ${MAX_FAILURES_PER_PAIR - 1} more like it`);

    const xml = renderJunit(run);
    expect(wellFormed(xml)).toEqual([]);
    // Each rule's row on GET /sites/{site_id} counts all the failures there, listed or not.
    const messages = [...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"[^>]*>\s*<failure message="([^"]*)"[^>]*>([^<]*)<\/failure>/g)].map((m) => ({ rule: m[1]!, op: m[2]!, message: m[3]!, text: m[4]! }));
    expect(messages.filter((m) => m.op === 'GET /sites/{site_id}').map((m) => [m.rule, /\(and (\d+) more\)/.exec(m.message)?.[1]])).toEqual(
      ['ERR-BODY', 'STATUS-SET', 'NO-SERVER-ERROR'].map((rule) => [rule, String(MANY - 1)]),
    );
    // No failed row is a bare "failed": the scenario's read row gives the scenario's verdict.
    expect(messages).toHaveLength(json.summary.failed);
    for (const m of messages) {
      expect(m.message).not.toBe('failed');
      expect(m.text.trim()).not.toBe('');
    }
    expect(messages.find((m) => m.rule === 'STATE-DNS-UPDATE' && m.op.startsWith('GET'))?.text).toContain('the list still lacks it.');
  });
});
