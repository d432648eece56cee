/**
 * The mock's request pipeline, independent of the HTTP server: base path, bearer auth, routing,
 * path ids, query and body checks (through the generated validators), then the endpoint's
 * handler. Every refusal is an `HttpError` rendered as the document's error body.
 */
import { randomUUID } from 'node:crypto';
import type { Acknowledgement, EndpointName, OperationKind } from '../generated/types.ts';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { mockErrorStatuses, secretFieldNames } from '../spec/queries.ts';
import { joinWarnings } from './body-warnings.ts';
import { bearerKey, invalid, malformedIds, parseJsonBody, parseTarget, readBody, readQuery, unknownRoute, type MockRequest } from './client-request.ts';
import { HttpError, notFound, renderError, unauthorized } from './errors.ts';
import type { Context, Handlers } from './handler.ts';
import type { Hooks } from './variant.ts';
import { companyHandlers } from './handlers/company.ts';
import { domainHandlers } from './handlers/domains.ts';
import { environmentHandlers } from './handlers/environments.ts';
import { siteHandlers } from './handlers/sites.ts';
import { DEFAULT_UNMARKED_FIELDS, type UnmarkedFields } from './policy.ts';
import { matchRoute } from './router.ts';
import { DEFERRABLE_EFFECTS, type Store } from './store.ts';
import type { CompanySeed } from './fixtures.ts';
import { BoundedMap } from '../sanitize/bounded-map.ts';

export { parseJsonBody, type MockRequest } from './client-request.ts';

export const handlers: Handlers = { ...companyHandlers, ...domainHandlers, ...siteHandlers, ...environmentHandlers };

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

/** The company whose key the request carries as a bearer token, if any. */
function authenticate(store: Store, header: string | string[] | undefined) {
  const key = bearerKey(header);
  return key === undefined ? undefined : store.companyForKey(key);
}

/** The response header that carries the mock's warnings to client authors. */
export const WARNING_HEADER = 'x-contract-warning';

const withoutSecrets = (details: object) =>
  Object.fromEntries(Object.entries(details).filter(([key]) => !secretFieldNames.includes(key)));

const IN_PROGRESS = 'The operation is in progress.';

/** §Endpoints > Conventions: the 202 body, with a fresh `<kind>-<UUID v4>` operation id. */
export const acknowledgementOf = (kind: OperationKind, message = IN_PROGRESS): Acknowledgement => ({
  operation_id: `${kind}-${randomUUID()}`,
  message,
  status: 202,
});

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
      const [malformed] = malformedIds(endpoint, route.params as Record<string, string>);
      if (malformed) throw notFound(malformed.what, { parameter: malformed.name });
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
