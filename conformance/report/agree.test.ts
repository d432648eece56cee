/**
 * The three reporters tell the same story: on runs where one exchange breaks several rules, one
 * symptom shows on many exchanges, distinct failures go beyond the listing cap, a state property
 * fails, rows are skipped, and the coverage gate is on, the console's `N distinct failures (M rule
 * violations), from K failing exchanges`, the JSON report's summary, rows and failures, and the
 * JUnit properties and failure elements agree, with each other and with what the target was made
 * to do. One invariant holds on every run: each distinct failure counts once on the row of each
 * rule it broke, on its own operation (a state property's: the action's), so the rows' `failures`
 * add up to the rule violations.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../spec/queries.ts';
import { runConform } from '../cli.ts';
import { MAX_FAILURES_PER_PAIR, runConformance, type Suite } from '../runner.ts';
import type { Check, Probe, Report, Scenario, Send, Target } from '../types.ts';
import { renderConsole } from './console.ts';
import { renderJson } from './json.ts';
import { GATE, renderJunit } from './junit.ts';
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

/** 500, or the status a title names (`status 503`). */
const send: Send = async (p) => {
  const status = Number(/status (\d{3})/.exec(p.title)?.[1] ?? 500);
  return { probe: p, response: { status, headers: { 'content-type': 'application/json' }, text: '{}', json: {}, ms: 1 }, throttled: 0 };
};

const checks = [failsOn('NO-SERVER-ERROR', 'server'), failsOn('ERR-BODY', 'body'), failsOn('STATUS-SET', 'odd')];
const ONLY = ['STATUS-SET', 'NO-SERVER-ERROR', 'ERR-BODY', 'STATE-DNS-UPDATE'] as const;

const probes = [
  probe('getSite', 'odd server'), // STATUS-SET + NO-SERVER-ERROR
  probe('getSite', 'odd server body'), // + ERR-BODY: three rules
  probe('getSite', 'odd server body again'), // the same symptom: one more occurrence
  probe('getSite', 'odd server body, and again'),
  probe('listEnvironments', 'server'), // NO-SERVER-ERROR alone
  probe('listEnvironments', 'fine'),
];
const suite: Suite = {
  checks,
  probeSources: [() => ({ probes, skipped: [{ rule: 'STATUS-SET', endpoint: endpoint('resetSite'), reason: 'needs --allow-destructive' }] })],
  scenarioSources: [],
};
const WANT = { distinct: 3, violations: 2 + 3 + 1, exchanges: 1 + 3 + 1 };

const numbers = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m.slice(1).map(Number));
const property = (xml: string, name: string) => Number(new RegExp(`<property name="${name}" value="(\\d+)"/>`).exec(xml)?.[1]);

/**
 * What every run's reports must agree on, whatever the run: returns the JSON report as parsed.
 * Failures beyond the listing cap are counted in the notes; the rows count every one.
 */
function agree(report: Report): Report {
  const json = JSON.parse(renderJson(report)) as Report;
  const s = json.summary;
  const unlisted = json.notes.flatMap((n) => numbers(n, /: (\d+) more distinct failures? not listed, from (\d+) failing exchanges?/g));
  const unlistedRules = json.notes.flatMap((n) => {
    const m = /^(\S+(?: \+ \S+)*) on .*: (\d+) more distinct failures? not listed/.exec(n);
    return m ? [m[1]!.split(' + ').length * Number(m[2])] : [];
  });
  // JSON: the summary is the failures' sums, listed or not.
  expect(json.failures.length + unlisted.reduce((n, [d]) => n + d!, 0)).toBe(s.distinctFailures);
  expect(json.failures.reduce((n, f) => n + f.rules.length, 0) + unlistedRules.reduce((n, v) => n + v, 0)).toBe(s.ruleViolations);
  expect(json.failures.reduce((n, f) => n + f.occurrences, 0) + unlisted.reduce((n, [, o]) => n + o!, 0)).toBe(s.failingExchanges);
  for (const f of json.failures) expect(f.occurrences).toBeGreaterThanOrEqual(1 + (f.examples?.length ?? 0));
  // The rows: each distinct failure once per rule it broke; a failed row has one at least.
  expect(json.checks.reduce((n, c) => n + (c.failures ?? 0), 0)).toBe(s.ruleViolations);
  expect(json.checks.filter((c) => c.outcome === 'failed').every((c) => (c.failures ?? 0) > 0)).toBe(true);
  expect(json.checks.filter((c) => c.outcome !== 'failed').every((c) => c.failures === undefined)).toBe(true);
  expect(s.failed).toBe(json.checks.filter((c) => c.outcome === 'failed').length);
  expect(s.failed).toBe(new Set(json.failures.flatMap((f) => f.rules.map((r) => `${r} ${f.operation}`))).size);
  expect(json.ok).toBe(s.distinctFailures === 0 && !(json.options.failOnSkip === true && s.skipped > 0));

  // Console: the FAILURES heading and the closing line say the same three counts.
  const text = renderConsole(report);
  const said = numbers(text, /(\d+) distinct failures? \((\d+) rule violations?\), from (\d+) failing exchanges?/g);
  const counts = [s.distinctFailures, s.ruleViolations, s.failingExchanges];
  expect(said).toEqual(s.distinctFailures ? [counts, counts] : []);
  const last = text.trimEnd().split('\n').at(-1)!;
  expect(last).toContain(`${s.passed} passed, ${s.failed} failed, `);
  if (s.skipped) expect(last).toMatch(new RegExp(`\\b${s.skipped} (?:of \\d+ checks? |checks? )?skipped`));

  // JUnit: the properties, one <failure> per failed row (and the gate's), the counts on <testsuites>.
  const xml = renderJunit(report);
  expect(wellFormed(xml)).toEqual([]);
  expect([property(xml, 'distinctFailures'), property(xml, 'ruleViolations'), property(xml, 'failingExchanges')]).toEqual(counts);
  expect([property(xml, 'coverage\\.checked'), property(xml, 'coverage\\.total')]).toEqual([json.coverage.checked, json.coverage.total]);
  const gateFailed = json.options.failOnSkip === true && s.skipped > 0 ? 1 : 0;
  expect(xml.match(/<failure /g)?.length ?? 0).toBe(s.failed + gateFailed);
  expect(Number(/<testsuites [^>]*failures="(\d+)"/.exec(xml)?.[1])).toBe(s.failed + gateFailed);
  expect(xml.includes(GATE.name)).toBe(json.options.failOnSkip === true);
  // The Jenkins JUnit schema counts skips per testsuite only: their sum is the report's.
  const suiteSkips = [...xml.matchAll(/<testsuite [^>]*skipped="(\d+)"/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  expect(suiteSkips).toBe(s.skipped);
  return json;
}

describe('console, JSON and JUnit agree on the counts', () => {
  it('on a run with failures that broke several rules, one of them seen three times, and skipped rows', async () => {
    const report = await runConformance({ target, seed: 3, runs: 1, options: { strict: false }, send, suite, only: [...ONLY] });
    const json = agree(report);
    expect(json.summary).toMatchObject({ distinctFailures: WANT.distinct, ruleViolations: WANT.violations, failingExchanges: WANT.exchanges });
    // In the model's rule order, whatever order the checks ran in; the first occurrence stands for the rest.
    expect(json.failures.map((f) => [f.rules, f.probe, f.occurrences])).toEqual([
      [['STATUS-SET', 'NO-SERVER-ERROR'], 'odd server', 1],
      [['ERR-BODY', 'STATUS-SET', 'NO-SERVER-ERROR'], 'odd server body', 3],
      [['NO-SERVER-ERROR'], 'server', 1],
    ]);
    expect(json.failures[1]!.examples?.map((e) => e.probe)).toEqual(['odd server body again', 'odd server body, and again']);
    expect(renderConsole(report).trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^✗ does not conform: 3 distinct failures \\(6 rule violations\\), from 5 failing exchanges, on ${json.coverage.checked} of ${json.coverage.total} checks — ${json.summary.passed} passed, ${json.summary.failed} failed, 0 warnings; ${json.summary.skipped} skipped: `),
    );
  });

  it('on a run with more distinct failures than are listed, one symptom on many exchanges, and a state property that fails', async () => {
    const SYMPTOMS = MAX_FAILURES_PER_PAIR + 5;
    const MANY = 40;
    const many = [
      // One symptom, many exchanges: one distinct failure.
      ...Array.from({ length: MANY }, (_, i) => probe('getSite', `odd server body ${i}`)),
      // Distinct symptoms (a status each), more than are listed per rule and operation.
      ...Array.from({ length: SYMPTOMS }, (_, i) => probe('listEnvironments', `server status ${501 + i}`)),
    ];
    const scenario: Scenario = {
      rule: 'STATE-DNS-UPDATE',
      endpoints: [endpoint('updateDnsRecords'), endpoint('listDnsRecords')],
      title: 'a record added shows in the list',
      run: async () => ({ verdict: { title: 'the record was not added', message: 'the list still lacks it.' } }),
    };
    const big: Suite = { ...suite, probeSources: [() => ({ probes: many, skipped: [] })], scenarioSources: [() => ({ scenarios: [scenario], skipped: [] })] };
    const run = await runConformance({ target, seed: 3, runs: 1, options: { strict: false }, send, suite: big, only: [...ONLY] });
    const json = agree(run);
    // The state property's failure is one on each of its operations (the action's and the read's).
    expect(json.summary).toMatchObject({ distinctFailures: 1 + SYMPTOMS + 2, ruleViolations: 3 + SYMPTOMS + 2, failingExchanges: MANY + SYMPTOMS + 2 });
    expect(json.notes).toContainEqual(`NO-SERVER-ERROR on GET /sites/{site_id}/environments: 5 more distinct failures not listed, from 5 failing exchanges (at most ${MAX_FAILURES_PER_PAIR} listed per rule and operation)`);

    // The state property's failure is each of its rows', once: which of the action and the read is wrong, no answer tells.
    const state = json.checks.filter((c) => c.rule === 'STATE-DNS-UPDATE');
    expect(state.map((c) => [c.operation, c.outcome, c.failures])).toEqual(
      expect.arrayContaining([
        ['PUT /domains/{domain_id}/dns-records', 'failed', 1],
        ['GET /domains/{domain_id}/dns-records', 'failed', 1],
      ]),
    );

    // JUnit: each row on GET /sites/{site_id} names its one distinct failure and the exchanges it covers.
    const xml = renderJunit(run);
    const messages = [...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"[^>]*>\s*<failure message="([^"]*)"[^>]*>([^<]*)<\/failure>/g)].map((m) => ({ rule: m[1]!, op: m[2]!, message: m[3]!, text: m[4]! }));
    expect(messages.filter((m) => m.op === 'GET /sites/{site_id}').map((m) => [m.rule, m.message])).toEqual(
      ['ERR-BODY', 'STATUS-SET', 'NO-SERVER-ERROR'].map((rule) => [rule, `ERR-BODY broken, from ${MANY} failing exchanges`]),
    );
    // No failed row is a bare "failed".
    for (const m of messages) {
      expect(m.message).not.toBe('failed');
      expect(m.text.trim()).not.toBe('');
    }
    // The console names every listed failure once, in full or on a line.
    const text = renderConsole(run);
    expect([...text.matchAll(/^\S.*  \((\d+)\)$/gm)].reduce((n, m) => n + Number(m[1]), 0)).toBe(json.failures.length);
  });

  it('with --fail-on-skip, where the skips alone fail the run: the gate fails in JUnit too', async () => {
    const fine: Suite = { ...suite, probeSources: [() => ({ probes: [probe('getSite', 'fine status 200')], skipped: [{ rule: 'STATUS-SET', endpoint: endpoint('resetSite'), reason: 'needs --allow-destructive' }] })] };
    const report = await runConformance({ target, seed: 3, runs: 1, options: { strict: false }, send, suite: fine, only: ['STATUS-SET'], failOnSkip: true });
    const json = agree(report);
    expect(json).toMatchObject({ ok: false, summary: { distinctFailures: 0, failed: 0 } });
    expect(json.summary.skipped).toBeGreaterThan(0);
    expect(renderJunit(report)).toMatch(/<testsuites [^>]*failures="1"/);
  });

  it('on a real run against the embedded mock with a DNS state fault: one state failure on each of its two rows', async () => {
    let out = '';
    const stdout = new Writable({ write: (chunk: Buffer, _e, done) => ((out += chunk.toString('utf8')), done()) });
    const stderr = new Writable({ write: (_c, _e, done) => done() });
    const code = await runConform(['--mock-variant', 'dns-update-drops-other-values', '--only', 'STATE-DNS-UPDATE', '--runs', '3', '--reporter', 'json'], { stdout, stderr, env: {} });
    expect(code).toBe(1);
    const report = JSON.parse(out) as Report;
    const json = agree(report);
    expect(json.summary).toMatchObject({ distinctFailures: 2, ruleViolations: 2, failed: 2 });
    expect(json.failures.map((f) => [f.rule, f.operation])).toEqual([
      ['STATE-DNS-UPDATE', 'PUT /domains/{domain_id}/dns-records'],
      ['STATE-DNS-UPDATE', 'GET /domains/{domain_id}/dns-records'],
    ]);
  });
});
