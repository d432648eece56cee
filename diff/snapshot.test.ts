/**
 * `parseSnapshot` refuses, in one line naming where, every snapshot the engine could not read:
 * wrong shapes anywhere the engine looks, nesting past the bound, and text past the size cap.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffContracts } from './engine.ts';
import { MAX_SNAPSHOT_BYTES, parseSnapshot, SnapshotError } from './snapshot.ts';

const text = readFileSync(fileURLToPath(new URL('../generated/contract.json', import.meta.url)), 'utf8');
type Json = any;
const edited = (change: (s: Json) => void): string => {
  const s = JSON.parse(text) as Json;
  change(s);
  return JSON.stringify(s);
};
const nested = (depth: number) => `${'{"kind":"array","items":'.repeat(depth)}{"kind":"string"}${'}'.repeat(depth)}`;

describe('parseSnapshot', () => {
  it('reads the generated snapshot, and the engine diffs it with itself', () => {
    const s = parseSnapshot(text);
    expect(diffContracts(s, s)).toEqual([]);
  });

  it.each([
    ['a rule scope null', (s: Json) => (s.rules[0].scope = null), /^rules\[0\]\.scope: /],
    ['a rule scope with endpoints null', (s: Json) => (s.rules[0].scope = { endpoints: null }), /^rules\[0\]\.scope\.endpoints: must be an array/],
    ['a rule scope unknown', (s: Json) => (s.rules[0].scope = 'some'), /^rules\[0\]\.scope: /],
    ['a rule operation not a string', (s: Json) => (s.rules[0].operations = [1]), /^rules\[0\]\.operations\[0\]: must be a string/],
    ['a presence unknown', (s: Json) => (s.resources[0].fields[0].presence = 'maybe'), /^resources\[0\]\.fields\[0\]\.presence: must be one of/],
    ['an unknown without words', (s: Json) => (s.unknowns[0].what = 3), /^unknowns\[0\]\.what: must be a string/],
    ['an assumption scope null', (s: Json) => (s.assumptions[0].scope = null), /^assumptions\[0\]\.scope: /],
    ['a conflict statement missing', (s: Json) => delete s.conflicts[0].letter.says, /^conflicts\[0\]\.letter\.says: must be a string/],
    ['an error status not a number', (s: Json) => (s.endpoints[0].errors = ['400']), /^endpoints\[0\]\.errors\[0\]: must be a number/],
    ['an acknowledgement without a kind', (s: Json) => delete s.endpoints.find((e: Json) => e.success.kind === 'acknowledged').success.operationKind, /\.success\.operationKind: must be a string/],
    ['a cite quote not a string', (s: Json) => (s.endpoints[0].cite.quote = 1), /^endpoints\[0\]\.cite\.quote: must be a string/],
    ['a type nested past the bound', (s: Json) => (s.resources[0].fields[0].type = JSON.parse(nested(100))), /nested deeper than/],
  ])('refuses %s', (_, change, message) => {
    expect(() => parseSnapshot(edited(change))).toThrow(SnapshotError);
    expect(() => parseSnapshot(edited(change))).toThrow(message);
  });

  const endpointIndex = (s: Json, pred: (e: Json) => boolean) => s.endpoints.findIndex(pred);
  const withRef = (s: Json) => s.resources.findIndex((r: Json) => r.fields.some((f: Json) => f.type.kind === 'ref'));

  // Hand edits that keep every shape but break what the engine pairs by, or what a reference names.
  it.each([
    ['an endpoint duplicated', (s: Json) => s.endpoints.push(s.endpoints[0]), (s: Json) => `^endpoints\\[${s.endpoints.length - 1}\\]\\.operation: operation ".*" is given twice \\(first at endpoints\\[0\\]\\)$`],
    ['two endpoints of one model name', (s: Json) => (s.endpoints[1].name = s.endpoints[0].name), () => '^endpoints\\[1\\]\\.name: endpoint name ".*" is given twice \\(first at endpoints\\[0\\]\\)$'],
    ['a field duplicated within a resource', (s: Json) => s.resources[0].fields.push(s.resources[0].fields[0]), (s: Json) => `^resources\\[0\\]\\.fields\\[${s.resources[0].fields.length - 1}\\]\\.name: field ".*" is given twice \\(first at resources\\[0\\]\\.fields\\[0\\]\\)$`],
    ['a field duplicated within a request body', (s: Json) => { const e = s.endpoints.find((x: Json) => x.body?.length); e.body.push(e.body[0]); }, () => '^endpoints\\[\\d+\\]\\.body\\[\\d+\\]\\.name: field ".*" is given twice'],
    ['a resource duplicated', (s: Json) => s.resources.push(s.resources[0]), (s: Json) => `^resources\\[${s.resources.length - 1}\\]\\.name: resource ".*" is given twice \\(first at resources\\[0\\]\\)$`],
    ['an unknown duplicated', (s: Json) => s.unknowns.push(s.unknowns[0]), (s: Json) => `^unknowns\\[${s.unknowns.length - 1}\\]\\.id: gap id "UNK-.*" is given twice \\(first at unknowns\\[0\\]\\)$`],
    ['an assumption with a conflict\'s id', (s: Json) => (s.assumptions[0].id = s.conflicts[0].id), () => '^conflicts\\[0\\]\\.id: gap id "CONFLICT-.*" is given twice \\(first at assumptions\\[0\\]\\)$'],
    ['a rule duplicated', (s: Json) => s.rules.push(s.rules[0]), (s: Json) => `^rules\\[${s.rules.length - 1}\\]\\.id: rule id ".*" is given twice`],
    ['a rule covering an endpoint the snapshot does not hold', (s: Json) => (s.rules[0].operations = ['NOPE /x']), () => '^rules\\[0\\]\\.operations\\[0\\]: names the endpoint "NOPE /x", which the snapshot does not hold$'],
    ['an assumption covering an endpoint the snapshot does not hold', (s: Json) => s.assumptions[0].operations.push('GET /nope'), (s: Json) => `^assumptions\\[0\\]\\.operations\\[${s.assumptions[0].operations.length - 1}\\]: names the endpoint "GET /nope"`],
    ['a conflict covering an endpoint the snapshot does not hold', (s: Json) => (s.conflicts[0].operations = ['GET /nope']), () => '^conflicts\\[0\\]\\.operations\\[0\\]: names the endpoint "GET /nope"'],
    ['a scope naming an endpoint the snapshot does not hold', (s: Json) => (s.rules[0].scope = { endpoints: ['noSuchEndpoint'] }), () => '^rules\\[0\\]\\.scope\\.endpoints\\[0\\]: names the endpoint "noSuchEndpoint"'],
    ['a rule naming a conflict the snapshot does not hold', (s: Json) => (s.rules[0].conflicts = ['CONFLICT-NOPE']), () => '^rules\\[0\\]\\.conflicts\\[0\\]: names the conflict "CONFLICT-NOPE"'],
    ['an operation not its method and path', (s: Json) => (s.endpoints[2].operation = `${s.endpoints[2].operation}x`), () => '^endpoints\\[2\\]\\.operation: ".*x" is not its method and path \\(".*"\\)$'],
    ['a replacement the snapshot does not hold', (s: Json) => (s.endpoints[0].deprecated = { cite: { section: 'Versioning' }, replacement: 'GET /nope' }), () => '^endpoints\\[0\\]\\.deprecated\\.replacement: names the endpoint "GET /nope"'],
    ['a ref to a resource that does not exist', (s: Json) => (s.resources[withRef(s)].fields.find((f: Json) => f.type.kind === 'ref').type.resource = 'Nope'), (s: Json) => `^resources\\[${withRef(s)}\\]\\.fields\\[\\d+\\]\\.type\\.resource: names the resource "Nope"`],
    ['a format the snapshot does not define', (s: Json) => (s.endpoints[endpointIndex(s, (e: Json) => e.pathParams.length)].pathParams[0].type = { kind: 'string', format: 'nope' }), () => '\\.pathParams\\[0\\]\\.type\\.format: names the format "nope"'],
  ])('refuses %s, naming where', (_, change, where) => {
    const s = JSON.parse(text) as Json;
    change(s);
    const message = (() => {
      try {
        parseSnapshot(JSON.stringify(s));
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(SnapshotError);
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(new RegExp(where(s)));
    expect(message.split('\n')).toHaveLength(1);
  });

  it('refuses JSON nested 20 000 deep without overflowing the stack', () => {
    const deep = text.replace('"tagGroups": [', `"tagGroups": [${nested(20000)},`);
    expect(() => parseSnapshot(deep)).toThrow(/nested deeper than/);
  });

  it('refuses an older snapshot format naming the one it found and the ones it reads', () => {
    expect(() => parseSnapshot(edited((s) => (s.format = 'hosted-site-contract/contract@1')))).toThrow(
      /^format: found "hosted-site-contract\/contract@1"; this version reads "hosted-site-contract\/contract@3" and "hosted-site-contract\/contract@2" only \(compare from a ref or file that holds one of them\)$/,
    );
  });

  it('reads format @2 (both body successes called plain) as the @3 snapshot it was: data where the endpoint reads', () => {
    const today = parseSnapshot(text);
    const older = edited((s) => {
      s.format = 'hosted-site-contract/contract@2';
      for (const e of s.endpoints) if (e.success.kind !== 'acknowledged') e.success.kind = 'plain';
    });
    expect(older).not.toContain('"sync-action"');
    const upgraded = parseSnapshot(older);
    expect(upgraded.endpoints.map((e) => e.success.kind)).toEqual(today.endpoints.map((e) => e.success.kind));
    expect(diffContracts(upgraded, today)).toEqual([]);
    // The first @2 snapshots had no errorTable: read, its cite marked as not recorded (a compatible change against today).
    const earliest = edited((s) => {
      s.format = 'hosted-site-contract/contract@2';
      for (const e of s.endpoints) if (e.success.kind !== 'acknowledged') e.success.kind = 'plain';
      delete (s as { errorTable?: unknown }).errorTable;
    });
    const changes = diffContracts(parseSnapshot(earliest), today);
    expect(changes.map((c) => [c.kind, c.classes])).toEqual([['error-table-cite-changed', ['compatible']]]);
    // In @2, only the two kinds of its own: a @3 kind is not one of them.
    expect(() => parseSnapshot(edited((s) => (s.format = 'hosted-site-contract/contract@2')))).toThrow(/\.success\.kind: must be one of "acknowledged", "plain"/);
  });

  it('refuses text past the size cap before parsing it', () => {
    expect(() => parseSnapshot(' '.repeat(MAX_SNAPSHOT_BYTES + 1))).toThrow(/larger than 32 MB/);
  });
});
