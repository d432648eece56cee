/**
 * Forms of a known secret that once slipped past the scanner (issue 21, item 4): zero-padded and
 * `;`-less HTML references, line breaks with indentation and white space inside a secret, case
 * mappings that change length (`ß` → `SS`), and hex of its UTF-8 bytes. Every form is built by
 * the encoders of echo-forms.ts or by the platform's own functions, never by the sanitizer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexOfUtf8, htmlNamedWithoutSemicolon, htmlNumericReferences } from './echo-forms.ts';
import { fieldSecret, keySecret, REDACTED, Sanitizer } from './sanitizer.ts';

/** A key with every character HTML escapes, and letters whose upper case is longer (`ß`, `ﬁ`). */
const KEY = `hsc_Stra\u00dfe&\ufb01x<Q>"o'_9f3kZ27mWq`;
/** A served password with white space in it, and the same kinds of characters. */
const PASSWORD = 'Gr\u00fc\u00dfe aus K\u00f6ln & <\ufb01rma> "x" 42!';
const KEY_MARKER = '[redacted HSC_API_KEY]';

/** Each piece of `text` of `length` units (the whole of it when it is shorter). */
const pieces = (text: string, length = 7): string[] =>
  text.length <= length ? [text] : Array.from({ length: text.length - length + 1 }, (_, i) => text.slice(i, i + length));

/** `text` with a run of white space put in after every `every` characters (a server's line layout, a person's grouping). */
const spacedEvery = (text: string, every: number, space: string): string => (text.match(new RegExp(`[^]{1,${every}}`, 'gu')) ?? []).join(space);

/** `text` broken once, after `at` characters, by `lineBreak` (a line break and the indentation around it). */
const brokenAt = (text: string, at: number, lineBreak: string): string => `${text.slice(0, at)}${lineBreak}${text.slice(at)}`;

type Form = (secret: string) => string;

const FORMS: readonly [string, Form][] = [
  ['HTML decimal references, zero-padded (&#0000000075;)', (s) => htmlNumericReferences(s, { hex: false, width: 10 })],
  ['HTML hex references, zero-padded, upper case (&#x00000000004B;)', (s) => htmlNumericReferences(s, { width: 12, upper: true })],
  ['HTML decimal references without ; (&#75)', (s) => htmlNumericReferences(s, { hex: false, semicolon: false })],
  ['HTML hex references without ; (&#x4b)', (s) => htmlNumericReferences(s, { semicolon: false })],
  ['HTML references zero-padded and without ; (&#x0004b)', (s) => htmlNumericReferences(s, { width: 5, semicolon: false })],
  ['legacy named references without ; (&amp &lt &gt &quot &apos)', htmlNamedWithoutSemicolon],
  ['broken by a line break and indentation', (s) => brokenAt(s, 8, '\n        ')],
  ['broken by CRLF with white space on both sides', (s) => brokenAt(s, 9, ' \t\r\n\t\t')],
  ['spaced in groups of four', (s) => spacedEvery(s, 4, ' ')],
  ['tabs inside', (s) => spacedEvery(s, 5, '\t')],
  ['upper-cased, letters growing (ß → SS, ﬁ → FI)', (s) => s.toUpperCase()],
  ['hex of its UTF-8 bytes', (s) => hexOfUtf8(s)],
  ['hex of its UTF-8 bytes, upper case', (s) => hexOfUtf8(s).toUpperCase()],
  ['hex of its UTF-8 bytes, colon-separated (6b:65:79)', (s) => hexOfUtf8(s, ':')],
  ['hex of its UTF-8 bytes, dash-separated, upper case (6B-65-79)', (s) => hexOfUtf8(s, '-').toUpperCase()],
  ['hex of its UTF-8 bytes, space-separated (6b 65 79)', (s) => hexOfUtf8(s, ' ')],
];

describe('Sanitizer.text hides the forms of a secret that once slipped', () => {
  const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY'), fieldSecret(PASSWORD, 'sftp_password')]);
  const rows = [
    ['key', KEY, KEY_MARKER],
    ['served password', PASSWORD, REDACTED],
  ].flatMap(([whose, secret, marker]) => FORMS.map(([name, form]) => [`${whose}: ${name}`, secret!, marker!, form(secret!)] as const));

  it.each(rows)('%s', (_, secret, marker, echoed) => {
    const before = 'error: "';
    const after = '" was refused';
    const out = sanitizer.text(`${before}${echoed}${after}`);
    expect(out).toContain(marker);
    expect(out.startsWith(before)).toBe(true);
    expect(out.endsWith(after)).toBe(true);
    const left = out.slice(before.length, out.length - after.length).split(marker).join('').toLowerCase();
    for (const piece of [...pieces(secret), ...pieces(echoed)]) expect(left).not.toContain(piece.toLowerCase());
  });
});

describe('Sanitizer.text leaves near misses as they are', () => {
  const secret = 'stra\u00dfe-geheim-42';
  const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY'), fieldSecret(secret, 'sftp_password')]);
  it.each([
    ['a zero-padded reference to another letter', `&#0000000083;TRASSE-GEXEIM`],
    ['zero padding past the 32 digits read (no reference)', `&#${'0'.repeat(40)}83;trasse-geheim-42`],
    ['a reference without ; running into digits', 'total &#8312 and &#x5312b'],
    ['words that start like named references', 'Q&A: &amplifier &ltd &gtx &quotation &apostrophe'],
    ['the first 11 characters, upper-cased, then another', 'STRASSE-GEXEIM-42'],
    ['the secret spaced out, one letter off', 's t r a s s e - g e x e i m'],
    ['hex of the first 11 bytes, then other bytes', `${hexOfUtf8('strasse-geh')}ffffffffffffffff`],
    ['other bytes in hex, colon-separated', hexOfUtf8('\u00ab\u00cd\u00ef0123456789', ':')],
    ['a line break and indentation between unrelated words', 'first line\n        second line\r\n\tthird'],
  ])('%s', (_, text) => {
    expect(sanitizer.text(text)).toBe(text);
  });
});

describe('Sanitizer.text: white space inside a long stretch of text', () => {
  /** A base64-like stretch of `length` characters without white space, from a seeded xorshift. */
  const blob = (length: number, seed: number) => {
    let state = seed;
    return Array.from({ length }, () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[(state >>> 0) % 64];
    }).join('');
  };

  it.each([
    ['near its start', [100]],
    ['past the units kept of it, where its rest is assumed', [49_000]],
    ['in many places (a PEM block whose line breaks a log turned into spaces)', [64, 128, 20_000, 20_064, 49_936]],
    ['10 characters before its end', [49_990]],
  ])('hides a 50 000-character secret split by spaces %s, inside a long body', (_, at) => {
    const secret = blob(50_000, 1);
    const echoed = [0, ...at].map((from, i) => secret.slice(from, at[i] ?? secret.length)).join(' ');
    const text = `{"data":"${blob(20_000, 2)}","echo":"${echoed}","tail":"${blob(20_000, 3)}"}`;
    const out = new Sanitizer([fieldSecret(secret, 'sftp_password')]).text(text);
    expect(out).toBe(`{"data":"${blob(20_000, 2)}","echo":"${REDACTED}","tail":"${blob(20_000, 3)}"}`);
  });

  it('the work per unit does not grow with a run of white space inside a long secret', () => {
    const secret = blob(50_000, 1);
    const perUnit = (spaces: number) => {
      const sanitizer = new Sanitizer([fieldSecret(secret, 'sftp_password')]);
      const text = `${secret.slice(0, 1000)}${' \t'.repeat(spaces)}${secret.slice(1000)}`;
      sanitizer.text(text);
      return sanitizer.work / text.length;
    };
    expect(perUnit(200_000)).toBeLessThan(1.5 * perUnit(20_000));
  });

  it('ends the span of a secret quoted cut short where the words after it begin', () => {
    const secret = blob(50_000, 1);
    const out = new Sanitizer([fieldSecret(secret, 'sftp_password')]).text(`echo ${secret.slice(0, 30_000)} (truncated) and more`);
    expect(out).toBe(`echo ${REDACTED} (truncated) and more`);
  });
});

// ---- the property --------------------------------------------------------------------------------

/** Characters a secret is drawn from: ASCII, letters whose case mapping grows or shrinks, other scripts, an astral one. */
const SECRET_CHARS = [...'abcXYZ019-_/+&<>"\'', '\u00df', '\u1e9e', '\ufb01', '\ufb03', '\u0130', '\u0131', '\u00e9', '\u03a3', '\u03c2', '\u4e2d', '\u{1f511}'];
const SPACES = [' ', '  ', '\t', '\u00a0'];

/** A secret of 8 to 40 characters, 8 or more of them not white space, white space between some of them. */
const secretArb: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.constantFrom(...SECRET_CHARS), { minLength: 8, maxLength: 32 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SPACES)), { maxLength: 4 }))
  .map(([chars, spaces]) => {
    const out = [...chars];
    for (const [at, space] of spaces) if (at % out.length > 0) out.splice(at % out.length, 0, space);
    return out.join('');
  })
  .filter((s) => [...s].length >= 8 && [...s].length <= 40);

/** Each new form, its free choices drawn by `choice` (padding width, where a line breaks, which separator). */
const PROPERTY_FORMS: readonly [string, (secret: string, choice: number) => string][] = [
  ['zero-padded references', (s, c) => htmlNumericReferences(s, { hex: c % 2 === 0, width: c % 12, upper: c % 3 === 0 })],
  ['references without ;', (s, c) => htmlNumericReferences(s, { hex: c % 2 === 0, width: c % 5, semicolon: false })],
  ['named references without ;', (s) => htmlNamedWithoutSemicolon(s)],
  ['a line break and indentation', (s, c) => brokenAt(s, 1 + (c % (s.length - 1)), ['\n', '\r\n', ' \n  ', '\n\t\t'][c % 4]!)],
  ['white space inside', (s, c) => spacedEvery(s, 1 + (c % 6), SPACES[c % SPACES.length]!)],
  ['upper-cased', (s) => s.toUpperCase()],
  ['hex of UTF-8', (s, c) => (c % 2 ? hexOfUtf8(s, ['', ':', '-', ' '][c % 4]!) : hexOfUtf8(s, ['', ':', '-', ' '][c % 4]!).toUpperCase())],
];

describe('Sanitizer property: the new forms of a random secret are hidden in random text', () => {
  it('for secrets of 8 to 40 characters with ß, ﬁ, other scripts and white space', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.constantFrom(...PROPERTY_FORMS),
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.boolean(),
        (secret, [, form], choice, beforeText, afterText, isKey) => {
          // A space on each side: a reference without `;` ends there rather than in the next word.
          const before = `${beforeText} `;
          const after = ` ${afterText}`;
          const echoed = form(secret, choice);
          const sanitizer = new Sanitizer([isKey ? keySecret(secret, 'HSC_API_KEY') : fieldSecret(secret, 'sftp_password')]);
          const text = `${before}${echoed}${after}`;
          const out = sanitizer.text(text);
          expect(out).not.toContain(echoed);
          // No piece of the secret or of its form stays, but for those its neighbours hold themselves.
          for (const piece of [...pieces(secret), ...pieces(echoed)]) {
            if (!before.includes(piece) && !after.includes(piece)) expect(out).not.toContain(piece);
          }
          expect(sanitizer.work).toBeLessThanOrEqual(1000 * (text.length + 1));
        },
      ),
      { seed: 1106, numRuns: 400 },
    );
  });
});
