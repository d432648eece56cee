/**
 * Shared by the mock's behaviour tests: valid requests for any endpoint of the model, built from
 * one tenant's fixtures, and two ways to send them (the generated client, raw undici for status
 * and headers). Requests come from the conformance suite's request kit (`conformance/probes/inputs.ts`),
 * which reads what each path parameter and body field refers to from the model.
 */
import fc from 'fast-check';
import { request } from 'undici';
import { expect } from 'vitest';
import type { HostedSiteClient } from '../generated/client.ts';
import { validateErrorBody } from '../generated/validators.js';
import type { Endpoint, ErrorStatus } from '../spec/model.ts';
import { fillPath, mockErrorStatuses, operation } from '../spec/queries.ts';
import { validRequests } from '../conformance/probes/inputs.ts';
import type { DiscoveredIds } from '../conformance/types.ts';
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

/** The tenant as the conformance suite's request kit sees it: one place, its first environment. */
export function idsOf(t: Tenant): DiscoveredIds {
  const record = t.domain.dnsRecords[0];
  return {
    companyId: t.companyId,
    siteId: t.siteId,
    envIds: [t.env.id],
    envId: t.env.id,
    cdnCacheId: t.env.cdnCacheId,
    domainId: t.domain.id,
    domainName: t.domain.name,
    ...(record ? { dnsRecord: { type: record.type, name: record.name } } : {}),
    backupId: t.backupId,
    sftpEnvId: t.env.id,
    sftpAccountIds: [t.sftpAccountId],
    userId: t.userId,
  };
}

export interface ApiRequest {
  readonly endpoint: Endpoint;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** Undefined for endpoints without a body. */
  readonly body?: Readonly<Record<string, unknown>>;
}

/** One value of an arbitrary, fixed by the global seed of scripts/test-setup.ts. */
export const sampleOne = <T>(arb: fc.Arbitrary<T>): T => fc.sample(arb, { numRuns: 1, seed: fc.readConfigureGlobal().seed })[0]!;

/** A request every reading of the document accepts, naming `tenant`'s data (the suite's request kit). */
export function validRequest(endpoint: Endpoint, tenant: Tenant): ApiRequest {
  const built = validRequests(endpoint, { ids: idsOf(tenant) }, Number(fc.readConfigureGlobal().seed ?? 0), 1);
  if (!built.ok) throw new Error(`no valid request for ${operation(endpoint)}: ${built.reason}`);
  const { path, query, body } = built.value[0]!;
  return { endpoint, params: path ?? {}, query: query ?? {}, ...(body && 'json' in body ? { body: body.json as Record<string, unknown> } : {}) };
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
  /** The response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
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
  return { status: response.statusCode, contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType, text, body: parsed, headers: response.headers };
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
