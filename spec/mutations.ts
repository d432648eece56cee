/**
 * One-field breaks of a valid value, read from the model: a wrong JSON type, a missing required
 * field, a format near miss, a `wp_command` beyond its limits, a wrong acknowledgement kind.
 * Each names the JSON Schema keyword and the instance path a validator must report it at, so a
 * test can tell a value rejected for the right reason from one rejected by accident.
 *
 * They break the schemas' reading (documented response fields, stated request limits). The
 * conformance suite must still ask the gaps before expecting a 400 for one (e.g. a non-UUID
 * `environment_id`: ASM-ENVIRONMENT-ID-UUID).
 */
import { formatNearMisses, wpCommandNearMisses } from './arbitraries.ts';
import type { Endpoint, Field, FieldType } from './model.ts';
import { mustBePresent, operationKinds, resource, type Direction } from './queries.ts';

type PathStep = string | number;

export interface Mutation {
  /** What was broken, for test output: `/site/id: near miss "not-a-uuid"`. */
  readonly description: string;
  /** JSON Pointer of the instance the validator must report. */
  readonly instancePath: string;
  /** The schema keyword that must report it (ajv's `keyword`). */
  readonly keyword: 'type' | 'required' | 'pattern' | 'maxLength' | 'const';
  /** For `required`: the property that must be named missing. */
  readonly missingProperty?: string;
  /** The broken value: a copy of `root` with the one change. */
  readonly apply: (root: unknown) => unknown;
  /** The model's type of the instance broken (for `required`: of the missing field). */
  readonly type: FieldType;
  /** The value put in its place (absent for `required`). */
  readonly value?: unknown;
}

export const jsonPointer = (path: readonly PathStep[]): string =>
  path.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

function setAt(root: unknown, path: readonly PathStep[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<PathStep, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<PathStep, unknown>;
  parent[path[path.length - 1]!] = value;
  return copy;
}

function deleteAt(root: unknown, path: readonly PathStep[], key: string): unknown {
  const copy = structuredClone(root) as Record<PathStep, unknown>;
  let parent = copy;
  for (const step of path) parent = parent[step] as Record<PathStep, unknown>;
  delete parent[key];
  return copy;
}

/** A value of another JSON type than the model's: never valid where the model's type is. */
const wrongTypeValue: Record<Exclude<FieldType['kind'], 'any' | 'ref'>, unknown> = {
  string: 42,
  integer: 1.5,
  number: '1',
  boolean: 'true',
  null: false,
  array: {},
  object: [],
};

const replace = (type: FieldType, path: readonly PathStep[], value: unknown, keyword: Mutation['keyword'], what: string): Mutation => ({
  description: `${jsonPointer(path) || '(root)'}: ${what} ${JSON.stringify(value).slice(0, 60)}`,
  instancePath: jsonPointer(path),
  keyword,
  apply: (root) => setAt(root, path, value),
  type,
  value,
});

function stringMutations(type: Extract<FieldType, { kind: 'string' }>, path: readonly PathStep[], direction: Direction): Mutation[] {
  if (type.limit === 'LIMIT-WP-COMMAND') return wpCommandNearMisses.map((miss) => replace(type, path, miss.value, miss.keyword, `wp_command, ${miss.why}:`));
  if (type.format) return formatNearMisses[type.format].map((miss) => replace(type, path, miss, 'pattern', `near miss of ${type.format}`));
  // ASM-EXP-INTERVAL-OUTSIDE: strings certain to be outside the five values.
  if (type.enum && direction === 'request') return ['', 'days 7', 'DAYS_7'].map((miss) => replace(type, path, miss, 'pattern', 'outside the enum'));
  return [];
}

function fieldsMutations(fields: readonly Field[], value: unknown, path: readonly PathStep[], direction: Direction): Mutation[] {
  if (typeof value !== 'object' || value === null) return [];
  const object = value as Record<string, unknown>;
  return fields.flatMap((field) => {
    const missing: Mutation[] = mustBePresent(field, direction)
      ? [
          {
            description: `${jsonPointer(path) || '(root)'}: without ${field.name}`,
            instancePath: jsonPointer(path),
            keyword: 'required',
            missingProperty: field.name,
            apply: (root) => deleteAt(root, path, field.name),
            type: field.type,
          },
        ]
      : [];
    const inner = field.name in object ? mutationsOf(field.type, object[field.name], direction, [...path, field.name]) : [];
    return [...missing, ...inner];
  });
}

/**
 * Every one-field break of `value` (valid for `type` in `direction`). Arrays are broken at their
 * first item only: the schema of every item is the same.
 */
export function mutationsOf(type: FieldType, value: unknown, direction: Direction, path: readonly PathStep[] = []): Mutation[] {
  switch (type.kind) {
    case 'any':
      return [];
    case 'ref':
      return [replace(type, path, wrongTypeValue.object, 'type', 'wrong type'), ...fieldsMutations(resource(type.resource).fields, value, path, direction)];
    case 'object':
      return [replace(type, path, wrongTypeValue.object, 'type', 'wrong type'), ...fieldsMutations(type.fields, value, path, direction)];
    case 'array': {
      const first = Array.isArray(value) && value.length > 0 ? mutationsOf(type.items, value[0], direction, [...path, 0]) : [];
      return [replace(type, path, wrongTypeValue.array, 'type', 'wrong type'), ...first];
    }
    case 'string':
      return [replace(type, path, wrongTypeValue.string, 'type', 'wrong type'), ...stringMutations(type, path, direction)];
    default:
      return [replace(type, path, wrongTypeValue[type.kind], 'type', 'wrong type')];
  }
}

/** Breaks of a success body; acknowledgements also get a wrong kind, a malformed id and a non-202 status. */
export function responseMutations(endpoint: Endpoint, value: unknown): Mutation[] {
  const success = endpoint.success;
  if (success.kind !== 'ack') return mutationsOf(success.body, value, 'response');
  const otherKind = operationKinds.find((kind) => kind !== success.operationKind)!;
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const id = { kind: 'string' } as const;
  return [
    ...mutationsOf({ kind: 'ref', resource: 'Acknowledgement' }, value, 'response'),
    replace(id, ['operation_id'], `${otherKind}-${uuid}`, 'pattern', 'another action\'s kind'),
    replace(id, ['operation_id'], `${success.operationKind}-${formatNearMisses.uuid[0]}`, 'pattern', 'kind with a malformed UUID'),
    replace(id, ['operation_id'], uuid, 'pattern', 'no kind'),
    replace({ kind: 'number' }, ['status'], 200, 'const', 'status other than 202'),
  ];
}

export function requestMutations(endpoint: Endpoint, body: unknown): Mutation[] {
  if (!endpoint.body) throw new Error(`${endpoint.name} takes no request body`);
  return mutationsOf({ kind: 'object', fields: endpoint.body }, body, 'request');
}

export const queryMutations = (endpoint: Endpoint, query: unknown): Mutation[] =>
  mutationsOf({ kind: 'object', fields: endpoint.queryParams }, query, 'request');
