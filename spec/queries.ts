/** Facts derived from the model, so every consumer derives them the same way. */
import { api } from './api.ts';
import { formats } from './formats.ts';
import type { Api, Cite, Conflict, Endpoint, ErrorStatus, Field, FieldType, OperationKind, Referent, Resource, ResourceName, Rule } from './model.ts';

/** `METHOD /path/template`, exactly as the document writes it: the name reports use. */
export const operation = (e: Endpoint): string => `${e.method} ${e.path}`;

const byName = new Map(api.endpoints.map((e) => [e.name, e]));
export function endpoint(name: string): Endpoint {
  const found = byName.get(name);
  if (!found) throw new Error(`no endpoint named ${name} in the model`);
  return found;
}

const resourcesByName = new Map<ResourceName, Resource>(api.resources.map((r) => [r.name, r]));
export function resource(name: ResourceName): Resource {
  const found = resourcesByName.get(name);
  if (!found) throw new Error(`no resource named ${name} in the model`);
  return found;
}

export const isRead = (e: Endpoint): boolean => e.effect === 'read';
export const isAck = (e: Endpoint): e is Endpoint & { success: { kind: 'ack'; operationKind: OperationKind } } =>
  e.success.kind === 'ack';

/** The conflicts of the document that concern an endpoint. */
export const conflictsOf = (e: Endpoint): readonly Conflict[] => api.conflicts.filter((c) => c.endpoints.includes(e.name));

/**
 * Error statuses an endpoint may answer: the per-endpoint table to the letter, plus, unless
 * `strict`, the status each conflicting statement of the document adds.
 */
export function allowedErrorStatuses(e: Endpoint, options: { strict: boolean }): readonly ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(e.errors);
  if (!options.strict) for (const c of conflictsOf(e)) if (c.extraStatus) statuses.add(c.extraStatus);
  return [...statuses].sort((a, b) => a - b);
}

/** The statuses our mock answers with: the letter plus the conflicts where it takes the reading. */
export function mockErrorStatuses(e: Endpoint): readonly ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(e.errors);
  for (const c of conflictsOf(e)) if (c.mock === 'reading' && c.extraStatus) statuses.add(c.extraStatus);
  return [...statuses].sort((a, b) => a - b);
}

/** Whether a rule's (or an assumption's) scope covers an endpoint. */
export function inScope(rule: Pick<Rule, 'scope'>, e: Endpoint): boolean {
  const scope = rule.scope;
  if (typeof scope === 'object') return scope.endpoints.includes(e.name);
  switch (scope) {
    case 'all':
      return true;
    case 'target':
      return false;
    case 'reads-with-ids':
      return isRead(e) && e.pathParams.length > 0;
    case 'acks':
      return isAck(e);
    case 'with-400-and-input':
      return e.errors.includes(400) && (e.body !== undefined || e.queryParams.length > 0);
    case 'observable-actions':
      return !isRead(e) && (e.errors.includes(400) || e.effects !== undefined);
    case 'with-body':
      return e.body !== undefined;
    case 'with-response-body':
      return !isAck(e);
    case 'shows-facts':
      return showsFacts(e);
  }
}

/** The resources whose fields are facts about a referent: those with a field that identifies it. */
const identifiedBy = (referent: Referent): Resource[] => api.resources.filter((r) => r.fields.some((f) => f.identifies === referent));

/** Dotted paths of the leaves of `fields` (objects are walked, arrays and resources are leaves). */
export function leafPaths(fields: readonly Field[], prefix = ''): string[] {
  return fields.flatMap((f) => (f.type.kind === 'object' ? leafPaths(f.type.fields, `${prefix}${f.name}.`) : [`${prefix}${f.name}`]));
}

/** The leaf paths another answer can show of a referent: the fields of every resource that identifies it. */
export const factPathsOf = (referent: Referent): ReadonlySet<string> => new Set(identifiedBy(referent).flatMap((r) => leafPaths(r.fields)));

/**
 * Whether a read's answer shows a fact the model also finds elsewhere (scope `shows-facts`): a
 * field that identifies or refers to something, a resource that is the thing the request names,
 * or a field of an object that describes the thing the request names which another answer shows too.
 */
const showsFacts = (e: Endpoint): boolean => isRead(e) && e.success.kind === 'data' && holdsFact(e.success.body);

/** A field that is a fact: it identifies or refers to something, or describes what the request names with a field another answer shows too. */
const isFact = (f: Field): boolean =>
  f.identifies !== undefined || f.refersTo !== undefined || (f.describes !== undefined && f.type.kind === 'object' && leafPaths(f.type.fields).some((p) => factPathsOf(f.describes!).has(p)));

const holdsFact = holdsSome((type) => {
  if (type.kind === 'ref') return resource(type.resource).describes !== undefined || resource(type.resource).fields.some(isFact);
  return type.kind === 'object' && type.fields.some(isFact);
});

export const rule = (id: Rule['id']): Rule => {
  const found = api.rules.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id} in the model`);
  return found;
};

// Only syntax characters and `/`: under the `u` flag (ajv's default, and OpenAPI tools') any other
// escaped character, e.g. `\-`, is a syntax error.
/** Text as a regular expression matching itself (`/` too, for patterns written between slashes). */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export const is2xx = (status: number): boolean => status >= 200 && status <= 299;
const uuidBody = formats.uuid.pattern.slice(1, -1);

/** `<kind>-<UUID>` for one kind, anchored (§Endpoints > Conventions). */
export const operationIdPattern = (kind: OperationKind): string => `^${escapeRegex(kind)}-${uuidBody}$`;

/** Every kind of the document's table, for telling a wrong kind from a malformed id. */
export const operationKinds: readonly OperationKind[] = api.endpoints.flatMap((e) =>
  e.success.kind === 'ack' ? [e.success.operationKind] : [],
);

/** Which way a value travels: responses must carry documented fields, requests stated-required ones. */
export type Direction = 'response' | 'request';

/** Whether a field must be present: documented response fields; request fields the document marks required. */
export const mustBePresent = (field: Pick<Field, 'presence'>, direction: Direction): boolean =>
  direction === 'response' ? field.presence === 'documented' : field.presence === 'required';

/** Whether values of a type are epoch milliseconds: a number of meaning `epoch-ms`, or their decimal digits in a string. */
export const holdsEpochMs = (type: FieldType): boolean =>
  (type.kind === 'number' && type.meaning === 'epoch-ms') || (type.kind === 'string' && type.format === 'epoch-ms-string');

/** A value of a body with the model type it has there, and its path (keys and array indexes). */
export interface TypedValue {
  readonly path: readonly (string | number)[];
  readonly type: FieldType;
  readonly value: unknown;
}

/**
 * Every value of `value` that the model types, read along `type`, depth first. Values of other
 * shapes than the type's (a validator's business) and properties the model does not list are
 * passed over; so are the values of types `within` rules out, and all they hold.
 */
export function* typedValues(type: FieldType, value: unknown, path: readonly (string | number)[] = [], within?: (type: FieldType) => boolean): Generator<TypedValue> {
  if (within && !within(type)) return;
  yield { path, type, value };
  if (type.kind === 'array' && Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* typedValues(type.items, item, [...path, i], within);
  } else if ((type.kind === 'object' || type.kind === 'ref') && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = type.kind === 'object' ? type.fields : resource(type.resource).fields;
    for (const f of fields) if (Object.hasOwn(value, f.name)) yield* typedValues(f.type, (value as Record<string, unknown>)[f.name], [...path, f.name], within);
  }
}

/** `holds` is true of `type` or of a type it holds (its items, fields, the resource it names); kept per type. */
export function holdsSome(holds: (type: FieldType) => boolean): (type: FieldType) => boolean {
  const known = new WeakMap<FieldType, boolean>();
  const reading = new Set<string>();
  const test = (type: FieldType): boolean => {
    const kept = known.get(type);
    if (kept !== undefined) return kept;
    let answer: boolean;
    if (type.kind === 'ref') {
      // A resource that holds itself adds nothing the first reading does not find.
      if (reading.has(type.resource)) return holds(type);
      reading.add(type.resource);
      answer = holds(type) || resource(type.resource).fields.some((f) => test(f.type));
      reading.delete(type.resource);
    } else answer = holds(type) || (type.kind === 'array' ? test(type.items) : type.kind === 'object' ? type.fields.some((f) => test(f.type)) : false);
    // An answer reached inside a resource being read may lack what the rest of it holds: kept only at the top.
    if (reading.size === 0) known.set(type, answer);
    return answer;
  };
  return test;
}

/** Names of the fields marked secret in `type` and everything it holds (resources by reference aside: the resources are visited themselves). */
function secretNamesIn(type: FieldType, names = new Set<string>()): Set<string> {
  if (type.kind === 'object') {
    for (const f of type.fields) {
      if (f.secret) names.add(f.name);
      secretNamesIn(f.type, names);
    }
  }
  if (type.kind === 'array') secretNamesIn(type.items, names);
  return names;
}

const fieldsType = (fields: readonly Field[]): FieldType => ({ kind: 'object', fields });

/** Names of every field the model marks secret, for redaction. */
export const secretFieldNames: readonly string[] = (() => {
  const names = new Set<string>();
  for (const r of api.resources) secretNamesIn(fieldsType(r.fields), names);
  for (const e of api.endpoints) {
    secretNamesIn(fieldsType(e.body ?? []), names);
    if (e.success.kind !== 'ack') secretNamesIn(e.success.body, names);
  }
  return [...names].sort();
})();

const secretServers = new Set(api.endpoints.filter((e) => e.success.kind !== 'ack' && secretNamesIn(e.success.body).size > 0).map((e) => e.name));

/** The endpoint's success body holds a field the model marks secret (`GET …/ssh/password`): its answers are never shown as text. */
export const servesSecret = (e: Endpoint): boolean => secretServers.has(e.name);

/** Fill a path template, e.g. `/sites/{site_id}` with `{ site_id: '...' }`, encoding each value. */
export function fillPath(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

/** Where a read answers a resource: the endpoint, the keys down to it, and whether it is a list. */
export interface Location {
  readonly endpoint: Endpoint;
  readonly path: readonly string[];
  readonly list: boolean;
}

/**
 * The read that answers `name` itself (not inside another resource): the list of it, or the one
 * of it. Discovery reads the model this way rather than naming endpoints and container keys.
 */
export function readOf(name: ResourceName): Location {
  for (const e of api.endpoints.filter(isRead)) {
    if (e.success.kind !== 'data') continue;
    const found = locate(e.success.body, name, []);
    if (found) return { endpoint: e, ...found };
  }
  throw new Error(`no read of the model answers ${name}`);
}

function locate(type: FieldType, name: ResourceName, path: readonly string[]): { path: readonly string[]; list: boolean } | undefined {
  if (type.kind === 'ref') return type.resource === name ? { path, list: false } : undefined;
  if (type.kind === 'array') return type.items.kind === 'ref' && type.items.resource === name ? { path, list: true } : undefined;
  if (type.kind !== 'object') return undefined;
  for (const f of type.fields) {
    const found = locate(f.type, name, [...path, f.name]);
    if (found) return found;
  }
  return undefined;
}

/** Every citation a model makes of its document: what the tests hold against the document's text. */
export const citesOf = (model: Api): Cite[] => [
  model.auth.cite,
  ...model.resources.map((r) => r.cite),
  ...model.endpoints.flatMap((e) => [e.cite, ...(e.deprecated ? [e.deprecated.cite] : []), ...(e.effects ? [e.effects.cite] : [])]),
  ...model.rules.map((r) => r.cite),
  ...model.unknowns.map((u) => u.cite),
  ...model.assumptions.map((a) => a.cite),
  ...model.conflicts.flatMap((c) => [c.letter.cite, c.reading.cite]),
];

/** The verbatim pieces of a quote, which may elide with "..." or "(...)". */
export const quotePieces = (quote: string | undefined): string[] => (quote ?? '').split(/\s*\(?\.\.\.\)?\s*/).filter(Boolean);
