/**
 * The suite's transport: sends one probe's request and captures what came back. It never throws
 * and never hangs: one deadline covers the headers and the whole body, and every error becomes a
 * `TransportFailure`. HTTP 429 is throttling (ASM-THROTTLE-429): waited out and retried, so it
 * never reaches the checks. `rate` spaces requests across all concurrent sends.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { Exchange, Probe, ProbeRequest, ProbeResponse, Send, TransportFailure } from './types.ts';

export interface TransportOptions {
  /** Deadline of one attempt, headers and body together. */
  readonly timeoutMs: number;
  /** At most this many requests per second (retries included); unlimited when undefined. */
  readonly rate?: number | undefined;
  /** 429 answers waited out before giving up (default 5). */
  readonly maxRetries?: number;
  /** The longest single wait for a 429, in ms (default 30 000). */
  readonly retryCap?: number;
  /** The first back-off when a 429 names no `Retry-After`, doubled on each retry (default 500 ms). */
  readonly backoffMs?: number;
  /** Connections per origin (default 16; the runner sends at most 8 at once). */
  readonly connections?: number;
  /** Response bodies are kept up to this many bytes (default 256 KiB). */
  readonly bodyCap?: number;
}

export interface TransportStats {
  /** HTTP requests sent, retries included. */
  readonly requests: number;
  /** 429 answers waited out. */
  readonly throttled: number;
}

/** A `Send`, plus what it has sent so far and a way to drop its connections. */
export type Transport = Send & {
  readonly stats: () => TransportStats;
  readonly close: () => Promise<void>;
};

export const DEFAULT_BODY_CAP = 256 * 1024;

/** A whole request, sent once: a response (any status) or a transport failure. */
type Attempt = { readonly response: ProbeResponse; readonly retryAfter?: string | undefined } | { readonly failure: TransportFailure };

export function createTransport(options: TransportOptions): Transport {
  const maxRetries = options.maxRetries ?? 5;
  const retryCap = options.retryCap ?? 30_000;
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

  async function attempt(req: ProbeRequest): Promise<Attempt> {
    const started = performance.now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        dispatcher,
        signal: controller.signal,
      });
      const { text, cut } = await readCapped(res.body, bodyCap);
      const headers = flattenHeaders(res.headers);
      const response: ProbeResponse = { status: res.statusCode, headers, text, ...parseBody(text, cut, bodyCap), ms: elapsed() };
      return { response, retryAfter: headers['retry-after'] };
    } catch (error) {
      return { failure: classify(error, timedOut, options.timeoutMs, elapsed()) };
    } finally {
      clearTimeout(timer);
    }
  }

  const send = async (probe: Probe): Promise<Exchange> => {
    let waited = 0;
    for (;;) {
      await limiter(); // outside the deadline: waiting for a slot is not the server's time
      requests++;
      // The deadline inside `attempt` should always fire; this second one guards against a stuck stream.
      const result = await withDeadline(attempt(probe.request), options.timeoutMs + 2_000);
      if ('failure' in result) return { probe, failure: result.failure, throttled: waited };
      if (result.response.status !== 429) return { probe, response: result.response, throttled: waited };
      throttled++;
      if (waited >= maxRetries) {
        return {
          probe,
          throttled: waited,
          failure: { kind: 'other', message: `still throttled: HTTP 429 after ${maxRetries} retries`, ms: result.response.ms },
        };
      }
      await sleep(retryDelay(result.retryAfter, waited, backoffMs, retryCap));
      waited++;
    }
  };
  return Object.assign(send, {
    stats: (): TransportStats => ({ requests, throttled }),
    close: () => dispatcher.close().catch(() => undefined),
  });
}

/** How long to wait before retrying a 429: `Retry-After` (seconds or an HTTP-date), else exponential back-off. */
export function retryDelay(retryAfter: string | undefined, retry: number, backoffMs: number, cap: number, now = Date.now()): number {
  const exponential = backoffMs * 2 ** retry;
  let wait = exponential;
  const value = retryAfter?.trim();
  if (value) {
    if (/^\d+$/.test(value)) wait = Number(value) * 1000;
    else {
      const at = Date.parse(value);
      if (!Number.isNaN(at)) wait = Math.max(0, at - now);
    }
  }
  return Math.min(wait, cap);
}

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

/** Reads the body up to `cap` bytes; the rest is dropped with the connection. UTF-8, lossy. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, cap: number): Promise<{ text: string; cut: boolean }> {
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
  return { text: Buffer.concat(chunks, size).toString('utf8'), cut };
}

function parseBody(text: string, cut: boolean, cap: number): { json?: unknown; jsonError?: string } {
  if (cut) return { jsonError: `the body is longer than ${cap} bytes and was cut there; not parsed` };
  if (text.trim() === '') return { jsonError: 'the body is empty' };
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { jsonError: `not JSON: ${(error as Error).message}` };
  }
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
  if (code?.startsWith('HPE_') || (error as Error | undefined)?.name === 'HTTPParserError' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' || code === 'UND_ERR_INFO') {
    return { kind: 'protocol', message: `malformed HTTP answer (${code ? `${code}: ` : ''}${detail})`, ms };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'other', message: `cannot resolve the host (${code})`, ms };
  return { kind: 'other', message: code ? `${code}: ${detail}` : detail, ms };
}
