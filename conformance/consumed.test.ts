/**
 * What a run consumed: accepted (2xx) requests to endpoints the model marks destructive, by
 * operation and path ids, whatever the endpoint; nothing for reads, mutations or refusals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { operation } from '../spec/queries.ts';
import { ConsumptionLog, MAX_CONSUMPTIONS, pathIds } from './consumed.ts';
import type { Exchange } from './types.ts';

const BASE = 'http://127.0.0.1:1/api/v2';

/** The URL of an endpoint with each path parameter filled by `ids`. */
const urlOf = (path: string, ids: Readonly<Record<string, string>>) => `${BASE}${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'x'))}`;

const exchange = (name: string, status: number | undefined, ids: Readonly<Record<string, string>> = {}): Exchange => {
  const endpoint = api.endpoints.find((e) => e.name === name)!;
  return {
    probe: { rule: 'INPUT-ACCEPT', endpoint, expect: 'valid', title: 't', request: { method: endpoint.method, url: urlOf(endpoint.path, ids), headers: {} } },
    ...(status === undefined ? { failure: { kind: 'timeout', message: 'no answer', ms: 1 } } : { response: { status, headers: {}, text: '', ms: 1 } }),
    throttled: 0,
  };
};

describe('pathIds', () => {
  it('reads back every path parameter of every endpoint, whatever its value (but the dot segments a URL resolves)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...api.endpoints), fc.string({ minLength: 1 }).filter((v) => v !== '.' && v !== '..'), (e, value) => {
        const ids = Object.fromEntries(e.pathParams.map((p) => [p.name, value]));
        expect(pathIds(e.path, urlOf(e.path, ids), BASE)).toEqual(ids);
      }),
    );
  });

  it.each([
    ['another base path', 'http://127.0.0.1:1/other/v2/sites/s1'],
    ['a path of another shape', `${BASE}/sites/s1/extra`],
    ['not a URL', 'nope'],
  ])('finds none on %s', (_, url) => {
    expect(pathIds('/sites/{site_id}', url, BASE)).toEqual({});
  });
});

describe('ConsumptionLog', () => {
  const destructive = api.endpoints.filter((e) => e.effect === 'destructive');

  it('counts accepted requests to destructive endpoints per operation and ids; reads, mutations, refusals and silences are not consumption', () => {
    const log = new ConsumptionLog(BASE);
    for (const e of api.endpoints) {
      const ids = Object.fromEntries(e.pathParams.map((p) => [p.name, `${p.name}-1`]));
      for (const status of [202, 200, 400, 404, 500, undefined]) log.observe(exchange(e.name, status, ids));
      log.observe(exchange(e.name, 202, ids));
    }
    expect(log.entries()).toEqual(
      destructive.map((e) => ({ operation: operation(e), ids: Object.fromEntries(e.pathParams.map((p) => [p.name, `${p.name}-1`])), requests: 3 })),
    );
  });

  it(`keeps ${MAX_CONSUMPTIONS} entries and counts the rest, and names them in one note`, () => {
    const log = new ConsumptionLog(BASE);
    expect(log.note(false)).toBeUndefined();
    for (let i = 0; i < MAX_CONSUMPTIONS + 7; i++) log.observe(exchange('removeAdditionalSftpAccount', 202, { sftp_account_id: `account-${i}` }));
    expect(log.entries()).toHaveLength(MAX_CONSUMPTIONS);
    expect(log.more).toBe(7);
    const note = log.note(false)!;
    expect(note).toContain('DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id} (sftp_account_id account-0) × 1');
    expect(note).toContain('and 7 more with other ids');
    expect(note).toContain('a later run against this target may find less to check');
  });
});
