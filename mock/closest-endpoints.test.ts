/**
 * The did-you-mean ranking (closest-endpoints.ts): for the mistakes people make with a path, the
 * endpoint they meant comes first. Two cases come from third-party clients of this API (issue
 * 20); the table holds one kind of mistake per group, with fresh UUIDs in every run; the
 * properties make each mistake that leaves the meaning plain on every endpoint of the model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { endpoint, fillPath, operation } from '../spec/queries.ts';
import { closestEndpoints } from './closest-endpoints.ts';

const uuidArb = fc.uuid({ version: 4 });

/** A request that names ids: built from two fresh ones, so no case leans on a particular id. */
type Mistake = [string, { given: { method: string; path: (id: string, other: string) => string }; want: string }];

const mistakes: Mistake[] = [
  // Issue 20: met by third-party clients.
  ['a client asking for the SFTP password under its own name', { given: { method: 'GET', path: (id) => `/environments/${id}/sftp-password` }, want: 'getSftpPassword' }],
  ['a client clearing the CDN cache with the words swapped and a segment missing', { given: { method: 'POST', path: () => '/cdn-cache/clear' }, want: 'clearCdnCache' }],
  // Wrong separator.
  ['underscores for hyphens', { given: { method: 'GET', path: (id) => `/sites/environments/${id}/file_list` }, want: 'getFileList' }],
  ['camelCase for hyphens', { given: { method: 'GET', path: (id) => `/company/${id}/availableRegions` }, want: 'listAvailableRegions' }],
  ['underscores in an action', { given: { method: 'POST', path: () => '/sites/cdn/clear_cache' }, want: 'clearCdnCache' }],
  // Singular and plural.
  ['a singular resource', { given: { method: 'GET', path: (id) => `/site/${id}` }, want: 'getSite' }],
  ['a plural company', { given: { method: 'GET', path: (id) => `/companies/${id}/users` }, want: 'listCompanyUsers' }],
  ['a singular backup to restore', { given: { method: 'POST', path: (id) => `/sites/environments/${id}/backup/restore` }, want: 'restoreBackup' }],
  ['singular domain and record, as a change', { given: { method: 'PUT', path: (id) => `/domain/${id}/dns-record` }, want: 'updateDnsRecords' }],
  ['a singular account to remove', { given: { method: 'DELETE', path: (id) => `/sites/environments/additional-sftp-account/${id}` }, want: 'removeAdditionalSftpAccount' }],
  // Swapped words and segments.
  ['words of a segment swapped', { given: { method: 'POST', path: () => '/sites/cdn/cache-clear' }, want: 'clearCdnCache' }],
  ['the search and the replace swapped', { given: { method: 'POST', path: () => '/sites/tools/replace-and-search' }, want: 'searchAndReplace' }],
  ['two segments swapped', { given: { method: 'PUT', path: () => '/sites/status/edge-caching' }, want: 'setEdgeCachingStatus' }],
  ['the action before its subject', { given: { method: 'POST', path: (id) => `/sites/environments/${id}/restore/backups` }, want: 'restoreBackup' }],
  // A missing segment.
  ['without sites', { given: { method: 'GET', path: (id) => `/environments/${id}/backups` }, want: 'listBackups' }],
  ['without ssh', { given: { method: 'GET', path: (id) => `/sites/environments/${id}/password` }, want: 'getSftpPassword' }],
  ['without tools', { given: { method: 'POST', path: () => '/sites/search-and-replace' }, want: 'searchAndReplace' }],
  ['without environments, before an id', { given: { method: 'DELETE', path: (id) => `/sites/additional-sftp-accounts/${id}` }, want: 'removeAdditionalSftpAccount' }],
  ['a word cut short', { given: { method: 'POST', path: (id) => `/sites/${id}/reset` }, want: 'resetSite' }],
  // An id where a word is, or an id too many.
  ['an id for the last word', { given: { method: 'PUT', path: (id) => `/sites/edge-caching/${id}` }, want: 'setEdgeCachingStatus' }],
  ['the site id for environments', { given: { method: 'GET', path: (id) => `/sites/${id}/backups` }, want: 'listBackups' }],
  ['the site id before the environment', { given: { method: 'GET', path: (id, other) => `/sites/${id}/environments/${other}/backups` }, want: 'listBackups' }],
  // A right path under a wrong method.
  ['a read sent as a change', { given: { method: 'POST', path: (id) => `/sites/environments/${id}/backups` }, want: 'listBackups' }],
  ['an action sent as a read', { given: { method: 'GET', path: () => '/sites/cdn/clear-cache' }, want: 'clearCdnCache' }],
  ['a change sent as another change', { given: { method: 'POST', path: (id) => `/domains/${id}/dns-records` }, want: 'updateDnsRecords' }],
  ['a switch sent as PATCH', { given: { method: 'PATCH', path: () => '/sites/edge-caching/status' }, want: 'setEdgeCachingStatus' }],
  // Words a person uses for what the document names otherwise.
  ['the name of the client method', { given: { method: 'GET', path: (id) => `/sites/environments/${id}/sftp-accounts` }, want: 'listAdditionalSftpAccounts' }],
  ['an abbreviation', { given: { method: 'GET', path: (id) => `/sites/${id}/envs` }, want: 'listEnvironments' }],
];

describe('closestEndpoints: the endpoint a person meant comes first', () => {
  it.each(mistakes)('%s', (_, { given, want }) => {
    fc.assert(
      fc.property(uuidArb, uuidArb, (id, other) => {
        const path = given.path(id, other);
        expect(closestEndpoints(given.method, path).map(operation)[0], `${given.method} ${path}`).toBe(operation(endpoint(want)));
      }),
      { numRuns: 10 },
    );
  });
});

/** An endpoint's path with fresh UUIDs for its parameters, as segments. */
const filled = (e: Endpoint, ids: readonly string[]) => fillPath(e.path, Object.fromEntries(e.pathParams.map((p, i) => [p.name, ids[i % ids.length]!]))).split('/');
const isLiteral = (segment: string) => segment !== '' && !segment.startsWith('{');
/** An endpoint and the index of one of its literal segments. */
const literalArb = fc.constantFrom(...api.endpoints).chain((e) => fc.tuple(fc.constant(e), fc.constantFrom(...e.path.split('/').flatMap((s, i) => (isLiteral(s) ? [i] : []))), fc.array(uuidArb, { minLength: 2, maxLength: 2 })));

/** One literal of an endpoint's path, rewritten: the request must still name that endpoint first. */
function expectFirstWith(rewrite: (segment: string) => string): void {
  fc.assert(
    fc.property(literalArb, ([e, at, ids]) => {
      const segments = filled(e, ids);
      segments[at] = rewrite(segments[at]!);
      const path = segments.join('/');
      expect(closestEndpoints(e.method, path).map(operation)[0], `${e.method} ${path}`).toBe(operation(e));
    }),
    { numRuns: 200 },
  );
}

const toggledPlural = (word: string) => (/[^s]s$/.test(word) ? word.slice(0, -1) : `${word}s`);

describe('closestEndpoints on every endpoint of the model', () => {
  it('ranks a path that matches a template first under its own method', () => {
    fc.assert(
      fc.property(fc.constantFrom(...api.endpoints), fc.array(uuidArb, { minLength: 2, maxLength: 2 }), (e, ids) => {
        expect(closestEndpoints(e.method, filled(e, ids).join('/')).map(operation)[0]).toBe(operation(e));
      }),
    );
  });

  it.each([
    ['underscores for hyphens', (s: string) => s.replaceAll('-', '_')],
    ['camelCase for hyphens', (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())],
    ['encoded spaces for hyphens', (s: string) => s.replaceAll('-', '%20')],
    ['capitals', (s: string) => s.toUpperCase()],
    ['every word singular or plural the other way', (s: string) => s.split('-').map(toggledPlural).join('-')],
    ['the words of a segment in reverse order', (s: string) => s.split('-').reverse().join('-')],
  ])('still names the endpoint first with %s in one segment', (_, rewrite) => expectFirstWith(rewrite));

  it('names an endpoint of the same path first when only the method is wrong, and the only one when the path has one', () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const cases = api.endpoints.flatMap((e) => methods.filter((m) => !api.endpoints.some((o) => o.path === e.path && o.method === m)).map((m) => [e, m] as const));
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.array(uuidArb, { minLength: 2, maxLength: 2 }), ([e, method], ids) => {
        const first = closestEndpoints(method, filled(e, ids).join('/'))[0]!;
        expect(first.path, `${method} ${e.path}`).toBe(e.path);
        if (api.endpoints.filter((o) => o.path === e.path).length === 1) expect(first).toBe(e);
      }),
    );
  });
});

describe('closestEndpoints, its bounds', () => {
  const path = `/environments/${fc.sample(uuidArb, 1)[0]}/sftp-password`;

  it('names at most `limit`, best first, and at least one', () => {
    const all = closestEndpoints('GET', path, api.endpoints.length);
    expect(all.length).toBeGreaterThanOrEqual(1);
    for (const limit of [1, 2, 3]) expect(closestEndpoints('GET', path, limit)).toEqual(all.slice(0, limit));
    expect(closestEndpoints('GET', '/nothing-like-any-endpoint').length).toBeGreaterThanOrEqual(1);
  });

  it('leaves out endpoints that share nothing with the request', () => {
    // The SFTP password request shares no word with the company's reads.
    const named = closestEndpoints('GET', path, api.endpoints.length).map((e) => e.path);
    for (const e of api.endpoints.filter((o) => o.path.startsWith('/company/'))) expect(named).not.toContain(e.path);
  });

  it('ignores a query string', () => {
    expect(closestEndpoints('POST', '/cdn-cache/clear?environment_id=x&cdn_cache_id=y')).toEqual(closestEndpoints('POST', '/cdn-cache/clear'));
  });

  it('answers a hostile path (thousands of segments, one huge segment, bad percent-encoding) at once', () => {
    for (const hostile of [`/${'a/'.repeat(20_000)}`, `/${'x'.repeat(100_000)}`, `/${'xy-'.repeat(20_000)}`, '/%zz/%/sites']) {
      // This process's CPU time, not the wall's: a busy machine gives it less of the CPU, never more work.
      const started = process.cpuUsage();
      expect(closestEndpoints('GET', hostile).length).toBeGreaterThanOrEqual(1);
      const { user, system } = process.cpuUsage(started);
      // Generous: the bound is there so that it cannot grow with the path (it took a second before).
      expect((user + system) / 1000).toBeLessThan(250);
    }
  });
});
