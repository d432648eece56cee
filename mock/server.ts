/**
 * The mock over HTTP: reads bodies with a size cap, runs the pipeline, writes JSON. A request
 * the pipeline cannot answer (a mock bug) gets a 500 error body and a log line, never a crash.
 * Requests Node's HTTP layer would answer itself (unparsable, CONNECT, odd `Expect`, no `Host`)
 * get the document's error body too: every answer of the mock is JSON.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fieldSecret, keySecret, Sanitizer, type Secret } from '../sanitize/sanitizer.ts';
import { createApp, type MockRequest, type MockResponse } from './app.ts';
import { HttpError, renderError } from './errors.ts';
import { MAX_BODY_BYTES, type UnmarkedFields } from './policy.ts';
import { pathOnly, requestEntry, RequestLog, type LogEntry, type LogFormat } from './request-log.ts';
import { Store } from './store.ts';
import { withRateLimit, type RateLimit } from './rate-limit.ts';
import type { Hooks, Variant } from './variant.ts';
import { variantNamed } from './variants/index.ts';
import { layoutNamed, type Layout } from './layouts.ts';
import { listen } from './listen.ts';
import { seedCompanies } from './fixtures.ts';

export interface MockOptions {
  readonly host?: string;
  /** 0 picks any free port. */
  readonly port?: number;
  /** Called once per request with a line that holds no secret. */
  readonly log?: (line: string) => void;
  /** `text` (default): one readable line per request; `json`: one JSON object per line. */
  readonly logFormat?: LogFormat;
  /** Secrets the log hides beyond the fixtures' (the command line's and the environment's keys): one sanitizer holds both. */
  readonly sanitizer?: Sanitizer;
  readonly store?: Store;
  /** How many acknowledged operations a new store keeps (default MAX_KEPT_OPERATIONS); not with `store`. */
  readonly maxOperations?: number;
  /** A variant of the catalogue (mock/variants/), by name or value; none for the reference mock. */
  readonly variant?: string | Variant;
  /** A layout of data and timing (mock/layouts.ts), by name or value; default the variant's, else the reference fixtures. */
  readonly layout?: string | Layout;
  /** Whether actions may omit body fields the document does not mark (policy.ts); default `optional`, with a warning. */
  readonly unmarkedFields?: UnmarkedFields;
  /** A token bucket per key in front of every endpoint (mock/rate-limit.ts); default the variant's, else none. */
  readonly rateLimit?: RateLimit;
  /** How long an idle keep-alive connection stays open (default 5 s, Node's own). */
  readonly keepAliveTimeoutMs?: number;
}

/** What a client needs to talk to the mock: both tenants' keys and starting points. */
export interface MockFixtures {
  readonly apiKey: string;
  readonly companyId: string;
  readonly siteId: string;
  readonly otherApiKey: string;
  readonly otherCompanyId: string;
  readonly otherSiteId: string;
}

export interface RunningMock {
  /** Base URL, ending in `/v2`. */
  readonly url: string;
  readonly fixtures: MockFixtures;
  /**
   * The mock's state. Change it through its methods, or call `store.changed()` after setting a
   * field yourself: the mock answers a repeated read from what it serialised until the store changes.
   */
  readonly store: Store;
  close(): Promise<void>;
}

/** A request's body as read; `tooLarge` when it passed MAX_BODY_BYTES and was not kept. */
interface ReadBody {
  readonly body: Buffer;
  readonly tooLarge: boolean;
}

const TOO_LARGE: ReadBody = { body: Buffer.alloc(0), tooLarge: true };

/** `done`, which runs the first time only. */
function onlyOnce<T>(done: (value: T) => void): (value: T) => void {
  let called = false;
  return (value) => {
    if (called) return;
    called = true;
    done(value);
  };
}

/**
 * Calls `done` with the body, or undefined when the client went away before sending all of it (nothing to act on).
 * Reading stops at MAX_BODY_BYTES: a body declared longer is not read at all, one streamed past
 * the cap (chunked, without end) is left where it stops; the answer then closes the connection
 * (`closeAfterAnswer`). Draining it instead would let one client keep the mock reading forever.
 */
function readBody(req: IncomingMessage, done: (read: ReadBody | undefined) => void): void {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return done(TOO_LARGE);
  // Callbacks, not a promise, and no named closure: this runs once per request with a body.
  const chunks: Buffer[] = [];
  let size = 0;
  const settle = onlyOnce(done);
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
    req.removeAllListeners('data');
    req.pause();
    settle(TOO_LARGE);
  });
  req.on('end', () => settle({ body: Buffer.concat(chunks), tooLarge: false }));
  req.on('error', () => settle(undefined));
  req.on('close', () => settle(undefined)); // after 'end' or the cap this is a no-op
}

/**
 * For a request whose body was not read to its end: the answer says `Connection: close`, and once
 * it is flushed the socket is destroyed, so the client cannot keep streaming the rest.
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  res.setHeader('connection', 'close');
  res.once('finish', () => socket.end(() => socket.destroy()));
}

function send(res: ServerResponse, response: MockResponse): void {
  const text = response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  res.writeHead(response.status, headers);
  res.end(text);
}

export function fixturesOf(store: Store): MockFixtures {
  const [a, b] = store.companies;
  if (!a || !b) throw new Error('the mock needs two companies');
  return {
    apiKey: a.apiKey,
    companyId: a.id,
    siteId: a.sites[0]!.id,
    otherApiKey: b.apiKey,
    otherCompanyId: b.id,
    otherSiteId: b.sites[0]!.id,
  };
}

type App = (request: MockRequest) => MockResponse;
/** What the server logs: a request answered, or a note (a mock bug, an aborted or unparsable request). */
type Log = (entry: LogEntry | string) => void;

/** Runs the pipeline; a throw is a mock bug, answered 500 and logged, never a crash. */
function answer(app: App, log: Log | undefined, request: MockRequest): MockResponse {
  try {
    return app(request);
  } catch (error) {
    log?.(`mock error on ${request.method} ${pathOnly(request.url)}: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 500, body: renderError(new HttpError(500)) };
  }
}

/** RFC 9112 §6.3: a request without Content-Length or Transfer-Encoding has no body. */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

const NO_BODY: ReadBody = { body: Buffer.alloc(0), tooLarge: false };

/**
 * Wraps the pipeline for node:http; exported so variants of the mock can reuse it. A request
 * without a body is answered at once (most reads: no stream to wait on); without `log`, no log
 * line is even built. Both only for speed: the answers are the same.
 */
export function createHandler(app: App, log?: Log, wire?: Hooks['wire']) {
  const respond = (req: IncomingMessage, res: ServerResponse, read: ReadBody, started: number) => {
    const request: MockRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, ...read };
    if (read.tooLarge) closeAfterAnswer(req, res);
    const response = answer(app, log, request);
    if (!wire?.(res, response, request)) send(res, response);
    log?.(requestEntry(request, response, performance.now() - started));
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = log ? performance.now() : 0;
    if (!hasBody(req)) return respond(req, res, NO_BODY, started);
    readBody(req, (read) => {
      if (!read) return log?.(`${req.method} ${pathOnly(req.url)} aborted by the client`);
      respond(req, res, read, started);
    });
  };
}

/** The latest response of each connection: HTTP/1.1 answers in order, so when it is done, all are. */
const latestResponse = new WeakMap<Duplex, ServerResponse>();
/** Connections already refused as unparsable: Node reports the parse error again for every later chunk. */
const refused = new WeakSet<Duplex>();

/**
 * A whole response written on a socket Node's HTTP layer has let go of; the connection ends with
 * it. `headOnly` for a HEAD request: the headers of the answer, no body (RFC 9110 §9.3.2).
 */
function sendRaw(socket: Duplex, response: MockResponse, headOnly = false): void {
  if (!socket.writable) return void socket.destroy();
  const text = JSON.stringify(response.body);
  const head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n`;
  socket.end(headOnly ? head : head + text, () => socket.destroy());
}

/**
 * Runs `then` once every complete request of the connection has its answer written, so a
 * malformed request pipelined behind good ones is answered after them. (Node's own handler
 * answers at once: the client of a good request reads the 400, though its action ran.)
 */
function afterPendingResponses(socket: Duplex, then: () => void): void {
  const latest = latestResponse.get(socket);
  if (!latest || latest.writableFinished || !latest.req.complete) return then();
  latest.once('close', then);
}

/** Whether the unparsable request is a HEAD: the one whose body broke off, or the first of its connection. */
function isHeadRequest(socket: Duplex, error: Error & { rawPacket?: Buffer }): boolean {
  const latest = latestResponse.get(socket);
  if (latest) return !latest.req.complete && latest.req.method === 'HEAD';
  return error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/**
 * The mock's HTTP server. Beyond `createHandler` it takes over what Node would answer on its
 * own with an empty or non-JSON body: unparsable requests (Node: bare 400/431/408), CONNECT
 * (Node: connection dropped), an `Expect` other than 100-continue (Node: 417) and HTTP/1.1
 * without `Host` (Node: 400). Exported so variants of the mock can reuse it.
 */
export function createMockServer(app: App, log?: Log, wire?: Hooks['wire']): Server {
  const handler = createHandler(app, log, wire);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    latestResponse.set(req.socket, res);
    handler(req, res);
  };
  const server = createServer({ requireHostHeader: false }, handle);
  server.keepAliveTimeout = 5_000;
  // RFC 9110 §10.1.1: a server MAY answer an unknown expectation with 417; the mock just answers the request.
  server.on('checkExpectation', handle);
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const response = answer(app, log, { method: req.method ?? 'CONNECT', url: req.url ?? '/', headers: req.headers, body: Buffer.alloc(0) });
    sendRaw(socket, response);
    log?.({ method: req.method ?? 'CONNECT', path: pathOnly(req.url), status: response.status });
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    log?.(`unparsable request: ${error.code ?? error.message}`); // never the raw packet: it may hold a key
    const body = renderError(new HttpError(400, `Bad request format: the request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`));
    const headOnly = isHeadRequest(socket, error);
    afterPendingResponses(socket, () => sendRaw(socket, { status: 400, body }, headOnly));
  });
  return server;
}

/**
 * The secrets of the fixtures: each company's key, named as the conformance suite names the two
 * it uses, and each environment's SFTP password.
 */
function fixtureSecrets(store: Store): Secret[] {
  const keys = store.companies.map((c, i) => keySecret(c.apiKey, i ? 'HSC_OTHER_API_KEY' : 'HSC_API_KEY'));
  const environments = store.companies.flatMap((c) => c.sites.flatMap((s) => s.environments));
  return [...keys, ...environments.map((e) => fieldSecret(e.sftpPassword, 'sftp_password'))];
}

/**
 * Log lines hold no header and no query; bodies only as JSON, secret fields' values redacted;
 * every part a client chose passes one sanitizer that holds the fixtures' secrets and the
 * process's (`MockOptions.sanitizer`), so a secret a client sends (in any form it knows) leaves
 * none in the log.
 */
function sanitizedLog(store: Store, log: (line: string) => void, format: LogFormat, outer?: Sanitizer): Log {
  const sanitizer = outer ? outer.with(fixtureSecrets(store)) : new Sanitizer(fixtureSecrets(store));
  const lines = new RequestLog(sanitizer, format);
  return (entry) => log(lines.line(entry));
}

function storeFor(options: MockOptions, layout: Layout | undefined): Store {
  if (options.store && (options.maxOperations !== undefined || layout?.arrange)) throw new Error('maxOperations and layouts apply to a new store; arrange the Store passed instead');
  if (options.store) return options.store;
  const companies = [...seedCompanies()];
  layout?.arrange?.(companies);
  return new Store({ companies, maxOperations: options.maxOperations });
}

/**
 * Starts the reference mock on `options.host` (default 127.0.0.1) and `options.port` (0: any free
 * port): two companies of fixtures (keys, sites, environments; `fixtures`), every endpoint of the
 * document under `url` (ending in `/v2`). Close it with `close()`. A `variant` or `layout` serves
 * one entry of the catalogue instead (see `hosted-site-contract self-test --list`).
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const variant = typeof options.variant === 'string' ? variantNamed(options.variant) : options.variant;
  const chosen = options.layout ?? variant?.layout;
  const layout = typeof chosen === 'string' ? layoutNamed(chosen) : chosen;
  const store = storeFor(options, layout);
  const hooks = variant?.hooks ?? {};
  const pipeline = createApp(store, hooks, {
    ...(layout?.effectDelayMs ? { effectDelayMs: layout.effectDelayMs } : {}),
    ...(options.unmarkedFields ? { unmarkedFields: options.unmarkedFields } : {}),
  });
  const rateLimit = options.rateLimit ?? variant?.rateLimit;
  const app = rateLimit ? withRateLimit(pipeline, rateLimit) : pipeline;
  const server = createMockServer(app, options.log && sanitizedLog(store, options.log, options.logFormat ?? 'text', options.sanitizer), hooks.wire);
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  const url = await listen(server, options.port, options.host);
  return {
    url,
    fixtures: fixturesOf(store),
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
