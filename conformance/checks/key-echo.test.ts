/**
 * NO-KEY-ECHO: where an answer carries back the credential of its request, found in its raw bytes
 * in any whole form (as sent, base64, URL- or JSON-escaped), and what that makes of it: the valid
 * key is a security failure, a refused one a warning; a part of a key (a masked hint) is neither.
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext, Exchange, Verdict } from '../types.ts';
import { credentialsOf, echoesOf } from './credentials.ts';
import { noKeyEcho } from './key-echo.ts';
import { exchange, TEST_API_KEY } from './testing.ts';

const known: CheckContext = { options: { strict: false }, validKeys: [TEST_API_KEY] };

/** An answer to a request sent with `headers`, its body `text`, its headers `answerHeaders`, as the transport reads it. */
function answered(text: string, answerHeaders: Record<string, string> = {}, headers?: Record<string, string>, status = 200): Exchange {
  const x = exchange({ endpoint: 'getSite', status, text, ...(headers ? { headers } : {}) });
  const echoes = echoesOf(x.probe.request, text, { ...x.response!.headers, ...answerHeaders });
  return { ...x, response: { ...x.response!, headers: { ...x.response!.headers, ...answerHeaders }, ...(echoes.length ? { echoes } : {}) } };
}

const judged = (x: Exchange, context: CheckContext = known): 'pass' | Verdict => noKeyEcho.check(context, x) ?? 'pass';

describe('credentialsOf', () => {
  it('reads the Authorization credential, key-like headers, cookies and query parameters, never a lone scheme word', () => {
    const request = {
      method: 'GET',
      url: 'http://x/v2/sites?api_key=q-value-1&page=2',
      headers: { authorization: 'Bearer the-key-12345', 'x-api-key': 'h-value-1', cookie: 'sid=abc; access_token=c-value-1', accept: 'application/json' },
    };
    expect(credentialsOf(request).map((c) => c.from).sort()).toEqual(['?api_key', 'authorization', 'cookie access_token', 'x-api-key']);
    expect(credentialsOf({ method: 'GET', url: 'http://x/', headers: { authorization: 'Bearer' } })).toEqual([]);
  });
});

describe('NO-KEY-ECHO', () => {
  it('the valid key in the body, in a header, base64-encoded or URL-encoded: a security failure, naming where', () => {
    for (const [text, headers, where] of [
      [`{"site":{"debug":"${TEST_API_KEY}"}}`, {}, /the body/],
      ['{}', { 'x-debug-auth': TEST_API_KEY }, /x-debug-auth/],
      [`{"b":"${Buffer.from(TEST_API_KEY).toString('base64')}"}`, {}, /the body/],
      [`{"u":"${encodeURIComponent(`${TEST_API_KEY}`)}"}`, {}, /the body/],
    ] as const) {
      const v = judged(answered(text, headers));
      expect(v).toBeTypeOf('object');
      expect(`${(v as Verdict).title} ${(v as Verdict).message}`).toMatch(where);
      expect((v as Verdict).message).toMatch(/OWASP API3:2023/);
      expect((v as Verdict).severity ?? 'error').toBe('error');
    }
  });

  it('a key the target refused, echoed in its 401: a warning', () => {
    const x = answered('{"message":"invalid key hsc-invalid-0123456789abcdef","status":401}', {}, { authorization: 'Bearer hsc-invalid-0123456789abcdef' }, 401);
    expect(judged(x)).toMatchObject({ severity: 'warning' });
  });

  it('without the run\'s keys (the proxy), a key the answer did not refuse counts as valid', () => {
    expect(judged(answered(`{"k":"${TEST_API_KEY}"}`), { options: { strict: false } })).toMatchObject({ title: expect.stringMatching(/caller's API key/) });
  });

  it('a masked hint, the last four characters, a session cookie of its own: no echo', () => {
    for (const [text, headers] of [
      [`{"hint":"${TEST_API_KEY.slice(0, 4)}…${TEST_API_KEY.slice(-4)}"}`, {}],
      [`{"key_suffix":"${TEST_API_KEY.slice(-4)}"}`, {}],
      ['{}', { 'set-cookie': 'sid=0f8fad5bd9cb469fa16570867728950e; HttpOnly' }],
    ] as const) {
      expect(judged(answered(text, headers))).toBe('pass');
    }
  });

  it('judges every answer: one without an echo passes', () => {
    const x = answered('{"site":{}}');
    expect(noKeyEcho.applies(x)).toBe(true);
    expect(judged(x)).toBe('pass');
  });
});
