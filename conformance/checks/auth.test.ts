import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auth401, authBearer, authSchemeCase, messageBand } from './auth.ts';
import { exchange, expectJudgement, judge, TEST_API_KEY, type Case } from './testing.ts';

const unauthorizedBody = { message: 'No or invalid API key provided', status: 401 };
const noKey = { rule: 'AUTH-401', expect: 'unauthorized', headers: {} } as const;

describe('AUTH-401', () => {
  const cases: [string, Case][] = [
    ['401 with the documented message', { given: { ...noKey, status: 401, json: unauthorizedBody }, want: 'pass' }],
    ['401 about a token', { given: { ...noKey, status: 401, json: { message: 'Invalid token', status: 401 } }, want: 'pass' }],
    ['401 about credentials', { given: { ...noKey, status: 401, json: { message: 'Missing CREDENTIALS', status: 401 } }, want: 'pass' }],
    ['401 saying "Unauthenticated"', { given: { ...noKey, status: 401, json: { message: 'Unauthenticated.', status: 401 } }, want: 'pass' }],
    ['401 in camelCase', { given: { ...noKey, status: 401, json: { message: 'apiKeyMissing', status: 401 } }, want: 'pass' }],
    [
      '401 saying only "Unauthorized": a warning (it may mean a permission)',
      { given: { ...noKey, status: 401, json: { message: 'Unauthorized', status: 401 } }, want: { match: /^401 message does not clearly say[\s\S]*"Unauthorized" is about the credentials but does not say/, severity: 'warning' } },
    ],
    ['401 naming the key but not what is wrong: a warning', { given: { ...noKey, status: 401, json: { message: 'API-Key error', status: 401 } }, want: { match: /"API-Key error"/, severity: 'warning' } }],
    [
      '401 whose message names no credential: a failure',
      { given: { ...noKey, status: 401, json: { message: 'Forbidden', status: 401 } }, want: /^401 message does not say the API key is missing or invalid\nThe 401 message "Forbidden" names no key, token, credential, authentication or authorisation at all; §Authentication 2/ },
    ],
    ['401 "Request denied": a failure', { given: { ...noKey, status: 401, json: { message: 'Request denied', status: 401 } }, want: /"Request denied" names no key/ }],
    ['an author is no credential', { given: { ...noKey, status: 401, json: { message: 'Author unknown', status: 401 } }, want: /"Author unknown" names no key/ }],
    ['401 without a message: ERR-BODY judges it', { given: { ...noKey, status: 401, json: { status: 401 } }, want: 'pass' }],
    ['401 with an HTML body: ERR-BODY judges it', { given: { ...noKey, status: 401, text: '<h1>401</h1>', contentType: 'text/html' }, want: 'pass' }],
    ['served without a key', { given: { ...noKey, status: 200, json: {} }, want: /answered 200, expected 401[\s\S]*served the request without a valid bearer key/ }],
    ['403 instead of 401', { given: { ...noKey, status: 403, json: { message: 'Forbidden', status: 403 } }, want: /answered 403, expected 401[\s\S]*\(the server said "Forbidden"\)/ }],
    ['404 instead of 401', { given: { ...noKey, status: 404, json: { message: 'nope', status: 404 } }, want: /answered 404, expected 401/ }],
    ['no answer', { given: { ...noKey, failure: 'timeout' }, want: /^no answer: timeout after 10000 ms\nno response within 10000 ms; the probe expected 401/ }],
    ['connection refused', { given: { ...noKey, failure: 'refused' }, want: /^no answer: connection refused/ }],
    ["another rule's probe", { given: { rule: 'AUTH-BEARER', expect: 'unauthorized', status: 200, json: {} }, want: 'skip' }],
    // AUTH-BEARER's probes that send no Authorization header at all carry no key the document's way: a missing key, AUTH-401's too.
    ['the key only in a cookie, served: a missing key served', { given: { rule: 'AUTH-BEARER', expect: 'unauthorized', headers: { cookie: `api_key=${TEST_API_KEY}` }, status: 200, json: {} }, want: /answered 200, expected 401/ }],
    ['the key only in a cookie, refused in words naming no key', { given: { rule: 'AUTH-BEARER', expect: 'unauthorized', headers: { cookie: `api_key=${TEST_API_KEY}` }, status: 401, json: { message: 'Request denied', status: 401 } }, want: /names no key/ }],
    ['the key only in a cookie, refused', { given: { rule: 'AUTH-BEARER', expect: 'unauthorized', headers: { cookie: `api_key=${TEST_API_KEY}` }, status: 401, json: unauthorizedBody }, want: 'pass' }],
    ['the key under another scheme is AUTH-BEARER\'s alone', { given: { rule: 'AUTH-BEARER', expect: 'unauthorized', headers: { authorization: `Token ${TEST_API_KEY}` }, status: 200, json: {} }, want: 'skip' }],
    ['empty bearer refused', { given: { ...noKey, headers: { authorization: 'Bearer ' }, status: 401, json: unauthorizedBody }, want: 'pass' }],
    [
      'a lone scheme word is no secret to hide',
      { given: { ...noKey, headers: { authorization: 'Bearer' }, status: 400, json: { message: 'Bearer what?', status: 400 } }, want: /\(the server said "Bearer what\?"\)/ },
    ],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(auth401, c));

  it('an echoed key says nothing about the message\'s meaning (it is taken out before the words are read)', () => {
    const given = exchange({
      ...noKey,
      headers: { authorization: `Bearer ${TEST_API_KEY}x` },
      status: 401,
      json: { message: `Access denied for ${TEST_API_KEY}x`, status: 401 },
    });
    expect(judge(auth401, given)).toMatchObject({ severity: 'warning' });
    // The same echo, upper-cased and in base64, is taken out as well.
    const shouted = exchange({ ...noKey, headers: { authorization: `Bearer ${TEST_API_KEY}x` }, status: 401, json: { message: `Denied: ${TEST_API_KEY.toUpperCase()}X / ${Buffer.from(`${TEST_API_KEY}x`).toString('base64')}`, status: 401 } });
    expect(judge(auth401, shouted)).toMatchObject({ severity: 'warning' });
  });
});

/**
 * The three bands of §Authentication 2, on generated messages. Each band is built so that it
 * cannot hold the words of another: silent messages are drawn from an alphabet without `t`, `k`,
 * `c` and `b` (every word naming a credential has one), and the noise around the words of the
 * other two bands holds no Latin letter at all.
 */
describe('AUTH-401: the message bands', () => {
  const at401 = (message: string) => exchange({ ...noKey, status: 401, json: { message, status: 401 } });
  const spaced = (parts: readonly string[]) => parts.filter(Boolean).join(' ');

  /** Text that looks nothing like English: other scripts, digits, punctuation. */
  const foreignNoise = fc.string({ unit: fc.constantFrom(...'ключ недействителен 無効なキー 密钥无效 مفتاح 0123456789 !?.,:;()[]#%&/—…'), maxLength: 12 });
  /** Latin text without the letters every credential word needs (`p` for `API`). */
  const latinNoise = fc.string({ unit: fc.constantFrom(...'adefghijlmnoqrsuvwxyzADEFGHIJLMNOQRSUVWXYZéüßø 0123456789.,!'), maxLength: 20 });
  const neutral = fc.constantFrom('Request denied', 'Forbidden', 'Access refused', 'Not allowed', 'Permission error', 'invalid request', 'missing field', 'not found', 'Zugriff verweigert', 'Accès refusé', 'Доступ запрещён', '拒绝访问');
  /** Words that name the credential and say nothing of what is wrong with it. */
  const naming = fc.constantFrom('key', 'API', 'JWT', 'API key', 'API-Key', 'apikey', 'api_key', 'X-API-Key', 'apiKey', 'token', 'bearer token', 'Bearer', 'access token', 'credentials', 'credential', 'authentication', 'authorization', 'authorisation', 'Unauthorized', 'unauthorised', 'auth', 'OAuth');
  const saying = fc.constantFrom('no', 'missing', 'invalid', 'not valid', 'wrong', 'incorrect', 'expired', 'revoked', 'unknown', 'malformed', 'not provided', 'required', 'empty', 'failed', 'rejected', 'unrecognised', 'not recognized');
  const selfStating = fc.constantFrom('Unauthenticated', 'not authenticated', 'un-authenticated');

  const silentArb = fc.tuple(latinNoise, neutral, foreignNoise, latinNoise).map(spaced);
  const ambiguousArb = fc.tuple(foreignNoise, fc.mixedCase(naming), foreignNoise).map(spaced);
  const clearArb = fc.oneof(
    fc.tuple(foreignNoise, fc.mixedCase(saying), foreignNoise, fc.mixedCase(naming), foreignNoise, fc.boolean()).map(([a, say, b, name, c, flip]) => spaced(flip ? [a, name, b, say, c] : [a, say, b, name, c])),
    fc.tuple(foreignNoise, fc.mixedCase(selfStating), foreignNoise).map(spaced),
  );

  it.each([
    ['JWT expired', 'clear'],
    ['Clé API invalide', 'ambiguous'],
    ['API-Schlüssel ungültig', 'ambiguous'],
    ['Rapid denial', 'silent'],
  ] as const)('%s: %s', (message, band) => {
    expect(messageBand(message)).toBe(band);
  });

  it('a message naming no credential is a failure', () => {
    fc.assert(fc.property(silentArb, (message) => {
      expect(messageBand(message)).toBe('silent');
      expect(judge(auth401, at401(message))).toMatchObject({ title: '401 message does not say the API key is missing or invalid' });
      expect((judge(auth401, at401(message)) as { severity?: string }).severity ?? 'error').toBe('error');
    }));
  });

  it('a message naming the credential, but not what is wrong with it, is a warning', () => {
    fc.assert(fc.property(ambiguousArb, (message) => {
      expect(messageBand(message)).toBe('ambiguous');
      expect(judge(auth401, at401(message))).toMatchObject({ severity: 'warning' });
    }));
  });

  it('a message saying the credential is missing or invalid passes, in any case and order', () => {
    fc.assert(fc.property(clearArb, (message) => {
      expect(messageBand(message)).toBe('clear');
      expect(judge(auth401, at401(message))).toBe('pass');
    }));
  });
});

describe('AUTH-BEARER', () => {
  const other = (headers: Record<string, string>, query?: Record<string, string>) =>
    ({ rule: 'AUTH-BEARER', expect: 'unauthorized', headers, ...(query ? { query } : {}) }) as const;
  const cases: [string, Case][] = [
    ['Basic refused', { given: { ...other({ authorization: `Basic ${Buffer.from(`${TEST_API_KEY}:`).toString('base64')}` }), status: 401, json: unauthorizedBody }, want: 'pass' }],
    ['Token scheme served', { given: { ...other({ authorization: `Token ${TEST_API_KEY}` }), status: 200, json: {} }, want: /answered 200, expected 401/ }],
    ['key in the query served', { given: { ...other({}, { api_key: TEST_API_KEY }), status: 200, json: {} }, want: /answered 200, expected 401/ }],
    ['X-API-Key refused', { given: { ...other({ 'x-api-key': TEST_API_KEY }), status: 401, json: unauthorizedBody }, want: 'pass' }],
    ['a 401 message is AUTH-401 business only', { given: { ...other({ 'x-api-key': TEST_API_KEY }), status: 401, json: { message: 'Forbidden', status: 401 } }, want: 'pass' }],
    ['no answer', { given: { ...other({}), failure: 'reset' }, want: /^no answer: connection reset after 10000 ms/ }],
    ["an AUTH-401 probe", { given: { ...noKey, status: 401, json: unauthorizedBody }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(authBearer, c));
});

describe('AUTH-SCHEME-CASE', () => {
  const scheme = (word: string) => ({ rule: 'AUTH-SCHEME-CASE', expect: 'observe', headers: { authorization: `${word} ${TEST_API_KEY}` } }) as const;
  const cases: [string, Case][] = [
    ['`bearer` served', { given: { ...scheme('bearer'), status: 200, json: {} }, want: 'pass' }],
    ['`BEARER` answered 404 (unknown id)', { given: { ...scheme('BEARER'), status: 404, json: { message: 'x', status: 404 } }, want: 'pass' }],
    ['`bearer` answered 400 (refused for another reason)', { given: { ...scheme('bearer'), endpoint: 'runWpCliCommand', status: 400, json: { message: 'x', status: 400 } }, want: 'pass' }],
    ['`bearer` answered 500: NO-SERVER-ERROR judges it', { given: { ...scheme('bearer'), status: 500, json: { message: 'x', status: 500 } }, want: 'pass' }],
    ['`bearer` refused', { given: { ...scheme('bearer'), status: 401, json: { message: 'x', status: 401 } }, want: /refused the valid key sent with scheme `bearer`[\s\S]*case-insensitive \(RFC 7235/ }],
    ['`BEARER` refused', { given: { ...scheme('BEARER'), status: 401, json: { message: 'x', status: 401 } }, want: /scheme `BEARER`/ }],
    ['no answer', { given: { ...scheme('bearer'), failure: 'timeout' }, want: /^no answer: timeout after 10000 ms[\s\S]*expected any answer but 401/ }],
    ['a probe that also expects success is judged on it', { given: { ...scheme('bearer'), expect: 'valid', status: 400, json: { message: 'x', status: 400 } }, want: /answered 400, expected 2xx/ }],
    ["another rule's probe", { given: { rule: 'INPUT-ACCEPT', status: 401, json: unauthorizedBody }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(authSchemeCase, c));

  it('names the scheme, never the key', () => {
    const verdict = judge(authSchemeCase, exchange({ ...scheme('bearer'), status: 401, json: unauthorizedBody }));
    expect(JSON.stringify(verdict)).not.toContain(TEST_API_KEY);
  });
});
