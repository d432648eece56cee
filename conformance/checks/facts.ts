/**
 * FACTS-AGREE (ASM-FACTS-SHOWN-TWICE): what the document shows in two places agrees. Facts are
 * read from each answer along the model, never from a table: which field identifies the object
 * it sits in (`identifies`), which object is the thing the request names (`describes`), which
 * field refers to what (`refersTo`), and what a key belongs to (`api.auth.owner`).
 *
 * - Within one answer, every answer: an object that is the thing the request names carries that
 *   thing's id, if it carries one (`site.id` is `{site_id}`); a reference to what an enclosing
 *   object is holds that object's id (every domain of site S has `site_id` S).
 * - Every answer to one key: its references to the key's owner (the company) name one company.
 * - Across answers read close together (discovery's and the snapshot's reads, taken before the run
 *   sends anything that could change the data: `Probe.snapshot`): a thing found by its id shows
 *   the same value for every field both answers give it (ids as UUIDs, instants as instants, lists
 *   of things as sets of ids); the key `GET /validate` describes is among its company's listed keys.
 *
 * The check keeps what it has seen per run (its check context). A disagreement between two
 * answers fails the rule on both operations: which one is wrong, no answer can tell.
 */
import { api } from '../../spec/api.ts';
import { formatRegex } from '../../spec/formats.ts';
import type { Field, FieldType, Referent } from '../../spec/model.ts';
import { holdsEpochMs, inScope, operation, resource, rule } from '../../spec/queries.ts';
import type { Check, CheckContext, Exchange, Verdict } from '../types.ts';
import { pathParamsOf } from './expectations.ts';
import { credentialsOf } from './credentials.ts';
import { is2xx } from './success.ts';
import { clip, isObject } from './values.ts';

const RULE = rule('FACTS-AGREE');
const OWNER = api.auth.owner;

/** A fact's value as compared: a string, a number or boolean, or a set of ids (sorted). */
type Fact = { readonly kind: 'id'; readonly value: string } | { readonly kind: 'instant'; readonly value: number } | { readonly kind: 'plain'; readonly value: string } | { readonly kind: 'ids'; readonly value: readonly string[] };

interface Seen {
  readonly fact: Fact;
  /** The operation that showed it, and how a reader finds it: `GET /sites/{site_id}: site.environments[1].is_premium`. */
  readonly op: string;
  readonly where: string;
  readonly exchange: Exchange;
}

/** What a run has seen, per key (never printed: only compared). */
interface Book {
  /** Per key, per thing (`environment 75c8…`), per field path: the first value seen. */
  readonly things: Map<string, Map<string, Map<string, Seen>>>;
  /** Per key: the owner (company) its answers name, first seen. */
  readonly owners: Map<string, Seen>;
  /** Per key: the key in use as `GET /validate` shows it, and each listing of its company's keys. */
  readonly inUse: Map<string, { readonly fields: Map<string, Seen> }>;
  readonly keyLists: Map<string, { readonly company: string; readonly items: Map<string, Seen>[]; readonly op: string; readonly exchange: Exchange }[]>;
}

const books = new WeakMap<CheckContext, Book>();
const bookOf = (context: CheckContext): Book => {
  let book = books.get(context);
  if (!book) books.set(context, (book = { things: new Map(), owners: new Map(), inUse: new Map(), keyLists: new Map() }));
  return book;
};

const isUuidType = (type: FieldType): boolean => type.kind === 'string' && type.format === 'uuid';
const isInstantType = (type: FieldType): boolean => holdsEpochMs(type) || (type.kind === 'string' && (type.format === 'date-time' || type.format === 'date-time-ms'));

/** A value as a fact of its model type; undefined where the value is not of the type (RESPONSE-SCHEMA's finding). */
function factOf(type: FieldType, value: unknown): Fact | undefined {
  if (isInstantType(type)) {
    const ms = typeof value === 'number' ? value : typeof value === 'string' ? (/^[0-9]+$/.test(value) ? Number(value) : Date.parse(value)) : NaN;
    return Number.isFinite(ms) ? { kind: 'instant', value: ms } : undefined;
  }
  if (isUuidType(type)) return typeof value === 'string' && formatRegex.uuid.test(value) ? { kind: 'id', value: value.toLowerCase() } : undefined;
  if (value === null || typeof value === 'object') return undefined;
  return { kind: 'plain', value: JSON.stringify(value) };
}

const sameFact = (a: Fact, b: Fact): boolean => {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'ids') return JSON.stringify(a.value) === JSON.stringify(b.value);
  return a.value === (b as typeof a).value;
};

const shown = (fact: Fact): string =>
  fact.kind === 'ids' ? `[${fact.value.map((id) => clip(id, 40)).join(', ')}]` : fact.kind === 'instant' ? new Date(fact.value).toISOString() : fact.kind === 'id' ? fact.value : clip(fact.value, 80);

const fieldsOf = (type: FieldType): readonly Field[] | undefined => (type.kind === 'object' ? type.fields : type.kind === 'ref' ? resource(type.resource).fields : undefined);
const describedBy = (type: FieldType, field?: Field): Referent | undefined => field?.describes ?? (type.kind === 'ref' ? resource(type.resource).describes : undefined);

/** The id an object's identifying field holds, and what it identifies. */
function identity(fields: readonly Field[], value: Record<string, unknown>): { referent: Referent; id: string } | undefined {
  const f = fields.find((x) => x.identifies !== undefined);
  if (!f) return undefined;
  const fact = factOf(f.type, value[f.name]);
  return fact && fact.kind !== 'ids' ? { referent: f.identifies!, id: String(fact.value) } : undefined;
}

/** A readable path: `site.environments[1].is_premium`. */
const pathText = (path: readonly (string | number)[]): string => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

interface Found {
  /** Single-answer problems. */
  readonly problems: string[];
  /** Things seen, by `referent id`: field path → fact, where. */
  readonly things: Map<string, Map<string, { fact: Fact; where: string }>>;
  /** Owner references: where, and the id. */
  readonly owners: { id: string; where: string }[];
  /** The key in use (an object describing `api-key` with no id). */
  inUse?: Map<string, { fact: Fact; where: string }>;
  /** Items identifying `api-key`, each its fields. */
  readonly keyItems: Map<string, { fact: Fact; where: string }>[];
}

/**
 * Reads an answer's facts along the model. `named`: the ids the request names, by referent (its
 * path parameters). Contexts are the enclosing objects that are things, innermost last.
 */
function read(type: FieldType, value: unknown, named: ReadonlyMap<Referent, string>, found: Found, path: (string | number)[], contexts: { referent: Referent; id: string }[], field?: Field): void {
  if (type.kind === 'array') {
    if (Array.isArray(value)) value.forEach((item, i) => read(type.items, item, named, found, [...path, i], contexts));
    return;
  }
  const fields = fieldsOf(type);
  if (!fields || !isObject(value)) return;
  const described = describedBy(type, field);
  const own = identity(fields, value);
  let thing = own;
  if (described && described !== 'api-key') {
    const id = named.get(described);
    if (id !== undefined) {
      if (own && own.referent === described && own.id !== id.toLowerCase()) {
        found.problems.push(`\`${pathText([...path, fields.find((f) => f.identifies)!.name])}\` is ${own.id}, but the request names ${described} ${id}: the answer is about that ${described}, so it carries its id`);
      }
      thing = { referent: described, id: id.toLowerCase() };
    }
  }
  const facts = new Map<string, { fact: Fact; where: string }>();
  const inner = thing ? [...contexts, thing] : contexts;
  for (const f of fields) {
    if (!Object.hasOwn(value, f.name)) continue;
    const v = value[f.name];
    const at = [...path, f.name];
    const where = pathText(at);
    if (f.refersTo) {
      const fact = factOf(f.type, v);
      if (fact?.kind === 'id') {
        if (f.refersTo === OWNER) found.owners.push({ id: fact.value, where });
        const context = [...contexts, ...(thing ? [thing] : [])].reverse().find((c) => c.referent === f.refersTo);
        if (context && context.id !== fact.value) found.problems.push(`\`${where}\` is ${fact.value}, but it sits in the answer about ${f.refersTo} ${context.id}: what it refers to is that ${f.refersTo}`);
      }
    }
    if (!f.secret) collect(f.type, v, f.name, facts, where);
    read(f.type, v, named, found, at, inner, f);
  }
  if (described === 'api-key' && !own) found.inUse = facts;
  else if (thing) {
    if (thing.referent === 'api-key') found.keyItems.push(facts);
    const key = `${thing.referent} ${thing.id}`;
    const before = found.things.get(key);
    if (!before) found.things.set(key, facts);
    else for (const [p, f] of facts) if (!before.has(p)) before.set(p, f);
  }
}

/** The facts an object's own fields show of it: values, the ids of things it holds, plain objects' leaves under a dotted path. */
function collect(type: FieldType, value: unknown, path: string, into: Map<string, { fact: Fact; where: string }>, where: string): void {
  if (type.kind === 'array') {
    const items = type.items;
    const itemFields = fieldsOf(items);
    const idField = itemFields?.find((f) => f.identifies);
    if (idField && Array.isArray(value)) {
      const ids = value.map((item) => (isObject(item) ? factOf(idField.type, item[idField.name]) : undefined));
      if (ids.every((f) => f && f.kind !== 'ids')) into.set(path, { fact: { kind: 'ids', value: ids.map((f) => String(f!.value)).sort() }, where });
    }
    return;
  }
  const fields = fieldsOf(type);
  if (fields) {
    if (!isObject(value)) return;
    const idField = fields.find((f) => f.identifies);
    if (idField && type.kind === 'ref') {
      // A thing held by this one (a primary domain): its id here, its own fields where it is read as a thing.
      const fact = factOf(idField.type, value[idField.name]);
      if (fact) into.set(path, { fact, where });
      return;
    }
    for (const f of fields) if (Object.hasOwn(value, f.name) && !f.describes && !f.secret) collect(f.type, value[f.name], `${path}.${f.name}`, into, `${where}.${f.name}`);
    return;
  }
  const fact = factOf(type, value);
  if (fact) into.set(path, { fact, where });
}

/** The key a request is sent with (its bearer credential), or undefined. */
const keyOf = (exchange: Exchange): string | undefined => credentialsOf(exchange.probe.request).find((c) => c.from === 'authorization')?.value;

function referentIds(exchange: Exchange): Map<Referent, string> {
  const { endpoint, request } = exchange.probe;
  const values = pathParamsOf(endpoint, request.url) ?? {};
  const named = new Map<Referent, string>();
  for (const p of endpoint.pathParams) if (p.refersTo && values[p.name] !== undefined) named.set(p.refersTo, values[p.name]!);
  return named;
}

const disagreement = (subject: string, path: string, here: { fact: Fact; where: string }, op: string, there: Seen): string =>
  `${subject}: \`${here.where}\` here is ${shown(here.fact)}, but ${there.op} showed \`${there.where}\` as ${shown(there.fact)} (ASM-FACTS-SHOWN-TWICE; both read before the run changed anything)`;

export const factsAgree: Check = {
  rule: 'FACTS-AGREE',
  applies: (exchange) => exchange.response !== undefined && is2xx(exchange.response.status) && exchange.response.json !== undefined && inScope(RULE, exchange.probe.endpoint),
  check: (context, exchange): Verdict | undefined => {
    const { endpoint } = exchange.probe;
    if (endpoint.success.kind !== 'data') return undefined;
    const found: Found = { problems: [], things: new Map(), owners: [], keyItems: [] };
    read(endpoint.success.body, exchange.response!.json, referentIds(exchange), found, [], []);
    const key = keyOf(exchange);
    const op = operation(endpoint);
    const problems = [...found.problems];
    const also: Exchange[] = [];
    if (key !== undefined) {
      const book = bookOf(context);
      // The key's owner, in every answer to it.
      for (const owner of found.owners) {
        const first = book.owners.get(key);
        if (!first) book.owners.set(key, { fact: { kind: 'id', value: owner.id }, op, where: owner.where, exchange });
        else if (first.fact.value !== owner.id) {
          problems.push(`\`${owner.where}\` is ${owner.id}, but ${first.op} showed \`${first.where}\` as ${shown(first.fact)}: the key is an API key of one company ("\`<API_KEY>\` is an API key of the company"), and what it reads is that company's`);
          if (first.exchange !== exchange) also.push(first.exchange);
        }
      }
      if (exchange.probe.snapshot) {
        let mine = book.things.get(key);
        if (!mine) book.things.set(key, (mine = new Map()));
        for (const [thing, facts] of found.things) {
          let seen = mine.get(thing);
          if (!seen) mine.set(thing, (seen = new Map()));
          for (const [p, here] of facts) {
            const there = seen.get(p);
            if (!there) seen.set(p, { ...here, op, exchange });
            else if (!sameFact(there.fact, here.fact)) {
              problems.push(disagreement(thing, p, here, op, there));
              if (there.exchange !== exchange) also.push(there.exchange);
            }
          }
        }
        problems.push(...keyInUse(book, key, found, op, exchange, also));
      }
    }
    if (!problems.length) return undefined;
    const [first, ...more] = problems;
    return {
      title: 'a fact the document shows twice disagrees',
      message: `${first}${more.length ? `; and ${more.length} more: ${more.slice(0, 2).join('; ')}` : ''}.`,
      ...(also.length ? { alsoOn: [...new Set(also)] } : {}),
    };
  },
};

/**
 * The key in use (`GET /validate`) and its company's key list: some listed key shows the same value
 * for every field both show (`name`, `status`, `expires_at` as an instant). Judged once both are seen.
 */
function keyInUse(book: Book, key: string, found: Found, op: string, exchange: Exchange, also: Exchange[]): string[] {
  const company = book.owners.get(key)?.fact.value;
  if (found.inUse) book.inUse.set(key, { fields: new Map([...found.inUse].map(([p, f]) => [p, { ...f, op, exchange }])) });
  const listedCompany = exchange.probe.endpoint.pathParams.some((p) => p.refersTo === OWNER) ? referentIds(exchange).get(OWNER)?.toLowerCase() : undefined;
  if (found.keyItems.length && listedCompany !== undefined) {
    const lists = book.keyLists.get(key) ?? [];
    lists.push({ company: listedCompany, items: found.keyItems.map((item) => new Map([...item].map(([p, f]) => [p, { ...f, op, exchange }]))), op, exchange });
    book.keyLists.set(key, lists);
  }
  const inUse = book.inUse.get(key);
  if (!inUse || company === undefined || !(found.inUse || found.keyItems.length)) return [];
  const problems: string[] = [];
  for (const list of book.keyLists.get(key) ?? []) {
    if (list.company !== company) continue;
    const matches = list.items.some((item) => [...inUse.fields].every(([p, f]) => !item.has(p) || sameFact(item.get(p)!.fact, f.fact)));
    if (matches) continue;
    const shared = [...inUse.fields.keys()].filter((p) => list.items.some((item) => item.has(p)));
    const first = [...inUse.fields.values()][0]!;
    problems.push(`the key in use, as ${first.op} describes it (${shared.map((p) => `\`${p}\` ${shown(inUse.fields.get(p)!.fact)}`).join(', ')}), is not among its company's keys as ${list.op} lists them (no key there shows the same ${shared.join(', ')}): "Company API keys are listed by \`GET /company/{id}/api-keys\`"`);
    for (const other of [first.exchange, list.exchange]) if (other !== exchange) also.push(other);
  }
  return problems;
}
