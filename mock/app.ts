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
import { mockErrorStatuses, secretFieldNames } from '../spec/queries.ts';
import { badRequest, HttpError, notFound, renderError, unauthorized } from './errors.ts';
import type { Context, Handlers } from './handler.ts';
import type { Hooks } from './variant.ts';
import { companyHandlers } from './handlers/company.ts';
import { domainHandlers } from './handlers/domains.ts';
import { environmentHandlers } from './handlers/environments.ts';
import { siteHandlers } from './handlers/sites.ts';
import { MAX_BODY_BYTES, MOCK_EXP_INTERVALS, requiresUnmarkedFields } from './policy.ts';
import { matchRoute } from './router.ts';
import { DEFERRABLE_EFFECTS, type Store } from './store.ts';

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
}

const BEARER = /^bearer +([^\s]+) *$/i; // RFC 7235 §2.1: the scheme name is case-insensitive
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The company whose key the request carries as a bearer token, if any. */
function authenticate(store: Store, header: string | string[] | undefined) {
  const match = typeof header === 'string' ? BEARER.exec(header) : null;
  return match ? store.companyForKey(match[1]!) : undefined;
}

const problems = (errors: readonly ValidationError[] | null | undefined) =>
  (errors ?? []).map((e) => ({ field: e.instancePath || '/', problem: e.message ?? e.keyword }));

function readQuery(endpoint: Endpoint, search: URLSearchParams): unknown {
  if (endpoint.queryParams.length === 0) return undefined;
  const query = Object.fromEntries(endpoint.queryParams.flatMap((p) => (search.has(p.name) ? [[p.name, search.get(p.name)]] : [])));
  const validate = (queryValidators as Partial<Record<string, Validator>>)[endpoint.name];
  if (validate && !validate(query)) throw badRequest('invalid query parameters', { errors: problems(validate.errors) });
  return query;
}

function isJsonContentType(header: string | string[] | undefined): boolean {
  if (header === undefined) return true;
  const type = String(header).split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The endpoint's body, parsed and checked; refusals are 400 (every endpoint with a body may answer 400 in the mock). */
function readBody(endpoint: Endpoint, request: MockRequest): unknown {
  if (!endpoint.body) return undefined; // endpoints without a body ignore whatever was sent
  if (request.tooLarge) throw badRequest(`body larger than ${MAX_BODY_BYTES} bytes`);
  if (!isJsonContentType(request.headers['content-type'])) throw badRequest('the body must be application/json');
  const optional = !requiresUnmarkedFields(endpoint.effect);
  if (request.body.length === 0) {
    if (optional) return {};
    throw badRequest('a JSON body is required');
  }
  const parsed = parseJsonBody(request);
  if (parsed === undefined) throw badRequest('the body is not valid UTF-8 JSON');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('the body must be a JSON object');
  const validate = (requestValidators as Partial<Record<string, Validator>>)[endpoint.name];
  if (validate && !validate(parsed)) throw badRequest('invalid body', { errors: problems(validate.errors) });
  const missing = optional ? [] : endpoint.body.filter((f) => !(f.name in parsed));
  if (missing.length) throw badRequest('missing fields', { errors: missing.map((f) => ({ field: `/${f.name}`, problem: 'is required' })) });
  const interval = (parsed as { exp_interval?: unknown }).exp_interval;
  if (endpoint.name === 'changeSshExpirationInterval' && !MOCK_EXP_INTERVALS.includes(interval as string)) {
    throw badRequest('exp_interval is not one of the allowed values', { errors: [{ field: '/exp_interval', problem: 'not allowed' }] });
  }
  // The update names a DNS record, whose `name` is a host name (§Resources and fields > DNS record);
  // storing any other string would make every later GET dns-records answer an invalid body.
  const recordName = (parsed as { name?: unknown }).name;
  if (endpoint.name === 'updateDnsRecords' && typeof recordName === 'string' && !formatRegex.hostname.test(recordName)) {
    throw badRequest('name is not a host name', { errors: [{ field: '/name', problem: 'must be a host name' }] });
  }
  return parsed;
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

export function createApp(store: Store, hooks: Hooks = {}, options: AppOptions = {}): (request: MockRequest) => MockResponse {
  const handlerStore = options.effectDelayMs ? deferringEffects(store, options.effectDelayMs) : store;
  const base = `${api.basePath}/`;
  const reference = Object.keys(hooks).length === 0;
  const effective: Handlers = { ...handlers, ...hooks.handlers };
  const run = (request: MockRequest): MockResponse => {
    let endpoint: Endpoint | undefined;
    try {
      let url: URL;
      try {
        url = new URL(request.url, 'http://mock.invalid');
      } catch {
        throw notFound('path');
      }
      const route = url.pathname.startsWith(base) ? matchRoute(request.method, url.pathname.slice(base.length - 1)) : undefined;
      endpoint = route?.endpoint;
      // Authentication comes before any 404, so nothing is revealed to a caller without a key.
      const keyCompany = authenticate(store, request.headers.authorization);
      const allowed = hooks.authenticate ? hooks.authenticate(route?.endpoint, request, keyCompany !== undefined) : keyCompany !== undefined;
      if (!allowed) throw unauthorized();
      const company = keyCompany ?? store.companies[0]!;
      if (!route || !endpoint) throw notFound('endpoint');
      // Ids that are not UUIDs name nothing: 404 (CONFLICT-READ-MALFORMED-ID, CONFLICT-ACTION-UNKNOWN-RESOURCE).
      for (const value of Object.values(route.params)) if (!formatRegex.uuid.test(value)) throw notFound('resource');
      let query: unknown;
      let body: unknown;
      let refusal: HttpError | undefined;
      try {
        query = readQuery(endpoint, url.searchParams);
        body = readBody(endpoint, request);
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
      const success = endpoint.success;
      const context: Context<EndpointName> = {
        store: handlerStore,
        company,
        params: route.params as never,
        query: query as never,
        body: body as never,
        acknowledge: (target, details = {}, message = IN_PROGRESS) => {
          if (success.kind !== 'ack') throw new Error(`${endpoint!.name} is not an acknowledged action`);
          const ack = acknowledgementOf(success.operationKind, message);
          store.record({ operation_id: ack.operation_id, kind: success.operationKind, companyId: company.id, target, details: withoutSecrets(details) });
          return ack as never;
        },
      };
      const handler = effective[endpoint.name as EndpointName] as (c: Context<EndpointName>) => unknown;
      return { status: success.kind === 'ack' ? 202 : 200, body: handler(context), endpoint };
    } catch (error) {
      if (error instanceof HttpError) {
        if (reference && endpoint && !mockErrorStatuses(endpoint).includes(error.status)) throw new Error(`mock bug: ${error.status} on ${endpoint.name}`);
        return { status: error.status, body: renderError(error), endpoint };
      }
      throw error;
    }
  };
  const respond = hooks.respond;
  return respond ? (request) => {
    const response = run(request);
    return respond(response.endpoint, request, response);
  } : run;
}
