/**
 * The throttling mock: a token bucket per key in front of the pipeline. Past the limit a 429 with
 * the document's error body, before anything is done; the limit said as each form promises; the
 * bucket refilled at the stated rate; what shares a bucket as the scope says.
 */
import { describe, expect, it } from 'vitest';
import { readSignals } from '../conformance/schedule/signals.ts';
import type { MockRequest, MockResponse } from './app.ts';
import { parseRateLimit, withRateLimit, type RateLimit } from './rate-limit.ts';
import { startMock } from './server.ts';

const ok: MockResponse = { status: 200, body: { fine: true } };
const request = (key: string, path = '/v2/validate'): MockRequest => ({ method: 'GET', url: path, headers: { authorization: `Bearer ${key}` }, body: Buffer.alloc(0) });

/** The wrapped pipeline on a clock the test moves; `reached` counts requests that got past the limit. */
function limited(rate: RateLimit) {
  let now = 0;
  let reached = 0;
  const app = withRateLimit(() => (reached++, ok), rate, () => now, () => Date.UTC(2026, 10, 27) + now);
  return { app, advance: (ms: number) => (now += ms), reached: () => reached };
}

describe('parseRateLimit', () => {
  it.each([
    ['120/60s', { limit: 120, windowMs: 60_000 }],
    ['120/1m', { limit: 120, windowMs: 60_000 }],
    ['20/s', { limit: 20, windowMs: 1000 }],
    ['5/250ms', { limit: 5, windowMs: 250 }],
    [' 100 / 1h ', { limit: 100, windowMs: 3_600_000 }],
  ])('%s', (text, want) => expect(parseRateLimit(text)).toEqual(want));

  it.each([['120'], ['0/1s'], ['120/0s'], ['abc'], ['120/1d'], ['1.5/1s']])('%s is refused', (text) => expect(parseRateLimit(text)).toBeUndefined());
});

describe('withRateLimit', () => {
  it('a full bucket allows the limit at once; the next is a 429 with the error body, never reaching the pipeline', () => {
    const t = limited({ limit: 5, windowMs: 1000 });
    const answers = Array.from({ length: 6 }, () => t.app(request('k')));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]).toMatchObject({ status: 429, body: { status: 429, message: expect.stringMatching(/rate limit/) } });
    expect(t.reached()).toBe(5);
  });

  it('refills at the stated rate: one request per limit/window', () => {
    const t = limited({ limit: 5, windowMs: 1000 });
    for (let i = 0; i < 5; i++) t.app(request('k'));
    t.advance(199);
    expect(t.app(request('k')).status).toBe(429);
    t.advance(2);
    expect(t.app(request('k')).status).toBe(200);
  });

  it('draft (the default): every answer says the policy and what is left, a 429 how long to wait, in forms the suite reads back', () => {
    const t = limited({ limit: 120, windowMs: 60_000 });
    const first = t.app(request('k'));
    expect(first.headers).toMatchObject({ 'ratelimit-policy': '"default";q=120;w=60', ratelimit: '"default";r=119;t=1' });
    expect(readSignals(first.headers as Record<string, string>)).toMatchObject({ limit: 120, windowMs: 60_000, remaining: 119 });
    for (let i = 0; i < 119; i++) t.app(request('k'));
    const refused = t.app(request('k'));
    expect(refused.status).toBe(429);
    expect(refused.headers?.['retry-after']).toBe('1');
  });

  it('x-ratelimit: the limit, what is left, and when it is full again as epoch seconds', () => {
    const t = limited({ limit: 10, windowMs: 10_000, telling: 'x-ratelimit' });
    const answer = t.app(request('k'));
    expect(answer.headers).toEqual({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': String(Math.ceil(Date.UTC(2026, 10, 27) / 1000 + 1)) });
  });

  it('retry-after-date: a 429 says when as an HTTP date, and nothing else is said', () => {
    const t = limited({ limit: 1, windowMs: 10_000, telling: 'retry-after-date' });
    expect(t.app(request('k')).headers).toBeUndefined();
    const refused = t.app(request('k'));
    expect(refused.headers).toEqual({ 'retry-after': new Date(Date.UTC(2026, 10, 27) + 10_000).toUTCString() });
  });

  it('nothing: a bare 429', () => {
    const t = limited({ limit: 1, windowMs: 1000, telling: 'nothing' });
    t.app(request('k'));
    expect(t.app(request('k'))).toEqual({ status: 429, body: expect.objectContaining({ status: 429 }), headers: {} });
  });

  it.each([
    ['key', [200, 200, 429, 200, 200] as const],
    ['key-and-endpoint', [200, 200, 200, 200, 200] as const],
    ['everyone', [200, 200, 429, 429, 429] as const],
  ] as const)('per %s: what shares a bucket', (per, want) => {
    const t = limited({ limit: 2, windowMs: 60_000, per });
    const statuses = [
      t.app(request('a', '/v2/validate')).status,
      t.app(request('a', '/v2/validate')).status,
      per === 'key-and-endpoint' ? t.app(request('a', '/v2/company/11111111-1111-4111-8111-111111111111/users')).status : t.app(request('a', '/v2/validate')).status,
      t.app(request('b', '/v2/validate')).status,
      t.app(request('b', '/v2/validate')).status,
    ];
    expect(statuses).toEqual(want);
  });
});

describe('startMock({ rateLimit }) over a socket', () => {
  it('429 with Retry-After past the limit, per key: the other company is not held up', async () => {
    const mock = await startMock({ port: 0, rateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const get = (key: string) => fetch(`${mock.url}/validate`, { headers: { authorization: `Bearer ${key}` } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(mock.fixtures.apiKey)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await get(mock.fixtures.apiKey);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('content-type')).toBe('application/json');
      expect(await refused.json()).toMatchObject({ status: 429 });
      expect((await get(mock.fixtures.otherApiKey)).status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
