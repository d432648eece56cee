/** §Resources and fields: every resource of the document and its fields. */
import { array, boolean, epochMs, field, identifying, integer, object, open, ref, referring, string, any } from './build.ts';
import type { Field, Resource } from './model.ts';

const R = 'Resources and fields';

const themeFields: readonly Field[] = [
      field('name', string('slug'), 'Slug (ASM-SLUG-SHAPE).'),
      field('title', string(), 'Title.'),
      field('status', open({ occurs: ['active'], unknown: 'UNK-ENUM-SETS' }), 'Status; `active` occurs.'),
      field('version', string(), 'Installed version.'),
      field('update', open({ occurs: ['available'], unknown: 'UNK-ENUM-SETS' }), 'Update state; `available` occurs.'),
      field('update_version', string(), 'Version of the available update.'),
      field('update_status', open({ occurs: ['updated'], unknown: 'UNK-ENUM-SETS' }), 'Update status; `updated` occurs.'),
      field('is_version_vulnerable', boolean, 'Installed version is vulnerable.'),
      field('is_update_version_vulnerable', boolean, 'Update version is vulnerable.'),
      field('auto_update_type', string('auto-update-label'), "Vendor's name followed by `Automatic Update`."),
];

const pluginFieldNames = ['name', 'title', 'status', 'version', 'update', 'update_version', 'update_status'];

export const resources: readonly Resource[] = [
  {
    name: 'Site',
    doc: 'A hosted site.',
    cite: { section: `${R} > Site` },
    fields: [
      identifying(field('id', string('uuid'), 'Site id.'), 'site'),
      field('name', string(), 'Site name.'),
      field('display_name', string(), 'Display name.'),
      referring(field('company_id', string('uuid'), 'Owning company.'), 'company'),
      field('status', open({ occurs: ['live'], unknown: 'UNK-ENUM-SETS' }), 'Site status; `live` occurs.'),
      field('environments', array(ref('SiteEnvironmentSummary')), 'Summaries of the site\'s environments.'),
    ],
  },
  {
    name: 'SiteEnvironmentSummary',
    doc: 'Site-environment summary inside a Site.',
    cite: {
      section: `${R} > Site`,
      quote: 'Site-environment summary (id, name, display_name, is_premium: boolean, is_blocked: boolean, domains: array of Domain, primaryDomain: Domain)',
    },
    fields: [
      identifying(field('id', string('uuid'), 'Environment id (identifiers are UUID strings).'), 'environment'),
      field('name', string(), 'Environment name.'),
      field('display_name', string(), 'Display name.'),
      field('is_premium', boolean, 'Premium environment.'),
      field('is_blocked', boolean, 'Blocked environment.'),
      field('domains', array(ref('Domain')), 'Domains of the environment.'),
      field('primaryDomain', ref('Domain'), 'Primary domain.'),
    ],
  },
  {
    name: 'Environment',
    doc: "An environment, as returned by the list of a site's environments.",
    cite: { section: `${R} > Environment (returned by the list of a site's environments)` },
    fields: [
      identifying(field('id', string('uuid'), 'Environment id.'), 'environment'),
      field('name', open({ occurs: ['live'], unknown: 'UNK-ENUM-SETS' }), 'Environment name; `live` occurs.'),
      field('display_name', string(), 'Display name.'),
      field('is_blocked', boolean, 'Blocked environment.'),
      field('id_edge_cache', string('uuid'), 'Edge cache id.'),
      referring(field('cdn_cache_id', string('uuid'), 'CDN cache id.'), 'cdn-cache'),
      field('is_opt_out_from_automatic_php_update', boolean, 'Opted out of automatic PHP updates.'),
      field('web_root', string('absolute-path'), 'Web root, a path beginning with `/`.'),
      field(
        'image_optimization_type',
        open({ occurs: ['lossy'], unknown: 'UNK-ENUM-SETS' }),
        'Image optimization type; `lossy` occurs.',
      ),
      field('is_additional_sftp_accounts_enabled', boolean, 'Additional SFTP accounts enabled.'),
      field('is_premium', boolean, 'Premium environment.'),
      field('cms_version', string('dotted-version'), 'CMS version, a dotted version number.'),
      field('domains', array(ref('Domain')), 'Domains of the environment.'),
      field('primaryDomain', ref('Domain'), 'Primary domain.'),
      field(
        'ssh_connection',
        object(
          field('ssh_port', string(), 'SSH port, as a string.'),
          field('ssh_ip', object(field('external_ip', string('ipv4-maskable'), 'IPv4 address, possibly partly masked.')), 'SSH address.'),
        ),
        'SSH connection details.',
      ),
      field(
        'container_info',
        object(
          field('id', string('uuid'), 'Container id.'),
          field('php_engine_version', string('php-version'), 'PHP engine, `php<major>.<minor>`.'),
        ),
        'Container details.',
      ),
    ],
  },
  {
    name: 'Domain',
    doc: 'A domain.',
    cite: { section: `${R} > Domain` },
    fields: [
      identifying(field('id', string('uuid'), 'Domain id.'), 'domain'),
      field('name', string('hostname'), 'Host name.'),
      field('type', open({ occurs: ['live'], unknown: 'UNK-ENUM-SETS' }), 'Domain type; `live` occurs.'),
      referring(field('site_id', string('uuid'), 'Site id.'), 'site'),
    ],
  },
  {
    name: 'ResourceRecordValue',
    doc: 'One value of a DNS record.',
    cite: { section: `${R} > DNS record`, quote: 'array of objects with `value` (string)' },
    fields: [field('value', string(), 'Record value.')],
  },
  {
    name: 'DnsRecord',
    doc: 'A DNS record of a domain.',
    cite: { section: `${R} > DNS record` },
    fields: [
      field('type', open({ occurs: ['A'], unknown: 'UNK-ENUM-SETS' }), 'Record type such as `A`.'),
      field('name', string('hostname'), 'Host name.'),
      field('ttl', integer, 'Time to live, seconds.'),
      field('resource_records', array(ref('ResourceRecordValue')), 'Record values.'),
    ],
  },
  {
    name: 'Backup',
    doc: 'A backup of an environment.',
    cite: { section: `${R} > Backup` },
    fields: [
      identifying(field('id', integer, 'Backup id, an integer (the one identifier that is not a UUID).'), 'backup'),
      field('name', string(), 'Backup name.'),
      field('note', string(), 'Note.'),
      field(
        'type',
        open({ occurs: ['manual'], unknown: 'UNK-ENUM-SETS' }),
        'Backup type; `manual` occurs, scheduled and system-generated backups are also listed.',
      ),
      field('created_at', epochMs, 'Creation time, epoch milliseconds (a number).'),
    ],
  },
  {
    name: 'Theme',
    doc: 'Item of the themes list.',
    cite: { section: `${R} > Theme (item of themes list)` },
    fields: themeFields,
  },
  {
    name: 'Plugin',
    doc: 'Item of the plugins list: the Theme fields of the same name, no vulnerability flags, no auto_update_type.',
    cite: {
      section: `${R} > Plugin (item of plugins list)`,
      quote: 'Fields name, title, status, version, update, update_version, update_status: the same types as the Theme fields of the same name.',
    },
    // Derived from the Theme fields, so the two cannot drift apart.
    fields: themeFields.filter((f) => pluginFieldNames.includes(f.name)),
    without: {
      fields: themeFields.filter((f) => !pluginFieldNames.includes(f.name)).map((f) => f.name),
      cite: { section: `${R} > Plugin (item of plugins list)`, quote: 'There are no vulnerability flags and no auto_update_type.' },
    },
  },
  {
    name: 'AdditionalSftpAccount',
    doc: 'An additional SFTP account.',
    cite: { section: `${R} > Additional SFTP account` },
    fields: [
      identifying(field('id', string('uuid'), 'Account id.'), 'additional-sftp-account'),
      field('username', string(), 'User name.'),
      field('root_directory', string(), 'Root directory (a path; leading slash not stated).'),
      field('is_active', boolean, 'Active account.'),
      field('permission', open({ occurs: ['write'], unknown: 'UNK-ENUM-SETS' }), 'Permission; `write` occurs.'),
    ],
  },
  {
    name: 'FileNode',
    doc: 'A node of the file tree.',
    cite: { section: `${R} > File node` },
    fields: [
      field('name', string(), 'File or folder name.'),
      field('path', string('relative-path'), 'Relative path, no leading slash.'),
      field('children', array(ref('FileNode')), 'Child nodes; absent on leaves.', 'may-be-absent'),
    ],
  },
  {
    name: 'ApiKey',
    doc: 'API key (list item).',
    cite: { section: `${R} > API key (list item)` },
    fields: [
      identifying(field('id', string('uuid'), 'Key id.'), 'api-key'),
      field('name', string(), 'Key name.'),
      field('status', open({ occurs: ['active'], unknown: 'UNK-ENUM-SETS' }), 'Status; `active` occurs.'),
      field('expires_at', string('date-time-ms'), 'Expiry, ISO 8601 date-time with milliseconds.'),
    ],
  },
  {
    name: 'ValidatedKey',
    doc: 'Result of key validation: the key the request is sent with.',
    cite: { section: `${R} > Validated key (result of validation)` },
    // §Authentication 3: "`GET /validate` returns the key's `name`, `expires_at`, `company` and `status`".
    describes: 'api-key',
    fields: [
      field('name', string(), 'Key name.'),
      field('expires_at', string('epoch-ms-string'), 'Expiry, epoch milliseconds as decimal digits in a string.'),
      referring(field('company', string('uuid'), 'Company id.'), 'company'),
      field('status', open({ occurs: ['active'], unknown: 'UNK-ENUM-SETS' }), 'Status; `active` occurs.'),
    ],
  },
  {
    name: 'CompanyUser',
    doc: 'Array item of a company\'s users.',
    cite: { section: `${R} > Company user`, quote: 'Array item `{ user: { id: string UUID, email: string, image: string URL, full_name: string } }`.' },
    fields: [
      field(
        'user',
        object(
          identifying(field('id', string('uuid'), 'User id.'), 'company-user'),
          field('email', string('email'), 'E-mail address.'),
          field('image', string('url'), 'Image URL.'),
          field('full_name', string(), 'Full name.'),
        ),
        'The user.',
      ),
    ],
  },
  {
    name: 'Region',
    doc: 'An available hosting region.',
    cite: { section: `${R} > Region` },
    fields: [field('name', string(), 'Display label.'), field('region', string(), 'Region code.')],
  },
  {
    name: 'ErrorBody',
    doc: 'Body of every error response.',
    cite: { section: `${R} > Error body` },
    fields: [
      field('message', string(), 'Message.'),
      field('status', { kind: 'number' }, 'Equals the HTTP status.'),
      field('data', any, 'Any type; may be absent. Content: not shown.', 'may-be-absent'),
    ],
  },
  {
    name: 'Acknowledgement',
    doc: 'Body of an HTTP 202 acknowledgement.',
    cite: { section: 'Endpoints > Conventions', quote: 'Acknowledgement body (HTTP 202): `operation_id` (string), `message` (string), `status` (number, 202).' },
    fields: [
      field('operation_id', string(), '`<kind>-<UUID>` with the action\'s kind.'),
      field('message', string(), 'Says the action is in progress.'),
      field('status', { kind: 'number' }, 'Always 202.'),
    ],
  },
];
