/**
 * A throttling mock (`mock --rate-limit 120/60s`, `startMock({ rateLimit })`): a token bucket per
 * key in front of the whole pipeline, as an API gateway puts one, so client authors can test
 * their handling of 429 against it. The document states no limit ("Rate limits and quotas: not
 * shown"), so the mock throttles only when asked to, and then says so in the ways live APIs do:
 *
 * - `draft` (the default): every answer carries the IETF draft's `RateLimit-Policy:
 *   "default";q=120;w=60` and `RateLimit: "default";r=<left>;t=<seconds to full>`, a 429 also
 *   `Retry-After: <seconds>`;
 * - `x-ratelimit`: `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds), and `Retry-After`;
 * - `retry-after-date`: a 429 with `Retry-After` as an HTTP date, nothing else;
 * - `nothing`: a bare 429.
 *
 * A 429 comes before anything is done (authentication included), so the retry never meets its
 * own effect; its body is the document's error body with status 429.
 */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import type { MockRequest, MockResponse } from './app.ts';
import { matchRoute } from './router.ts';

export type RateLimitTelling = 'draft' | 'x-ratelimit' | 'retry-after-date' | 'nothing';
/** What shares one bucket: each key, each key on each endpoint, or every caller at once (a limit per address). */
export type RateLimitScope = 'key' | 'key-and-endpoint' | 'everyone';

export interface RateLimit {
  /** Requests per window, and the bucket's size: a full bucket allows this many at once. */
  readonly limit: number;
  readonly windowMs: number;
  readonly telling?: RateLimitTelling;
  readonly per?: RateLimitScope;
}

/** `120/60s`, `120/1m`, `20/s`, `5/250ms`: requests per window; undefined when it is not one. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)\s*$/i.exec(text);
  if (!m) return undefined;
  const limit = Number(m[1]);
  const windowMs = Number(m[2] ?? 1) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[3]!.toLowerCase() as 'ms' | 's' | 'm' | 'h'];
  if (!(limit >= 1 && limit <= 1_000_000 && windowMs >= 1 && windowMs <= 86_400_000)) return undefined;
  return { limit, windowMs };
}

/** The body of a 429: the document's error body (`message`, `status` equal to the HTTP status). */
const TOO_MANY = { message: 'Too many requests: the rate limit was reached', status: 429 };

/** Buckets kept at most: a client sending a new key on every request cannot grow the mock's memory. */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** Wraps the pipeline: a request past the limit is answered 429 and goes no further. */
export function withRateLimit(app: (request: MockRequest) => MockResponse, rate: RateLimit, clock: () => number = () => performance.now(), wallClock: () => number = () => Date.now()) {
  const buckets = new Map<string, Bucket>();
  const perMs = rate.limit / rate.windowMs;
  const telling = rate.telling ?? 'draft';
  const windowS = Math.max(1, Math.round(rate.windowMs / 1000));

  const keyOf = (request: MockRequest): string => {
    if (rate.per === 'everyone') return '';
    const auth = request.headers.authorization;
    const key = typeof auth === 'string' ? auth : '';
    if (rate.per !== 'key-and-endpoint') return key;
    const path = request.url.split('?')[0]!;
    const endpoint: Endpoint | undefined = matchRoute(request.method, path.startsWith(`${api.basePath}/`) ? path.slice(api.basePath.length) : path)?.endpoint;
    return `${key} ${endpoint?.name ?? 'unknown'}`;
  };

  const take = (key: string): Bucket & { ok: boolean } => {
    const now = clock();
    let b = buckets.get(key);
    if (!b) {
      if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
      buckets.set(key, (b = { tokens: rate.limit, at: now }));
    }
    b.tokens = Math.min(rate.limit, b.tokens + (now - b.at) * perMs);
    b.at = now;
    const ok = b.tokens >= 1;
    if (ok) b.tokens -= 1;
    return { ...b, ok };
  };

  /** What the answer says of the limit, given what is left. */
  const headers = (tokens: number, ok: boolean): Record<string, string> => {
    const left = Math.floor(tokens);
    const untilOne = Math.max(0, (1 - tokens) / perMs);
    const untilFull = Math.max(0, (rate.limit - tokens) / perMs);
    const retryS = Math.max(1, Math.ceil(untilOne / 1000));
    switch (telling) {
      case 'draft':
        return { 'ratelimit-policy': `"default";q=${rate.limit};w=${windowS}`, ratelimit: `"default";r=${left};t=${Math.ceil(untilFull / 1000)}`, ...(ok ? {} : { 'retry-after': String(retryS) }) };
      case 'x-ratelimit':
        return {
          'x-ratelimit-limit': String(rate.limit),
          'x-ratelimit-remaining': String(left),
          'x-ratelimit-reset': String(Math.ceil((wallClock() + untilFull) / 1000)),
          ...(ok ? {} : { 'retry-after': String(retryS) }),
        };
      case 'retry-after-date':
        // An HTTP date has whole seconds: the next second after a token is back.
        return ok ? {} : { 'retry-after': new Date(Math.ceil((wallClock() + untilOne) / 1000) * 1000).toUTCString() };
      case 'nothing':
        return {};
    }
  };

  return (request: MockRequest): MockResponse => {
    const bucket = take(keyOf(request));
    if (!bucket.ok) return { status: 429, body: TOO_MANY, headers: headers(bucket.tokens, false) };
    const response = app(request);
    const said = headers(bucket.tokens, true);
    return Object.keys(said).length ? { ...response, headers: { ...said, ...response.headers } } : response;
  };
}
