/**
 * Examples for the OpenAPI document, taken from the reference mock: for each endpoint a valid
 * request (the conformance suite's request kit, naming the first company's fixtures) and the
 * mock's actual answer to it, run in process on a fresh store. Fixture ids and timestamps are
 * deterministic; the two things that are not are pinned here: an acknowledgement's random
 * operation id (replaced by `<kind>-<fixture uuid>`) and secrets (replaced by an obvious fake).
 */
import { validRequests } from '../conformance/probes/inputs.ts';
import type { DiscoveredIds } from '../conformance/types.ts';
import { createApp, type MockResponse } from '../mock/app.ts';
import { HttpError, renderError } from '../mock/errors.ts';
import { fixtureUuid } from '../mock/fixtures.ts';
import { Store } from '../mock/store.ts';
import type { Hooks } from '../mock/variant.ts';
import type { Api, Endpoint, ErrorStatus } from '../spec/model.ts';
import { fillPath, isAck, operation, secretFieldNames } from '../spec/queries.ts';

/** The seed of the request kit's draws: any fixed number keeps the examples identical run after run. */
const EXAMPLE_SEED = 20261122;

/** What a secret field shows in an example: plainly not a real secret, still a string. */
export const FAKE_SECRET = 'example-not-a-real-secret';

export interface EndpointExample {
  readonly path: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** The mock's success answer. */
  readonly response: unknown;
}

export interface Examples {
  readonly byEndpoint: ReadonlyMap<string, EndpointExample>;
  /** The mock's error answer per status, where a request can provoke it. */
  readonly errors: ReadonlyMap<ErrorStatus, unknown>;
}

/** The ids the request kit names, read from a fresh store: the first company's first site, environment and domain. */
function idsOf(store: Store): { readonly apiKey: string; readonly ids: DiscoveredIds } {
  const company = store.companies[0]!;
  const env = company.sites[0]!.environments[0]!;
  const domain = store.domain(company.id, env.domains[0]!.id)!;
  const record = domain.dnsRecords[0];
  return {
    apiKey: company.apiKey,
    ids: {
      companyId: company.id,
      siteId: company.sites[0]!.id,
      envIds: [env.id],
      envId: env.id,
      cdnCacheId: env.cdnCacheId,
      domainId: domain.id,
      domainName: domain.name,
      ...(record ? { dnsRecord: { type: record.type, name: record.name } } : {}),
      backupId: env.backups[0]!.id,
      sftpEnvId: env.id,
      sftpAccountIds: [env.sftpAccounts[0]!.id],
      userId: company.users[0]!.user.id,
    },
  };
}

/** A copy with every secret field's value replaced by FAKE_SECRET, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, secretFieldNames.includes(key) && typeof v === 'string' ? FAKE_SECRET : withoutSecrets(v)]),
  );
}

export function examplesOf(api: Api): Examples {
  const { apiKey, ids } = idsOf(new Store());
  const authorization = `Bearer ${apiKey}`;
  const byEndpoint = new Map<string, EndpointExample>();
  for (const endpoint of api.endpoints) {
    const built = validRequests(endpoint, { ids }, EXAMPLE_SEED, 1);
    if (!built.ok) throw new Error(`no example request for ${operation(endpoint)}: ${built.reason}`);
    const { path = {}, query = {}, body } = built.value[0]!;
    const json = body && 'json' in body ? body.json : undefined;
    const response = answerOf(api, endpoint, path, query, json, authorization, acceptingInput);
    if (response.status >= 300) throw new Error(`the mock refused the example request for ${operation(endpoint)}: ${response.status} ${JSON.stringify(response.body)}`);
    const pinned = isAck(endpoint)
      ? { ...(response.body as object), operation_id: `${endpoint.success.operationKind}-${fixtureUuid(`openapi-example/${endpoint.name}`)}` }
      : response.body;
    byEndpoint.set(endpoint.name, { path, query, ...(json === undefined ? {} : { body: withoutSecrets(json) }), response: withoutSecrets(pinned) });
  }
  return { byEndpoint, errors: errorAnswers(api, ids, authorization) };
}

/** One request through the mock on a fresh store, so no example depends on what another changed. */
/**
 * The request kit builds valid requests from the model being generated, while the mock judges
 * input with the validators generated last time (generated/validators.js, loaded with it): a
 * success example takes the kit's word, so a model change shows in one `generate`, not two.
 */
const acceptingInput: Hooks = { judgeInput: () => undefined };

function answerOf(
  api: Api,
  endpoint: Endpoint,
  path: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>>,
  body: unknown,
  authorization: string | undefined,
  hooks: Hooks = {},
): MockResponse {
  const store = new Store();
  const search = new URLSearchParams(query).toString();
  return createApp(store, hooks)({
    method: endpoint.method,
    url: `${api.basePath}${fillPath(endpoint.path, path)}${search ? `?${search}` : ''}`,
    headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' },
    body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
  });
}

/**
 * The mock's error answers that a request can provoke on the first endpoint where it applies:
 * 401 without a key, 404 for an unknown id, 400 for a body that is not an object; and 500 as the
 * mock answers when its own pipeline fails (mock/server.ts), the only 500 it ever gives.
 */
function errorAnswers(api: Api, ids: DiscoveredIds, authorization: string): Map<ErrorStatus, unknown> {
  const result = new Map<ErrorStatus, unknown>();
  const first = api.endpoints[0]!;
  const kit = (e: Endpoint) => {
    const built = validRequests(e, { ids }, EXAMPLE_SEED, 1);
    if (!built.ok) throw new Error(built.reason);
    return built.value[0]!;
  };
  const record = (status: ErrorStatus, response: MockResponse) => {
    if (response.status !== status) throw new Error(`expected the mock to answer ${status}, got ${response.status}`);
    result.set(status, response.body);
  };
  const withBody = api.endpoints.find((e) => e.body && e.errors.includes(400));
  if (withBody) record(400, answerOf(api, withBody, kit(withBody).path ?? {}, {}, [], authorization));
  record(401, answerOf(api, first, kit(first).path ?? {}, {}, undefined, undefined));
  const withId = api.endpoints.find((e) => e.pathParams.length && e.effect === 'read' && e.errors.includes(404));
  if (withId) {
    const unknown = Object.fromEntries(withId.pathParams.map((p) => [p.name, fixtureUuid(`openapi-example/unknown/${p.name}`)]));
    record(404, answerOf(api, withId, unknown, {}, undefined, authorization));
  }
  result.set(500, renderError(new HttpError(500)));
  return result;
}
