/**
 * The proxy before targets and clients laid out unlike the mock, as a new user met them: answers
 * compressed because the client asked, conditional GETs answered 304, HEAD, uploads that wait
 * for `100 Continue`, a target that answers before it reads the body, keys sent in every wrong
 * place, a target that never answers, and a report file whose directory goes away. Each is
 * judged as the document allows (no false verdict), named where it was not judged, and no key
 * shows in anything written.
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../mock/listen.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { tenantOf } from '../mock/test-kit.ts';
import { throughProxy } from './test-kit.ts';

let mock: RunningMock;
let site: string;
let key: string;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  site = `/sites/${mock.fixtures.siteId}`;
  key = mock.fixtures.apiKey;
});
afterAll(() => mock.close());

/** A target in front of the mock that answers as another server might: compressed when asked, 304 to a matching ETag, bodies read or not. */
async function otherServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').replace(/^\/v2/, '');
      if (req.method === 'POST' && path.endsWith('/run-wp-cli-command') && req.headers['x-answer-first']) {
        // Answers before it reads the body (a gateway refusing early), then drops the connection.
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'No or invalid API key provided', status: 401 }), () => req.destroy());
        return;
      }
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' });
        res.end();
        return;
      }
      const answer = await request(`${mock.url}${path}`, { method: req.method as 'GET', headers: { authorization: String(req.headers.authorization ?? '') } });
      const body = Buffer.from(await answer.body.arrayBuffer());
      const gzip = /gzip/.test(String(req.headers['accept-encoding'] ?? ''));
      res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type']), etag: '"v1"', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(gzip ? gzipSync(body) : body);
    })();
  });
  return { url: await listen(server), server };
}

describe('targets unlike the mock', () => {
  let other: { url: string; server: Server };
  beforeAll(async () => {
    other = await otherServer();
  });
  afterAll(() => new Promise<void>((resolve) => other.server.close(() => resolve())));

  it('an answer in gzip the client asked for is decoded and judged: a sound one has no problem', async () => {
    const run = await throughProxy(other.url, [], async (url) => {
      const res = await request(`${url}${site}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBe('gzip'); // forwarded as it came
      await res.body.arrayBuffer();
    });
    expect(run.report.problems).toEqual([]);
    expect(run.report.notJudged).toEqual({});
    expect(run.code).toBe(0);
  });

  it('a 304 to a conditional GET, and a HEAD: not judged, and counted so', async () => {
    const run = await throughProxy(other.url, [], async (url) => {
      const conditional = await request(`${url}${site}`, { headers: { authorization: `Bearer ${key}`, 'if-none-match': '"v1"' } });
      expect(conditional.statusCode).toBe(304);
      await conditional.body.dump();
      await (await request(`${url}${site}`, { method: 'HEAD', headers: { authorization: `Bearer ${key}` } })).body.dump();
    });
    expect(run.report.problems).toEqual([]);
    expect(run.report.notJudged).toEqual({ 'not-modified': 1, method: 1 });
  });

  it('a target that answers before it reads the body: the body is not judged, the answer is', async () => {
    const env = tenantOf(mock.store, mock.fixtures.companyId).env.id;
    // Valid JSON, all of it; cut anywhere, it is not: the old bug blamed the client for the cut.
    const body = `{"wp_command":"wp plugin list"${' '.repeat(4_000_000)}}`;
    const run = await throughProxy(other.url, ['--max-body-kb', '8192'], async (url) => {
      try {
        const res = await request(`${url}/sites/environments/${env}/run-wp-cli-command`, { method: 'POST', headers: { authorization: 'Bearer wrong-key-0123456789', 'content-type': 'application/json', 'x-answer-first': '1' }, body });
        await res.body.dump();
      } catch {
        // The target dropped the connection mid-upload: the client may see that instead of the 401.
      }
    });
    expect(run.report.problems.filter((p) => p.side === 'client')).toEqual([]);
    expect(run.report.exchanges).toBe(1);
  });
});

describe('clients unlike the generated one', () => {
  it('an upload that waits for 100 Continue goes through, and is judged as sent', async () => {
    const env = tenantOf(mock.store, mock.fixtures.companyId).env.id;
    const run = await throughProxy(mock.url, [], async (url) => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${url}/sites/environments/${env}/run-wp-cli-command`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', expect: '100-continue' } });
        req.on('continue', () => req.end(JSON.stringify({ wp_command: 'wp plugin list' })));
        req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        req.on('error', reject);
      });
      expect(status).toBe(202);
    });
    expect(run.report.problems).toEqual([]);
  });

  it.each([
    ['another scheme', { authorization: 'Token KEY' }],
    ['a bearer key with more after it', { authorization: 'Bearer KEY extra' }],
    ['an X-API-Key header', { 'x-api-key': 'KEY' }],
    ['a Basic pair', { authorization: `Basic ${Buffer.from('user:KEY').toString('base64')}` }],
    ['a cookie', { cookie: 'theme=dark; session=KEY' }],
  ])('a key sent as %s is named a client problem, and never shown', async (_, headers) => {
    const secret = `k-${Math.random().toString(36).slice(2)}-odd-place-key`;
    const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name === 'authorization' && value.startsWith('Basic ') ? `Basic ${Buffer.from(`user:${secret}`).toString('base64')}` : value.replace('KEY', secret)]));
    // The key in the path too: whatever echoes the path must hide it.
    const run = await throughProxy(mock.url, ['--annotate'], async (url) => {
      const res = await request(`${url}/sites/${secret}`, { headers: sent });
      expect(res.headers['x-contract-problem'] ?? '').not.toContain(secret);
      await res.body.dump();
    });
    expect(run.report.problems.some((p) => p.side === 'client' && p.rule === 'AUTH-BEARER')).toBe(true);
    expect((run.stdout + run.stderr)).not.toContain(secret);
  });

  it('a key in the query is never shown either', async () => {
    const secret = `q-${Math.random().toString(36).slice(2)}-query-key`;
    const run = await throughProxy(mock.url, [], async (url) => {
      await (await request(`${url}/sites/${secret}?api_key=${secret}`)).body.dump();
    });
    expect((run.stdout + run.stderr)).not.toContain(secret);
  });
});

describe('when nothing can be judged', () => {
  it('a target that never answers: each exchange listed as unanswered, and the verdict says it rests on none', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await throughProxy(url, ['--reporter', 'console'], async (proxyUrl) => {
      const res = await request(`${proxyUrl}${site}`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode).toBe(502);
      await res.body.dump();
    });
    expect(run.code).toBe(0);
    expect((run.stdout + run.stderr)).toMatch(/✗ GET \/v2\/sites\/[0-9a-f-]+ → no answer \(connection refused/);
    expect((run.stdout + run.stderr)).toMatch(/✓ no problem, but the target answered none \(--fail-on any\): .*\(not judged: 1 unanswered by the target\)/);
  });

  it('a report file whose directory is gone at the end: one line, the report on stdout, exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsc-proxy-gone-'));
    const run = await throughProxy(mock.url, ['--output', join(dir, 'report.json')], async (url) => {
      await (await request(`${url}/sites/not-a-uuid`, { headers: { authorization: `Bearer ${key}` } })).body.dump();
      await rm(dir, { recursive: true, force: true });
    });
    expect(run.code).toBe(2);
    expect((run.stdout + run.stderr)).toMatch(/cannot write .*report\.json: .*; the json report follows on stdout/);
    expect(run.report.problems.map((p) => p.rule)).toEqual(['READ-404']);
  });
});
