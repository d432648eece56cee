/**
 * Reading a contract snapshot someone hands us: JSON of the `spec/contract.ts` format, checked
 * whole against that format's types (every part the engine reads, to the values it compares), so
 * a bad file is one line naming where it went wrong, never a stack trace or a wrong verdict from
 * deep in the engine. The size and the nesting depth are bounded first: the engine and the checks
 * below recurse, and a snapshot is read whole.
 */
import { BODY_SUCCESS_KINDS, CONTRACT_FORMAT, type ContractSnapshot } from '../spec/contract.ts';
import { SCOPE_NAMES } from '../spec/model.ts';
import { firstBadReference } from './references.ts';

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

/** Today's snapshot is under 1 MB; anything past this is not one. */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;
export const TOO_LARGE = `larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB`;
/** Today's deepest value is under 15 levels. */
export const MAX_SNAPSHOT_DEPTH = 64;

type Json = Record<string, unknown>;
type Check = (value: unknown, at: string) => void;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function expect(ok: boolean, at: string, what: string): void {
  if (!ok) throw new SnapshotError(`${at}: ${what}`);
}

function list(value: unknown, at: string, item?: Check): unknown[] {
  expect(Array.isArray(value), at, 'must be an array');
  if (item) (value as unknown[]).forEach((v, i) => item(v, `${at}[${i}]`));
  return value as unknown[];
}

function object(value: unknown, at: string): Json {
  expect(isObject(value), at, 'must be an object');
  return value as Json;
}

const string: Check = (value, at) => expect(typeof value === 'string', at, 'must be a string');
const number: Check = (value, at) => expect(typeof value === 'number' && Number.isFinite(value), at, 'must be a number');
const strings: Check = (value, at) => void list(value, at, string);
const oneOf =
  (allowed: readonly unknown[]): Check =>
  (value, at) =>
    expect(allowed.includes(value), at, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
const optional =
  (check: Check): Check =>
  (value, at) => {
    if (value !== undefined) check(value, at);
  };

/** An object whose listed keys pass their checks (other keys are ignored: the engine never reads them). */
const shape =
  (keys: Readonly<Record<string, Check>>): Check =>
  (value, at) => {
    const o = object(value, at);
    for (const [key, check] of Object.entries(keys)) check(o[key], at ? `${at}.${key}` : key);
  };

const cite = shape({ section: string, quote: optional(string) });

const scope: Check = (value, at) => {
  if (isObject(value)) strings(value.endpoints, `${at}.endpoints`);
  else expect((SCOPE_NAMES as readonly unknown[]).includes(value), at, `must be one of ${SCOPE_NAMES.join(', ')}, or {"endpoints": [...]}`);
};

/** `Presence` of spec/model.ts. */
const presence = oneOf(['documented', 'may-be-absent', 'required', 'not-shown']);

const TYPE_KINDS = ['string', 'integer', 'number', 'boolean', 'null', 'any', 'array', 'object', 'ref'];

const type: Check = (value, at) => {
  const t = object(value, at);
  oneOf(TYPE_KINDS)(t.kind, `${at}.kind`);
  if (t.kind === 'array') type(t.items, `${at}.items`);
  if (t.kind === 'object') list(t.fields, `${at}.fields`, field);
  if (t.kind === 'ref') string(t.resource, `${at}.resource`);
  if (t.kind === 'number') optional(string)(t.meaning, `${at}.meaning`);
  if (t.kind === 'string') {
    shape({ format: optional(string), maxLength: optional(number), pattern: optional(string), limit: optional(string) })(t, at);
    optional(shape({ shown: strings, size: number, unknown: optional(string) }))(t.enum, `${at}.enum`);
    optional(shape({ occurs: strings, unknown: optional(string) }))(t.open, `${at}.open`);
  }
};

const field: Check = shape({ name: string, presence, type, assumption: optional(string) });
const fields: Check = (value, at) => void list(value, at, field);

/** A success of the given kinds besides `acknowledged` (@3: `data`, `sync-action`; @2: `plain`). */
const success =
  (bodyKinds: readonly string[]): Check =>
  (value, at) => {
    const s = object(value, at);
    oneOf(['acknowledged', ...bodyKinds])(s.kind, `${at}.kind`);
    if (s.kind === 'acknowledged') shape({ status: oneOf([202]), operationKind: string })(s, at);
    else oneOf([null])(s.status, `${at}.status`);
    type(s.body, `${at}.body`);
  };

const endpoint = (bodyKinds: readonly string[]): Check =>
  shape({
    operation: string,
    name: string,
    method: string,
    path: string,
    tag: string,
    effect: string,
    pathParams: fields,
    queryParams: fields,
    body: optional(fields),
    success: success(bodyKinds),
    errors: (value, at) => void list(value, at, number),
    deprecated: optional(shape({ replacement: string, cite })),
    cite,
  });

const snapshotShape = (bodyKinds: readonly string[]): Check =>
  shape({
    specVersion: string,
    basePath: string,
    title: string,
    document: string,
    auth: shape({ cite }),
    errorTable: cite,
    tagGroups: (value, at) => void list(value, at),
    errorMeanings: (value, at) => void list(value, at),
    formats: (value, at) => void list(value, at, shape({ name: string, pattern: string, description: string, cite, assumption: optional(string) })),
    resources: (value, at) => void list(value, at, shape({ name: string, cite, fields })),
    endpoints: (value, at) => void list(value, at, endpoint(bodyKinds)),
    rules: (value, at) => void list(value, at, shape({ id: string, title: string, statement: string, cite, scope, operations: strings, conflicts: optional(strings) })),
    unknowns: (value, at) => void list(value, at, shape({ id: string, what: string, cite })),
    assumptions: (value, at) => void list(value, at, shape({ id: string, choice: string, why: string, cite, scope, operations: strings })),
    conflicts: (value, at) =>
      void list(
        value,
        at,
        shape({
          id: string,
          operations: strings,
          letter: shape({ says: string, cite }),
          reading: shape({ says: string, cite }),
          extraStatus: optional(number),
          mockWhy: string,
        }),
      ),
  });

/**
 * The format @2, still read: it called both successes with a body `plain`. Every @2 snapshot the
 * model wrote has `data` exactly where the endpoint's effect is `read` (the model's reads are the
 * document's read table; its two other actions mutate), so the upgrade restores what @2 dropped.
 */
const FORMAT_2 = 'hosted-site-contract/contract@2';

function upgradeFrom2(s: Json): Json {
  const endpoints = (s.endpoints as Json[]).map((e) => {
    const was = e.success as Json;
    return was.kind === 'plain' ? { ...e, success: { ...was, kind: e.effect === 'read' ? 'data' : 'sync-action' } } : e;
  });
  return { ...s, format: CONTRACT_FORMAT, endpoints };
}

/**
 * The first @2 snapshots did not yet record where the document lists the error statuses
 * (`errorTable`): read them with that cite marked as not recorded, so a diff against a later
 * snapshot says the cite was added (compatible) instead of refusing the older file.
 */
const NOT_RECORDED = { section: 'not recorded (an early contract@2 snapshot)', quote: 'not recorded' };
const withErrorTable = (s: Json): Json => (s.errorTable === undefined ? { ...s, errorTable: NOT_RECORDED } : s);

/** The deepest nesting of arrays and objects in `value`, walked without recursion; stops past `bound`. */
function depthExceeds(value: unknown, bound: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= bound) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The snapshot in `text`, or a `SnapshotError` naming the first thing wrong. */
export function parseSnapshot(text: string): ContractSnapshot {
  if (text.length > MAX_SNAPSHOT_BYTES) throw new SnapshotError(TOO_LARGE);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(`not JSON (${(error as Error).message})`);
  }
  if (depthExceeds(value, MAX_SNAPSHOT_DEPTH)) throw new SnapshotError(`nested deeper than ${MAX_SNAPSHOT_DEPTH} levels`);
  const s = object(value, 'the snapshot');
  if (s.format === FORMAT_2) {
    const complete = withErrorTable(s);
    snapshotShape(['plain'])(complete, '');
    return checked(upgradeFrom2(complete));
  }
  if (typeof s.format === 'string' && s.format.startsWith('hosted-site-contract/contract@')) {
    const why = `found ${JSON.stringify(s.format)}; this version reads ${JSON.stringify(CONTRACT_FORMAT)} and ${JSON.stringify(FORMAT_2)} only (compare from a ref or file that holds one of them)`;
    expect(s.format === CONTRACT_FORMAT, 'format', why);
  }
  expect(s.format === CONTRACT_FORMAT, 'format', `must be ${JSON.stringify(CONTRACT_FORMAT)} (is this a generated/contract.json?)`);
  snapshotShape(BODY_SUCCESS_KINDS)(s, '');
  return checked(s);
}

/** A snapshot of the right shape whose parts agree with each other (references.ts says how). */
function checked(s: Json): ContractSnapshot {
  const snapshot = s as unknown as ContractSnapshot;
  const wrong = firstBadReference(snapshot);
  if (wrong) throw new SnapshotError(wrong);
  return snapshot;
}
