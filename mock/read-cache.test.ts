/**
 * The reference mock answers a repeated read from what it serialised (app.ts, `ReadCache`).
 * Whatever the order of reads and actions, from either company, with keys right or wrong, bodies
 * valid or not, a mock that keeps reads answers exactly what one that never keeps them answers
 * (operation ids aside: each acknowledgement draws a fresh one), in the bytes the server sends.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { fillPath } from '../spec/queries.ts';
import { createApp, type MockRequest, type MockResponse } from './app.ts';
import { seedCompanies } from './fixtures.ts';
import { Store } from './store.ts';
import { tenantOf, validRequest, type Tenant } from './test-kit.ts';

const reads = api.endpoints.flatMap((e, i) => (e.method === 'GET' ? [i] : []));

/** Two stores of the same fixtures: one behind a mock that keeps reads, one behind a mock that does not. */
function pair() {
  const kept = new Store({ companies: seedCompanies() });
  const fresh = new Store({ companies: seedCompanies() });
  return { kept, fresh, keeping: createApp(kept), plain: createApp(fresh, {}, { keepReads: false }) };
}

/** A request of the endpoint that names `tenant`'s data, as a client sends it. */
function mockRequest(tenant: Tenant, endpointIndex: number, key: 'own' | 'other' | 'none', oddBody: boolean, otherKey: string): MockRequest {
  const endpoint = api.endpoints[endpointIndex]!;
  const valid = validRequest(endpoint, tenant);
  const search = new URLSearchParams(valid.query).toString();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== 'none') headers.authorization = `Bearer ${key === 'own' ? tenant.apiKey : otherKey}`;
  const body = valid.body === undefined && !oddBody ? '' : oddBody ? '{"unexpected": 1}' : JSON.stringify(valid.body);
  return { method: endpoint.method, url: `/v2${fillPath(endpoint.path, valid.params)}${search ? `?${search}` : ''}`, headers, body: Buffer.from(body) };
}

/** The answer as the server sends it (a kept text, else the body), operation ids replaced: the only part two mocks may draw differently. */
const comparable = (response: MockResponse) => ({
  status: response.status,
  headers: response.headers,
  text: (response.text ?? JSON.stringify(response.body ?? null)).replace(/"operation_id":"[^"]*"/g, '"operation_id":"…"'),
});

describe('reads kept until the store changes', () => {
  it('answer as a mock that keeps none, over any order of reads and actions', () => {
    const step = fc.record({
      tenant: fc.constantFrom(0, 1),
      endpoint: fc.integer({ min: 0, max: api.endpoints.length - 1 }),
      key: fc.constantFrom('own', 'own', 'own', 'other', 'none') as fc.Arbitrary<'own' | 'other' | 'none'>,
      oddBody: fc.boolean(),
      repeat: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const { kept, fresh, keeping, plain } = pair();
        const tenants = [kept, fresh].map((store) => [0, 1].map((i) => tenantOf(store, store.companies[i]!.id)));
        const send = (tenant: number, endpoint: number, key: 'own' | 'other' | 'none', oddBody: boolean) => {
          const [a, b] = [0, 1].map((side) => mockRequest(tenants[side]![tenant]!, endpoint, key, oddBody, tenants[side]![1 - tenant]!.apiKey));
          expect(comparable(keeping(a!)), `${a!.method} ${a!.url}`).toEqual(comparable(plain(b!)));
        };
        for (const s of steps) {
          for (let r = 0; r < s.repeat; r++) send(s.tenant, s.endpoint, s.key, s.oddBody);
          // Then every read of both companies: what the step changed must show at once.
          for (const read of reads) for (const tenant of [0, 1]) send(tenant, read, 'own', false);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a change made through the store shows in the next read', () => {
    const { kept, keeping } = pair();
    const tenant = tenantOf(kept, kept.companies[0]!.id);
    const read: MockRequest = { method: 'GET', url: `/v2/domains/${tenant.domain.id}/dns-records`, headers: { authorization: `Bearer ${tenant.apiKey}` }, body: Buffer.alloc(0) };
    const before = keeping(read);
    expect(keeping(read)).toBe(before); // kept: the same answer, not built again
    kept.updateDnsRecords(tenant.domain, { type: 'TXT', name: tenant.domain.name, new_resource_records: [{ value: 'changed-through-the-store' }] });
    expect(keeping(read).text).toContain('changed-through-the-store');
  });

  it('a field set by hand shows once the store is told (`changed`)', () => {
    const { kept, keeping } = pair();
    const tenant = tenantOf(kept, kept.companies[0]!.id);
    const read: MockRequest = { method: 'GET', url: `/v2/sites/${tenant.siteId}`, headers: { authorization: `Bearer ${tenant.apiKey}` }, body: Buffer.alloc(0) };
    const name = keeping(read).text;
    (tenant.env as { displayName: string }).displayName = 'Renamed by hand';
    expect(keeping(read).text).toBe(name);
    kept.changed();
    expect(keeping(read).text).toContain('Renamed by hand');
  });
});
