/** The document's rules as data, each with a stable id and the words it rests on. */
import type { Rule } from './model.ts';

export const WP_COMMAND_PATTERN = "^wp\\s+[a-zA-Z0-9_\\-./:=@'\\s]+$";
export const WP_COMMAND_MAX_LENGTH = 5000;

export const rules: readonly Rule[] = [
  {
    id: 'AUTH-BEARER',
    title: 'Every endpoint requires a bearer API key',
    statement: 'Every endpoint requires the header `Authorization: Bearer <API_KEY>`, where `<API_KEY>` is an API key of the company.',
    cite: { section: 'Authentication', quote: 'Scheme: HTTP bearer.' },
    scope: 'all',
  },
  {
    id: 'AUTH-401',
    title: 'A missing or invalid key yields 401 with the error body',
    statement: 'A missing or invalid key yields HTTP 401 with message text stating that no or an invalid API key was provided.',
    cite: { section: 'Authentication' },
    scope: 'all',
  },
  {
    id: 'AUTH-SCHEME-CASE',
    title: 'The bearer scheme name is case-insensitive',
    statement: 'Scheme: HTTP bearer. (HTTP auth scheme names are case-insensitive: RFC 7235 §2.1, RFC 9110 §11.1.)',
    cite: { section: 'Authentication', quote: 'Scheme: HTTP bearer.' },
    scope: 'all',
  },
  {
    id: 'ERR-BODY',
    title: 'Every error has the error body, `status` equal to the HTTP status',
    statement: 'All errors use the Error body (`message`, `status`, `data`), with the HTTP status equal to `status`.',
    cite: { section: 'Errors' },
    scope: 'all',
  },
  {
    id: 'STATUS-SET',
    title: "Each status is the endpoint's success or one of its listed errors",
    statement: 'Statuses each endpoint can return besides its success: (per-endpoint table).',
    cite: { section: 'Errors', quote: 'Statuses each endpoint can return besides its success' },
    scope: 'all',
    conflicts: [
      'CONFLICT-DNS-READ-404',
      'CONFLICT-VALIDATE-404',
      'CONFLICT-CDN-CLEAR-400',
      'CONFLICT-EDGE-CACHE-400',
      'CONFLICT-SSH-PASSWORD-500',
      'CONFLICT-THEMES-BODY-400',
      'CONFLICT-ACTION-UNKNOWN-RESOURCE',
      'CONFLICT-READ-MALFORMED-ID',
    ],
  },
  {
    id: 'CONTENT-TYPE',
    title: 'Every body is JSON (`application/json`)',
    statement: 'All request and response bodies are JSON (`Content-Type: application/json`).',
    cite: { section: 'Hosted Site Management API Specification' },
    scope: 'all',
  },
  {
    id: 'ACK-202',
    title: 'Acknowledged actions answer 202 with the acknowledgement body',
    statement: 'Acknowledgement body (HTTP 202): `operation_id` (string), `message` (string), `status` (number, 202).',
    cite: { section: 'Endpoints > Conventions' },
    scope: 'acks',
  },
  {
    id: 'OPID-SHAPE',
    title: 'Operation ids have the shape `<kind>-<UUID>`',
    statement: 'Operation id shape: `<kind>-<UUID>`.',
    cite: { section: 'Endpoints > Conventions' },
    scope: 'acks',
  },
  {
    id: 'OPID-KIND',
    title: "An operation id's kind is the action's kind prefix",
    statement: 'Operation id shape: `<kind>-<UUID>`, with these kinds: (kind-prefix table).',
    cite: { section: 'Endpoints > Conventions' },
    scope: 'acks',
  },
  {
    id: 'READ-404',
    title: 'Reads of data that does not exist or may not be read answer 404',
    statement: 'Data that does not exist, or that the key\'s user may not read, yields 404 on read endpoints.',
    cite: { section: 'Authentication' },
    scope: 'reads-with-ids',
    conflicts: ['CONFLICT-DNS-READ-404', 'CONFLICT-READ-MALFORMED-ID'],
  },
  {
    id: 'ISOLATION-WRITE',
    title: "An action naming another company's data is refused, or does nothing to it",
    statement:
      "Every endpoint requires `Authorization: Bearer <API_KEY>`, where `<API_KEY>` is an API key of the company; a request naming data that does not exist or that the key's user may not use is refused (400 Malformed or invalid request; 404 Unknown resource or no permission). Where an action lists 400, naming another company's data is refused; where it lists no refusal (it may acknowledge and fail later), the other company's data, read with its own key, shows no effect. Clearing a CDN cache and switching edge caching list no refusal, and no read endpoint shows a cache's contents or the edge-caching status, so their outcome cannot be told from an acknowledgement without effect: the rule does not judge them.",
    cite: { section: 'Authentication', quote: 'where `<API_KEY>` is an API key of the company' },
    scope: 'observable-actions',
    conflicts: ['CONFLICT-ACTION-UNKNOWN-RESOURCE'],
  },
  {
    id: 'RESPONSE-SCHEMA',
    title: 'Success bodies have the documented fields, types and formats',
    statement: 'Types are as used by the wire format. (Resources and fields; response bodies of the endpoint tables.)',
    cite: { section: 'Resources and fields' },
    scope: 'with-response-body',
  },
  {
    id: 'INPUT-400',
    title: 'Malformed or invalid requests answer 400 where the endpoint lists 400',
    statement: '400 | Bad request format | Malformed or invalid request',
    cite: { section: 'Errors' },
    // The three SSH reads list 400 but take only a path id, whose malformed form READ-404 covers (400 or 404).
    scope: 'with-400-and-input',
    conflicts: ['CONFLICT-CDN-CLEAR-400', 'CONFLICT-EDGE-CACHE-400', 'CONFLICT-THEMES-BODY-400'],
  },
  {
    id: 'INPUT-ACCEPT',
    title: 'Requests valid under every reading of the document are accepted',
    statement: 'Long-running actions are accepted, not completed, when the call returns. Read calls answer with the data directly.',
    cite: { section: 'What the service does' },
    scope: 'all',
  },
  {
    id: 'NO-SERVER-ERROR',
    title: 'A valid request never gets a 5xx',
    statement: '500 | Error occurred while processing the request | Server-side failure',
    cite: { section: 'Errors' },
    scope: 'all',
  },
  {
    id: 'LIMIT-WP-COMMAND',
    title: '`wp_command`: at most 5000 characters, matching the stated pattern',
    statement: `\`wp_command\`: maximum length ${WP_COMMAND_MAX_LENGTH} characters; must match the regular expression \`${WP_COMMAND_PATTERN}\``,
    cite: { section: 'Limits' },
    scope: { endpoints: ['runWpCliCommand'] },
  },
  {
    id: 'LIMIT-EXP-INTERVAL',
    title: '`exp_interval`: required, one of five values (`days_7` shown)',
    statement: '`exp_interval` string, required, one of five enumerated values; `days_7` is one of them',
    cite: { section: 'Endpoints > Other action endpoints (not acknowledged with an operation id)' },
    scope: { endpoints: ['changeSshExpirationInterval'] },
  },
  {
    id: 'LIMIT-WEB-ROOT-SUBFOLDER',
    title: '`web_root_subfolder`: a path beginning with `/`',
    statement: '`web_root_subfolder` string, a path beginning with `/`',
    cite: { section: 'Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)' },
    scope: { endpoints: ['changeWebrootSubfolder'] },
  },
  {
    id: 'STATE-DNS-UPDATE',
    title: 'A DNS update adds and removes the named record values',
    statement: 'The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records`.',
    cite: { section: 'Endpoints > Behaviours stated for endpoints' },
    scope: { endpoints: ['updateDnsRecords', 'listDnsRecords'] },
  },
  {
    id: 'STATE-SFTP-REMOVE',
    title: 'A removed additional SFTP account leaves the list',
    statement: 'DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id} — Additional SFTP account removal.',
    cite: { section: 'Endpoints > Action endpoints (all answer the Acknowledgement body with HTTP 202 unless stated)' },
    scope: { endpoints: ['removeAdditionalSftpAccount', 'listAdditionalSftpAccounts'] },
  },
  {
    id: 'STATE-WPA-USER',
    title: 'A site-admin user created with success then exists (reading: ASM-WPA-CREATE-EXISTS)',
    statement:
      'POST /sites/environments/{env_id}/wpa-create-user answers `create_wp_admin_user` (boolean); GET /sites/environments/{env_id}/wpa-user-exists, given the admin user\'s e-mail address, answers `has_wp_admin_user` (boolean).',
    cite: { section: 'Endpoints > Other action endpoints (not acknowledged with an operation id)', quote: '`create_wp_admin_user` (boolean)' },
    scope: { endpoints: ['createWpAdminUser', 'checkWpAdminUserExists'] },
  },
  {
    id: 'FACTS-AGREE',
    title: 'Facts the document shows in two places agree',
    statement:
      "What the document shows twice is one fact: the fields of a thing (found by its id) in every answer that shows it (a site's environment summaries and the environments list, a domain wherever it is listed, the environment an answer about `{env_id}` describes); the id of what the request names, in an answer about it; a reference to what the answer is about (a domain's `site_id` in its site's answer); the company of a key (`GET /validate`'s `company`, and `company_id` of every site the key reads, \"an API key of the company\"); the key `GET /validate` describes, among its company's keys (\"Company API keys are listed by `GET /company/{id}/api-keys`\"). Read close together (discovery's reads, before the run changes anything), each agrees (ASM-FACTS-SHOWN-TWICE).",
    cite: { section: 'Resources and fields', quote: 'Site-environment summary (id, name, display_name, is_premium: boolean, is_blocked: boolean, domains: array of Domain, primaryDomain: Domain)' },
    scope: 'shows-facts',
  },
  {
    id: 'NO-KEY-ECHO',
    title: "Answers never carry the caller's API key (a security failure: OWASP API3:2023)",
    statement:
      "`<API_KEY>` is an API key of the company, sent in the `Authorization` header; no field of the document holds a key (an API key list item and the validated key carry its id, name, status, expiry and company). An answer that carries the valid key its request was sent with, in any header or body, exposes the credential to every log, cache and client on the way: a security failure (OWASP API3:2023, excessive data exposure), not a statement of the document (ASM-KEY-NOT-SERVED). An echo of a key the target refused is a warning.",
    cite: { section: 'Authentication', quote: 'where `<API_KEY>` is an API key of the company' },
    scope: 'all',
  },
  {
    id: 'ACK-IN-PROGRESS',
    title: "An acknowledgement's message says the action is in progress",
    statement: 'An asynchronous action that is accepted is reported as in progress through its 202 message. (Webroot change: the 202 message says the change is in progress.)',
    cite: { section: 'States and transitions', quote: 'An asynchronous action that is accepted is reported as in progress through its 202 message.' },
    scope: 'acks',
  },
  {
    id: 'ERR-MESSAGE',
    title: "An error's message states its status's meaning",
    statement:
      '| Status | Message meaning | Condition |: 400 "Bad request format", 401 "No or invalid API key provided", 404 "Could not find data or the user does not have permissions to retrieve it", 500 "Error occurred while processing the request". A message that states another status\'s meaning in the table\'s own words and none of its own contradicts the table; one that states neither is a warning (ASM-MESSAGE-WORDS). The 401 wording is AUTH-401\'s.',
    cite: { section: 'Errors', quote: 'Message meaning' },
    scope: 'all',
  },
  {
    id: 'BASE-PATH',
    title: 'The base path ends in the version segment `/v2`',
    statement: 'the path of {base_url} ends in the version segment `/v2`',
    cite: { section: 'Versioning', quote: 'The version is carried in the base path: `/v2`.' },
    scope: 'target',
  },
];
