/**
 * The mock's state: companies and everything they own, indexed by id, plus the log of
 * acknowledged operations. Lookups take the caller's company, so data of another company is
 * indistinguishable from data that does not exist. Every mutation is synchronous: Node runs one
 * handler at a time, so concurrent requests cannot lose an update.
 */
import type { OperationKind } from '../generated/types.ts';
import { seedCompanies, type CompanySeed, type DomainSeed, type EnvironmentSeed, type SiteSeed } from './fixtures.ts';

export interface EnvironmentState extends EnvironmentSeed {
  readonly companyId: string;
  readonly siteId: string;
  edgeCachingEnabled: boolean;
  sshEnabled: boolean;
  /** Last `exp_interval` set through ssh/change-expiration-interval. */
  sshExpirationInterval: string | undefined;
  webRootSubfolder: string | undefined;
}

export interface DomainState extends DomainSeed {
  readonly companyId: string;
  readonly siteId: string;
  readonly envId: string;
}

/** An acknowledged action, as the mock recorded it (the document shows no operation record). */
export interface OperationRecord {
  readonly operation_id: string;
  readonly kind: OperationKind;
  readonly companyId: string;
  /** The id the action acted on (environment, domain, site or account). */
  readonly target: string;
  /** The request body with secrets removed. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** Ids are stored lowercase and looked up case-insensitively (RFC 9562: UUID input ignores case). */
export class Store {
  readonly companies: readonly CompanySeed[];
  private readonly companyByKey = new Map<string, CompanySeed>();
  private readonly sites = new Map<string, SiteSeed & { companyId: string }>();
  private readonly environments = new Map<string, EnvironmentState>();
  private readonly domains = new Map<string, DomainState>();
  private readonly sftpOwners = new Map<string, EnvironmentState>();
  readonly operations: OperationRecord[] = [];

  constructor(companies: readonly CompanySeed[] = seedCompanies()) {
    this.companies = companies;
    for (const company of companies) {
      this.companyByKey.set(company.apiKey, company);
      for (const site of company.sites) {
        this.sites.set(site.id, { ...site, companyId: company.id });
        for (const env of site.environments) {
          const state: EnvironmentState = Object.assign(env, {
            companyId: company.id,
            siteId: site.id,
            edgeCachingEnabled: true,
            sshEnabled: true,
            sshExpirationInterval: undefined,
            webRootSubfolder: undefined,
          });
          this.environments.set(env.id, state);
          for (const domain of env.domains) this.domains.set(domain.id, Object.assign(domain, { companyId: company.id, siteId: site.id, envId: env.id }));
          for (const account of env.sftpAccounts) this.sftpOwners.set(account.id, state);
        }
      }
    }
  }

  /** The company whose API key this is, if any (§Authentication 1). */
  companyForKey(key: string): CompanySeed | undefined {
    return this.companyByKey.get(key);
  }

  company(companyId: string, id: string): CompanySeed | undefined {
    return companyId === id.toLowerCase() ? this.companies.find((c) => c.id === companyId) : undefined;
  }

  site(companyId: string, id: string) {
    const site = this.sites.get(id.toLowerCase());
    return site?.companyId === companyId ? site : undefined;
  }

  environment(companyId: string, id: string): EnvironmentState | undefined {
    const env = this.environments.get(id.toLowerCase());
    return env?.companyId === companyId ? env : undefined;
  }

  environmentsOf(siteId: string): EnvironmentState[] {
    return [...this.environments.values()].filter((e) => e.siteId === siteId);
  }

  domain(companyId: string, id: string): DomainState | undefined {
    const domain = this.domains.get(id.toLowerCase());
    return domain?.companyId === companyId ? domain : undefined;
  }

  /** The environment that owns an additional SFTP account, if the caller's company owns it. */
  sftpAccountOwner(companyId: string, accountId: string): EnvironmentState | undefined {
    const env = this.sftpOwners.get(accountId.toLowerCase());
    return env?.companyId === companyId ? env : undefined;
  }

  removeSftpAccount(env: EnvironmentState, accountId: string): void {
    const id = accountId.toLowerCase();
    const index = env.sftpAccounts.findIndex((a) => a.id === id);
    if (index >= 0) env.sftpAccounts.splice(index, 1);
    this.sftpOwners.delete(id);
  }

  record(operation: OperationRecord): void {
    this.operations.push(operation);
  }

  /** Everything one company owns, as plain data: for tests that a request changed nothing. */
  snapshot(companyId: string): unknown {
    const envs = [...this.environments.values()].filter((e) => e.companyId === companyId);
    return JSON.parse(
      JSON.stringify({
        company: this.companies.find((c) => c.id === companyId),
        environments: envs,
        operations: this.operations.filter((o) => o.companyId === companyId),
      }),
    );
  }
}
