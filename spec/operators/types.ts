/**
 * Wrong JSON types, at every place of a request body the model types (§Resources and fields:
 * "Types are as used by the wire format"; §Errors: 400 "Malformed or invalid request"): every
 * JSON type but the right one, the string spellings of a number or a boolean where the number
 * or boolean is due, fractions where an integer is due, `null` where a field is stated required,
 * at the top level and inside arrays (the first item, and the last of several: a validator that
 * checks only the first fails) and the objects they hold.
 */
import fc from 'fast-check';
import { valueArb } from '../arbitraries.ts';
import type { Field, FieldType } from '../model.ts';
import { resource } from '../queries.ts';
import { operator, type Applied, type Operator } from './operator.ts';

const WIRE = '§Resources and fields: "Types are as used by the wire format"; §Errors: 400 "Malformed or invalid request"';

export const typeOperators = {
  numberForString: operator({ id: 'type:number-for-string', family: 'type', title: 'a number where a string is due', reading: WIRE, expect: 'invalid', rank: 1 }),
  booleanForOther: operator({ id: 'type:boolean', family: 'type', title: 'a boolean where another type is due', reading: WIRE, expect: 'invalid', rank: 3 }),
  stringForOther: operator({ id: 'type:string', family: 'type', title: 'a string where another type is due', reading: WIRE, expect: 'invalid', rank: 2 }),
  arrayForOther: operator({ id: 'type:array', family: 'type', title: 'an array where another type is due', reading: WIRE, expect: 'invalid', rank: 2 }),
  objectForOther: operator({ id: 'type:object', family: 'type', title: 'an object where another type is due', reading: WIRE, expect: 'invalid', rank: 2 }),
  numericString: operator({ id: 'type:numeric-string', family: 'type', title: 'the number as a string', reading: WIRE, expect: 'invalid', rank: 0 }),
  fraction: operator({ id: 'type:fraction', family: 'type', title: 'a fractional number where an integer is due', reading: WIRE, expect: 'invalid', rank: 0 }),
  booleanString: operator({ id: 'type:boolean-string', family: 'type', title: 'the boolean as a string', reading: WIRE, expect: 'invalid', rank: 0 }),
  numberForBoolean: operator({ id: 'type:number-for-boolean', family: 'type', title: 'a number where a boolean is due', reading: WIRE, expect: 'invalid', rank: 0 }),
  nullForRequired: operator({ id: 'type:null-for-required', family: 'type', title: '`null` for a field stated required', reading: `${WIRE}; the field is stated required`, expect: 'invalid', rank: 1 }),
  scalarItem: operator({ id: 'type:scalar-item', family: 'type', title: 'an item that is not the object the array holds', reading: WIRE, expect: 'invalid', rank: 0 }),
  laterItem: operator({ id: 'type:later-item', family: 'type', title: 'a wrong item after valid ones', reading: `${WIRE}; every item of an array has the array's type`, expect: 'invalid', rank: 1 }),
  missingRequired: operator({ id: 'type:missing-required', family: 'type', title: 'a field stated required left out', reading: '§Endpoints: the field is stated "required"; §Errors: 400 "Malformed or invalid request"', expect: 'invalid', rank: 0 }),
} as const satisfies Record<string, Operator>;

/** Kept in the registry so reports can say why they are never drawn. */
export const unusedTypeOperators: readonly Operator[] = [
  operator({
    id: 'type:null-for-unmarked',
    family: 'type',
    title: '`null` for a field the document does not mark',
    reading: 'UNK-BODY-MARKING',
    expect: 'invalid',
    rank: 9,
    unused: 'a `null` may read as an absent field, and whether an unmarked field may be absent is not shown (UNK-BODY-MARKING)',
  }),
  operator({
    id: 'type:integer-written-with-fraction',
    family: 'type',
    title: 'an integer written with a zero fraction (`300.0`)',
    reading: 'RFC 8259 §6',
    expect: 'invalid',
    rank: 9,
    unused: 'JSON does not tell `300.0` from `300` (RFC 8259 §6: one number); a parser may read either as the integer',
  }),
  operator({
    id: 'type:out-of-range',
    family: 'type',
    title: 'an integer beyond a range',
    reading: 'UNK-FIELD-BOUNDS',
    expect: 'invalid',
    rank: 9,
    unused: 'the document states no range for any number (UNK-FIELD-BOUNDS: "Length and size bounds of all other fields: not shown")',
  }),
];

export type Step = string | number;

/** Where a wrong value goes: a path into the body; `item` places choose their index when applied. */
export interface BodyPlace {
  /** Keys, and `first` / `last` for an array item (`last`: the array is given at least two items). */
  readonly path: readonly (string | 'first' | 'last')[];
  /** The model type each step of the path reaches; the last is the place's own. */
  readonly types: readonly FieldType[];
  readonly type: FieldType;
  /** The place is a field the document marks required. */
  readonly required: boolean;
  /** The top-level field it concerns. */
  readonly field: string;
  /**
   * Other top-level arrays of the same item type: an empty array's item is copied from one of them
   * (a DNS update's removed values from its new ones), so it carries what the request's values carry.
   */
  readonly siblings: readonly string[];
}

const fieldsOf = (type: FieldType): readonly Field[] | undefined =>
  type.kind === 'object' ? type.fields : type.kind === 'ref' ? resource(type.resource).fields : undefined;

/** Every place of a body of `fields` the model types: fields, array items (first and last), the fields of the objects they hold. */
export function bodyPlaces(fields: readonly Field[]): BodyPlace[] {
  const places: BodyPlace[] = [];
  const itemsOf = (f: Field) => (f.type.kind === 'array' ? JSON.stringify(f.type.items) : undefined);
  const walk = (type: FieldType, path: BodyPlace['path'], types: readonly FieldType[], required: boolean, field: string) => {
    const top = fields.find((f) => f.name === field)!;
    const siblings = itemsOf(top) === undefined ? [] : fields.filter((f) => f !== top && itemsOf(f) === itemsOf(top)).map((f) => f.name);
    places.push({ path, types, type, required, field, siblings });
    if (type.kind === 'array') for (const which of ['first', 'last'] as const) walk(type.items, [...path, which], [...types, type.items], true, field);
    const inner = fieldsOf(type);
    if (inner) for (const f of inner) walk(f.type, [...path, f.name], [...types, f.type], f.presence === 'required', field);
  };
  for (const f of fields) walk(f.type, [f.name], [f.type], f.presence === 'required', f.name);
  return places;
}

/** A place as readers know it: `new_resource_records[last].value`. */
export const placeName = (path: BodyPlace['path']): string =>
  path.map((step, i) => (step === 'first' || step === 'last' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

/**
 * The item an empty array gets: a copy of a sibling array's first item (the same type, the
 * request's own values), else a valid value of the type (requests' reading).
 */
function templateOf(root: Readonly<Record<string, unknown>>, place: BodyPlace, type: FieldType): unknown {
  for (const name of place.siblings) {
    const items = root[name];
    if (Array.isArray(items) && items.length > 0) return structuredClone(items[0]);
  }
  return fc.sample(valueArb(type, 'request'), { seed: 1106, numRuns: 1 })[0];
}

/**
 * `body` with `value` at `place`; undefined where the body does not reach it (an optional object
 * left out). An array place `last` is given at least two items, the earlier ones valid copies;
 * an empty array, a valid item first.
 */
export function putAt(body: Readonly<Record<string, unknown>>, place: BodyPlace, value: unknown): Record<string, unknown> | undefined {
  const root = structuredClone(body) as Record<string, unknown>;
  let parent: Record<string | number, unknown> | unknown[] = root;
  for (const [i, step] of place.path.entries()) {
    let key: string | number = step;
    if (step === 'first' || step === 'last') {
      if (!Array.isArray(parent)) return undefined;
      if (parent.length === 0) parent.push(templateOf(body, place, place.types[i]!));
      if (step === 'last' && parent.length < 2) parent.push(structuredClone(parent[0]));
      key = step === 'first' ? 0 : parent.length - 1;
    }
    if (i === place.path.length - 1) {
      (parent as Record<string | number, unknown>)[key] = value;
      return root;
    }
    const next = (parent as Record<string | number, unknown>)[key];
    if (next === null || typeof next !== 'object') return undefined;
    parent = next as Record<string | number, unknown>;
  }
  return root;
}

/** The valid value a body holds at a place (an item place: the item it would keep), or undefined. */
export function validAt(body: Readonly<Record<string, unknown>>, place: BodyPlace): unknown {
  let value: unknown = body;
  for (const [i, step] of place.path.entries()) {
    if (step === 'first' || step === 'last') {
      value = Array.isArray(value) ? (value[0] ?? templateOf(body, place, place.types[i]!)) : undefined;
    } else value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

// ---- the wrong values of a type ---------------------------------------------------------------------

const nonInteger = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x));
const anyNumber = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), nonInteger);
const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '' && Number.isNaN(Number(s)) && !/^(true|false)$/i.test(s));

/** The other types' values for a place whose valid value is `valid` (what it held, or undefined). */
export function wrongValues(place: BodyPlace, valid: unknown): Applied<unknown>[] {
  const what = placeName(place.path);
  const out: Applied<unknown>[] = [];
  const add = (op: Operator, first: unknown, arbitrary: fc.Arbitrary<unknown>) => out.push({ operator: op, what, first, arbitrary });
  const o = typeOperators;
  const asArray = fc.oneof(fc.constant([]), fc.constant([valid]));
  const asObject = fc.oneof(fc.constant({}), fc.constant({ value: valid }));
  switch (place.type.kind) {
    case 'string':
      add(o.numberForString, 42, anyNumber);
      add(o.booleanForOther, true, fc.boolean());
      add(o.arrayForOther, [], asArray);
      add(o.objectForOther, {}, asObject);
      break;
    case 'integer':
    case 'number': {
      const n = typeof valid === 'number' ? valid : 300;
      if (place.type.kind === 'integer') add(o.fraction, n + 0.5, nonInteger);
      add(o.numericString, String(n), anyNumber.map(String));
      add(o.booleanForOther, true, fc.boolean());
      add(o.stringForOther, 'x', text);
      add(o.arrayForOther, [], asArray);
      add(o.objectForOther, {}, asObject);
      break;
    }
    case 'boolean': {
      const b = typeof valid === 'boolean' ? valid : true;
      add(o.booleanString, String(b), fc.constantFrom('true', 'false', 'True', 'FALSE', '1', '0', 'yes', 'no', 'on', 'off'));
      add(o.numberForBoolean, b ? 1 : 0, fc.integer({ min: -1, max: 2 }));
      add(o.stringForOther, 'x', text);
      add(o.arrayForOther, [], asArray);
      add(o.objectForOther, {}, asObject);
      break;
    }
    case 'array':
      add(o.objectForOther, {}, asObject);
      add(o.stringForOther, 'x', text);
      add(o.numberForString, 1, anyNumber);
      add(o.booleanForOther, true, fc.boolean());
      break;
    case 'object':
    case 'ref': {
      // An item that is not an object: its one string spelt bare (`["192.0.2.1"]`), a number, an array, null.
      const inner = fieldsOf(place.type) ?? [];
      const bare = isObjectRecord(valid) ? Object.values(valid).find((v) => typeof v === 'string') : undefined;
      const isItem = place.path.at(-1) === 'first' || place.path.at(-1) === 'last';
      const op = isItem ? o.scalarItem : o.stringForOther;
      add(op, bare ?? 'x', bare === undefined ? text : fc.oneof(fc.constant(bare), text));
      add(isItem ? o.scalarItem : o.numberForString, 1, anyNumber);
      add(o.arrayForOther, [], fc.constant(inner.length ? [valid] : []));
      if (isItem) add(o.scalarItem, null, fc.constant(null));
      break;
    }
    default:
      break;
  }
  if (place.required) add(o.nullForRequired, null, fc.constant(null));
  // An item after valid ones is the later-item operator, whatever the type broken there.
  if (place.path.includes('last')) return out.map((a) => ({ ...a, operator: { ...a.operator, id: `${a.operator.id}+${o.laterItem.id}`, rank: a.operator.rank + o.laterItem.rank } }));
  return out;
}

const isObjectRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
