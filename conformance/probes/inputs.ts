/**
 * The inputs probe sources put into requests: which discovered id each path parameter and body
 * field names, valid requests built from them, stand-in bodies, requests a conformant server
 * must refuse, random unknown ids and wrong-typed values. Nothing here knows an endpoint by
 * name except where the document's words single one out (DNS names, free text).
 */
import fc from 'fast-check';
import { queryArb, requestBodyArb, requestFieldArb, testNetAddressArb } from '../../spec/arbitraries.ts';
import type { Endpoint, Field, FieldType, Referent } from '../../spec/model.ts';
import type { DiscoveredIds, Place, Target, Tenant } from '../types.ts';
import { defined } from '../defined.ts';
import { draw, drawValues, streamSeed, type Drawn, type RequestParts } from './request.ts';

/** A value, or why it cannot be had (the reason becomes a Skip). */
export type Found<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const found = <T>(value: T): Found<T> => ({ ok: true, value });
const missing = (reason: string): Found<never> => ({ ok: false, reason });

// ---- ids ------------------------------------------------------------------------------------------

type Ids = Partial<DiscoveredIds>;

interface Lookup {
  readonly of: (ids: Ids) => string | number | undefined;
  /** Why a request cannot name it: it was not discovered. */
  readonly missing: string;
}

/** Where the discovered ids hold what each referent of the model names. */
const lookups: Readonly<Record<Referent, Lookup>> = {
  company: { of: (ids) => ids.companyId, missing: 'no company id discovered' },
  site: { of: (ids) => ids.siteId, missing: 'no site id discovered' },
  environment: { of: (ids) => ids.envId, missing: 'no environment discovered' },
  domain: { of: (ids) => ids.domainId, missing: 'no domain discovered' },
  'dns-record': { of: (ids) => zoneOf(ids), missing: 'no domain with a name discovered (probe DNS records are named inside its zone)' },
  'additional-sftp-account': { of: (ids) => ids.sftpAccountIds?.[0], missing: 'no additional SFTP account discovered' },
  'cdn-cache': { of: (ids) => ids.cdnCacheId, missing: 'no CDN cache id discovered' },
  backup: { of: (ids) => ids.backupId, missing: 'no backup discovered' },
  'company-user': { of: (ids) => ids.userId, missing: 'no company user discovered' },
  // No read lists them: requests name made-up addresses (a 404 for one then holds: see checks/expectations.ts).
  'site-admin-user': { of: () => undefined, missing: 'no site-admin user can be discovered' },
};

/** Referents that belong to one environment: a request naming several must take them from the same one. */
const perEnvironment: ReadonlySet<Referent> = new Set(['environment', 'domain', 'dns-record', 'additional-sftp-account', 'cdn-cache', 'backup']);

/** The zone probe DNS records are named inside: the domain's own name, else that of one of its records. */
export const zoneOf = (ids: Ids): string | undefined => ids.domainName ?? ids.dnsRecord?.name;

/** What an endpoint's path parameters and body fields name, from the model. */
export const referentsOf = (endpoint: Endpoint): Referent[] =>
  [...endpoint.pathParams, ...(endpoint.body ?? [])].flatMap((p) => (p.refersTo ? [p.refersTo] : []));

/** The ids of one place (an environment and what it holds), as flat discovered ids. */
export function placeIds(place: Place): Ids {
  return {
    envId: place.envId,
    sftpEnvId: place.envId,
    sftpAccountIds: place.sftpAccountIds,
    ...defined({ cdnCacheId: place.cdnCacheId, domainId: place.domainId, domainName: place.domainName, dnsRecord: place.dnsRecord, backupId: place.backupId }),
  };
}

/**
 * The ids a request to `endpoint` names: from the first place (in the order discovery prefers
 * them, non-live first) that holds everything the endpoint refers to, so an environment and its
 * backup, CDN cache or domain always belong together; the flat ids when no place holds it all.
 */
export function idsFor(endpoint: Endpoint, ids: Ids): Ids {
  const needed = referentsOf(endpoint).filter((r) => perEnvironment.has(r));
  if (!needed.length || !ids.places) return ids;
  const place = ids.places.find((p) => needed.every((r) => lookups[r].of(placeIds(p)) !== undefined));
  return place ? { ...ids, ...placeIds(place) } : ids;
}

/** The value naming `referent` in `ids`, or why there is none. */
export function idOf(referent: Referent, ids: Ids): Found<string | number> {
  const value = lookups[referent].of(ids);
  return value === undefined ? missing(lookups[referent].missing) : found(value);
}

/**
 * The ids an invalid request names: the tenant's real ones, so the break is the only reason to
 * refuse it; but on an action of a target where destructive requests are not allowed, unknown
 * ones, so that a server that ignores the break still has nothing to act on (§Safety). (A server
 * that looks ids up before it validates then answers 404, which the check accepts: the price of safety.)
 */
export function idsForInvalid(endpoint: Endpoint, target: Target, seed: number): { readonly path: Found<Record<string, string>>; readonly ids: Ids; readonly idsUnknown: boolean } {
  if (target.allowDestructive || endpoint.effect === 'read') {
    const ids = idsFor(endpoint, target.main.ids);
    return { path: pathOf(endpoint, ids), ids, idsUnknown: false };
  }
  return { path: found(unknownPath(endpoint, streamSeed(seed, 'unknown-ids'))), ids: {}, idsUnknown: true };
}

/** Path values naming the tenant's data; `overrides` replace any by parameter name. */
export function pathOf(endpoint: Endpoint, ids: Ids, overrides: Readonly<Record<string, string>> = {}): Found<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const p of endpoint.pathParams) {
    const given = overrides[p.name];
    if (given !== undefined) {
      values[p.name] = given;
      continue;
    }
    if (!p.refersTo) throw new Error(`the model does not say what path parameter ${p.name} of ${endpoint.name} names`);
    const id = idOf(p.refersTo, ids);
    if (!id.ok) return id;
    values[p.name] = String(id.value);
  }
  return found(values);
}

/** Random UUIDs (version 4, without fast-check's bias to edge values): with overwhelming odds no server holds them. */
export const unknownUuids = (seed: number, n: number): string[] => draw(fc.noBias(fc.uuid({ version: 4 })), seed, n);

/** Path values that name nothing: a random UUID for each parameter. */
export function unknownPath(endpoint: Endpoint, seed: number): Record<string, string> {
  const uuids = unknownUuids(seed, endpoint.pathParams.length);
  return Object.fromEntries(endpoint.pathParams.map((p, i) => [p.name, uuids[i]!]));
}

// ---- DNS ------------------------------------------------------------------------------------------

export { testNetAddressArb };

export const probeLabelArb = fc.noBias(fc.stringMatching(/^[0-9a-f]{10}$/)).map((hex) => `hsc-probe-${hex}`);

/**
 * A host name for a probe record inside the discovered record's zone: a fresh label before the
 * record's name, without its leading `_service` or `*` labels (an A record there would be odd).
 */
export function probeRecordName(recordName: string, label: string): string {
  const labels = recordName.replace(/\.$/, '').split('.');
  while (labels.length > 1 && /^[_*]/.test(labels[0]!)) labels.shift();
  return [label, ...labels].join('.');
}

// ---- free text ------------------------------------------------------------------------------------

/**
 * Words from many scripts, astral planes and combining marks; each a plausible name. The first is
 * plain ASCII, where shrinking ends for a field whose Unicode does not matter to a failure, so a
 * minimal counterexample shows which field's text does.
 */
const unicodeWords = ['Ada', 'Zoë', 'Ærøskøbing', 'Дмитрий', '李小龍', 'محمد', 'नमस्ते', 'Ñoño', 'Łukasz', 'Ελένη', '𝒜𝓁𝒾𝒸ℯ', 'Åsa 😀', 'Nguyễn', 'ﾊﾟﾝ', 'ש״ס'];
/** Control, format, private-use and unassigned characters, and line or paragraph separators. */
const unprintable = /[\p{C}\p{Zl}\p{Zp}]/gu;

/**
 * Free text in the whole Unicode range: printable graphemes of any script and plane (emoji,
 * combining sequences, right-to-left), trimmed and non-empty, so no reading refuses it for its
 * form; a server that fails on it fails NO-SERVER-ERROR.
 */
export const unicodeTextArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...unicodeWords), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }))
  .map(([word, text]) => `${word} ${text.replace(unprintable, '')}`.replace(/\s+/gu, ' ').trim());

/**
 * A free-text field's value in full Unicode: the field's usual value (which keeps any safety
 * marker, such as the search text's probe prefix), then text of any script.
 */
const freeTextArb = (endpoint: Endpoint, field: Field): fc.Arbitrary<string> =>
  fc.tuple(requestFieldArb(endpoint, field), unicodeTextArb).map(([base, text]) => `${String(base)} ${text}`);

// ---- bodies ---------------------------------------------------------------------------------------

/** A probe DNS record's host name: a fresh label inside `zone`. */
const probeNameArb = (zone: string): fc.Arbitrary<string> => probeLabelArb.map((label) => probeRecordName(zone, label));

/** Field arbitraries that name the tenant's data; fails when one was not discovered. */
function bodyIdArbs(endpoint: Endpoint, ids: Ids): Found<Record<string, fc.Arbitrary<unknown>>> {
  const arbs: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of endpoint.body ?? []) {
    if (!field.refersTo) continue;
    const id = idOf(field.refersTo, ids);
    if (!id.ok) return id;
    arbs[field.name] = field.refersTo === 'dns-record' ? probeNameArb(String(id.value)) : fc.constant(id.value);
  }
  return found(arbs);
}

export interface ValidOptions {
  /** Path values to use instead of the discovered ones, by parameter name. */
  readonly path?: Readonly<Record<string, string>>;
  /** Full-Unicode values in free-text fields. */
  readonly freeText?: boolean;
}

/** `n` requests valid under every reading of the document, naming the tenant's data; each keeps its draw (for shrinking). */
export function validRequests(endpoint: Endpoint, tenant: Pick<Tenant, 'ids'>, seed: number, n: number, options: ValidOptions = {}): Found<(RequestParts & { readonly drawn?: Drawn })[]> {
  const ids = idsFor(endpoint, tenant.ids);
  const path = pathOf(endpoint, ids, options.path);
  if (!path.ok) return path;
  const queryArbitrary = endpoint.queryParams.length ? queryArb(endpoint) : undefined;
  const queries = queryArbitrary && drawValues(queryArbitrary, streamSeed(seed, 'query'), n);
  let bodyArbitrary: fc.Arbitrary<Record<string, unknown>> | undefined;
  if (endpoint.body) {
    const idArbs = bodyIdArbs(endpoint, ids);
    if (!idArbs.ok) return idArbs;
    const text = options.freeText ? Object.fromEntries(endpoint.body.filter((f) => f.freeText).map((f) => [f.name, freeTextArb(endpoint, f)])) : {};
    bodyArbitrary = requestBodyArb(endpoint, { ...idArbs.value, ...text });
  }
  const bodies = bodyArbitrary && drawValues(bodyArbitrary, streamSeed(seed, 'body'), n);
  return found(
    Array.from({ length: n }, (_, i) => {
      const query = queries?.[i];
      const body = bodies?.[i];
      const parts = (q = query?.value_, b = body?.value_): RequestParts => ({ path: path.value, ...(q ? { query: q } : {}), ...(b ? { body: { json: b } } : {}) });
      // Shrinking varies the body, else the query (no endpoint of the document takes both).
      let drawn: Drawn | undefined;
      if (body && bodyArbitrary) drawn = { arbitrary: bodyArbitrary, value: body, parts: (b: Record<string, unknown>) => parts(undefined, b) };
      else if (query && queryArbitrary) drawn = { arbitrary: queryArbitrary, value: query, parts: (q: Record<string, string>) => parts(q) };
      return { ...parts(), ...(drawn ? { drawn } : {}) };
    }),
  );
}

/**
 * A body of the right shape naming the tenant's data where it is known and random stand-ins
 * where not; `madeUp` lists the fields that hold a stand-in (a server may refuse those as
 * unknown with 404 before it looks at anything else). `drawn` is the body's draw, for shrinking.
 */
export function standInBody(
  endpoint: Endpoint,
  ids: Ids,
  seed: number,
): { readonly body: Record<string, unknown>; readonly madeUp: readonly string[]; readonly drawn: Omit<Drawn<Record<string, unknown>>, 'parts'> } {
  if (!endpoint.body) throw new Error(`${endpoint.name} takes no request body`);
  const madeUp: string[] = [];
  const overrides: Record<string, fc.Arbitrary<unknown>> = {};
  const uuids = unknownUuids(streamSeed(seed, 'stand-in'), endpoint.body.length);
  endpoint.body.forEach((field, i) => {
    if (!field.refersTo) return;
    const id = idOf(field.refersTo, ids);
    if (!id.ok) madeUp.push(field.name);
    if (field.refersTo === 'dns-record') overrides[field.name] = probeNameArb(id.ok ? String(id.value) : 'example.com');
    else if (id.ok) overrides[field.name] = fc.constant(id.value);
    else if (isUuid(field)) overrides[field.name] = fc.constant(uuids[i]!);
  });
  const arbitrary = requestBodyArb(endpoint, overrides);
  const value = drawValues(arbitrary, streamSeed(seed, 'body'), 1)[0]!;
  return { body: value.value_, madeUp, drawn: { arbitrary, value } };
}

const isUuid = (field: Field): boolean => field.type.kind === 'string' && field.type.format === 'uuid';

// ---- wrong types ----------------------------------------------------------------------------------

/**
 * Values of other JSON types than the model's (§Resources and fields: "Types are as used by the
 * wire format"), none of which any reading of the type admits. Left out on purpose: `null`
 * (a server may read it as an absent unmarked field) and 0/1 for booleans (a common encoding).
 */
export function wrongTypes(type: FieldType): readonly unknown[] {
  switch (type.kind) {
    case 'string':
      return [42, true, {}];
    case 'integer':
      return [1.5, '10'];
    case 'number':
      return ['1', true];
    case 'boolean':
      return ['true', {}];
    case 'array':
      return [{}, 'x'];
    case 'object':
    case 'ref':
      return [[], 'x'];
    case 'null':
      return [false];
    case 'any':
      return [];
  }
}

/** A short, readable rendering of a value for probe titles. */
export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

// ---- refusals -------------------------------------------------------------------------------------

/**
 * A request to a mutating or destructive endpoint that a conformant server must refuse whatever
 * its credentials (§Safety): every path id and body id is a random unknown UUID, so a server that
 * ignores credentials still has nothing to act on. The body is otherwise well formed: a server
 * that validates bodies before it authenticates still reaches its 401. `why` says so for titles.
 */
export function refusal(endpoint: Endpoint, seed: number): RequestParts & { readonly why: string } {
  const path = unknownPath(endpoint, streamSeed(seed, 'path'));
  const ids = endpoint.pathParams.length ? ['unknown path ids'] : [];
  const built = endpoint.body ? standInBody(endpoint, {}, streamSeed(seed, 'body')) : undefined;
  const unknownBodyIds = built?.madeUp.filter((name) => endpoint.body!.some((f) => f.name === name && isUuid(f))) ?? [];
  if (unknownBodyIds.length) ids.push(`unknown ${unknownBodyIds.join(', ')}`);
  // Every action of the model names what it acts on by id; one that did not could not be made safe.
  if (ids.length === 0) throw new Error(`${endpoint.name}: no id to make unknown, so no request it must refuse`);
  return { path, ...(built ? { body: { json: built.body } } : {}), why: ids.join(', ') };
}
