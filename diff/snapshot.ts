/**
 * Reading a contract snapshot someone hands us: JSON of the `spec/contract.ts` format, checked
 * for the parts the diff reads, so a bad file is one line naming where it went wrong, never a
 * stack trace from deep in the engine.
 */
import { CONTRACT_FORMAT, type ContractSnapshot } from '../spec/contract.ts';

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function expect(ok: boolean, at: string, what: string): void {
  if (!ok) throw new SnapshotError(`${at}: ${what}`);
}

function list(value: unknown, at: string): unknown[] {
  expect(Array.isArray(value), at, 'must be an array');
  return value as unknown[];
}

function object(value: unknown, at: string): Json {
  expect(isObject(value), at, 'must be an object');
  return value as Json;
}

const string = (value: unknown, at: string): void => expect(typeof value === 'string', at, 'must be a string');

const TYPE_KINDS = ['string', 'integer', 'number', 'boolean', 'null', 'any', 'array', 'object', 'ref'];

function checkType(value: unknown, at: string): void {
  const type = object(value, at);
  expect(TYPE_KINDS.includes(type.kind as string), `${at}.kind`, `must be one of ${TYPE_KINDS.join(', ')}`);
  if (type.kind === 'array') checkType(type.items, `${at}.items`);
  if (type.kind === 'object') checkFields(type.fields, `${at}.fields`);
  if (type.kind === 'ref') string(type.resource, `${at}.resource`);
  if (type.kind === 'string') {
    if (type.enum !== undefined) {
      const set = object(type.enum, `${at}.enum`);
      list(set.shown, `${at}.enum.shown`).forEach((v, i) => string(v, `${at}.enum.shown[${i}]`));
      expect(typeof set.size === 'number', `${at}.enum.size`, 'must be a number');
    }
    if (type.open !== undefined) list(object(type.open, `${at}.open`).occurs, `${at}.open.occurs`).forEach((v, i) => string(v, `${at}.open.occurs[${i}]`));
    if (type.maxLength !== undefined) expect(typeof type.maxLength === 'number', `${at}.maxLength`, 'must be a number');
    if (type.pattern !== undefined) string(type.pattern, `${at}.pattern`);
  }
}

function checkFields(value: unknown, at: string): void {
  list(value, at).forEach((f, i) => {
    const field = object(f, `${at}[${i}]`);
    string(field.name, `${at}[${i}].name`);
    string(field.presence, `${at}[${i}].presence`);
    checkType(field.type, `${at}[${i}].type`);
  });
}

const checkCite = (value: unknown, at: string): void => string(object(value, at).section, `${at}.section`);

/** Items with an id, a citation and, where the diff reads them, operations. */
function checkKeyed(value: unknown, at: string, withOperations: boolean): void {
  list(value, at).forEach((x, i) => {
    const item = object(x, `${at}[${i}]`);
    string(item.id, `${at}[${i}].id`);
    if (withOperations) list(item.operations, `${at}[${i}].operations`);
    checkCite(item.cite, `${at}[${i}].cite`);
  });
}

function checkEndpoint(value: unknown, at: string): void {
  const e = object(value, at);
  for (const key of ['operation', 'name', 'method', 'path', 'tag', 'effect']) string(e[key], `${at}.${key}`);
  checkFields(e.pathParams, `${at}.pathParams`);
  checkFields(e.queryParams, `${at}.queryParams`);
  if (e.body !== undefined) checkFields(e.body, `${at}.body`);
  const success = object(e.success, `${at}.success`);
  expect(success.kind === 'acknowledged' || success.kind === 'plain', `${at}.success.kind`, "must be 'acknowledged' or 'plain'");
  checkType(success.body, `${at}.success.body`);
  list(e.errors, `${at}.errors`).forEach((s, i) => expect(typeof s === 'number', `${at}.errors[${i}]`, 'must be a number'));
  if (e.deprecated !== undefined) {
    const d = object(e.deprecated, `${at}.deprecated`);
    string(d.replacement, `${at}.deprecated.replacement`);
    checkCite(d.cite, `${at}.deprecated.cite`);
  }
  checkCite(e.cite, `${at}.cite`);
}

/** The snapshot in `text`, or a `SnapshotError` naming the first thing wrong. */
export function parseSnapshot(text: string): ContractSnapshot {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(`not JSON (${(error as Error).message})`);
  }
  const s = object(value, 'the snapshot');
  expect(s.format === CONTRACT_FORMAT, 'format', `must be ${JSON.stringify(CONTRACT_FORMAT)} (is this a generated/contract.json?)`);
  for (const key of ['specVersion', 'basePath', 'title', 'document']) string(s[key], key);
  checkCite(object(s.auth, 'auth').cite, 'auth.cite');
  list(s.tagGroups, 'tagGroups');
  list(s.errorMeanings, 'errorMeanings');
  list(s.formats, 'formats').forEach((f, i) => {
    const format = object(f, `formats[${i}]`);
    for (const key of ['name', 'pattern', 'description']) string(format[key], `formats[${i}].${key}`);
    checkCite(format.cite, `formats[${i}].cite`);
  });
  list(s.resources, 'resources').forEach((r, i) => {
    const resource = object(r, `resources[${i}]`);
    string(resource.name, `resources[${i}].name`);
    checkCite(resource.cite, `resources[${i}].cite`);
    checkFields(resource.fields, `resources[${i}].fields`);
  });
  list(s.endpoints, 'endpoints').forEach((e, i) => checkEndpoint(e, `endpoints[${i}]`));
  checkKeyed(s.rules, 'rules', true);
  checkKeyed(s.unknowns, 'unknowns', false);
  checkKeyed(s.assumptions, 'assumptions', true);
  list(s.conflicts, 'conflicts').forEach((c, i) => {
    const conflict = object(c, `conflicts[${i}]`);
    string(conflict.id, `conflicts[${i}].id`);
    list(conflict.operations, `conflicts[${i}].operations`);
    for (const side of ['letter', 'reading']) checkCite(object(conflict[side], `conflicts[${i}].${side}`).cite, `conflicts[${i}].${side}.cite`);
  });
  return value as ContractSnapshot;
}
