/** Faults of RESPONSE-SCHEMA and READ-404: wrong types, formats and containers; 200/500 instead of 404. */
import type { Variant } from '../variant.ts';
import { at, editSuccess, fault, replaceAnswer } from './build.ts';

type Item = Record<string, unknown>;
const each = (items: unknown, edit: (item: Item) => void) => (items as Item[]).forEach(edit);

export const schemaFaults: readonly Variant[] = [
  fault('backup-created-at-iso', 'RESPONSE-SCHEMA', 'listBackups', 'Backup `created_at` is an ISO date-time string, not epoch milliseconds.', editSuccess('listBackups', (b) => (each(at(b, 'environment').backups, (x) => (x.created_at = new Date(x.created_at as number).toISOString())), b))),
  fault('backup-created-at-string', 'RESPONSE-SCHEMA', 'listBackups', 'Backup `created_at` is epoch milliseconds as a string.', editSuccess('listBackups', (b) => (each(at(b, 'environment').backups, (x) => (x.created_at = String(x.created_at))), b))),
  fault('backup-id-string', 'RESPONSE-SCHEMA', 'listBackups', 'Backup `id` is a string.', editSuccess('listBackups', (b) => (each(at(b, 'environment').backups, (x) => (x.id = String(x.id))), b))),
  fault('api-key-expiry-without-ms', 'RESPONSE-SCHEMA', 'listApiKeys', 'API key `expires_at` has no milliseconds.', editSuccess('listApiKeys', (b) => (each(b.api_keys, (k) => (k.expires_at = String(k.expires_at).replace(/\.\d{3}/, ''))), b))),
  fault('validated-key-expiry-number', 'RESPONSE-SCHEMA', 'validateApiKey', 'Validated key `expires_at` is a number, not a string of digits.', editSuccess('validateApiKey', (b) => ({ ...b, expires_at: Number(b.expires_at) }))),
  fault('php-version-without-prefix', 'RESPONSE-SCHEMA', 'listEnvironments', '`php_engine_version` is `8.2` without `php`.', editSuccess('listEnvironments', (b) => (each(at(b, 'site').environments, (e) => ((e.container_info as Item).php_engine_version = '8.2')), b))),
  fault('web-root-relative', 'RESPONSE-SCHEMA', 'listEnvironments', '`web_root` is relative (no leading `/`).', editSuccess('listEnvironments', (b) => (each(at(b, 'site').environments, (e) => (e.web_root = String(e.web_root).slice(1))), b))),
  fault('file-path-absolute', 'RESPONSE-SCHEMA', 'getFileList', 'File node `path` begins with `/`.', editSuccess('getFileList', (b) => (each(at(b, 'environment').file_list, (n) => (n.path = `/${String(n.path)}`)), b))),
  fault('site-without-display-name', 'RESPONSE-SCHEMA', 'getSite', 'The site has no `display_name`.', editSuccess('getSite', (b) => (delete at(b, 'site').display_name, b))),
  fault('environments-container-renamed', 'RESPONSE-SCHEMA', 'listEnvironments', '`site.environments` is sent as `site.envs`.', editSuccess('listEnvironments', (b) => ({ site: { envs: at(b, 'site').environments } }))),
  fault('dns-ttl-string', 'RESPONSE-SCHEMA', 'listDnsRecords', 'DNS record `ttl` is a string.', editSuccess('listDnsRecords', (b) => (each(at(b, 'domain').dns_records, (r) => (r.ttl = String(r.ttl))), b))),
  fault('ssh-enabled-string', 'RESPONSE-SCHEMA', 'getSshStatus', '`is_ssh_enabled` is the string "true".', editSuccess('getSshStatus', (b) => (at(b, 'environment.active_container').is_ssh_enabled = 'true', b))),
  fault('domain-site-id-not-uuid', 'RESPONSE-SCHEMA', 'getSite', 'Domain `site_id` is not a UUID.', editSuccess('getSite', (b) => (each(at(b, 'site.environments').domains, (d) => (d.site_id = 'site-1')), b))),
  fault('wpa-exists-field-missing', 'RESPONSE-SCHEMA', 'checkWpAdminUserExists', 'wpa-user-exists answers `{ exists }` instead of `has_wp_admin_user`.', editSuccess('checkWpAdminUserExists', (b) => ({ exists: b.has_wp_admin_user }))),
  fault('expiration-result-not-null', 'RESPONSE-SCHEMA', 'changeSshExpirationInterval', 'The expiration change answers `result: "ok"` instead of null.', editSuccess('changeSshExpirationInterval', () => ({ result: 'ok' }))),
  fault('sftp-password-missing', 'RESPONSE-SCHEMA', 'getSftpPassword', 'ssh/password answers without `sftp_password`.', editSuccess('getSftpPassword', (b) => (delete at(b, 'environment').sftp_password, b))),
];

/** A 404 answer of a read replaced by another. */
const instead404 = (name: Parameters<typeof replaceAnswer>[0], status: number, body: (r: { body: unknown }) => unknown) =>
  replaceAnswer(name, (r) => r.status === 404, (r) => ({ ...r, status, body: body(r) }));

export const notFoundFaults: readonly Variant[] = [
  fault('unknown-site-200', 'READ-404', 'getSite', 'An unknown site id answers 200 with an empty site.', instead404('getSite', 200, () => ({ site: {} }))),
  fault('unknown-env-500', 'READ-404', 'listBackups', 'An unknown environment on the backups list answers 500.', instead404('listBackups', 500, () => ({ message: 'Error occurred while processing the request', status: 500 }))),
  fault('unknown-env-400-file-list', 'READ-404', 'getFileList', 'An unknown environment on the file list answers 400 (not listed there).', instead404('getFileList', 400, () => ({ message: 'Bad request format', status: 400 }))),
  fault('unknown-company-empty-users', 'READ-404', 'listCompanyUsers', 'An unknown or foreign company lists no users with 200.', instead404('listCompanyUsers', 200, () => ({ company: { users: [] } }))),
  fault('foreign-site-readable', 'READ-404', 'listEnvironments', "Another company's site lists its environments to the caller.", {
    respond: (endpoint, request, response) => {
      if (endpoint?.name !== 'listEnvironments' || response.status !== 404) return response;
      return request.url.includes('/sites/') && /[0-9a-f]{8}-/.test(request.url) ? { ...response, status: 200, body: { site: { environments: [] } } } : response;
    },
  }),
];
