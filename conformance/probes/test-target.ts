/**
 * Targets for the probe sources' tests, built by hand from the mock's fixtures (read-only): the
 * ids discovery would find (actions aim at the non-live environment), both tenants.
 */
import { seedCompanies, type CompanySeed } from '../../mock/fixtures.ts';
import type { CheckOptions, ProbeContext, Target, Tenant } from '../types.ts';

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
  };
}

export function contextOf(target: Target, seed = 42, runs = 10, options: CheckOptions = { strict: false }): ProbeContext {
  return { target, seed, runs, options };
}
