/**
 * The validating proxy over real sockets, in front of the mock: a client that errs in each way
 * the client-side judgement knows, the generated client on every endpoint (no problem on either
 * side), every fault of the catalogue whose rule the proxy claims to judge (each caught on its
 * rule and operation) and every conformant variant (no false alarm), hostile servers (bounded,
 * named, nothing leaked), and the traffic left as it was (bytes and status alike).
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostedSiteClient } from '../generated/client.ts';
import { startHostile, type Behaviour, type Scope } from '../conformance/hostile/servers.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { callClient, rows, send, tenantOf, validRequest, type ApiRequest } from '../mock/test-kit.ts';
import { discover } from '../conformance/discovery.ts';
import { createTransport } from '../conformance/http.ts';
import { validRequests } from '../conformance/probes/inputs.ts';
import { authProbes } from '../conformance/probes/auth.ts';
import { contextOf, mockTarget } from '../conformance/probes/test-target.ts';
import type { Target } from '../conformance/types.ts';
import { catalogue } from '../mock/variants/index.ts';
import type { Variant } from '../mock/variant.ts';
import { api } from '../spec/api.ts';
import type { Endpoint, RuleId } from '../spec/model.ts';
import { endpoint as endpointNamed, operation } from '../spec/queries.ts';
import type { ProxyReport } from './report.ts';
import { PROBLEM_HEADER } from './server.ts';
import { throughProxy, type ProxyRun } from './test-kit.ts';

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

/**
 * Traffic a client might send: every endpoint with valid inputs on the ids discovery finds (an
 * action sent twice, as a retry does; again with an apostrophe and non-ASCII in free text, with
 * each boolean the other way, and a GET that takes a body sent without one, as fetch sends it),
 * with ids no one has, without a key or with it carried as the suite's own AUTH probes carry it,
 * and with a body that breaks its schema. Where the layout
 * holds no data to name, ids no one has stand in. `only`: that endpoint's requests alone.
 */
async function everyKindOfRequest(url: string, mock: RunningMock, only?: Endpoint): Promise<void> {
  const transport = createTransport({ timeoutMs: 10_000 });
  const { ids } = await discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.siteId, send: transport, allowLive: true }).finally(() => transport.close());
  const options = { apiKey: mock.fixtures.apiKey };
  const target: Target = { ...mockTarget({ baseUrl: mock.url }), main: { apiKey: mock.fixtures.apiKey, ids }, keyInUrl: true };
  // Those a proxy can tell from a client's request: a key of the right form is a key to it, right or not.
  const keyCarriers = authProbes(contextOf(target, 1106, 1)).probes.filter((p) => (p.rule === 'AUTH-BEARER' || p.expect === 'unauthorized') && !/^Bearer \S+$/.test(p.request.headers.authorization ?? ''));
  const unknownIds = (endpoint: Endpoint) => Object.fromEntries(endpoint.pathParams.map((p) => [p.name, randomUUID()]));
  // Reads first: the actions after them change the data they read.
  const ordered = only ? [only] : [...api.endpoints].sort((a, b) => Number(a.effect !== 'read') - Number(b.effect !== 'read'));
  for (const endpoint of ordered) {
    const built = validRequests(endpoint, { ids }, 0, 1, { allowLive: true });
    const parts = built.ok ? built.value[0]! : undefined;
    const body = parts?.body && 'json' in parts.body ? (parts.body.json as Record<string, unknown>) : undefined;
    const valid: ApiRequest = { endpoint, params: parts?.path ?? unknownIds(endpoint), query: parts?.query ?? {}, ...(body ? { body } : {}) };
    await send(url, valid, options);
    // An action a client retries at once.
    if (endpoint.effect !== 'read') await send(url, valid, options);
    const text = (endpoint.body ?? []).filter((f) => f.freeText && typeof body?.[f.name] === 'string');
    if (text.length) await send(url, { ...valid, body: { ...body, ...Object.fromEntries(text.map((f) => [f.name, `${String(body![f.name])} O'Brien-ü漢`])) } }, options);
    const flags = (endpoint.body ?? []).filter((f) => typeof body?.[f.name] === 'boolean');
    if (flags.length) await send(url, { ...valid, body: { ...body, ...Object.fromEntries(flags.map((f) => [f.name, !body![f.name]])) } }, options);
    if (endpoint.method === 'GET' && body) await send(url, { endpoint, params: valid.params, query: valid.query }, options);
    if (endpoint.pathParams.length) await send(url, { ...valid, params: unknownIds(endpoint) }, options);
    await send(url, valid, { authorization: null });
    // The suite's own requests with the key missing or carried wrongly: what a client gets wrong.
    for (const probe of keyCarriers.filter((p) => p.endpoint === endpoint)) {
      const res = await request(probe.request.url.replace(mock.url, url), { method: probe.request.method, headers: probe.request.headers, ...(probe.request.body === undefined ? {} : { body: probe.request.body }) });
      await res.body.dump();
    }
    if (endpoint.body?.length) await send(url, valid, { ...options, rawBody: JSON.stringify(Object.fromEntries(endpoint.body.map((f) => [f.name, { not: 'this type' }]))) });
  }
}

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

describe('in front of hostile servers: bounded, the failure named, nothing leaked', () => {
  const cases: readonly { behaviour: Behaviour; scope: Scope; want: (run: ProxyRun, status: number | undefined) => void }[] = [
    { behaviour: 'never-answers', scope: 'all', want: (run, status) => (expect(status).toBe(504), expect(run.report.unanswered).toBe(1)) },
    { behaviour: 'reset', scope: 'all', want: (run, status) => (expect(status).toBe(502), expect(run.report.unanswered).toBe(1)) },
    { behaviour: 'garbage-http', scope: 'all', want: (run, status) => (expect(status).toBe(502), expect(run.report.unanswered).toBe(1)) },
    { behaviour: 'huge-body', scope: 'all', want: (run) => expect(run.report.notJudged['too-large']).toBe(1) },
    { behaviour: 'html-200', scope: 'all', want: (run) => expect(serverProblems(run.report).map((p) => p.rule)).toContain('CONTENT-TYPE') },
    { behaviour: 'echo-in-errors', scope: 'all', want: (run) => expect(serverProblems(run.report).length).toBeGreaterThan(0) },
    { behaviour: 'served-html-escaped', scope: 'all', want: () => undefined },
  ];
  it.each(cases.map((c) => [`${c.behaviour} (${c.scope})`, c] as const))('%s', { timeout: 30_000 }, async (_, c) => {
    const server = await startHostile(c.behaviour, c.scope);
    try {
      let status: number | undefined;
      const started = performance.now();
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
      expect(performance.now() - started).toBeLessThan(20_000);
      c.want(run, status);
      for (const secret of server.secrets) for (const text of [run.stdout, run.stderr]) expect(text.includes(secret), 'a secret in the output').toBe(false);
    } finally {
      await server.close();
    }
  });
});
