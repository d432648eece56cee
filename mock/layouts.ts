/**
 * Layouts: the mock's data and timing arranged as other servers within the document arrange
 * theirs. The reference fixtures have a live and a staging environment, each with two domains
 * holding records, backups and SFTP accounts, and effects that show at once; a real site often
 * differs. A layout is one entry here; the self-test runs conformant variants and faults in them.
 */
import type { CompanySeed, EnvironmentSeed } from './fixtures.ts';

export interface Layout {
  /** Unique, kebab-case; `mock --layout NAME`, `conform --mock-layout NAME`. */
  readonly name: string;
  readonly description: string;
  /** Rearranges fresh seed data (the callers own it). */
  readonly arrange?: (companies: CompanySeed[]) => void;
  /**
   * Observable changes of actions show only this long after the answer (§What the service does:
   * "Long-running actions are accepted, not completed, when the call returns").
   */
  readonly effectDelayMs?: number;
}

/** Every environment of every site of every company. */
const environments = (companies: readonly CompanySeed[]): EnvironmentSeed[] => companies.flatMap((c) => c.sites.flatMap((s) => [...s.environments]));
const nonLive = (companies: readonly CompanySeed[]) => environments(companies).filter((e) => e.name !== 'live');

/** Seed data is read-only by type; layouts rearrange the copy the store will own. */
const writable = <T>(value: T): { -readonly [K in keyof T]: T[K] } => value as { -readonly [K in keyof T]: T[K] };

export const layouts: readonly Layout[] = [
  {
    name: 'only-live',
    description: 'Each site has only its live environment.',
    arrange: (companies) => companies.forEach((c) => c.sites.forEach((s) => (writable(s).environments = s.environments.filter((e) => e.name === 'live')))),
  },
  {
    name: 'staging-first',
    description: 'Sites list their staging environment before the live one.',
    arrange: (companies) => companies.forEach((c) => c.sites.forEach((s) => (writable(s).environments = [...s.environments].reverse()))),
  },
  {
    name: 'staging-domain-without-dns',
    description: 'The staging domains hold no DNS record (a common staging setup).',
    arrange: (companies) => nonLive(companies).forEach((e) => e.domains.forEach((d) => d.dnsRecords.splice(0))),
  },
  {
    name: 'staging-without-sftp-and-backups',
    description: 'Staging has no additional SFTP account and no backup; live has both.',
    arrange: (companies) => nonLive(companies).forEach((e) => (e.sftpAccounts.splice(0), e.backups.splice(0))),
  },
  {
    name: 'empty-lists',
    description: 'Every list the document allows to be empty is empty: users, keys, regions, domains and records, backups, SFTP accounts, themes, plugins, files, allowed IPs.',
    arrange: (companies) => {
      for (const c of companies) for (const list of [c.users, c.apiKeys, c.regions]) list.splice(0);
      for (const e of environments(companies)) {
        for (const list of [e.backups, e.themes, e.plugins, e.sftpAccounts, e.fileList, e.allowedIps]) list.splice(0);
        // The primary domain stays (the document gives every environment one); its records go.
        writable(e).domains = e.domains.slice(0, 1);
        e.domains[0]?.dnsRecords.splice(0);
      }
    },
  },
  {
    name: 'delayed-effects',
    description: 'Changes of DNS values, SFTP removals and site-admin users show only 250 ms after the answer.',
    effectDelayMs: 250,
  },
];

export function layoutNamed(name: string): Layout {
  const found = layouts.find((l) => l.name === name);
  if (!found) throw new Error(`no layout named '${name}' (known: ${layouts.map((l) => l.name).join(', ')})`);
  return found;
}
