/**
 * The mock's seed data: two companies, each with its own API key, users, keys, regions, a site
 * with a live and a staging environment, domains with DNS records, backups, additional SFTP
 * accounts, themes, plugins and a file tree. Ids are derived from labels, so every start is
 * identical and tests can name fixtures without reading them back.
 */
import { createHash } from 'node:crypto';
import type {
  AdditionalSftpAccount,
  ApiKey,
  Backup,
  CompanyUser,
  DnsRecord,
  FileNode,
  Plugin,
  Region,
  Theme,
} from '../generated/types.ts';

/** A UUID (version 4 layout) derived from a label: stable across runs, distinct per label. */
export function fixtureUuid(label: string): string {
  const hex = createHash('sha256').update(`hosted-site-contract:${label}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface DomainSeed {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly dnsRecords: DnsRecord[];
}

export interface EnvironmentSeed {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly isPremium: boolean;
  readonly isBlocked: boolean;
  readonly idEdgeCache: string;
  readonly cdnCacheId: string;
  readonly containerId: string;
  readonly webRoot: string;
  readonly cmsVersion: string;
  readonly phpVersion: string;
  readonly sshPort: string;
  readonly externalIp: string;
  readonly domains: readonly DomainSeed[];
  readonly backups: Backup[];
  readonly themes: Theme[];
  readonly plugins: Plugin[];
  readonly sftpAccounts: AdditionalSftpAccount[];
  readonly sftpAccountsPort: string;
  readonly fileList: FileNode[];
  readonly allowedIps: string[];
  readonly sftpPassword: string;
  readonly wpAdminEmails: string[];
}

export interface SiteSeed {
  readonly id: string;
  readonly name: string;
  readonly displayName: string;
  readonly status: string;
  readonly environments: readonly EnvironmentSeed[];
}

export interface CompanySeed {
  readonly id: string;
  readonly apiKey: string;
  readonly apiKeyName: string;
  /** Epoch milliseconds of the key's expiry. */
  readonly apiKeyExpiresAt: number;
  readonly users: CompanyUser[];
  readonly apiKeys: ApiKey[];
  readonly regions: Region[];
  readonly sites: readonly SiteSeed[];
}

const YEAR_2030 = Date.UTC(2030, 0, 1, 12, 0, 0, 123);

function theme(slug: string, title: string, active: boolean): Theme {
  return {
    name: slug,
    title,
    status: active ? 'active' : 'inactive',
    version: '1.4.0',
    update: 'available',
    update_version: '1.5.0',
    update_status: 'updated',
    is_version_vulnerable: false,
    is_update_version_vulnerable: false,
    auto_update_type: 'Hosting Automatic Update',
  };
}

function plugin(slug: string, title: string): Plugin {
  return { name: slug, title, status: 'active', version: '2.0.1', update: 'available', update_version: '2.1.0', update_status: 'updated' };
}

function environment(company: string, site: string, name: 'live' | 'staging', siteDomain: string, firstBackupId: number): EnvironmentSeed {
  const label = `${company}/${site}/${name}`;
  const host = name === 'live' ? siteDomain : `staging.${siteDomain}`;
  const domain = (sub: string): DomainSeed => ({
    id: fixtureUuid(`${label}/domain/${sub}`),
    name: sub ? `${sub}.${host}` : host,
    type: 'live',
    dnsRecords: [
      { type: 'A', name: sub ? `${sub}.${host}` : host, ttl: 3600, resource_records: [{ value: '203.0.113.10' }] },
      { type: 'TXT', name: `_dmarc.${host}`, ttl: 300, resource_records: [{ value: 'v=DMARC1; p=none' }] },
    ],
  });
  return {
    id: fixtureUuid(`${label}/env`),
    name,
    displayName: name === 'live' ? 'Live' : 'Staging',
    isPremium: name === 'live',
    isBlocked: false,
    idEdgeCache: fixtureUuid(`${label}/edge-cache`),
    cdnCacheId: fixtureUuid(`${label}/cdn-cache`),
    containerId: fixtureUuid(`${label}/container`),
    webRoot: `/www/${site}_${name}/public`,
    cmsVersion: '6.4.2',
    phpVersion: 'php8.2',
    sshPort: '22',
    externalIp: '34.xxx.xxx.12',
    domains: [domain(''), domain('www')],
    backups: [
      { id: firstBackupId, name: 'Before theme update', note: 'manual backup', type: 'manual', created_at: Date.UTC(2026, 9, 1, 8, 30) },
      { id: firstBackupId + 1, name: 'Nightly', note: '', type: 'scheduled', created_at: Date.UTC(2026, 9, 2, 2, 0) },
      { id: firstBackupId + 2, name: 'System', note: 'before PHP update', type: 'system_generated', created_at: Date.UTC(2026, 9, 3, 4, 15) },
    ],
    themes: [theme('twentytwentyfour', 'Twenty Twenty-Four', true), theme('astra', 'Astra', false)],
    plugins: [plugin('akismet', 'Akismet Anti-spam'), plugin('woocommerce', 'WooCommerce')],
    sftpAccounts: [
      { id: fixtureUuid(`${label}/sftp/editor`), username: `${site}-editor`, root_directory: '/www/uploads', is_active: true, permission: 'write' },
      { id: fixtureUuid(`${label}/sftp/auditor`), username: `${site}-auditor`, root_directory: '/www/uploads', is_active: false, permission: 'read' },
      { id: fixtureUuid(`${label}/sftp/deployer`), username: `${site}-deployer`, root_directory: '/www/public', is_active: true, permission: 'write' },
    ],
    sftpAccountsPort: '2222',
    fileList: [
      {
        name: 'public',
        path: 'public',
        children: [
          { name: 'index.php', path: 'public/index.php' },
          { name: 'wp-content', path: 'public/wp-content', children: [{ name: 'themes', path: 'public/wp-content/themes', children: [] }] },
        ],
      },
      { name: 'logs', path: 'logs', children: [{ name: 'access.log', path: 'logs/access.log' }] },
    ],
    allowedIps: ['198.51.100.7', '2001:db8::1'],
    sftpPassword: `sftp-secret-${fixtureUuid(`${label}/sftp-password`).slice(0, 12)}`,
    wpAdminEmails: [`admin@${siteDomain}`],
  };
}

/**
 * One company. Backup ids are integers the document does not say are unique: one company's
 * environments share numbers, while the two companies' differ, so that a restore naming the other
 * company's backup names none of this company's (ISOLATION-WRITE can send it).
 */
function company(label: string, siteName: string, siteDomain: string, firstBackupId: number): CompanySeed {
  const id = fixtureUuid(`${label}/company`);
  const keyName = `${label} automation key`;
  return {
    id,
    apiKey: `hsc_${fixtureUuid(`${label}/api-key`).replaceAll('-', '')}`,
    apiKeyName: keyName,
    apiKeyExpiresAt: YEAR_2030,
    users: [
      { user: { id: fixtureUuid(`${label}/user/owner`), email: `owner@${siteDomain}`, image: `https://images.example.test/${label}/owner.png`, full_name: 'Olivia Owner' } },
      { user: { id: fixtureUuid(`${label}/user/dev`), email: `dev@${siteDomain}`, image: `https://images.example.test/${label}/dev.png`, full_name: 'Dev Eloper' } },
    ],
    apiKeys: [
      { id: fixtureUuid(`${label}/api-key-record`), name: keyName, status: 'active', expires_at: new Date(YEAR_2030).toISOString() },
      { id: fixtureUuid(`${label}/api-key-record/ci`), name: `${label} CI key`, status: 'active', expires_at: '2031-06-30T00:00:00.000Z' },
    ],
    regions: [
      { name: 'Iowa (us-central1)', region: 'us-central1' },
      { name: 'Frankfurt (europe-west3)', region: 'europe-west3' },
      { name: 'Tokyo (asia-northeast1)', region: 'asia-northeast1' },
    ],
    sites: [
      {
        id: fixtureUuid(`${label}/site/${siteName}`),
        name: siteName,
        displayName: `${siteName[0]!.toUpperCase()}${siteName.slice(1)} Site`,
        status: 'live',
        environments: [environment(label, siteName, 'live', siteDomain, firstBackupId), environment(label, siteName, 'staging', siteDomain, firstBackupId)],
      },
    ],
  };
}

/** Fresh seed data; callers own the returned objects (the store mutates them). */
export function seedCompanies(): readonly CompanySeed[] {
  return [company('company-a', 'alpha', 'alpha.example.test', 1001), company('company-b', 'bravo', 'bravo.example.test', 2001)];
}
