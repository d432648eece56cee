/**
 * The runner with a small stub suite and a fake transport: the rows it reports, the order of
 * failures and how they are grouped by symptom, `--only`, scenarios, and the failures it must
 * never swallow (transport failures no check takes, checks and scenarios that crash).
 */
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { RuleId } from '../spec/model.ts';
import { endpoint, inScope, operation } from '../spec/queries.ts';
import { MAX_FAILURES_PER_PAIR, MAX_TIMEOUTS_IN_A_ROW, runConformance, type Suite } from './runner.ts';
import { RunBudget } from './schedule/budget.ts';
import type { Check, Exchange, Probe, ProbeResponse, Scenario, Send, Skip, Target } from './types.ts';

const stubTarget: Target = {
  baseUrl: 'http://127.0.0.1:1/v2',
  main: {
    apiKey: 'main-secret-key-123',
    ids: { companyId: 'c', siteId: 's', envIds: ['e'], envId: 'e', sftpAccountIds: [] },
  },
  allowDestructive: false,
  embedded: false,
};

const json = (status: number, body: unknown): ProbeResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify(body),
  json: body,
  ms: 1,
});

const probe = (rule: RuleId, name: string, title: string): Probe => ({
  rule,
  endpoint: endpoint(name),
  expect: rule === 'AUTH-401' ? 'unauthorized' : 'valid',
  title,
  request: { method: endpoint(name).method, url: `${stubTarget.baseUrl}${endpoint(name).path}`, headers: {} },
});

/** The status a title names (`status 418`), else 401 for AUTH-401 probes and 200 otherwise; a random delay so completion order is shuffled. */
const fakeSend: Send = async (p) => {
  await new Promise((r) => setTimeout(r, Math.random() * 5));
  if (p.title.includes('timeout')) return { probe: p, failure: { kind: 'timeout', message: 'no complete answer within 10 ms', ms: 10 }, throttled: 0 };
  const named = /status (\d{3})/.exec(p.title)?.[1];
  const status = named ? Number(named) : p.rule === 'AUTH-401' ? 401 : 200;
  return { probe: p, response: status === 200 ? json(200, { ok: true }) : json(status, { message: 'no key', status }), throttled: 0 };
};

/** AUTH-401 expects 401 and fails probes whose title says "bad"; ERR-BODY warns on every error. */
const auth401: Check = {
  rule: 'AUTH-401',
  ownProbesOnly: true,
  applies: (e) => e.probe.rule === 'AUTH-401' && e.response !== undefined,
  check: (_, e) => (e.probe.title.includes('bad') ? { title: `bad ${e.probe.title}`, message: 'wanted 401' } : undefined),
};
const errBody: Check = {
  rule: 'ERR-BODY',
  applies: (e) => (e.response?.status ?? 0) >= 400,
  check: () => ({ title: 'odd message', message: 'just a warning', severity: 'warning' }),
};

const suite = (probes: Probe[], extra: Partial<Suite> = {}): Suite => ({
  checks: [auth401, errBody],
  probeSources: [() => ({ probes, skipped: [{ rule: 'INPUT-ACCEPT', endpoint: endpoint('resetSite'), reason: 'needs --allow-destructive' }] })],
  scenarioSources: [],
  ...extra,
});

const run = (s: Suite, only?: RuleId[], send: Send = fakeSend) =>
  runConformance({ target: stubTarget, seed: 7, runs: 1, options: { strict: false }, send, suite: s, concurrency: 4, ...(only ? { only } : {}) });

describe('runConformance', () => {
  it('reports one row per in-scope (rule, operation), BASE-PATH once, with skip reasons', async () => {
    const report = await run(suite([probe('AUTH-401', 'getSite', 'no key')]));
    const expected = api.rules.flatMap((r) => (r.scope === 'target' ? [`${r.id} *`] : api.endpoints.filter((e) => inScope(r, e)).map((e) => `${r.id} ${operation(e)}`)));
    expect(report.checks.map((c) => `${c.rule} ${c.operation}`)).toEqual(expected);
    const row = (rule: string, op: string) => report.checks.find((c) => c.rule === rule && c.operation === op);
    // The row's duration: the time of the answer it judged (1 ms in this fake).
    expect(row('AUTH-401', 'GET /sites/{site_id}')).toMatchObject({ outcome: 'passed', exchanges: 1, ms: 1 });
    expect(row('BASE-PATH', '*')).toMatchObject({ outcome: 'passed' });
    expect(row('INPUT-ACCEPT', 'POST /sites/{site_id}/reset-site')).toMatchObject({ outcome: 'skipped', reason: 'needs --allow-destructive' });
    expect(row('AUTH-401', 'GET /validate')).toMatchObject({ outcome: 'skipped', reason: 'no probe exercised it' });
    expect(report.ok).toBe(true);
    expect(report.summary.passed + report.summary.failed + report.summary.skipped).toBe(report.checks.length);
  });

  it('names a reason for every row nobody judged: the missing flag, or the gap as it is', async () => {
    const probes = [probe('AUTH-401', 'resetSite', 'no key')];
    const ack = (r: Awaited<ReturnType<typeof run>>) => r.checks.find((c) => c.rule === 'ACK-202' && c.operation === 'POST /sites/{site_id}/reset-site');
    expect(ack(await run(suite(probes)))).toMatchObject({ outcome: 'skipped', reason: 'needs --allow-destructive' });
    const destructive = (skipped: Skip[]) =>
      runConformance({ target: { ...stubTarget, allowDestructive: true }, seed: 7, runs: 1, options: { strict: false }, send: fakeSend, suite: suite(probes, { probeSources: [() => ({ probes, skipped })] }) });
    expect(ack(await destructive([]))).toMatchObject({ outcome: 'skipped', reason: 'no answer this rule judges among the 1 exchange of this operation' });
    // When no valid request could be built, the rows that judge a success say why, as INPUT-ACCEPT does.
    const noValid = await destructive([{ rule: 'INPUT-ACCEPT', endpoint: endpoint('resetSite'), reason: 'no site discovered' }]);
    expect(ack(noValid)).toMatchObject({ outcome: 'skipped', reason: 'no site discovered' });
  });

  it('judges BASE-PATH once against the base URL', async () => {
    const report = await runConformance({ target: { ...stubTarget, baseUrl: 'http://127.0.0.1:1/api/v3' }, seed: 7, runs: 1, options: { strict: false }, send: fakeSend, suite: suite([]), only: ['BASE-PATH'] });
    expect(report.checks).toEqual([expect.objectContaining({ rule: 'BASE-PATH', operation: '*', outcome: 'failed' })]);
    expect(report.failures).toEqual([expect.objectContaining({ rule: 'BASE-PATH', operation: '*', severity: 'error' })]);
    expect(report.ok).toBe(false);
  });

  it(`stops sending to an operation after ${MAX_TIMEOUTS_IN_A_ROW} timeouts in a row, and says so; other operations go on`, async () => {
    const hanging = Array.from({ length: 40 }, (_, i) => probe('AUTH-401', 'getSite', `timeout ${i}`));
    const answering = Array.from({ length: 10 }, (_, i) => probe('AUTH-401', 'listEnvironments', `no key ${i}`));
    let sentToHanging = 0;
    const send: Send = async (p) => {
      if (p.endpoint.name === 'getSite') sentToHanging++;
      return fakeSend(p);
    };
    const report = await run(suite([...hanging, ...answering]), undefined, send);
    // Concurrency 4: at most the in-flight ones go past the limit.
    expect(sentToHanging).toBeGreaterThanOrEqual(MAX_TIMEOUTS_IN_A_ROW);
    expect(sentToHanging).toBeLessThanOrEqual(MAX_TIMEOUTS_IN_A_ROW + 3);
    expect(report.notes).toContainEqual(`GET /sites/{site_id}: ${40 - sentToHanging} probes not sent after ${MAX_TIMEOUTS_IN_A_ROW} timeouts in a row (each would have waited --timeout-ms); the rules they judge are skipped there`);
    expect(report.checks.find((c) => c.rule === 'AUTH-401' && c.operation === 'GET /sites/{site_id}')).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/partly skipped: not sent: the operation timed out 3 times in a row/) });
    expect(report.checks.find((c) => c.rule === 'AUTH-401' && c.operation === 'GET /sites/{site_id}/environments')).toMatchObject({ outcome: 'passed', exchanges: 10 });
  });

  it('stopWhenFound: sending ends once that failure is found (others found before it do not end it), and the report says why', async () => {
    const probes = [
      ...Array.from({ length: 10 }, (_, i) => probe('AUTH-401', 'getSite', `no key ${i}`)),
      probe('AUTH-401', 'listEnvironments', 'bad on another operation'),
      ...Array.from({ length: 10 }, (_, i) => probe('AUTH-401', 'getSite', `no key again ${i}`)),
      probe('AUTH-401', 'getSite', 'bad one'),
      ...Array.from({ length: 40 }, (_, i) => probe('AUTH-401', 'getSite', `no key after ${i}`)),
    ];
    const sent: string[] = [];
    // As the transport does: a request the budget cannot cover is not sent.
    const budget = new RunBudget();
    const send: Send = async (p) => {
      const spent = budget.take();
      if (spent) return { probe: p, failure: { kind: 'budget', message: `not sent: ${spent}`, ms: 0 }, throttled: 0 };
      sent.push(p.title);
      return fakeSend(p);
    };
    const report = await runConformance({ target: stubTarget, seed: 7, runs: 1, options: { strict: false }, send, budget, suite: suite(probes), concurrency: 1, stopWhenFound: { rule: 'AUTH-401', operation: 'GET /sites/{site_id}' } });
    expect(report.failures.map((f) => f.probe).sort()).toEqual(['bad on another operation', 'bad one']);
    // One at a time: nothing after the failure looked for goes out.
    expect(sent.at(-1)).toBe('bad one');
    expect(sent.length).toBeLessThan(probes.length);
    expect(report.notes.join('\n')).toMatch(/stopped once AUTH-401 on GET \/sites\/\{site_id\} was found/);
  });

  it('keeps failures in probe order of their first occurrence whatever order the answers come in', async () => {
    const probes = Array.from({ length: 30 }, (_, i) => probe('AUTH-401', i % 2 ? 'getSite' : 'listEnvironments', `bad ${String(i).padStart(2, '0')} status ${400 + (i % 6)}`));
    const view = (r: Awaited<ReturnType<typeof run>>) => r.failures.map((f) => [f.probe, f.occurrences, f.examples?.map((e) => e.probe)]);
    const first = view(await run(suite(probes)));
    // Six symptoms (operation and status), five occurrences each: the first shown, the next three as examples.
    expect(first).toEqual(probes.slice(0, 6).map((p, i) => [p.title, 5, [1, 2, 3].map((k) => probes[i + 6 * k]!.title)]));
    expect(view(await run(suite(probes)))).toEqual(first);
  });

  it('failures with the same symptom are one distinct failure: the operation, the rules broken together and the status, not the title', async () => {
    const probes = [
      probe('AUTH-401', 'getSite', 'bad a'),
      probe('AUTH-401', 'getSite', 'bad b'), // same symptom, another title
      probe('AUTH-401', 'getSite', 'bad c status 403'), // another status
      probe('AUTH-401', 'listEnvironments', 'bad d'), // another operation
      probe('AUTH-401', 'getSite', 'fine'),
    ];
    const report = await run(suite(probes));
    expect(report.failures.map((f) => [f.probe, f.operation, f.response?.status, f.occurrences])).toEqual([
      ['bad a', 'GET /sites/{site_id}', 401, 2],
      ['bad c status 403', 'GET /sites/{site_id}', 403, 1],
      ['bad d', 'GET /sites/{site_id}/environments', 401, 1],
    ]);
    expect(report.failures[0]!.examples).toEqual([{ probe: 'bad b', title: 'bad bad b', request: probes[1]!.request }]);
    expect(report.summary).toMatchObject({ distinctFailures: 3, ruleViolations: 3, failingExchanges: 4 });
    // A row counts its distinct failures and their occurrences.
    expect(report.checks.find((c) => c.rule === 'AUTH-401' && c.operation === 'GET /sites/{site_id}')).toMatchObject({ outcome: 'failed', failures: 2, occurrences: 3 });
  });

  it('fails a row on an error verdict; a warning alone does not fail the run', async () => {
    const report = await run(suite([probe('AUTH-401', 'getSite', 'bad one'), probe('AUTH-401', 'listEnvironments', 'fine')]));
    expect(report.ok).toBe(false);
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({ rule: 'AUTH-401', operation: 'GET /sites/{site_id}', severity: 'error', seed: 7 });
    // One warning per operation: the same symptom on each of its exchanges.
    expect(report.warnings.map((w) => [w.operation, w.occurrences])).toEqual([
      ['GET /sites/{site_id}', 1],
      ['GET /sites/{site_id}/environments', 1],
    ]);
    expect(report.checks.find((c) => c.rule === 'ERR-BODY' && c.operation === 'GET /sites/{site_id}')?.outcome).toBe('passed');
  });

  it('--only sends every probe for a check that judges any exchange, even when its rule has probes of its own', async () => {
    const statusSet: Check = { rule: 'STATUS-SET', applies: (e) => e.response !== undefined, check: () => undefined };
    const probes = [probe('AUTH-401', 'getSite', 'no key'), probe('STATUS-SET', 'listThemes', 'a conflict observed'), probe('INPUT-ACCEPT', 'getSite', 'valid read')];
    const sent: string[] = [];
    const recording: Send = (p) => (sent.push(p.title), fakeSend(p));
    const report = await run(suite(probes, { checks: [auth401, statusSet] }), ['STATUS-SET'], recording);
    expect(sent.sort()).toEqual(['a conflict observed', 'no key', 'valid read']);
    expect(report.checks.find((c) => c.operation === 'GET /sites/{site_id}')).toMatchObject({ rule: 'STATUS-SET', outcome: 'passed' });
  });

  it('--only reports only the chosen rules; a rule without probes of its own gets every probe as material', async () => {
    const probes = [probe('AUTH-401', 'getSite', 'no key'), probe('INPUT-ACCEPT', 'getSite', 'valid read')];
    const sent: string[] = [];
    const recording: Send = (p) => (sent.push(p.title), fakeSend(p));
    const onlyAuth = await run(suite(probes), ['AUTH-401'], recording);
    expect(new Set(onlyAuth.checks.map((c) => c.rule))).toEqual(new Set(['AUTH-401']));
    expect(sent).toEqual(['no key']);
    sent.length = 0;
    const onlyErr = await run(suite(probes), ['ERR-BODY'], recording);
    expect(sent.sort()).toEqual(['no key', 'valid read']);
    expect(onlyErr.checks.find((c) => c.operation === 'GET /sites/{site_id}')).toMatchObject({ rule: 'ERR-BODY', outcome: 'passed' });
  });

  it('reports a transport failure no check takes under the probe\'s rule', async () => {
    const report = await run(suite([probe('INPUT-ACCEPT', 'getSite', 'timeout please')]));
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({ rule: 'INPUT-ACCEPT', transport: { kind: 'timeout' } });
  });

  it('--only never hides a transport failure: it is reported under the probe\'s rule, with its own row', async () => {
    const report = await run(suite([probe('INPUT-ACCEPT', 'getSite', 'timeout please')]), ['ERR-BODY']);
    expect(report.ok).toBe(false);
    expect(report.failures.map((f) => [f.rule, f.operation])).toEqual([['INPUT-ACCEPT', 'GET /sites/{site_id}']]);
    expect(report.checks.filter((c) => c.rule === 'INPUT-ACCEPT')).toEqual([expect.objectContaining({ operation: 'GET /sites/{site_id}', outcome: 'failed' })]);
    expect(report.summary.failed).toBe(1);
  });

  it('reports a crashing check as a failure, not a pass', async () => {
    const crashing: Check = { rule: 'CONTENT-TYPE', applies: () => true, check: () => { throw new Error('boom'); } };
    const report = await run(suite([probe('INPUT-ACCEPT', 'getSite', 'read')], { checks: [crashing] }));
    expect(report.failures[0]).toMatchObject({ rule: 'CONTENT-TYPE', title: 'check crashed' });
    expect(report.failures[0]!.message).toMatch(/boom/);
  });

  it('a scenario that could not observe its property skips its rows with the reason: never a pass', async () => {
    const scenario: Scenario = {
      rule: 'STATE-SFTP-REMOVE',
      endpoints: [endpoint('removeAdditionalSftpAccount'), endpoint('listAdditionalSftpAccounts')],
      title: 'remove, then unlisted',
      run: async () => ({ skip: 'the account is not listed to begin with' }),
    };
    const report = await run(suite([], { scenarioSources: [() => ({ scenarios: [scenario], skipped: [] })] }), ['STATE-SFTP-REMOVE']);
    expect(report.checks.map((c) => c.operation).sort()).toEqual(scenario.endpoints.map(operation).sort());
    for (const row of report.checks) expect(row).toMatchObject({ outcome: 'skipped', exchanges: 0, reason: expect.stringContaining('not listed to begin with') });
    expect(report.ok).toBe(true);
  });

  it('runs scenarios after the probes, judges their exchanges, and a failed scenario fails the rows of its action and of its read, once each (which of the two is wrong, no answer tells)', async () => {
    const order: string[] = [];
    const send: Send = (p) => (order.push(p.title), fakeSend(p));
    const report = await run(
      suite([probe('AUTH-401', 'getSite', 'no key')], {
        scenarioSources: [
          () => ({
            scenarios: [
              {
                rule: 'STATE-SFTP-REMOVE',
                endpoints: [endpoint('removeAdditionalSftpAccount'), endpoint('listAdditionalSftpAccounts')],
                title: 'remove an account',
                run: async (s) => {
                  const exchange: Exchange = await s(probe('AUTH-401', 'listAdditionalSftpAccounts', 'bad inside scenario'));
                  return { verdict: { title: 'still listed', message: 'the account is still there' }, exchange };
                },
              },
            ],
            skipped: [],
          }),
        ],
      }),
      undefined,
      send,
    );
    expect(order).toEqual(['no key', 'bad inside scenario']);
    expect(report.failures.map((f) => `${f.rule} ${f.title}`)).toEqual(['AUTH-401 bad bad inside scenario', 'STATE-SFTP-REMOVE still listed', 'STATE-SFTP-REMOVE still listed']);
    const rows = report.checks.filter((c) => c.rule === 'STATE-SFTP-REMOVE');
    const action = 'DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}';
    const readOp = 'GET /sites/environments/{env_id}/additional-sftp-accounts';
    for (const op of [action, readOp]) expect(rows.find((r) => r.operation === op)).toMatchObject({ outcome: 'failed', failures: 1, occurrences: 1 });
    expect(report.failures.filter((f) => f.rule === 'STATE-SFTP-REMOVE').map((f) => f.operation)).toEqual([action, readOp]);
    // Every distinct failure counts once per rule it broke, on its own operation's row.
    expect(report.checks.reduce((n, c) => n + (c.failures ?? 0), 0)).toBe(report.summary.ruleViolations);
  });

  it('one exchange that breaks several rules is one failure listing them in rule order; each rule\'s row fails', async () => {
    // Registered before AUTH-401, which the model lists first.
    const statusSet: Check = { rule: 'STATUS-SET', applies: (e) => e.response !== undefined, check: (_, e) => (e.probe.title.includes('bad') ? { title: 'odd status', message: 'not in the set.' } : undefined) };
    const probes = [probe('AUTH-401', 'getSite', 'bad one'), probe('AUTH-401', 'getSite', 'bad two'), probe('INPUT-ACCEPT', 'listEnvironments', 'bad read'), probe('AUTH-401', 'getSite', 'fine')];
    const report = await run(suite(probes, { checks: [statusSet, auth401, errBody] }));
    expect(report.failures.map((f) => [f.probe, f.rule, f.rules, f.occurrences])).toEqual([
      ['bad one', 'AUTH-401', ['AUTH-401', 'STATUS-SET'], 2],
      ['bad read', 'STATUS-SET', ['STATUS-SET'], 1],
    ]);
    expect(report.failures[0]!.message).toBe('AUTH-401: bad bad one. wanted 401\nSTATUS-SET: odd status. not in the set.');
    expect(report.summary).toMatchObject({ distinctFailures: 2, ruleViolations: 3, failingExchanges: 3 });
    const row = (rule: string, op: string) => report.checks.find((c) => c.rule === rule && c.operation === op)?.outcome;
    expect([row('AUTH-401', 'GET /sites/{site_id}'), row('STATUS-SET', 'GET /sites/{site_id}'), row('STATUS-SET', 'GET /sites/{site_id}/environments')]).toEqual(['failed', 'failed', 'failed']);
    // Warnings stay apart: one per rule and exchange, none merged into a failure.
    expect(report.warnings.every((w) => w.rules.length === 1 && w.rule === 'ERR-BODY')).toBe(true);
    expect(report.failures.some((f) => f.rules.includes('ERR-BODY'))).toBe(false);
  });

  it(`lists at most ${MAX_FAILURES_PER_PAIR} distinct failures per (rule, operation), counts every one, and lists each rule that failed`, async () => {
    const statusSet: Check = { rule: 'STATUS-SET', applies: (e) => e.response !== undefined, check: (_, e) => (e.probe.title.includes('odd') ? { title: 'odd status', message: 'not in the set.' } : undefined) };
    // Many symptoms of AUTH-401 alone first (one status each, twice), then one that also breaks STATUS-SET, three times.
    const symptoms = 3 * MAX_FAILURES_PER_PAIR;
    const probes = [
      ...Array.from({ length: 2 * symptoms }, (_, i) => probe('AUTH-401', 'getSite', `bad ${String(i).padStart(3, '0')} status ${402 + (i % symptoms)}`)),
      ...Array.from({ length: 3 }, (_, i) => probe('AUTH-401', 'getSite', `odd bad ${i}`)),
    ];
    const report = await run(suite(probes, { checks: [auth401, statusSet] }));
    expect(report.summary).toMatchObject({ distinctFailures: symptoms + 1, ruleViolations: symptoms + 2, failingExchanges: probes.length });
    expect(report.failures.filter((f) => f.rules.length === 1)).toHaveLength(MAX_FAILURES_PER_PAIR);
    expect(report.failures.filter((f) => f.rules.includes('STATUS-SET')).map((f) => [f.probe, f.occurrences])).toEqual([['odd bad 0', 3]]);
    const unlisted = symptoms - MAX_FAILURES_PER_PAIR;
    expect(report.notes).toContainEqual(`AUTH-401 on GET /sites/{site_id}: ${unlisted} more distinct failures not listed, from ${2 * unlisted} failing exchanges (at most ${MAX_FAILURES_PER_PAIR} listed per rule and operation)`);
    // The row counts every distinct failure, listed or not.
    expect(report.checks.find((c) => c.rule === 'AUTH-401' && c.operation === 'GET /sites/{site_id}')).toMatchObject({ failures: symptoms + 1, occurrences: probes.length });
  });

  it('reports coverage per rule from its rows, and keeps summary.skipped', async () => {
    const report = await run(suite([probe('AUTH-401', 'getSite', 'no key')]));
    expect(report.coverage.total).toBe(report.checks.length);
    expect(report.coverage.checked).toBe(report.summary.passed + report.summary.failed);
    expect(report.coverage.skipped.reduce((n, g) => n + g.count, 0)).toBe(report.summary.skipped);
    for (const rule of new Set(report.checks.map((c) => c.rule))) {
      const rows = report.checks.filter((c) => c.rule === rule);
      expect(report.coverage.rules[rule]).toMatchObject({
        inScope: rows.length,
        checked: rows.filter((c) => c.outcome !== 'skipped').length,
        skipped: rows.filter((c) => c.outcome === 'skipped').map((c) => ({ operation: c.operation, reason: c.reason })),
      });
    }
    expect(report.coverage.rules['INPUT-ACCEPT']!.skipped).toContainEqual({ operation: 'POST /sites/{site_id}/reset-site', reason: 'needs --allow-destructive' });
  });

  it('--fail-on-skip: a skipped row fails the run, and the options say why', async () => {
    const probes = [probe('AUTH-401', 'getSite', 'no key')];
    expect((await run(suite(probes))).ok).toBe(true);
    const gated = await runConformance({ target: stubTarget, seed: 7, runs: 1, options: { strict: false }, send: fakeSend, suite: suite(probes), failOnSkip: true });
    expect(gated).toMatchObject({ ok: false, failures: [], options: { failOnSkip: true } });
    expect(gated.summary.skipped).toBeGreaterThan(0);
    // Nothing skipped (BASE-PATH alone is judged from the base URL): the gate passes.
    const covered = await runConformance({ target: stubTarget, seed: 7, runs: 1, options: { strict: false }, send: fakeSend, suite: suite(probes), failOnSkip: true, only: ['BASE-PATH'] });
    expect(covered).toMatchObject({ ok: true, summary: { passed: 1, skipped: 0 } });
  });

  it('says what accepted mutating and destructive requests changed, by operation and the ids named in path and body, from the model\'s effect', async () => {
    const remove = (id: string, title: string): Probe => ({ ...probe('INPUT-ACCEPT', 'removeAdditionalSftpAccount', title), request: { method: 'DELETE', url: `${stubTarget.baseUrl}/sites/environments/additional-sftp-accounts/${id}`, headers: {} } });
    const clear: Probe = { ...probe('INPUT-ACCEPT', 'clearCdnCache', 'mutating'), request: { method: 'POST', url: `${stubTarget.baseUrl}/sites/cdn/clear-cache`, headers: {}, body: '{"environment_id":"env-1","cdn_cache_id":"cache-1"}' } };
    const send: Send = async (p) => ({ probe: p, response: p.title === 'refused' ? json(400, { message: 'Bad request format', status: 400 }) : json(202, { operation_id: 'x', message: 'ok', status: 202 }), throttled: 0 });
    const report = await run(suite([remove('acc-1', 'removed'), remove('acc-2', 'refused'), clear, probe('INPUT-ACCEPT', 'getSite', 'a read')]), undefined, send);
    expect(report.consumed).toEqual([
      { operation: 'POST /sites/cdn/clear-cache', effect: 'mutating', ids: { environment_id: 'env-1', cdn_cache_id: 'cache-1' }, requests: 1 },
      { operation: 'DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}', effect: 'destructive', ids: { sftp_account_id: 'acc-1' }, requests: 1 },
    ]);
    expect(report.notes.find((n) => n.startsWith('consumed:'))).toMatch(
      /1 × POST \/sites\/cdn\/clear-cache \(mutating\), 1 × DELETE \/sites\/environments\/additional-sftp-accounts\/\{sftp_account_id\} \(destructive\);.*\(a later run against this target may find less to check\)$/,
    );
  });

  it('names the conflicts it met and how they were resolved', async () => {
    const loose = await run(suite([probe('INPUT-ACCEPT', 'listDnsRecords', 'read')]));
    expect(loose.notes.some((n) => n.startsWith('CONFLICT-DNS-READ-404: either side accepted'))).toBe(true);
    const strict = await runConformance({ target: stubTarget, seed: 7, runs: 1, options: { strict: true }, send: fakeSend, suite: suite([probe('INPUT-ACCEPT', 'listDnsRecords', 'read')]) });
    expect(strict.notes.some((n) => n.startsWith('CONFLICT-DNS-READ-404: resolved by the letter (--strict)'))).toBe(true);
    expect(loose.notes.some((n) => n.startsWith('ASM-THROTTLE-429'))).toBe(true);
  });
});

describe('only an answer can fail a rule', () => {
  const gaveUp = (kind: 'throttled' | 'budget'): Send => async (p) =>
    p.title.includes('unlucky')
      ? { probe: p, throttled: kind === 'throttled' ? 5 : 0, failure: kind === 'throttled' ? { kind, message: 'throttled: HTTP 429 still, after 5 retries of this request (Retry-After: 1 honoured)', ms: 1 } : { kind, message: 'not sent: --max-duration 3m reached', ms: 0 } }
      : fakeSend(p);
  const probes = [probe('AUTH-401', 'getSite', 'no key'), probe('AUTH-401', 'listEnvironments', 'unlucky bad key'), probe('AUTH-401', 'getSite', 'unlucky bad again')];
  // A check that fails any transport failure it is given: the runner must not give it these.
  const anyAnswer: Check = { rule: 'NO-SERVER-ERROR', applies: (e) => e.failure !== undefined || e.response !== undefined, check: (_, e) => (e.failure ? { title: 'no answer', message: e.failure.message } : undefined) };

  it.each([
    ['throttled past its retries', 'throttled', 'not judged: throttled (the target kept answering Too Many Requests)'],
    ["not sent: the run's budget was spent", 'budget', 'not judged: --max-duration 3m reached'],
  ] as const)('%s: its rows are "not judged", none failed, and --fail-on-skip makes that red', async (_, kind, reason) => {
    const s = suite(probes, { checks: [auth401, errBody, anyAnswer] });
    const report = await run(s, undefined, gaveUp(kind));
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    const row = (op: string) => report.checks.find((c) => c.rule === 'AUTH-401' && c.operation === op);
    // Its only probe given up on: skipped with the reason. Judged by another, and given up on once: judged in part.
    expect(row('GET /sites/{site_id}/environments')).toMatchObject({ outcome: 'skipped', reason });
    expect(row('GET /sites/{site_id}')).toMatchObject({ outcome: 'passed', reason: `partly skipped: ${reason}` });
    expect(report.coverage.skipped).toContainEqual({ reason, count: expect.any(Number) });
    expect(report.schedule?.notJudged[kind]).toBe(2);
    const gate = await runConformance({ target: stubTarget, seed: 7, runs: 1, options: { strict: false }, send: gaveUp(kind), suite: s, failOnSkip: true });
    expect(gate.ok).toBe(false);
    expect(gate.failures).toEqual([]);
  });

  it('a transport failure that is an answer of sorts (a timeout) still fails: throttling and the budget alone judge nothing', async () => {
    const report = await run(suite([probe('AUTH-401', 'getSite', 'timeout')]));
    expect(report.failures.map((f) => f.title)).toEqual(['no answer: timeout']);
  });
});
