/**
 * What a client's request is, judged against the model before any data is looked at: the path
 * and method (with the endpoints a person likely meant), the bearer credentials' shape, path ids,
 * query and body (the generated validators, then the fields the endpoint does not have or that
 * the document leaves unmarked). The mock refuses on it (app.ts); the proxy reports it
 * (proxy/judge.ts): one module, so both say the same thing in the same words.
 */
import { queryValidators, requestValidators } from '../generated/validators.js';
import type { ValidationError, Validator } from '../generated/validators.js';
import { api } from '../spec/api.ts';
import { formatRegex } from '../spec/formats.ts';
import type { Endpoint, FieldType, RuleId } from '../spec/model.ts';
import { withMeaning } from '../spec/codes.ts';
import { operation } from '../spec/queries.ts';
import { namesKeyCarrier } from '../spec/operators/credentials.ts';
import { meantField, omittedFieldsWarning, unknownFieldsWarning } from './body-warnings.ts';
import { BAD_REQUEST, badRequest, HttpError, NOT_AN_ENDPOINT, notFound, unknownEndpoint } from './errors.ts';
import { MAX_BODY_BYTES, MOCK_EXP_INTERVALS, watchesUnmarkedFields, type UnmarkedFields } from './policy.ts';
import { matchRoute, missedRoute } from './router.ts';

export interface MockRequest {
  readonly method: string;
  /** Path and query as sent, e.g. `/v2/sites/…?x=1`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body; `tooLarge` when it passed MAX_BODY_BYTES and was not kept. */
  readonly body: Buffer;
  readonly tooLarge?: boolean;
}

const BEARER = /^bearer +([^\s]+) *$/i; // RFC 7235 §2.1: the scheme name is case-insensitive

/** The key a request carries as a bearer token, if it carries one the way the document says. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  return match ? match[1]! : undefined;
}

/**
 * Whose choices judge a body where the document is silent: `mock`, the mock's own (its answers
 * must stay valid: policy.ts); `document`, none (the proxy judges any server's clients, and may
 * not invent what the document does not say).
 */
export type MockChoices = 'mock' | 'document';

const utf8 = new TextDecoder('utf-8', { fatal: true });


/** One problem of a refused request, for the 400's `data` (its content is not shown: UNK-ERROR-DATA). */
export interface Problem {
  /** JSON Pointer into the body or query: the field at fault. */
  readonly path: string;
  readonly problem: string;
}

/** ajv's errors as problems; a missing property points at the property itself. */
export const problemsOf = (errors: readonly ValidationError[] | null | undefined): Problem[] =>
  (errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
    return missing === undefined
      ? { path: e.instancePath, problem: e.message ?? e.keyword }
      : { path: `${e.instancePath}/${missing}`, problem: 'is required (the document marks it so)' };
  });

/** Every problem of the request at once, in one 400. */
export const invalid = (what: string, problems: readonly Problem[]) => badRequest(`invalid ${what}`, { problems });

export function readQuery(endpoint: Endpoint, search: URLSearchParams): { query: unknown; problems: Problem[] } {
  if (endpoint.queryParams.length === 0) return { query: undefined, problems: [] };
  const query = Object.fromEntries(endpoint.queryParams.flatMap((p) => (search.has(p.name) ? [[p.name, search.get(p.name)]] : [])));
  const validate = (queryValidators as Partial<Record<string, Validator>>)[endpoint.name];
  const problems = validate && !validate(query) ? problemsOf(validate.errors).map((p) => ({ ...p, path: `?${p.path.slice(1)}` })) : [];
  const unknown = [...new Set(search.keys())].filter((name) => !endpoint.queryParams.some((p) => p.name === name));
  return { query, problems: problems.map((problem) => namedQueryProblem(endpoint, problem, unknown)) };
}

/**
 * A missing query parameter whose name the document does not show says so, and names the
 * assumption the name comes from, and the parameter sent that was likely meant for it.
 */
function namedQueryProblem(endpoint: Endpoint, problem: Problem, unknown: readonly string[]): Problem {
  const param = endpoint.queryParams.find((p) => `?${p.name}` === problem.path);
  if (!param || !problem.problem.startsWith('is required')) return problem;
  const guess = unknown.map((name) => ({ name, meant: meantField(name, [param.name]) })).find((u) => u.meant);
  const hint = guess ? `; did you mean ${param.name} for ${JSON.stringify(guess.name)}?` : '';
  return {
    ...problem,
    problem: param.assumption ? `is required; the document does not show this parameter's name: \`${param.name}\` is assumed (${withMeaning(param.assumption)})${hint}` : `${problem.problem}${hint}`,
  };
}

export function isJsonContentType(header: string | string[] | undefined): boolean {
  if (header === undefined || header === 'application/json') return true;
  const type = String(header).split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

const fieldNames = new WeakMap<Endpoint, readonly string[]>();
/** The names of the endpoint's body fields, listed once. */
export function bodyFieldNames(endpoint: Endpoint): readonly string[] {
  let names = fieldNames.get(endpoint);
  if (!names) fieldNames.set(endpoint, (names = (endpoint.body ?? []).map((f) => f.name)));
  return names;
}

/** A body as read: the parsed object, its problems, and what a client author should be told of it. */
export interface ReadBody {
  readonly body: unknown;
  readonly problems: readonly Problem[];
  /** Unmarked fields (UNK-BODY-MARKING) omitted: accepted, with this warning. */
  readonly omitted?: string;
  /** Fields the endpoint does not have: ignored, with this warning (on a refusal too: a misspelling is often why). */
  readonly unknown?: string;
}

/**
 * The endpoint's body, parsed and checked; a body that cannot be read at all is refused at once,
 * a readable one gets every problem listed. Refusals are 400 (every endpoint with a body may answer
 * 400 in the mock).
 */
export function readBody(endpoint: Endpoint, request: MockRequest, unmarked: UnmarkedFields, choices: MockChoices = 'mock'): ReadBody {
  if (!endpoint.body) return { body: undefined, problems: [] }; // endpoints without a body ignore whatever was sent
  if (request.tooLarge) throw badRequest(`body larger than ${MAX_BODY_BYTES} bytes`);
  if (!isJsonContentType(request.headers['content-type'])) throw badRequest('the body must be application/json');
  const watched = watchesUnmarkedFields(endpoint.effect);
  if (request.body.length === 0 && watched && unmarked === 'required') throw badRequest('a JSON body is required');
  const parsed = request.body.length === 0 ? {} : parseJsonBody(request);
  if (parsed === undefined) throw badRequest('the body is not valid UTF-8 JSON');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('the body must be a JSON object');
  const validate = (requestValidators as Partial<Record<string, Validator>>)[endpoint.name];
  const problems = validate && !validate(parsed) ? problemsOf(validate.errors) : [];
  const absent = watched ? endpoint.body.filter((f) => f.presence === 'not-shown' && !(f.name in parsed)).map((f) => f.name) : [];
  if (unmarked === 'required') problems.push(...absent.map((name) => ({ path: `/${name}`, problem: 'is required by this mock (--unmarked-fields required; the document does not mark it)' })));
  if (choices === 'mock') problems.push(...mockChoiceProblems(endpoint, parsed));
  const unknown = unknownFieldsWarning(Object.keys(parsed), bodyFieldNames(endpoint));
  return { body: parsed, problems, ...(unmarked === 'optional' && absent.length ? { omitted: omittedFieldsWarning(absent) } : {}), ...(unknown ? { unknown } : {}) };
}

/**
 * What the mock itself decides where the document is silent, and a server may decide otherwise:
 * judged by the mock (its answers must stay valid), never by the proxy (it may not invent the document).
 */
function mockChoiceProblems(endpoint: Endpoint, parsed: object): Problem[] {
  const problems: Problem[] = [];
  const interval = (parsed as { exp_interval?: unknown }).exp_interval;
  if (endpoint.name === 'changeSshExpirationInterval' && typeof interval === 'string' && !MOCK_EXP_INTERVALS.includes(interval)) {
    problems.push({ path: '/exp_interval', problem: `is not one of the allowed values (this mock allows ${MOCK_EXP_INTERVALS.join(', ')})` });
  }
  // The update names a DNS record, whose `name` is a host name (§Resources and fields > DNS record);
  // storing any other string would make every later GET dns-records answer an invalid body.
  const recordName = (parsed as { name?: unknown }).name;
  if (endpoint.name === 'updateDnsRecords' && typeof recordName === 'string' && !formatRegex.hostname.test(recordName)) {
    problems.push({ path: '/name', problem: 'must be a host name' });
  }
  return problems;
}


/** The 404 for a request no endpoint matched, naming what it may have meant (paths outside the base path too). */
export function unknownRoute(method: string, pathname: string): HttpError {
  const below = pathname.startsWith(`${api.basePath}/`) ? pathname.slice(api.basePath.length) : undefined;
  const miss = missedRoute(method, below ?? pathname);
  return unknownEndpoint(method, { allowed: miss.allowed, closest: miss.closest.map(operation) }, below === undefined ? api.basePath : undefined);
}


/** The request body as JSON; undefined when it is not UTF-8 JSON. */
export function parseJsonBody(request: MockRequest): unknown {
  try {
    return JSON.parse(utf8.decode(request.body));
  } catch {
    return undefined;
  }
}


/** A request's path and query, the way `URL` reads them; a plain path (the usual one) without parsing it. */
export interface Target {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/**
 * Paths of letters, digits, `/`, `_` and `-` only, not starting `//` (which `URL` reads as a
 * host): what `URL` would leave exactly as they are.
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9/_-]*$/;

/** The query of every request without one: read, never changed. */
const NO_QUERY = new URLSearchParams();

export function parseTarget(target: string): Target {
  const query = target.indexOf('?');
  const pathname = query < 0 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(pathname)) {
    if (query < 0) return { pathname, searchParams: NO_QUERY };
    const search = target.slice(query + 1);
    // A fragment is not sent in a request target, but a raw client may: the URL parser drops it.
    return { pathname, searchParams: new URLSearchParams(search.includes('#') ? search.slice(0, search.indexOf('#')) : search) };
  }
  try {
    return new URL(target, 'http://mock.invalid');
  } catch {
    throw notFound('path');
  }
}


/** A path parameter that is not a UUID: it names nothing (CONFLICT-READ-MALFORMED-ID, CONFLICT-ACTION-UNKNOWN-RESOURCE). */
export function malformedIds(endpoint: Endpoint, params: Readonly<Record<string, string>>): readonly MalformedId[] {
  // The router gives every request of one path the same frozen params: each is read once.
  let found = malformedMemo.get(params);
  if (found?.endpoint !== endpoint) {
    const ids = endpoint.pathParams.flatMap((param) => {
      const value = params[param.name];
      return value !== undefined && !formatRegex.uuid.test(value) ? [{ name: param.name, what: (param.refersTo ?? param.name).replace(/-/g, ' ') }] : [];
    });
    found = { endpoint, ids };
    if (Object.isFrozen(params)) malformedMemo.set(params, found);
  }
  return found.ids;
}

export interface MalformedId {
  readonly name: string;
  readonly what: string;
}

const malformedMemo = new WeakMap<object, { readonly endpoint: Endpoint; readonly ids: readonly MalformedId[] }>();

/**
 * The rule a client problem breaks: the model's rules, and `ENDPOINT` for a path or method the
 * document's list of endpoints (§Endpoints) does not hold, which no rule of the model states.
 */
export type ClientRule = RuleId | 'ENDPOINT';

/** One thing a client's request does that the document does not let it, in plain words. */
export interface ClientProblem {
  readonly rule: ClientRule;
  /** Where: a JSON Pointer into the body (`/wp_command`), `?name` in the query, `{name}` in the path, a header's name. */
  readonly at?: string;
  readonly problem: string;
  /** `warning`: the document does not say a server refuses it (unknown or unmarked fields). */
  readonly severity: 'error' | 'warning';
}

/** How a request carries its key: as the document says, not at all, or some other way (another scheme, header or the query). */
export type Credentials = 'bearer' | 'missing' | 'elsewhere';

export interface JudgedRequest {
  /** The endpoint the request is for; undefined when the document has none at that path and method. */
  readonly endpoint?: Endpoint;
  readonly credentials: Credentials;
  readonly problems: readonly ClientProblem[];
}

/** Scheme words a report may name: any other first word of the header may be the key itself, and is never shown. */
const KNOWN_SCHEMES = /^(basic|bearer|digest|token|apikey|api-key|hoba|mutual|negotiate|oauth|dpop)$/i;

/** The rule a body or query problem at `at` breaks: the field's own limit rule where the model gives one, else INPUT-400. */
function ruleAt(endpoint: Endpoint, at: string): RuleId {
  const name = at.replace(/^[/?]/, '').split('/')[0];
  const type: FieldType | undefined = endpoint.body?.find((f) => f.name === name)?.type ?? endpoint.queryParams.find((p) => p.name === name)?.type;
  return (type && 'limit' in type && type.limit) || 'INPUT-400';
}

/**
 * Every problem of a client's request, judged as the document states it (`MockChoices`
 * `document`). Never looks at data: whether a key or an id exists is the server's to say.
 * `body: false`: the body is not judged (the caller could not see all of it).
 */
export function judgeClientRequest(request: MockRequest, options: { readonly body?: boolean } = {}): JudgedRequest {
  let target: Target;
  try {
    target = parseTarget(request.url);
  } catch {
    return { credentials: 'missing', problems: [{ rule: 'ENDPOINT', problem: 'the request target is not a path this or any server can read', severity: 'error' }] };
  }
  const base = `${api.basePath}/`;
  const route = target.pathname.startsWith(base) ? matchRoute(request.method, target.pathname.slice(base.length - 1)) : undefined;
  const problems: ClientProblem[] = [];
  const credentials = credentialsOf(request, target.searchParams);
  if (credentials.problem) problems.push({ rule: 'AUTH-BEARER', at: credentials.at, problem: `${credentials.problem}: every endpoint requires \`Authorization: Bearer <API_KEY>\``, severity: 'error' });
  if (!route) {
    const miss = unknownRoute(request.method, target.pathname);
    const hint = (miss.data as { hint?: string } | undefined)?.hint;
    problems.unshift({ rule: target.pathname.startsWith(base) ? 'ENDPOINT' : 'BASE-PATH', problem: `${NOT_AN_ENDPOINT}${hint ? `: ${hint}` : ''}`, severity: 'error' });
    return { credentials: credentials.kind, problems };
  }
  const { endpoint } = route;
  for (const id of malformedIds(endpoint, route.params as Record<string, string>)) {
    problems.push({ rule: 'READ-404', at: `{${id.name}}`, problem: `is not a UUID, so it names no ${id.what} (the document's ids are UUIDs)`, severity: 'error' });
  }
  for (const p of readQuery(endpoint, target.searchParams).problems) {
    // A name the document does not show is an assumption: a server may take another.
    const assumed = endpoint.queryParams.some((q) => q.assumption && `?${q.name}` === p.path);
    problems.push({ rule: ruleAt(endpoint, p.path), at: p.path, problem: p.problem, severity: assumed ? 'warning' : 'error' });
  }
  if (options.body === false) return { endpoint, credentials: credentials.kind, problems };
  try {
    const body = readBody(endpoint, request, 'optional', 'document');
    for (const p of body.problems) problems.push({ rule: ruleAt(endpoint, p.path), at: p.path, problem: p.problem, severity: 'error' });
    for (const warning of [body.omitted, body.unknown]) if (warning !== undefined) problems.push({ rule: 'INPUT-400', problem: warning, severity: 'warning' });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // A body refused whole: said in the words of the 400 that refuses it, after the status's meaning.
    const notJson = endpoint.body !== undefined && !isJsonContentType(request.headers['content-type']);
    problems.push({ rule: notJson ? 'CONTENT-TYPE' : 'INPUT-400', ...(notJson ? { at: 'content-type' } : {}), problem: error.message.slice(BAD_REQUEST.length), severity: 'error' });
  }
  return { endpoint, credentials: credentials.kind, problems };
}

/** The names of a `Cookie` header's cookies. */
const cookieNames = (cookie: string | string[] | undefined): string[] =>
  [cookie ?? []].flat().flatMap((c) => c.split(';')).map((pair) => pair.split('=')[0]!.trim()).filter(Boolean);

/** How a request carries its credentials, and what is wrong with that, in words that never show the key. */
function credentialsOf(request: MockRequest, query: URLSearchParams): { kind: Credentials; at?: string; problem?: string } {
  const authorization = request.headers.authorization;
  if (bearerKey(authorization) !== undefined) return { kind: 'bearer' };
  const header = Object.keys(request.headers).find((name) => name !== 'authorization' && namesKeyCarrier(name));
  const param = [...query.keys()].find(namesKeyCarrier);
  const cookie = cookieNames(request.headers.cookie).find(namesKeyCarrier);
  if (authorization === undefined || (typeof authorization === 'string' && /^\s*(bearer\s*)?$/i.test(authorization))) {
    if (header) return { kind: 'elsewhere', at: header, problem: `the key is sent in the ${header} header, not as a bearer token` };
    if (param) return { kind: 'elsewhere', at: `?${param}`, problem: 'the key is sent in the query, not as a bearer token' };
    if (cookie) return { kind: 'elsewhere', at: `cookie ${cookie}`, problem: 'the key is sent in a cookie, not as a bearer token' };
    return { kind: 'missing', at: 'Authorization', problem: authorization === undefined ? 'missing' : 'holds no key' };
  }
  if (Array.isArray(authorization)) return { kind: 'elsewhere', at: 'Authorization', problem: 'sent more than once' };
  const scheme = authorization.trim().split(/\s+/)[0]!;
  const named = KNOWN_SCHEMES.test(scheme) && !/^bearer$/i.test(scheme) && authorization.trim().includes(' ');
  return { kind: 'elsewhere', at: 'Authorization', problem: named ? `uses the scheme ${scheme}, not Bearer` : 'is not `Bearer <API_KEY>` (one key after the scheme, nothing else)' };
}
