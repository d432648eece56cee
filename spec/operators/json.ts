/**
 * Bodies that are not JSON, or not a JSON object (§What the service does: "All request and
 * response bodies are JSON"; §Errors: 400 "Malformed or invalid request"): the valid body's
 * text cut at any length, followed by anything, or written in a JSON-like syntax JSON is not
 * (RFC 8259: no trailing comma, no single quotes, no comments, no NaN); and JSON values that
 * are not objects.
 */
import fc from 'fast-check';
import { operator, type Applied, type Operator } from './operator.ts';

const MALFORMED = '§What the service does: "All request and response bodies are JSON"; RFC 8259; §Errors: 400 "Malformed or invalid request"';

export const jsonOperators = {
  cut: operator({ id: 'json:cut', family: 'json', title: 'the body cut short', reading: MALFORMED, expect: 'invalid', rank: 1 }),
  trailing: operator({ id: 'json:trailing', family: 'json', title: 'the body followed by more', reading: MALFORMED, expect: 'invalid', rank: 1 }),
  syntax: operator({ id: 'json:syntax', family: 'json', title: 'JSON-like syntax JSON is not', reading: MALFORMED, expect: 'invalid', rank: 2 }),
  notJson: operator({ id: 'json:not-json', family: 'json', title: 'text that is not JSON', reading: MALFORMED, expect: 'invalid', rank: 1 }),
  notObject: operator({
    id: 'json:not-object',
    family: 'json',
    title: 'a JSON value that is not an object',
    reading: '§Endpoints: each body is the table\'s fields, an object; §Errors: 400 "Malformed or invalid request"',
    expect: 'invalid',
    rank: 1,
  }),
} as const satisfies Record<string, Operator>;

export const unusedJsonOperators: readonly Operator[] = [
  operator({
    id: 'json:duplicate-key',
    family: 'json',
    title: 'an object with a key twice',
    reading: 'RFC 8259 §4',
    expect: 'invalid',
    rank: 9,
    unused: 'RFC 8259 §4 says names SHOULD be unique and leaves a repeated one to the parser: such a body is JSON',
  }),
  operator({
    id: 'json:byte-order-mark',
    family: 'json',
    title: 'a byte order mark before the body',
    reading: 'RFC 8259 §8.1',
    expect: 'invalid',
    rank: 9,
    unused: 'RFC 8259 §8.1 lets a parser ignore a byte order mark: such a body may be read as JSON',
  }),
];

/**
 * A malformed body made from a valid body's JSON text (an object's, so no strict prefix of it is
 * JSON), as data (a drawn value fast-check shrinks and a test compares): the text cut, followed by
 * more, rewritten by a JSON-like syntax, or replaced. `textOf` makes it.
 */
export type TextBreak =
  | { readonly cut: number }
  | { readonly append: string }
  | { readonly rewrite: number }
  | { readonly text: string };

/** Rewritings of a JSON object's text into syntax JSON is not (each leaves the text as it was where it has nothing to rewrite). */
const SYNTAX: readonly (readonly [string, (t: string) => string])[] = [
  ['a trailing comma', (t) => t.replace(/\}$/, ',}')],
  ['single quotes', (t) => t.replace(/"/g, "'")],
  ['a comment before it', (t) => `/* probe */ ${t}`],
  ['a comment after it', (t) => `${t} // probe`],
  // A key, or a number value, where JSON.stringify wrote one (a `"` inside a string is escaped).
  ['an unquoted key', (t) => t.replace(/(?<=[{,])"([A-Za-z_][A-Za-z0-9_]*)":/, '$1:')],
  ['`NaN` for a number', (t) => t.replace(/(?<!\\)":-?\d+(?:\.\d+)?(?=[,}\]])/, '":NaN')],
];

/** The text a break makes of a valid body's JSON text. */
export function textOf(b: TextBreak, json: string): string {
  if ('cut' in b) return json.slice(0, Math.max(1, json.length - b.cut));
  if ('append' in b) return `${json}${b.append}`;
  if ('rewrite' in b) return SYNTAX[b.rewrite]![1](json);
  return b.text;
}

/** What a break does, for titles. */
export function describeTextBreak(b: TextBreak): string {
  if ('cut' in b) return `its last ${b.cut} character${b.cut > 1 ? 's' : ''} cut`;
  if ('append' in b) return `followed by ${JSON.stringify(b.append)}`;
  if ('rewrite' in b) return SYNTAX[b.rewrite]![0];
  return JSON.stringify(b.text);
}

/** Whether a text is no JSON object: what every malformed body must be (a rewriting that left JSON is no probe). */
export const isNoJsonObject = (text: string): boolean => {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed === null || typeof parsed !== 'object' || Array.isArray(parsed);
  } catch {
    return true;
  }
};

/** The malformed bodies of a valid body. `nullIsInvalid`: a JSON `null` body may read as no body at all, invalid only where a field is stated required. */
export function malformedBodies(nullIsInvalid: boolean): Applied<TextBreak>[] {
  const o = jsonOperators;
  const what = 'the body';
  const texts = (list: readonly string[]) => fc.constantFrom(...list).map((text): TextBreak => ({ text }));
  const notObjects = ['[]', '"text"', '42', 'true', ...(nullIsInvalid ? ['null'] : [])];
  return [
    { operator: o.cut, what, first: { cut: 1 }, arbitrary: fc.integer({ min: 1, max: 64 }).map((cut): TextBreak => ({ cut })) },
    { operator: o.trailing, what, first: { append: '}' }, arbitrary: fc.constantFrom('}', ']', ',', 'x', ' {}', ' null', '\u0000').map((append): TextBreak => ({ append })) },
    { operator: o.syntax, what, first: { rewrite: 0 }, arbitrary: fc.nat({ max: SYNTAX.length - 1 }).map((rewrite): TextBreak => ({ rewrite })) },
    { operator: o.notJson, what, first: { text: 'not json' }, arbitrary: texts(['not json', 'a=1&b=2', '<xml/>', 'undefined']) },
    { operator: o.notObject, what, first: { text: '[]' }, arbitrary: texts(notObjects) },
    // `null` where it is no body a request may send: sent as such, not only drawn.
    ...(nullIsInvalid ? [{ operator: o.notObject, what, first: { text: 'null' }, arbitrary: texts(notObjects) }] : []),
  ];
}
