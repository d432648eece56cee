/**
 * The traffic the proxy's end-to-end tests send through it: what a client might send, every
 * kind of request on every endpoint (or one), built from the ids the target's own reads give.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { discover } from '../conformance/discovery.ts';
import { createTransport } from '../conformance/http.ts';
import { authProbes } from '../conformance/probes/auth.ts';
import { validRequests } from '../conformance/probes/inputs.ts';
import { contextOf, mockTarget } from '../conformance/probes/test-target.ts';
import type { DiscoveredIds, Probe, Target } from '../conformance/types.ts';
import type { RunningMock } from '../mock/server.ts';
import { send, type ApiRequest } from '../mock/test-kit.ts';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { operation } from '../spec/queries.ts';

/** The base URL the key carriers are built on, then sent to the proxy instead: a loopback one, as the mock's is. */
const CARRIER_BASE = 'http://127.0.0.1:9/v2';
/**
 * What a run asks of the request kit, made once per set of ids: the kit is deterministic (the
 * same ids give the same requests) and most layouts' fixtures give the same ids, so some 140
 * runs share a few sets instead of paying 10-35 ms of CPU each to make them again.
 */
const carriersFor = new Map<string, readonly Probe[]>();
const validFor = new Map<string, ReturnType<typeof validRequests>>();

function keyCarriers(ids: DiscoveredIds, apiKey: string): readonly Probe[] {
  const memo = `${apiKey} ${JSON.stringify(ids)}`;
  let found = carriersFor.get(memo);
  if (!found) {
    const target: Target = { ...mockTarget({ baseUrl: CARRIER_BASE }), main: { apiKey, ids }, keyInUrl: true };
    // Those a proxy can tell from a client's request: a key of the right form is a key to it, right or not.
    found = authProbes(contextOf(target, 1106, 1)).probes.filter((p) => (p.rule === 'AUTH-BEARER' || p.expect === 'unauthorized') && !/^Bearer \S+$/.test(p.request.headers.authorization ?? ''));
    carriersFor.set(memo, found);
  }
  return found;
}

function validFrom(endpoint: Endpoint, ids: DiscoveredIds): ReturnType<typeof validRequests> {
  const memo = `${operation(endpoint)} ${JSON.stringify(ids)}`;
  let built = validFor.get(memo);
  if (!built) validFor.set(memo, (built = validRequests(endpoint, { ids }, 0, 1, { allowLive: true })));
  return built;
}

/**
 * Traffic a client might send: every endpoint with valid inputs on the ids discovery finds (an
 * action sent twice, as a retry does; again with an apostrophe and non-ASCII in free text, with
 * each boolean the other way, and a GET that takes a body sent without one, as fetch sends it),
 * with ids no one has, without a key or with it carried as the suite's own AUTH probes carry it,
 * and with a body that breaks its schema. Where the layout holds no data to name, ids no one has
 * stand in. `only`: that endpoint's requests alone.
 */
export async function everyKindOfRequest(url: string, mock: RunningMock, only?: Endpoint): Promise<void> {
  const transport = createTransport({ timeoutMs: 10_000 });
  const { ids } = await discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.siteId, send: transport, allowLive: true }).finally(() => transport.close());
  const options = { apiKey: mock.fixtures.apiKey };
  const carriers = keyCarriers(ids, mock.fixtures.apiKey);
  const unknownIds = (endpoint: Endpoint) => Object.fromEntries(endpoint.pathParams.map((p) => [p.name, randomUUID()]));
  // Reads first: the actions after them change the data they read.
  const ordered = only ? [only] : [...api.endpoints].sort((a, b) => Number(a.effect !== 'read') - Number(b.effect !== 'read'));
  for (const endpoint of ordered) {
    const built = validFrom(endpoint, ids);
    const parts = built.ok ? built.value[0]! : undefined;
    const body = parts?.body && 'json' in parts.body ? (parts.body.json as Record<string, unknown>) : undefined;
    const valid: ApiRequest = { endpoint, params: parts?.path ?? unknownIds(endpoint), query: parts?.query ?? {}, ...(body ? { body } : {}) };
    await send(url, valid, options);
    // An action a client retries at once.
    if (endpoint.effect !== 'read') await send(url, valid, options);
    const text = (endpoint.body ?? []).filter((f) => f.freeText && typeof body?.[f.name] === 'string');
    if (text.length) await send(url, { ...valid, body: { ...body, ...Object.fromEntries(text.map((f) => [f.name, `${String(body![f.name])} O'Brien-ü漢`])) } }, options);
    const flags = (endpoint.body ?? []).filter((f) => typeof body?.[f.name] === 'boolean');
    if (flags.length) await send(url, { ...valid, body: { ...body, ...Object.fromEntries(flags.map((f) => [f.name, !body![f.name]])) } }, options);
    if (endpoint.method === 'GET' && body) await send(url, { endpoint, params: valid.params, query: valid.query }, options);
    if (endpoint.pathParams.length) await send(url, { ...valid, params: unknownIds(endpoint) }, options);
    await send(url, valid, { authorization: null });
    // The suite's own requests with the key missing or carried wrongly: what a client gets wrong.
    for (const probe of carriers.filter((p) => p.endpoint === endpoint)) {
      if (!probe.request.url.startsWith(CARRIER_BASE)) throw new Error(`a carrier off the base it was built on: ${probe.request.url}`);
      const res = await request(`${url}${probe.request.url.slice(CARRIER_BASE.length)}`, { method: probe.request.method, headers: probe.request.headers, ...(probe.request.body === undefined ? {} : { body: probe.request.body }) });
      await res.body.dump();
    }
    if (endpoint.body?.length) await send(url, valid, { ...options, rawBody: JSON.stringify(Object.fromEntries(endpoint.body.map((f) => [f.name, { not: 'this type' }]))) });
  }
}
