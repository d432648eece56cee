/*
 * generated from spec 1.106.0 — do not edit.
 * Written by generator/types.ts (npm run generate); edit the model in spec/ or the generator instead.
 */

/** Kinds of operation ids, `<kind>-<UUID>` (§Endpoints > Conventions). */
export type OperationKind =
  | 'cdn-cache:clear'
  | 'edge-cache:update-status'
  | 'domains:update-dns-record'
  | 'environments:search-and-replace'
  | 'sites:change-webroot-subfolder'
  | 'backups:restore'
  | 'environment:run-wp-cli-command'
  | 'sites:reset-site'
  | 'sftp-accounts:remove-additional-sftp-account';

/**
 * A hosted site.
 * @see hosted-site-api.md § Resources and fields > Site
 */
export interface Site {
  /**
   * Site id.
   * Format: uuid.
   */
  id: string;
  /** Site name. */
  name: string;
  /** Display name. */
  display_name: string;
  /**
   * Owning company.
   * Format: uuid.
   */
  company_id: string;
  /**
   * Site status; `live` occurs.
   * Values that occur: `live`; the full set: not shown (UNK-ENUM-SETS).
   */
  status: 'live' | (string & {});
  /** Summaries of the site's environments. */
  environments: SiteEnvironmentSummary[];
}

/**
 * Site-environment summary inside a Site.
 * @see hosted-site-api.md § Resources and fields > Site: “Site-environment summary (id, name, display_name, is_premium: boolean, is_blocked: boolean, domains: array of Domain, primaryDomain: Domain)”
 */
export interface SiteEnvironmentSummary {
  /**
   * Environment id (identifiers are UUID strings).
   * Format: uuid.
   */
  id: string;
  /** Environment name. */
  name: string;
  /** Display name. */
  display_name: string;
  /** Premium environment. */
  is_premium: boolean;
  /** Blocked environment. */
  is_blocked: boolean;
  /** Domains of the environment. */
  domains: Domain[];
  /** Primary domain. */
  primaryDomain: Domain;
}

/**
 * An environment, as returned by the list of a site's environments.
 * @see hosted-site-api.md § Resources and fields > Environment (returned by the list of a site's environments)
 */
export interface Environment {
  /**
   * Environment id.
   * Format: uuid.
   */
  id: string;
  /**
   * Environment name; `live` occurs.
   * Values that occur: `live`; the full set: not shown (UNK-ENUM-SETS).
   */
  name: 'live' | (string & {});
  /** Display name. */
  display_name: string;
  /** Blocked environment. */
  is_blocked: boolean;
  /**
   * Edge cache id.
   * Format: uuid.
   */
  id_edge_cache: string;
  /**
   * CDN cache id.
   * Format: uuid.
   */
  cdn_cache_id: string;
  /** Opted out of automatic PHP updates. */
  is_opt_out_from_automatic_php_update: boolean;
  /**
   * Web root, a path beginning with `/`.
   * Format: absolute-path.
   */
  web_root: string;
  /**
   * Image optimization type; `lossy` occurs.
   * Values that occur: `lossy`; the full set: not shown (UNK-ENUM-SETS).
   */
  image_optimization_type: 'lossy' | (string & {});
  /** Additional SFTP accounts enabled. */
  is_additional_sftp_accounts_enabled: boolean;
  /** Premium environment. */
  is_premium: boolean;
  /**
   * CMS version, a dotted version number.
   * Format: dotted-version.
   */
  cms_version: string;
  /** Domains of the environment. */
  domains: Domain[];
  /** Primary domain. */
  primaryDomain: Domain;
  /** SSH connection details. */
  ssh_connection: {
    /** SSH port, as a string. */
    ssh_port: string;
    /** SSH address. */
    ssh_ip: {
      /**
       * IPv4 address, possibly partly masked.
       * Format: ipv4-maskable.
       */
      external_ip: string;
    };
  };
  /** Container details. */
  container_info: {
    /**
     * Container id.
     * Format: uuid.
     */
    id: string;
    /**
     * PHP engine, `php<major>.<minor>`.
     * Format: php-version.
     */
    php_engine_version: string;
  };
}

/**
 * A domain.
 * @see hosted-site-api.md § Resources and fields > Domain
 */
export interface Domain {
  /**
   * Domain id.
   * Format: uuid.
   */
  id: string;
  /**
   * Host name.
   * Format: hostname.
   */
  name: string;
  /**
   * Domain type; `live` occurs.
   * Values that occur: `live`; the full set: not shown (UNK-ENUM-SETS).
   */
  type: 'live' | (string & {});
  /**
   * Site id.
   * Format: uuid.
   */
  site_id: string;
}

/**
 * One value of a DNS record.
 * @see hosted-site-api.md § Resources and fields > DNS record: “array of objects with `value` (string)”
 */
export interface ResourceRecordValue {
  /** Record value. */
  value: string;
}

/**
 * A DNS record of a domain.
 * @see hosted-site-api.md § Resources and fields > DNS record
 */
export interface DnsRecord {
  /**
   * Record type such as `A`.
   * Values that occur: `A`; the full set: not shown (UNK-ENUM-SETS).
   */
  type: 'A' | (string & {});
  /**
   * Host name.
   * Format: hostname.
   */
  name: string;
  /** Time to live, seconds. */
  ttl: number;
  /** Record values. */
  resource_records: ResourceRecordValue[];
}

/**
 * A backup of an environment.
 * @see hosted-site-api.md § Resources and fields > Backup
 */
export interface Backup {
  /** Backup id, an integer (the one identifier that is not a UUID). */
  id: number;
  /** Backup name. */
  name: string;
  /** Note. */
  note: string;
  /**
   * Backup type; `manual` occurs, scheduled and system-generated backups are also listed.
   * Values that occur: `manual`; the full set: not shown (UNK-ENUM-SETS).
   */
  type: 'manual' | (string & {});
  /** Creation time, epoch milliseconds (a number). */
  created_at: number;
}

/**
 * Item of the themes list.
 * @see hosted-site-api.md § Resources and fields > Theme (item of themes list)
 */
export interface Theme {
  /**
   * Slug (ASM-SLUG-SHAPE).
   * Format: slug.
   */
  name: string;
  /** Title. */
  title: string;
  /**
   * Status; `active` occurs.
   * Values that occur: `active`; the full set: not shown (UNK-ENUM-SETS).
   */
  status: 'active' | (string & {});
  /** Installed version. */
  version: string;
  /**
   * Update state; `available` occurs.
   * Values that occur: `available`; the full set: not shown (UNK-ENUM-SETS).
   */
  update: 'available' | (string & {});
  /** Version of the available update. */
  update_version: string;
  /**
   * Update status; `updated` occurs.
   * Values that occur: `updated`; the full set: not shown (UNK-ENUM-SETS).
   */
  update_status: 'updated' | (string & {});
  /** Installed version is vulnerable. */
  is_version_vulnerable: boolean;
  /** Update version is vulnerable. */
  is_update_version_vulnerable: boolean;
  /**
   * Vendor's name followed by `Automatic Update`.
   * Format: auto-update-label.
   */
  auto_update_type: string;
}

/**
 * Item of the plugins list: the Theme fields of the same name, no vulnerability flags, no auto_update_type.
 * @see hosted-site-api.md § Resources and fields > Plugin (item of plugins list): “Fields name, title, status, version, update, update_version, update_status: the same types as the Theme fields of the same name.”
 */
export interface Plugin {
  /**
   * Slug (ASM-SLUG-SHAPE).
   * Format: slug.
   */
  name: string;
  /** Title. */
  title: string;
  /**
   * Status; `active` occurs.
   * Values that occur: `active`; the full set: not shown (UNK-ENUM-SETS).
   */
  status: 'active' | (string & {});
  /** Installed version. */
  version: string;
  /**
   * Update state; `available` occurs.
   * Values that occur: `available`; the full set: not shown (UNK-ENUM-SETS).
   */
  update: 'available' | (string & {});
  /** Version of the available update. */
  update_version: string;
  /**
   * Update status; `updated` occurs.
   * Values that occur: `updated`; the full set: not shown (UNK-ENUM-SETS).
   */
  update_status: 'updated' | (string & {});
}

/**
 * An additional SFTP account.
 * @see hosted-site-api.md § Resources and fields > Additional SFTP account
 */
export interface AdditionalSftpAccount {
  /**
   * Account id.
   * Format: uuid.
   */
  id: string;
  /** User name. */
  username: string;
  /** Root directory (a path; leading slash not stated). */
  root_directory: string;
  /** Active account. */
  is_active: boolean;
  /**
   * Permission; `write` occurs.
   * Values that occur: `write`; the full set: not shown (UNK-ENUM-SETS).
   */
  permission: 'write' | (string & {});
}

/**
 * A node of the file tree.
 * @see hosted-site-api.md § Resources and fields > File node
 */
export interface FileNode {
  /** File or folder name. */
  name: string;
  /**
   * Relative path, no leading slash.
   * Format: relative-path.
   */
  path: string;
  /**
   * Child nodes; absent on leaves.
   * May be absent.
   */
  children?: FileNode[];
}

/**
 * API key (list item).
 * @see hosted-site-api.md § Resources and fields > API key (list item)
 */
export interface ApiKey {
  /**
   * Key id.
   * Format: uuid.
   */
  id: string;
  /** Key name. */
  name: string;
  /**
   * Status; `active` occurs.
   * Values that occur: `active`; the full set: not shown (UNK-ENUM-SETS).
   */
  status: 'active' | (string & {});
  /**
   * Expiry, ISO 8601 date-time with milliseconds.
   * Format: date-time-ms.
   */
  expires_at: string;
}

/**
 * Result of key validation: the key the request is sent with.
 * @see hosted-site-api.md § Resources and fields > Validated key (result of validation)
 */
export interface ValidatedKey {
  /** Key name. */
  name: string;
  /**
   * Expiry, epoch milliseconds as decimal digits in a string.
   * Format: epoch-ms-string.
   */
  expires_at: string;
  /**
   * Company id.
   * Format: uuid.
   */
  company: string;
  /**
   * Status; `active` occurs.
   * Values that occur: `active`; the full set: not shown (UNK-ENUM-SETS).
   */
  status: 'active' | (string & {});
}

/**
 * Array item of a company's users.
 * @see hosted-site-api.md § Resources and fields > Company user: “Array item `{ user: { id: string UUID, email: string, image: string URL, full_name: string } }`.”
 */
export interface CompanyUser {
  /** The user. */
  user: {
    /**
     * User id.
     * Format: uuid.
     */
    id: string;
    /**
     * E-mail address.
     * Format: email.
     */
    email: string;
    /**
     * Image URL.
     * Format: url.
     */
    image: string;
    /** Full name. */
    full_name: string;
  };
}

/**
 * An available hosting region.
 * @see hosted-site-api.md § Resources and fields > Region
 */
export interface Region {
  /** Display label. */
  name: string;
  /** Region code. */
  region: string;
}

/**
 * Body of every error response.
 * @see hosted-site-api.md § Resources and fields > Error body
 */
export interface ErrorBody {
  /** Message. */
  message: string;
  /** Equals the HTTP status. */
  status: number;
  /**
   * Any type; may be absent. Content: not shown.
   * May be absent.
   */
  data?: unknown;
}

/**
 * Body of an HTTP 202 acknowledgement.
 * @see hosted-site-api.md § Endpoints > Conventions: “Acknowledgement body (HTTP 202): `operation_id` (string), `message` (string), `status` (number, 202).”
 */
export interface Acknowledgement<K extends OperationKind = OperationKind> {
  /** `<kind>-<UUID>` with the action's kind. */
  operation_id: `${K}-${string}`;
  /** Says the action is in progress. */
  message: string;
  /** Always 202. */
  status: 202;
}

/**
 * Path parameters of `GET /company/{id}/users` (listCompanyUsers): List a company's users.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListCompanyUsersPathParams {
  /**
   * Company id (UUID).
   * Format: uuid.
   * Required.
   */
  id: string;
}

/**
 * Success body of `GET /company/{id}/users` (listCompanyUsers): List a company's users.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListCompanyUsersResponse {
  /** container of users */
  company: {
    /** Company users. */
    users: CompanyUser[];
  };
}

/**
 * Path parameters of `GET /company/{id}/api-keys` (listApiKeys): List a company's API keys.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListApiKeysPathParams {
  /**
   * Company id (UUID).
   * Format: uuid.
   * Required.
   */
  id: string;
}

/**
 * Success body of `GET /company/{id}/api-keys` (listApiKeys): List a company's API keys.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListApiKeysResponse {
  /** API keys. */
  api_keys: ApiKey[];
}

/**
 * Path parameters of `GET /company/{id}/available-regions` (listAvailableRegions): List the hosting regions available to a company.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListAvailableRegionsPathParams {
  /**
   * Company id (UUID).
   * Format: uuid.
   * Required.
   */
  id: string;
}

/**
 * Success body of `GET /company/{id}/available-regions` (listAvailableRegions): List the hosting regions available to a company.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListAvailableRegionsResponse {
  /** container of available_regions */
  company: {
    /** Regions. */
    available_regions: Region[];
  };
}

/**
 * Success body of `GET /validate` (validateApiKey): Validate the API key in use and return its name, expiry, company and status.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “Validated key object”
 */
export type ValidateApiKeyResponse = ValidatedKey;

/**
 * Path parameters of `GET /domains/{domain_id}/dns-records` (listDnsRecords): List a domain's DNS records.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListDnsRecordsPathParams {
  /**
   * Domain id (UUID).
   * Format: uuid.
   * Required.
   */
  domain_id: string;
}

/**
 * Success body of `GET /domains/{domain_id}/dns-records` (listDnsRecords): List a domain's DNS records.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListDnsRecordsResponse {
  /** container of dns_records */
  domain: {
    /** DNS records. */
    dns_records: DnsRecord[];
  };
}

/**
 * Path parameters of `GET /sites/{site_id}` (getSite): Get a site.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetSitePathParams {
  /**
   * Site id (UUID).
   * Format: uuid.
   * Required.
   */
  site_id: string;
}

/**
 * Success body of `GET /sites/{site_id}` (getSite): Get a site.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetSiteResponse {
  /** The site. */
  site: Site;
}

/**
 * Path parameters of `GET /sites/{site_id}/environments` (listEnvironments): List a site's environments.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListEnvironmentsPathParams {
  /**
   * Site id (UUID).
   * Format: uuid.
   * Required.
   */
  site_id: string;
}

/**
 * Success body of `GET /sites/{site_id}/environments` (listEnvironments): List a site's environments.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListEnvironmentsResponse {
  /** container of environments */
  site: {
    /** Environments. */
    environments: Environment[];
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/backups` (listBackups): List an environment's backups.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListBackupsPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/backups` (listBackups): List an environment's backups.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListBackupsResponse {
  /** The environment. */
  environment: {
    /** Environment display name. */
    display_name: string;
    /** Backups (manual, scheduled and system-generated). */
    backups: Backup[];
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/file-list` (getFileList): Get an environment's file tree.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetFileListPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/file-list` (getFileList): Get an environment's file tree.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetFileListResponse {
  /** The environment. */
  environment: {
    /**
     * Environment id.
     * Format: uuid.
     */
    id: string;
    /** Top-level file nodes. */
    file_list: FileNode[];
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/plugins` (listPlugins): List an environment's plugins (deprecated; a newer plugins endpoint replaces it).
 * @see hosted-site-api.md § Endpoints > Read endpoints
 * @deprecated `GET /sites/environments/{env_id}/plugins` is deprecated in favour of a newer plugins endpoint. Replacement: not shown (UNK-NEW-PLUGINS-ENDPOINT).
 */
export interface ListPluginsPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/plugins` (listPlugins): List an environment's plugins (deprecated; a newer plugins endpoint replaces it).
 * @see hosted-site-api.md § Endpoints > Read endpoints
 * @deprecated `GET /sites/environments/{env_id}/plugins` is deprecated in favour of a newer plugins endpoint. Replacement: not shown (UNK-NEW-PLUGINS-ENDPOINT).
 */
export interface ListPluginsResponse {
  /** The environment. */
  environment: {
    /**
     * Environment id.
     * Format: uuid.
     */
    id: string;
    /** Container details. */
    container_info: {
      /**
       * Container id.
       * Format: uuid.
       */
      id: string;
      /** Plugin list. */
      wp_plugins: {
        /** Plugins. */
        data: Plugin[];
      };
    };
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/wp-themes` (listThemes): List an environment's themes; the request carries a JSON body.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “JSON body: `status` (string), `column` (string)”
 */
export interface ListThemesPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Request body of `GET /sites/environments/{env_id}/wp-themes` (listThemes): List an environment's themes; the request carries a JSON body.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “JSON body: `status` (string), `column` (string)”
 */
export interface ListThemesRequest {
  /**
   * Theme status filter; allowed values: not shown (UNK-THEMES-BODY-VALUES).
   * Required/optional: not shown.
   */
  status?: string;
  /**
   * Column; allowed values: not shown (UNK-THEMES-BODY-VALUES).
   * Required/optional: not shown.
   */
  column?: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/wp-themes` (listThemes): List an environment's themes; the request carries a JSON body.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “JSON body: `status` (string), `column` (string)”
 */
export interface ListThemesResponse {
  /** The environment. */
  environment: {
    /** Theme list. */
    themes: {
      /** Themes. */
      items: Theme[];
      /**
       * Last update, ISO 8601 date-time.
       * Format: date-time.
       */
      last_updated_at: string;
    };
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/additional-sftp-accounts` (listAdditionalSftpAccounts): List an environment's additional SFTP accounts.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListAdditionalSftpAccountsPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/additional-sftp-accounts` (listAdditionalSftpAccounts): List an environment's additional SFTP accounts.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface ListAdditionalSftpAccountsResponse {
  /** The environment. */
  environment: {
    /** Accounts. */
    additional_sftp_accounts: AdditionalSftpAccount[];
    /** Container details. */
    container_info: {
      /** SFTP port, as a string. */
      additional_sftp_accounts_port: string;
    };
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/ssh/get-allowed-ips` (getSshAllowedIps): List the IP addresses allowed to connect by SFTP/SSH.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetSshAllowedIpsPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/ssh/get-allowed-ips` (getSshAllowedIps): List the IP addresses allowed to connect by SFTP/SSH.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetSshAllowedIpsResponse {
  /** container of active_container.sftp_ip_allowlist */
  environment: {
    /** container of sftp_ip_allowlist */
    active_container: {
      /**
       * Allowed IP addresses.
       * Each item: Format: ip.
       */
      sftp_ip_allowlist: string[];
    };
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/ssh/get-status` (getSshStatus): Tell whether SSH is enabled.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetSshStatusPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/ssh/get-status` (getSshStatus): Tell whether SSH is enabled.
 * @see hosted-site-api.md § Endpoints > Read endpoints
 */
export interface GetSshStatusResponse {
  /** container of active_container.is_ssh_enabled */
  environment: {
    /** container of is_ssh_enabled */
    active_container: {
      /** SSH enabled. */
      is_ssh_enabled: boolean;
    };
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/ssh/password` (getSftpPassword): Get the environment's SFTP password (a secret).
 * @see hosted-site-api.md § Endpoints > Read endpoints: “`environment.sftp_password` (string, a secret)”
 */
export interface GetSftpPasswordPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/ssh/password` (getSftpPassword): Get the environment's SFTP password (a secret).
 * @see hosted-site-api.md § Endpoints > Read endpoints: “`environment.sftp_password` (string, a secret)”
 */
export interface GetSftpPasswordResponse {
  /** The environment. */
  environment: {
    /**
     * Environment id.
     * Format: uuid.
     */
    id: string;
    /**
     * SFTP password, a secret.
     * @secret Redact this value in logs and reports.
     */
    sftp_password: string;
  };
}

/**
 * Path parameters of `GET /sites/environments/{env_id}/wpa-user-exists` (checkWpAdminUserExists): Tell whether a site-admin user with an e-mail address exists.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “one query parameter carrying the admin user's e-mail address; its name: not shown”
 */
export interface CheckWpAdminUserExistsPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Query parameters of `GET /sites/environments/{env_id}/wpa-user-exists` (checkWpAdminUserExists): Tell whether a site-admin user with an e-mail address exists.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “one query parameter carrying the admin user's e-mail address; its name: not shown”
 */
export interface CheckWpAdminUserExistsQuery {
  /**
   * The admin user's e-mail address; the parameter's name is not shown (ASM-WPA-QUERY-EMAIL).
   * Format: email.
   * Required.
   */
  email: string;
}

/**
 * Success body of `GET /sites/environments/{env_id}/wpa-user-exists` (checkWpAdminUserExists): Tell whether a site-admin user with an e-mail address exists.
 * @see hosted-site-api.md § Endpoints > Read endpoints: “one query parameter carrying the admin user's e-mail address; its name: not shown”
 */
export interface CheckWpAdminUserExistsResponse {
  /** The user exists. */
  has_wp_admin_user: boolean;
}

/**
 * Request body of `POST /sites/cdn/clear-cache` (clearCdnCache): Clear an environment's CDN cache.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`environment_id` string, required; `cdn_cache_id` string, required”
 */
export interface ClearCdnCacheRequest {
  /**
   * Environment id (UUID: ASM-ENVIRONMENT-ID-UUID).
   * Format: uuid.
   * Required.
   */
  environment_id: string;
  /**
   * CDN cache id (UUID).
   * Format: uuid.
   * Required.
   */
  cdn_cache_id: string;
}

/**
 * HTTP 202 acknowledgement (operation kind `cdn-cache:clear`) of `POST /sites/cdn/clear-cache` (clearCdnCache): Clear an environment's CDN cache.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`environment_id` string, required; `cdn_cache_id` string, required”
 */
export type ClearCdnCacheResponse = Acknowledgement<'cdn-cache:clear'>;

/**
 * Request body of `PUT /sites/edge-caching/status` (setEdgeCachingStatus): Switch edge caching on or off for an environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface SetEdgeCachingStatusRequest {
  /**
   * Environment id (UUID: ASM-ENVIRONMENT-ID-UUID).
   * Format: uuid.
   * Required/optional: not shown.
   */
  environment_id?: string;
  /**
   * Switch edge caching on (true) or off (false).
   * Required/optional: not shown.
   */
  enabled?: boolean;
}

/**
 * HTTP 202 acknowledgement (operation kind `edge-cache:update-status`) of `PUT /sites/edge-caching/status` (setEdgeCachingStatus): Switch edge caching on or off for an environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export type SetEdgeCachingStatusResponse = Acknowledgement<'edge-cache:update-status'>;

/**
 * Path parameters of `PUT /domains/{domain_id}/dns-records` (updateDnsRecords): Change a domain's DNS records: add the new values and remove the removed ones.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.”
 */
export interface UpdateDnsRecordsPathParams {
  /**
   * Domain id (UUID).
   * Format: uuid.
   * Required.
   */
  domain_id: string;
}

/**
 * Request body of `PUT /domains/{domain_id}/dns-records` (updateDnsRecords): Change a domain's DNS records: add the new values and remove the removed ones.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.”
 */
export interface UpdateDnsRecordsRequest {
  /**
   * Record type; allowed values: not shown (UNK-DNS-TYPE-VALUES).
   * Required/optional: not shown.
   */
  type?: string;
  /**
   * Record host name.
   * Required/optional: not shown.
   */
  name?: string;
  /**
   * Time to live, seconds.
   * Required/optional: not shown.
   */
  ttl?: number;
  /**
   * Values to add.
   * Required/optional: not shown.
   */
  new_resource_records?: ResourceRecordValue[];
  /**
   * Values to remove.
   * Required/optional: not shown.
   */
  removed_resource_records?: ResourceRecordValue[];
}

/**
 * HTTP 202 acknowledgement (operation kind `domains:update-dns-record`) of `PUT /domains/{domain_id}/dns-records` (updateDnsRecords): Change a domain's DNS records: add the new values and remove the removed ones.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.”
 */
export type UpdateDnsRecordsResponse = Acknowledgement<'domains:update-dns-record'>;

/**
 * Request body of `POST /sites/tools/search-and-replace` (searchAndReplace): Search and replace in an environment's database.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface SearchAndReplaceRequest {
  /**
   * Environment id (UUID: ASM-ENVIRONMENT-ID-UUID).
   * Format: uuid.
   * Required/optional: not shown.
   */
  environment_id?: string;
  /**
   * Text to search for.
   * Required/optional: not shown.
   */
  search?: string;
  /**
   * Replacement text.
   * Required/optional: not shown.
   */
  replace?: string;
  /**
   * Whether replacement is performed.
   * Required/optional: not shown.
   */
  perform_replacement?: boolean;
  /**
   * Whether caches are cleared.
   * Required/optional: not shown.
   */
  is_clear_cache?: boolean;
}

/**
 * HTTP 202 acknowledgement (operation kind `environments:search-and-replace`) of `POST /sites/tools/search-and-replace` (searchAndReplace): Search and replace in an environment's database.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export type SearchAndReplaceResponse = Acknowledgement<'environments:search-and-replace'>;

/**
 * Path parameters of `POST /sites/environments/{env_id}/change-webroot-subfolder` (changeWebrootSubfolder): Change an environment's webroot subfolder.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “the 202 message says the change is in progress; its outcome is checked in the customer dashboard”
 */
export interface ChangeWebrootSubfolderPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Request body of `POST /sites/environments/{env_id}/change-webroot-subfolder` (changeWebrootSubfolder): Change an environment's webroot subfolder.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “the 202 message says the change is in progress; its outcome is checked in the customer dashboard”
 */
export interface ChangeWebrootSubfolderRequest {
  /**
   * Webroot subfolder, a path beginning with `/`.
   * Format: absolute-path.
   * Limit: LIMIT-WEB-ROOT-SUBFOLDER.
   * Required/optional: not shown.
   */
  web_root_subfolder?: string;
  /**
   * Clear all caches.
   * Required/optional: not shown.
   */
  clear_all_cache?: boolean;
  /**
   * Refresh plugins and themes.
   * Required/optional: not shown.
   */
  refresh_plugins_and_themes?: boolean;
}

/**
 * HTTP 202 acknowledgement (operation kind `sites:change-webroot-subfolder`) of `POST /sites/environments/{env_id}/change-webroot-subfolder` (changeWebrootSubfolder): Change an environment's webroot subfolder.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “the 202 message says the change is in progress; its outcome is checked in the customer dashboard”
 */
export type ChangeWebrootSubfolderResponse = Acknowledgement<'sites:change-webroot-subfolder'>;

/**
 * Path parameters of `POST /sites/environments/{target_env_id}/backups/restore` (restoreBackup): Restore a backup into a target environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface RestoreBackupPathParams {
  /**
   * Target environment id (UUID).
   * Format: uuid.
   * Required.
   */
  target_env_id: string;
}

/**
 * Request body of `POST /sites/environments/{target_env_id}/backups/restore` (restoreBackup): Restore a backup into a target environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface RestoreBackupRequest {
  /**
   * Backup id (an integer).
   * Required/optional: not shown.
   */
  backup_id?: number;
  /**
   * User to notify (UUID).
   * Format: uuid.
   * Required/optional: not shown.
   */
  notified_user_id?: string;
}

/**
 * HTTP 202 acknowledgement (operation kind `backups:restore`) of `POST /sites/environments/{target_env_id}/backups/restore` (restoreBackup): Restore a backup into a target environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export type RestoreBackupResponse = Acknowledgement<'backups:restore'>;

/**
 * Path parameters of `POST /sites/environments/{env_id}/run-wp-cli-command` (runWpCliCommand): Run a WP-CLI command in an environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`wp_command` string, max length 5000, must match the pattern in Limits”
 */
export interface RunWpCliCommandPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Request body of `POST /sites/environments/{env_id}/run-wp-cli-command` (runWpCliCommand): Run a WP-CLI command in an environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`wp_command` string, max length 5000, must match the pattern in Limits”
 */
export interface RunWpCliCommandRequest {
  /**
   * The command; max length 5000, pattern in §Limits.
   * Maximum length: 5000.
   * Pattern: `^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$`.
   * Limit: LIMIT-WP-COMMAND.
   * Required/optional: not shown.
   */
  wp_command?: string;
}

/**
 * HTTP 202 acknowledgement (operation kind `environment:run-wp-cli-command`) of `POST /sites/environments/{env_id}/run-wp-cli-command` (runWpCliCommand): Run a WP-CLI command in an environment.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`wp_command` string, max length 5000, must match the pattern in Limits”
 */
export type RunWpCliCommandResponse = Acknowledgement<'environment:run-wp-cli-command'>;

/**
 * Path parameters of `POST /sites/{site_id}/reset-site` (resetSite): Reset a site.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface ResetSitePathParams {
  /**
   * Site id (UUID).
   * Format: uuid.
   * Required.
   */
  site_id: string;
}

/**
 * Request body of `POST /sites/{site_id}/reset-site` (resetSite): Reset a site.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface ResetSiteRequest {
  /**
   * New admin password, a secret.
   * Required/optional: not shown.
   * @secret Redact this value in logs and reports.
   */
  admin_password?: string;
}

/**
 * HTTP 202 acknowledgement (operation kind `sites:reset-site`) of `POST /sites/{site_id}/reset-site` (resetSite): Reset a site.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export type ResetSiteResponse = Acknowledgement<'sites:reset-site'>;

/**
 * Path parameters of `DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}` (removeAdditionalSftpAccount): Remove an additional SFTP account.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export interface RemoveAdditionalSftpAccountPathParams {
  /**
   * Additional SFTP account id (UUID).
   * Format: uuid.
   * Required.
   */
  sftp_account_id: string;
}

/**
 * HTTP 202 acknowledgement (operation kind `sftp-accounts:remove-additional-sftp-account`) of `DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}` (removeAdditionalSftpAccount): Remove an additional SFTP account.
 * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
 */
export type RemoveAdditionalSftpAccountResponse = Acknowledgement<'sftp-accounts:remove-additional-sftp-account'>;

/**
 * Path parameters of `POST /sites/environments/{env_id}/wpa-create-user` (createWpAdminUser): Create a site-admin user.
 * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id)
 */
export interface CreateWpAdminUserPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Request body of `POST /sites/environments/{env_id}/wpa-create-user` (createWpAdminUser): Create a site-admin user.
 * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id)
 */
export interface CreateWpAdminUserRequest {
  /**
   * E-mail address of the new user (the document says string; e-mail by meaning).
   * Format: email.
   * Required/optional: not shown.
   */
  email?: string;
  /**
   * First name.
   * Required/optional: not shown.
   */
  first_name?: string;
  /**
   * Last name.
   * Required/optional: not shown.
   */
  last_name?: string;
}

/**
 * Success body of `POST /sites/environments/{env_id}/wpa-create-user` (createWpAdminUser): Create a site-admin user.
 * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id)
 */
export interface CreateWpAdminUserResponse {
  /** The user was created. */
  create_wp_admin_user: boolean;
}

/**
 * Path parameters of `POST /sites/environments/{env_id}/ssh/change-expiration-interval` (changeSshExpirationInterval): Change the SFTP/SSH access expiration interval.
 * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id): “`exp_interval` string, required, one of five enumerated values; `days_7` is one of them”
 */
export interface ChangeSshExpirationIntervalPathParams {
  /**
   * Environment id (UUID).
   * Format: uuid.
   * Required.
   */
  env_id: string;
}

/**
 * Request body of `POST /sites/environments/{env_id}/ssh/change-expiration-interval` (changeSshExpirationInterval): Change the SFTP/SSH access expiration interval.
 * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id): “`exp_interval` string, required, one of five enumerated values; `days_7` is one of them”
 */
export interface ChangeSshExpirationIntervalRequest {
  /**
   * One of five enumerated values; `days_7` is one of them, the other four: not shown.
   * One of 5 values; shown: `days_7`; the other 4 values are not shown (UNK-EXP-INTERVAL-VALUES).
   * Limit: LIMIT-EXP-INTERVAL.
   * Required.
   */
  exp_interval: 'days_7' | (string & {});
}

/**
 * Success body of `POST /sites/environments/{env_id}/ssh/change-expiration-interval` (changeSshExpirationInterval): Change the SFTP/SSH access expiration interval.
 * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id): “`exp_interval` string, required, one of five enumerated values; `days_7` is one of them”
 */
export interface ChangeSshExpirationIntervalResponse {
  /** Always null. */
  result: null;
}

/** The name of every endpoint; also the client method names. */
export type EndpointName =
  | 'listCompanyUsers'
  | 'listApiKeys'
  | 'listAvailableRegions'
  | 'validateApiKey'
  | 'listDnsRecords'
  | 'getSite'
  | 'listEnvironments'
  | 'listBackups'
  | 'getFileList'
  | 'listPlugins'
  | 'listThemes'
  | 'listAdditionalSftpAccounts'
  | 'getSshAllowedIps'
  | 'getSshStatus'
  | 'getSftpPassword'
  | 'checkWpAdminUserExists'
  | 'clearCdnCache'
  | 'setEdgeCachingStatus'
  | 'updateDnsRecords'
  | 'searchAndReplace'
  | 'changeWebrootSubfolder'
  | 'restoreBackup'
  | 'runWpCliCommand'
  | 'resetSite'
  | 'removeAdditionalSftpAccount'
  | 'createWpAdminUser'
  | 'changeSshExpirationInterval';

/** Every endpoint by name: method, path template, and the types of its parts (`undefined` where it has none). */
export interface Endpoints {
  /**
   * Endpoint of `GET /company/{id}/users` (listCompanyUsers): List a company's users.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listCompanyUsers: {
    method: 'GET';
    path: '/company/{id}/users';
    pathParams: ListCompanyUsersPathParams;
    query: undefined;
    request: undefined;
    response: ListCompanyUsersResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /company/{id}/api-keys` (listApiKeys): List a company's API keys.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listApiKeys: {
    method: 'GET';
    path: '/company/{id}/api-keys';
    pathParams: ListApiKeysPathParams;
    query: undefined;
    request: undefined;
    response: ListApiKeysResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /company/{id}/available-regions` (listAvailableRegions): List the hosting regions available to a company.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listAvailableRegions: {
    method: 'GET';
    path: '/company/{id}/available-regions';
    pathParams: ListAvailableRegionsPathParams;
    query: undefined;
    request: undefined;
    response: ListAvailableRegionsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /validate` (validateApiKey): Validate the API key in use and return its name, expiry, company and status.
   * @see hosted-site-api.md § Endpoints > Read endpoints: “Validated key object”
   */
  validateApiKey: {
    method: 'GET';
    path: '/validate';
    pathParams: undefined;
    query: undefined;
    request: undefined;
    response: ValidateApiKeyResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 500;
  };
  /**
   * Endpoint of `GET /domains/{domain_id}/dns-records` (listDnsRecords): List a domain's DNS records.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listDnsRecords: {
    method: 'GET';
    path: '/domains/{domain_id}/dns-records';
    pathParams: ListDnsRecordsPathParams;
    query: undefined;
    request: undefined;
    response: ListDnsRecordsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 500;
  };
  /**
   * Endpoint of `GET /sites/{site_id}` (getSite): Get a site.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  getSite: {
    method: 'GET';
    path: '/sites/{site_id}';
    pathParams: GetSitePathParams;
    query: undefined;
    request: undefined;
    response: GetSiteResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/{site_id}/environments` (listEnvironments): List a site's environments.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listEnvironments: {
    method: 'GET';
    path: '/sites/{site_id}/environments';
    pathParams: ListEnvironmentsPathParams;
    query: undefined;
    request: undefined;
    response: ListEnvironmentsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/backups` (listBackups): List an environment's backups.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listBackups: {
    method: 'GET';
    path: '/sites/environments/{env_id}/backups';
    pathParams: ListBackupsPathParams;
    query: undefined;
    request: undefined;
    response: ListBackupsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/file-list` (getFileList): Get an environment's file tree.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  getFileList: {
    method: 'GET';
    path: '/sites/environments/{env_id}/file-list';
    pathParams: GetFileListPathParams;
    query: undefined;
    request: undefined;
    response: GetFileListResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/plugins` (listPlugins): List an environment's plugins (deprecated; a newer plugins endpoint replaces it).
   * @see hosted-site-api.md § Endpoints > Read endpoints
   * @deprecated `GET /sites/environments/{env_id}/plugins` is deprecated in favour of a newer plugins endpoint. Replacement: not shown (UNK-NEW-PLUGINS-ENDPOINT).
   */
  listPlugins: {
    method: 'GET';
    path: '/sites/environments/{env_id}/plugins';
    pathParams: ListPluginsPathParams;
    query: undefined;
    request: undefined;
    response: ListPluginsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/wp-themes` (listThemes): List an environment's themes; the request carries a JSON body.
   * @see hosted-site-api.md § Endpoints > Read endpoints: “JSON body: `status` (string), `column` (string)”
   */
  listThemes: {
    method: 'GET';
    path: '/sites/environments/{env_id}/wp-themes';
    pathParams: ListThemesPathParams;
    query: undefined;
    request: ListThemesRequest;
    response: ListThemesResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/additional-sftp-accounts` (listAdditionalSftpAccounts): List an environment's additional SFTP accounts.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  listAdditionalSftpAccounts: {
    method: 'GET';
    path: '/sites/environments/{env_id}/additional-sftp-accounts';
    pathParams: ListAdditionalSftpAccountsPathParams;
    query: undefined;
    request: undefined;
    response: ListAdditionalSftpAccountsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/ssh/get-allowed-ips` (getSshAllowedIps): List the IP addresses allowed to connect by SFTP/SSH.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  getSshAllowedIps: {
    method: 'GET';
    path: '/sites/environments/{env_id}/ssh/get-allowed-ips';
    pathParams: GetSshAllowedIpsPathParams;
    query: undefined;
    request: undefined;
    response: GetSshAllowedIpsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/ssh/get-status` (getSshStatus): Tell whether SSH is enabled.
   * @see hosted-site-api.md § Endpoints > Read endpoints
   */
  getSshStatus: {
    method: 'GET';
    path: '/sites/environments/{env_id}/ssh/get-status';
    pathParams: GetSshStatusPathParams;
    query: undefined;
    request: undefined;
    response: GetSshStatusResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 404 | 500;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/ssh/password` (getSftpPassword): Get the environment's SFTP password (a secret).
   * @see hosted-site-api.md § Endpoints > Read endpoints: “`environment.sftp_password` (string, a secret)”
   */
  getSftpPassword: {
    method: 'GET';
    path: '/sites/environments/{env_id}/ssh/password';
    pathParams: GetSftpPasswordPathParams;
    query: undefined;
    request: undefined;
    response: GetSftpPasswordResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 404;
  };
  /**
   * Endpoint of `GET /sites/environments/{env_id}/wpa-user-exists` (checkWpAdminUserExists): Tell whether a site-admin user with an e-mail address exists.
   * @see hosted-site-api.md § Endpoints > Read endpoints: “one query parameter carrying the admin user's e-mail address; its name: not shown”
   */
  checkWpAdminUserExists: {
    method: 'GET';
    path: '/sites/environments/{env_id}/wpa-user-exists';
    pathParams: CheckWpAdminUserExistsPathParams;
    query: CheckWpAdminUserExistsQuery;
    request: undefined;
    response: CheckWpAdminUserExistsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 404 | 500;
  };
  /**
   * Endpoint of `POST /sites/cdn/clear-cache` (clearCdnCache): Clear an environment's CDN cache.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`environment_id` string, required; `cdn_cache_id` string, required”
   */
  clearCdnCache: {
    method: 'POST';
    path: '/sites/cdn/clear-cache';
    pathParams: undefined;
    query: undefined;
    request: ClearCdnCacheRequest;
    response: ClearCdnCacheResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 500;
  };
  /**
   * Endpoint of `PUT /sites/edge-caching/status` (setEdgeCachingStatus): Switch edge caching on or off for an environment.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
   */
  setEdgeCachingStatus: {
    method: 'PUT';
    path: '/sites/edge-caching/status';
    pathParams: undefined;
    query: undefined;
    request: SetEdgeCachingStatusRequest;
    response: SetEdgeCachingStatusResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 500;
  };
  /**
   * Endpoint of `PUT /domains/{domain_id}/dns-records` (updateDnsRecords): Change a domain's DNS records: add the new values and remove the removed ones.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.”
   */
  updateDnsRecords: {
    method: 'PUT';
    path: '/domains/{domain_id}/dns-records';
    pathParams: UpdateDnsRecordsPathParams;
    query: undefined;
    request: UpdateDnsRecordsRequest;
    response: UpdateDnsRecordsResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/tools/search-and-replace` (searchAndReplace): Search and replace in an environment's database.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
   */
  searchAndReplace: {
    method: 'POST';
    path: '/sites/tools/search-and-replace';
    pathParams: undefined;
    query: undefined;
    request: SearchAndReplaceRequest;
    response: SearchAndReplaceResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/environments/{env_id}/change-webroot-subfolder` (changeWebrootSubfolder): Change an environment's webroot subfolder.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “the 202 message says the change is in progress; its outcome is checked in the customer dashboard”
   */
  changeWebrootSubfolder: {
    method: 'POST';
    path: '/sites/environments/{env_id}/change-webroot-subfolder';
    pathParams: ChangeWebrootSubfolderPathParams;
    query: undefined;
    request: ChangeWebrootSubfolderRequest;
    response: ChangeWebrootSubfolderResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/environments/{target_env_id}/backups/restore` (restoreBackup): Restore a backup into a target environment.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
   */
  restoreBackup: {
    method: 'POST';
    path: '/sites/environments/{target_env_id}/backups/restore';
    pathParams: RestoreBackupPathParams;
    query: undefined;
    request: RestoreBackupRequest;
    response: RestoreBackupResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/environments/{env_id}/run-wp-cli-command` (runWpCliCommand): Run a WP-CLI command in an environment.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated): “`wp_command` string, max length 5000, must match the pattern in Limits”
   */
  runWpCliCommand: {
    method: 'POST';
    path: '/sites/environments/{env_id}/run-wp-cli-command';
    pathParams: RunWpCliCommandPathParams;
    query: undefined;
    request: RunWpCliCommandRequest;
    response: RunWpCliCommandResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/{site_id}/reset-site` (resetSite): Reset a site.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
   */
  resetSite: {
    method: 'POST';
    path: '/sites/{site_id}/reset-site';
    pathParams: ResetSitePathParams;
    query: undefined;
    request: ResetSiteRequest;
    response: ResetSiteResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}` (removeAdditionalSftpAccount): Remove an additional SFTP account.
   * @see hosted-site-api.md § Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)
   */
  removeAdditionalSftpAccount: {
    method: 'DELETE';
    path: '/sites/environments/additional-sftp-accounts/{sftp_account_id}';
    pathParams: RemoveAdditionalSftpAccountPathParams;
    query: undefined;
    request: undefined;
    response: RemoveAdditionalSftpAccountResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/environments/{env_id}/wpa-create-user` (createWpAdminUser): Create a site-admin user.
   * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id)
   */
  createWpAdminUser: {
    method: 'POST';
    path: '/sites/environments/{env_id}/wpa-create-user';
    pathParams: CreateWpAdminUserPathParams;
    query: undefined;
    request: CreateWpAdminUserRequest;
    response: CreateWpAdminUserResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
  /**
   * Endpoint of `POST /sites/environments/{env_id}/ssh/change-expiration-interval` (changeSshExpirationInterval): Change the SFTP/SSH access expiration interval.
   * @see hosted-site-api.md § Endpoints > Other action endpoints (not acknowledged with an operation id): “`exp_interval` string, required, one of five enumerated values; `days_7` is one of them”
   */
  changeSshExpirationInterval: {
    method: 'POST';
    path: '/sites/environments/{env_id}/ssh/change-expiration-interval';
    pathParams: ChangeSshExpirationIntervalPathParams;
    query: undefined;
    request: ChangeSshExpirationIntervalRequest;
    response: ChangeSshExpirationIntervalResponse;
    /** Error statuses of the per-endpoint table in §Errors. */
    errors: 400 | 401 | 500;
  };
}
