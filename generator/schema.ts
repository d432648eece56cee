/**
 * Model types → JSON Schema (draft 2020-12, which OpenAPI 3.1 shares). One conversion serves
 * the ajv validators and the OpenAPI document; only the `$ref` target differs.
 */
import { formats } from '../spec/formats.ts';
import { PARTLY_SHOWN_VALUE_PATTERN } from '../spec/gaps.ts';
import type { Api, Endpoint, Field, FieldType, Resource, ResourceName } from '../spec/model.ts';
import { mustBePresent, operationIdPattern, type Direction } from '../spec/queries.ts';

export type JsonSchema = { readonly [key: string]: unknown };

/** Maps a resource name to the `$ref` that points at its schema. */
export type RefTo = (resource: ResourceName) => string;

/**
 * How a schema reads the model:
 * - `response`: documented fields required, formats enforced, open sets left open;
 * - `request`: only fields the document marks required are required, stated limits encoded.
 * Extra properties are allowed in both: the document never forbids them.
 */
export type { Direction };


export function typeSchema(type: FieldType, direction: Direction, refTo: RefTo): JsonSchema {
  switch (type.kind) {
    case 'string':
      return stringSchema(type, direction);
    case 'integer':
      return { type: 'integer' };
    case 'number':
      return type.meaning === 'epoch-ms' ? { type: 'number', description: 'epoch milliseconds' } : { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'any':
      return {};
    case 'array':
      return { type: 'array', items: typeSchema(type.items, direction, refTo) };
    case 'object':
      return objectSchema(type.fields, direction, refTo);
    case 'ref':
      return { $ref: refTo(type.resource) };
  }
}

function stringSchema(type: Extract<FieldType, { kind: 'string' }>, direction: Direction): JsonSchema {
  const schema: Record<string, unknown> = { type: 'string' };
  if (type.format) {
    const spec = formats[type.format];
    schema.pattern = spec.pattern;
    if (spec.openapiFormat) schema.format = spec.openapiFormat;
  }
  if (type.pattern) schema.pattern = type.pattern;
  if (type.maxLength !== undefined) schema.maxLength = type.maxLength;
  if (type.open) schema.examples = [...type.open.occurs];
  if (type.enum) {
    // Only some members are shown; a request schema can only rule out what ASM-EXP-INTERVAL-OUTSIDE does.
    schema.examples = [...type.enum.shown];
    if (direction === 'request') {
      schema.pattern = PARTLY_SHOWN_VALUE_PATTERN;
      schema.$comment = `one of ${type.enum.size} values, shown: ${type.enum.shown.join(', ')} (${type.enum.unknown}); pattern per ASM-EXP-INTERVAL-OUTSIDE`;
    }
  }
  return schema;
}


export function objectSchema(fields: readonly Field[], direction: Direction, refTo: RefTo): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    // `format: password` is OpenAPI's mark for a secret; the validators ignore formats.
    const secret = field.secret ? { format: 'password', ...(direction === 'request' ? { writeOnly: true } : {}) } : {};
    properties[field.name] = { ...typeSchema(field.type, direction, refTo), ...secret, description: field.doc };
  }
  const required = fields.filter((f) => mustBePresent(f, direction)).map((f) => f.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** A resource's schema; a field the document says it does not have is a `false` schema (present: invalid). */
export function resourceSchema(resource: Resource, refTo: RefTo): JsonSchema {
  const schema = objectSchema(resource.fields, 'response', refTo);
  const without = Object.fromEntries((resource.without?.fields ?? []).map((name) => [name, false]));
  return { title: resource.name, description: resource.doc, ...schema, properties: { ...(schema.properties as object), ...without } };
}

/** The success body of an endpoint; for acknowledged actions, the kind-specific acknowledgement. */
export function responseSchema(endpoint: Endpoint, refTo: RefTo): JsonSchema {
  const success = endpoint.success;
  if (success.kind !== 'ack') return typeSchema(success.body, 'response', refTo);
  return {
    allOf: [
      { $ref: refTo('Acknowledgement') },
      {
        type: 'object',
        properties: {
          operation_id: { type: 'string', pattern: operationIdPattern(success.operationKind) },
          status: { const: 202 },
        },
      },
    ],
  };
}

/** The request body of an endpoint, or undefined where the document says "none". */
export const requestSchema = (endpoint: Endpoint, refTo: RefTo): JsonSchema | undefined =>
  endpoint.body ? objectSchema(endpoint.body, 'request', refTo) : undefined;

/** Schemas of every resource, keyed by resource name, in model order. */
export const resourceSchemas = (api: Api, refTo: RefTo): Record<string, JsonSchema> =>
  Object.fromEntries(api.resources.map((r) => [r.name, resourceSchema(r, refTo)]));
