/**
 * Shared by the mock's behaviour tests: valid requests for any endpoint of the model, built from
 * one tenant's fixtures, and two ways to send them (the generated client, raw undici for status
 * and headers). Nothing here knows an endpoint by name: path ids and body ids are looked up by
 * the parameter or field name the model gives them.
 */
import fc from 'fast-check';
import { request } from 'undici';
import { expect } from 'vitest';
import type { HostedSiteClient } from '../generated/client.ts';
import { validateErrorBody } from '../generated/validators.js';
import { queryArb, requestBodyArb } from '../spec/arbitraries.ts';
import type { Endpoint, ErrorStatus } from '../spec/model.ts';
import { fillPath, mockErrorStatuses, operation } from '../spec/queries.ts';
import type { DomainState, EnvironmentState, Store } from './store.ts';

/** What one company owns that requests can name: the first of each, as the store holds them. */
export interface Tenant {
  readonly apiKey: string;
  readonly companyId: string;
  readonly siteId: string;
  readonly env: EnvironmentState;
  readonly domain: DomainState;
  readonly sftpAccountId: string;
  readonly backupId: number;
  readonly userId: string;
}

export function tenantOf(store: Store, companyId: string): Tenant {
  const company = store.companies.find((c) => c.id === companyId);
  const site = company?.sites[0];
  const env = site && store.environment(companyId, site.environments[0]!.id);
  const domain = env && store.domain(companyId, env.domains[0]!.id);
  if (!company || !site || !env || !domain) throw new Error(`fixtures of company ${companyId} lack a site, environment or domain`);
  return {
    apiKey: company.apiKey,
    companyId,
    siteId: site.id,
    env,
    domain,
    sftpAccountId: env.sftpAccounts[0]!.id,
    backupId: env.backups[0]!.id,
    userId: company.users[0]!.user.id,
  };
}

/** Each path parameter of the model, by name, and the tenant's id it takes. */
const pathIds: Readonly<Record<string, (t: Tenant) => string>> = {
  id: (t) => t.companyId,
  site_id: (t) => t.siteId,
  env_id: (t) => t.env.id,
  target_env_id: (t) => t.env.id,
  domain_id: (t) => t.domain.id,
  sftp_account_id: (t) => t.sftpAccountId,
};

/** Body fields that name the tenant's data; every other field comes from `requestBodyArb`. */
const bodyIds: Readonly<Record<string, (t: Tenant) => unknown>> = {
  environment_id: (t) => t.env.id,
  cdn_cache_id: (t) => t.env.cdnCacheId,
  backup_id: (t) => t.backupId,
  notified_user_id: (t) => t.userId,
};

export interface ApiRequest {
  readonly endpoint: Endpoint;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** Undefined for endpoints without a body. */
  readonly body?: Readonly<Record<string, unknown>>;
}

/** One value of an arbitrary, fixed by the global seed of scripts/test-setup.ts. */
export const sampleOne = <T>(arb: fc.Arbitrary<T>): T => fc.sample(arb, { numRuns: 1, seed: fc.readConfigureGlobal().seed })[0]!;

/** A request every reading of the document accepts, naming `tenant`'s data. */
export function validRequest(endpoint: Endpoint, tenant: Tenant): ApiRequest {
  const params = Object.fromEntries(
    endpoint.pathParams.map((p) => {
      const id = pathIds[p.name];
      if (!id) throw new Error(`no fixture id for path parameter ${p.name} of ${operation(endpoint)}`);
      return [p.name, id(tenant)];
    }),
  );
  const query = endpoint.queryParams.length ? sampleOne(queryArb(endpoint)) : {};
  if (!endpoint.body) return { endpoint, params, query };
  const overrides = Object.fromEntries(
    endpoint.body.flatMap((f) => (bodyIds[f.name] ? [[f.name, fc.constant(bodyIds[f.name]!(tenant))]] : [])),
  );
  return { endpoint, params, query, body: sampleOne(requestBodyArb(endpoint, overrides)) };
}

export function urlOf(baseUrl: string, req: ApiRequest): string {
  const search = new URLSearchParams(req.query).toString();
  return `${baseUrl}${fillPath(req.endpoint.path, req.params)}${search ? `?${search}` : ''}`;
}

export interface Exchange {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
  /** The parsed body; undefined when it is not JSON. */
  readonly body: unknown;
}

export interface SendOptions {
  /** The `Authorization` header; default `Bearer <apiKey>`; null sends none. */
  readonly authorization?: string | null;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as is instead of `JSON.stringify(req.body)`. */
  readonly rawBody?: string;
  /** Appended to the URL's query. */
  readonly extraQuery?: Readonly<Record<string, string>>;
}

/** One raw exchange with undici, for the status and headers the client does not expose. */
export async function send(baseUrl: string, req: ApiRequest, options: SendOptions = {}): Promise<Exchange> {
  let url = urlOf(baseUrl, req);
  if (options.extraQuery) url += `${url.includes('?') ? '&' : '?'}${new URLSearchParams(options.extraQuery)}`;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const authorization = options.authorization === undefined ? `Bearer ${options.apiKey}` : options.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const body = options.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await request(url, { method: req.endpoint.method, headers, body });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const contentType = response.headers['content-type'];
  return { status: response.statusCode, contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType, text, body: parsed };
}

/** The endpoint's client method, called with the request's parameters and body. */
export function callClient(client: HostedSiteClient, req: ApiRequest): Promise<unknown> {
  const method = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[req.endpoint.name];
  if (typeof method !== 'function') throw new Error(`the client has no method ${req.endpoint.name}`);
  const hasParams = req.endpoint.pathParams.length + req.endpoint.queryParams.length > 0;
  const args = [...(hasParams ? [{ ...req.params, ...req.query }] : []), ...(req.body === undefined ? [] : [req.body])];
  return method.apply(client, args);
}

/** An error answer as the document shapes it, with a status the mock may answer on this endpoint. */
export function expectError(exchange: Exchange, endpoint: Endpoint, status: ErrorStatus): void {
  const where = `${operation(endpoint)}: ${exchange.status} ${exchange.text.slice(0, 300)}`;
  expect(exchange.status, where).toBe(status);
  expect(mockErrorStatuses(endpoint), `${status} is not a status the mock may answer on ${operation(endpoint)}`).toContain(status);
  expect(exchange.contentType, where).toMatch(/^application\/json\b/);
  expect(validateErrorBody(exchange.body), `${where}\n${JSON.stringify(validateErrorBody.errors)}`).toBe(true);
  expect((exchange.body as { status: unknown }).status, where).toBe(exchange.status);
}

/** `[name, endpoint]` rows for `it.each`, named as the document writes the operation. */
export const rows = (endpoints: readonly Endpoint[]): [string, Endpoint][] => endpoints.map((e) => [operation(e), e]);
