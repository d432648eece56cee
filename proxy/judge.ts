/**
 * One exchange that passed through the proxy, judged on both sides. The client's side is the
 * mock's own judgement of a request (mock/client-request.ts), so the two say the same thing in
 * the same words. The server's side is every check of the suite that needs no request of its own
 * (conformance/checks: status set, error body, content type, schema, acknowledgement, operation
 * ids) and the 401 wording: the checks themselves, given the client's request as an `observe`
 * probe; and no 5xx to a request without a problem on the client's side.
 */
import { readAnswer } from '../conformance/body.ts';
import { flattenHeaders } from '../conformance/http.ts';
import { checks } from '../conformance/checks/index.ts';
import { messageMeaning } from '../conformance/checks/auth.ts';
import type { CheckContext, Exchange, Probe, ProbeRequest, ProbeResponse } from '../conformance/types.ts';
import { judgeClientRequest, type ClientRule, type MockRequest } from '../mock/client-request.ts';
import { decodeBounded, isCoded } from '../sanitize/held-body.ts';
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import type { Endpoint } from '../spec/model.ts';
import { operation, servesSecret } from '../spec/queries.ts';

export type Side = 'client' | 'server';

/** A problem of one exchange: whose it is, the rule, where, and why in plain words. */
export interface ExchangeProblem {
  readonly side: Side;
  readonly rule: ClientRule;
  readonly severity: 'error' | 'warning';
  /** Where in the request (client side): a body pointer, `?query`, `{path id}`, a header. */
  readonly at?: string;
  /** One line. */
  readonly reason: string;
}

/** What the proxy saw of a request, as the client sent it (path and query relative to the proxy). */
export interface SeenRequest {
  readonly method: string;
  /** Path and query as sent: `/v2/sites/…?x=1`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The bytes kept for judging; `tooLarge` when the body passed the cap (forwarded whole, not judged). */
  readonly body: Buffer;
  readonly tooLarge: boolean;
  /** The target answered before the body was all read: the body is not judged. */
  readonly unread?: boolean;
}

/** What the proxy saw of the answer. */
export interface SeenResponse {
  readonly status: number;
  /** Lowercased names, repeated headers joined. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly tooLarge: boolean;
}

export interface JudgedExchange {
  /** The endpoint the request is for, as the document writes it; undefined for a path it does not list. */
  readonly endpoint?: Endpoint;
  readonly problems: readonly ExchangeProblem[];
  /** What was not judged, and why (a body past `--max-body-kb`, a 429, …). */
  readonly unjudged: readonly Unjudged[];
}

export interface JudgeOptions {
  /** `--strict`: the per-endpoint tables to the letter, as `conform --strict`. */
  readonly strict: boolean;
  /** Learns the secret values each request and answer carry, before any text is made of them. */
  readonly sanitizer: Sanitizer;
  /** The cap bodies were kept to, for the words of a body too large to judge. */
  readonly capBytes: number;
}

/**
 * The checks that judge any exchange: those that need no probe of their own. NO-SERVER-ERROR
 * judges the suite's valid requests, whose data it knows exists: here, `judgeExchange` says it.
 */
const universal = checks.filter((c) => !c.ownProbesOnly && c.rule !== 'NO-SERVER-ERROR');

/** Why a side of an exchange was not judged: each said in the report, counted by kind. */
export type NotJudged = 'too-large' | 'unread' | 'throttled' | 'encoded' | 'method' | 'not-modified' | 'target';

export interface Unjudged {
  readonly kind: NotJudged;
  readonly why: string;
}

/**
 * A request target a URL parser would rewrite: a `.` or `..` segment (percent-encoded too), a
 * back-slash, a leading `//` (read as a host), or no leading `/` at all (absolute-form
 * `http://host/…`, asterisk-form `*`: forwarded under the target's root as written).
 */
const NOT_NORMAL = /\\|(^|\/)(\.|%2e){1,2}(\/|$)|^\/\/|^[^/]/i;

/** Methods the document defines for no endpoint and clients send for their own ends (HEAD; CORS preflights): not judged. */
const UNDEFINED_METHODS = new Set(['HEAD', 'OPTIONS']);

export function judgeExchange(request: SeenRequest, response: SeenResponse | undefined, options: JudgeOptions): JudgedExchange {
  const unjudged: Unjudged[] = [];
  const cap = `--max-body-kb (${options.capBytes / 1024} KiB)`;
  if (UNDEFINED_METHODS.has(request.method.toUpperCase())) {
    unjudged.push({ kind: 'method', why: `${request.method.toUpperCase()}: the document defines no endpoint for it, so neither side is judged` });
    return { problems: [], unjudged };
  }
  // Forwarded as written; what a server makes of dot segments or back-slashes is its own (a URL
  // parser would resolve them): the proxy cannot say which endpoint it reached, so judges neither side.
  if (NOT_NORMAL.test(request.url.split('?')[0]!)) {
    unjudged.push({ kind: 'target', why: 'the request target is not a plain path (dot segments, back-slashes, a leading `//`, or not beginning with `/`): forwarded as written, and since servers read it differently, neither side is judged' });
    return { problems: [], unjudged };
  }
  // A body past the cap, or one the target answered before reading, is not judged: only the rest of the request is.
  const bodyJudged = !request.tooLarge && !request.unread;
  if (request.tooLarge) unjudged.push({ kind: 'too-large', why: `the request body is past ${cap}: forwarded, too large to judge` });
  else if (request.unread) unjudged.push({ kind: 'unread', why: 'the target answered before the request body was all sent: the body is not judged' });
  const client = judgeClientRequest({ method: request.method, url: request.url, headers: request.headers, body: request.body }, { body: bodyJudged });
  const problems: ExchangeProblem[] = client.problems.map((p) => ({ side: 'client', rule: p.rule, severity: p.severity, ...(p.at ? { at: p.at } : {}), reason: p.problem }));
  const endpoint = client.endpoint;
  if (!endpoint || !response) return { ...(endpoint ? { endpoint } : {}), problems, unjudged };
  // Throttling is no verdict (ASM-THROTTLE-429): the client is to wait and ask again.
  if (response.status === 429) {
    unjudged.push({ kind: 'throttled', why: 'the answer is 429 (throttled): not judged (ASM-THROTTLE-429)' });
    return { endpoint, problems, unjudged };
  }
  // The client asked whether it changed, and it did not: the document says nothing of caching.
  if (response.status === 304 && (request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined)) {
    unjudged.push({ kind: 'not-modified', why: 'the answer is 304 to a conditional request: the document says nothing of caching, so it is not judged' });
    return { endpoint, problems, unjudged };
  }
  if (response.tooLarge) {
    unjudged.push({ kind: 'too-large', why: `the answer is past ${cap}: forwarded, too large to judge` });
    return { endpoint, problems, unjudged };
  }
  const decoded = decodedAnswer(response, options.capBytes);
  if ('why' in decoded) {
    unjudged.push(decoded);
    return { endpoint, problems, unjudged };
  }
  response = decoded.response;
  const exchange = asExchange(endpoint, request, response, options);
  const context: CheckContext = { options: { strict: options.strict } };
  for (const check of universal) {
    if (!check.applies(exchange)) continue;
    const verdict = check.check(context, exchange);
    if (verdict) problems.push({ side: 'server', rule: check.rule, severity: verdict.severity ?? 'error', reason: verdict.title });
  }
  const wording = messageMeaning(exchange);
  if (wording) problems.push({ side: 'server', rule: 'AUTH-401', severity: wording.severity ?? 'error', reason: wording.title });
  // A request without a bearer key is answered 401 (§Authentication), whatever else it carries.
  if (client.credentials !== 'bearer' && response.status !== 401) {
    const missing = client.credentials === 'missing';
    problems.push({
      side: 'server',
      rule: missing ? 'AUTH-401' : 'AUTH-BEARER',
      severity: 'error',
      reason: `answered ${response.status} to a request ${missing ? 'without a key' : 'with its key not sent as `Authorization: Bearer <API_KEY>`'}; it must answer 401`,
    });
  }
  // A server-side failure (§Errors: 500) to a request the client got right is the server's.
  if (response.status >= 500 && !problems.some((p) => p.side === 'client' && p.severity === 'error')) {
    problems.push({ side: 'server', rule: 'NO-SERVER-ERROR', severity: 'error', reason: `server error ${response.status} to a request with no problem on the client's side` });
  }
  return { endpoint, problems, unjudged };
}

/** The exchange as the suite's checks read it: the client's request as a probe, the answer read as the transport reads one. */
function asExchange(endpoint: Endpoint, request: SeenRequest, response: SeenResponse, options: JudgeOptions): Exchange {
  const probeRequest: ProbeRequest = { method: request.method, url: `http://proxy.invalid${request.url}`, headers: flattenHeaders(request.headers), ...(request.body.length ? { body: request.body.toString('utf8') } : {}) };
  const { secrets, ...answer } = readAnswer({ text: response.body.toString('utf8'), headers: response.headers, servesSecret: servesSecret(endpoint) });
  options.sanitizer.learnValues(secrets, 'served');
  const probeResponse: ProbeResponse = { status: response.status, headers: response.headers, ...answer, ms: 0 };
  // `observe`: whether the data it names exists is the server's to say, so no success is expected of it.
  const probe: Probe = { rule: 'STATUS-SET', endpoint, expect: 'observe', title: `the client's ${operation(endpoint)}`, request: probeRequest };
  return { probe, response: probeResponse, throttled: 0 };
}

/**
 * The answer as its content coding decodes it (a client may ask for gzip, deflate or br): what
 * the checks read. Decoded up to the cap (sanitize/held-body.ts, the codings the sanitizer reads
 * too); a coding it does not know, a body that does not decode whole, or one that decodes past
 * the cap is not judged.
 */
function decodedAnswer(response: SeenResponse, capBytes: number): { response: SeenResponse } | Unjudged {
  const coding = response.headers['content-encoding']?.trim().toLowerCase();
  if (!isCoded(coding)) return { response };
  const decoded = decodeBounded(response.body, coding!, capBytes);
  if (!decoded) return { kind: 'encoded', why: `the answer is ${coding}-encoded, a coding the proxy does not decode: not judged` };
  if (!decoded.whole) return { kind: 'encoded', why: `the answer does not decode as ${coding} within ${capBytes / 1024} KiB: not judged` };
  const { ['content-encoding']: _, ...headers } = response.headers;
  return { response: { ...response, headers, body: decoded.bytes } };
}
