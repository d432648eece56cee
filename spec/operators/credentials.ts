/**
 * Credentials (§Authentication: "Every endpoint requires the header `Authorization: Bearer
 * <API_KEY>`, where `<API_KEY>` is an API key of the company"; "A missing or invalid key yields
 * HTTP 401"):
 * - keys one step from the real one: a character changed at any position, cut at any length,
 *   extended, two neighbours swapped, a letter in the other case, a key of the same shape; each
 *   with the shell expression that rebuilds it from the real key's variable, so no form of the
 *   key is ever printed (the sanitizer learns each as a secret of its own);
 * - the header written wrong: a second token after the key;
 * - the scheme's valid spellings (RFC 9110 §11.1: scheme names are case-insensitive; §11.4:
 *   `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`): these must be *accepted*;
 * - every conventional carrier other than the `Authorization` header (RFC 6750 §2.3's
 *   `access_token` query parameter, the common query, header and cookie names, the key with no
 *   scheme or under another): each must be refused. A URL lands in access logs, so the query
 *   carriers take the real key only against a loopback target or with an explicit flag.
 */
import fc from 'fast-check';
import { operator, type Applied, type Operator } from './operator.ts';

const INVALID = '§Authentication 2: "A missing or invalid key yields HTTP 401"; the key is an API key of the company';
const BEARER_ONLY = '§Endpoints > Conventions: "Every endpoint requires the header `Authorization: Bearer <API_KEY>`"';

export const credentialOperators = {
  none: operator({ id: 'credential:none', family: 'credential', title: 'no `Authorization` header', reading: INVALID, expect: 'invalid', rank: 2 }),
  random: operator({ id: 'credential:random', family: 'credential', title: 'a key no company has', reading: INVALID, expect: 'invalid', rank: 1 }),
  empty: operator({ id: 'credential:empty', family: 'credential', title: 'the scheme with no key, or alone', reading: INVALID, expect: 'invalid', rank: 3 }),
  foreign: operator({ id: 'credential:foreign', family: 'credential', title: "another company's key", reading: `${INVALID}; "\`<API_KEY>\` is an API key of the company"`, expect: 'invalid', rank: 1 }),
  change: operator({ id: 'credential:change', family: 'credential', title: 'the key with one character changed', reading: INVALID, expect: 'invalid', rank: 1 }),
  cut: operator({ id: 'credential:cut', family: 'credential', title: 'the key cut short', reading: INVALID, expect: 'invalid', rank: 0 }),
  extend: operator({ id: 'credential:extend', family: 'credential', title: 'the key with characters appended', reading: INVALID, expect: 'invalid', rank: 2 }),
  transpose: operator({ id: 'credential:transpose', family: 'credential', title: 'the key with two neighbours swapped', reading: INVALID, expect: 'invalid', rank: 3 }),
  caseFlip: operator({ id: 'credential:case', family: 'credential', title: 'the key with letters in the other case', reading: INVALID, expect: 'invalid', rank: 2 }),
  sameShape: operator({ id: 'credential:same-shape', family: 'credential', title: 'another key of the same length and alphabet', reading: INVALID, expect: 'invalid', rank: 1 }),
  secondToken: operator({
    id: 'credential:second-token',
    family: 'credential',
    title: 'a second token after the key',
    reading: `${INVALID}; RFC 9110 §11.4 and RFC 6750 §2.1: the credentials after \`Bearer\` are one token`,
    expect: 'invalid',
    rank: 1,
  }),
  schemeCase: operator({ id: 'spelling:scheme-case', family: 'spelling', title: 'the scheme in another case', reading: 'RFC 9110 §11.1: "It uses a case-insensitive token to identify the authentication scheme"', expect: 'valid', rank: 0 }),
  schemeSpaces: operator({ id: 'spelling:spaces', family: 'spelling', title: 'several spaces after the scheme', reading: 'RFC 9110 §11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`', expect: 'valid', rank: 1 }),
  many: operator({
    id: 'carrier:many',
    family: 'carrier',
    title: 'the key in every conventional place but `Authorization: Bearer` at once (no `Authorization` header)',
    reading: `${BEARER_ONLY}: none of these is it, so together they are not either; shrinking names the one taken`,
    expect: 'invalid',
    rank: 0,
  }),
  query: operator({ id: 'carrier:query', family: 'carrier', title: 'the key in a query parameter', reading: `${BEARER_ONLY}; RFC 6750 §2.3 names \`access_token\``, expect: 'invalid', rank: 2 }),
  header: operator({ id: 'carrier:header', family: 'carrier', title: 'the key in a header of its own', reading: BEARER_ONLY, expect: 'invalid', rank: 2 }),
  cookie: operator({ id: 'carrier:cookie', family: 'carrier', title: 'the key in a cookie', reading: BEARER_ONLY, expect: 'invalid', rank: 2 }),
  noScheme: operator({ id: 'carrier:no-scheme', family: 'carrier', title: 'the key as the whole `Authorization` value', reading: BEARER_ONLY, expect: 'invalid', rank: 1 }),
  otherScheme: operator({ id: 'carrier:other-scheme', family: 'carrier', title: 'the key under another scheme', reading: BEARER_ONLY, expect: 'invalid', rank: 1 }),
} as const satisfies Record<string, Operator>;

export const unusedCredentialOperators: readonly Operator[] = [
  operator({
    id: 'carrier:form-body',
    family: 'carrier',
    title: 'the key as `access_token` in a form body (RFC 6750 §2.2)',
    reading: 'RFC 6750 §2.2',
    expect: 'invalid',
    rank: 9,
    unused: 'on an action, a refusal of the form body (400, a body that is not JSON) cannot be told from a refusal of the key; RFC 6750 §2.2 does not apply to GET',
  }),
];

/** A key derived from the real one, and how a shell rebuilds it from the variable `name`. */
export interface KeyVariant {
  readonly value: string;
  /** What was done, for titles and the sanitizer's marker: `its 21st character changed`. */
  readonly how: string;
  /** A shell expression (bash, zsh) that rebuilds it from `$name`. */
  readonly shell: string;
}

/** Characters a changed key is given: letters and digits, which need no quoting in a shell. */
const PLAIN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** A character of PLAIN other than `not`, picked by `pick` (a whole number). */
const otherThan = (not: string, pick: number): string => {
  const choices = PLAIN.replace(not, '');
  return choices[pick % choices.length]!;
};

const flip = (c: string): string => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/**
 * The keys one step from `key`, each with its canonical first value (at the key's end, where a
 * comparison of a prefix does not look) and an arbitrary over every position (shrinking toward
 * the start, so a failure shows the first position a server does not compare). `name` is the
 * variable the real key is read from in curl lines.
 */
export function keyVariants(key: string, name: string): Applied<KeyVariant>[] {
  const o = credentialOperators;
  const n = key.length;
  const v = `\${${name}`;
  const change = (at: number, pick: number): KeyVariant => {
    const to = otherThan(key[at]!, pick);
    return { value: `${key.slice(0, at)}${to}${key.slice(at + 1)}`, how: `its ${ordinal(at + 1)} character changed to \`${to}\``, shell: `"${v}:0:${at}}${to}${v}:${at + 1}}"` };
  };
  const cut = (length: number): KeyVariant => ({ value: key.slice(0, length), how: `only its first ${length} characters`, shell: `"${v}:0:${length}}"` });
  const extend = (tail: string): KeyVariant => ({ value: `${key}${tail}`, how: `\`${tail}\` appended`, shell: `"${v}}${tail}"` });
  const transpose = (at: number): KeyVariant => ({
    value: `${key.slice(0, at)}${key[at + 1]}${key[at]}${key.slice(at + 2)}`,
    how: `its ${ordinal(at + 1)} and ${ordinal(at + 2)} characters swapped`,
    shell: `"${v}:0:${at}}${v}:${at + 1}:1}${v}:${at}:1}${v}:${at + 2}}"`,
  });
  const flipOne = (at: number): KeyVariant => ({
    value: `${key.slice(0, at)}${flip(key[at]!)}${key.slice(at + 1)}`,
    how: `its ${ordinal(at + 1)} character in the other case`,
    shell: `"${v}:0:${at}}$(printf %s "${v}:${at}:1}" | tr a-zA-Z A-Za-z)${v}:${at + 1}}"`,
  });
  const letters = [...key].flatMap((c, i) => (flip(c) !== c ? [i] : []));
  const swappable = [...key].flatMap((c, i) => (i + 1 < n && key[i + 1] !== c ? [i] : []));
  const out: Applied<KeyVariant>[] = [];
  const what = 'the key';
  if (n >= 1) out.push({ operator: o.change, what, first: change(n - 1, 0), arbitrary: fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: PLAIN.length - 2 })).map(([at, pick]) => change(at, pick)) });
  // Cut to at least 8 characters: a shorter prefix is no near miss of a key, and a secret the outputs could not search for by itself.
  if (n >= 2) out.push({ operator: o.cut, what, first: cut(n - 1), arbitrary: fc.integer({ min: Math.min(MIN_CUT, n - 1), max: n - 1 }).map(cut) });
  out.push({ operator: o.extend, what, first: extend('0'), arbitrary: fc.string({ unit: fc.constantFrom(...PLAIN), minLength: 1, maxLength: 8 }).map(extend) });
  if (swappable.length) out.push({ operator: o.transpose, what, first: transpose(swappable.at(-1)!), arbitrary: fc.constantFrom(...swappable).map(transpose) });
  if (letters.length) {
    const all: KeyVariant = { value: [...key].map(flip).join(''), how: 'every letter in the other case', shell: `"$(printf %s "${v}}" | tr a-zA-Z A-Za-z)"` };
    out.push({ operator: o.caseFlip, what, first: all, arbitrary: fc.oneof(fc.constant(all), fc.constantFrom(...letters).map(flipOne)) });
  }
  return out;
}

/** Keys of the same length as `key`, each character from its class (letters, digits, as they stand): never `key` itself. */
export function sameShapeArb(key: string): fc.Arbitrary<string> {
  const classOf = (c: string) => (/[a-z]/.test(c) ? 'abcdefghijklmnopqrstuvwxyz' : /[A-Z]/.test(c) ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' : /[0-9]/.test(c) ? '0123456789' : c);
  return fc
    .tuple(...[...key].map((c) => fc.constantFrom(...classOf(c))))
    .map((chars) => chars.join(''))
    .filter((k) => k !== key);
}

/** What a second token after the key looks like: a word, another key-like token, a repeat of the scheme. */
export const secondTokenArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('extra', 'x', 'Bearer', 'null'),
  fc.string({ unit: fc.constantFrom(...PLAIN), minLength: 1, maxLength: 12 }),
);

/** The scheme's valid spellings: its letters in any case (never the document's own `Bearer`). */
export const schemeCaseArb: fc.Arbitrary<string> = fc.mixedCase(fc.constant('bearer')).filter((s) => s !== 'Bearer');

/** One to four spaces more than the one the document writes: `1*SP`. */
export const schemeSpacesArb: fc.Arbitrary<number> = fc.integer({ min: 2, max: 5 });

/** The shortest a cut key is drawn. */
const MIN_CUT = 8;

// ---- carriers -------------------------------------------------------------------------------------

/** The words key carriers are named with, alone or joined (`api_key`, `accessToken`, `X-Auth-Token`). */
const WORDS: readonly (readonly string[])[] = [['api', 'key'], ['apikey'], ['key'], ['token'], ['access', 'token'], ['auth', 'token'], ['auth'], ['api', 'token'], ['bearer'], ['jwt'], ['session'], ['authorization']];
const joined = (words: readonly string[], sep: string, style: 'lower' | 'upper' | 'camel' | 'pascal'): string => {
  const cased = words.map((w, i) => (style === 'upper' ? w.toUpperCase() : style === 'lower' || (style === 'camel' && i === 0) ? w : `${w[0]!.toUpperCase()}${w.slice(1)}`));
  return cased.join(style === 'camel' || style === 'pascal' ? '' : sep);
};

/** Query parameter and cookie names a key is conventionally carried in: RFC 6750 §2.3's `access_token` first. */
export const carrierNameArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...WORDS), fc.constantFrom('_', '-'), fc.constantFrom('lower', 'camel', 'upper', 'pascal') as fc.Arbitrary<'lower' | 'upper' | 'camel' | 'pascal'>)
  .map(([words, sep, style]) => joined(words, sep, style));

/** Header names a key is conventionally carried in (`X-API-Key`, `Api-Key`, `X-Auth-Token`, `Token`). */
export const carrierHeaderArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', 'X-'), fc.constantFrom(...WORDS.filter((w) => w.join('') !== 'authorization')))
  .map(([prefix, words]) => `${prefix}${words.map((w) => `${w[0]!.toUpperCase()}${w.slice(1)}`).join('-')}`);

/** Headers that carry a whole `Bearer <key>` value but are not `Authorization` (what proxies and gateways map onto it). */
export const BEARER_HEADERS = ['X-Authorization', 'X-Forwarded-Authorization', 'X-Original-Authorization', 'Authentication', 'Proxy-Authorization'] as const;
export const bearerHeaderArb: fc.Arbitrary<string> = fc.constantFrom(...BEARER_HEADERS);

/**
 * Whether a header, query parameter or cookie name is one keys are carried under: the carriers'
 * words in any joining and case, with or without `X-`, and the headers that carry a whole bearer
 * value. (`authorization` is one: as a header it is the document's own, which callers read first.)
 */
export function namesKeyCarrier(name: string): boolean {
  const lower = name.toLowerCase();
  return BEARER_HEADERS.some((h) => h.toLowerCase() === lower) || CARRIER_WORDS.has(lower.replace(/^x-/, '').replace(/[-_]/g, ''));
}
const CARRIER_WORDS: ReadonlySet<string> = new Set(WORDS.map((w) => w.join('')));

/** Schemes other than bearer a key is sent under (`Token`, `ApiKey`, `Basic` is built apart). */
export const otherSchemeArb: fc.Arbitrary<string> = fc.constantFrom('Token', 'ApiKey', 'Api-Key', 'Key', 'JWT', 'Bearer-Token', 'OAuth', 'Digest');
