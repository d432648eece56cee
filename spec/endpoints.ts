/**
 * §Endpoints: all 27 endpoints (16 reads, 9 acknowledged actions, 2 other actions), with the
 * per-endpoint error statuses of §Errors to the letter. Tag groups: see ASM-TAG-GROUPS.
 */
import { array, boolean, describing, field, identifying, integer, nested, nullType, object, ref, required, string, unmarked } from './build.ts';
import type { Endpoint, ErrorStatus, Field, FieldType, Param, Referent } from './model.ts';
import { WP_COMMAND_MAX_LENGTH, WP_COMMAND_PATTERN } from './rules.ts';

const READS = 'Endpoints > Read endpoints';
const ACKS = 'Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)';
const OTHER = 'Endpoints > Other action endpoints (not acknowledged with an operation id)';

/** Rows of the per-endpoint table in §Errors, to the letter. */
const E401_500: readonly ErrorStatus[] = [401, 500];
const E400_401_500: readonly ErrorStatus[] = [400, 401, 500];
const E401_404_500: readonly ErrorStatus[] = [401, 404, 500];
const E400_401_404_500: readonly ErrorStatus[] = [400, 401, 404, 500];
const E400_401_404: readonly ErrorStatus[] = [400, 401, 404];

/** §Endpoints > Conventions: "`{id}` is a company id; `{site_id}`, ... are UUID strings." */
const idParam = (name: string, what: string, refersTo: Referent): Param => ({
  name,
  type: string('uuid'),
  presence: 'required',
  doc: `${what} (UUID).`,
  refersTo,
});
const companyId = idParam('id', 'Company id', 'company');
const siteId = idParam('site_id', 'Site id', 'site');
const envId = idParam('env_id', 'Environment id', 'environment');
const domainId = idParam('domain_id', 'Domain id', 'domain');

/** A body field naming existing data. */
const naming = (f: Field, refersTo: Referent): Field => ({ ...f, refersTo });
/** Free text a person types (see `Field.freeText`). */
const freeText = (f: Field): Field => ({ ...f, freeText: true });

const environmentIdField = (presence: 'required' | 'not-shown'): Field => ({
  ...naming(field('environment_id', string('uuid'), 'Environment id (UUID: ASM-ENVIRONMENT-ID-UUID).', presence), 'environment'),
  assumption: 'ASM-ENVIRONMENT-ID-UUID',
});
const recordValues = (name: string, doc: string) => unmarked(name, array(ref('ResourceRecordValue')), doc);

/** `environment`: the environment of the request's `{env_id}` (`Field.describes`), holding `fields`. */
const theEnvironment = (...fields: Field[]): FieldType => object(describing(field('environment', object(...fields), 'The environment.'), 'environment'));

export const endpoints: readonly Endpoint[] = [
  // ---- Read endpoints ---------------------------------------------------------------------
  {
    name: 'listCompanyUsers',
    method: 'GET',
    path: '/company/{id}/users',
    summary: "List a company's users.",
    tag: 'Company Users',
    pathParams: [companyId],
    queryParams: [],
    success: { kind: 'data', body: nested(['company', 'users'], array(ref('CompanyUser')), 'Company users.', 'company') },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'listApiKeys',
    method: 'GET',
    path: '/company/{id}/api-keys',
    summary: "List a company's API keys.",
    tag: 'API Keys',
    pathParams: [companyId],
    queryParams: [],
    success: { kind: 'data', body: object(field('api_keys', array(ref('ApiKey')), 'API keys.')) },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'listAvailableRegions',
    method: 'GET',
    path: '/company/{id}/available-regions',
    summary: 'List the hosting regions available to a company.',
    tag: 'Available Regions',
    pathParams: [companyId],
    queryParams: [],
    success: { kind: 'data', body: nested(['company', 'available_regions'], array(ref('Region')), 'Regions.', 'company') },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'validateApiKey',
    method: 'GET',
    path: '/validate',
    summary: 'Validate the API key in use and return its name, expiry, company and status.',
    tag: 'Authentication',
    pathParams: [],
    queryParams: [],
    success: { kind: 'data', body: ref('ValidatedKey') },
    errors: E401_500,
    effect: 'read',
    cite: { section: READS, quote: 'Validated key object' },
  },
  {
    name: 'listDnsRecords',
    method: 'GET',
    path: '/domains/{domain_id}/dns-records',
    summary: "List a domain's DNS records.",
    tag: 'Domains',
    pathParams: [domainId],
    queryParams: [],
    success: { kind: 'data', body: nested(['domain', 'dns_records'], array(ref('DnsRecord')), 'DNS records.', 'domain') },
    errors: E401_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'getSite',
    method: 'GET',
    path: '/sites/{site_id}',
    summary: 'Get a site.',
    tag: 'Site management',
    pathParams: [siteId],
    queryParams: [],
    success: { kind: 'data', body: object(describing(field('site', ref('Site'), 'The site.'), 'site')) },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'listEnvironments',
    method: 'GET',
    path: '/sites/{site_id}/environments',
    summary: "List a site's environments.",
    tag: 'Site Environments',
    pathParams: [siteId],
    queryParams: [],
    success: { kind: 'data', body: nested(['site', 'environments'], array(ref('Environment')), 'Environments.', 'site') },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'listBackups',
    method: 'GET',
    path: '/sites/environments/{env_id}/backups',
    summary: "List an environment's backups.",
    tag: 'Backups',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: theEnvironment(
        field('display_name', string(), 'Environment display name.'),
        field('backups', array(ref('Backup')), 'Backups (manual, scheduled and system-generated).'),
      ),
    },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'getFileList',
    method: 'GET',
    path: '/sites/environments/{env_id}/file-list',
    summary: "Get an environment's file tree.",
    tag: 'Site Environments',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: theEnvironment(identifying(field('id', string('uuid'), 'Environment id.'), 'environment'), field('file_list', array(ref('FileNode')), 'Top-level file nodes.')),
    },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'listPlugins',
    method: 'GET',
    path: '/sites/environments/{env_id}/plugins',
    summary: "List an environment's plugins (deprecated; a newer plugins endpoint replaces it).",
    tag: 'Site Themes & Plugins',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: theEnvironment(
        identifying(field('id', string('uuid'), 'Environment id.'), 'environment'),
        field(
          'container_info',
          object(
            field('id', string('uuid'), 'Container id.'),
            field('wp_plugins', object(field('data', array(ref('Plugin')), 'Plugins.')), 'Plugin list.'),
          ),
          'Container details.',
        ),
      ),
    },
    errors: E401_404_500,
    effect: 'read',
    deprecated: {
      cite: { section: 'Versioning', quote: '`GET /sites/environments/{env_id}/plugins` is deprecated in favour of a newer plugins endpoint.' },
      replacement: 'UNK-NEW-PLUGINS-ENDPOINT',
    },
    cite: { section: READS },
  },
  {
    name: 'listThemes',
    method: 'GET',
    path: '/sites/environments/{env_id}/wp-themes',
    summary: "List an environment's themes; the request carries a JSON body.",
    tag: 'Site Themes & Plugins',
    pathParams: [envId],
    queryParams: [],
    body: [
      unmarked('status', string(), 'Theme status filter; allowed values: not shown (UNK-THEMES-BODY-VALUES).'),
      unmarked('column', string(), 'Column; allowed values: not shown (UNK-THEMES-BODY-VALUES).'),
    ],
    success: {
      kind: 'data',
      body: theEnvironment(
        field(
          'themes',
          object(
            field('items', array(ref('Theme')), 'Themes.'),
            field('last_updated_at', string('date-time'), 'Last update, ISO 8601 date-time.'),
          ),
          'Theme list.',
        ),
      ),
    },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS, quote: 'JSON body: `status` (string), `column` (string)' },
  },
  {
    name: 'listAdditionalSftpAccounts',
    method: 'GET',
    path: '/sites/environments/{env_id}/additional-sftp-accounts',
    summary: "List an environment's additional SFTP accounts.",
    tag: 'Additional SFTP Users',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: theEnvironment(
        field('additional_sftp_accounts', array(ref('AdditionalSftpAccount')), 'Accounts.'),
        field(
          'container_info',
          object(field('additional_sftp_accounts_port', string(), 'SFTP port, as a string.')),
          'Container details.',
        ),
      ),
    },
    errors: E401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'getSshAllowedIps',
    method: 'GET',
    path: '/sites/environments/{env_id}/ssh/get-allowed-ips',
    summary: 'List the IP addresses allowed to connect by SFTP/SSH.',
    tag: 'Site Environments',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: nested(['environment', 'active_container', 'sftp_ip_allowlist'], array(string('ip')), 'Allowed IP addresses.', 'environment'),
    },
    errors: E400_401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'getSshStatus',
    method: 'GET',
    path: '/sites/environments/{env_id}/ssh/get-status',
    summary: 'Tell whether SSH is enabled.',
    tag: 'Site Environments',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: nested(['environment', 'active_container', 'is_ssh_enabled'], boolean, 'SSH enabled.', 'environment'),
    },
    errors: E400_401_404_500,
    effect: 'read',
    cite: { section: READS },
  },
  {
    name: 'getSftpPassword',
    method: 'GET',
    path: '/sites/environments/{env_id}/ssh/password',
    summary: "Get the environment's SFTP password (a secret).",
    tag: 'Site Environments',
    pathParams: [envId],
    queryParams: [],
    success: {
      kind: 'data',
      body: theEnvironment(identifying(field('id', string('uuid'), 'Environment id.'), 'environment'), { ...field('sftp_password', string(), 'SFTP password, a secret.'), secret: true }),
    },
    errors: E400_401_404,
    effect: 'read',
    cite: { section: READS, quote: '`environment.sftp_password` (string, a secret)' },
  },
  {
    name: 'checkWpAdminUserExists',
    method: 'GET',
    path: '/sites/environments/{env_id}/wpa-user-exists',
    summary: 'Tell whether a site-admin user with an e-mail address exists.',
    tag: 'Site Tools',
    pathParams: [envId],
    queryParams: [
      {
        name: 'email',
        type: string('email'),
        presence: 'required',
        doc: "The admin user's e-mail address; the parameter's name is not shown (ASM-WPA-QUERY-EMAIL).",
        assumption: 'ASM-WPA-QUERY-EMAIL',
        refersTo: 'site-admin-user',
      },
    ],
    success: { kind: 'data', body: object(field('has_wp_admin_user', boolean, 'The user exists.')) },
    errors: E400_401_404_500,
    effect: 'read',
    cite: { section: READS, quote: "one query parameter carrying the admin user's e-mail address; its name: not shown" },
  },

  // ---- Acknowledged actions (HTTP 202) --------------------------------------------------------
  {
    name: 'clearCdnCache',
    method: 'POST',
    path: '/sites/cdn/clear-cache',
    summary: "Clear an environment's CDN cache.",
    tag: 'CDN',
    pathParams: [],
    queryParams: [],
    body: [environmentIdField('required'), naming(required('cdn_cache_id', string('uuid'), 'CDN cache id (UUID).'), 'cdn-cache')],
    success: { kind: 'ack', operationKind: 'cdn-cache:clear' },
    errors: E401_500,
    effect: 'mutating',
    cite: { section: ACKS, quote: '`environment_id` string, required; `cdn_cache_id` string, required' },
  },
  {
    name: 'setEdgeCachingStatus',
    method: 'PUT',
    path: '/sites/edge-caching/status',
    summary: 'Switch edge caching on or off for an environment.',
    tag: 'Edge Caching',
    pathParams: [],
    queryParams: [],
    body: [environmentIdField('not-shown'), unmarked('enabled', boolean, 'Switch edge caching on (true) or off (false).')],
    success: { kind: 'ack', operationKind: 'edge-cache:update-status' },
    errors: E401_500,
    effect: 'mutating',
    cite: { section: ACKS },
  },
  {
    name: 'updateDnsRecords',
    method: 'PUT',
    path: '/domains/{domain_id}/dns-records',
    summary: "Change a domain's DNS records: add the new values and remove the removed ones.",
    tag: 'Domains',
    pathParams: [domainId],
    queryParams: [],
    body: [
      unmarked('type', string(), 'Record type; allowed values: not shown (UNK-DNS-TYPE-VALUES).'),
      // Valid updates name a fresh record inside the zone: the document does not say whether the name must exist first.
      { ...naming(unmarked('name', string(), 'Record host name.'), 'dns-record'), assumption: 'ASM-DNS-NEW-RECORD' },
      unmarked('ttl', integer, 'Time to live, seconds.'),
      recordValues('new_resource_records', 'Values to add.'),
      recordValues('removed_resource_records', 'Values to remove.'),
    ],
    success: { kind: 'ack', operationKind: 'domains:update-dns-record' },
    errors: E400_401_500,
    effect: 'destructive',
    effects: {
      names: { referent: 'dns-record', by: ['type', 'name'] },
      adds: { from: 'new_resource_records', to: 'resource_records' },
      takesAway: { from: 'removed_resource_records', to: 'resource_records' },
      sets: [{ from: 'ttl', to: 'ttl', assumption: 'ASM-DNS-TTL-SET' }],
      cite: { section: 'Endpoints > Behaviours stated for endpoints', quote: 'The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.' },
    },
    cite: { section: ACKS, quote: 'The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.' },
  },
  {
    name: 'searchAndReplace',
    method: 'POST',
    path: '/sites/tools/search-and-replace',
    summary: "Search and replace in an environment's database.",
    tag: 'Site Tools',
    pathParams: [],
    queryParams: [],
    body: [
      environmentIdField('not-shown'),
      freeText(unmarked('search', string(), 'Text to search for.')),
      freeText(unmarked('replace', string(), 'Replacement text.')),
      unmarked('perform_replacement', boolean, 'Whether replacement is performed.'),
      unmarked('is_clear_cache', boolean, 'Whether caches are cleared.'),
    ],
    success: { kind: 'ack', operationKind: 'environments:search-and-replace' },
    errors: E400_401_500,
    effect: 'destructive',
    cite: { section: ACKS },
  },
  {
    name: 'changeWebrootSubfolder',
    method: 'POST',
    path: '/sites/environments/{env_id}/change-webroot-subfolder',
    summary: "Change an environment's webroot subfolder.",
    tag: 'Site Tools',
    pathParams: [envId],
    queryParams: [],
    body: [
      {
        ...unmarked('web_root_subfolder', string('absolute-path'), 'Webroot subfolder, a path beginning with `/`.'),
        type: { kind: 'string', format: 'absolute-path', limit: 'LIMIT-WEB-ROOT-SUBFOLDER' },
      },
      unmarked('clear_all_cache', boolean, 'Clear all caches.'),
      unmarked('refresh_plugins_and_themes', boolean, 'Refresh plugins and themes.'),
    ],
    success: { kind: 'ack', operationKind: 'sites:change-webroot-subfolder' },
    errors: E400_401_500,
    effect: 'mutating',
    cite: { section: ACKS, quote: 'the 202 message says the change is in progress; its outcome is checked in the customer dashboard' },
  },
  {
    name: 'restoreBackup',
    method: 'POST',
    path: '/sites/environments/{target_env_id}/backups/restore',
    summary: 'Restore a backup into a target environment.',
    tag: 'Backups',
    pathParams: [idParam('target_env_id', 'Target environment id', 'environment')],
    queryParams: [],
    body: [
      naming(unmarked('backup_id', integer, 'Backup id (an integer).'), 'backup'),
      naming(unmarked('notified_user_id', string('uuid'), 'User to notify (UUID).'), 'company-user'),
    ],
    success: { kind: 'ack', operationKind: 'backups:restore' },
    errors: E400_401_500,
    effect: 'destructive',
    cite: { section: ACKS },
  },
  {
    name: 'runWpCliCommand',
    method: 'POST',
    path: '/sites/environments/{env_id}/run-wp-cli-command',
    summary: 'Run a WP-CLI command in an environment.',
    tag: 'Site Tools',
    pathParams: [envId],
    queryParams: [],
    body: [
      unmarked(
        'wp_command',
        { kind: 'string', limit: 'LIMIT-WP-COMMAND', maxLength: WP_COMMAND_MAX_LENGTH, pattern: WP_COMMAND_PATTERN },
        'The command; max length 5000, pattern in §Limits.',
      ),
    ],
    success: { kind: 'ack', operationKind: 'environment:run-wp-cli-command' },
    errors: E400_401_500,
    effect: 'destructive',
    cite: { section: ACKS, quote: '`wp_command` string, max length 5000, must match the pattern in Limits' },
  },
  {
    name: 'resetSite',
    method: 'POST',
    path: '/sites/{site_id}/reset-site',
    summary: 'Reset a site.',
    tag: 'Site management',
    pathParams: [siteId],
    queryParams: [],
    body: [{ ...unmarked('admin_password', string(), 'New admin password, a secret.'), secret: true }],
    success: { kind: 'ack', operationKind: 'sites:reset-site' },
    errors: E400_401_500,
    effect: 'destructive',
    cite: { section: ACKS },
  },
  {
    name: 'removeAdditionalSftpAccount',
    method: 'DELETE',
    path: '/sites/environments/additional-sftp-accounts/{sftp_account_id}',
    summary: 'Remove an additional SFTP account.',
    tag: 'Additional SFTP Users',
    pathParams: [idParam('sftp_account_id', 'Additional SFTP account id', 'additional-sftp-account')],
    queryParams: [],
    success: { kind: 'ack', operationKind: 'sftp-accounts:remove-additional-sftp-account' },
    errors: E401_500,
    effect: 'destructive',
    effects: { names: { referent: 'additional-sftp-account', by: ['sftp_account_id'] }, removes: true, cite: { section: ACKS, quote: 'Additional SFTP account removal' } },
    cite: { section: ACKS },
  },

  // ---- Other actions (synchronous) ------------------------------------------------------------
  {
    name: 'createWpAdminUser',
    method: 'POST',
    path: '/sites/environments/{env_id}/wpa-create-user',
    summary: 'Create a site-admin user.',
    tag: 'Site Tools',
    pathParams: [envId],
    queryParams: [],
    body: [
      unmarked('email', string('email'), 'E-mail address of the new user (the document says string; e-mail by meaning).'),
      freeText(unmarked('first_name', string(), 'First name.')),
      freeText(unmarked('last_name', string(), 'Last name.')),
    ],
    success: { kind: 'sync-action', body: object(field('create_wp_admin_user', boolean, 'The user was created.')) },
    errors: E400_401_500,
    effect: 'mutating',
    effects: { names: { referent: 'site-admin-user', by: ['email'] }, creates: true, cite: { section: OTHER, quote: '`create_wp_admin_user` (boolean)' } },
    cite: { section: OTHER },
  },
  {
    name: 'changeSshExpirationInterval',
    method: 'POST',
    path: '/sites/environments/{env_id}/ssh/change-expiration-interval',
    summary: 'Change the SFTP/SSH access expiration interval.',
    tag: 'Site Environments',
    pathParams: [envId],
    queryParams: [],
    body: [
      required(
        'exp_interval',
        { kind: 'string', limit: 'LIMIT-EXP-INTERVAL', enum: { shown: ['days_7'], size: 5, unknown: 'UNK-EXP-INTERVAL-VALUES' } },
        'One of five enumerated values; `days_7` is one of them, the other four: not shown.',
      ),
    ],
    success: { kind: 'sync-action', body: object(field('result', nullType, 'Always null.')) },
    errors: E400_401_500,
    effect: 'mutating',
    cite: { section: OTHER, quote: '`exp_interval` string, required, one of five enumerated values; `days_7` is one of them' },
  },
];
