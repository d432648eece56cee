/**
 * The validating proxy over real sockets, in front of the mock: a client that errs in each way
 * the client-side judgement knows, the generated client on every endpoint (no problem on either
 * side), every fault of the catalogue whose rule the proxy claims to judge (each caught on its
 * rule and operation) and every conformant variant (no false alarm), hostile servers (bounded,
 * named, nothing leaked), and the traffic left as it was (bytes and status alike).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostedSiteClient } from '../generated/client.ts';
import { startHostile, type Behaviour, type Scope } from '../conformance/hostile/servers.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { callClient, rows, tenantOf, validRequest } from '../mock/test-kit.ts';
import { catalogue } from '../mock/variants/index.ts';
import type { Variant } from '../mock/variant.ts';
import { api } from '../spec/api.ts';
import type { RuleId } from '../spec/model.ts';
import { endpoint as endpointNamed, operation } from '../spec/queries.ts';
import type { ProxyReport } from './report.ts';
import { PROBLEM_HEADER } from './server.ts';
import { throughProxy, type ProxyRun } from './test-kit.ts';
import { everyKindOfRequest } from './traffic.test-kit.ts';

const serverProblems = (report: ProxyReport) => report.problems.filter((p) => p.side === 'server');
const clientProblems = (report: ProxyReport) => report.problems.filter((p) => p.side === 'client');

describe('a client that errs: each problem named on its side, its rule and where, and the answers of the mock pass', () => {
  let mock: RunningMock;
  let run: ProxyRun;
  const site = () => mock.fixtures.siteId;
  const env = () => tenantOf(mock.store, mock.fixtures.companyId).env.id;

  /** Each mistake: how it is sent (path below the proxy's URL), and the problem it must come out as. */
  const mistakes: readonly { name: string; method: string; path: () => string; headers?: Record<string, string>; body?: string; rule: string; at?: string; reason: RegExp; severity?: 'warning' }[] = [
    { name: 'a path the document does not list', method: 'GET', path: () => `/environments/${env()}/sftp-password`, rule: 'ENDPOINT', reason: /not an endpoint of the document: (?!this path takes).*did you mean/ },
    { name: 'a method the path does not take', method: 'DELETE', path: () => `/sites/${site()}`, rule: 'ENDPOINT', reason: /this path takes GET, not DELETE/ },
    { name: 'a path outside the base path', method: 'GET', path: () => `/../sites/${site()}`, rule: 'BASE-PATH', reason: /paths begin with \/v2/ },
    { name: 'no Authorization header', method: 'GET', path: () => `/sites/${site()}`, headers: { authorization: '' }, rule: 'AUTH-BEARER', at: 'Authorization', reason: /missing: every endpoint requires `Authorization: Bearer <API_KEY>`/ },
    { name: 'the key under the Basic scheme', method: 'GET', path: () => `/sites/${site()}`, headers: { authorization: 'Basic KEY' }, rule: 'AUTH-BEARER', at: 'Authorization', reason: /uses the scheme Basic, not Bearer/ },
    { name: 'the key with no scheme', method: 'GET', path: () => `/sites/${site()}`, headers: { authorization: 'KEY' }, rule: 'AUTH-BEARER', at: 'Authorization', reason: /is not `Bearer <API_KEY>`/ },
    { name: 'the key with a second token after it', method: 'GET', path: () => `/sites/${site()}`, headers: { authorization: 'Bearer KEY extra' }, rule: 'AUTH-BEARER', at: 'Authorization', reason: /one key after the scheme, nothing else/ },
    { name: 'the key in a cookie, no Authorization header', method: 'GET', path: () => `/sites/${site()}`, headers: { authorization: '', cookie: 'theme=dark; accessToken=KEY' }, rule: 'AUTH-BEARER', at: 'cookie accessToken', reason: /sent in a cookie, not as a bearer token/ },
    { name: 'the bearer value in a forwarding header, no Authorization header', method: 'GET', path: () => `/sites/${site()}`, headers: { authorization: '', 'x-forwarded-authorization': 'Bearer KEY' }, rule: 'AUTH-BEARER', at: 'x-forwarded-authorization', reason: /sent in the x-forwarded-authorization header/ },
    { name: 'the key in a query parameter', method: 'GET', path: () => `/sites/${site()}?api_key=KEY`, headers: { authorization: '' }, rule: 'AUTH-BEARER', at: '?api_key', reason: /sent in the query/ },
    { name: 'a path id that is no UUID', method: 'GET', path: () => '/sites/site-1', rule: 'READ-404', at: '{site_id}', reason: /is not a UUID/ },
    { name: 'a body field the document marks required, missing', method: 'POST', path: () => `/sites/environments/${env()}/ssh/change-expiration-interval`, body: '{}', rule: 'LIMIT-EXP-INTERVAL', at: '/exp_interval', reason: /is required \(the document marks it so\)/ },
    { name: 'a body field the document does not mark, omitted', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, body: '{}', rule: 'INPUT-400', reason: /omitted body field wp_command: .*a server may require it.*UNK-BODY-MARKING/, severity: 'warning' },
    { name: 'a body field of the wrong type', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, body: '{"wp_command":5}', rule: 'LIMIT-WP-COMMAND', at: '/wp_command', reason: /must be string/ },
    { name: 'a value past its pattern', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, body: '{"wp_command":"wp "}', rule: 'LIMIT-WP-COMMAND', at: '/wp_command', reason: /must match pattern/ },
    { name: 'a value past its length', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, body: JSON.stringify({ wp_command: `wp ${'a'.repeat(5000)}` }), rule: 'LIMIT-WP-COMMAND', at: '/wp_command', reason: /must NOT have more than 5000 characters/ },
    { name: 'a body that is not JSON', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, body: '{"wp_command":', rule: 'INPUT-400', reason: /not valid UTF-8 JSON/ },
    { name: 'a body sent as text/plain', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, headers: { 'content-type': 'text/plain' }, body: '{"wp_command":"wp plugin list"}', rule: 'CONTENT-TYPE', at: 'content-type', reason: /must be application\/json/ },
    { name: 'a misspelt body field', method: 'POST', path: () => `/sites/environments/${env()}/run-wp-cli-command`, body: '{"wp_command":"wp plugin list","wpCommand":"x"}', rule: 'INPUT-400', reason: /unknown body field "wpCommand" \(did you mean wp_command\?\)/, severity: 'warning' },
  ];

  beforeAll(async () => {
    mock = await startMock({ port: 0 });
    run = await throughProxy(mock.url, [], async (url) => {
      for (const m of mistakes) {
        const headers: Record<string, string> = { authorization: `Bearer ${mock.fixtures.apiKey}`, ...(m.body !== undefined ? { 'content-type': 'application/json' } : {}), ...m.headers };
        for (const [name, value] of Object.entries(headers)) headers[name] = value.replace(/\bKEY\b/, mock.fixtures.apiKey);
        if (headers.authorization === '') delete headers.authorization;
        const res = await request(`${url}${m.path().replace(/\bKEY$/, mock.fixtures.apiKey)}`, { method: m.method as 'GET', headers, ...(m.body !== undefined ? { body: m.body } : {}) });
        await res.body.text();
      }
    });
  });
  afterAll(() => mock.close());

  it.each(mistakes.map((m) => [m.name, m] as const))('%s', (_, m) => {
    const found = clientProblems(run.report).filter((p) => p.rule === m.rule && (m.at === undefined || p.at === m.at) && m.reason.test(p.reason));
    expect(found, JSON.stringify(clientProblems(run.report), null, 1)).toHaveLength(1);
    expect(found[0]!.severity).toBe(m.severity ?? 'error');
  });

  it('every exchange counted; no problem on the server side (the mock answers each mistake as the document says)', () => {
    expect(run.report.exchanges).toBe(mistakes.length);
    expect(serverProblems(run.report)).toEqual([]);
    expect(run.code).toBe(1); // --fail-on any: the client's problems
  });

  it('one line on stderr per exchange with a problem, and the key in none of what it wrote', () => {
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(mistakes.length);
    expect(run.stderr).toMatch(/^✗ POST \/v2\/sites\/environments\/[0-9a-f-]+\/run-wp-cli-command → 400 \(\d+ ms\): client LIMIT-WP-COMMAND: at \/wp_command: /m);
    for (const text of [run.stdout, run.stderr]) expect(text).not.toContain(mock.fixtures.apiKey);
  });

  it('--fail-on server: the same traffic exits 0; --fail-on none too', async () => {
    for (const failOn of ['server', 'none']) {
      const again = await throughProxy(mock.url, ['--fail-on', failOn], async (url) => {
        await (await request(`${url}/sites/site-1`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } })).body.text();
      });
      expect(clientProblems(again.report)).toHaveLength(1);
      expect(again.code, failOn).toBe(0);
    }
  });
});

describe('the generated client on every endpoint, through the proxy: no problem on either side', () => {
  it.each(rows(api.endpoints))('%s', async (_, endpoint) => {
    const mock = await startMock({ port: 0 });
    try {
      const req = validRequest(endpoint, tenantOf(mock.store, mock.fixtures.companyId));
      const run = await throughProxy(mock.url, [], async (url) => {
        await callClient(new HostedSiteClient({ baseUrl: url, apiKey: mock.fixtures.apiKey, validateResponses: true }), req);
      });
      expect(run.report.problems).toEqual([]);
      expect(run.report.exchanges).toBe(1);
      expect(run.code).toBe(0);
    } finally {
      await mock.close();
    }
  });
});

describe('the traffic, unchanged', () => {
  it('status, headers the server chose and body bytes arrive as the server sent them; --annotate adds only its header', async () => {
    const mock = await startMock({ port: 0 });
    try {
      const direct = await request(`${mock.url}/sites/site-1`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } });
      const directBody = await direct.body.text();
      for (const annotate of [false, true]) {
        await throughProxy(mock.url, annotate ? ['--annotate'] : [], async (url) => {
          const res = await request(`${url}/sites/site-1`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } });
          expect(await res.body.text()).toBe(directBody);
          expect(res.statusCode).toBe(direct.statusCode);
          expect(res.headers['content-type']).toBe(direct.headers['content-type']);
          if (annotate) expect(res.headers[PROBLEM_HEADER]).toMatch(/^client READ-404: at \{site_id\}: is not a UUID/);
          else expect(res.headers[PROBLEM_HEADER]).toBeUndefined();
        });
      }
    } finally {
      await mock.close();
    }
  });

  it('a body past --max-body-kb is forwarded whole and judged as too large, not as a problem', async () => {
    const mock = await startMock({ port: 0 });
    try {
      const env = tenantOf(mock.store, mock.fixtures.companyId).env.id;
      const big = JSON.stringify({ wp_command: 'wp plugin list', pad: 'x'.repeat(4096) });
      const run = await throughProxy(mock.url, ['--max-body-kb', '1'], async (url) => {
        const res = await request(`${url}/sites/environments/${env}/run-wp-cli-command`, { method: 'POST', headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' }, body: big });
        expect(res.statusCode).toBe(202); // the mock read all of it: nothing was cut on the way
        await res.body.text();
      });
      expect(run.report.notJudged['too-large']).toBe(1);
      expect(clientProblems(run.report)).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

/**
 * The rules the proxy judges on the server's side: the checks that need no request of their own,
 * the 401 wording, and 401 to a request without a bearer key.
 */
const CLAIMED: ReadonlySet<RuleId> = new Set(['ERR-BODY', 'STATUS-SET', 'CONTENT-TYPE', 'ACK-202', 'OPID-SHAPE', 'OPID-KIND', 'RESPONSE-SCHEMA', 'NO-SERVER-ERROR', 'AUTH-401', 'AUTH-BEARER']);
/**
 * Keys almost right or unknown, or a scheme's spelling: only a request the suite makes itself can
 * tell, as the proxy cannot know a key is wrong.
 */
const WRONG_KEYS = /^auth-key-|^real-auth-compares-shorter-length$|^blind-auth-invalid-key-/;

const faults = catalogue.filter((v) => v.kind === 'fault' && v.rule !== undefined && CLAIMED.has(v.rule) && !WRONG_KEYS.test(v.name));

describe('in front of each fault it claims to judge: the fault named on its rule and operation, on the server side', () => {
  it.each(faults.map((v) => [v.name, v] as const))('%s', async (_, variant: Variant) => {
    const mock = await startMock({ port: 0, variant });
    try {
      // A fault the suite catches only under --strict, the proxy too.
      // The traffic of the endpoint the fault is on, where it has one: what a client of that endpoint sends.
      const faulty = variant.endpoint ? endpointNamed(variant.endpoint) : undefined;
      const run = await throughProxy(mock.url, variant.flags?.includes('--strict') ? ['--strict'] : [], (url) => everyKindOfRequest(url, mock, faulty));
      const wanted = faulty ? operation(faulty) : undefined;
      const caught = serverProblems(run.report).filter((p) => p.rule === variant.rule && (wanted === undefined || p.operation === wanted));
      expect(caught.length, `${variant.description}; server problems: ${JSON.stringify(serverProblems(run.report).map((p) => `${p.rule} ${p.operation}: ${p.reason}`))}`).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});

describe('in front of each conformant variant and the reference mock: no problem on the server side', () => {
  const conformant = [undefined, ...catalogue.filter((v) => v.kind === 'conformant')];
  it.each(conformant.map((v) => [v?.name ?? 'the reference mock', v] as const))('%s', async (_, variant) => {
    const mock = await startMock({ port: 0, ...(variant ? { variant } : {}) });
    try {
      const run = await throughProxy(mock.url, [], (url) => everyKindOfRequest(url, mock));
      expect(serverProblems(run.report).filter((p) => p.severity === 'error'), variant?.description).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});

// Each row its own server and proxy, nothing shared: run side by side (one row mostly waits out the proxy's 500 ms).
describe.concurrent('in front of hostile servers: bounded, the failure named, nothing leaked', () => {
  const cases: readonly { behaviour: Behaviour; scope: Scope; want: (run: ProxyRun, status: number | undefined) => void }[] = [
    // Ended by the proxy's own --timeout-ms (its 504, its words), not by the client's 5 s.
    { behaviour: 'never-answers', scope: 'all', want: (run, status) => (expect(status).toBe(504), expect(run.report.unanswered).toBe(1), expect(run.report.failures).toEqual({ 'no complete answer within 500 ms': 1 })) },
    { behaviour: 'reset', scope: 'all', want: (run, status) => (expect(status).toBe(502), expect(run.report.unanswered).toBe(1)) },
    { behaviour: 'garbage-http', scope: 'all', want: (run, status) => (expect(status).toBe(502), expect(run.report.unanswered).toBe(1)) },
    { behaviour: 'huge-body', scope: 'all', want: (run) => expect(run.report.notJudged['too-large']).toBe(1) },
    { behaviour: 'html-200', scope: 'all', want: (run) => expect(serverProblems(run.report).map((p) => p.rule)).toContain('CONTENT-TYPE') },
    { behaviour: 'echo-in-errors', scope: 'all', want: (run) => expect(serverProblems(run.report).length).toBeGreaterThan(0) },
    { behaviour: 'served-html-escaped', scope: 'all', want: () => undefined },
  ];
  // Bounded: the one exchange ends and is counted (answered, or named as unanswered), within the
  // client's own 5 s limits. The test's timeout is only a guard against a hang, many times the
  // 0.1-2 s a row takes: how long the row took is not what it tests.
  it.each(cases.map((c) => [`${c.behaviour} (${c.scope})`, c] as const))('%s', { timeout: 30_000 }, async (_, c) => {
    const server = await startHostile(c.behaviour, c.scope);
    try {
      let status: number | undefined;
      const run = await throughProxy(server.url, ['--timeout-ms', '500'], async (url) => {
        const path = c.behaviour === 'served-html-escaped' ? `/sites/environments/${server.envIds[0]}/sftp-password` : `/sites/${server.siteId}`;
        try {
          const res = await request(`${url}${path}`, { headers: { authorization: `Bearer ${server.apiKey}` }, headersTimeout: 5_000, bodyTimeout: 5_000 });
          status = res.statusCode;
          await res.body.dump({ limit: Number.MAX_SAFE_INTEGER }).catch(() => undefined);
        } catch {
          status = undefined;
        }
      });
      expect(run.report.exchanges).toBe(1);
      c.want(run, status);
      for (const secret of server.secrets) for (const text of [run.stdout, run.stderr]) expect(text.includes(secret), 'a secret in the output').toBe(false);
    } finally {
      await server.close();
    }
  });
});
