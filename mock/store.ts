/**
 * The mock's state: companies and everything they own, indexed by id, plus a bounded log of
 * acknowledged operations. Lookups take the caller's company, so data of another company is
 * indistinguishable from data that does not exist. Every mutation is synchronous: Node runs one
 * handler at a time, so concurrent requests cannot lose an update. Whatever a client can grow
 * (site-admin users, DNS records and their values) is indexed, so a request costs the same on
 * the first day of a long run as on the last.
 */
import type { DnsRecord, OperationKind, UpdateDnsRecordsRequest } from '../generated/types.ts';
import { seedCompanies, type CompanySeed, type DomainSeed, type EnvironmentSeed, type SiteSeed } from './fixtures.ts';
import { MAX_KEPT_OPERATIONS } from './policy.ts';

/** Site-admin addresses are added through `Store.addWpAdmin` only, which keeps its index in step. */
export interface EnvironmentState extends Omit<EnvironmentSeed, 'wpAdminEmails'> {
  readonly wpAdminEmails: readonly string[];
  readonly companyId: string;
  readonly siteId: string;
  edgeCachingEnabled: boolean;
  sshEnabled: boolean;
  /** Last `exp_interval` set through ssh/change-expiration-interval. */
  sshExpirationInterval: string | undefined;
  webRootSubfolder: string | undefined;
}

/** `dnsRecords` changes through `Store.updateDnsRecords` only, which keeps its index in step. */
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
  /** The id the action acted on (environment, domain, site or account); undefined when the request named none (an omitted unmarked field). */
  readonly target: string | undefined;
  /** The request body with secrets removed. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** The newest `capacity` items, the oldest overwritten first: O(1) per item, memory bounded. */
class RingLog<T> {
  private readonly items: T[] = [];
  /** Where the oldest item sits once the log is full: the slot the next one overwrites. */
  private oldest = 0;
  private droppedCount = 0;

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 0)) throw new RangeError(`a log keeps a whole number of items, not ${capacity}`);
  }

  push(item: T): void {
    if (this.items.length < this.capacity) return void this.items.push(item);
    this.droppedCount++;
    if (this.capacity === 0) return;
    this.items[this.oldest] = item;
    this.oldest = (this.oldest + 1) % this.capacity;
  }

  get size(): number {
    return this.items.length;
  }

  /** How many items were overwritten (or, at capacity 0, never kept). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The kept items, oldest first. */
  toArray(): T[] {
    return [...this.items.slice(this.oldest), ...this.items.slice(0, this.oldest)];
  }
}

/** A DNS record with its values as a set: an update costs what it names, not what the record holds. */
interface IndexedDnsRecord {
  readonly record: DnsRecord;
  readonly values: Set<string>;
}

/** A domain's records as reads list them, and the same records by type and name. */
interface DnsZone {
  readonly records: DnsRecord[];
  readonly byTypeAndName: Map<string, IndexedDnsRecord>;
}

const dnsKey = (type: string, name: string) => JSON.stringify([type, name]);

/** A site-admin address as compared: e-mail addresses ignore case, as the mock has always read them. */
const adminKey = (email: string) => email.toLowerCase();

export interface StoreOptions {
  /** The seed data; fresh fixtures when absent. */
  readonly companies?: readonly CompanySeed[];
  /** How many acknowledged operations to keep, the newest (default MAX_KEPT_OPERATIONS). */
  readonly maxOperations?: number;
}

/**
 * The store's changes reads can observe, and what each answers at once when a layout defers the
 * change itself (`effectDelayMs`): actions are "accepted, not completed, when the call returns".
 */
export const DEFERRABLE_EFFECTS: Readonly<Record<string, (store: Store, ...args: never[]) => unknown>> = {
  updateDnsRecords: () => undefined,
  removeSftpAccount: () => undefined,
  // wpa-create-user answers whether it will add the user: it will unless the address exists.
  addWpAdmin: (store, env: Parameters<Store['hasWpAdmin']>[0], email: string) => !store.hasWpAdmin(env, email),
};

/** Ids are stored lowercase and looked up case-insensitively (RFC 9562: UUID input ignores case). */
export class Store {
  readonly companies: readonly CompanySeed[];
  private readonly companyByKey = new Map<string, CompanySeed>();
  private readonly sites = new Map<string, SiteSeed & { companyId: string }>();
  private readonly environments = new Map<string, EnvironmentState>();
  private readonly domains = new Map<string, DomainState>();
  private readonly sftpOwners = new Map<string, EnvironmentState>();
  /** Per environment id: its site-admin addresses (the array reads see) and the same, as compared. */
  private readonly wpAdmins = new Map<string, { readonly emails: string[]; readonly keys: Set<string> }>();
  /** Per domain id. */
  private readonly dnsZones = new Map<string, DnsZone>();
  private readonly operationLog: RingLog<OperationRecord>;
  // Not a #private field: layouts reach the store through a Proxy (app.ts, deferringEffects).
  private versionCount = 0;

  constructor({ companies = seedCompanies(), maxOperations = MAX_KEPT_OPERATIONS }: StoreOptions = {}) {
    this.companies = companies;
    this.operationLog = new RingLog(maxOperations);
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
          this.wpAdmins.set(env.id, { emails: env.wpAdminEmails, keys: new Set(env.wpAdminEmails.map(adminKey)) });
          for (const domain of env.domains) {
            this.domains.set(domain.id, Object.assign(domain, { companyId: company.id, siteId: site.id, envId: env.id }));
            this.dnsZones.set(domain.id, zoneOf(domain.dnsRecords));
          }
          for (const account of env.sftpAccounts) this.sftpOwners.set(account.id, state);
        }
      }
    }
  }

  /** The company whose API key this is, if any (§Authentication 1). */
  /**
   * Changes with every change reads could observe: the store's own mutations, and every action
   * the pipeline ran (`changed`), since handlers also set fields of what they act on.
   */
  get version(): number {
    return this.versionCount;
  }

  changed(): void {
    this.versionCount++;
  }

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
    this.versionCount++;
    const id = accountId.toLowerCase();
    const index = env.sftpAccounts.findIndex((a) => a.id === id);
    if (index >= 0) env.sftpAccounts.splice(index, 1);
    this.sftpOwners.delete(id);
  }

  /** Whether the environment has a site-admin user with this address, in any letter case. */
  hasWpAdmin(env: EnvironmentState, email: string): boolean {
    return this.wpAdmins.get(env.id)!.keys.has(adminKey(email));
  }

  /** Adds a site-admin user unless the address exists in any letter case; whether it was added. */
  addWpAdmin(env: EnvironmentState, email: string): boolean {
    const admins = this.wpAdmins.get(env.id)!;
    if (admins.keys.has(adminKey(email))) return false;
    this.versionCount++;
    admins.keys.add(adminKey(email));
    admins.emails.push(email);
    return true;
  }

  /**
   * §Endpoints > Behaviours: "The DNS update adds the records named in `new_resource_records` and
   * removes those in `removed_resource_records`", on the record of that type and name. A record
   * left without values disappears; one that does not exist yet is created with the given TTL.
   * Records and values keep the order they were added in; only a removal that hits rewrites the
   * array it removes from.
   */
  updateDnsRecords(domain: DomainState, update: UpdateDnsRecordsRequest): void {
    this.versionCount++;
    const { type, name, ttl } = update;
    if (type === undefined || name === undefined) return;
    const zone = this.dnsZones.get(domain.id)!;
    const key = dnsKey(type, name);
    let entry = zone.byTypeAndName.get(key);
    if (!entry) {
      entry = { record: { type, name, ttl: ttl ?? 3600, resource_records: [] }, values: new Set() };
      zone.records.push(entry.record);
      zone.byTypeAndName.set(key, entry);
    }
    const { record, values } = entry;
    if (ttl !== undefined) record.ttl = ttl;
    const removed = new Set<string>();
    for (const { value } of update.removed_resource_records ?? []) if (values.delete(value)) removed.add(value);
    if (removed.size) record.resource_records = record.resource_records.filter((r) => !removed.has(r.value));
    for (const { value } of update.new_resource_records ?? []) {
      if (values.has(value)) continue;
      values.add(value);
      record.resource_records.push({ value });
    }
    if (values.size === 0) {
      zone.records.splice(zone.records.indexOf(record), 1);
      zone.byTypeAndName.delete(key);
    }
  }

  record(operation: OperationRecord): void {
    this.versionCount++;
    this.operationLog.push(operation);
  }

  /** The kept acknowledged operations, oldest first: the newest `maxOperations` of them. */
  get operations(): readonly OperationRecord[] {
    return this.operationLog.toArray();
  }

  /** How many acknowledged operations were dropped to keep the log within its bound. */
  get droppedOperations(): number {
    return this.operationLog.dropped;
  }

  /** Every operation ever acknowledged, kept or dropped: what "nothing was acknowledged" is checked on. */
  get acknowledgedOperations(): number {
    return this.operationLog.dropped + this.operationLog.size;
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

function zoneOf(records: DnsRecord[]): DnsZone {
  const byTypeAndName = new Map<string, IndexedDnsRecord>();
  for (const record of records) {
    byTypeAndName.set(dnsKey(record.type, record.name), { record, values: new Set(record.resource_records.map((r) => r.value)) });
  }
  return { records, byTypeAndName };
}
