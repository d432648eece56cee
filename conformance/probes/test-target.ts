/**
 * Targets for the probe sources' tests, built by hand from the mock's fixtures (read-only): the
 * ids discovery would find (actions aim at the non-live environment), both tenants.
 */
import { seedCompanies, type CompanySeed, type EnvironmentSeed } from '../../mock/fixtures.ts';
import { layoutNamed } from '../../mock/layouts.ts';
import type { CheckOptions, Exchange, Place, ProbeContext, Send, Target, Tenant } from '../types.ts';

export function tenantOf(company: CompanySeed): Tenant {
  const site = company.sites[0]!;
  const env = site.environments.find((e) => e.name !== 'live') ?? site.environments[0]!;
  const domain = env.domains[0]!;
  const record = domain.dnsRecords.find((r) => r.type === 'A') ?? domain.dnsRecords[0]!;
  return {
    apiKey: company.apiKey,
    ids: {
      companyId: company.id,
      siteId: site.id,
      envIds: site.environments.map((e) => e.id),
      envId: env.id,
      cdnCacheId: env.cdnCacheId,
      domainId: domain.id,
      dnsRecord: { type: record.type, name: record.name },
      backupId: env.backups[0]!.id,
      sftpAccountIds: env.sftpAccounts.map((a) => a.id),
      userId: company.users[0]!.user.id,
    },
  };
}

export interface TargetOptions {
  readonly baseUrl?: string;
  readonly allowDestructive?: boolean;
  readonly other?: boolean;
}

/** The mock's two companies as a target; by default every id discovered, destructive requests allowed. */
export function mockTarget(options: TargetOptions = {}): Target {
  const [a, b] = seedCompanies();
  return {
    baseUrl: options.baseUrl ?? 'http://127.0.0.1:9/v2',
    main: tenantOf(a!),
    ...(options.other === false ? {} : { other: tenantOf(b!) }),
    allowDestructive: options.allowDestructive ?? true,
    embedded: false,
    // A loopback address, as the CLI finds it: the key may go into a URL.
    keyInUrl: true,
  };
}

export function contextOf(target: Target, seed = 42, runs = 10, options: CheckOptions = { strict: false }): ProbeContext {
  return { target, seed, runs, options };
}

/** What discovery finds of one environment of the fixtures: its first domain with its A record, first backup, accounts. */
function placeOf(env: EnvironmentSeed): Place {
  const domain = env.domains[0];
  const record = domain?.dnsRecords.find((r) => r.type === 'A');
  return {
    envId: env.id,
    envName: env.name,
    cdnCacheId: env.cdnCacheId,
    sftpAccountIds: env.sftpAccounts.map((a) => a.id),
    ...(domain ? { domainId: domain.id, domainName: domain.name } : {}),
    ...(record ? { dnsRecord: { type: record.type, name: record.name } } : {}),
    ...(env.backups[0] ? { backupId: env.backups[0].id } : {}),
  };
}

export interface LayoutTargetOptions {
  readonly allowDestructive?: boolean;
  readonly allowLive?: boolean;
}

/**
 * The first company of the fixtures arranged in a mock layout, as a live target: every
 * environment a place, non-live first. The flat ids are each taken from the first place that
 * holds one, live or not, so that the probes' safety cannot rest on them (the request kit must
 * keep off live environments by itself). No second tenant; destructive requests allowed unless
 * told otherwise.
 */
export function layoutTarget(layout: string, options: LayoutTargetOptions = {}): Target {
  const companies = seedCompanies() as CompanySeed[];
  layoutNamed(layout).arrange?.(companies);
  const company = companies[0]!;
  const site = company.sites[0]!;
  const places = [...site.environments].sort((a, b) => Number(a.name === 'live') - Number(b.name === 'live')).map(placeOf);
  const dns = places.find((p) => p.domainId);
  const backup = places.find((p) => p.backupId !== undefined);
  const sftp = places.find((p) => p.sftpAccountIds.length > 0);
  return {
    baseUrl: 'http://127.0.0.1:9/v2',
    main: {
      apiKey: company.apiKey,
      ids: {
        companyId: company.id,
        siteId: site.id,
        envIds: places.map((p) => p.envId),
        envId: places[0]!.envId,
        sftpEnvId: (sftp ?? places[0]!).envId,
        sftpAccountIds: sftp?.sftpAccountIds ?? [],
        places,
        ...(company.users[0] ? { userId: company.users[0].user.id } : {}),
        ...(places[0]!.cdnCacheId ? { cdnCacheId: places[0]!.cdnCacheId } : {}),
        ...(dns ? { domainId: dns.domainId!, ...(dns.domainName ? { domainName: dns.domainName } : {}), ...(dns.dnsRecord ? { dnsRecord: dns.dnsRecord } : {}) } : {}),
        ...(backup ? { backupId: backup.backupId! } : {}),
      },
    },
    allowDestructive: options.allowDestructive ?? true,
    allowLive: options.allowLive ?? false,
    embedded: false,
  };
}

/** A `send` through `transport` that keeps every exchange, in order, for a test to read. */
export function recording(transport: Send): { readonly send: Send; readonly exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const send: Send = async (probe) => {
    const exchange = await transport(probe);
    exchanges.push(exchange);
    return exchange;
  };
  return { send, exchanges };
}
