/**
 * Faults written after the mutation operators, from how real servers go wrong: an auth check that
 * compares only the shorter length, validators that read the first line, the first item or the
 * first characters of a value, a string cut at a NUL, a Windows path normalised, lookups that
 * take any object of any kind by id or an id by its prefix, a reverse proxy that maps a header,
 * a debug header that echoes the key, a cache that lags behind, an address stored lower-cased;
 * and conformant variants where the new checks must not raise a false alarm (201 for a creation,
 * upper-case references, terse and queued messages, a masked key, a session cookie, Python's
 * reading of `\s`).
 */
import type { EndpointName } from '../../generated/types.ts';
import { handlers as reference, type MockRequest } from '../app.ts';
import { HttpError, notFound } from '../errors.ts';
import { seedCompanies } from '../fixtures.ts';
import { derivedContext } from '../handler.ts';
import type { Hooks, Variant } from '../variant.ts';
import { combine, conformant, editError, editSuccess, fault, withHeaders } from './build.ts';

const MAIN_KEY = seedCompanies()[0]!.apiKey;
const headerOf = (request: MockRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};
const bearerOf = (request: MockRequest) => /^bearer +(\S+)$/i.exec(headerOf(request, 'authorization') ?? '')?.[1];

/** Lets requests to one endpoint through as the main company when `accept` says so. */
const looseAuth = (endpoint: EndpointName, accept: (request: MockRequest) => boolean): Hooks => ({
  authenticate: (e, request, reference) => reference || (e?.name === endpoint && accept(request)),
});

/** Replaces the input verdict of one endpoint: accept where the reference refused only for `why`. */
const acceptWhen = (name: EndpointName, why: (body: Record<string, unknown>) => boolean): Hooks => ({
  judgeInput: (endpoint, body, verdict) => (endpoint.name === name && verdict && why((body ?? {}) as Record<string, unknown>) ? undefined : verdict),
});

const WP = /^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$/;
const command = (b: Record<string, unknown>) => (typeof b.wp_command === 'string' ? b.wp_command : '');

export const realFaults: readonly Variant[] = [
  fault(
    'real-auth-compares-shorter-length',
    'AUTH-401',
    'listAdditionalSftpAccounts',
    'The key is compared character by character up to the shorter of the two lengths (a hand-written constant-time loop), so any prefix of the real key passes, and so does the key with anything after it. §Authentication 2: "A missing or invalid key yields HTTP 401".',
    looseAuth('listAdditionalSftpAccounts', (r) => {
      const key = bearerOf(r);
      return key !== undefined && key.length > 0 && [...key.slice(0, MAIN_KEY.length)].every((c, i) => c === MAIN_KEY[i]);
    }),
  ),
  fault(
    'real-auth-forwarded-authorization',
    'AUTH-BEARER',
    'getFileList',
    'A reverse proxy in front of the file list maps `X-Forwarded-Authorization` onto `Authorization`: a request without an `Authorization` header is served. "Every endpoint requires the header `Authorization: Bearer <API_KEY>`".',
    looseAuth('getFileList', (r) => headerOf(r, 'authorization') === undefined && /^bearer +/i.test(headerOf(r, 'x-forwarded-authorization') ?? '') && headerOf(r, 'x-forwarded-authorization')!.split(/ +/)[1] === MAIN_KEY),
  ),
  fault(
    'real-ttl-numeric-string-coerced',
    'INPUT-400',
    'updateDnsRecords',
    'The DNS update coerces `ttl` with `Number()`: `"3600"` is taken as 3600. §Endpoints: "`ttl` integer"; §Errors: 400 "Malformed or invalid request".',
    acceptWhen('updateDnsRecords', (b) => typeof b.ttl === 'string' && /^-?\d+$/.test(b.ttl)),
  ),
  fault(
    'real-records-first-item-checked-only',
    'INPUT-400',
    'updateDnsRecords',
    'Only the first item of `new_resource_records` is type-checked; later items are taken as they come. "`new_resource_records[]` of `{value: string}`".',
    acceptWhen('updateDnsRecords', (b) => {
      const items = b.new_resource_records;
      if (!Array.isArray(items) || items.length < 2) return false;
      const first = items[0] as { value?: unknown } | null;
      return first !== null && typeof first === 'object' && typeof first.value === 'string';
    }),
  ),
  fault(
    'real-wp-command-first-line-only',
    'LIMIT-WP-COMMAND',
    'runWpCliCommand',
    'The command is checked line by line as a shell would run it... but only its first line is checked. §Limits: `wp_command` "must match the regular expression `^wp\\s+[a-zA-Z0-9_\\-./:=@\'\\s]+$`".',
    acceptWhen('runWpCliCommand', (b) => {
      const text = command(b);
      return text.includes('\n') && WP.test(text.split('\n')[0]!.trimEnd() || 'x') && text.length <= 5000;
    }),
  ),
  fault(
    'real-wp-command-first-128-characters',
    'LIMIT-WP-COMMAND',
    'runWpCliCommand',
    'The command pattern is tested on its first 128 characters (a column of that width in a log table); the length limit still holds. §Limits.',
    acceptWhen('runWpCliCommand', (b) => command(b).length > 128 && command(b).length <= 5000 && WP.test(command(b).slice(0, 128))),
  ),
  fault(
    'real-wp-command-cut-at-nul',
    'LIMIT-WP-COMMAND',
    'runWpCliCommand',
    'The command is checked as a C string: whatever follows a NUL is not looked at. §Limits.',
    acceptWhen('runWpCliCommand', (b) => command(b).includes('\u0000') && WP.test(command(b).split('\u0000')[0]!) && command(b).length <= 5000),
  ),
  fault(
    'real-webroot-backslash-normalised',
    'LIMIT-WEB-ROOT-SUBFOLDER',
    'changeWebrootSubfolder',
    'The webroot is normalised as a Windows path first: `\\public` becomes `/public` and passes. "`web_root_subfolder` string, a path beginning with `/`".',
    acceptWhen('changeWebrootSubfolder', (b) => typeof b.web_root_subfolder === 'string' && b.web_root_subfolder.startsWith('\\')),
  ),
  fault(
    'real-backups-any-object-by-id',
    'READ-404',
    'listBackups',
    'The backups list looks its environment up in one table of every object by id: the id of a site or a domain the company holds is taken for an environment, and its (empty) backups answered 200. §Authentication 4: "Data that does not exist ... yields 404 on read endpoints".',
    {
      handlers: {
        listBackups: (context) => {
          if (context.store.environment(context.company.id, context.params.env_id)) return reference.listBackups(context);
          const id = context.params.env_id.toLowerCase();
          const owned = context.store.site(context.company.id, id) ?? context.company.sites.flatMap((s) => s.environments.flatMap((e) => e.domains)).find((d) => d.id === id);
          if (!owned) throw notFound('environment');
          return { environment: { display_name: '', backups: [] } };
        },
      },
    },
  ),
  fault(
    'real-file-list-id-prefix-match',
    'READ-404',
    'getFileList',
    'The file list finds its environment by the first 8 characters of the id (`LIKE \'…%\'` on an indexed prefix): an id that shares them reads that environment. §Authentication 4.',
    {
      handlers: {
        getFileList: (context) => {
          if (context.store.environment(context.company.id, context.params.env_id)) return reference.getFileList(context);
          const prefix = context.params.env_id.toLowerCase().slice(0, 8);
          const env = context.company.sites.flatMap((s) => s.environments).find((e) => e.id.startsWith(prefix));
          if (!env) throw notFound('environment');
          return reference.getFileList(derivedContext(context, { params: { env_id: env.id } }));
        },
      },
    },
  ),
  fault(
    'real-debug-header-echoes-key',
    'NO-KEY-ECHO',
    'listEnvironments',
    'A debug middleware left on adds `X-Debug-Auth: <the key>` to the environments list\'s answers. The key is a credential of the company (§Authentication); an answer carries it to every log and cache on the way (OWASP API3:2023).',
    {
      respond: (endpoint, request, response) =>
        endpoint?.name === 'listEnvironments' && bearerOf(request) === MAIN_KEY ? { ...response, headers: { ...response.headers, 'x-debug-auth': bearerOf(request) } } : response,
    },
  ),
  fault(
    'real-ack-says-done',
    'ACK-IN-PROGRESS',
    'clearCdnCache',
    'The CDN clear acknowledges with "CDN cache cleared successfully." before anything happened. §States and transitions: "An asynchronous action that is accepted is reported as in progress through its 202 message".',
    editSuccess('clearCdnCache', (b) => ({ ...b, message: 'CDN cache cleared successfully.' })),
  ),
  fault(
    'real-env-list-stale-display-name',
    'FACTS-AGREE',
    'listEnvironments',
    'The environments list comes from a cache that lags behind renames: every `display_name` is the one before (`Old …`), while the site shows the current one. Resources and fields: the site\'s environment summary and the environments list show the same environment.',
    editSuccess('listEnvironments', (b) => {
      for (const env of (b.site as { environments: { display_name: string }[] }).environments) env.display_name = `Old ${env.display_name}`;
      return b;
    }),
  ),
  fault(
    'real-wpa-address-lowercased-once',
    'STATE-WPA-USER',
    'checkWpAdminUserExists',
    'Site-admin users are stored with their address lower-cased, but wpa-user-exists compares the address as given: a user created as `HSC-Probe-…@example.com` is never found. ASM-WPA-CREATE-EXISTS: after `create_wp_admin_user: true`, wpa-user-exists for the same address says it exists.',
    {
      handlers: {
        createWpAdminUser: (context) => reference.createWpAdminUser(derivedContext(context, { body: { ...context.body, ...(typeof context.body.email === 'string' ? { email: context.body.email.toLowerCase() } : {}) } })),
        checkWpAdminUserExists: (context) => {
          const env = context.store.environment(context.company.id, context.params.env_id);
          if (!env) throw notFound('environment');
          // As given: a lower-cased stored address matches only an address given lower-case.
          const email = context.query.email;
          return { has_wp_admin_user: email === email.toLowerCase() && context.store.hasWpAdmin(env, email) };
        },
      },
    },
  ),
  fault(
    'real-validation-error-as-404',
    'INPUT-400',
    'changeSshExpirationInterval',
    'The SSH expiry answers a mistyped body with 404 "Not found" (the validation error is caught as a missing route). §Errors: 400 "Malformed or invalid request"; the endpoint lists 400.',
    {
      judgeInput: (endpoint, _body, verdict) => (endpoint.name === 'changeSshExpirationInterval' && verdict ? new HttpError(404, 'Not found') : verdict),
    },
  ),
  fault(
    'real-restore-notified-user-any-uuid',
    'INPUT-400',
    'restoreBackup',
    'The restore checks `notified_user_id` with a lax UUID pattern (`^[0-9a-f-]{36}$`): `--------…` and misplaced hyphens pass. "Identifiers (…`notified_user_id`…) are strings in UUID format".',
    acceptWhen('restoreBackup', (b) => typeof b.notified_user_id === 'string' && /^[0-9a-fA-F-]{36}$/.test(b.notified_user_id)),
  ),
];

export const realConformant: readonly Variant[] = [
  conformant(
    'real-ok-create-user-201',
    'wpa-create-user answers 201 Created: the success status of the synchronous endpoints is not shown (UNK-SYNC-SUCCESS-STATUS), and a 2xx with its body is one (ASM-SYNC-SUCCESS-2XX).',
    { respond: (endpoint, _r, response) => (endpoint?.name === 'createWpAdminUser' && response.status === 200 ? { ...response, status: 201 } : response) },
  ),
  conformant(
    'real-ok-references-upper-case',
    'Ids in references (`company_id`, a domain\'s `site_id`) are written in upper case: UUIDs are read in either case (RFC 9562), so they name the same company and site.',
    combine(
      editSuccess('getSite', (b) => {
        const site = b.site as { company_id: string; environments: { domains: { site_id: string }[]; primaryDomain: { site_id: string } }[] };
        site.company_id = site.company_id.toUpperCase();
        for (const env of site.environments) {
          for (const d of env.domains) d.site_id = d.site_id.toUpperCase();
          env.primaryDomain.site_id = env.primaryDomain.site_id.toUpperCase();
        }
        return b;
      }),
    ),
  ),
  conformant(
    'real-ok-messages-terse-and-queued',
    'Acknowledgements say "Queued." and errors say only what their status means in other words ("Not Found", "Bad Request"): the document states meanings, not words.',
    combine(
      editSuccess(undefined, (b) => (typeof b.operation_id === 'string' ? { ...b, message: 'Queued.' } : b)),
      editError(undefined, (b) => ({ ...b, message: b.status === 404 ? 'Not Found' : b.status === 400 ? 'Bad Request' : b.message })),
    ),
  ),
  conformant(
    'real-ok-masked-key-in-validate',
    'GET /validate adds the key masked (`hsc-…` and its last four characters): no credential is served, only a hint of which key it is.',
    {
      respond: (endpoint, request, response) => {
        const key = bearerOf(request);
        return endpoint?.name === 'validateApiKey' && response.status === 200 && key ? { ...response, body: { ...(response.body as object), hint: `${key.slice(0, 4)}…${key.slice(-4)}` } } : response;
      },
    },
  ),
  conformant('real-ok-session-cookie', 'Every answer sets a session cookie of its own (`Set-Cookie: sid=…`): headers beyond the document are allowed, and it holds no credential of the request.', withHeaders(undefined, { 'set-cookie': 'sid=0f8fad5bd9cb469fa16570867728950e; Path=/; HttpOnly' })),
  conformant(
    'real-ok-python-whitespace',
    'The command pattern is read as Python reads `\\s`: the separators U+001C–U+001F count as white space. Dialects differ there; the suite asserts neither (ASM-WP-WHITESPACE-ASCII).',
    {
      judgeInput: (endpoint, body, verdict) => {
        if (endpoint.name !== 'runWpCliCommand' || !verdict) return verdict;
        const text = command((body ?? {}) as Record<string, unknown>).replace(/[\u001c-\u001f\u0085]/g, ' ');
        return WP.test(text) && text.length <= 5000 ? undefined : verdict;
      },
    },
  ),
];
