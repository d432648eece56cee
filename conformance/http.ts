/**
 * The suite's transport: sends one probe's request and captures what came back. It never throws
 * and never hangs: one deadline covers the headers and the whole body, and every error becomes a
 * `TransportFailure`. Bodies are read up to a cap and parsed within a depth bound
 * (ASM-BODY-BOUNDS). Every request waits for its slot from the run's one pacer (schedule/pacer.ts:
 * `--rate N`, or the target's own limit) and is taken from the run's budget (schedule/budget.ts:
 * `--max-requests`, `--max-duration`): a request the budget cannot cover is not sent, and judges
 * nothing. HTTP 429 is throttling (ASM-THROTTLE-429): retried after the pause the pacer keeps, so
 * it never reaches the checks; a request still throttled after its retries, or whose pause would
 * pass the run's budget for waiting, ends as throttled, which judges nothing either. Every secret
 * field value in a request or an answer is taught to the sanitizer as it passes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { servesSecret } from '../spec/queries.ts';
import { echoesOf } from './checks/credentials.ts';
import { clip, keyedHash, learnExchange, markLearned, readAnswer } from './body.ts';
import { isCoded, learnHeldBody } from '../sanitize/held-body.ts';
import { DEFAULT_MAX_BODY_KB, DEFAULT_MAX_WAIT_S } from './flags.ts';
import { RunBudget } from './schedule/budget.ts';
import { Pacer, type PacerStats } from './schedule/pacer.ts';
import { runnerDelay as processDelay, WaitingDelay, type DelayWatch, type RunnerDelayStats } from './schedule/runner-delay.ts';
import type { Exchange, Probe, ProbeRequest, ProbeResponse, Send, TransportFailure } from './types.ts';

/**
 * undici's Agent alone: the package's index loads every dispatcher, mock, cache and interceptor
 * it has (~40 ms of a command's start-up); the transport needs this one (undici is pinned).
 */
const Agent = createRequire(import.meta.url)('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;

export interface TransportOptions {
  /** Deadline of one attempt, headers and body together. */
  readonly timeoutMs: number;
  /** At most this many requests per second (retries included); undefined paces to the target. Ignored with `pacer`. */
  readonly rate?: number | undefined;
  /** 429 answers waited out per request before giving up (default 8). */
  readonly maxRetries?: number;
  /** The run's budget for pausing on 429s, each moment once (default 60 000: `--max-wait-s`). Ignored with `pacer`. */
  readonly maxWaitMs?: number;
  /** The first gap after a 429 that says nothing, before the rate is known (default 500 ms). Ignored with `pacer`. */
  readonly backoffMs?: number;
  /** The run's pacer, shared with whatever else sends; default: one of its own from `rate`, `maxWaitMs` and `backoffMs`. */
  readonly pacer?: Pacer;
  /** The run's budget of requests and time; default: none. */
  readonly budget?: RunBudget;
  /** Connections per origin (default 16; the runner sends at most 8 at once). */
  readonly connections?: number;
  /** Response bodies are read up to this many bytes (default 1 MiB: `--max-body-kb`). */
  readonly bodyCap?: number;
  /** Learns the secret field values of every request and answer. */
  readonly sanitizer?: Sanitizer;
  /** Watches this process's own stalls (default: the process's one watch); deadlines count only the time it ran. */
  readonly runnerDelay?: DelayWatch;
}

export interface TransportStats {
  /** HTTP requests sent, retries included. */
  readonly requests: number;
  /** 429 answers waited out. */
  readonly throttled: number;
  /** Time the run spent paused by 429s, each moment counted once, in ms (what `--max-wait-s` bounds). */
  readonly waitedMs: number;
  /** How long this process itself could not run while a request waited for its answer. */
  readonly runner: RunnerDelayStats;
}

/** A `Send`, plus what it has sent so far, what its pacer learned, when a probe may go, and a way to drop its connections. */
export type Transport = Send & {
  readonly stats: () => TransportStats;
  readonly pacing: () => PacerStats;
  /** How long until `probe` may go (ms; 0: now): its key may be paused while others are not. */
  readonly readyIn: (probe: Probe) => number;
  readonly close: () => Promise<void>;
};

export const DEFAULT_BODY_CAP = DEFAULT_MAX_BODY_KB * 1024;
export const DEFAULT_MAX_WAIT_MS = DEFAULT_MAX_WAIT_S * 1000;

/** A whole request, sent once: a response (any status) or a transport failure. */
type Attempt = { readonly response: ProbeResponse } | { readonly failure: TransportFailure };

/** Which of the target's limits a request counts against: its credentials (a limit is per key, as a rule). */
const credentialOf = (request: ProbeRequest): string => {
  const header = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'authorization');
  return header?.[1] ?? 'no credentials';
};

export function createTransport(options: TransportOptions): Transport {
  const maxRetries = options.maxRetries ?? 8;
  const bodyCap = options.bodyCap ?? DEFAULT_BODY_CAP;
  const pacer =
    options.pacer ?? new Pacer({ ...(options.rate !== undefined ? { fixedRate: options.rate } : {}), maxPauseMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}) });
  const budget = options.budget ?? new RunBudget();
  const delay = options.runnerDelay ?? processDelay;
  delay.hold();
  const waiting = new WaitingDelay(delay);
  // undici's own timers count wall time, stalls of this process included: hang guards only, past
  // the furthest an attempt's own deadline can be stretched (`attempt`).
  const guardMs = options.timeoutMs * MAX_STRETCH + STUCK_GRACE_MS;
  const dispatcher = new Agent({
    connections: options.connections ?? 16,
    headersTimeout: guardMs,
    bodyTimeout: guardMs,
    connect: { timeout: guardMs },
  });
  let closed = false;
  let requests = 0;
  let throttled = 0;

  /**
   * One attempt, given `deadlineMs` (what is left of the request's `timeoutMs`). The answer's
   * secrets are learned from its raw body, then the body is kept as reports may show it (body.ts).
   * The deadline counts the time this process ran: where it stalled (schedule/runner-delay.ts),
   * the target is given the rest, up to MAX_STRETCH times the deadline in all; past that, a
   * process that stalled for what its target was missing judges nothing (kind `runner`). At the
   * deadline the request is aborted, and should the answer not end even then, the attempt
   * settles as a timeout STUCK_GRACE_MS later.
   */
  function attempt(req: ProbeRequest, deadlineMs: number, secretServed: boolean, budgetEnd: number): Promise<Attempt> {
    const started = performance.now();
    waiting.busy();
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      let timedOut = false;
      // Set when the deadline ends with this process starved: what the abort's error becomes.
      let starved: TransportFailure | undefined;
      const settle = (result: Attempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        waiting.idle();
        resolve(result);
      };
      const failed = (error: unknown) => settle({ failure: starved ?? classify(error, timedOut, options.timeoutMs, Math.round(performance.now() - started)) });
      const answer = receive(req, bodyCap, (raw) => {
        if ('error' in raw) {
          // Broken off: what came of its body is read for secrets all the same (a target may echo them later).
          if (options.sanitizer && raw.bytes.length > 0) learnHeldBody(options.sanitizer, { bytes: raw.bytes, contentEncoding: flattenHeaders(raw.headers)['content-encoding'], cut: true }, bodyCap);
          return failed(raw.error);
        }
        // Reading the answer runs inside undici's callback, which would swallow what it throws: caught here.
        try {
          settle({ response: kept(req, raw, secretServed, started) });
        } catch (error) {
          failed(error);
        }
      });
      // Stretched at most to MAX_STRETCH times the deadline, and never past the run's budget, which ends at a time of day.
      const latest = Math.min(started + deadlineMs * MAX_STRETCH, budgetEnd);
      const due = () => {
        const now = performance.now();
        const waited = now - started;
        const missing = deadlineMs - delay.runningSince(started);
        // Stalled for part of it: the target gets the time this process could not read its socket.
        if (missing >= 1 && now < latest - 1) return void (timer = setTimeout(due, Math.min(missing, latest - now)));
        timedOut = true;
        // At the budget's end the request is cut short (send() says so); else, starved past the stretch, it judges nothing.
        if (missing >= 1 && now < budgetEnd - 1) starved = stalledFailure(waited, deadlineMs - missing);
        // Still waiting for a connection: nothing of it was sent, and it is dropped when one comes.
        if (!answer.abort()) return settle({ failure: starved ?? classify(undefined, true, options.timeoutMs, Math.round(waited)) });
        // The abort settled it there and then (undici reports it at once): no grace to wait, nor a timer to keep the process up.
        if (settled) return;
        if (starved) return settle({ failure: starved });
        const ms = deadlineMs + STUCK_GRACE_MS;
        timer = setTimeout(() => settle({ failure: { kind: 'timeout', message: `no complete answer within ${ms} ms`, ms } }), STUCK_GRACE_MS);
      };
      let timer = setTimeout(due, deadlineMs);
      try {
        if (options.sanitizer) learnExchange(options.sanitizer, req);
        // undici's request() refuses a tunnel; dispatch() would open one and wait in it.
        if (req.method.toUpperCase() === 'CONNECT') throw Object.assign(new Error('CONNECT opens a tunnel, not a request'), { code: 'UND_ERR_INVALID_ARG' });
        const url = new URL(req.url);
        dispatcher.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: req.method as 'GET', headers: req.headers, body: req.body ?? null }, answer.handler);
      } catch (error) {
        answer.fail(error);
      }
    });
  }

  /** An answer as received, read as the suite keeps it; its secrets taught to the sanitizer. */
  function kept(req: ProbeRequest, raw: RawAnswer, secretServed: boolean, started: number): ProbeResponse {
    const headers = flattenHeaders(raw.headers);
    // Bytes the suite keeps but does not parse (coded, cut at the cap) are read for secrets first.
    const encoding = headers['content-encoding'];
    if (options.sanitizer && (raw.cut || isCoded(encoding))) {
      learnHeldBody(options.sanitizer, { bytes: raw.bytes, contentEncoding: encoding, cut: raw.cut }, bodyCap);
    }
    const text = bodyText(raw.bytes, raw.cut, encoding);
    const { secrets, ...answer } = readAnswer({ text, headers, cut: raw.cut, cap: bodyCap, servesSecret: secretServed });
    // Read from the raw text, before a withheld body is described instead.
    const echoes = echoesOf(req, text, headers);
    const response: ProbeResponse = { status: raw.status, headers, ...answer, ...(echoes.length ? { echoes } : {}), ms: Math.round(performance.now() - started) };
    if (options.sanitizer) {
      options.sanitizer.learnValues(secrets, 'served');
      markLearned(options.sanitizer, response);
    }
    return response;
  }

  /** What a request the budget did not cover is: no answer, and nothing judged. */
  const notSent = (probe: Probe, why: string, throttledAnswers: number, attempts: number): Exchange => ({ probe, throttled: throttledAnswers, attempts, failure: { kind: 'budget', message: `not sent: ${why}`, ms: 0 } });

  // One deadline per request, all its attempts together: a target answering 429 slowly cannot
  // stretch a request past --timeout-ms (the pauses between attempts are the pacer's). What a
  // request got back: a response, a failure, and how many answers of 429 came on the way.
  const send = async (probe: Probe): Promise<Exchange> => {
    const credential = credentialOf(probe.request);
    const operation = probe.endpoint.name;
    const spending = probe.cleanup ? 'cleanup' : 'run';
    let throttledAnswers = 0;
    let attempts = 0;
    let spent = 0;
    const givenUp = (message: string, ms: number): Exchange => ({ probe, throttled: throttledAnswers, attempts, failure: { kind: 'throttled', message: `throttled: ${message}`, ms } });
    for (;;) {
      const left = options.timeoutMs - spent;
      // Only 429s can have spent it: each attempt that got no answer at all ends the request.
      if (left <= 0) return givenUp(`no answer but 429 within --timeout-ms (${options.timeoutMs} ms): ${throttledAnswers} attempts, each answered 429 (pauses between them not counted)`, Math.round(spent));
      const spentBefore = budget.spent(spending);
      if (spentBefore !== undefined) return notSent(probe, spentBefore, throttledAnswers, attempts);
      // Waiting for a slot is not the server's time: outside the deadline.
      const deadline = budget.deadline(spending);
      const ticket = await pacer.acquire(credential, deadline, operation, throttledAnswers);
      // The target paused this key past the budget's end: this request cannot go, others still may.
      if (!ticket) return notSent(probe, `the target's pause for its key runs past the end of ${budget.durationFlag}`, throttledAnswers, attempts);
      const refused = budget.take(spending);
      if (refused !== undefined) {
        pacer.settle(ticket);
        return notSent(probe, refused, throttledAnswers, attempts);
      }
      requests++;
      attempts++;
      // The budget's deadline cuts an attempt short too: what it cuts judges nothing.
      const cutAt = Math.min(left, deadline - performance.now());
      const began = performance.now();
      const result = await attempt(probe.request, Math.max(1, cutAt), servesSecret(probe.endpoint), deadline);
      spent += performance.now() - began;
      if ('failure' in result) {
        pacer.settle(ticket);
        if (result.failure.kind === 'timeout' && performance.now() >= deadline - 1) {
          const why = budget.cutAtDeadline(spending);
          return { probe, throttled: throttledAnswers, attempts, failure: { kind: 'budget', message: `cut short: ${why} while it waited for an answer`, ms: result.failure.ms } };
        }
        // A deadline shortened by the 429s before it says nothing of the server's speed: not judged either.
        if (result.failure.kind === 'timeout' && throttledAnswers > 0) {
          return givenUp(`no answer within the ${Math.round(left)} ms of --timeout-ms (${options.timeoutMs} ms) left after ${throttledAnswers} answers of 429`, result.failure.ms);
        }
        return { probe, failure: result.failure, throttled: throttledAnswers, attempts };
      }
      const throttle = pacer.observe(ticket, result.response.status, result.response.headers);
      if (!throttle) return { probe, response: result.response, throttled: throttledAnswers, attempts };
      throttled++;
      throttledAnswers++;
      const ms = result.response.ms;
      if (!throttle.retry) return givenUp(throttle.why, ms);
      if (throttledAnswers > maxRetries) {
        const retryAfter = result.response.headers['retry-after'];
        const how = retryAfter === undefined ? 'paced without a Retry-After' : `Retry-After: ${clip(retryAfter, 40)} honoured`;
        return givenUp(`HTTP 429 still, after ${maxRetries} retries of this request (${how})`, ms);
      }
      // A lone 429 slows nothing else: this request alone waits before it goes again (outside its deadline).
      if (throttle.afterMs) await sleep(Math.max(0, Math.min(throttle.afterMs, budget.deadline(spending) - performance.now())));
    }
  };
  return Object.assign(send, {
    stats: (): TransportStats => ({ requests, throttled, waitedMs: Math.round(pacer.stats.pausedMs), runner: waiting.stats() }),
    pacing: () => pacer.stats,
    readyIn: (probe: Probe) => pacer.readyIn(credentialOf(probe.request), probe.endpoint.name),
    // Destroyed, not closed: what is still waiting (a connection a target never completes, held
    // up to undici's hang guard) is abandoned with the run, and keeps the command up no longer.
    close: () => {
      if (!closed) delay.release();
      closed = true;
      return dispatcher.destroy().catch(() => undefined);
    },
  });
}

/**
 * The body as text: UTF-8, lossy; a content-encoded body (which the suite never asked for) is
 * described by its length and a keyed hash, never shown: its bytes are no text, and a report
 * full of them says nothing (they were read for secrets already: sanitize/held-body.ts).
 */
function bodyText(bytes: Buffer, cut: boolean, encoding: string | undefined): string {
  if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return bytes.toString('utf8');
  return `[${bytes.length} bytes${cut ? ', cut at the size cap,' : ''} of ${clip(encoding.trim(), 40)}-encoded data, not decoded; keyed hash ${keyedHash(bytes)}]`;
}

/** An attempt whose stream does not end even once aborted at its deadline is settled this much later. */
const STUCK_GRACE_MS = 2_000;

/** An attempt's deadline, stretched by this process's own stalls, ends at this many times itself in all. */
const MAX_STRETCH = 4;

/** A deadline this process slept through: what the target was given, and why that judges nothing. */
const stalledFailure = (waitedMs: number, ranMs: number): TransportFailure => ({
  kind: 'runner',
  message: `this process itself could not run for ${Math.round(waitedMs - ranMs)} of the ${Math.round(waitedMs)} ms it waited for an answer (its event loop held, or the machine busy): the answer may have come while it could not read it`,
  ms: Math.round(waitedMs),
});

/**
 * A body's bytes up to a cap, in one buffer: a body that comes in many small chunks (chunked
 * encoding cut fine: one byte each) is copied as it comes, never kept as a million buffers each
 * holding on to the socket's read buffer; one that comes in one chunk is kept as it is.
 */
class BodyBytes {
  readonly #cap: number;
  #first: Buffer | undefined;
  #buffer: Buffer | undefined;
  #size = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** Adds what fits under the cap; false when the chunk went past it (the rest is dropped). */
  add(chunk: Buffer): boolean {
    const fits = chunk.length <= this.#cap - this.#size;
    const part = fits ? chunk : chunk.subarray(0, this.#cap - this.#size);
    if (this.#size === 0 && !this.#buffer) this.#first = part;
    else {
      if (!this.#buffer) {
        this.#buffer = Buffer.allocUnsafe(Math.min(this.#cap, Math.max(16 * 1024, 2 * (this.#size + part.length))));
        if (this.#first) this.#first.copy(this.#buffer);
        this.#first = undefined;
      } else if (this.#size + part.length > this.#buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(this.#cap, Math.max(2 * this.#buffer.length, this.#size + part.length)));
        this.#buffer.copy(grown, 0, 0, this.#size);
        this.#buffer = grown;
      }
      part.copy(this.#buffer, this.#size);
    }
    this.#size += part.length;
    return fits;
  }

  bytes(): Buffer {
    return this.#buffer ? this.#buffer.subarray(0, this.#size) : (this.#first ?? Buffer.alloc(0));
  }
}

/** An answer as it came off the wire: status, headers, and its body up to the cap. */
interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly bytes: Buffer;
  /** The body went on past the cap: the rest was dropped with the connection. */
  readonly cut: boolean;
}

/** An answer that broke off: the error, and what had come of it. */
interface BrokenAnswer {
  readonly error: unknown;
  readonly headers: RawAnswer['headers'];
  readonly bytes: Buffer;
}

/**
 * undici's lowest-level handler for one request: the status, the headers, and the body's chunks
 * up to `cap` straight from the parser (no stream, no abort signal: what `request()` builds
 * around them cost the suite a fifth of its time per answer). `done` hears once: the answer, or
 * the error that ended it. Past the cap, the answer is done, cut, and the connection dropped.
 */
function receive(req: ProbeRequest, cap: number, done: (answer: RawAnswer | BrokenAnswer) => void) {
  let controller: Dispatcher.DispatchController | undefined;
  let abortWanted = false;
  let ended = false;
  let status = 0;
  let headers: RawAnswer['headers'] = {};
  const body = new BodyBytes(cap);
  const end = (answer: RawAnswer | BrokenAnswer) => {
    if (ended) return;
    ended = true;
    done(answer);
  };
  const finish = (cut: boolean) => end({ status, headers, bytes: body.bytes(), cut });
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(c) {
      controller = c;
      if (abortWanted) c.abort(new Error(`aborted at its deadline: ${req.method} ${req.url}`));
    },
    onResponseStart(_c, statusCode, responseHeaders) {
      status = statusCode;
      headers = responseHeaders;
    },
    onResponseData(c, chunk) {
      if (ended) return;
      if (body.add(chunk)) return;
      finish(true);
      c.abort(new Error('the answer passed the size cap'));
    },
    onResponseEnd() {
      finish(false);
    },
    onResponseError(_c, error) {
      end({ error, headers, bytes: body.bytes() });
    },
  };
  return {
    handler,
    /** Ends the request where it stands (the deadline): its error settles it. False when it had not started (no connection yet). */
    abort(): boolean {
      abortWanted = true;
      controller?.abort(new Error(`aborted at its deadline: ${req.method} ${req.url}`));
      return controller !== undefined;
    },
    fail: (error: unknown) => end({ error, headers, bytes: body.bytes() }),
  };
}

/** undici's headers with lowercased names; repeated headers joined as HTTP would (`, `). */
export function flattenHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
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

/** What undici's refusal of a request means, where its message names a header (`invalid foo header`, `invalid header key`). */
function refusalReason(detail: string): string {
  if (detail === 'invalid header key') return ': a header name holds a character HTTP does not allow in names';
  // Headers the client sets itself (framing, connection management) are refused whatever they hold.
  if (/^invalid (transfer-encoding|keep-alive|upgrade) header$/.test(detail)) return ': the HTTP client sets this header itself';
  if (/^invalid .+ header$/.test(detail)) return ': a header value holds a character HTTP cannot carry';
  return '';
}

/** Names what went wrong, in words a report reader understands without undici's source. */
export function classify(error: unknown, timedOut: boolean, timeoutMs: number, ms: number): TransportFailure {
  const code = codeOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms`, ms };
  }
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: `connection refused (${detail})`, ms };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') {
    return { kind: 'reset', message: `connection closed before a complete answer (${code}: ${detail})`, ms };
  }
  // This side shut its HTTP client (a run or proxy stopping), not the target: no 'reset' to blame on it.
  if (code === 'UND_ERR_DESTROYED') return { kind: 'other', message: `the connection was closed on this side before the answer was complete (the run or the proxy was stopping; ${code})`, ms };
  if (code === 'UND_ERR_CLOSED') return { kind: 'other', message: `the request was not sent: the HTTP client on this side was already shut down (the run or the proxy was stopping; ${code})`, ms };
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
  if (code === 'UND_ERR_INVALID_ARG') return { kind: 'other', message: `the HTTP client refused to send the request (${detail})${refusalReason(detail)}`, ms };
  // Our words first: a reader of the report need not know undici's codes; the code is kept to search for.
  return { kind: 'other', message: `the request failed: ${detail}${code ? ` (${code})` : ''}`, ms };
}
