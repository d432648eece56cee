/**
 * The mock's request pipeline, independent of the HTTP server: base path, bearer auth, routing,
 * path ids, query and body checks (through the generated validators), then the endpoint's
 * handler. Every refusal is an `HttpError` rendered as the document's error body.
 */
import { randomUUID } from 'node:crypto';
import { queryValidators, requestValidators } from '../generated/validators.js';
import type { ValidationError, Validator } from '../generated/validators.js';
import type { Acknowledgement, EndpointName, OperationKind } from '../generated/types.ts';
import { api } from '../spec/api.ts';
import { formatRegex } from '../spec/formats.ts';
import type { Endpoint } from '../spec/model.ts';
import { mockErrorStatuses, operation, secretFieldNames } from '../spec/queries.ts';
import { joinWarnings, meantField, omittedFieldsWarning, unknownFieldsWarning } from './body-warnings.ts';
import { badRequest, HttpError, notFound, renderError, unauthorized, unknownEndpoint } from './errors.ts';
import type { Context, Handlers } from './handler.ts';
import type { Hooks } from './variant.ts';
import { companyHandlers } from './handlers/company.ts';
import { domainHandlers } from './handlers/domains.ts';
import { environmentHandlers } from './handlers/environments.ts';
import { siteHandlers } from './handlers/sites.ts';
import { DEFAULT_UNMARKED_FIELDS, MAX_BODY_BYTES, MOCK_EXP_INTERVALS, watchesUnmarkedFields, type UnmarkedFields } from './policy.ts';
import { matchRoute, missedRoute } from './router.ts';
import { DEFERRABLE_EFFECTS, type Store } from './store.ts';
import type { CompanySeed } from './fixtures.ts';
import { BoundedMap } from '../sanitize/bounded-map.ts';

export const handlers: Handlers = { ...companyHandlers, ...domainHandlers, ...siteHandlers, ...environmentHandlers };

export interface MockRequest {
  readonly method: string;
  /** Path and query as sent, e.g. `/v2/sites/…?x=1`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body; `tooLarge` when it passed MAX_BODY_BYTES and was not kept. */
  readonly body: Buffer;
  readonly tooLarge?: boolean;
}

export interface MockResponse {
  readonly status: number;
  readonly body: unknown;
  /** Headers beyond `content-type: application/json`; undefined removes one (variants only). */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The endpoint that answered, for logs; undefined when none matched. */
  readonly endpoint?: Endpoint;
  /** `body` as JSON text, when the pipeline serialised it already (a read it keeps, `ReadCache`). */
  readonly text?: string;
}

/** Reads kept per state of the store at most; past it the cache starts over (bounded memory). */
const READS_KEPT = 512;

/**
 * The reference mock's answers to reads, serialised once per state of the store: a read without
 * a body answers from the company asking, the URL, the content type and the store only (no
 * handler of a read looks at the clock or draws a number), so until `Store.version` moves the
 * same read answers the same bytes. Only 200s are kept.
 */
class ReadCache {
  readonly #store: Store;
  readonly #answers = new BoundedMap<string, MockResponse>(READS_KEPT);
  #version: number;

  constructor(store: Store) {
    this.#store = store;
    this.#version = store.version;
  }

  #current(): Map<string, MockResponse> {
    if (this.#version !== this.#store.version) {
      this.#answers.clear();
      this.#version = this.#store.version;
    }
    return this.#answers;
  }

  /** `key`: what the answer depends on besides the store (`readKey`). */
  get(key: string): MockResponse | undefined {
    return this.#current().get(key);
  }

  keep(key: string, response: MockResponse): MockResponse {
    const kept = { ...response, text: JSON.stringify(response.body) };
    this.#current().set(key, kept);
    return kept;
  }
}

const BEARER = /^bearer +([^\s]+) *$/i; // RFC 7235 §2.1: the scheme name is case-insensitive
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The company whose key the request carries as a bearer token, if any. */
function authenticate(store: Store, header: string | string[] | undefined) {
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  return match ? store.companyForKey(match[1]!) : undefined;
}

/** One problem of a refused request, for the 400's `data` (its content is not shown: UNK-ERROR-DATA). */
export interface Problem {
  /** JSON Pointer into the body or query: the field at fault. */
  readonly path: string;
  readonly problem: string;
}

/** ajv's errors as problems; a missing property points at the property itself. */
const problemsOf = (errors: readonly ValidationError[] | null | undefined): Problem[] =>
  (errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
    return missing === undefined
      ? { path: e.instancePath, problem: e.message ?? e.keyword }
      : { path: `${e.instancePath}/${missing}`, problem: 'is required (the document marks it so)' };
  });

/** Every problem of the request at once, in one 400. */
const invalid = (what: string, problems: readonly Problem[]) => badRequest(`invalid ${what}`, { problems });

function readQuery(endpoint: Endpoint, search: URLSearchParams): { query: unknown; problems: Problem[] } {
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
    problem: param.assumption ? `is required; the document does not show this parameter's name, this mock takes \`${param.name}\` (${param.assumption})${hint}` : `${problem.problem}${hint}`,
  };
}

function isJsonContentType(header: string | string[] | undefined): boolean {
  if (header === undefined || header === 'application/json') return true;
  const type = String(header).split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

const fieldNames = new WeakMap<Endpoint, readonly string[]>();
/** The names of the endpoint's body fields, listed once. */
function bodyFieldNames(endpoint: Endpoint): readonly string[] {
  let names = fieldNames.get(endpoint);
  if (!names) fieldNames.set(endpoint, (names = (endpoint.body ?? []).map((f) => f.name)));
  return names;
}

/** A body as read: the parsed object, its problems, and what a client author should be told of it. */
interface ReadBody {
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
function readBody(endpoint: Endpoint, request: MockRequest, unmarked: UnmarkedFields): ReadBody {
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
  const unknown = unknownFieldsWarning(Object.keys(parsed), bodyFieldNames(endpoint));
  return { body: parsed, problems, ...(unmarked === 'optional' && absent.length ? { omitted: omittedFieldsWarning(absent) } : {}), ...(unknown ? { unknown } : {}) };
}

/** The response header that carries the mock's warnings to client authors. */
export const WARNING_HEADER = 'x-contract-warning';

/** The 404 for a request no endpoint matched, naming what it may have meant (paths outside the base path too). */
function unknownRoute(method: string, pathname: string): HttpError {
  const below = pathname.startsWith(`${api.basePath}/`) ? pathname.slice(api.basePath.length) : undefined;
  const miss = missedRoute(method, below ?? pathname);
  return unknownEndpoint(method, { allowed: miss.allowed, closest: miss.closest.map(operation) }, below === undefined ? api.basePath : undefined);
}

const withoutSecrets = (details: object) =>
  Object.fromEntries(Object.entries(details).filter(([key]) => !secretFieldNames.includes(key)));

const IN_PROGRESS = 'The operation is in progress.';

/** §Endpoints > Conventions: the 202 body, with a fresh `<kind>-<UUID v4>` operation id. */
export const acknowledgementOf = (kind: OperationKind, message = IN_PROGRESS): Acknowledgement => ({
  operation_id: `${kind}-${randomUUID()}`,
  message,
  status: 202,
});

/** The request body as JSON; undefined when it is not UTF-8 JSON. */
export function parseJsonBody(request: MockRequest): unknown {
  try {
    return JSON.parse(utf8.decode(request.body));
  } catch {
    return undefined;
  }
}

/** What a refused body still says, for variants that accept it anyway: a JSON object or `{}`. */
function lenientBody(request: MockRequest): Record<string, unknown> {
  const parsed = parseJsonBody(request);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/**
 * The pipeline. `hooks` turn it into a variant (mock/variant.ts); without them it is the
 * reference mock, which also asserts that it never answers outside its own status sets.
 */
export interface AppOptions {
  /** Observable changes of actions are applied this long after the answer (a layout's timing). */
  readonly effectDelayMs?: number;
  /** Whether actions may omit body fields the document does not mark (UNK-BODY-MARKING); default `optional`. */
  readonly unmarkedFields?: UnmarkedFields;
  /** Whether the reference mock answers a repeated read from what it serialised (`ReadCache`); default true. */
  readonly keepReads?: boolean;
}

/** The store as handlers see it when effects are deferred: the same, but observable changes wait (the timer never keeps the process alive). */
function deferringEffects(store: Store, delayMs: number): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      const now = typeof key === 'string' ? DEFERRABLE_EFFECTS[key] : undefined;
      if (!now || typeof value !== 'function') return value;
      return (...args: never[]) => {
        // The request is long answered when the change runs: nothing may throw into the timer.
        setTimeout(() => {
          try {
            value.apply(target, args);
          } catch {
            // A change that no longer applies (e.g. the account was removed meanwhile) is dropped.
          }
        }, delayMs).unref();
        return now(target, ...args);
      };
    },
  });
}

const NONE: readonly string[] = [];

/** The headers that carry a request's warnings, if any. */
const warningHeaders = (warnings: readonly string[]): { headers?: Record<string, string> } =>
  warnings.length ? { headers: { [WARNING_HEADER]: joinWarnings(warnings) } } : {};

/** A request's path and query, the way `URL` reads them; a plain path (the usual one) without parsing it. */
interface Target {
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

function parseTarget(target: string): Target {
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

/** What a handler receives (handler.ts); a class, so a request costs no closure of its own. */
class HandlerContext implements Context<EndpointName> {
  constructor(
    readonly store: Store,
    /** The store without deferred effects, where operations are recorded. */
    private readonly records: Store,
    private readonly endpoint: Endpoint,
    readonly company: CompanySeed,
    readonly params: never,
    readonly query: never,
    readonly body: never,
  ) {}

  acknowledge(target: string | undefined, details: object = {}, message = IN_PROGRESS): never {
    const success = this.endpoint.success;
    if (success.kind !== 'ack') throw new Error(`${this.endpoint.name} is not an acknowledged action`);
    const ack = acknowledgementOf(success.operationKind, message);
    this.records.record({ operation_id: ack.operation_id, kind: success.operationKind, companyId: this.company.id, target, details: withoutSecrets(details) });
    return ack as never;
  }
}

export function createApp(store: Store, hooks: Hooks = {}, options: AppOptions = {}): (request: MockRequest) => MockResponse {
  const handlerStore = options.effectDelayMs ? deferringEffects(store, options.effectDelayMs) : store;
  const base = `${api.basePath}/`;
  const reference = Object.keys(hooks).length === 0;
  // Variants keep state of their own (counters, faults that vary): only the reference mock keeps reads.
  const reads = reference && options.keepReads !== false ? new ReadCache(store) : undefined;
  const unmarked = options.unmarkedFields ?? DEFAULT_UNMARKED_FIELDS;
  const effective: Handlers = { ...handlers, ...hooks.handlers };
  const run = (request: MockRequest): MockResponse => {
    let endpoint: Endpoint | undefined;
    /** What a client author should be told of the body read, whether or not the request then succeeds. */
    let warnings: readonly string[] = [];
    try {
      const url = parseTarget(request.url);
      const route = url.pathname.startsWith(base) ? matchRoute(request.method, url.pathname.slice(base.length - 1)) : undefined;
      endpoint = route?.endpoint;
      // Authentication comes before any 404, so nothing is revealed to a caller without a key.
      const keyCompany = authenticate(store, request.headers.authorization);
      const allowed = hooks.authenticate ? hooks.authenticate(route?.endpoint, request, keyCompany !== undefined) : keyCompany !== undefined;
      if (!allowed) throw unauthorized();
      const company = keyCompany ?? store.companies[0]!;
      if (!route || !endpoint) throw unknownRoute(request.method, url.pathname);
      // Ids that are not UUIDs name nothing: 404 (CONFLICT-READ-MALFORMED-ID, CONFLICT-ACTION-UNKNOWN-RESOURCE).
      for (const param of endpoint.pathParams) {
        const value = (route.params as Record<string, string>)[param.name];
        if (value !== undefined && !formatRegex.uuid.test(value)) throw notFound((param.refersTo ?? param.name).replace(/-/g, ' '), { parameter: param.name });
      }
      let query: unknown;
      let body: unknown;
      let refusal: HttpError | undefined;
      try {
        const read = readQuery(endpoint, url.searchParams);
        const sent = readBody(endpoint, request, unmarked);
        warnings = sent.unknown ? [sent.unknown] : NONE;
        if (read.problems.length || sent.problems.length) {
          throw invalid(read.problems.length ? (sent.problems.length ? 'query and body' : 'query parameters') : 'body', [...read.problems, ...sent.problems]);
        }
        ({ query } = read);
        body = sent.body;
        if (sent.omitted !== undefined || sent.unknown !== undefined) warnings = [sent.omitted, sent.unknown].filter((w): w is string => w !== undefined);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        refusal = error;
      }
      if (hooks.judgeInput) {
        const candidate = refusal && endpoint.body ? lenientBody(request) : body;
        const verdict = hooks.judgeInput(endpoint, candidate, refusal);
        if (verdict) throw verdict;
        if (refusal) {
          body = candidate;
          query = Object.fromEntries(url.searchParams);
        }
      } else if (refusal) throw refusal;
      const context = new HandlerContext(handlerStore, store, endpoint, company, route.params as never, query as never, body as never);
      const handler = effective[endpoint.name as EndpointName] as (c: Context<EndpointName>) => unknown;
      const answer = handler(context);
      return { status: endpoint.success.kind === 'ack' ? 202 : 200, body: answer, endpoint, ...warningHeaders(warnings) };
    } catch (error) {
      if (error instanceof HttpError) {
        if (reference && endpoint && !mockErrorStatuses(endpoint).includes(error.status)) throw new Error(`mock bug: ${error.status} on ${endpoint.name}`);
        return { status: error.status, body: renderError(error), endpoint, ...warningHeaders(warnings) };
      }
      throw error;
    }
  };
  const respond = hooks.respond;
  if (respond) {
    return (request) => {
      const response = run(request);
      return respond(response.endpoint, request, response);
    };
  }
  return reads ? (request) => answerKeepingReads(reads, store, run, request) : run;
}

/** `run`'s answer, a read's from the cache while the store is unchanged; every other request may change it. */
function answerKeepingReads(reads: ReadCache, store: Store, run: (request: MockRequest) => MockResponse, request: MockRequest): MockResponse {
  if (request.method !== 'GET') {
    try {
      return run(request);
    } finally {
      // Through the store or a field of what it acts on, refused or not, even when a handler throws.
      store.changed();
    }
  }
  // A read with a body (wp-themes takes one) answers what the body says: not kept.
  if (request.body.length > 0 || request.tooLarge) return run(request);
  const company = authenticate(store, request.headers.authorization);
  if (!company) return run(request);
  // Besides the key and the URL, a read looks at one header: the content type of a body it may take.
  const key = readKey(company.id, request);
  const kept = reads.get(key);
  if (kept) return kept;
  const response = run(request);
  return response.status === 200 ? reads.keep(key, response) : response;
}

const readKey = (companyId: string, request: MockRequest): string => `${companyId} ${String(request.headers['content-type'] ?? '')} ${request.url}`;
