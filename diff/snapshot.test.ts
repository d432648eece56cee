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

  it('refuses JSON nested 20 000 deep without overflowing the stack', () => {
    const deep = text.replace('"tagGroups": [', `"tagGroups": [${nested(20000)},`);
    expect(() => parseSnapshot(deep)).toThrow(/nested deeper than/);
  });

  it('refuses an older snapshot format naming the one it found and the one it reads', () => {
    expect(() => parseSnapshot(edited((s) => (s.format = 'hosted-site-contract/contract@1')))).toThrow(
      /^format: found "hosted-site-contract\/contract@1"; this version reads "hosted-site-contract\/contract@2" only \(compare from a ref or file that holds that format\)$/,
    );
  });

  it('refuses text past the size cap before parsing it', () => {
    expect(() => parseSnapshot(' '.repeat(MAX_SNAPSHOT_BYTES + 1))).toThrow(/larger than 32 MB/);
  });
});
