/**
 * The request kit against sites laid out in any way: a request takes everything it names that
 * belongs to an environment from one place, the first in preference order that holds it all and
 * that it may act on (a destructive request: no live environment without --allow-live), and names
 * nothing when no place does (the probe skips with the reason).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import type { Endpoint, Referent } from '../../spec/model.ts';
import { operation } from '../../spec/queries.ts';
import type { DiscoveredIds, Place } from '../types.ts';
import { referentsOf, validRequests } from './inputs.ts';

const uuid = fc.uuid({ version: 4 });
const placeArb: fc.Arbitrary<Place> = fc.record(
  {
    envId: uuid,
    envName: fc.constantFrom('live', 'staging', 'production'),
    cdnCacheId: uuid,
    domainId: uuid,
    domainName: fc.constantFrom('staging.example.test', 'example.org'),
    dnsRecord: fc.record({ type: fc.constant('A'), name: fc.constantFrom('www.example.net', '_dmarc.example.net') }),
    backupId: fc.integer({ min: 1, max: 1e6 }),
    sftpAccountIds: fc.array(uuid, { maxLength: 2 }),
  },
  { requiredKeys: ['envId', 'sftpAccountIds'] },
);
const idsArb: fc.Arbitrary<DiscoveredIds> = fc.array(placeArb, { minLength: 1, maxLength: 4 }).chain((places) =>
  fc.record({ companyId: uuid, siteId: uuid, userId: uuid }).map((company) => ({
    ...company,
    envIds: places.map((p) => p.envId),
    envId: places[0]!.envId,
    sftpAccountIds: [],
    places,
  })),
);

/** What a place holds for a referent, and whether a value a request carries is that. */
const holds = (place: Place, referent: Referent, value: unknown): boolean => {
  switch (referent) {
    case 'environment':
      return value === place.envId;
    case 'domain':
      return value === place.domainId;
    case 'cdn-cache':
      return value === place.cdnCacheId;
    case 'backup':
      return value === place.backupId;
    case 'additional-sftp-account':
      return value === place.sftpAccountIds[0];
    case 'dns-record': {
      const zone = place.domainName ?? place.dnsRecord?.name.replace(/^_[^.]*\./, '');
      return typeof value === 'string' && zone !== undefined && value.endsWith(`.${zone}`) && value.startsWith('hsc-probe-');
    }
    default:
      return false;
  }
};
const perEnvironment = (r: Referent) => !['company', 'site', 'company-user'].includes(r);
const canServe = (place: Place, endpoint: Endpoint) =>
  referentsOf(endpoint).filter(perEnvironment).every((r) => (r === 'additional-sftp-account' ? place.sftpAccountIds.length > 0 : r === 'dns-record' ? !!(place.domainName ?? place.dnsRecord) : {
    environment: true, domain: !!place.domainId, 'cdn-cache': !!place.cdnCacheId, backup: place.backupId !== undefined,
  }[r as 'environment']));

const named = (endpoint: Endpoint, path: Readonly<Record<string, string>>, body: Record<string, unknown>) => [
  ...endpoint.pathParams.map((p) => [p.refersTo!, path[p.name]] as const),
  ...(endpoint.body ?? []).filter((f) => f.refersTo).map((f) => [f.refersTo!, body[f.name]] as const),
];

const isLive = (p: Place) => p.envName === 'live';
const mayAct = (endpoint: Endpoint, place: Place, allowLive: boolean) => endpoint.effect !== 'destructive' || allowLive || !isLive(place);

describe('the request kit on any layout of places', () => {
  const withEnvironmentData = api.endpoints.filter((e) => referentsOf(e).some(perEnvironment));

  it.each(withEnvironmentData.map((e) => [operation(e), e] as const))('%s names one place: the first that holds all it needs and that it may act on', (_, endpoint) => {
    fc.assert(
      fc.property(idsArb, fc.integer(), fc.boolean(), (ids, seed, allowLive) => {
        const built = validRequests(endpoint, { ids }, seed, 1, { allowLive });
        const first = ids.places!.find((p) => canServe(p, endpoint) && mayAct(endpoint, p, allowLive));
        expect(built.ok).toBe(first !== undefined);
        if (!built.ok) {
          // Off limits, not missing, exactly when a live place could serve it.
          const liveCould = ids.places!.some((p) => canServe(p, endpoint));
          expect(built.reason.startsWith('needs --allow-live (')).toBe(liveCould);
          return;
        }
        const { path = {}, body } = built.value[0]!;
        const json = (body && 'json' in body ? body.json : {}) as Record<string, unknown>;
        for (const [referent, value] of named(endpoint, path, json).filter(([r]) => perEnvironment(r))) {
          expect([referent, holds(first!, referent, value)]).toEqual([referent, true]);
        }
      }),
    );
  });

  // A destructive action that names the site but no environment of it acts on all of them.
  const siteWide = api.endpoints.filter((e) => e.effect === 'destructive' && !referentsOf(e).some(perEnvironment));
  it.each(siteWide.map((e) => [operation(e), e] as const))('%s is off limits on a site with a live environment, without --allow-live', (_, endpoint) => {
    fc.assert(
      fc.property(idsArb, fc.integer(), fc.boolean(), (ids, seed, allowLive) => {
        const built = validRequests(endpoint, { ids }, seed, 1, { allowLive });
        expect(built.ok).toBe(allowLive || !ids.places!.some(isLive));
        if (built.ok) expect(Object.values(built.value[0]!.path ?? {})).toEqual([ids.siteId]);
      }),
    );
  });
});
