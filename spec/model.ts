/**
 * The shapes of the spec model: one interface per concept of `hosted-site-api.md`.
 * The API itself is a value of type `Api` in `api.ts`; the generator, the mock and the
 * conformance suite all read that value, so nothing about the API is written twice.
 */

/** A pointer into the document: its section path, and where a word decides a type, the quote. */
export interface Cite {
  /** Section headings joined by ` > `, e.g. `Resources and fields > Site`. */
  readonly section: string;
  /** The document's own words, verbatim. */
  readonly quote?: string;
}

/**
 * String formats the document states (§Resources and fields). Each has a pattern, a
 * generator of valid values and near misses in `formats.ts`.
 */
export type StringFormat =
  | 'uuid'
  | 'date-time'
  | 'date-time-ms'
  | 'epoch-ms-string'
  | 'ipv4-maskable'
  | 'ip'
  | 'php-version'
  | 'dotted-version'
  | 'absolute-path'
  | 'relative-path'
  | 'url'
  | 'email'
  | 'hostname'
  | 'slug'
  | 'auto-update-label';

/** Values that occur in the document, while the full set is "not shown": a server may send others. */
export interface OpenSet {
  readonly occurs: readonly string[];
  readonly unknown: UnknownId;
}

/** A closed set of which only some members are shown (`exp_interval`: five values, one shown). */
export interface PartlyShownEnum {
  readonly shown: readonly string[];
  readonly size: number;
  /** The unknown that says the other members are not shown; absent once a document shows them all. */
  readonly unknown?: UnknownId;
}

/** The wire type of a value (§Resources and fields: "Types are as used by the wire format"). */
export type FieldType =
  | {
      readonly kind: 'string';
      readonly format?: StringFormat;
      readonly open?: OpenSet;
      readonly enum?: PartlyShownEnum;
      /** A stated limit, e.g. `wp_command` (§Limits). */
      readonly limit?: RuleId;
      readonly maxLength?: number;
      /** ECMAScript source of a stated regular expression. */
      readonly pattern?: string;
    }
  | { readonly kind: 'integer' }
  | { readonly kind: 'number'; readonly meaning?: 'epoch-ms' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'null' }
  | { readonly kind: 'any' }
  | { readonly kind: 'array'; readonly items: FieldType }
  | { readonly kind: 'object'; readonly fields: readonly Field[] }
  | { readonly kind: 'ref'; readonly resource: ResourceName };

/**
 * Whether a field must be present.
 * - `documented`: a response field the document lists; a conformant server sends it (a reading,
 *   not the letter: ASM-DOCUMENTED-FIELDS-PRESENT).
 * - `may-be-absent`: response fields the document says may be missing (`children` "absent on leaves", error `data`).
 * - `required`: a request field the document marks required.
 * - `not-shown`: a request field without marking ("Required or optional marking of body fields
 *   is stated only where given below; for all other body fields: not shown").
 */
export type Presence = 'documented' | 'may-be-absent' | 'required' | 'not-shown';

/**
 * What an identifier in a request names (§Resources and fields: "Identifiers (...)"; §Endpoints >
 * Conventions: "`{id}` is a company id; ..."): the thing a caller must already hold an id or name of.
 * `dns-record` is a record of the path's domain, named by host name ("the records named in").
 */
export type Referent =
  | 'company'
  | 'site'
  | 'environment'
  | 'domain'
  | 'dns-record'
  | 'backup'
  | 'additional-sftp-account'
  | 'cdn-cache'
  | 'company-user'
  /** A site-admin user of an environment, named by e-mail address; no read lists them. */
  | 'site-admin-user'
  /** An API key of the company: a request names the key it is sent with (§Authentication 3: "`GET /validate` returns the key's ..."). */
  | 'api-key';

export interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly presence: Presence;
  readonly doc: string;
  /** A secret the reports redact (API keys, `sftp_password`, `admin_password`). */
  readonly secret?: true;
  /**
   * A request field that names existing data: which (read by discovery, probes and the mock's
   * tests). On a response field: the thing whose id it holds (`Domain.site_id`: a site).
   */
  readonly refersTo?: Referent;
  /**
   * A response field that holds the id of the object it sits in (`Site.id`: the site): two
   * answers that show an object with the same id show the same thing (FACTS-AGREE).
   */
  readonly identifies?: Referent;
  /**
   * A response object that is the thing the request names (`environment` in the backups read:
   * the environment of `{env_id}`; for `api-key`, the key the request is sent with): its fields
   * are facts about that thing, and an id it holds is the request's.
   */
  readonly describes?: Referent;
  /**
   * Free text a person types (names, search terms): any Unicode is a valid value. The document
   * types it as a bare string; that it is free text is read from its meaning.
   */
  readonly freeText?: true;
  /**
   * Where the field's type, or what a valid request puts in it, rests on a choice of ours, not
   * the document: never broken by that choice, and named by a failure of a request that relies on it.
   */
  readonly assumption?: AssumptionId;
}

export type ResourceName =
  | 'Site'
  | 'SiteEnvironmentSummary'
  | 'Environment'
  | 'Domain'
  | 'DnsRecord'
  | 'Backup'
  | 'Theme'
  | 'Plugin'
  | 'AdditionalSftpAccount'
  | 'FileNode'
  | 'ApiKey'
  | 'ValidatedKey'
  | 'CompanyUser'
  | 'Region'
  | 'ErrorBody'
  | 'Acknowledgement'
  | 'ResourceRecordValue';

export interface Resource {
  readonly name: ResourceName;
  readonly doc: string;
  readonly cite: Cite;
  readonly fields: readonly Field[];
  /** The resource is the thing the request names (see `Field.describes`): the validated key is the key in use. */
  readonly describes?: Referent;
  /**
   * Fields the document says the resource does not have ("There are no vulnerability flags and
   * no auto_update_type"): an answer that carries one is not the document's.
   */
  readonly without?: { readonly fields: readonly string[]; readonly cite: Cite };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** An operation as the document writes it: `METHOD /path/template`. */
export type OperationName = `${HttpMethod} /${string}`;

/** Tag groups the document names whose endpoints it shows (§What the service does). */
export type TagGroup =
  | 'Company Users'
  | 'Domains'
  | 'Available Regions'
  | 'API Keys'
  | 'Site management'
  | 'Site Environments'
  | 'Site Tools'
  | 'Site Themes & Plugins'
  | 'Edge Caching'
  | 'CDN'
  | 'Backups'
  | 'Additional SFTP Users'
  | 'Authentication';

/** Groups the document names but whose endpoints are "not shown" (UNK-HIDDEN-GROUPS). */
export type HiddenTagGroup = 'Activity Logs' | 'Site Domains' | 'Logs' | 'Analytics' | 'Operations';

/** Operation-id kinds (§Endpoints > Conventions, the kind-prefix table). */
export type OperationKind =
  | 'cdn-cache:clear'
  | 'domains:update-dns-record'
  | 'environments:search-and-replace'
  | 'sites:change-webroot-subfolder'
  | 'backups:restore'
  | 'environment:run-wp-cli-command'
  | 'sites:reset-site'
  | 'edge-cache:update-status'
  | 'sftp-accounts:remove-additional-sftp-account';

/** How an endpoint succeeds. */
export type Success =
  /** Read endpoints: "Read calls answer with the data directly"; status not shown. */
  | { readonly kind: 'data'; readonly body: FieldType }
  /** Acknowledged actions: HTTP 202 with the Acknowledgement body. */
  | { readonly kind: 'ack'; readonly operationKind: OperationKind }
  /** Other actions: a body, status not shown. */
  | { readonly kind: 'sync-action'; readonly body: FieldType };

/** What a successful call does, for the suite's safety rules (ours, derived from the document). */
export type Effect = 'read' | 'mutating' | 'destructive';

export type ErrorStatus = 400 | 401 | 404 | 500;

export interface Param {
  readonly name: string;
  readonly type: FieldType;
  readonly presence: Presence;
  readonly doc: string;
  /** What the parameter names (§Endpoints > Conventions). */
  readonly refersTo?: Referent;
  /** Where the document leaves the name open and we must choose one. */
  readonly assumption?: AssumptionId;
}

/** A request field whose value a field of the named data takes or loses: `from` (request) to `to` (resource). */
export interface FieldFlow {
  readonly from: string;
  readonly to: string;
  /** Where the document does not say so itself: the reading, named in failures that rest on it. */
  readonly assumption?: AssumptionId;
}

/**
 * What a successful action does to the data it names (§Endpoints > Behaviours stated for
 * endpoints; the actions' tables): the state properties check that it does that, and that
 * everything else the same list holds stays as it was.
 */
export interface Effects {
  /** The data it names, and the path parameters or body fields that name it. */
  readonly names: { readonly referent: Referent; readonly by: readonly string[] };
  /** It removes what it names (an SFTP account removal). */
  readonly removes?: true;
  /** It creates what it names (a site-admin user). */
  readonly creates?: true;
  /** Values of a request list it adds to, and takes from, a list of what it names. */
  readonly adds?: FieldFlow;
  readonly takesAway?: FieldFlow;
  /** Fields of what it names that take the request's value. */
  readonly sets?: readonly FieldFlow[];
  readonly cite: Cite;
}

export interface Endpoint {
  /** The client method name; also the operation's key across generated files. */
  readonly name: string;
  readonly method: HttpMethod;
  /** The path template exactly as the document writes it, relative to the `/v2` base. */
  readonly path: string;
  readonly summary: string;
  readonly tag: TagGroup;
  readonly pathParams: readonly Param[];
  readonly queryParams: readonly Param[];
  /** Body fields, or undefined where the document says "none". */
  readonly body?: readonly Field[];
  readonly success: Success;
  /** The per-endpoint error-status table (§Errors), to the letter. */
  readonly errors: readonly ErrorStatus[];
  readonly effect: Effect;
  /** What it does to the data it names, where the document says (actions the state properties observe). */
  readonly effects?: Effects;
  /**
   * §Versioning: the endpoint is deprecated. `replacement` is the operation the document names
   * in its stead (`METHOD /path` as it writes it), or the unknown that says it does not name one.
   */
  readonly deprecated?: { readonly cite: Cite; readonly replacement: UnknownId | OperationName };
  readonly cite: Cite;
}

/** Stable rule ids, used by checks, reports and tests. */
export type RuleId =
  | 'AUTH-BEARER'
  | 'AUTH-401'
  | 'AUTH-SCHEME-CASE'
  | 'ERR-BODY'
  | 'STATUS-SET'
  | 'CONTENT-TYPE'
  | 'ACK-202'
  | 'OPID-SHAPE'
  | 'OPID-KIND'
  | 'READ-404'
  | 'ISOLATION-WRITE'
  | 'RESPONSE-SCHEMA'
  | 'INPUT-400'
  | 'INPUT-ACCEPT'
  | 'NO-SERVER-ERROR'
  | 'LIMIT-WP-COMMAND'
  | 'LIMIT-EXP-INTERVAL'
  | 'LIMIT-WEB-ROOT-SUBFOLDER'
  | 'STATE-DNS-UPDATE'
  | 'STATE-SFTP-REMOVE'
  | 'STATE-WPA-USER'
  | 'BASE-PATH'
  | 'FACTS-AGREE'
  | 'NO-KEY-ECHO'
  | 'ACK-IN-PROGRESS'
  | 'ERR-MESSAGE';

/** Which endpoints a rule is checked on; data, so every consumer selects the same set. */
/** The named scopes of rules. */
export const SCOPE_NAMES = [
  'all',
  /** Checked once against the target, not per endpoint. */
  'target',
  /** Reads that name data by a path id (a read without ids has no data that could be missing). */
  'reads-with-ids',
  'acks',
  /** Endpoints whose table lists 400 and that take input to malform (a body or a query). */
  'with-400-and-input',
  /**
   * Actions (everything but reads) whose outcome an answer can show: they list 400 (a refusal), or
   * a read shows what they change (their `effects`).
   */
  'observable-actions',
  /** Endpoints that take a request body. */
  'with-body',
  'with-response-body',
  /**
   * Reads whose answer shows a fact the model also finds elsewhere: an id of what it holds, a
   * reference, or a field of the thing the request names that another answer shows too.
   */
  'shows-facts',
] as const;

export type Scope = (typeof SCOPE_NAMES)[number] | { readonly endpoints: readonly string[] };

export interface Rule {
  readonly id: RuleId;
  readonly title: string;
  /** The document's words the rule rests on. */
  readonly statement: string;
  readonly cite: Cite;
  readonly scope: Scope;
  /** Conflicts that loosen or tighten this rule on some endpoints. */
  readonly conflicts?: readonly ConflictId[];
}

export type UnknownId = `UNK-${string}`;
export type AssumptionId = `ASM-${string}`;
export type ConflictId = `CONFLICT-${string}`;

/** Something the document says is "not shown": no consumer may assert it. */
export interface Unknown {
  readonly id: UnknownId;
  readonly what: string;
  readonly cite: Cite;
}

/** A choice an implementation must make where the document is silent; named so reports can list it. */
export interface Assumption {
  readonly id: AssumptionId;
  readonly choice: string;
  readonly why: string;
  readonly cite: Cite;
  /** The endpoints whose requests or answers the choice shapes (reports list it when they were exercised). */
  readonly scope: Scope;
}

/**
 * Two statements of the document that disagree. `letter` is what the per-endpoint tables say,
 * `reading` the other statement; `mock` is the side our mock takes, as a real service most
 * likely would. The suite accepts either side unless run with `--strict` (the letter).
 */
export interface Conflict {
  readonly id: ConflictId;
  readonly endpoints: readonly string[];
  readonly letter: { readonly says: string; readonly cite: Cite };
  readonly reading: { readonly says: string; readonly cite: Cite };
  /** The status a server may add to the endpoint's table on the non-letter side. */
  readonly extraStatus?: ErrorStatus;
  readonly mock: 'letter' | 'reading';
  readonly mockWhy: string;
}

export interface Api {
  readonly title: string;
  readonly specVersion: string;
  readonly basePath: string;
  readonly document: string;
  /**
   * `owner`: what a key belongs to ("`<API_KEY>` is an API key of the company"): data a key reads
   * is its owner's, so every reference to the owner in its answers names the same one.
   */
  readonly auth: { readonly scheme: 'bearer'; readonly header: 'Authorization'; readonly owner: Referent; readonly cite: Cite };
  /** Where the document lists each endpoint's error statuses (every `Endpoint.errors`). */
  readonly errorTable: Cite;
  /** Every tag group the document names, in its order; hidden ones have no endpoint. */
  readonly tagGroups: readonly (TagGroup | HiddenTagGroup)[];
  readonly resources: readonly Resource[];
  readonly endpoints: readonly Endpoint[];
  readonly rules: readonly Rule[];
  readonly unknowns: readonly Unknown[];
  readonly assumptions: readonly Assumption[];
  readonly conflicts: readonly Conflict[];
  readonly errorMeanings: readonly { readonly status: ErrorStatus; readonly meaning: string; readonly condition: string }[];
}
