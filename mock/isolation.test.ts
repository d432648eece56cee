/**
 * Tenant isolation (§Authentication 4): company A's key cannot read company B's data (404, as
 * for data that does not exist), cannot act on it (404, CONFLICT-ACTION-UNKNOWN-RESOURCE), and
 * B's state stays as it was. A's own reads still work afterwards and never show B's ids.
 * Every table is walked from the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseValidators, type Validator } from '../generated/validators.js';
import { api } from '../spec/api.ts';
import { formats } from '../spec/formats.ts';
import type { Endpoint } from '../spec/model.ts';
import { isAck, isRead, operation } from '../spec/queries.ts';
import { startMock, type RunningMock } from './server.ts';
import { expectError, rows, send, tenantOf, validRequest, type ApiRequest, type Tenant } from './test-kit.ts';

let mock: RunningMock;
let a: Tenant;
let b: Tenant;
/** B's state before A's key sent anything. */
let bAtStart: unknown;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  a = tenantOf(mock.store, mock.fixtures.companyId);
  b = tenantOf(mock.store, mock.fixtures.otherCompanyId);
  bAtStart = mock.store.snapshot(b.companyId);
});
afterAll(() => mock.close());

const readsWithIds = api.endpoints.filter((e) => isRead(e) && e.pathParams.length > 0);
const actions = api.endpoints.filter((e) => !isRead(e));
const validatorOf = (e: Endpoint): Validator => (responseValidators as unknown as Record<string, Validator>)[e.name]!;
const uuidsIn = (text: string): string[] => text.match(new RegExp(formats.uuid.pattern.slice(1, -1), 'g')) ?? [];

/**
 * The places a request names data (path ids; body fields holding B's own values), each with
 * A's request changed in that one place to B's value. Places where A and B hold the same value
 * (backup ids are numbered per environment) are left out: they cannot tell the tenants apart.
 */
function foreignSlots(endpoint: Endpoint): [string, (own: ApiRequest, foreign: ApiRequest) => ApiRequest][] {
  const own = validRequest(endpoint, a);
  const foreign = validRequest(endpoint, b);
  const pathSlots = endpoint.pathParams
    .filter((p) => own.params[p.name] !== foreign.params[p.name])
    .map((p): [string, (o: ApiRequest, f: ApiRequest) => ApiRequest] => [`path ${p.name}`, (o, f) => ({ ...o, params: { ...o.params, [p.name]: f.params[p.name]! } })]);
  const bodySlots = (endpoint.body ?? [])
    .filter((f) => JSON.stringify(own.body?.[f.name]) !== JSON.stringify(foreign.body?.[f.name]))
    // Only values that are B's data, not values sampled afresh per request.
    .filter((f) => JSON.stringify(mock.store.snapshot(b.companyId)).includes(JSON.stringify(foreign.body?.[f.name])))
    .map((f): [string, (o: ApiRequest, r: ApiRequest) => ApiRequest] => [`body ${f.name}`, (o, r) => ({ ...o, body: { ...o.body, [f.name]: r.body?.[f.name] } })]);
  return [...pathSlots, ...bodySlots];
}

describe.each(rows(readsWithIds))('%s', (_, endpoint) => {
  it("answers 404 to A's key for B's ids", async () => {
    expectError(await send(mock.url, validRequest(endpoint, b), { apiKey: a.apiKey }), endpoint, 404);
  });

  it("answers B's key for the same ids (the 404 is about the key)", async () => {
    const answer = await send(mock.url, validRequest(endpoint, b), { apiKey: b.apiKey });
    expect(answer.status).toBe(200);
  });
});

describe.each(rows(actions))('%s', (_, endpoint) => {
  it("answers 404 to A's key naming only B's ids, and B's state does not change", async () => {
    const before = mock.store.snapshot(b.companyId);
    const operations = mock.store.acknowledgedOperations;
    expectError(await send(mock.url, validRequest(endpoint, b), { apiKey: a.apiKey }), endpoint, 404);
    expect(mock.store.snapshot(b.companyId)).toEqual(before);
    expect(mock.store.acknowledgedOperations).toBe(operations);
  });

  it("answers 404 to A's own request with any one of B's ids in it, changing neither tenant", async () => {
    const slots = foreignSlots(endpoint);
    expect(slots.length, 'every action names some data').toBeGreaterThan(0);
    for (const [slot, swap] of slots) {
      const req = swap(validRequest(endpoint, a), validRequest(endpoint, b));
      const before = { a: mock.store.snapshot(a.companyId), b: mock.store.snapshot(b.companyId) };
      const answer = await send(mock.url, req, { apiKey: a.apiKey });
      expect(answer.status, `${operation(endpoint)} with B's ${slot}: ${answer.text}`).toBe(404);
      expectError(answer, endpoint, 404);
      expect({ a: mock.store.snapshot(a.companyId), b: mock.store.snapshot(b.companyId) }, slot).toEqual(before);
    }
  });
});

describe("after A's key tried everything on B's data", () => {
  it("B's state is as it was at the start", () => {
    expect(mock.store.snapshot(b.companyId)).toEqual(bAtStart);
  });

  it.each(rows(api.endpoints.filter(isRead)))("A's read %s still works and shows none of B's ids", async (_, endpoint) => {
    const answer = await send(mock.url, validRequest(endpoint, a), { apiKey: a.apiKey });
    expect(answer.status).toBe(200);
    const validate = validatorOf(endpoint);
    expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
    const bIds = new Set(uuidsIn(JSON.stringify(mock.store.snapshot(b.companyId))));
    expect(bIds.size).toBeGreaterThan(0);
    expect(uuidsIn(answer.text).filter((id) => bIds.has(id))).toEqual([]);
  });

  it.each(rows(actions))("A's action %s still works on A's own data", async (_, endpoint) => {
    const answer = await send(mock.url, validRequest(endpoint, a), { apiKey: a.apiKey });
    expect(answer.status, answer.text).toBe(isAck(endpoint) ? 202 : 200);
  });
});
