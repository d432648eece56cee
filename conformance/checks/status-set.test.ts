import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { endpoint } from '../../spec/queries.ts';
import { conflictsAccepting, describeAllowed, statusSet } from './status-set.ts';
import { isSuccess, successStatuses } from './success.ts';
import { exchange, expectJudgement, type Case } from './testing.ts';

const errorBody = (status: number) => ({ message: 'error', status });

const cases: [string, Case][] = [
  ['read answered 200', { given: { endpoint: 'getSite', status: 200, json: {} }, want: 'pass' }],
  ['read answered 201 (success status not shown)', { given: { endpoint: 'getSite', status: 201, json: {} }, want: 'pass' }],
  ['read answered 204', { given: { endpoint: 'getSite', status: 204 }, want: /status 204[\s\S]*its success, 2xx other than 202 and 204 \(ASM-SYNC-SUCCESS-2XX\);/ }],
  ['read answered 202', { given: { endpoint: 'listBackups', status: 202, json: {} }, want: /status 202/ }],
  ['other action answered 200', { given: { endpoint: 'createWpAdminUser', status: 200, json: {} }, want: 'pass' }],
  ['acknowledged action answered 202', { given: { endpoint: 'clearCdnCache', status: 202, json: {} }, want: 'pass' }],
  ['acknowledged action answered 200', { given: { endpoint: 'clearCdnCache', status: 200, json: {} }, want: /status 200[\s\S]*its success, 202;/ }],
  ['redirect', { given: { endpoint: 'getSite', status: 302, text: '' }, want: /status 302/ }],
  ['listed 404 on a read', { given: { endpoint: 'getSite', status: 404, json: errorBody(404) }, want: 'pass' }],
  ['listed 400 on an action', { given: { endpoint: 'runWpCliCommand', status: 400, json: errorBody(400) }, want: 'pass' }],
  ['500 where listed', { given: { endpoint: 'getSite', status: 500, json: errorBody(500) }, want: 'pass' }],
  ['403 is listed nowhere', { given: { endpoint: 'getSshStatus', status: 403, json: errorBody(403) }, want: /The server answered 403 \(the server said ".*"\); the document allows its success, .*; the errors its table lists, 400, 401, 404, 500\.$/ }],
  [
    'a redirect, named with its target',
    { given: { endpoint: 'getSite', status: 302, text: '', contentType: null }, want: /The server answered 302 \(a redirect, Location: none, which the suite does not follow\)/ },
  ],
  [
    'non-strict failure names the conflicts it accepted',
    { given: { endpoint: 'validateApiKey', status: 400, json: errorBody(400) }, want: /the errors its table lists, 401, 500; 404 by CONFLICT-VALIDATE-404 \(either side accepted\)\.$/ },
  ],
  ['no answer', { given: { failure: 'timeout' }, want: 'skip' }],
];

describe('STATUS-SET', () => {
  it.each(cases)('%s', (_, c) => expectJudgement(statusSet, c));

  // Each status a conflict adds, on each endpoint it concerns: either side without --strict, the letter with it.
  const loosened = api.conflicts.flatMap((c) =>
    c.extraStatus === undefined ? [] : c.endpoints.filter((name) => !endpoint(name).errors.includes(c.extraStatus!)).map((name) => [c.id, name, c.extraStatus!] as const),
  );

  it('derives a case from every conflict of the model', () => {
    expect(new Set(loosened.map(([id]) => id))).toEqual(new Set(api.conflicts.filter((c) => c.extraStatus !== undefined).map((c) => c.id)));
  });

  it.each(loosened)('%s: %s answering %i passes without --strict', (_, name, status) =>
    expectJudgement(statusSet, { given: { endpoint: name, status, json: errorBody(status) }, want: 'pass' }),
  );

  it.each(loosened)('%s: %s answering %i fails with --strict, naming the conflict', (id, name, status) =>
    expectJudgement(statusSet, {
      given: { endpoint: name, status, json: errorBody(status) },
      strict: true,
      want: new RegExp(`status ${status}[\\s\\S]*${id}[^.]* would accept ${status} on the reading side; --strict holds to the letter`),
    }),
  );

  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: every status of its table passes in both modes', (_, e) => {
    for (const status of e.errors)
      for (const strict of [false, true]) expectJudgement(statusSet, { given: { endpoint: e, status, json: errorBody(status) }, strict, want: 'pass' });
  });

  it('groups the conflicts that add the same status', () => {
    expect(describeAllowed(endpoint('listThemes'), { strict: false })).toMatch(/400 by CONFLICT-THEMES-BODY-400 or CONFLICT-READ-MALFORMED-ID \(either side accepted\)$/);
  });

  it.each(loosened)('%s is named as the conflict that let %s answer %i, unless --strict', (id, name, status) => {
    const given = exchange({ endpoint: name, status, json: errorBody(status) });
    expect(conflictsAccepting(given, { strict: false }).map((c) => c.id)).toContain(id);
    expect(conflictsAccepting(given, { strict: true })).toEqual([]);
  });

  it('names no conflict for statuses the table lists', () => {
    expect(conflictsAccepting(exchange({ endpoint: 'getSite', status: 404, json: errorBody(404) }), { strict: false })).toEqual([]);
    expect(conflictsAccepting(exchange({ endpoint: 'getSite', failure: 'timeout' }), { strict: false })).toEqual([]);
  });

  it('the strict allowed set names no conflict', () => {
    expect(describeAllowed(endpoint('validateApiKey'), { strict: true })).not.toMatch(/CONFLICT/);
  });
});

describe('success statuses', () => {
  it('acknowledged actions succeed with 202 only', () => {
    expect(successStatuses(endpoint('resetSite'))).toEqual([202]);
    expect(isSuccess(endpoint('resetSite'), 200)).toBe(false);
  });

  it('synchronous endpoints succeed with any 2xx but 202 and 204', () => {
    const e = endpoint('changeSshExpirationInterval');
    expect([200, 201, 203, 205, 299].map((s) => isSuccess(e, s))).toEqual([true, true, true, true, true]);
    expect([202, 204, 199, 300, 400].map((s) => isSuccess(e, s))).toEqual([false, false, false, false, false]);
    expect(successStatuses(e)).toHaveLength(98);
  });
});
