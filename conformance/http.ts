/**
 * The suite's transport: sends one probe's request and captures what came back. It never throws
 * and never hangs: one deadline covers the headers and the whole body, and every error becomes a
 * `TransportFailure`. Bodies are read up to a cap and parsed within a depth bound
 * (ASM-BODY-BOUNDS). HTTP 429 is throttling (ASM-THROTTLE-429): waited out and retried, so it
 * never reaches the checks, within one budget of waiting for the whole run; a wait beyond what
 * is left fails that request as throttled. `rate` spaces requests across all concurrent sends.
 * Every secret field value in a request or an answer is taught to the sanitizer as it passes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { servesSecret } from '../spec/queries.ts';
import { clip, learnExchange, markLearned, readAnswer } from './body.ts';
import { DEFAULT_MAX_BODY_KB, DEFAULT_MAX_WAIT_S } from './flags.ts';
import type { Exchange, Probe, ProbeRequest, ProbeResponse, Send, TransportFailure } from './types.ts';

export interface TransportOptions {
  /** Deadline of one attempt, headers and body together. */
  readonly timeoutMs: number;
  /** At most this many requests per second (retries included); unlimited when undefined. */
  readonly rate?: number | undefined;
  /** 429 answers waited out per request before giving up (default 5). */
  readonly maxRetries?: number;
  /** The run's budget for waiting out 429s, all waits together, in ms (default 60 000: `--max-wait-s`). */
  readonly maxWaitMs?: number;
  /** The first back-off when a 429 names no `Retry-After`, doubled on each retry (default 500 ms). */
  readonly backoffMs?: number;
  /** Connections per origin (default 16; the runner sends at most 8 at once). */
  readonly connections?: number;
  /** Response bodies are read up to this many bytes (default 1 MiB: `--max-body-kb`). */
  readonly bodyCap?: number;
  /** Learns the secret field values of every request and answer. */
  readonly sanitizer?: Sanitizer;
}

export interface TransportStats {
  /** HTTP requests sent, retries included. */
  readonly requests: number;
  /** 429 answers waited out. */
  readonly throttled: number;
  /** Time spent waiting them out, all waits together, in ms. */
  readonly waitedMs: number;
}

/** A `Send`, plus what it has sent so far and a way to drop its connections. */
export type Transport = Send & {
  readonly stats: () => TransportStats;
  readonly close: () => Promise<void>;
};

export const DEFAULT_BODY_CAP = DEFAULT_MAX_BODY_KB * 1024;
export const DEFAULT_MAX_WAIT_MS = DEFAULT_MAX_WAIT_S * 1000;

/** A whole request, sent once: a response (any status) or a transport failure. */
type Attempt = { readonly response: ProbeResponse; readonly retryAfter?: string | undefined } | { readonly failure: TransportFailure };

export function createTransport(options: TransportOptions): Transport {
  const maxRetries = options.maxRetries ?? 5;
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const backoffMs = options.backoffMs ?? 500;
  const bodyCap = options.bodyCap ?? DEFAULT_BODY_CAP;
  const dispatcher = new Agent({
    connections: options.connections ?? 16,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs },
  });
  const limiter = rateLimiter(options.rate);
  let requests = 0;
  let throttled = 0;
  let waitedMs = 0;

  /**
   * One attempt, given `deadlineMs` (what is left of the request's `timeoutMs`). The answer's
   * secrets are learned from its raw body, then the body is kept as reports may show it (body.ts).
   */
  async function attempt(req: ProbeRequest, deadlineMs: number, secretServed: boolean): Promise<Attempt> {
    const started = performance.now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, deadlineMs);
    const elapsed = () => Math.round(performance.now() - started);
    try {
      if (options.sanitizer) learnExchange(options.sanitizer, req);
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher,
        signal: controller.signal,
      });
      const { bytes, cut } = await readCapped(res.body, bodyCap);
      const headers = flattenHeaders(res.headers);
      const text = bodyText(bytes, cut, headers['content-encoding']);
      const { secrets, ...answer } = readAnswer({ text, headers, cut, cap: bodyCap, servesSecret: secretServed });
      const response: ProbeResponse = { status: res.statusCode, headers, ...answer, ms: elapsed() };
      if (options.sanitizer) {
        options.sanitizer.learnValues(secrets, 'served');
        markLearned(options.sanitizer, response);
      }
      return { response, retryAfter: headers['retry-after'] };
    } catch (error) {
      return { failure: classify(error, timedOut, options.timeoutMs, elapsed()) };
    } finally {
      clearTimeout(timer);
    }
  }

  // One deadline per request, all its attempts together: a target answering 429 slowly cannot
  // stretch a request past --timeout-ms (the waits between attempts come from the run's budget).
  const send = async (probe: Probe): Promise<Exchange> => {
    let waited = 0;
    let spent = 0;
    for (;;) {
      const left = options.timeoutMs - spent;
      if (left <= 0) {
        const message = `no complete answer within ${options.timeoutMs} ms: ${waited + 1} attempts, each answered 429 (waits between them not counted)`;
        return { probe, throttled: waited, failure: { kind: 'timeout', message, ms: Math.round(spent) } };
      }
      await limiter(); // outside the deadline: waiting for a slot is not the server's time
      requests++;
      // The deadline inside `attempt` should always fire; this second one guards against a stuck stream.
      const began = performance.now();
      const result = await withDeadline(attempt(probe.request, left, servesSecret(probe.endpoint)), left + 2_000);
      spent += performance.now() - began;
      if ('failure' in result) return { probe, failure: result.failure, throttled: waited };
      if (result.response.status !== 429) return { probe, response: result.response, throttled: waited };
      throttled++;
      const ms = result.response.ms;
      if (waited >= maxRetries) {
        const how = result.retryAfter === undefined ? 'backing off without a Retry-After' : `Retry-After: ${clip(result.retryAfter, 40)} honoured`;
        return { probe, throttled: waited, failure: { kind: 'throttled', message: `throttled: HTTP 429 still, after ${maxRetries} retries of this request (${how})`, ms } };
      }
      const delay = retryDelay(result.retryAfter, waited, backoffMs);
      const budgetLeft = maxWaitMs - waitedMs;
      if (delay > budgetLeft) {
        const asked = result.retryAfter === undefined ? 'no Retry-After' : `Retry-After: ${clip(result.retryAfter, 40)}`;
        const message = `throttled: HTTP 429 asked to wait ${seconds(delay)} (${asked}), more than the ${seconds(Math.max(0, budgetLeft))} left of the run's ${seconds(maxWaitMs)} for waiting out 429s (--max-wait-s)`;
        return { probe, throttled: waited, failure: { kind: 'throttled', message, ms } };
      }
      waitedMs += delay; // taken before the wait, so concurrent waits cannot overspend the budget
      await sleep(delay);
      waited++;
    }
  };
  return Object.assign(send, {
    stats: (): TransportStats => ({ requests, throttled, waitedMs }),
    close: () => dispatcher.close().catch(() => undefined),
  });
}

/** How long to wait before retrying a 429: `Retry-After` (seconds or an HTTP-date), else exponential back-off. */
export function retryDelay(retryAfter: string | undefined, retry: number, backoffMs: number, now = Date.now()): number {
  const value = retryAfter?.trim();
  if (value) {
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return backoffMs * 2 ** retry;
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;

/** A token bucket of one token: requests start at least `1000 / rate` ms apart, across all callers. */
function rateLimiter(rate: number | undefined): () => Promise<void> {
  if (rate === undefined || !(rate > 0) || !Number.isFinite(rate)) return async () => {};
  const interval = 1000 / rate;
  let next = 0;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await sleep(at - now);
  };
}

function withDeadline(attempt: Promise<Attempt>, ms: number): Promise<Attempt> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Attempt>((resolve) => {
    timer = setTimeout(() => resolve({ failure: { kind: 'timeout', message: `no complete answer within ${ms} ms`, ms } }), ms);
  });
  return Promise.race([attempt, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The body as text: UTF-8, lossy; a content-encoded body (which the suite never asked for) is
 * described, not shown: its bytes are no text, and a report full of them says nothing.
 */
function bodyText(bytes: Buffer, cut: boolean, encoding: string | undefined): string {
  if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return bytes.toString('utf8');
  return `[${bytes.length} bytes${cut ? ', cut at the size cap,' : ''} of ${clip(encoding.trim(), 40)}-encoded data, not decoded]`;
}

/** Reads the body up to `cap` bytes; the rest is dropped with the connection. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, cap: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of body) {
    const room = cap - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = cap;
      cut = true;
      body.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks, size), cut };
}

/** undici's headers with lowercased names; repeated headers joined as HTTP would (`, `). */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED' && code !== 'ABORT_ERR') return code;
  }
  return undefined;
}

/** Node's codes for a certificate it does not trust. */
const TLS_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** Names what went wrong, in words a report reader understands without undici's source. */
export function classify(error: unknown, timedOut: boolean, timeoutMs: number, ms: number): TransportFailure {
  const code = codeOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms`, ms };
  }
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: `connection refused (${detail})`, ms };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return { kind: 'reset', message: `connection closed before a complete answer (${code}: ${detail})`, ms };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return { kind: 'protocol', message: 'the answer\'s headers are larger than the HTTP client accepts (16 KiB)', ms };
  if (code?.startsWith('HPE_') || (error as Error | undefined)?.name === 'HTTPParserError' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' || code === 'UND_ERR_INFO') {
    return { kind: 'protocol', message: `malformed HTTP answer (${code ? `${code}: ` : ''}${detail})`, ms };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'other', message: `cannot resolve the host (${code})`, ms };
  if (code !== undefined && TLS_CERTIFICATE.test(code)) {
    return { kind: 'other', message: `the server's TLS certificate is not trusted (${code}); for a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate file`, ms };
  }
  if (code?.startsWith('ERR_SSL_') || code?.startsWith('ERR_TLS_')) {
    const hint = code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? ': is it a plain http:// server?' : '';
    return { kind: 'protocol', message: `the TLS handshake failed (${code})${hint}`, ms };
  }
  // undici checks headers before sending: a key with a line break or a character beyond Latin-1.
  if (code === 'UND_ERR_INVALID_ARG') return { kind: 'other', message: `the HTTP client refused to send the request (${detail}): a header value holds a character HTTP cannot carry`, ms };
  return { kind: 'other', message: code ? `${code}: ${detail}` : detail, ms };
}
