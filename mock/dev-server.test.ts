/**
 * The mock as a development server for client authors (issue 10, item 6): unmarked body fields
 * accepted when omitted, with a warning naming them (`--unmarked-fields required` refuses them);
 * every problem of a request in one 400; a wrong path or method named with the nearest endpoints.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { fillPath, isAck, operation } from '../spec/queries.ts';
import { startMock, type RunningMock } from './server.ts';
import { expectError, send, tenantOf, validRequest, type ApiRequest, type Exchange, type Tenant } from './test-kit.ts';

let lenient: RunningMock;
let strict: RunningMock;
let tenant: Tenant;
let strictTenant: Tenant;
beforeAll(async () => {
  [lenient, strict] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0, unmarkedFields: 'required' })]);
  tenant = tenantOf(lenient.store, lenient.fixtures.companyId);
  strictTenant = tenantOf(strict.store, strict.fixtures.companyId);
});
afterAll(() => Promise.all([lenient.close(), strict.close()]));

const unmarkedOf = (e: Endpoint) => (e.body ?? []).filter((f) => f.presence === 'not-shown').map((f) => f.name);
/** Actions whose body has unmarked fields: the mock warns (default) or refuses (strict) when one is omitted. */
const actionsWithUnmarked = api.endpoints.filter((e) => e.effect !== 'read' && unmarkedOf(e).length > 0);
const without = (req: ApiRequest, names: readonly string[]): ApiRequest => ({
  ...req,
  body: Object.fromEntries(Object.entries(req.body ?? {}).filter(([k]) => !names.includes(k))),
});
const warningOf = (x: Exchange) => x.headers['x-contract-warning'] as string | undefined;
const problemsOf = (x: Exchange) => ((x.body as { data?: { problems?: { path: string; problem: string }[] } }).data?.problems ?? []);
const restore = api.endpoints.find((e) => e.name === 'restoreBackup')!;

describe('unmarked body fields (UNK-BODY-MARKING)', () => {
  it('a restore without notified_user_id is acknowledged with a warning naming it and the assumption', async () => {
    const answer = await send(lenient.url, without(validRequest(restore, tenant), ['notified_user_id']), { apiKey: tenant.apiKey });
    expect(answer.status).toBe(202);
    expect(warningOf(answer)).toMatch(/\bnotified_user_id\b/);
    expect(warningOf(answer)).toContain('ASM-NOT-SHOWN-FIELDS-SENT');
    expect(warningOf(answer)).not.toMatch(/\bbackup_id\b/);
  });

  it('a complete request carries no warning', async () => {
    const answer = await send(lenient.url, validRequest(restore, tenant), { apiKey: tenant.apiKey });
    expect(answer.status).toBe(202);
    expect(warningOf(answer)).toBeUndefined();
  });

  it('with --unmarked-fields required, the same restore is a 400 whose data names the field', async () => {
    const answer = await send(strict.url, without(validRequest(restore, strictTenant), ['notified_user_id']), { apiKey: strictTenant.apiKey });
    expectError(answer, restore, 400);
    expect(problemsOf(answer).map((p) => p.path)).toEqual(['/notified_user_id']);
  });

  it('any set of unmarked fields may be omitted from any action: accepted, each named in the warning, none other', async () => {
    const arb = fc.constantFrom(...actionsWithUnmarked).chain((e) => fc.tuple(fc.constant(e), fc.subarray(unmarkedOf(e), { minLength: 1 })));
    await fc.assert(
      fc.asyncProperty(arb, async ([endpoint, omitted]) => {
        const answer = await send(lenient.url, without(validRequest(endpoint, tenant), omitted), { apiKey: tenant.apiKey });
        expect(answer.status, `${operation(endpoint)} without ${omitted.join(', ')}: ${answer.text}`).toBe(isAck(endpoint) ? 202 : 200);
        // The list the warning opens with (the meanings of the codes it cites may name fields too).
        const listed = /^omitted body fields? ([^:]*):/.exec(warningOf(answer) ?? '')?.[1]?.split(', ') ?? [];
        expect(listed.sort()).toEqual([...omitted].sort());
      }),
      { numRuns: 40 },
    );
  });

  it('strict: omitting any set of unmarked fields is one 400 naming every one of them', async () => {
    const arb = fc.constantFrom(...actionsWithUnmarked).chain((e) => fc.tuple(fc.constant(e), fc.subarray(unmarkedOf(e), { minLength: 1 })));
    await fc.assert(
      fc.asyncProperty(arb, async ([endpoint, omitted]) => {
        const answer = await send(strict.url, without(validRequest(endpoint, strictTenant), omitted), { apiKey: strictTenant.apiKey });
        expectError(answer, endpoint, 400);
        expect(problemsOf(answer).map((p) => p.path).sort()).toEqual(omitted.map((n) => `/${n}`).sort());
      }),
      { numRuns: 40 },
    );
  });

  it.each(api.endpoints.filter((e) => (e.body ?? []).some((f) => f.presence === 'required')).map((e) => [operation(e), e] as const))(
    '%s: a field the document marks required is still refused when omitted',
    async (_, endpoint) => {
      for (const field of endpoint.body!.filter((f) => f.presence === 'required')) {
        const answer = await send(lenient.url, without(validRequest(endpoint, tenant), [field.name]), { apiKey: tenant.apiKey });
        expectError(answer, endpoint, 400);
        expect(problemsOf(answer).map((p) => p.path)).toContain(`/${field.name}`);
      }
    },
  );
});

describe('body fields the endpoint does not have', () => {
  const withBody = api.endpoints.filter((e) => e.effect !== 'read' && (e.body ?? []).length > 0);

  it('a misspelt field is accepted with a warning naming it and the field meant', async () => {
    const req = validRequest(restore, tenant);
    const { backup_id: id, ...rest } = req.body as Record<string, unknown>;
    const answer = await send(lenient.url, { ...req, body: { ...rest, backupId: id } }, { apiKey: tenant.apiKey });
    expect(answer.status).toBe(202);
    expect(warningOf(answer)).toContain('"backupId" (did you mean backup_id?)');
    // backup_id itself is unmarked, so its absence is named too.
    expect(warningOf(answer)).toMatch(/omitted body field backup_id\b/);
  });

  it('a refused request still names the misspelt field, whatever refused it (a 400, a 404)', async () => {
    const req = validRequest(restore, tenant);
    const { backup_id: id, ...rest } = req.body as Record<string, unknown>;
    const strictReq = validRequest(restore, strictTenant);
    const { backup_id: strictId, ...strictRest } = strictReq.body as Record<string, unknown>;
    const refused = await send(strict.url, { ...strictReq, body: { ...strictRest, backupId: strictId } }, { apiKey: strictTenant.apiKey });
    expectError(refused, restore, 400);
    expect(warningOf(refused)).toContain('"backupId" (did you mean backup_id?)');
    const unknownUser = await send(lenient.url, { ...req, body: { ...rest, backupId: id, notified_user_id: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' } }, { apiKey: tenant.apiKey });
    expect(unknownUser.status).toBe(404);
    expect(warningOf(unknownUser)).toContain('"backupId" (did you mean backup_id?)');
  });

  it('any extra field, whatever its name, is accepted as without it, and named in an ASCII warning', async () => {
    const arb = fc.tuple(fc.constantFrom(...withBody), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }));
    await fc.assert(
      fc.asyncProperty(arb, async ([endpoint, name]) => {
        fc.pre(!(endpoint.body ?? []).some((f) => f.name === name));
        const req = validRequest(endpoint, tenant);
        const answer = await send(lenient.url, { ...req, body: { ...(req.body as object), [name]: 1 } }, { apiKey: tenant.apiKey });
        expect(answer.status, answer.text).toBe(isAck(endpoint) ? 202 : 200);
        const warning = warningOf(answer) ?? '';
        expect(warning).toMatch(/^[\x20-\x7e]*$/);
        expect(warning).toContain(JSON.stringify(name.slice(0, 8)).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
        expect(warning).toContain('the document does not say whether a server refuses');
      }),
      { numRuns: 40 },
    );
  });
});

describe('a query parameter whose name the document does not show', () => {
  const withQuery = api.endpoints.filter((e) => e.queryParams.some((p) => p.assumption));

  it.each(withQuery.map((e) => [operation(e), e] as const))('%s: missing, the 400 names the assumption, not the document, and the parameter likely meant', async (_, endpoint) => {
    const param = endpoint.queryParams.find((p) => p.assumption)!;
    const path = fillPath(endpoint.path, { env_id: tenant.env.id });
    const answer = await fetch(`${lenient.url}${path}?${param.name.slice(1)}=a@example.test`, { headers: { authorization: `Bearer ${lenient.fixtures.apiKey}` } });
    const body = (await answer.json()) as { data?: { problems?: { path: string; problem: string }[] } };
    expect(answer.status).toBe(400);
    const problem = body.data?.problems?.find((p) => p.path === `?${param.name}`)?.problem ?? '';
    expect(problem).toContain(param.assumption!);
    expect(problem).not.toContain('the document marks it');
    expect(problem).toContain(`did you mean ${param.name} for "${param.name.slice(1)}"?`);
  });
});

describe('a 400 lists every problem at once', () => {
  it('a type error and a missing field of a restore (strict) are both in data.problems', async () => {
    const req = without(validRequest(restore, strictTenant), ['notified_user_id']);
    const answer = await send(strict.url, { ...req, body: { ...req.body, backup_id: 'not a number' } }, { apiKey: strictTenant.apiKey });
    expectError(answer, restore, 400);
    expect(problemsOf(answer).map((p) => p.path).sort()).toEqual(['/backup_id', '/notified_user_id']);
  });

  it('every field given a wrong type is named, whichever fields they are', async () => {
    const withBody = api.endpoints.filter((e) => e.body !== undefined && e.body.length > 1 && e.errors.includes(400));
    const arb = fc.constantFrom(...withBody).chain((e) => fc.tuple(fc.constant(e), fc.subarray(e.body!.map((f) => f.name), { minLength: 2 })));
    await fc.assert(
      fc.asyncProperty(arb, async ([endpoint, broken]) => {
        const req = validRequest(endpoint, tenant);
        // An object is the wrong type for every field of the document (none is an object).
        const body = { ...req.body, ...Object.fromEntries(broken.map((name) => [name, { wrong: true }])) };
        const answer = await send(lenient.url, { ...req, body }, { apiKey: tenant.apiKey });
        expectError(answer, endpoint, 400);
        const paths = new Set(problemsOf(answer).map((p) => p.path));
        for (const name of broken) expect(paths, `${operation(endpoint)}: ${answer.text}`).toContain(`/${name}`);
      }),
      { numRuns: 30 },
    );
  });
});

describe('an unknown path or method', () => {
  const get = (mock: RunningMock, method: string, path: string) =>
    fetch(`${mock.url}${path}`, { method, headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as { message: string; status: number; data?: Record<string, unknown> } }));

  it('GET /environments/{id}/files names GET /sites/environments/{env_id}/file-list', async () => {
    const answer = await get(lenient, 'GET', `/environments/${tenant.env.id}/files`);
    expect(answer.status).toBe(404);
    expect(answer.body.status).toBe(404);
    expect(answer.body.data?.closest).toContain('GET /sites/environments/{env_id}/file-list');
    expect(answer.body.data?.hint).toContain('did you mean GET /sites/environments/{env_id}/file-list');
  });

  // Issue 20: what two third-party clients of this API sent.
  it.each([
    ['GET', (id: string) => `/environments/${id}/sftp-password`, 'getSftpPassword'],
    ['POST', () => '/cdn-cache/clear', 'clearCdnCache'],
  ] as const)('%s %s says it is no endpoint of the document and names first the one meant', async (method, path, meant) => {
    const answer = await get(lenient, method, path(tenant.env.id));
    expect(answer.status).toBe(404);
    expect(answer.body.message.startsWith(api.errorMeanings.find((m) => m.status === 404)!.meaning)).toBe(true);
    expect(answer.body.message).toMatch(/not an endpoint of the document/);
    const wanted = operation(api.endpoints.find((e) => e.name === meant)!);
    expect((answer.body.data?.closest as string[])[0]).toBe(wanted);
    expect(answer.body.message).toContain(`did you mean ${wanted}`);
  });

  it('an unknown id keeps its own data: the resource, no suggestions', async () => {
    const answer = await get(lenient, 'GET', `/sites/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`);
    expect(answer.status).toBe(404);
    expect(answer.body.data).toEqual({ resource: 'site' });
  });

  it('an id that is not a UUID, whatever the body, names what its parameter names', async () => {
    for (const endpoint of api.endpoints.filter((e) => e.pathParams.length > 0)) {
      for (const param of endpoint.pathParams) {
        const path = fillPath(endpoint.path, Object.fromEntries(endpoint.pathParams.map((p) => [p.name, p === param ? 'not-a-uuid' : tenant.env.id])));
        const answer = await fetch(`${lenient.url}${path}`, {
          method: endpoint.method,
          headers: { authorization: `Bearer ${lenient.fixtures.apiKey}`, 'content-type': 'application/json' },
          ...(endpoint.body && endpoint.method !== 'GET' ? { body: '{"bad": [' } : {}), // fetch sends no body with GET
        });
        const body = (await answer.json()) as { data?: { resource?: string; parameter?: string } };
        expect(answer.status, `${operation(endpoint)} with ${param.name}`).toBe(404);
        expect(body.data, `${operation(endpoint)} with ${param.name}`).toEqual({ resource: param.refersTo!.replace(/-/g, ' '), parameter: param.name });
      }
    }
  });

  // A template whose literal segment is misspelt by one character, or sent under another method.
  const templated = api.endpoints.filter((e) => e.path.split('/').some((s) => s.length >= 5 && !s.startsWith('{')));
  const sample = (e: Endpoint) => fillPath(e.path, Object.fromEntries(e.pathParams.map((p) => [p.name, '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'])));

  it('a literal segment misspelt by one character names the endpoint meant', async () => {
    const arb = fc.constantFrom(...templated).chain((e) => {
      const segments = e.path.split('/');
      const literals = segments.flatMap((s, i) => (s.length >= 5 && !s.startsWith('{') ? [i] : []));
      return fc.tuple(fc.constant(e), fc.constantFrom(...literals), fc.nat(), fc.constantFrom('x', 'q', 'z'));
    });
    await fc.assert(
      fc.asyncProperty(arb, async ([endpoint, index, at, letter]) => {
        const segments = sample(endpoint).split('/');
        const word = segments[index]!;
        const pos = at % word.length;
        segments[index] = `${word.slice(0, pos)}${word[pos] === letter ? 'y' : letter}${word.slice(pos + 1)}`;
        const answer = await get(lenient, endpoint.method, segments.join('/'));
        expect(answer.status).toBe(404);
        expect(answer.body.data?.closest, segments.join('/')).toContain(operation(endpoint));
      }),
      { numRuns: 40 },
    );
  });

  it('a path sent under a method it does not take names the methods it takes', async () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const cases = api.endpoints.flatMap((e) => methods.filter((m) => !api.endpoints.some((o) => o.path === e.path && o.method === m)).map((m) => [e, m] as const));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), async ([endpoint, method]) => {
        const answer = await get(lenient, method, sample(endpoint));
        expect(answer.status).toBe(404);
        const takes = api.endpoints.filter((o) => o.path === endpoint.path).map((o) => o.method);
        expect([...((answer.body.data?.allowed as string[]) ?? [])].sort()).toEqual([...new Set(takes)].sort());
      }),
      { numRuns: 30 },
    );
  });
});
