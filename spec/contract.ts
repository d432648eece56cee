/**
 * The contract snapshot: the model as plain JSON data, the form `generated/contract.json` holds
 * and `hosted-site-contract diff` compares. It is the model with two changes of form, no new
 * facts: every endpoint is named as the document writes it (`METHOD /path`), beside the model's
 * own name, and the endpoints a rule, assumption or conflict covers are listed by that name too
 * (derived through `inScope`, so they are never written twice). The model's own prose (`doc`,
 * `summary`) is left out: it paraphrases the document, and a diff of paraphrases is noise; the
 * document's words the model quotes (citations, rule statements, gaps) are kept.
 *
 * Limits live where the model puts them, on the limited field's type (`maxLength`, `pattern`,
 * `enum`, `limit` naming the rule); operation-id kinds on each acknowledged endpoint's success.
 */
import type {
  Api,
  Assumption,
  Cite,
  Conflict,
  Effect,
  Endpoint,
  ErrorStatus,
  Field,
  FieldType,
  OperationName,
  Param,
  Presence,
  Referent,
  Resource,
  Rule,
  Scope,
  StringFormat,
  UnknownId,
} from './model.ts';
import { formats } from './formats.ts';
import { inScope } from './queries.ts';

/**
 * Names the snapshot format. @3: a success that is not acknowledged says which table of the
 * document lists it, `data` (a read) or `sync-action` (another action); @2 called both `plain`
 * (diff/snapshot.ts still reads @2, see there). @2: a plain success's `body` is a type (commits
 * of main before it wrote @1 with another shape; no release ever held @1).
 */
export const CONTRACT_FORMAT = 'hosted-site-contract/contract@3';

export interface ContractField {
  readonly name: string;
  readonly type: ContractType;
  readonly presence: Presence;
  readonly secret?: true;
  readonly refersTo?: Referent;
  readonly identifies?: Referent;
  readonly describes?: Referent;
  readonly freeText?: true;
  readonly assumption?: string;
}

/** A model `FieldType` whose nested fields are `ContractField`s. */
export type ContractType =
  | Exclude<FieldType, { kind: 'object' } | { kind: 'array' }>
  | { readonly kind: 'array'; readonly items: ContractType }
  | { readonly kind: 'object'; readonly fields: readonly ContractField[] };

/**
 * How an endpoint succeeds, as the model's `Success`: `acknowledged` (HTTP 202 and the
 * Acknowledgement body, §Endpoints > Conventions), `data` ("Read calls answer with the data
 * directly", §Endpoints > Read endpoints) or `sync-action` (§Endpoints > Other action endpoints
 * (not acknowledged with an operation id)); the last two a body whose status is not shown
 * (UNK-SYNC-SUCCESS-STATUS: `status` null).
 */
export type ContractSuccess =
  | { readonly kind: 'acknowledged'; readonly status: 202; readonly operationKind: string; readonly body: ContractType }
  | { readonly kind: 'data' | 'sync-action'; readonly status: null; readonly body: ContractType };

/** The success kinds that answer with a body of their own (no acknowledgement). */
export const BODY_SUCCESS_KINDS = ['data', 'sync-action'] as const;

export interface ContractEndpoint {
  /** `METHOD /path` exactly as the document writes it: the endpoint's key. */
  readonly operation: OperationName;
  readonly name: string;
  readonly method: Endpoint['method'];
  readonly path: string;
  readonly tag: string;
  readonly effect: Effect;
  readonly pathParams: readonly ContractField[];
  readonly queryParams: readonly ContractField[];
  /** Absent where the document says "none". */
  readonly body?: readonly ContractField[];
  readonly success: ContractSuccess;
  readonly errors: readonly ErrorStatus[];
  readonly deprecated?: { readonly cite: Cite; readonly replacement: UnknownId | OperationName };
  readonly cite: Cite;
}

export interface ContractResource {
  readonly name: string;
  readonly cite: Cite;
  readonly fields: readonly ContractField[];
  readonly describes?: Referent;
  readonly without?: Resource['without'];
}

export interface ContractFormat {
  readonly name: StringFormat;
  readonly description: string;
  readonly pattern: string;
  readonly cite: Cite;
  readonly assumption?: string;
}

export interface ContractRule {
  readonly id: string;
  readonly title: string;
  readonly statement: string;
  readonly cite: Cite;
  readonly scope: Scope;
  readonly conflicts?: readonly string[];
  /** The endpoints the scope covers, derived. */
  readonly operations: readonly string[];
}

export interface ContractAssumption extends Omit<Assumption, 'scope'> {
  readonly scope: Scope;
  readonly operations: readonly string[];
}

export interface ContractConflict extends Omit<Conflict, 'endpoints'> {
  readonly operations: readonly string[];
}

export interface ContractSnapshot {
  readonly format: typeof CONTRACT_FORMAT;
  readonly title: string;
  readonly specVersion: string;
  readonly basePath: string;
  readonly document: string;
  readonly auth: Api['auth'];
  readonly errorTable: Api['errorTable'];
  readonly tagGroups: readonly string[];
  readonly formats: readonly ContractFormat[];
  readonly resources: readonly ContractResource[];
  readonly endpoints: readonly ContractEndpoint[];
  readonly rules: readonly ContractRule[];
  readonly unknowns: Api['unknowns'];
  readonly assumptions: readonly ContractAssumption[];
  readonly conflicts: readonly ContractConflict[];
  readonly errorMeanings: Api['errorMeanings'];
}

/** §Endpoints > Conventions: "Acknowledgement body (HTTP 202)" (the model's resource of that name). */
const ACKNOWLEDGEMENT: ContractType = { kind: 'ref', resource: 'Acknowledgement' };

const operationOf = (e: Pick<Endpoint, 'method' | 'path'>): OperationName => `${e.method} ${e.path}` as OperationName;

function contractType(type: FieldType): ContractType {
  switch (type.kind) {
    case 'object':
      return { kind: 'object', fields: type.fields.map(contractField) };
    case 'array':
      return { kind: 'array', items: contractType(type.items) };
    default:
      return type;
  }
}

/** A field or parameter without its prose; optional marks only where the model sets them. */
function contractField(f: Field | Param): ContractField {
  const { name, presence } = f;
  return {
    name,
    type: contractType(f.type),
    presence,
    ...('secret' in f && f.secret ? { secret: true as const } : {}),
    ...(f.refersTo ? { refersTo: f.refersTo } : {}),
    ...('identifies' in f && f.identifies ? { identifies: f.identifies } : {}),
    ...('describes' in f && f.describes ? { describes: f.describes } : {}),
    ...('freeText' in f && f.freeText ? { freeText: true as const } : {}),
    ...(f.assumption ? { assumption: f.assumption } : {}),
  };
}

function contractEndpoint(e: Endpoint): ContractEndpoint {
  const success: ContractSuccess =
    e.success.kind === 'ack'
      ? { kind: 'acknowledged', status: 202, operationKind: e.success.operationKind, body: ACKNOWLEDGEMENT }
      : { kind: e.success.kind, status: null, body: contractType(e.success.body) };
  return {
    operation: operationOf(e),
    name: e.name,
    method: e.method,
    path: e.path,
    tag: e.tag,
    effect: e.effect,
    pathParams: e.pathParams.map(contractField),
    queryParams: e.queryParams.map(contractField),
    ...(e.body ? { body: e.body.map(contractField) } : {}),
    success,
    errors: e.errors,
    ...(e.deprecated ? { deprecated: e.deprecated } : {}),
    cite: e.cite,
  };
}

/** The whole model as a snapshot: pure, deterministic (model order throughout). */
export function contractOf(api: Api): ContractSnapshot {
  const covered = (scoped: Pick<Rule, 'scope'>) => api.endpoints.filter((e) => inScope(scoped, e)).map(operationOf);
  const byName = new Map(api.endpoints.map((e) => [e.name, operationOf(e)]));
  const named = (names: readonly string[]) =>
    names.map((name) => {
      const found = byName.get(name);
      if (!found) throw new Error(`the model names an endpoint ${name} it does not hold`);
      return found;
    });
  return {
    format: CONTRACT_FORMAT,
    title: api.title,
    specVersion: api.specVersion,
    basePath: api.basePath,
    document: api.document,
    auth: api.auth,
    errorTable: api.errorTable,
    tagGroups: api.tagGroups,
    formats: (Object.keys(formats) as StringFormat[]).map((name) => {
      const { description, pattern, cite, assumption } = formats[name];
      return { name, description, pattern, cite, ...(assumption ? { assumption } : {}) };
    }),
    resources: api.resources.map((r) => ({ name: r.name, cite: r.cite, fields: r.fields.map(contractField), ...(r.describes ? { describes: r.describes } : {}), ...(r.without ? { without: r.without } : {}) })),
    endpoints: api.endpoints.map(contractEndpoint),
    rules: api.rules.map((r) => ({ ...r, operations: covered(r) })),
    unknowns: api.unknowns,
    assumptions: api.assumptions.map((a) => ({ ...a, operations: covered(a) })),
    conflicts: api.conflicts.map(({ endpoints, ...c }) => ({ ...c, operations: named(endpoints) })),
    errorMeanings: api.errorMeanings,
  };
}
