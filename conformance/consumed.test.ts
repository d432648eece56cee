/**
 * What a run changed: accepted (2xx) requests to endpoints the model marks mutating or
 * destructive, by operation and the ids named in the path and in the body fields the model says
 * refer to something, whatever the endpoint; nothing for reads, refusals or silences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { endpoint, operation } from '../spec/queries.ts';
import { bodyIds, ConsumptionLog, ID_SHOWN, MAX_IDS_PER_OPERATION, pathIds } from './consumed.ts';
import type { Exchange } from './types.ts';

const BASE = 'http://127.0.0.1:1/api/v2';

/** The URL of an endpoint with each path parameter filled by `ids`. */
const urlOf = (path: string, ids: Readonly<Record<string, string>>) => `${BASE}${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'x'))}`;

const exchange = (name: string, status: number | undefined, ids: Readonly<Record<string, string>> = {}, body?: string): Exchange => {
  const endpoint = api.endpoints.find((e) => e.name === name)!;
  return {
    probe: { rule: 'INPUT-ACCEPT', endpoint, expect: 'valid', title: 't', request: { method: endpoint.method, url: urlOf(endpoint.path, ids), headers: {}, ...(body === undefined ? {} : { body }) } },
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

/** Every id an endpoint's requests can name, from the model: path parameters, and body fields that refer to something. */
const idNames = (e: Endpoint) => ({ path: e.pathParams.map((p) => p.name), body: (e.body ?? []).filter((f) => f.refersTo !== undefined).map((f) => f.name) });

describe('bodyIds', () => {
  const naming = api.endpoints.filter((e) => idNames(e).body.length > 0);

  it('the model names ids in some bodies (the search-and-replace environment, the backup restored)', () => {
    expect(naming.map((e) => e.name)).toEqual(expect.arrayContaining(['searchAndReplace', 'restoreBackup']));
  });

  it('reads every body field that refers to something, as text, and no other field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...api.endpoints), fc.oneof(fc.string(), fc.integer()), (e, value) => {
        const body = Object.fromEntries((e.body ?? []).map((f) => [f.name, value]));
        const text = typeof value === 'string' ? value : String(value);
        const want = Object.fromEntries(idNames(e).body.map((name) => [name, text.length > ID_SHOWN ? `${text.slice(0, ID_SHOWN)}…` : text]));
        expect(bodyIds(e, JSON.stringify(body))).toEqual(want);
      }),
    );
  });

  it.each([
    ['no body', undefined],
    ['a body that is not JSON', '{"environment_id":'],
    ['a JSON array', '["environment_id"]'],
    ['an object without the fields', '{"search":"x"}'],
  ])('finds none in %s', (_, body) => {
    expect(bodyIds(endpoint('searchAndReplace'), body)).toEqual({});
  });

  it('keeps a bounded excerpt of a long or odd value', () => {
    const ids = bodyIds(endpoint('restoreBackup'), JSON.stringify({ backup_id: { x: 'y'.repeat(500) }, notified_user_id: null }));
    expect(ids.backup_id).toHaveLength(ID_SHOWN + 1);
    expect(ids.notified_user_id).toBe('null');
  });
});

describe('ConsumptionLog', () => {
  const changing = api.endpoints.filter((e) => e.effect !== 'read');
  /** Every id of an endpoint set to `<name>-<n>`, in its path and its body. */
  const named = (e: Endpoint, n: number) => {
    const { path, body } = idNames(e);
    return {
      path: Object.fromEntries(path.map((name) => [name, `${name}-${n}`])),
      body: e.body ? JSON.stringify(Object.fromEntries(e.body.map((f) => [f.name, `${f.name}-${n}`]))) : undefined,
      ids: Object.fromEntries([...path, ...body].map((name) => [name, `${name}-${n}`])),
    };
  };

  it('counts accepted requests to mutating and destructive endpoints per operation and ids, with the effect; reads, refusals and silences change nothing', () => {
    expect(changing.some((e) => e.effect === 'mutating') && changing.some((e) => e.effect === 'destructive')).toBe(true);
    const log = new ConsumptionLog(BASE);
    // Backwards, to show the order is the model's, not the order of arrival.
    for (const e of [...api.endpoints].reverse()) {
      const { path, body } = named(e, 1);
      for (const status of [202, 200, 204, 400, 404, 500, undefined]) log.observe(exchange(e.name, status, path, body));
    }
    expect(log.entries()).toEqual(changing.map((e) => ({ operation: operation(e), effect: e.effect, ids: named(e, 1).ids, requests: 3 })));
    const note = log.note(true)!;
    for (const e of changing) expect(note).toContain(`3 × ${operation(e)} (${e.effect})`);
    expect(note).toContain('the embedded mock starts afresh each run');
  });

  it('tells the requests apart by every id they name, in the path and in the body', () => {
    const log = new ConsumptionLog(BASE);
    const e = endpoint('restoreBackup');
    for (const n of [1, 2, 1]) log.observe(exchange(e.name, 202, named(e, 1).path, named(e, n).body));
    expect(log.entries().map((c) => [c.ids, c.requests])).toEqual([
      [named(e, 1).ids, 2],
      [{ ...named(e, 2).ids, ...named(e, 1).path }, 1],
    ]);
  });

  it(`keeps ${MAX_IDS_PER_OPERATION} id sets per operation and counts the rest; the note stays one short item per operation`, () => {
    fc.assert(
      fc.property(fc.subarray(changing, { minLength: 1 }), fc.nat({ max: 3 * MAX_IDS_PER_OPERATION }), (endpoints, extra) => {
        const log = new ConsumptionLog(BASE);
        const each = MAX_IDS_PER_OPERATION + extra;
        for (const e of endpoints) for (let n = 0; n < each; n++) log.observe(exchange(e.name, 202, named(e, n).path, named(e, n).body));
        // An operation naming no id has one id set, however many requests.
        const namesIds = (e: Endpoint) => idNames(e).path.length + idNames(e).body.length > 0;
        const sets = (e: Endpoint) => (namesIds(e) ? Math.min(each, MAX_IDS_PER_OPERATION) : 1);
        const rest = (e: Endpoint) => (namesIds(e) ? each - MAX_IDS_PER_OPERATION : 0);
        const entries = log.entries();
        expect(entries.filter((c) => !c.otherIds)).toHaveLength(endpoints.reduce((n, e) => n + sets(e), 0));
        expect(log.more).toBe(endpoints.reduce((n, e) => n + rest(e), 0));
        // The rest of each operation is one entry without ids: every accepted request is in the entries.
        expect(entries.filter((c) => c.otherIds).map((c) => [c.operation, c.ids, c.requests])).toEqual(endpoints.filter((e) => rest(e) > 0).map((e) => [operation(e), {}, rest(e)]));
        expect(entries.reduce((n, c) => n + c.requests, 0)).toBe(endpoints.length * each);
        const note = log.note(false)!;
        for (const e of endpoints) {
          const over = each > MAX_IDS_PER_OPERATION && sets(e) > 1;
          expect(note).toContain(`${each} × ${operation(e)} (${e.effect}${over ? `, more than ${MAX_IDS_PER_OPERATION} id sets` : sets(e) > 1 ? `, ${sets(e)} id sets` : ''})`);
        }
        // Short: no id in the note, whatever the run named.
        expect(note).not.toMatch(/-\d+\b/);
        expect(note).toContain('a later run against this target may find less to check');
      }),
      { numRuns: 30 },
    );
  });

  it('says nothing when nothing was changed', () => {
    const log = new ConsumptionLog(BASE);
    log.observe(exchange('getSite', 200, { site_id: 's' }));
    expect(log.note(false)).toBeUndefined();
    expect(log.entries()).toEqual([]);
  });
});
