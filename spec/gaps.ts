/**
 * Where the document stops: what it says is "not shown" (unknowns), where an implementation
 * must choose anyway (assumptions), and where two of its statements disagree (conflicts).
 */
import type { Assumption, Conflict, Unknown } from './model.ts';

/** Where the document lists each endpoint's error statuses. */
export const ERRORS_TABLE = { section: 'Errors', quote: 'Statuses each endpoint can return besides its success' };
const READ_404 = {
  section: 'Authentication',
  quote: "Data that does not exist, or that the key's user may not read, yields 404 on read endpoints.",
};
const INVALID_400 = { section: 'Errors', quote: '400 | Bad request format | Malformed or invalid request' };

/**
 * ASM-EPOCH-MS-PLAUSIBLE: the least value taken as epoch milliseconds a service of this kind
 * means. 10^11 ms is 1973-03-03T09:46:40Z; the epoch-seconds value of any date from then to the
 * year 5138 is below it, and the milliseconds value of any date after it is above.
 */
export const EPOCH_MS_PLAUSIBLE_FROM = 1e11;
const EPOCH_MS_PLAUSIBLE_FROM_TEXT = `10^${Math.log10(EPOCH_MS_PLAUSIBLE_FROM)}`;
const EPOCH_MS_PLAUSIBLE_FROM_DATE = new Date(EPOCH_MS_PLAUSIBLE_FROM).toISOString().replace('.000Z', 'Z');

/**
 * ASM-EXP-INTERVAL-OUTSIDE: the strings certain to be outside a partly shown set shaped like
 * `days_7` are those this pattern refuses (the request schema encodes it; the suite breaks it).
 */
export const PARTLY_SHOWN_VALUE_PATTERN = '^[a-z0-9_]+$';

export const unknowns: readonly Unknown[] = [
  {
    id: 'UNK-HIDDEN-GROUPS',
    what: 'Endpoints of the Activity Logs, Analytics, Logs, Operations and Site Domains groups, and endpoints that create or revoke API keys or create sites.',
    cite: { section: 'What the service does', quote: 'not shown' },
  },
  {
    id: 'UNK-ENUM-SETS',
    what: 'Allowed-value sets of status, update, update_status, type, image_optimization_type, permission, auto_update_type: only values that occur are known.',
    cite: { section: 'Resources and fields', quote: 'Allowed-value sets of the enumerated-looking fields (...): not shown.' },
  },
  {
    id: 'UNK-OPERATION-RECORD',
    what: 'Fields of an operation record beyond the `operation_id` string, the states of an operation and any way to read them.',
    cite: { section: 'States and transitions', quote: 'Transitions: not shown (including the states of an operation and any way to read them).' },
  },
  {
    id: 'UNK-BODY-MARKING',
    what: 'Required or optional marking of body fields other than `environment_id`, `cdn_cache_id` (CDN clear) and `exp_interval`.',
    cite: { section: 'Endpoints > Conventions', quote: 'for all other body fields: not shown' },
  },
  {
    id: 'UNK-SYNC-SUCCESS-STATUS',
    what: 'Success status of the synchronous endpoints (reads and the two other actions).',
    cite: { section: 'Endpoints > Conventions', quote: 'Success status of the synchronous endpoints (those that do not answer 202): not shown.' },
  },
  {
    id: 'UNK-THEMES-BODY-VALUES',
    what: 'Allowed values of `status` and `column` in the themes-list request body.',
    cite: { section: 'Endpoints > Read endpoints', quote: 'Allowed values of `status` and `column` for the themes list: not shown.' },
  },
  {
    id: 'UNK-WPA-QUERY-NAME',
    what: 'Name of the query parameter of `GET .../wpa-user-exists` that carries the e-mail address.',
    cite: { section: 'Endpoints > Read endpoints', quote: 'its name: not shown' },
  },
  {
    id: 'UNK-DNS-TYPE-VALUES',
    what: 'Allowed values of the DNS update field `type`.',
    cite: { section: 'Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)', quote: 'Allowed values of the DNS update field `type`: not shown.' },
  },
  {
    id: 'UNK-EXP-INTERVAL-VALUES',
    what: 'The four allowed values of `exp_interval` other than `days_7`.',
    cite: { section: 'Endpoints > Other action endpoints (not acknowledged with an operation id)', quote: 'The other four allowed values of `exp_interval`: not shown.' },
  },
  {
    id: 'UNK-KEY-MANAGEMENT',
    what: 'Key creation, revocation and per-key permissions.',
    cite: { section: 'Authentication', quote: 'Key creation, revocation and per-key permissions: not shown.' },
  },
  {
    id: 'UNK-EVENTS',
    what: 'Any event delivery mechanism (webhook, stream or callback).',
    cite: { section: 'Events', quote: 'Events: not shown.' },
  },
  {
    id: 'UNK-ERROR-DATA',
    what: 'Content of the `data` field of error bodies.',
    cite: { section: 'Errors', quote: 'Content of the `data` field of error bodies: not shown.' },
  },
  {
    id: 'UNK-RATE-LIMITS',
    what: 'Rate limits and quotas, and how a throttled request is answered.',
    cite: { section: 'Limits', quote: 'Rate limits and quotas: not shown.' },
  },
  {
    id: 'UNK-FIELD-BOUNDS',
    what: 'Length and size bounds of every field but `wp_command`.',
    cite: { section: 'Limits', quote: 'Length and size bounds of all other fields: not shown.' },
  },
  {
    id: 'UNK-DEPRECATION-POLICY',
    what: 'Deprecation policy and sunset dates.',
    cite: { section: 'Versioning', quote: 'Deprecation policy and sunset dates: not shown.' },
  },
  {
    id: 'UNK-UNOBSERVABLE-OUTCOMES',
    what:
      "What a CDN cache clear, an edge-caching switch (`enabled`), a search and replace (`perform_replacement`, `is_clear_cache`), a backup restore, a site reset and an SSH expiration-interval change do: no read the document shows reveals it. A webroot change's outcome is checked in the customer dashboard: whether and when an environment's `web_root` shows `web_root_subfolder` is not shown. No check asserts these outcomes.",
    cite: { section: 'Endpoints > Behaviours stated for endpoints', quote: 'its outcome is checked in the customer dashboard' },
  },
  {
    id: 'UNK-PRIMARY-DOMAIN',
    what: "Whether an environment's `primaryDomain` is one of its `domains`: the document gives both fields, not how they relate.",
    cite: { section: 'Resources and fields > Site', quote: 'domains: array of Domain, primaryDomain: Domain' },
  },
  {
    id: 'UNK-FILE-NODE-PATHS',
    what: "How a file node's `path` relates to its `name` and to its parent's `path` (only that it is relative, with no leading slash).",
    cite: { section: 'Resources and fields > File node', quote: '`path` (string, relative, no leading slash)' },
  },
  {
    id: 'UNK-BACKUP-SOURCES',
    what: 'Which scheduled and system-generated backups an environment has: they are listed, but no request shows which exist.',
    cite: { section: 'Resources and fields > Backup', quote: 'scheduled and system-generated backups are also listed' },
  },
  {
    id: 'UNK-NEW-PLUGINS-ENDPOINT',
    what: 'The newer plugins endpoint that replaces `GET /sites/environments/{env_id}/plugins`.',
    cite: { section: 'Versioning', quote: 'deprecated in favour of a newer plugins endpoint' },
  },
];

export const assumptions: readonly Assumption[] = [
  {
    id: 'ASM-WPA-QUERY-EMAIL',
    choice: 'The e-mail query parameter of `GET .../wpa-user-exists` is named `email`.',
    why: 'The document leaves the name open; `email` is the name the sibling `wpa-create-user` body uses for the same address.',
    cite: { section: 'Endpoints > Read endpoints', quote: 'its name: not shown' },
    scope: { endpoints: ['checkWpAdminUserExists'] },
  },
  {
    id: 'ASM-SYNC-SUCCESS-2XX',
    choice: 'Synchronous endpoints succeed with some 2xx status other than 202 and 204 (they answer with a body); our mock uses 200.',
    why: 'The success status is not shown, but "Read calls answer with the data directly" rules out errors, redirects and empty bodies.',
    cite: { section: 'Endpoints > Conventions', quote: 'Success status of the synchronous endpoints (those that do not answer 202): not shown.' },
    scope: 'with-response-body',
  },
  {
    id: 'ASM-TAG-GROUPS',
    choice: 'Each endpoint belongs to the named tag group that matches its path and subject (see each endpoint).',
    why: 'The document names the tag groups but does not say which endpoint belongs to which.',
    cite: { section: 'What the service does', quote: 'Tag groups named by the interface' },
    // Generated artifacts only (OpenAPI tags): no run depends on it.
    scope: { endpoints: [] },
  },
  {
    id: 'ASM-ENVIRONMENT-ID-UUID',
    choice: 'Body field `environment_id` is an environment id, a UUID string.',
    why: 'It names the same thing as `env_id`, which is a UUID; the identifier list does not name it. The suite never asserts a 400 on a non-UUID `environment_id`.',
    cite: { section: 'Resources and fields', quote: 'Identifiers (`id`, `site_id`, `env_id`, ...) are strings in UUID format' },
    scope: { endpoints: ['clearCdnCache', 'setEdgeCachingStatus', 'searchAndReplace'] },
  },
  {
    id: 'ASM-WP-WHITESPACE-ASCII',
    choice: 'In the `wp_command` pattern, `\\s` certainly covers space, tab, LF, CR, FF and VT; other Unicode spaces are left unasserted.',
    why: 'Regex dialects disagree on whether `\\s` matches Unicode spaces (ECMAScript yes, PCRE without UTF mode no).',
    cite: { section: 'Limits', quote: "^wp\\s+[a-zA-Z0-9_\\-./:=@'\\s]+$" },
    scope: { endpoints: ['runWpCliCommand'] },
  },
  {
    id: 'ASM-IPV4-MASK',
    choice:
      'The mask characters of `external_ip` are `x`, `X` and `*`. A masked octet is one to three digits and mask characters, at least one a mask, in any mix (`1xx`, `10x`, `xxx`, `x`, `*`, `***`); any octet may be masked, all four included. Other letters, empty octets and other than four octets are not an address.',
    why:
      'The document says "possibly partly masked" without showing the mask. The vendor\'s public API reference shows `1xx.1xx.1xx.1xx`; `x`/`X` and `*` are the characters masked addresses commonly use. A mask stands in for digits, so an octet keeps its width of at most three.',
    cite: { section: "Resources and fields > Environment (returned by the list of a site's environments)", quote: 'an IPv4 address, possibly partly masked' },
    scope: { endpoints: ['listEnvironments'] },
  },
  {
    id: 'ASM-HOSTNAME-DNS',
    choice: 'Host names follow DNS practice: underscore labels (`_dmarc`), a leading `*` label and a trailing dot are valid.',
    why: 'DNS record names routinely carry them; rejecting them would raise false alarms on real zones.',
    cite: { section: 'Resources and fields > DNS record', quote: 'name | string (host name)' },
    scope: { endpoints: ['listDnsRecords', 'getSite', 'listEnvironments', 'updateDnsRecords'] },
  },
  {
    id: 'ASM-EXP-INTERVAL-OUTSIDE',
    choice: 'An `exp_interval` that is not a string, is empty, or holds characters outside `[a-z0-9_]` is outside the five values.',
    why: 'Four values are not shown; these are the only strings certain not to be among values shaped like `days_7`.',
    cite: { section: 'Endpoints > Other action endpoints (not acknowledged with an operation id)', quote: '`days_7` is one of them' },
    scope: { endpoints: ['changeSshExpirationInterval'] },
  },
  {
    id: 'ASM-THROTTLE-429',
    choice:
      'HTTP 429 is throttling, answered by waiting (honouring `Retry-After`) and retrying, the run paced to what the target says of its limit (`RateLimit`, `RateLimit-Policy`, `X-RateLimit-*`); it is never judged against a status set, and a request given up while throttled judges nothing.',
    why: 'Rate limits are not shown, and real gateways throttle with 429 regardless of the per-endpoint table.',
    cite: { section: 'Limits', quote: 'Rate limits and quotas: not shown.' },
    scope: 'all',
  },
  {
    id: 'ASM-BODY-BOUNDS',
    choice:
      'An answer is read up to a size cap (`--max-body-kb`) and parsed up to a nesting bound; a longer or deeper one is not parsed, and is judged as a body that does not read as the document says. Each run states both figures in its notes.',
    why: 'Sizes and depths are not shown, yet a client must stop reading somewhere; every documented body is shallow (the file tree aside) and far smaller, and a real file tree that outgrows the default can be read by raising the flag.',
    cite: { section: 'Limits', quote: 'Length and size bounds of all other fields: not shown.' },
    scope: 'all',
  },
  {
    id: 'ASM-LIVE-ENVIRONMENT',
    choice:
      'An environment serves the site its visitors see when its `name` is `live`, `production` or `prod` (any case): the suite sends no destructive request (restore, reset, WP-CLI, search-and-replace, DNS update, SFTP account removal) that names it or what it holds, nor a site reset of a site that has one, unless `--allow-live` is given (the embedded mock always allows it).',
    why: 'The document shows that the value `live` occurs as an environment name without saying what it means, and names no production environment otherwise; a suite pointed at a real site must not act on the environment its visitors use because a staging one lacked what a check needs, so it errs on the safe side (the two common names of production environments included). A domain `type` of `live` is no sign: its meaning is not shown either, and a staging environment\'s domains may carry it.',
    cite: { section: 'Resources and fields > Environment (returned by the list of a site\'s environments)', quote: 'name | string (value `live` occurs)' },
    scope: 'all',
  },
  {
    id: 'ASM-THEMES-BODY',
    choice: 'Requests for the themes list carry `status: "active"` (a theme status that occurs) and `column: "name"` (a Theme field).',
    why: 'The allowed values of `status` and `column` are not shown, yet the table lists a JSON body for the call.',
    cite: { section: 'Endpoints > Read endpoints', quote: 'Allowed values of `status` and `column` for the themes list: not shown.' },
    scope: { endpoints: ['listThemes'] },
  },
  {
    id: 'ASM-NOT-SHOWN-FIELDS-SENT',
    choice: 'Requests the suite expects to succeed carry every body field, since any unmarked field may be required; it asserts a 400 only for missing fields the document marks required.',
    why: 'Required/optional marking is not shown for most body fields.',
    cite: { section: 'Endpoints > Conventions', quote: 'for all other body fields: not shown' },
    scope: 'with-body',
  },
  {
    id: 'ASM-DNS-NEW-RECORD',
    choice:
      'A DNS update may name a record the domain does not hold yet (a fresh `hsc-probe-…` name inside its zone): its `new_resource_records` add that record. The suite\'s valid DNS updates and the STATE-DNS-UPDATE property name such records, so that no real record is touched.',
    why: 'The document says the update "adds the records named in `new_resource_records`", which reads as creating a record as well as adding values to one; it does not say whether the name must exist first.',
    cite: { section: 'Endpoints > Behaviours stated for endpoints', quote: 'The DNS update adds the records named in `new_resource_records`' },
    scope: { endpoints: ['updateDnsRecords'] },
  },
  {
    id: 'ASM-DNS-TTL-SET',
    choice:
      'A DNS update sets the `ttl` of the record it names (by `type` and `name`) to the `ttl` it carries, whenever the record keeps values after it: a record the update creates and one it already held alike. STATE-DNS-UPDATE checks that it does, and compares every other record\'s `ttl` with its values.',
    why: 'The update\'s body carries `type`, `name` and `ttl` beside the values, which reads as the record the values belong to, `ttl` included; the document states only what happens to the values.',
    cite: { section: 'Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)', quote: '`type` string; `name` string; `ttl` integer' },
    scope: { endpoints: ['updateDnsRecords'] },
  },
  {
    id: 'ASM-DOCUMENTED-FIELDS-PRESENT',
    choice:
      'Every response field the document lists (presence `documented`) is present in a success body; only the fields it says may be missing (`children` "absent on leaves", error `data` "may be absent") may be left out. RESPONSE-SCHEMA fails a body that lacks one.',
    why: 'The document lists each resource\'s fields and types but never says they are always sent; that it names the two that may be absent reads as saying the others are not. It is a reading, not the letter, so reports name it.',
    cite: { section: 'Resources and fields', quote: 'Types are as used by the wire format.' },
    // The bodies RESPONSE-SCHEMA judges (acknowledgements are ACK-202's, from their stated body).
    scope: 'with-response-body',
  },
  {
    id: 'ASM-EPOCH-MS-PLAUSIBLE',
    choice: `A value the model types as epoch milliseconds (meaning \`epoch-ms\`, format \`epoch-ms-string\`) below ${EPOCH_MS_PLAUSIBLE_FROM_TEXT} (before ${EPOCH_MS_PLAUSIBLE_FROM_DATE}) is implausible for its unit, most likely epoch seconds: RESPONSE-SCHEMA warns of it, and fails it under \`--strict\`.`,
    why: 'The document states the unit, not a range. No backup of a hosted site and no expiry of a key of this API falls before March 1973, while every date from then to the year 5138 written in epoch seconds falls below the bound: it tells the two units apart for every date either could mean.',
    cite: { section: 'Resources and fields > Backup', quote: 'number, epoch milliseconds' },
    // The endpoints whose success body holds an epoch-milliseconds value (spec/api.test.ts derives them from the model).
    scope: { endpoints: ['validateApiKey', 'listBackups'] },
  },
  {
    id: 'ASM-WPA-CREATE-EXISTS',
    choice:
      'After `wpa-create-user` answers `create_wp_admin_user: true` for an e-mail address, `wpa-user-exists` for the same address answers `has_wp_admin_user: true` (read until it does, within the state window) and keeps doing so; after `false` or a refusal nothing is asserted.',
    why: 'The document lists both booleans but never links them: that `true` means a site-admin user with that address now exists, which the existence check then reports, is our reading of their names.',
    cite: { section: 'Endpoints > Other action endpoints (not acknowledged with an operation id)', quote: '`create_wp_admin_user` (boolean)' },
    scope: { endpoints: ['createWpAdminUser', 'checkWpAdminUserExists'] },
  },
  {
    id: 'ASM-DNS-OTHERS-UNCHANGED',
    choice:
      'A DNS update leaves every record it does not name as it was, except what a DNS server rewrites by itself on any change: SOA records (their serial) and, in a signed zone, RRSIG, NSEC and NSEC3 records, which STATE-DNS-UPDATE does not compare. While the suite runs, from discovery\'s read of the domain on, only its own updates change the domain\'s records (no one else edits the zone meanwhile).',
    why: 'The document says only that the update adds the values named in `new_resource_records` and removes those in `removed_resource_records`, which a client can hold a server to for the records it names. DNS practice bumps the SOA serial on every change (RFC 2136 §3.6; NOTIFY, RFC 1996, relies on it) and re-signs the changed names of a signed zone (RFC 4035 §2): comparing those records would fail every conformant server that lists them.',
    cite: { section: 'Endpoints > Behaviours stated for endpoints', quote: 'The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.' },
    scope: { endpoints: ['updateDnsRecords', 'listDnsRecords'] },
  },
  {
    id: 'ASM-FACTS-SHOWN-TWICE',
    choice:
      "A fact the document shows in two places is the same fact in both, when read close together: the fields of a thing found by its id (a site's environment summary and the environments list's item; a domain wherever it is listed; the environment an answer about `{env_id}` describes, e.g. the backups read's `display_name` and the plugins read's `container_info.id`); an id the answer carries of what the request names (`site.id` is `{site_id}`); a reference to what the answer is about (every domain of site S has `site_id` S); the company of a key (`company` of `GET /validate`, `company_id` of every site the key reads); the key `GET /validate` describes, which its company's key list holds (same `name` and `status`, `expires_at` the same instant). Ids are compared as UUIDs (either case), instants as instants. Different answers are compared only among discovery's reads, taken before the run sends anything that could change the data; the facts within one answer, and the company of a key, in every answer.",
    why:
      "The document describes one service whose resources appear in several answers; that a summary and a list item of the same environment, or a domain's `site_id` and the site that lists it, may disagree is no reading of it. It never says so in words, so the rule rests on this reading, and names it.",
    cite: { section: 'Resources and fields', quote: 'Site-environment summary (id, name, display_name, is_premium: boolean, is_blocked: boolean, domains: array of Domain, primaryDomain: Domain)' },
    scope: 'shows-facts',
  },
  {
    id: 'ASM-KEY-NOT-SERVED',
    choice:
      "An answer carries no API key its request was sent with (as sent, or in any form the sanitizer knows: URL- or base64-encoded, escaped): the valid key in one is a security failure (NO-KEY-ECHO); a key the target refused, echoed, is a warning (the echo shows the server keeps it, but it was no credential).",
    why:
      "The document lists no field that holds a key; `<API_KEY>` is a credential of the company, and a credential in an answer is exposed to every log, cache, proxy and browser on the way (OWASP API3:2023, excessive data exposure). The document does not forbid it in words: the rule is a security requirement, named as one.",
    cite: { section: 'Authentication', quote: 'where `<API_KEY>` is an API key of the company' },
    scope: 'all',
  },
  {
    id: 'ASM-MESSAGE-WORDS',
    choice:
      "A message states a meaning when it holds its words, read case-insensitively with `_`/`-` as spaces: in progress (`progress`, `processing`, `pending`, `queued`, `accepted`, `started`, `scheduled`, `running`, `submitted`, `initiated`, `being`, `will be`, `under way`); 400's (`bad`, `malformed`, `invalid`, `validation`, `required`, `must`, `missing`, `expected`, `not allowed`, `unknown field`); 404's (`not found`, `could not find`, `no such`, `does not exist`, `unknown`, `permission`, `not allowed to`, `forbidden`, `access`); 500's (`error`, `internal`, `processing`, `failed`, `failure`, `unexpected`). Words are a weak reading in any language, so a message contradicts the document only where no reading saves it: an acknowledgement that holds its own action's verb in the past tense (the verb of its kind: `cdn-cache:clear` → `cleared`) and no word of progress, or an error message that holds §Errors' own words for another status's meaning (\"Bad request format\" on a 404) and none of its own: a failure. A message that says neither its meaning nor the opposite is a warning: the document states the meaning, not the words.",
    why: "The document gives each message a meaning (§Errors' \"Message meaning\" column; an acknowledgement \"reported as in progress through its 202 message\") but no wording, in any language.",
    cite: { section: 'Errors', quote: 'Message meaning' },
    scope: 'all',
  },
  {
    id: 'ASM-EMAIL-FORMAT',
    choice: "`email` (a company user's, and `wpa-create-user`'s) is an e-mail address, `local@domain` with no white space: the model's `email` format, which RESPONSE-SCHEMA checks in answers. In requests the suite never asserts a 400 on a malformed address.",
    why: "The document types both as `email: string`; that the value is an e-mail address is read from the name, and `wpa-user-exists` carries \"the admin user's e-mail address\".",
    cite: { section: 'Resources and fields > Company user', quote: 'email: string' },
    scope: { endpoints: ['listCompanyUsers', 'createWpAdminUser', 'checkWpAdminUserExists'] },
  },
  {
    id: 'ASM-SLUG-SHAPE',
    choice: 'A theme or plugin `name` (a slug) is a non-empty string without white space; RESPONSE-SCHEMA checks that shape, nothing narrower (case, `.`, `/` and `_` allowed).',
    why: 'The document says "string (slug)" without defining a slug; a slug is a name made for URLs and paths, and white space is the one thing no convention of one allows.',
    cite: { section: 'Resources and fields > Theme (item of themes list)', quote: 'string (slug)' },
    scope: { endpoints: ['listThemes', 'listPlugins'] },
  },
  {
    id: 'ASM-SFTP-REMOVE-READING',
    choice:
      'After an acknowledged removal of an additional SFTP account, the account leaves its environment\'s `additional_sftp_accounts` (read until it does, within the state window), and every other account stays as it was listed: STATE-SFTP-REMOVE checks both.',
    why: 'The document names the action "Additional SFTP account removal" and shows the list; that a removal takes the account it names, and only that one, from the list is our reading of the name.',
    cite: { section: 'Endpoints > Conventions', quote: 'Additional SFTP account removal' },
    scope: { endpoints: ['removeAdditionalSftpAccount', 'listAdditionalSftpAccounts'] },
  },
];

export const conflicts: readonly Conflict[] = [
  {
    id: 'CONFLICT-DNS-READ-404',
    endpoints: ['listDnsRecords'],
    letter: { says: 'GET /domains/{domain_id}/dns-records answers 401 or 500 only.', cite: ERRORS_TABLE },
    reading: { says: 'An unknown or foreign domain is data that does not exist or may not be read: 404.', cite: READ_404 },
    extraStatus: 404,
    mock: 'reading',
    mockWhy: 'A service that finds no such domain answers 404, as every other read with a path id does.',
  },
  {
    id: 'CONFLICT-VALIDATE-404',
    endpoints: ['validateApiKey'],
    letter: { says: 'GET /validate answers 401 or 500 only (also §Authentication 3).', cite: ERRORS_TABLE },
    reading: { says: 'GET /validate is a read, and reads answer 404 for data that does not exist.', cite: READ_404 },
    extraStatus: 404,
    mock: 'letter',
    mockWhy: 'The request names no data: an unknown key is 401, so the mock never has a reason to answer 404 here.',
  },
  {
    id: 'CONFLICT-CDN-CLEAR-400',
    endpoints: ['clearCdnCache'],
    letter: { says: 'POST /sites/cdn/clear-cache answers 401 or 500 only.', cite: ERRORS_TABLE },
    reading: {
      says: '`environment_id` and `cdn_cache_id` are stated required, and a request without them is invalid: 400.',
      cite: INVALID_400,
    },
    extraStatus: 400,
    mock: 'reading',
    mockWhy: 'Accepting a request that lacks a stated required field would acknowledge an action that cannot run.',
  },
  {
    id: 'CONFLICT-EDGE-CACHE-400',
    endpoints: ['setEdgeCachingStatus'],
    letter: { says: 'PUT /sites/edge-caching/status answers 401 or 500 only.', cite: ERRORS_TABLE },
    reading: { says: 'Its fields are typed (`enabled` boolean); a body of wrong types or malformed JSON is invalid: 400.', cite: INVALID_400 },
    extraStatus: 400,
    mock: 'reading',
    mockWhy: 'A real service validates the switch value before acknowledging it.',
  },
  {
    id: 'CONFLICT-SSH-PASSWORD-500',
    endpoints: ['getSftpPassword'],
    letter: { says: 'GET .../ssh/password answers 400, 401 or 404 only.', cite: ERRORS_TABLE },
    reading: { says: '500 is the error for any server-side failure, listed for every other endpoint.', cite: { section: 'Errors', quote: '500 | Error occurred while processing the request | Server-side failure' } },
    extraStatus: 500,
    mock: 'letter',
    mockWhy: 'The mock has no failing back end, so it never answers 500 anywhere.',
  },
  {
    id: 'CONFLICT-THEMES-BODY-400',
    endpoints: ['listThemes'],
    letter: { says: 'GET .../wp-themes answers 401, 404 or 500 only.', cite: ERRORS_TABLE },
    reading: { says: 'It takes a JSON body (`status`, `column` strings); a malformed or mistyped body is invalid: 400.', cite: INVALID_400 },
    extraStatus: 400,
    mock: 'reading',
    mockWhy: 'A service that parses the body refuses one it cannot parse.',
  },
  {
    id: 'CONFLICT-ACTION-UNKNOWN-RESOURCE',
    endpoints: [
      'clearCdnCache',
      'setEdgeCachingStatus',
      'updateDnsRecords',
      'searchAndReplace',
      'changeWebrootSubfolder',
      'restoreBackup',
      'runWpCliCommand',
      'resetSite',
      'removeAdditionalSftpAccount',
      'createWpAdminUser',
      'changeSshExpirationInterval',
    ],
    letter: {
      says: 'No action lists 404; an action naming an unknown or foreign id (in its path or body) answers 400 where listed, or is acknowledged and fails later. DELETE .../additional-sftp-accounts/{sftp_account_id} lists neither 400 nor 404.',
      cite: ERRORS_TABLE,
    },
    reading: { says: 'The 404 condition is "Unknown resource or no permission", for any endpoint.', cite: { section: 'Errors', quote: '404 | Could not find data or the user does not have permissions to retrieve it | Unknown resource or no permission' } },
    extraStatus: 404,
    mock: 'reading',
    mockWhy: 'A real service looks the resource up before acknowledging and answers 404 when it is not the caller\'s.',
  },
  {
    id: 'CONFLICT-READ-MALFORMED-ID',
    endpoints: [
      'listCompanyUsers',
      'listApiKeys',
      'listAvailableRegions',
      'listDnsRecords',
      'getSite',
      'listEnvironments',
      'listBackups',
      'getFileList',
      'listPlugins',
      'listThemes',
      'listAdditionalSftpAccounts',
    ],
    letter: { says: 'These reads do not list 400: a non-UUID path id is data that does not exist (404, where listed).', cite: ERRORS_TABLE },
    reading: { says: 'Path ids are UUID strings; a non-UUID id is an invalid request: 400.', cite: INVALID_400 },
    extraStatus: 400,
    mock: 'letter',
    mockWhy: 'Answering 404 for every id that names nothing keeps the read behaviour uniform.',
  },
];
