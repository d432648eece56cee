/**
 * The inputs probe sources put into requests: which discovered id each path parameter and body
 * field names, where a request may take it from (the safety rules on places), valid requests
 * built from them, stand-in bodies, requests a conformant server must refuse, random unknown ids
 * and wrong-typed values. Nothing here knows an endpoint by name: what each parameter and field
 * refers to, what an endpoint does (`effect`) and what it removes are read from the model.
 */
import fc from 'fast-check';
import { queryArb, requestBodyArb, requestFieldArb, testNetAddressArb } from '../../spec/arbitraries.ts';
import { api } from '../../spec/api.ts';
import type { Endpoint, Field, FieldType, Referent } from '../../spec/model.ts';
import { endpoint as endpointNamed, isRead, operation } from '../../spec/queries.ts';
import type { DiscoveredIds, Place, Target } from '../types.ts';
import { defined } from '../defined.ts';
import { draw, drawValues, streamSeed, type Drawn, type RequestParts } from './request.ts';

/**
 * A value, or why it cannot be had (the reason becomes a Skip). `live`: why only a live
 * environment could serve a destructive request; `reason` is then `needs --allow-live (<live>)`.
 */
export type Found<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string; readonly live?: string };

const found = <T>(value: T): Found<T> => ({ ok: true, value });
const missing = (reason: string): Found<never> => ({ ok: false, reason });
const offLimits = (why: string): Found<never> => ({ ok: false, reason: `needs --allow-live (${why})`, live: why });

// ---- ids ------------------------------------------------------------------------------------------

export type Ids = Partial<DiscoveredIds>;

interface Lookup {
  readonly of: (ids: Ids) => string | number | undefined;
  /** Every one the ids hold, where a place holds several (default: `of`'s one). */
  readonly every?: (ids: Ids) => readonly (string | number)[];
  /** What it is, for reasons ("only the live environment has a backup"). */
  readonly noun: string;
  /** Why a request cannot name it: it was not discovered. */
  readonly missing: string;
}

/** Where the discovered ids hold what each referent of the model names. */
const lookups: Readonly<Record<Referent, Lookup>> = {
  company: { of: (ids) => ids.companyId, noun: 'company', missing: 'no company id discovered' },
  site: { of: (ids) => ids.siteId, noun: 'site', missing: 'no site id discovered' },
  environment: { of: (ids) => ids.envId, noun: 'environment', missing: 'no environment discovered' },
  domain: { of: (ids) => ids.domainId, noun: 'domain', missing: 'no domain discovered' },
  'dns-record': { of: (ids) => zoneOf(ids), noun: 'domain with a name', missing: 'no domain with a name discovered (probe DNS records are named inside its zone)' },
  'additional-sftp-account': {
    of: (ids) => ids.sftpAccountIds?.[0],
    every: (ids) => ids.sftpAccountIds ?? [],
    noun: 'additional SFTP account',
    missing: 'no additional SFTP account discovered',
  },
  'cdn-cache': { of: (ids) => ids.cdnCacheId, noun: 'CDN cache id', missing: 'no CDN cache id discovered' },
  backup: { of: (ids) => ids.backupId, noun: 'backup', missing: 'no backup discovered' },
  'company-user': { of: (ids) => ids.userId, noun: 'company user', missing: 'no company user discovered' },
  // No read lists them: requests name made-up addresses (a 404 for one then holds: see checks/expectations.ts).
  'site-admin-user': { of: () => undefined, noun: 'site-admin user', missing: 'no site-admin user can be discovered' },
  // A request names an API key only by the credentials it is sent with.
  'api-key': { of: () => undefined, noun: 'API key', missing: 'no request names an API key by id' },
};

const withArticle = (noun: string): string => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** Referents that belong to one environment: a request naming several must take them from the same one. */
const perEnvironment: ReadonlySet<Referent> = new Set(['environment', 'domain', 'dns-record', 'additional-sftp-account', 'cdn-cache', 'backup']);

/** The zone probe DNS records are named inside: the domain's own name, else that of one of its records. */
export const zoneOf = (ids: Ids): string | undefined => ids.domainName ?? ids.dnsRecord?.name;

/** What an endpoint's path parameters and body fields name, from the model. */
export const referentsOf = (endpoint: Endpoint): Referent[] =>
  [...endpoint.pathParams, ...(endpoint.body ?? [])].flatMap((p) => (p.refersTo ? [p.refersTo] : []));

/**
 * What a request to `endpoint` removes: what its path names, where the method is DELETE (RFC 9110
 * §9.3.5, "remove the association between the target resource and its current functionality";
 * §Endpoints: "Additional SFTP account removal"). Each such id serves one accepted request.
 */
export const removedBy = (endpoint: Endpoint): Referent | undefined => (endpoint.method === 'DELETE' ? endpoint.pathParams.at(-1)?.refersTo : undefined);

/** The ids of one place (an environment and what it holds), as flat discovered ids. */
export function placeIds(place: Place): Ids {
  return {
    envId: place.envId,
    sftpEnvId: place.envId,
    sftpAccountIds: place.sftpAccountIds,
    ...defined({ cdnCacheId: place.cdnCacheId, domainId: place.domainId, domainName: place.domainName, dnsRecord: place.dnsRecord, backupId: place.backupId }),
  };
}

// ---- places: the safety rules ---------------------------------------------------------------------

/** A live environment, as discovery judged it (ASM-LIVE-ENVIRONMENT); a place built by hand, by its name `live`. */
export const isLive = (place: Pick<Place, 'envName' | 'live'>): boolean => place.live === true || place.envName === 'live';

/**
 * Whether a request to `endpoint` may name what `place` holds. A destructive action (the model's
 * `effect`, e.g. a restore or an SFTP account removal) acts on a live environment only with
 * --allow-live: --allow-destructive lets the suite change a site the user can lose, not its
 * production environment. Reads, and mutating actions (e.g. clearing the CDN cache), may name a
 * live environment, as they did before discovery looked beyond the preferred environment (a site
 * with only a live environment got them there).
 */
export const mayActOn = (endpoint: Pick<Endpoint, 'effect'>, place: Pick<Place, 'envName'>, allowLive: boolean): boolean =>
  endpoint.effect !== 'destructive' || allowLive || !isLive(place);

/**
 * The choice `mayActOn` makes on this target, for the report's notes: stated where the site has a
 * live environment and valid actions are sent, and not on the embedded mock (our own, where every
 * action may act anywhere).
 */
export function liveSafetyNote(target: Target): string | undefined {
  const live = target.main.ids.places?.filter(isLive) ?? [];
  if (!target.allowDestructive || target.embedded || !live.length) return undefined;
  const where = live.map((p) => p.envId).join(', ');
  const destructive = api.endpoints.filter((e) => e.effect === 'destructive');
  const siteWide = destructive.filter((e) => !referentsOf(e).some((r) => perEnvironment.has(r))).map(operation);
  return target.allowLive
    ? `safety: --allow-live: destructive requests may act on the live environment (${where}) where no other holds what they need, and on the whole site (${siteWide.join(', ')}) (ASM-LIVE-ENVIRONMENT)`
    : `safety: destructive requests (the model's \`destructive\` effect: ${destructive.map(operation).join(', ')}) keep off the live environment (${where}), ` +
        `and those naming the whole site (${siteWide.join(', ')}) are not sent; reads and mutating requests may name it; --allow-live lets destructive ones act there too (ASM-LIVE-ENVIRONMENT)`;
}

const holds = (place: Place, referent: Referent): boolean => lookups[referent].of(placeIds(place)) !== undefined;

/**
 * The place a request to `endpoint` takes what it names from: the first (in the order discovery
 * prefers them, non-live first) that holds everything it refers to per environment and that it
 * may act on (`mayActOn`), so an environment and its backup, CDN cache or domain always belong
 * together. Undefined `value` when the endpoint names nothing of one environment. An action that
 * names the site but no environment of it (a site reset) acts on every environment, so a
 * destructive one needs every place allowed.
 */
export function placeFor(endpoint: Endpoint, places: readonly Place[], allowLive: boolean): Found<Place | undefined> {
  const needed = referentsOf(endpoint).filter((r) => perEnvironment.has(r));
  const allowed = places.filter((p) => mayActOn(endpoint, p, allowLive));
  if (!needed.length) return allowed.length === places.length ? found(undefined) : offLimits('it names the whole site, which has a live environment');
  const holdsAll = (p: Place) => needed.every((r) => holds(p, r));
  const place = allowed.find(holdsAll);
  if (place) return found(place);
  if (places.some(holdsAll)) {
    if (!allowed.length) return offLimits('the site has only its live environment');
    const lacking = needed.filter((r) => !allowed.some((p) => holds(p, r)));
    const nouns = (lacking.length ? lacking : needed).map((r) => withArticle(lookups[r].noun)).join(' and ');
    return offLimits(`only the live environment has ${nouns}${lacking.length ? '' : ' together'}`);
  }
  const absent = needed.find((r) => !places.some((p) => holds(p, r)));
  return missing(absent ? lookups[absent].missing : `no environment has ${needed.map((r) => withArticle(lookups[r].noun)).join(' and ')} together`);
}

/**
 * Where the actions that name `referent` take it from (the strictest of them decides): discovery
 * names the ids the STATE-* properties act on by the same rule as every request of the kit.
 */
export function placeOf(referent: Referent, places: readonly Place[], allowLive: boolean): Found<Place | undefined> {
  const actions = api.endpoints.filter((e) => !isRead(e) && referentsOf(e).includes(referent));
  const action = actions.find((e) => e.effect === 'destructive') ?? actions[0];
  if (!action) throw new Error(`no action of the model names ${referent}`);
  return placeFor(action, places, allowLive);
}

/**
 * The ids a request to `endpoint` names: those of its place (`placeFor`) over the tenant's. Ids
 * without places (built by hand, as the mock's tests do) are taken as they are.
 */
export function idsFor(endpoint: Endpoint, ids: Ids, allowLive = false): Found<Ids> {
  if (!ids.places?.length) return found(ids);
  const place = placeFor(endpoint, ids.places, allowLive);
  if (!place.ok) return place;
  return found(place.value ? { ...ids, ...placeIds(place.value) } : ids);
}

/** The value naming `referent` in `ids`, or why there is none. */
export function idOf(referent: Referent, ids: Ids): Found<string | number> {
  const value = lookups[referent].of(ids);
  return value === undefined ? missing(lookups[referent].missing) : found(value);
}

/** The STATE-* rule whose property removes what `referent` names (it is then left the others). */
const propertyRemoving = (referent: Referent): string | undefined =>
  api.rules.find((r) => r.id.startsWith('STATE-') && typeof r.scope === 'object' && r.scope.endpoints.some((name) => removedBy(endpointNamed(name)) === referent))?.id;

/**
 * The one of `referent`'s ids a single removal (INPUT-ACCEPT) may take: the last discovered,
 * when another is left for the STATE-* property that removes them (which leaves this one out of
 * its model, as its removal may still be settling when the property starts).
 */
export function spareOf(referent: Referent, ids: Ids): Found<string | number> {
  const lookup = lookups[referent];
  const all = lookup.every?.(ids) ?? [lookup.of(ids)].filter((v) => v !== undefined);
  const property = propertyRemoving(referent);
  if (all.length === 0) return missing(lookup.missing);
  if (!property) return found(all[0]!);
  if (all.length === 1) return missing(`only one ${lookup.noun} discovered, and ${property} removes it`);
  return found(all[all.length - 1]!);
}

/**
 * Path values for a removal (`removedBy`) that takes one spare id (`spareOf`) from the place the
 * endpoint may act on, or why there is none.
 */
export function removalPath(endpoint: Endpoint, ids: Ids, allowLive: boolean): Found<Record<string, string>> {
  const referent = removedBy(endpoint);
  const param = endpoint.pathParams.find((p) => p.refersTo === referent);
  if (!referent || !param) throw new Error(`${endpoint.name} removes nothing its path names`);
  const placed = idsFor(endpoint, ids, allowLive);
  if (!placed.ok) return placed;
  const spare = spareOf(referent, placed.value);
  return spare.ok ? found({ [param.name]: String(spare.value) }) : spare;
}

/** How the ids of an invalid request were chosen. */
export interface InvalidIds {
  readonly path: Found<Record<string, string>>;
  readonly ids: Ids;
  /** Every id is a random unknown one, on purpose; `because` says why (the flag that would allow real ones, and why it is needed). */
  readonly idsUnknown: boolean;
  readonly because?: { readonly flag: '--allow-destructive' | '--allow-live'; readonly why?: string };
}

/**
 * The ids an invalid request names: the tenant's real ones, so the break is the only reason to
 * refuse it; but on an action where valid requests are not allowed (no --allow-destructive, or
 * only the live environment holds what a destructive one names, without --allow-live), unknown
 * ones, so that a server that ignores the break still has nothing to act on (§Safety). (A server
 * that looks ids up before it validates then answers 404, which the check accepts: the price of
 * safety.) Where no place holds everything, the first place the endpoint may act on, with
 * stand-ins for the rest.
 */
export function idsForInvalid(endpoint: Endpoint, target: Target, seed: number): InvalidIds {
  const unknown = (because: InvalidIds['because']): InvalidIds => ({ path: found(unknownPath(endpoint, streamSeed(seed, 'unknown-ids'))), ids: {}, idsUnknown: true, because });
  if (!target.allowDestructive && endpoint.effect !== 'read') return unknown({ flag: '--allow-destructive' });
  const allowLive = target.allowLive === true;
  const real = (ids: Ids): InvalidIds => ({ path: pathOf(endpoint, ids), ids, idsUnknown: false });
  const ids = target.main.ids;
  const placed = idsFor(endpoint, ids, allowLive);
  if (placed.ok) return real(placed.value);
  if (placed.live) return unknown({ flag: '--allow-live', why: placed.live });
  const nearest = ids.places?.find((p) => mayActOn(endpoint, p, allowLive));
  if (!nearest) return unknown({ flag: '--allow-live', why: 'the site has only its live environment' });
  return real({ ...ids, ...placeIds(nearest) });
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
 * Free text holding one of every kind of character people type and servers mishandle: an
 * apostrophe and quotes (SQL, shell and JSON quoting), a backslash, `%` and `&` (URL and template
 * escaping), `<` (markup), letters beyond ASCII, CJK, right-to-left script and a character beyond
 * the BMP. Any string is valid free text: the canonical valid value, as `pattern:every-member` is
 * for a pattern.
 */
export const EVERY_KIND_OF_TEXT = `O'Brien "Zoë" \\ 100% & <b> 李 محمد 😀`;

/**
 * EVERY_KIND_OF_TEXT as an arbitrary: drawn whole every time (the canonical value), shrinking by
 * dropping its words, then single characters of a word, so that a failure shrinks to the
 * character it is about.
 */
class EveryKindOfText extends fc.Arbitrary<string> {
  generate(): fc.Value<string> {
    return new fc.Value(EVERY_KIND_OF_TEXT, undefined);
  }
  canShrinkWithoutContext(value: unknown): value is string {
    return typeof value === 'string';
  }
  shrink(value: string): fc.Stream<fc.Value<string>> {
    const words = value.split(' ').filter(Boolean);
    const without = (i: number, word?: string) => [...words.slice(0, i), ...(word ? [word] : []), ...words.slice(i + 1)].join(' ');
    const fewerWords = words.map((_, i) => without(i));
    const fewerCharacters = words.flatMap((word, i) => {
      const characters = [...word];
      return characters.length > 1 ? characters.map((_, k) => without(i, characters.filter((_, m) => m !== k).join(''))) : [];
    });
    return fc.Stream.of(...[...fewerWords, ...fewerCharacters].map((v) => new fc.Value(v, undefined)));
  }
}

/**
 * A free-text field's value in full Unicode: the field's usual value (which keeps any safety
 * marker, such as the search text's probe prefix), then text of any script (`every`: of every kind).
 */
const freeTextArb = (endpoint: Endpoint, field: Field, every = false): fc.Arbitrary<string> =>
  fc.tuple(requestFieldArb(endpoint, field), every ? new EveryKindOfText() : unicodeTextArb).map(([base, text]) => [String(base), text].filter(Boolean).join(' '));

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
  /** A destructive request may name a live environment's data (--allow-live); default not. */
  readonly allowLive?: boolean;
}

/** `n` requests valid under every reading of the document, naming the tenant's data; each keeps its draw (for shrinking). */
export function validRequests(endpoint: Endpoint, tenant: { readonly ids: Ids }, seed: number, n: number, options: ValidOptions = {}): Found<(RequestParts & { readonly drawn?: Drawn })[]> {
  const placed = idsFor(endpoint, tenant.ids, options.allowLive);
  if (!placed.ok) return placed;
  const ids = placed.value;
  const path = pathOf(endpoint, ids, options.path);
  if (!path.ok) return path;
  const queryArbitrary = endpoint.queryParams.length ? queryArb(endpoint) : undefined;
  const queries = queryArbitrary && drawValues(queryArbitrary, streamSeed(seed, 'query'), n);
  let bodies: { readonly arbitrary: fc.Arbitrary<Record<string, unknown>>; readonly value: fc.Value<Record<string, unknown>> }[] | undefined;
  if (endpoint.body) {
    const idArbs = bodyIdArbs(endpoint, ids);
    if (!idArbs.ok) return idArbs;
    const free = options.freeText ? endpoint.body.filter((f) => f.freeText) : [];
    const bodyArb = (every: boolean) => requestBodyArb(endpoint, { ...idArbs.value, ...Object.fromEntries(free.map((f) => [f.name, freeTextArb(endpoint, f, every)])) });
    const drawn = (arbitrary: fc.Arbitrary<Record<string, unknown>>, stream: string, count: number) => drawValues(arbitrary, streamSeed(seed, stream), count).map((value) => ({ arbitrary, value }));
    // The first request's free text holds every kind of character; the others draw theirs.
    bodies = free.length && n > 0 ? [...drawn(bodyArb(true), 'body-every', 1), ...drawn(bodyArb(false), 'body', n - 1)] : drawn(bodyArb(false), 'body', n);
  }
  return found(
    Array.from({ length: n }, (_, i) => {
      const query = queries?.[i];
      const body = bodies?.[i];
      const parts = (q = query?.value_, b = body?.value.value_): RequestParts => ({ path: path.value, ...(q ? { query: q } : {}), ...(b ? { body: { json: b } } : {}) });
      // Shrinking varies the body, else the query (no endpoint of the document takes both).
      let drawn: Drawn | undefined;
      if (body) drawn = { arbitrary: body.arbitrary, value: body.value, parts: (b: Record<string, unknown>) => parts(undefined, b) };
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
