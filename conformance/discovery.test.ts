/**
 * Discovery through HTTP: against the mock it finds every id the probes need (aiming actions at
 * the non-live environment); against odd data it leaves optional ids out with a note; against an
 * unusable target it fails with one clear message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureUuid } from '../mock/fixtures.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { discover, DiscoveryError } from './discovery.ts';
import { createTransport, type Transport } from './http.ts';
import type { ProbeResponse, Send } from './types.ts';

let mock: RunningMock;
let send: Transport;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  send = createTransport({ timeoutMs: 2000 });
});
afterAll(async () => {
  await send.close();
  await mock.close();
});

describe('discover against the mock', () => {
  it('finds the company, the non-live environment and the ids under it', async () => {
    const { ids, notes } = await discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.siteId, send });
    const staging = 'company-a/alpha/staging';
    const { places, dnsRecordsAtStart, sftpAccountsAtStart, ...flat } = ids;
    // The chosen domain's records as listed, before anything changed them: STATE-DNS-UPDATE's first baseline.
    const domain = mock.store.domain(mock.fixtures.companyId, fixtureUuid('company-a/alpha/staging/domain/'))!;
    expect(dnsRecordsAtStart).toEqual(domain.dnsRecords);
    // The accounts as listed, likewise: STATE-SFTP-REMOVE's.
    expect((sftpAccountsAtStart as { id: string }[]).map((a) => a.id)).toEqual(flat.sftpAccountIds);
    expect(flat).toEqual({
      companyId: mock.fixtures.companyId,
      siteId: mock.fixtures.siteId,
      envIds: [fixtureUuid('company-a/alpha/live/env'), fixtureUuid(`${staging}/env`)],
      envId: fixtureUuid(`${staging}/env`),
      cdnCacheId: fixtureUuid(`${staging}/cdn-cache`),
      domainId: fixtureUuid(`${staging}/domain/`),
      domainName: 'staging.alpha.example.test',
      dnsRecord: { type: 'A', name: 'staging.alpha.example.test' },
      backupId: 1001,
      sftpEnvId: fixtureUuid(`${staging}/env`),
      sftpAccountIds: ['editor', 'auditor', 'deployer'].map((name) => fixtureUuid(`${staging}/sftp/${name}`)),
      userId: fixtureUuid('company-a/user/owner'),
    });
    // Every environment explored, the preferred (non-live) one first.
    expect(places?.map((p) => p.envName)).toEqual(['staging', 'live']);
    expect(places?.[1]).toMatchObject({ envId: fixtureUuid('company-a/alpha/live/env'), domainName: 'alpha.example.test' });
    expect(notes).toEqual([
      'discovery: explored 2 environments, 4 domains (8 DNS records), 6 backups, 6 additional SFTP accounts, 2 company users',
      `discovery: actions aim at environment ${fixtureUuid(`${staging}/env`)} (staging): the first that does not look live (ASM-LIVE-ENVIRONMENT) and is not blocked`,
    ]);
  });

  it('a refused key, a foreign site and a closed port are errors that say so', async () => {
    await expect(discover({ baseUrl: mock.url, apiKey: 'nope', siteId: mock.fixtures.siteId, send })).rejects.toThrow(/API key was refused.*401/);
    await expect(discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.otherSiteId, send })).rejects.toThrow(
      /cannot read the site.*404/,
    );
    await expect(discover({ baseUrl: 'http://127.0.0.1:1/v2', apiKey: 'k', siteId: mock.fixtures.siteId, send })).rejects.toThrow(DiscoveryError);
  });

  it('a 404 on /validate: the wrong base URL when the body is no error of the document, the key’s data when it is (CONFLICT-VALIDATE-404)', async () => {
    const answering = (body: string, type: string): Send => async (probe) => ({
      probe,
      response: { status: 404, headers: { 'content-type': type }, text: body, ...(type.includes('json') ? { json: JSON.parse(body) } : {}), ms: 1 },
      throttled: 0,
    });
    const html = answering('<html>Not Found</html>', 'text/html');
    const documented = answering('{"message":"Could not find data","status":404}', 'application/json');
    await expect(discover({ baseUrl: 'http://x/v3', apiKey: 'k', siteId: mock.fixtures.siteId, send: html })).rejects.toThrow(/nothing answers at http:\/\/x\/v3\/validate; check --base-url/);
    await expect(discover({ baseUrl: 'http://x/v2', apiKey: 'k', siteId: mock.fixtures.siteId, send: documented })).rejects.toThrow(/key's data was not found \(CONFLICT-VALIDATE-404\)/);
  });
});

describe('discover against the mock in other layouts', () => {
  const discoverIn = async (layout: string, allowLive = false) => {
    const m = await startMock({ port: 0, layout });
    try {
      return await discover({ baseUrl: m.url, apiKey: m.fixtures.apiKey, siteId: m.fixtures.siteId, send, allowLive });
    } finally {
      await m.close();
    }
  };
  const staging = 'company-a/alpha/staging';
  const live = 'company-a/alpha/live';
  const liveAccounts = ['editor', 'auditor', 'deployer'].map((name) => fixtureUuid(`${live}/sftp/${name}`));

  it('a staging domain without records is still the DNS place: probe records go inside its own name', async () => {
    const { ids } = await discoverIn('staging-domain-without-dns');
    expect(ids).toMatchObject({ envId: fixtureUuid(`${staging}/env`), domainId: fixtureUuid(`${staging}/domain/`), domainName: 'staging.alpha.example.test' });
    expect(ids.dnsRecord).toBeUndefined();
  });

  it('backups and SFTP accounts found only on live are not named for actions without allowLive, and the notes say why', async () => {
    const { ids, notes } = await discoverIn('staging-without-sftp-and-backups');
    expect(ids).toMatchObject({ envId: fixtureUuid(`${staging}/env`), sftpAccountIds: [] });
    expect(ids.backupId).toBeUndefined();
    // Reads still find them: the live place holds them.
    expect(ids.places?.find((p) => p.envName === 'live')).toMatchObject({ backupId: 1001, sftpAccountIds: liveAccounts });
    expect(notes).toContain('discovery: backup restores skip: needs --allow-live (only the live environment has a backup)');
    expect(notes).toContain('discovery: SFTP removals skip: needs --allow-live (only the live environment has an additional SFTP account)');
  });

  it('with allowLive, they are used there, and the notes say so', async () => {
    const { ids, notes } = await discoverIn('staging-without-sftp-and-backups', true);
    expect(ids).toMatchObject({ envId: fixtureUuid(`${staging}/env`), sftpEnvId: fixtureUuid(`${live}/env`), backupId: 1001, sftpAccountIds: liveAccounts });
    expect(notes.filter((n) => n.includes('(live), as the preferred one') && n.endsWith('with --allow-live')).length).toBe(2);
  });

  it('staging listed first or last, discovery prefers it', async () => {
    expect((await discoverIn('staging-first')).ids.envId).toBe(fixtureUuid(`${staging}/env`));
  });

  it('a site with only live aims reads and mutating actions there, destructive ones only with allowLive, and says so', async () => {
    const { ids, notes } = await discoverIn('only-live');
    expect(ids).toMatchObject({ envId: fixtureUuid(`${live}/env`), sftpAccountIds: [] });
    expect([ids.domainId, ids.backupId, ids.dnsRecordsAtStart]).toEqual([undefined, undefined, undefined]);
    expect(notes.join('\n')).toMatch(/no non-live environment; reads and mutating actions aim at the live one \(.*\), destructive ones skip without --allow-live/);
    expect(notes).toContain('discovery: DNS updates skip: needs --allow-live (the site has only its live environment)');
    const allowed = await discoverIn('only-live', true);
    expect(allowed.ids).toMatchObject({ domainId: fixtureUuid(`${live}/domain/`), backupId: 1001, sftpAccountIds: liveAccounts });
    expect(allowed.notes.join('\n')).toMatch(/destructive ones too \(--allow-live\)/);
  });
});

describe('discover against odd data', () => {
  it('reads the domains of the site summaries when the environments list leaves them out', async () => {
    const SITE = '22222222-2222-4222-8222-222222222222';
    const domain = { id: 'd-1', name: 'Staging.Example.ORG.' };
    const send: Send = async (probe) => {
      const path = new URL(probe.request.url).pathname;
      const answer = (json: unknown) => ({ probe, response: ok(json), throttled: 0 });
      if (path.endsWith('/validate')) return answer({ company: 'comp' });
      if (path.endsWith(`/sites/${SITE}`)) return answer({ site: { company_id: 'comp', environments: [{ id: 'env-1', name: 'staging', primaryDomain: domain, domains: [domain] }] } });
      if (path.endsWith(`/sites/${SITE}/environments`)) return answer({ site: { environments: [{ id: 'env-1', name: 'staging' }] } });
      return answer({});
    };
    const { ids } = await discover({ baseUrl: 'http://x/v2', apiKey: 'k', siteId: SITE, send });
    expect(ids).toMatchObject({ envId: 'env-1', domainId: 'd-1', domainName: 'Staging.Example.ORG.' });
  });

  it.each([
    ['named production', { id: 'env-p', name: 'production' }, []],
    ['named PROD', { id: 'env-p', name: 'PROD' }, []],
  ])('an environment %s is taken for live: actions aim at the other, and a destructive one never names it', async (_, first, domains) => {
    const SITE = '33333333-3333-4333-8333-333333333333';
    const send: Send = async (probe) => {
      const path = new URL(probe.request.url).pathname;
      const answer = (json: unknown) => ({ probe, response: ok(json), throttled: 0 });
      if (path.endsWith('/validate')) return answer({ company: 'comp' });
      if (path.endsWith(`/sites/${SITE}`)) return answer({ site: { company_id: 'comp', environments: [{ ...first, domains }, { id: 'env-s', name: 'staging', domains: [] }] } });
      if (path.endsWith(`/sites/${SITE}/environments`)) return answer({ site: { environments: [first, { id: 'env-s', name: 'staging' }] } });
      if (path.endsWith('/backups')) return answer({ environment: { backups: path.includes('env-p') ? [{ id: 7 }] : [] } });
      return answer({});
    };
    const { ids, notes } = await discover({ baseUrl: 'http://x/v2', apiKey: 'k', siteId: SITE, send });
    expect(ids.envId).toBe('env-s');
    expect(ids.places?.find((p) => p.envId === 'env-p')?.live).toBe(true);
    expect(ids.places?.find((p) => p.envId === 'env-s')?.live).toBeUndefined();
    // The only backup is on the live-looking environment: not named for a restore without allowLive.
    expect(ids.backupId).toBeUndefined();
    expect(notes.join('\n')).toContain('ASM-LIVE-ENVIRONMENT');
  });

  const ok = (json: unknown): ProbeResponse => ({ status: 200, headers: {}, text: JSON.stringify(json), json, ms: 1 });
  const SITE = '11111111-1111-4111-8111-111111111111';
  /** Only /validate and the site answer; everything else is a 500. */
  const sparse: Send = async (probe) => {
    const path = new URL(probe.request.url).pathname;
    if (path.endsWith('/validate')) return { probe, response: ok({ name: 'k' }), throttled: 0 };
    if (path.endsWith(`/sites/${SITE}`)) {
      return { probe, response: ok({ site: { company_id: 'comp', environments: [{ id: 'live-env', name: 'live', domains: [] }] } }), throttled: 0 };
    }
    return { probe, response: { status: 500, headers: {}, text: '', jsonError: 'the body is empty', ms: 1 }, throttled: 0 };
  };

  it('falls back to the site summary and leaves optional ids out, with notes', async () => {
    const { ids, notes } = await discover({ baseUrl: 'http://x/v2', apiKey: 'k', siteId: SITE, send: sparse });
    expect(ids).toEqual({
      companyId: 'comp',
      siteId: SITE,
      envIds: ['live-env'],
      envId: 'live-env',
      sftpEnvId: 'live-env',
      sftpAccountIds: [],
      places: [{ envId: 'live-env', envName: 'live', live: true, sftpAccountIds: [] }],
    });
    expect(notes.join('\n')).toMatch(/no non-live environment/);
    expect(notes.join('\n')).toMatch(/no domain/);
    expect(notes.join('\n')).toMatch(/no backup/);
  });

  it('keeps no baseline of a domain whose records it could not read (STATE-DNS-UPDATE would take an unread zone for an empty one)', async () => {
    const domain = { id: '22222222-2222-4222-8222-222222222222', name: 'example.test' };
    const withDomain: Send = async (probe) => {
      const path = new URL(probe.request.url).pathname;
      if (path.endsWith(`/sites/${SITE}`)) return { probe, response: ok({ site: { company_id: 'comp', environments: [{ id: 'live-env', name: 'live', domains: [domain] }] } }), throttled: 0 };
      return sparse(probe);
    };
    const { ids } = await discover({ baseUrl: 'http://x/v2', apiKey: 'k', siteId: SITE, send: withDomain, allowLive: true });
    expect(ids).toMatchObject({ domainId: domain.id, domainName: domain.name });
    expect(ids.dnsRecordsAtStart).toBeUndefined();
  });
});
