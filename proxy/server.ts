/**
 * The validating proxy's HTTP side: forwards every request to the target and every answer back,
 * streamed and unchanged (only `Host` names the target, and hop-by-hop headers are the
 * connection's own), keeping up to `capBytes` of each body to judge once the answer is complete.
 * With `annotate`, an answer is held until it is judged (up to the cap; a longer one streams on
 * unannotated), so its `X-Contract-Problem` header can say what was wrong. A target that does not
 * answer gets the client a 502 (or 504 past `timeoutMs`) in the document's error body shape: the
 * proxy's own, said so in its message.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { api } from '../spec/api.ts';
import { classify, flattenHeaders } from '../conformance/http.ts';
import { listen } from '../mock/listen.ts';
import type { SeenRequest, SeenResponse } from './judge.ts';
import { isCoded, learnHeldBody, StreamLearner } from '../sanitize/held-body.ts';
import type { Origin, Sanitizer } from '../sanitize/sanitizer.ts';

export interface ProxyOptions {
  /** The target's base URL, ending in the document's base path (`https://api.example.com/v2`). */
  readonly target: URL;
  readonly host?: string;
  /** 0: any free port. */
  readonly port?: number;
  /** Bytes of each body kept to judge; past it the body is forwarded whole and not judged. */
  readonly capBytes: number;
  /** No answer's headers within this long: 504 to the client. */
  readonly timeoutMs: number;
  /** Add `X-Contract-Problem` to answers with a problem (the one change to traffic, and only when asked). */
  readonly annotate?: (request: SeenRequest, response: SeenResponse) => string | undefined;
  /**
   * Called as a request's head arrives, before any of it is forwarded or anything printed: where
   * the caller learns the credentials it carries.
   */
  readonly onRequestHead?: (request: { readonly method: string; readonly url: string; readonly headers: IncomingHttpHeaders }) => void;
  /**
   * Learns the secret field values of every body as it passes, before it is judged or anything
   * is printed of it: all of a plain body (past the cap too, as it streams), a coded one within
   * the cap, and what came of one that broke off (sanitize/held-body.ts).
   */
  readonly sanitizer?: Sanitizer;
  /** Each exchange once complete: the answer, or why there was none. */
  readonly onExchange: (request: SeenRequest, outcome: SeenResponse | { readonly failure: string }, ms: number) => void;
}

export interface RunningProxy {
  /** The proxy's base URL: its origin and the document's base path, as a client is configured with it. */
  readonly url: string;
  /** Stops accepting, lets exchanges in flight finish for up to `graceMs`, then cuts the rest. */
  close(graceMs?: number): Promise<void>;
  /** Exchanges begun and not yet ended. */
  readonly inFlight: () => number;
}

/**
 * The connection's own headers (RFC 9110 §7.6.1), never forwarded; and `expect`, which this hop
 * has answered already (Node sends the client its 100 Continue).
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);

export const PROBLEM_HEADER = 'x-contract-problem';

/**
 * Keeps the first `cap` bytes of a stream that passes through (`tooLarge` once more came), and,
 * with a sanitizer, reads it for secrets: a plain stream all of it as it passes, a coded one the
 * head it keeps (within the cap, as it decodes). Every capture in flight is read as far as it has
 * come before the proxy prints or adds anything (`learnSoFar`): another exchange's answer may
 * echo what this one holds.
 */
class Capture {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  tooLarge = false;
  readonly #coded: boolean;
  readonly #stream: StreamLearner | undefined;
  #learned = false;
  /** Bytes came since it was last read. */
  #fresh = false;

  constructor(
    private readonly cap: number,
    private readonly sanitizer: Sanitizer | undefined,
    private readonly origin: Origin,
    private readonly contentEncoding: string | undefined,
    private readonly inFlight: Set<Capture>,
  ) {
    this.#coded = isCoded(contentEncoding);
    this.#stream = sanitizer && !this.#coded ? new StreamLearner(sanitizer, STREAM_WINDOW, STREAM_OVERLAP, origin) : undefined;
    if (sanitizer) inFlight.add(this);
  }

  add(chunk: Buffer): void {
    this.#stream?.add(chunk);
    this.#fresh = true;
    if (this.tooLarge) return;
    const room = this.cap - this.#size;
    if (chunk.length > room) {
      this.tooLarge = true;
      // A plain body not judged is not kept (the stream reads it); a coded one keeps its head, to decode for secrets.
      if (!this.#coded) {
        this.#chunks.length = 0;
        this.#size = 0;
        return;
      }
      chunk = chunk.subarray(0, room);
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  /** Reads what has come so far for secrets, the stream still going (a value it ends inside is a head). */
  learnSoFar(): void {
    if (this.#learned || !this.#fresh || !this.sanitizer) return;
    this.#fresh = false;
    if (this.#stream) this.#stream.peek();
    else learnHeldBody(this.sanitizer, { bytes: this.bytes, contentEncoding: this.contentEncoding, cut: true }, this.cap, this.origin, true);
  }

  /** Reads what passed for secrets, once: at the stream's end, or where it broke off (`cut`). */
  learn(cut: boolean): void {
    if (this.#learned || !this.sanitizer) return;
    this.#learned = true;
    this.inFlight.delete(this);
    if (this.#stream) this.#stream.end(cut);
    else learnHeldBody(this.sanitizer, { bytes: this.bytes, contentEncoding: this.contentEncoding, cut: cut || this.tooLarge }, this.cap, this.origin);
  }

  /** The bytes kept: the whole body; the head of a coded one when `tooLarge`. */
  get bytes(): Buffer {
    return Buffer.concat(this.#chunks, this.#size);
  }
}

/** A plain body is read for secrets in windows this large, each starting with the last STREAM_OVERLAP bytes of the one before. */
const STREAM_WINDOW = 256 * 1024;
const STREAM_OVERLAP = 64 * 1024;

/** Headers to pass on: the connection's own taken out; `host` the target's, on a request. */
function forwardedHeaders(headers: IncomingHttpHeaders, host: string | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = headers.connection === undefined ? undefined : new Set(String(headers.connection).toLowerCase().split(',').map((n) => n.trim()));
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !named?.has(name) && name !== 'host') out[name] = value;
  if (host !== undefined) out.host = host;
  return out;
}

/** How long a stop lets exchanges in flight end. */
export const CLOSE_GRACE_MS = 2_000;

/** Why an exchange in flight when the proxy stopped has no answer. */
export const STOPPED = 'the proxy stopped before the answer was complete';

const oneHeader = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/** The document's error body, in the proxy's own words. */
function proxyError(res: ServerResponse, status: 502 | 504, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ message: `proxy: ${message}`, status });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const { target } = options;
  // The target's root: its path without the base path, which every forwarded path starts again.
  const root = `${target.origin}${target.pathname.replace(/\/+$/, '').slice(0, -api.basePath.length)}`;
  const dispatcher = new Agent({ headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connect: { timeout: options.timeoutMs } });

  /** Set once the proxy stops: an exchange it cuts off then failed for that, in its own words. */
  let stopping = false;
  let inFlight = 0;
  /** Bodies still passing: each is read as far as it has come before anything is printed or added. */
  const capturing = new Set<Capture>();
  const readInFlight = () => {
    for (const capture of capturing) capture.learnSoFar();
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const url = req.url ?? '/';
    // Before anything of it is forwarded or printed: another client's answer may echo it at any moment.
    options.onRequestHead?.({ method: req.method ?? 'GET', url, headers: req.headers });
    const sent = new Capture(options.capBytes, options.sanitizer, 'sent', oneHeader(req.headers['content-encoding']), capturing);
    // Made once the request is complete, then the same object for `annotate` and `onExchange`.
    let seen: SeenRequest | undefined;
    // A body is whatever the client sends (a GET may carry one), kept up to the cap as it passes.
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    // A target may answer before it has read the body: what it did not read is not judged.
    let bodyRead = false;
    const seenRequest = (): SeenRequest => (seen ??= { method: req.method ?? 'GET', url, headers: req.headers, body: sent.bytes, tooLarge: sent.tooLarge, ...(hasBody && !bodyRead ? { unread: true } : {}) });
    let done = false;
    let answerCapture: Capture | undefined;
    inFlight++;
    const finish = (outcome: SeenResponse | { failure: string }) => {
      if (done) return;
      done = true;
      inFlight--;
      // An answer cut off (the client gone, the proxy stopping) is read as far as it came.
      answerCapture?.learn(true);
      readInFlight();
      sent.learn(!bodyRead);
      options.onExchange(seenRequest(), outcome, Math.round(performance.now() - started));
    };
    const abort = new AbortController();
    // The client went away (or the proxy, stopping, cut it off): so does its request to the target.
    res.on('close', () => {
      if (res.writableFinished) return;
      abort.abort();
      finish({ failure: stopping ? STOPPED : 'the client closed the connection before the answer was complete' });
    });
    const body = hasBody
      ? Readable.from(
          (async function* () {
            try {
              for await (const chunk of req as AsyncIterable<Buffer>) {
                sent.add(chunk);
                yield chunk;
              }
              bodyRead = true;
            } finally {
              sent.learn(!bodyRead);
            }
          })(),
          { objectMode: false },
        )
      : undefined;
    let answer: Dispatcher.ResponseData;
    try {
      // The request target as the client wrote it, byte for byte: a URL parser would resolve dot
      // segments and turn `\` into `/`, and the target would get a path other than the one judged.
      answer = await dispatcher.request({
        origin: target.origin,
        path: `${rootPath}${url.startsWith('/') ? url : `/${url}`}`,
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers: forwardedHeaders(req.headers, target.host),
        body: body ?? null,
        signal: abort.signal,
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      if (stopping) {
        proxyError(res, 502, STOPPED);
        return finish({ failure: STOPPED });
      }
      const failure = classify(error, false, options.timeoutMs, Math.round(performance.now() - started));
      proxyError(res, failure.kind === 'timeout' ? 504 : 502, `the target did not answer: ${failure.message}`);
      finish({ failure: failure.message });
      return;
    }
    const got = (answerCapture = new Capture(options.capBytes, options.sanitizer, 'served', oneHeader(answer.headers['content-encoding']), capturing));
    const status = answer.statusCode;
    const headers = forwardedHeaders(answer.headers as IncomingHttpHeaders, undefined);
    let kept: SeenResponse | undefined;
    const seenResponse = (): SeenResponse => (kept ??= { status, headers: flattenHeaders(answer.headers), body: got.bytes, tooLarge: got.tooLarge });
    // The target broke off its answer: the client's connection is broken off too, as the target's was.
    answer.body.on('error', (error) => {
      got.learn(true);
      res.destroy();
      finish({ failure: stopping ? STOPPED : `the answer broke off: ${classify(error, false, options.timeoutMs, Math.round(performance.now() - started)).message}` });
    });
    if (!options.annotate) {
      // Piped as it comes; judged once all of it has gone to the client (a stop then cuts nothing).
      res.writeHead(status, headers);
      answer.body.on('data', (chunk: Buffer) => got.add(chunk));
      answer.body.pipe(res);
      res.on('finish', () => {
        got.learn(false);
        finish(seenResponse());
      });
      return;
    }
    // Held until judged, as long as it stays within the cap; past it, streamed on as it is.
    const held: Buffer[] = [];
    let streaming = false;
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        got.add(chunk);
        if (!streaming) {
          held.push(chunk);
          if (!got.tooLarge) continue;
          streaming = true;
          res.writeHead(status, headers);
          for (const c of held.splice(0)) res.write(c);
        } else if (!res.write(chunk)) await once(res, 'drain');
      }
    } catch {
      return; // the 'error' listener above has said so
    }
    // Read for secrets before the note is made of it, or anything printed.
    got.learn(false);
    sent.learn(!bodyRead);
    if (!streaming) {
      readInFlight();
      const note = options.annotate(seenRequest(), seenResponse());
      res.writeHead(status, note ? { ...headers, [PROBLEM_HEADER]: note } : headers);
      for (const c of held) res.write(c);
    }
    res.end(() => finish(seenResponse()));
  };
  const rootPath = root.slice(target.origin.length);

  const server: Server = createServer((req, res) => {
    res.sendDate = false; // a Date header is the target's to send, or not
    void handle(req, res);
  });
  // A client that never finishes its request is the client's to time out, but not for ever.
  server.requestTimeout = Math.max(options.timeoutMs * 2, 60_000);
  const url = await listen(server, options.port, options.host);
  return {
    url,
    inFlight: () => inFlight,
    close: async (graceMs = CLOSE_GRACE_MS) => {
      stopping = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), graceMs).unref();
      });
      await dispatcher.destroy();
    },
  };
}
