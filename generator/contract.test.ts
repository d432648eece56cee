/** `contract.json`: the model as a snapshot, every fact the diff needs, none of our prose. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { contractOf, type ContractField, type ContractSnapshot, type ContractType } from '../spec/contract.ts';
import { inScope, operation, secretFieldNames } from '../spec/queries.ts';
import { CONTRACT_FILE, generateContract } from './contract.ts';

const [file] = generateContract(api);
const snapshot = JSON.parse(file!.contents) as ContractSnapshot & { $comment: string };

/** Every field of a snapshot type, depth first. */
function* fieldsOf(type: ContractType): Generator<ContractField> {
  if (type.kind === 'array') yield* fieldsOf(type.items);
  if (type.kind === 'object') for (const f of type.fields) yield* [f, ...fieldsOf(f.type)];
}
const allFields = (s: ContractSnapshot): ContractField[] => [
  ...s.resources.flatMap((r) => r.fields.flatMap((f) => [f, ...fieldsOf(f.type)])),
  ...s.endpoints.flatMap((e) => [
    ...e.pathParams,
    ...e.queryParams,
    ...(e.body ?? []).flatMap((f) => [f, ...fieldsOf(f.type)]),
    ...(e.success.kind !== 'acknowledged' ? [...fieldsOf(e.success.body)] : []),
  ]),
];

describe('generated/contract.json', () => {
  it('is the checked-in file, written by this module', () => {
    expect(file!.path).toBe(CONTRACT_FILE);
    expect(readFileSync(new URL(`../generated/${CONTRACT_FILE}`, import.meta.url), 'utf8')).toBe(file!.contents);
  });

  it('parses back to the snapshot of the model, after the banner', () => {
    const { $comment, ...rest } = snapshot;
    expect($comment).toContain(`spec ${api.specVersion}`);
    expect(rest).toEqual(JSON.parse(JSON.stringify(contractOf(api))));
    expect(rest.specVersion).toBe(api.specVersion);
  });

  it('keys every endpoint of the model by METHOD /path, in model order', () => {
    expect(snapshot.endpoints.map((e) => e.operation)).toEqual(api.endpoints.map(operation));
    expect(snapshot.endpoints.map((e) => e.name)).toEqual(api.endpoints.map((e) => e.name));
  });

  it('gives acknowledged endpoints status 202 and their kind, the others no status (not shown) and the model\'s kind (data or sync-action)', () => {
    for (const [i, e] of api.endpoints.entries()) {
      const success = snapshot.endpoints[i]!.success;
      if (e.success.kind === 'ack') expect(success).toEqual({ kind: 'acknowledged', status: 202, operationKind: e.success.operationKind, body: { kind: 'ref', resource: 'Acknowledgement' } });
      else expect(success).toMatchObject({ kind: e.success.kind, status: null });
    }
    // Both body kinds occur, so the snapshot keeps a distinction the model makes.
    expect(new Set(snapshot.endpoints.map((e) => e.success.kind))).toEqual(new Set(['acknowledged', 'data', 'sync-action']));
  });

  it('holds each endpoint\'s error statuses, effect and deprecation as the model does', () => {
    for (const [i, e] of api.endpoints.entries()) {
      const s = snapshot.endpoints[i]!;
      expect(s.errors).toEqual(e.errors);
      expect(s.effect).toBe(e.effect);
      expect(s.deprecated).toEqual(e.deprecated);
    }
    expect(snapshot.endpoints.filter((e) => e.deprecated).length).toBe(api.endpoints.filter((e) => e.deprecated).length);
  });

  it('lists, per rule and assumption, the endpoints its scope covers', () => {
    for (const [i, r] of api.rules.entries()) {
      expect(snapshot.rules[i]!.operations).toEqual(api.endpoints.filter((e) => inScope(r, e)).map(operation));
      expect(snapshot.rules[i]!.cite).toEqual(r.cite);
    }
    for (const [i, a] of api.assumptions.entries()) expect(snapshot.assumptions[i]!.operations).toEqual(api.endpoints.filter((e) => inScope(a, e)).map(operation));
  });

  it('names each conflict\'s endpoints as the document writes them', () => {
    const byName = new Map(api.endpoints.map((e) => [e.name, operation(e)]));
    for (const [i, c] of api.conflicts.entries()) expect(snapshot.conflicts[i]!.operations).toEqual(c.endpoints.map((n) => byName.get(n)));
  });

  it('keeps the gaps whole and the secret marks, and leaves our prose out', () => {
    expect(snapshot.unknowns).toEqual(JSON.parse(JSON.stringify(api.unknowns)));
    expect(snapshot.assumptions.map((a) => a.id)).toEqual(api.assumptions.map((a) => a.id));
    expect([...new Set(allFields(snapshot).filter((f) => f.secret).map((f) => f.name))].sort()).toEqual(
      [...secretFieldNames, ...api.endpoints.flatMap((e) => (e.body ?? []).filter((f) => f.secret).map((f) => f.name))].filter((n, i, all) => all.indexOf(n) === i).sort(),
    );
    expect(file!.contents).not.toMatch(/"(doc|summary)":/);
  });

  it('carries the stated limits on their fields', () => {
    const limited = allFields(snapshot).filter((f) => f.type.kind === 'string' && f.type.limit);
    const limitRules = api.rules.filter((r) => r.id.startsWith('LIMIT-')).map((r) => r.id);
    expect([...new Set(limited.map((f) => (f.type as { limit: string }).limit))].sort()).toEqual([...limitRules].sort());
  });
});
