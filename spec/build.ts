/** Small constructors that keep `api.ts` readable: each returns plain model data. */
import type { Field, FieldType, OpenSet, Presence, Referent, ResourceName, StringFormat } from './model.ts';

export const string = (format?: StringFormat): FieldType => (format ? { kind: 'string', format } : { kind: 'string' });
export const open = (set: OpenSet): FieldType => ({ kind: 'string', open: set });
export const integer: FieldType = { kind: 'integer' };
export const boolean: FieldType = { kind: 'boolean' };
export const nullType: FieldType = { kind: 'null' };
export const any: FieldType = { kind: 'any' };
export const epochMs: FieldType = { kind: 'number', meaning: 'epoch-ms' };
export const ref = (resource: ResourceName): FieldType => ({ kind: 'ref', resource });
export const array = (items: FieldType): FieldType => ({ kind: 'array', items });
export const object = (...fields: Field[]): FieldType => ({ kind: 'object', fields });

/** A field the document lists in a response: a conformant server sends it (ASM-DOCUMENTED-FIELDS-PRESENT). */
export const field = (name: string, type: FieldType, doc: string, presence: Presence = 'documented'): Field => ({
  name,
  type,
  presence,
  doc,
});

/** A request body field without required/optional marking in the document. */
export const unmarked = (name: string, type: FieldType, doc: string): Field => field(name, type, doc, 'not-shown');

/** A request body field the document marks "required". */
export const required = (name: string, type: FieldType, doc: string): Field => field(name, type, doc, 'required');

/**
 * A response body nested under container keys, e.g. `company.users[]`; `describes`: the outermost
 * container is the thing the request names (`company` of `/company/{id}/users`: `Field.describes`).
 */
export const nested = (path: readonly string[], leaf: FieldType, doc: string, describes?: Referent): FieldType =>
  path.reduceRight<FieldType>((inner, key, i) => {
    const f = field(key, inner, i === path.length - 1 ? doc : `container of ${path.slice(i + 1).join('.')}`);
    return object(i === 0 && describes ? describing(f, describes) : f);
  }, leaf);

/** A response field holding the id of the object it sits in (`Field.identifies`). */
export const identifying = (f: Field, referent: Referent): Field => ({ ...f, identifies: referent });

/** A field holding the id of another thing (`Field.refersTo`). */
export const referring = (f: Field, referent: Referent): Field => ({ ...f, refersTo: referent });

/** A response object that is the thing the request names (`Field.describes`). */
export const describing = (f: Field, referent: Referent): Field => ({ ...f, describes: referent });
