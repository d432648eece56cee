/**
 * Each layout arranges the data as its description says, and only that; the delayed layout
 * answers 202 at once and shows the effect only when its delay has passed (fake timers: no
 * timed assertion).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../spec/api.ts';
import { createApp, type MockRequest } from './app.ts';
import { seedCompanies, type CompanySeed } from './fixtures.ts';
import { layoutNamed, layouts } from './layouts.ts';
import { Store } from './store.ts';

const arranged = (name: string): CompanySeed[] => {
  const companies = [...seedCompanies()];
  layoutNamed(name).arrange?.(companies);
  return companies;
};
const envs = (companies: readonly CompanySeed[]) => companies.flatMap((c) => c.sites.flatMap((s) => [...s.environments]));
const reference = envs(seedCompanies());

describe('layouts', () => {
  it('have unique names and say what they change', () => {
    expect(new Set(layouts.map((l) => l.name)).size).toBe(layouts.length);
    for (const l of layouts) expect(l.arrange !== undefined || l.effectDelayMs !== undefined).toBe(true);
    expect(() => layoutNamed('nope')).toThrow(/no layout named 'nope' \(known: only-live/);
  });

  it('only-live keeps exactly the live environment of each site', () => {
    for (const site of arranged('only-live').flatMap((c) => c.sites)) expect(site.environments.map((e) => e.name)).toEqual(['live']);
  });

  it('staging-first lists the non-live environment first, the same environments as the reference', () => {
    const sites = arranged('staging-first').flatMap((c) => c.sites);
    for (const site of sites) expect(site.environments[0]!.name).not.toBe('live');
    expect(envs(arranged('staging-first')).map((e) => e.id).sort()).toEqual(reference.map((e) => e.id).sort());
  });

  it('staging-domain-without-dns empties the records of non-live domains only', () => {
    for (const env of envs(arranged('staging-domain-without-dns'))) {
      const counts = env.domains.map((d) => d.dnsRecords.length);
      if (env.name === 'live') expect(counts.every((n) => n > 0)).toBe(true);
      else expect(counts.every((n) => n === 0)).toBe(true);
    }
  });

  it('staging-without-sftp-and-backups leaves them to the live environment', () => {
    for (const env of envs(arranged('staging-without-sftp-and-backups'))) {
      expect([env.name, env.sftpAccounts.length > 0, env.backups.length > 0]).toEqual([env.name, env.name === 'live', env.name === 'live']);
    }
  });

  it('empty-lists leaves every environment one (primary) domain and nothing in any list', () => {
    const companies = arranged('empty-lists');
    for (const c of companies) expect([c.users, c.apiKeys, c.regions].map((l) => l.length)).toEqual([0, 0, 0]);
    for (const env of envs(companies)) {
      expect(env.domains.length).toBe(1);
      expect([env.backups, env.themes, env.plugins, env.sftpAccounts, env.fileList, env.allowedIps, env.domains[0]!.dnsRecords].map((l) => l.length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    }
  });
});

describe('the delayed-effects layout', () => {
  afterEach(() => void vi.useRealTimers());

  it('acknowledges at once and shows the removal only after its delay', () => {
    vi.useFakeTimers();
    const store = new Store();
    const delay = layoutNamed('delayed-effects').effectDelayMs!;
    const app = createApp(store, {}, { effectDelayMs: delay });
    const company = store.companies[0]!;
    const env = company.sites[0]!.environments[0]!;
    const account = env.sftpAccounts[0]!.id;
    const call = (method: string, path: string): MockRequest => ({ method, url: `${api.basePath}${path}`, headers: { authorization: `Bearer ${company.apiKey}` }, body: Buffer.alloc(0) });
    const listed = () => (app(call('GET', `/sites/environments/${env.id}/additional-sftp-accounts`)).body as { environment: { additional_sftp_accounts: { id: string }[] } }).environment.additional_sftp_accounts.map((a) => a.id);

    const remove = () => app(call('DELETE', `/sites/environments/additional-sftp-accounts/${account}`)).status;
    expect(remove()).toBe(202);
    expect(listed()).toContain(account);
    // A second removal acknowledged before the first took effect: its effect finds nothing left.
    expect(remove()).toBe(202);
    vi.advanceTimersByTime(delay - 1);
    expect(listed()).toContain(account);
    vi.advanceTimersByTime(1);
    expect(listed()).not.toContain(account);
    expect(() => vi.advanceTimersByTime(delay)).not.toThrow();
    expect(listed()).not.toContain(account);
  });
});
