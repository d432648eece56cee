/**
 * Ids that name nothing the key may read (§Authentication 4: "Data that does not exist, or that
 * the key's user may not read, yields 404 on read endpoints"; §Resources and fields: ids are
 * "strings in UUID format"): an unknown UUID of any version, the real id with one digit changed
 * at any position (a server that matches a prefix, or ignores a digit, finds the real one), an id
 * the company holds of another kind of thing (a server that looks any id up in one table finds
 * it), and the real id with something before or after it (a server that trims or parses leniently).
 */
import fc from 'fast-check';
import { operator, type Operator } from './operator.ts';

const READ_404 = '§Authentication 4: "Data that does not exist, or that the key\'s user may not read, yields 404 on read endpoints"';

export const referenceOperators = {
  unknown: operator({ id: 'reference:unknown', family: 'reference', title: 'an unknown UUID', reading: READ_404, expect: 'invalid', rank: 0 }),
  nearMiss: operator({ id: 'reference:near-miss', family: 'reference', title: 'the real id with one digit changed', reading: READ_404, expect: 'invalid', rank: 1 }),
  wrongKind: operator({ id: 'reference:wrong-kind', family: 'reference', title: 'an id of another kind of thing the company holds', reading: READ_404, expect: 'invalid', rank: 1 }),
  foreign: operator({ id: 'reference:foreign', family: 'reference', title: "another company's id", reading: `${READ_404}; "\`<API_KEY>\` is an API key of the company"`, expect: 'invalid', rank: 0 }),
  malformed: operator({
    id: 'reference:malformed',
    family: 'reference',
    title: 'an id that is not a UUID',
    reading: `${READ_404}; §Endpoints > Conventions: path ids "are UUID strings" (400 or 404: CONFLICT-READ-MALFORMED-ID)`,
    expect: 'invalid',
    rank: 2,
  }),
} as const satisfies Record<string, Operator>;

export const unusedReferenceOperators: readonly Operator[] = [
  operator({
    id: 'reference:other-case',
    family: 'reference',
    title: 'the real id in the other case',
    reading: 'RFC 9562 §4',
    expect: 'invalid',
    rank: 9,
    unused: 'RFC 9562 reads UUID text in either case, and the document does not say whether a server compares ids so: a server may find the real one, or not',
  }),
];

const HEX = '0123456789abcdef';

/** UUIDs no server holds, with overwhelming odds: random ones of every version and variant, and the nil and max UUIDs. */
export const unknownUuidArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.noBias(fc.uuid()) },
  { weight: 1, arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff') },
);

/** Hex digit positions of a UUID's text (the hyphens left out). */
const digitPositions = (id: string): number[] => [...id].flatMap((c, i) => (/[0-9a-fA-F]/.test(c) ? [i] : []));

/** The id with the hex digit at `at` changed to another (`pick` chooses which), in the id's case. */
export function changedDigit(id: string, at: number, pick: number): string {
  const c = id[at]!;
  const choices = HEX.replace(c.toLowerCase(), '');
  const to = choices[pick % choices.length]!;
  return `${id.slice(0, at)}${c === c.toUpperCase() && /[A-F]/.test(c) ? to.toUpperCase() : to}${id.slice(at + 1)}`;
}

/** The real id with one digit changed: the last first (canonical), any position generated (shrinking toward the first). */
export function nearMissIds(id: string): { readonly first: string; readonly arbitrary: fc.Arbitrary<string> } {
  const positions = digitPositions(id);
  if (!positions.length) return { first: `${id}0`, arbitrary: fc.constant(`${id}0`) };
  return {
    first: changedDigit(id, positions.at(-1)!, 0),
    arbitrary: fc.tuple(fc.constantFrom(...positions), fc.nat({ max: 14 })).map(([at, pick]) => changedDigit(id, at, pick)),
  };
}

/** The real id with something around it that makes it no UUID: white space, a character, a second id. */
export const paddedIdArb = (id: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(' ', '\t', '0', 'x', '{').map((c) => `${c}${id}`),
    fc.constantFrom(' ', '\n', '0', 'x', '}', '.json', `,${id}`).map((c) => `${id}${c}`),
  );
