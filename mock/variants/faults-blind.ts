/**
 * Faults and conformant variants written blind (from the document, the model and the mock only):
 * each fault breaks one statement the document plainly makes, the way real servers go wrong;
 * each conformant variant differs from the reference mock where the document leaves room.
 */
import { randomBytes } from 'node:crypto';
import type { EndpointName } from '../../generated/types.ts';
import { requestValidators, type Validator } from '../../generated/validators.js';
import { formatRegex } from '../../spec/formats.ts';
import type { ErrorStatus, RuleId } from '../../spec/model.ts';
import { is2xx } from '../../spec/queries.ts';
import { handlers as reference, parseJsonBody, type MockRequest } from '../app.ts';
import { bearerKey } from '../client-request.ts';
import { badRequest, HttpError, notFound, renderError } from '../errors.ts';
import { seedCompanies } from '../fixtures.ts';
import { derivedContext, type Handlers } from '../handler.ts';
import type { DomainState, EnvironmentState, Store } from '../store.ts';
import type { Hooks, Variant } from '../variant.ts';
import { conformant, editError, editSuccess, everyObject, fault, replaceAnswer, withHeaders } from './build.ts';

/** The main company's key (the fixtures are derived from labels: the same on every start). */
const MAIN_KEY = seedCompanies()[0]!.apiKey;

/** A status the document's tables never list, for faults that answer one. */
const unlisted = (status: number) => status as unknown as ErrorStatus;

const record = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const pathOf = (request: MockRequest) => request.url.split('?')[0]!;

/** An environment of any company, found by id alone (the ownership check forgotten). */
const anyEnvironment = (store: Store, id: string): EnvironmentState | undefined =>
  store.companies.map((c) => store.environment(c.id, id)).find((e) => e !== undefined);

/** Per-store state of a variant (each started mock has its own store). */
function perStore<T>(make: () => T): (store: Store) => T {
  const kept = new WeakMap<Store, T>();
  return (store) => {
    let value = kept.get(store);
    if (value === undefined) kept.set(store, (value = make()));
    return value;
  };
}

/**
 * Input coerced before it is validated (a numeric string read as a number, "false" as a
 * boolean, ...): a body the reference refuses is accepted when its coerced form is valid, and the
 * handler acts on the coerced form.
 */
function coercing(name: EndpointName, coerce: (body: Record<string, unknown>) => Record<string, unknown>, alsoValid: (body: Record<string, unknown>) => boolean = () => true): Hooks {
  const validate = (requestValidators as unknown as Record<string, Validator>)[name]!;
  const handler = reference[name] as (context: never) => unknown;
  return {
    judgeInput: (endpoint, body, verdict) => {
      const object = record(body);
      if (endpoint.name !== name || !verdict || !object) return verdict;
      const coerced = coerce(structuredClone(object));
      if (JSON.stringify(coerced) === JSON.stringify(object)) return verdict;
      return validate(coerced) && alsoValid(coerced) ? undefined : verdict;
    },
    handlers: {
      [name]: (context: Parameters<Handlers['resetSite']>[0]) =>
        handler(derivedContext(context, { body: coerce(structuredClone(record(context.body) ?? {})) as never }) as never),
    } as Partial<Handlers>,
  };
}

/** The body an error answer of another shape carries, with the document's content type. */
const answerWith = (status: number, body: unknown, headers?: Record<string, string>) => ({ status, body, ...(headers ? { headers } : {}) });

// ---------------------------------------------------------------------------------------------
// Faults that break a rule of spec/rules.ts
// ---------------------------------------------------------------------------------------------

const lastDnsUpdate = perStore(() => new Map<string, number>());
const wpaNegativeCache = perStore(() => new Set<string>());

export const blindFaults: readonly Variant[] = [
  // ---- AUTH-BEARER ------------------------------------------------------------------------
  fault(
    'blind-auth-cookie-key-site',
    'AUTH-BEARER',
    'getSite',
    'A session middleware also takes the key from a cookie (`Cookie: api_key=<KEY>`): a request without any Authorization header is served. The document: "Every endpoint requires the header `Authorization: Bearer <API_KEY>`."',
    {
      authenticate: (_endpoint, request, ok) => {
        if (ok || request.headers.authorization !== undefined) return ok;
        const cookie = String(request.headers.cookie ?? '');
        return cookie.split(';').some((part) => {
          const [name, ...value] = part.trim().split('=');
          return /^(api_key|apikey|token)$/i.test(name ?? '') && decodeURIComponent(value.join('=')) === MAIN_KEY;
        });
      },
    },
  ),
  fault(
    'blind-auth-trailing-token-ignored-backups',
    'AUTH-BEARER',
    'listBackups',
    'The key is read as the first word after `Bearer` and the rest of the header is ignored: `Authorization: Bearer <KEY> <anything>` is served as if the key were valid. The credential after the scheme is then not an API key of the company; the document: "Every endpoint requires the header `Authorization: Bearer <API_KEY>`, where `<API_KEY>` is an API key of the company."',
    {
      authenticate: (_endpoint, request, ok) => {
        const header = request.headers.authorization;
        if (ok || typeof header !== 'string') return ok;
        return /^bearer\s+(\S+)/i.exec(header)?.[1] === MAIN_KEY;
      },
    },
  ),
  fault(
    'blind-auth-raw-key-accepted-dns-records',
    'AUTH-BEARER',
    'listDnsRecords',
    "The domains service strips the scheme with `header.replace('Bearer ', '')`, so a bare key without any scheme (`Authorization: <KEY>`) is served on the /domains endpoints. The document: \"Every endpoint requires the header `Authorization: Bearer <API_KEY>`\"; \"Scheme: HTTP bearer.\"",
    {
      authenticate: (_endpoint, request, ok) => {
        const header = request.headers.authorization;
        if (ok || typeof header !== 'string' || !pathOf(request).startsWith('/v2/domains/')) return ok;
        return header.replace('Bearer ', '') === MAIN_KEY;
      },
    },
  ),

  // ---- AUTH-401 ---------------------------------------------------------------------------
  fault(
    'blind-auth-invalid-key-404-environments',
    'AUTH-401',
    'listEnvironments',
    'The site is looked up with the company of the key before the key is checked: a well-formed bearer header with an unknown key finds no company and answers 404 (a missing header still answers 401). The document: "A missing or invalid key yields HTTP 401 with message text stating that no or an invalid API key was provided."',
    {
      respond: (endpoint, request, response) =>
        endpoint?.name === 'listEnvironments' && response.status === 401 && bearerKey(request.headers.authorization) !== undefined
          ? { ...response, status: 404, body: renderError(notFound('site')) }
          : response,
    },
  ),
  fault(
    'blind-auth-missing-header-400-create-user',
    'AUTH-401',
    'createWpAdminUser',
    'Actions validate their headers with their body schema: a request without an Authorization header is refused as malformed, 400 "missing required header", instead of 401 (an invalid key still answers 401). The document: "A missing or invalid key yields HTTP 401 with message text stating that no or an invalid API key was provided."',
    {
      respond: (endpoint, request, response) =>
        endpoint?.body && endpoint.errors.includes(400) && response.status === 401 && request.headers.authorization === undefined
          ? { ...response, status: 400, body: renderError(badRequest("missing required header 'authorization'", { header: 'authorization' })) }
          : response,
    },
  ),

  // ---- AUTH-SCHEME-CASE -------------------------------------------------------------------
  fault(
    'blind-auth-uppercase-scheme-refused-allowed-ips',
    'AUTH-SCHEME-CASE',
    'getSshAllowedIps',
    "The SSH endpoints check `header.startsWith('Bearer ') || header.startsWith('bearer ')`: `BEARER <KEY>` (or any other letter case) answers 401. Scheme names are case-insensitive; the document: \"Scheme: HTTP bearer.\"",
    {
      authenticate: (endpoint, request, ok) => {
        const header = request.headers.authorization;
        if (!ok || typeof header !== 'string' || !endpoint?.path.includes('/ssh/')) return ok;
        return header.startsWith('Bearer ') || header.startsWith('bearer ');
      },
    },
  ),

  // ---- ERR-BODY ---------------------------------------------------------------------------
  fault(
    'blind-error-status-422-in-body-webroot',
    'ERR-BODY',
    'changeWebrootSubfolder',
    'Validation errors of the webroot change come from a framework that says 422: the HTTP status is 400 but the body says `status: 422` (other errors are right). The document: "All errors use the Error body (`message`, `status`, `data`), with the HTTP status equal to `status`."',
    editError('changeWebrootSubfolder', (b) => ({ ...b, status: 422 }), (s) => s === 400),
  ),
  fault(
    'blind-error-problem-json-file-list',
    'ERR-BODY',
    'getFileList',
    'The file service answers its 404s as RFC 7807 problem details (`type`, `title`, `status`, `detail`, `application/problem+json`): no `message`. The document: "All errors use the Error body (`message`, `status`, `data`), with the HTTP status equal to `status`."',
    replaceAnswer(
      'getFileList',
      (r) => r.status === 404,
      (r) =>
        ({
          ...r,
          ...answerWith(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Environment not found' }, { 'content-type': 'application/problem+json' }),
        }),
    ),
  ),
  fault(
    'blind-validate-401-oauth-body',
    'ERR-BODY',
    'validateApiKey',
    'The validation endpoint answers 401 in the OAuth 2.0 style, `{ "error": "invalid_token", "error_description": ... }`, without `message` and `status`. The document: "All errors use the Error body (`message`, `status`, `data`), with the HTTP status equal to `status`."',
    replaceAnswer(
      'validateApiKey',
      (r) => r.status === 401,
      (r) => ({ ...r, body: { error: 'invalid_token', error_description: 'The access token is missing, malformed or invalid' } }),
    ),
  ),

  // ---- STATUS-SET -------------------------------------------------------------------------
  fault(
    'blind-dns-update-in-progress-409',
    'STATUS-SET',
    'updateDnsRecords',
    'A DNS update of a domain whose previous update was accepted less than 2 s before is refused with 409 Conflict ("another DNS update of this domain is in progress"), and not applied. 409 is in no row of the table; the document lists for "PUT /domains/{domain_id}/dns-records" the error statuses "400, 401, 500".',
    {
      handlers: {
        updateDnsRecords: (context) => {
          const domain = context.store.domain(context.company.id, context.params.domain_id);
          if (domain) {
            const last = lastDnsUpdate(context.store);
            const then = last.get(domain.id);
            if (then !== undefined && Date.now() - then < 2000) {
              throw new HttpError(unlisted(409), 'Conflict: another DNS update of this domain is in progress', { domain_id: domain.id });
            }
            const answer = reference.updateDnsRecords(context);
            last.set(domain.id, Date.now());
            return answer;
          }
          return reference.updateDnsRecords(context);
        },
      },
    },
  ),

  // ---- CONTENT-TYPE -----------------------------------------------------------------------
  fault(
    'blind-file-list-octet-stream',
    'CONTENT-TYPE',
    'getFileList',
    'The file tree is served by the file-serving middleware, labelled `Content-Type: application/octet-stream` (the body is still JSON). The document: "All request and response bodies are JSON (`Content-Type: application/json`)."',
    withHeaders('getFileList', { 'content-type': 'application/octet-stream' }, (s) => s === 200),
  ),
  fault(
    'blind-sftp-password-xssi-prefix',
    'CONTENT-TYPE',
    'getSftpPassword',
    "The secret-bearing answer is guarded against JSON hijacking with the prefix `)]}',` and a newline before the JSON: labelled `application/json`, the body is not JSON. The document: \"All request and response bodies are JSON (`Content-Type: application/json`).\"",
    {
      wire: (res, response) => {
        if (response.endpoint?.name !== 'getSftpPassword' || response.status !== 200) return false;
        const text = `)]}',\n${JSON.stringify(response.body)}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
        return true;
      },
    },
  ),
  fault(
    'blind-company-gateway-401-text',
    'CONTENT-TYPE',
    'listAvailableRegions',
    'The /company endpoints sit behind a gateway that answers unauthenticated requests itself: 401 with `Content-Type: text/plain` and the body `Unauthorized`. The document: "All request and response bodies are JSON (`Content-Type: application/json`)."; "All errors use the Error body".',
    {
      wire: (res, response, request) => {
        if (response.status !== 401 || !pathOf(request).startsWith('/v2/company/')) return false;
        res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer', 'content-length': 12 }).end('Unauthorized');
        return true;
      },
    },
  ),

  // ---- ACK-202 ----------------------------------------------------------------------------
  fault(
    'blind-sftp-remove-204',
    'ACK-202',
    'removeAdditionalSftpAccount',
    'The DELETE answers in REST style, 204 No Content with an empty body, instead of the acknowledgement. The document: "Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)"; "Acknowledgement body (HTTP 202): `operation_id` (string), `message` (string), `status` (number, 202)."',
    replaceAnswer('removeAdditionalSftpAccount', (r) => r.status === 202, (r) => ({ ...r, status: 204, body: undefined })),
  ),
  fault(
    'blind-restore-ack-enveloped',
    'ACK-202',
    'restoreBackup',
    'The restore acknowledgement is wrapped in an envelope, `{ "data": { operation_id, message, status } }`: the top level has none of the three fields. The document: "Acknowledgement body (HTTP 202): `operation_id` (string), `message` (string), `status` (number, 202)."',
    editSuccess('restoreBackup', (b) => ({ data: b })),
  ),
  fault(
    'blind-search-replace-dry-run-200',
    'ACK-202',
    'searchAndReplace',
    'With `perform_replacement: false` the search runs synchronously as a dry run: 200 with `{ matches, perform_replacement }`, no acknowledgement. The document: "Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)", and nothing is stated for a search without replacement.',
    {
      respond: (endpoint, request, response) => {
        if (endpoint?.name !== 'searchAndReplace' || response.status !== 202) return response;
        const body = record(parseJsonBody(request));
        if (body?.perform_replacement !== false) return response;
        return { ...response, status: 200, body: { environment_id: body.environment_id, search: body.search, matches: 3, perform_replacement: false } };
      },
    },
  ),
  fault(
    'blind-edge-cache-unchanged-200',
    'ACK-202',
    'setEdgeCachingStatus',
    'Switching edge caching to the state it already has is answered 200 `{ "message": "Edge caching is already enabled", "status": 200 }` (no operation id); only a real change is acknowledged with 202. The document: "Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)".',
    {
      handlers: {
        setEdgeCachingStatus: (context) => {
          const id = context.body.environment_id;
          const env = id === undefined ? undefined : context.store.environment(context.company.id, id);
          if (env && typeof context.body.enabled === 'boolean' && env.edgeCachingEnabled === context.body.enabled) {
            return { message: `Edge caching is already ${env.edgeCachingEnabled ? 'enabled' : 'disabled'}`, status: 200 } as never;
          }
          return reference.setEdgeCachingStatus(context);
        },
      },
      respond: (endpoint, _request, response) =>
        endpoint?.name === 'setEdgeCachingStatus' && response.status === 202 && record(response.body)?.status === 200 ? { ...response, status: 200 } : response,
    },
  ),

  // ---- OPID-SHAPE -------------------------------------------------------------------------
  fault(
    'blind-opid-timestamp-cdn-clear',
    'OPID-SHAPE',
    'clearCdnCache',
    'CDN-clear operation ids carry the enqueue time between kind and UUID: `cdn-cache:clear-<epoch ms>-<UUID>`. The document: "Operation id shape: `<kind>-<UUID>`".',
    editSuccess('clearCdnCache', (b) => ({ ...b, operation_id: String(b.operation_id).replace(/^cdn-cache:clear-/, `cdn-cache:clear-${Date.now()}-`) })),
  ),
  fault(
    'blind-opid-truncated-uuid-reset-site',
    'OPID-SHAPE',
    'resetSite',
    'Reset operation ids are stored in a column one character too short: the UUID loses its last hex digit (last group of 11). The document: "Operation id shape: `<kind>-<UUID>`".',
    editSuccess('resetSite', (b) => ({ ...b, operation_id: String(b.operation_id).slice(0, -1) })),
  ),

  // ---- OPID-KIND --------------------------------------------------------------------------
  fault(
    'blind-opid-kind-edge-caching',
    'OPID-KIND',
    'setEdgeCachingStatus',
    'The edge-caching switch names its operations after its path: `edge-caching:update-status-<UUID>`. The document\'s kind table: "| Edge cache status | `edge-cache:update-status` |".',
    editSuccess('setEdgeCachingStatus', (b) => ({ ...b, operation_id: String(b.operation_id).replace(/^edge-cache:/, 'edge-caching:') })),
  ),
  fault(
    'blind-opid-kind-sftp-removal-short',
    'OPID-KIND',
    'removeAdditionalSftpAccount',
    'SFTP account removals drop "additional" from their kind: `sftp-accounts:remove-sftp-account-<UUID>`. The document\'s kind table: "| Additional SFTP account removal | `sftp-accounts:remove-additional-sftp-account` |".',
    editSuccess('removeAdditionalSftpAccount', (b) => ({
      ...b,
      operation_id: String(b.operation_id).replace(/^sftp-accounts:remove-additional-sftp-account-/, 'sftp-accounts:remove-sftp-account-'),
    })),
  ),

  // ---- READ-404 ---------------------------------------------------------------------------
  fault(
    'blind-foreign-ssh-status-403',
    'READ-404',
    'getSshStatus',
    "Another company's environment answers 403 Forbidden on the SSH status (an id that exists nowhere still answers 404). The document: \"Data that does not exist, or that the key's user may not read, yields 404 on read endpoints.\"",
    {
      handlers: {
        getSshStatus: (context) => {
          if (!context.store.environment(context.company.id, context.params.env_id) && anyEnvironment(context.store, context.params.env_id)) {
            throw new HttpError(unlisted(403), 'Forbidden: you do not have access to this environment');
          }
          return reference.getSshStatus(context);
        },
      },
    },
  ),
  fault(
    'blind-foreign-sftp-password-readable',
    'READ-404',
    'getSftpPassword',
    "The SFTP password is looked up by environment id alone: another company's environment answers 200 with its password. The document: \"Data that does not exist, or that the key's user may not read, yields 404 on read endpoints.\"",
    {
      handlers: {
        getSftpPassword: (context) => {
          const env = anyEnvironment(context.store, context.params.env_id);
          if (!env) throw notFound('environment');
          return { environment: { id: env.id, sftp_password: env.sftpPassword } };
        },
      },
    },
  ),
  fault(
    'blind-unknown-env-empty-allowlist',
    'READ-404',
    'getSshAllowedIps',
    'An environment id that names no environment (a well-formed UUID) gets 200 with an empty allow-list, as a query that found no rows. The document: "Data that does not exist, or that the key\'s user may not read, yields 404 on read endpoints."',
    {
      handlers: {
        getSshAllowedIps: (context) =>
          context.store.environment(context.company.id, context.params.env_id)
            ? reference.getSshAllowedIps(context)
            : { environment: { active_container: { sftp_ip_allowlist: [] } } },
      },
    },
  ),

  // ---- ISOLATION-WRITE --------------------------------------------------------------------
  fault(
    'blind-restore-foreign-notified-user',
    'ISOLATION-WRITE',
    'restoreBackup',
    "The restore checks the target environment and the backup, but looks the user to notify up among every company's users: another company's user id in `notified_user_id` is acknowledged (202). The document: \"where `<API_KEY>` is an API key of the company\"; the restore lists 400 (\"400 | Bad request format | Malformed or invalid request\"), so naming another company's data is refused.",
    {
      handlers: {
        restoreBackup: (context) =>
          reference.restoreBackup(derivedContext(context, { company: { ...context.company, users: context.store.companies.flatMap((c) => c.users) } })),
      },
    },
  ),
  fault(
    'blind-restore-foreign-backup-id',
    'ISOLATION-WRITE',
    'restoreBackup',
    "The restore checks that `backup_id` exists, in any company: another company's backup is acknowledged (202) for restoring into the caller's environment. The document: \"where `<API_KEY>` is an API key of the company\"; the restore lists 400, so naming another company's data is refused.",
    {
      handlers: {
        restoreBackup: (context) => {
          const env = context.store.environment(context.company.id, context.params.target_env_id);
          if (!env) throw notFound('environment');
          const backupId = context.body.backup_id;
          const everywhere = context.store.companies.flatMap((c) => c.sites.flatMap((s) => s.environments.flatMap((e) => e.backups)));
          if (backupId !== undefined && !everywhere.some((b) => b.id === backupId)) throw notFound('backup');
          const notified = context.body.notified_user_id;
          if (notified !== undefined && !context.company.users.some(({ user }) => user.id.toLowerCase() === notified.toLowerCase())) throw notFound('user');
          return context.acknowledge(env.id, context.body);
        },
      },
    },
  ),

  // ---- RESPONSE-SCHEMA --------------------------------------------------------------------
  fault(
    'blind-site-second-primary-domain-null',
    'RESPONSE-SCHEMA',
    'getSite',
    'In the site\'s environment summaries, every environment but the first has `primaryDomain: null` (only the first is joined). The document: "environments | array of Site-environment summary (id, name, display_name, is_premium: boolean, is_blocked: boolean, domains: array of Domain, primaryDomain: Domain)".',
    editSuccess('getSite', (b) => {
      const envs = (b.site as { environments: Record<string, unknown>[] }).environments;
      envs.slice(1).forEach((e) => (e.primaryDomain = null));
      return b;
    }),
  ),
  fault(
    'blind-themes-updated-at-http-date',
    'RESPONSE-SCHEMA',
    'listThemes',
    '`last_updated_at` of the themes list is written as an HTTP date (`Thu, 01 Oct 2026 08:30:00 GMT`). The document: "`environment.themes.last_updated_at` (string, ISO 8601 date-time)".',
    editSuccess('listThemes', (b) => {
      const themes = (b.environment as { themes: { last_updated_at: string } }).themes;
      themes.last_updated_at = new Date(themes.last_updated_at).toUTCString();
      return b;
    }),
  ),
  fault(
    'blind-api-key-second-expiry-epoch',
    'RESPONSE-SCHEMA',
    'listApiKeys',
    'Every key of the list but the first has `expires_at` as epoch milliseconds in a string (the format /validate uses), e.g. "1940630400000". The document: "`expires_at` (string, ISO 8601 date-time with milliseconds)".',
    editSuccess('listApiKeys', (b) => {
      (b.api_keys as { expires_at: string }[]).slice(1).forEach((k) => (k.expires_at = String(Date.parse(k.expires_at))));
      return b;
    }),
  ),
  fault(
    'blind-validate-expiry-fractional-seconds',
    'RESPONSE-SCHEMA',
    'validateApiKey',
    '`expires_at` of the validated key is epoch seconds with a fraction, "1893499200.123" (a decimal point, in seconds). The document: "`expires_at` (string holding epoch milliseconds as decimal digits)".',
    editSuccess('validateApiKey', (b) => ({ ...b, expires_at: (Number(b.expires_at) / 1000).toFixed(3) })),
  ),
  fault(
    'blind-company-user-id-truncated',
    'RESPONSE-SCHEMA',
    'listCompanyUsers',
    'User ids come from a `varchar(35)` column: one hex digit short, the last group has 11 digits. The document: "Array item `{ user: { id: string UUID, email: string, image: string URL, full_name: string } }`"; "Identifiers (...) are strings in UUID format".',
    editSuccess('listCompanyUsers', (b) => {
      (b.company as { users: { user: { id: string } }[] }).users.forEach(({ user }) => (user.id = user.id.slice(0, 35)));
      return b;
    }),
  ),
  fault(
    'blind-file-leaf-children-null',
    'RESPONSE-SCHEMA',
    'getFileList',
    'Leaves of the file tree carry `children: null` instead of leaving the field out. The document: "`children` (array of File node; absent on leaves)".',
    editSuccess('getFileList', (b) =>
      everyObject(b, (o) => {
        if (typeof o.path === 'string' && typeof o.name === 'string' && !('children' in o)) o.children = null;
      }) as Record<string, unknown>,
    ),
  ),
  fault(
    'blind-sftp-accounts-port-number',
    'RESPONSE-SCHEMA',
    'listAdditionalSftpAccounts',
    'The SFTP accounts port is sent as a number (2222). The document: "`environment.container_info.additional_sftp_accounts_port` (string)".',
    editSuccess('listAdditionalSftpAccounts', (b) => {
      const info = (b.environment as { container_info: { additional_sftp_accounts_port: unknown } }).container_info;
      info.additional_sftp_accounts_port = Number(info.additional_sftp_accounts_port);
      return b;
    }),
  ),
  fault(
    'blind-wpa-exists-integer',
    'RESPONSE-SCHEMA',
    'checkWpAdminUserExists',
    'The existence check answers the PHP way, `has_wp_admin_user: 1` or `0`. The document: "`has_wp_admin_user` (boolean)".',
    editSuccess('checkWpAdminUserExists', (b) => ({ ...b, has_wp_admin_user: b.has_wp_admin_user ? 1 : 0 })),
  ),
  fault(
    'blind-staging-external-ip-ipv6',
    'RESPONSE-SCHEMA',
    'listEnvironments',
    'Environments other than `live` run on a dual-stack host and show its IPv6 address as `external_ip` (`2600:1900:4000:9c1b::12`). The document: "ssh_ip (object with external_ip: string, an IPv4 address, possibly partly masked)".',
    editSuccess('listEnvironments', (b) => {
      for (const env of (b.site as { environments: { name: string; ssh_connection: { ssh_ip: { external_ip: string } } }[] }).environments) {
        if (env.name !== 'live') env.ssh_connection.ssh_ip.external_ip = '2600:1900:4000:9c1b::12';
      }
      return b;
    }),
  ),
  fault(
    'blind-plugin-update-version-null',
    'RESPONSE-SCHEMA',
    'listPlugins',
    'Plugins without a pending update (every plugin after the first here) show `update: "none"` and `update_version: null`. The document: "Fields name, title, status, version, update, update_version, update_status: the same types as the Theme fields of the same name" ("update_version | string").',
    editSuccess('listPlugins', (b) => {
      const plugins = (b.environment as { container_info: { wp_plugins: { data: Record<string, unknown>[] } } }).container_info.wp_plugins.data;
      plugins.slice(1).forEach((p) => Object.assign(p, { update: 'none', update_version: null }));
      return b;
    }),
  ),

  // ---- INPUT-400 --------------------------------------------------------------------------
  fault(
    'blind-restore-backup-id-numeric-string-accepted',
    'INPUT-400',
    'restoreBackup',
    'A numeric string `backup_id` ("1001") is coerced to a number and the restore acknowledged. The document: "`backup_id` integer"; "400 | Bad request format | Malformed or invalid request".',
    coercing('restoreBackup', (b) => (typeof b.backup_id === 'string' && /^[0-9]+$/.test(b.backup_id) ? { ...b, backup_id: Number(b.backup_id) } : b)),
  ),
  fault(
    'blind-search-replace-boolean-strings-accepted',
    'INPUT-400',
    'searchAndReplace',
    'String values of `perform_replacement` and `is_clear_cache` are coerced with `Boolean(value)` ("false" reads as true) and the search acknowledged. The document: "`perform_replacement` boolean; `is_clear_cache` boolean"; "400 | Bad request format | Malformed or invalid request".',
    coercing('searchAndReplace', (b) => {
      const out = { ...b };
      for (const key of ['perform_replacement', 'is_clear_cache']) if (typeof out[key] === 'string') out[key] = Boolean(out[key]);
      return out;
    }),
  ),
  fault(
    'blind-webroot-flags-01-accepted',
    'INPUT-400',
    'changeWebrootSubfolder',
    '`clear_all_cache` and `refresh_plugins_and_themes` given as 1 or 0 are read as booleans and the change acknowledged. The document: "`clear_all_cache` boolean; `refresh_plugins_and_themes` boolean"; "400 | Bad request format | Malformed or invalid request".',
    coercing('changeWebrootSubfolder', (b) => {
      const out = { ...b };
      for (const key of ['clear_all_cache', 'refresh_plugins_and_themes']) if (out[key] === 0 || out[key] === 1) out[key] = out[key] === 1;
      return out;
    }),
  ),
  fault(
    'blind-dns-values-as-strings-accepted',
    'INPUT-400',
    'updateDnsRecords',
    'Record values given as bare strings (`"new_resource_records": ["192.0.2.7"]`) are wrapped into `{ value }` and the update acknowledged. The document: "`new_resource_records[]` of `{value: string}`; `removed_resource_records[]` of `{value: string}`"; "400 | Bad request format | Malformed or invalid request".',
    coercing(
      'updateDnsRecords',
      (b) => {
        const out = { ...b };
        for (const key of ['new_resource_records', 'removed_resource_records']) {
          const list = out[key];
          if (Array.isArray(list)) out[key] = list.map((item) => (typeof item === 'string' ? { value: item } : item));
        }
        return out;
      },
      (b) => typeof b.name !== 'string' || formatRegex.hostname.test(b.name),
    ),
  ),

  // ---- INPUT-ACCEPT -----------------------------------------------------------------------
  fault(
    'blind-cdn-clear-checks-edge-cache-id',
    'INPUT-ACCEPT',
    'clearCdnCache',
    "The CDN clear compares `cdn_cache_id` with the environment's `id_edge_cache` instead of its `cdn_cache_id`: a request naming the environment and its own CDN cache id, as the environments list shows them, is refused with 404. The document: \"`environment_id` string, required; `cdn_cache_id` string, required\"; \"Long-running actions are accepted, not completed, when the call returns\".",
    {
      handlers: {
        clearCdnCache: (context) => {
          const env = context.store.environment(context.company.id, context.body.environment_id);
          if (!env) throw notFound('environment');
          if (env.idEdgeCache.toLowerCase() !== context.body.cdn_cache_id.toLowerCase()) throw notFound('CDN cache');
          return context.acknowledge(env.id, context.body);
        },
      },
    },
  ),

  // ---- NO-SERVER-ERROR --------------------------------------------------------------------
  fault(
    'blind-file-list-staging-500',
    'NO-SERVER-ERROR',
    'getFileList',
    'The file tree is read from the live container only: for any other environment the lookup dereferences a missing container and answers 500. The document: "500 | Error occurred while processing the request | Server-side failure"; a valid read of the caller\'s own environment is no server-side failure.',
    {
      handlers: {
        getFileList: (context) => {
          const env = context.store.environment(context.company.id, context.params.env_id);
          if (env && env.name !== 'live') throw new HttpError(500, undefined, { reason: "Cannot read properties of undefined (reading 'fileList')" });
          return reference.getFileList(context);
        },
      },
    },
  ),
  fault(
    'blind-create-user-apostrophe-500',
    'NO-SERVER-ERROR',
    'createWpAdminUser',
    "Names are pasted into SQL unescaped: a `first_name` or `last_name` holding an apostrophe (O'Brien) answers 500. The document types them as strings (\"`email` string, `first_name` string, `last_name` string\"); \"500 | Error occurred while processing the request | Server-side failure\".",
    {
      handlers: {
        createWpAdminUser: (context) => {
          if ([context.body.first_name, context.body.last_name].some((n) => typeof n === 'string' && n.includes("'"))) throw new HttpError(500);
          return reference.createWpAdminUser(context);
        },
      },
    },
  ),

  // ---- LIMIT-WP-COMMAND -------------------------------------------------------------------
  fault(
    'blind-wp-command-multiline-regex',
    'LIMIT-WP-COMMAND',
    'runWpCliCommand',
    "The pattern is tested with the multiline flag, so `^` and `$` match at line breaks: a command with one valid line is accepted whatever the other lines hold (`wp plugin list\\n; rm -rf /`, `echo hi\\nwp plugin list`). The document: \"must match the regular expression `^wp\\s+[a-zA-Z0-9_\\-./:=@'\\s]+$`\".",
    {
      judgeInput: (endpoint, body, verdict) => {
        if (endpoint.name !== 'runWpCliCommand' || !verdict) return verdict;
        const command = record(body)?.wp_command;
        return typeof command === 'string' && command.length <= 5000 && /^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$/m.test(command) ? undefined : verdict;
      },
    },
  ),
  fault(
    'blind-wp-command-quote-refused',
    'LIMIT-WP-COMMAND',
    'runWpCliCommand',
    "An injection filter refuses every command holding a single quote (`wp option update blogname 'Alpha'`) with 400, though the pattern lists `'` among its characters. The document: \"must match the regular expression `^wp\\s+[a-zA-Z0-9_\\-./:=@'\\s]+$` (begins with `wp`, then whitespace, then one or more characters from letters, digits, `_`, `-`, `.`, `/`, `:`, `=`, `@`, `'` and whitespace)\".",
    {
      judgeInput: (endpoint, body, verdict) => {
        if (endpoint.name !== 'runWpCliCommand' || verdict) return verdict;
        const command = record(body)?.wp_command;
        return typeof command === 'string' && command.includes("'") ? badRequest("wp_command contains a forbidden character (')", { problems: [{ path: '/wp_command', problem: 'forbidden character' }] }) : undefined;
      },
    },
  ),

  // ---- LIMIT-EXP-INTERVAL -----------------------------------------------------------------
  fault(
    'blind-exp-interval-null-defaults',
    'LIMIT-EXP-INTERVAL',
    'changeSshExpirationInterval',
    '`exp_interval: null` is taken as "use the default" and answered `{ "result": null }` like a success. The document: "`exp_interval` string, required, one of five enumerated values"; the endpoint lists 400.',
    {
      judgeInput: (endpoint, body, verdict) => {
        if (endpoint.name !== 'changeSshExpirationInterval' || !verdict) return verdict;
        const object = record(body);
        return object && 'exp_interval' in object && object.exp_interval === null ? undefined : verdict;
      },
    },
  ),

  // ---- LIMIT-WEB-ROOT-SUBFOLDER -----------------------------------------------------------
  fault(
    'blind-webroot-trimmed-before-check',
    'LIMIT-WEB-ROOT-SUBFOLDER',
    'changeWebrootSubfolder',
    'The subfolder is trimmed before it is checked: `" /public"` (or with a leading tab or newline) is acknowledged. The value sent does not begin with `/`; the document: "`web_root_subfolder` string, a path beginning with `/`".',
    coercing('changeWebrootSubfolder', (b) => (typeof b.web_root_subfolder === 'string' ? { ...b, web_root_subfolder: b.web_root_subfolder.trim() } : b)),
  ),

  // ---- STATE-DNS-UPDATE -------------------------------------------------------------------
  fault(
    'blind-dns-last-value-kept',
    'STATE-DNS-UPDATE',
    'updateDnsRecords',
    'A record is never left without values: an update that would remove its last value silently keeps that value (the rest of the update applies). The document: "The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`."',
    {
      handlers: {
        updateDnsRecords: (context) => {
          const body = context.body;
          const domain = context.store.domain(context.company.id, context.params.domain_id);
          const found = domain?.dnsRecords.find((r) => r.type === body.type && r.name === body.name);
          const removed = body.removed_resource_records ?? [];
          if (!found || removed.length === 0) return reference.updateDnsRecords(context);
          const left = new Set(found.resource_records.map((r) => r.value));
          for (const { value } of removed) left.delete(value);
          for (const { value } of body.new_resource_records ?? []) left.add(value);
          if (left.size > 0) return reference.updateDnsRecords(context);
          const keep = found.resource_records.at(-1)!.value;
          return reference.updateDnsRecords(derivedContext(context, { body: { ...body, removed_resource_records: removed.filter((r) => r.value !== keep) } }));
        },
      },
    },
  ),

  // ---- STATE-SFTP-REMOVE ------------------------------------------------------------------
  fault(
    'blind-sftp-removal-soft-delete',
    'STATE-SFTP-REMOVE',
    'removeAdditionalSftpAccount',
    'Removal is a soft delete: the account is acknowledged as removed but stays in the list with `is_active: false`. The document: "DELETE | /sites/environments/additional-sftp-accounts/{sftp_account_id}" (kind "Additional SFTP account removal").',
    {
      handlers: {
        removeAdditionalSftpAccount: (context) => {
          const id = context.params.sftp_account_id.toLowerCase();
          const env = context.store.sftpAccountOwner(context.company.id, id);
          if (!env) throw notFound('additional SFTP account');
          const account = env.sftpAccounts.find((a) => a.id === id);
          if (account) account.is_active = false;
          context.store.changed();
          return context.acknowledge(id);
        },
      },
    },
  ),

  // ---- STATE-WPA-USER ---------------------------------------------------------------------
  fault(
    'blind-wpa-exists-negative-cache',
    'STATE-WPA-USER',
    'checkWpAdminUserExists',
    'The existence check caches "no such user" per environment and address, and the cache is never cleared: an address checked before it is created keeps answering `has_wp_admin_user: false` after `wpa-create-user` answered `create_wp_admin_user: true`. The document: "`create_wp_admin_user` (boolean)"; "`has_wp_admin_user` (boolean)" (ASM-WPA-CREATE-EXISTS).',
    {
      handlers: {
        checkWpAdminUserExists: (context) => {
          const cache = wpaNegativeCache(context.store);
          const key = `${context.params.env_id.toLowerCase()} ${String(context.query.email).toLowerCase()}`;
          if (cache.has(key)) return { has_wp_admin_user: false };
          const answer = reference.checkWpAdminUserExists(context);
          if (!answer.has_wp_admin_user) cache.add(key);
          return answer;
        },
      },
    },
  ),
];

// ---------------------------------------------------------------------------------------------
// Faults against statements no rule of spec/rules.ts encoded when they were written (the helper
// left `rule` out); each now names the rule that came to encode the statement.
// ---------------------------------------------------------------------------------------------

const unruled = (name: string, rule: RuleId, endpoint: EndpointName, description: string, hooks: Hooks): Variant => fault(name, rule, endpoint, description, hooks);

export const blindStatementFaults: readonly Variant[] = [
  unruled(
    'blind-validate-echoes-api-key',
    'NO-KEY-ECHO',
    'validateApiKey',
    'The validation result carries the caller\'s API key back (`api_key: "<KEY>"`), so the secret lands in every log and cache the answer passes. The document lists the result as "`name` (string), `expires_at` (...), `company` (string UUID), `status`" and has the key travel only in "`Authorization: Bearer <API_KEY>`".',
    {
      respond: (endpoint, request, response) =>
        endpoint?.name === 'validateApiKey' && response.status === 200
          ? { ...response, body: { ...(response.body as object), api_key: bearerKey(request.headers.authorization) } }
          : response,
    },
  ),
  unruled(
    'blind-site-company-id-is-owner-user',
    'FACTS-AGREE',
    'getSite',
    "The site's `company_id` holds the id of the company's owner user (a UUID, but not the company's): it disagrees with `company` of GET /validate and with the `{id}` the /company endpoints answer for. The document: Site \"company_id | string (UUID)\"; Validated key \"`company` (string UUID)\" — the same company, shown by two endpoints.",
    {
      handlers: {
        getSite: (context) => {
          const answer = reference.getSite(context);
          const owner = context.company.users[0]?.user.id;
          return owner ? { site: { ...answer.site, company_id: owner } } : answer;
        },
      },
    },
  ),
  unruled(
    'blind-environment-domains-site-id-is-env-id',
    'FACTS-AGREE',
    'listEnvironments',
    "In the environments list every domain's `site_id` (in `domains` and `primaryDomain`) is the environment's id, while GET /sites/{site_id} shows the same domains with the site's id. The document: Domain \"site_id | string (UUID)\" — the domain's site, which both endpoints show.",
    editSuccess('listEnvironments', (b) => {
      for (const env of (b.site as { environments: { id: string; domains: { site_id: string }[]; primaryDomain: { site_id: string } }[] }).environments) {
        env.domains.forEach((d) => (d.site_id = env.id));
        env.primaryDomain.site_id = env.id;
      }
      return b;
    }),
  ),
  unruled(
    'blind-site-summary-premium-false',
    'FACTS-AGREE',
    'getSite',
    "The site's environment summaries all say `is_premium: false`, while the environments list says the live environment is premium. The document lists `is_premium: boolean` both in the Site-environment summary and in the Environment: the same environment's flag, shown by two endpoints.",
    editSuccess('getSite', (b) => {
      (b.site as { environments: { is_premium: boolean }[] }).environments.forEach((e) => (e.is_premium = false));
      return b;
    }),
  ),
  unruled(
    'blind-backups-display-name-is-name',
    'FACTS-AGREE',
    'listBackups',
    'The backups list shows the environment\'s `name` ("live") as its `display_name`, while the environments list and the site show "Live". The document: "`environment.display_name` (string)" of the backups list and Environment "display_name | string": the same environment\'s display name.',
    {
      handlers: {
        listBackups: (context) => {
          const answer = reference.listBackups(context);
          const env = context.store.environment(context.company.id, context.params.env_id)!;
          return { environment: { ...answer.environment, display_name: env.name } };
        },
      },
    },
  ),
  unruled(
    'blind-file-list-id-is-container-id',
    'FACTS-AGREE',
    'getFileList',
    'The file tree answers `environment.id` with the id of the environment\'s container (as `container_info.id` of the environments list shows it), not the environment\'s id that was asked for. The document: "`environment.id` (string), `environment.file_list[]`" of GET /sites/environments/{env_id}/file-list.',
    {
      handlers: {
        getFileList: (context) => {
          const answer = reference.getFileList(context);
          const env = context.store.environment(context.company.id, context.params.env_id)!;
          return { environment: { ...answer.environment, id: env.containerId } };
        },
      },
    },
  ),
  unruled(
    'blind-validate-expiry-drops-milliseconds',
    'FACTS-AGREE',
    'validateApiKey',
    "The validated key's `expires_at` is computed from a seconds timestamp, so its milliseconds are lost (…200000 where the key expires at …200123): it disagrees with the same key's `expires_at` in GET /company/{id}/api-keys (2030-01-01T12:00:00.123Z). The document: Validated key \"`expires_at` (string holding epoch milliseconds as decimal digits)\"; API key \"`expires_at` (string, ISO 8601 date-time with milliseconds)\".",
    editSuccess('validateApiKey', (b) => ({ ...b, expires_at: String(Math.floor(Number(b.expires_at) / 1000) * 1000) })),
  ),
  unruled(
    'blind-sftp-removal-by-username',
    'STATE-SFTP-REMOVE',
    'removeAdditionalSftpAccount',
    "The removal deletes by the account's username: the account of the same name in the site's other environment (live and staging share `alpha-editor`) goes too. The document: \"| DELETE | /sites/environments/additional-sftp-accounts/{sftp_account_id} | none |\", kind \"Additional SFTP account removal\": it removes the account that id names, not others.",
    {
      handlers: {
        removeAdditionalSftpAccount: (context) => {
          const id = context.params.sftp_account_id.toLowerCase();
          const env = context.store.sftpAccountOwner(context.company.id, id);
          if (!env) throw notFound('additional SFTP account');
          const username = env.sftpAccounts.find((a) => a.id === id)?.username;
          for (const other of context.store.environmentsOf(env.siteId)) {
            for (const account of [...other.sftpAccounts]) if (account.id === id || account.username === username) context.store.removeSftpAccount(other, account.id);
          }
          return context.acknowledge(id);
        },
      },
    },
  ),
];

// ---------------------------------------------------------------------------------------------
// Conformant variants
// ---------------------------------------------------------------------------------------------

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Every string of a JSON value passed through `edit`. */
function everyString(value: unknown, edit: (s: string) => string): unknown {
  if (typeof value === 'string') return edit(value);
  if (Array.isArray(value)) return value.map((v) => everyString(v, edit));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, everyString(v, edit)]));
  return value;
}

/** Every array of a JSON value reversed (items too). */
function reversedLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedLists).reverse();
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reversedLists(v)]));
  return value;
}

/** A UUID of version 7 (RFC 9562 §5.7: Unix time in milliseconds, then random bits). */
function uuidV7(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  const random = randomBytes(10).toString('hex');
  const variant = ((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 19)}`;
}

/** Records of a real zone the fixtures lack: a wildcard, an ACME challenge (underscore label), a mail exchanger. */
const zoneSeeded = new WeakSet<DomainState>();
function seedZone(store: Store, domain: DomainState | undefined): void {
  if (!domain || zoneSeeded.has(domain)) return;
  zoneSeeded.add(domain);
  store.updateDnsRecords(domain, { type: 'MX', name: domain.name, ttl: 3600, new_resource_records: [{ value: `10 mail.${domain.name}.` }] });
  store.updateDnsRecords(domain, { type: 'CNAME', name: `*.${domain.name}`, ttl: 3600, new_resource_records: [{ value: `${domain.name}.` }] });
  store.updateDnsRecords(domain, { type: 'TXT', name: `_acme-challenge.${domain.name}`, ttl: 120, new_resource_records: [{ value: 'gfj9Xq-Mcs7f4ng4yzn0-nL0yFZrCZOVmbEkBWhNsrk' }] });
}

const ERROR_WORDINGS: Readonly<Record<number, string>> = {
  400: 'Invalid request: the request is malformed or holds invalid values.',
  404: 'Not found: the requested resource does not exist, or you are not allowed to read it.',
};

export const blindConformant: readonly Variant[] = [
  conformant(
    'blind-uppercase-uuids',
    'Every UUID in success bodies (ids, `company`, `site_id`, the UUID of operation ids) is written in upper case. The document: "Identifiers (...) are strings in UUID format"; UUID hex digits are case-insensitive (RFC 9562 §4), and the project\'s format accepts either case. Input ids are already compared ignoring case.',
    {
      respond: (_endpoint, _request, response) =>
        is2xx(response.status) ? { ...response, body: everyString(response.body, (s) => s.replace(UUID_ANYWHERE, (u) => u.toUpperCase())) } : response,
    },
  ),
  conformant(
    'blind-error-messages-other-words',
    'Messages of 400 and 404 answers say the status\'s meaning in other words ("Invalid request: ...", "Not found: ... or you are not allowed to read it"). The document gives a "Message meaning" per status, not a text; status and body shape are unchanged.',
    editError(undefined, (b) => ({ ...b, message: ERROR_WORDINGS[Number(b.status)] ?? b.message }), (s) => s === 400 || s === 404),
  ),
  conformant(
    'blind-lists-reversed',
    'Every list in success bodies comes in reverse order (users, keys, regions, environments, domains, DNS records and their values, backups newest first, themes, plugins, file nodes, IPs, SFTP accounts). The document states no order for any list.',
    editSuccess(undefined, (b) => reversedLists(b) as Record<string, unknown>),
  ),
  conformant(
    'blind-error-extra-fields',
    'Error bodies carry extra fields beside `message`, `status` and `data`: `code` and `request_id`. The document lists the error body\'s fields and forbids no others (extra fields are allowed).',
    editError(undefined, (b) => ({ ...b, code: `E${String(b.status)}`, request_id: 'req-7f3a9c' })),
  ),
  conformant(
    'blind-ack-messages-other-words',
    'Acknowledgement messages use other words, still saying the action is in progress (the webroot change also points to the customer dashboard). The document: "An asynchronous action that is accepted is reported as in progress through its 202 message"; "the 202 message says the change is in progress; its outcome is checked in the customer dashboard".',
    {
      respond: (endpoint, _request, response) => {
        if (endpoint?.success.kind !== 'ack' || response.status !== 202) return response;
        const message =
          endpoint.name === 'changeWebrootSubfolder'
            ? 'Accepted: the webroot subfolder change is in progress. Check the customer dashboard for its outcome.'
            : 'Accepted: your request is in progress.';
        return { ...response, body: { ...(response.body as object), message } };
      },
    },
  ),
  conformant(
    'blind-content-type-mixed-case',
    'Every answer is labelled `Content-Type: Application/JSON`. Media type and subtype names are case-insensitive (RFC 9110 §8.3.1): this is `application/json`, as the document says.',
    withHeaders(undefined, { 'content-type': 'Application/JSON' }),
  ),
  conformant(
    'blind-dns-real-zone-records',
    'Each domain\'s zone also holds records real zones hold: an MX, a wildcard `*.<domain>` CNAME and an `_acme-challenge.<domain>` TXT (present from the first request naming the domain on, and changed only by updates). The document: DNS record "type | string (record type such as `A`)", "name | string (host name)"; ASM-HOSTNAME-DNS: underscore labels and a leading `*` label are host names of DNS practice.',
    {
      handlers: {
        listDnsRecords: (context) => {
          seedZone(context.store, context.store.domain(context.company.id, context.params.domain_id));
          return reference.listDnsRecords(context);
        },
        updateDnsRecords: (context) => {
          seedZone(context.store, context.store.domain(context.company.id, context.params.domain_id));
          return reference.updateDnsRecords(context);
        },
      },
    },
  ),
  conformant(
    'blind-401-www-authenticate',
    'Every 401 carries `WWW-Authenticate: Bearer realm="hosted-site-api", error="invalid_token"` (RFC 6750 §3), body unchanged. The document says nothing of response headers.',
    withHeaders(undefined, { 'www-authenticate': 'Bearer realm="hosted-site-api", error="invalid_token"' }, (s) => s === 401),
  ),
  conformant(
    'blind-themes-status-not-a-filter',
    'The themes list answers every theme whatever `status` and `column` the body carries. The document shows the body fields and says "Allowed values of `status` and `column` for the themes list: not shown"; it never says they filter.',
    { handlers: { listThemes: (context) => reference.listThemes(derivedContext(context, { body: {} })) } },
  ),
  conformant(
    'blind-opid-uuid-v7',
    'Operation ids carry a time-ordered UUID of version 7 (`<kind>-<UUIDv7>`). The document: "Operation id shape: `<kind>-<UUID>`", no version named.',
    {
      respond: (endpoint, _request, response) => {
        if (endpoint?.success.kind !== 'ack' || response.status !== 202) return response;
        return { ...response, body: { ...(response.body as object), operation_id: `${endpoint.success.operationKind}-${uuidV7()}` } };
      },
    },
  ),
];
