/**
 * Edges derived from a pattern's structure are what the pattern itself says: for random patterns
 * of the kind the model holds (anchored sequences of literals, classes with ranges, escapes and
 * groups with alternatives, under every quantifier), every edge the generator calls inside the
 * pattern (and its length limit) matches, every edge it calls outside does not. And for the
 * patterns the model holds, the edges the issue names are among them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats } from './formats.ts';
import { parsePattern, patternEdges, structuralDecider } from './pattern-edges.ts';
import { WP_COMMAND_MAX_LENGTH, WP_COMMAND_PATTERN } from './rules.ts';

/** Characters patterns are made of here: letters, digits, punctuation that needs escaping, white space. */
const literalArb = fc.constantFrom(...'abcxyzAZ09_-./:=@\'', ' ');
const escaped = (c: string) => (/[\\^$.*+?()[\]{}|\-/]/.test(c) ? `\\${c}` : c);
const classItemArb = fc.oneof(
  literalArb.map((c) => (c === '-' || c === ']' || c === '\\' || c === '^' ? `\\${c}` : c)),
  fc.constantFrom('a-z', 'A-Z', '0-9', 'a-f', '\\s', '\\d', '\\w', ' -/'),
);
const classArb = fc.tuple(fc.boolean(), fc.array(classItemArb, { minLength: 1, maxLength: 4 })).map(([negate, items]) => `[${negate ? '^' : ''}${items.join('')}]`);
const quantifierArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('?', '*', '+') },
  { weight: 1, arbitrary: fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.constantFrom('exact', 'open', 'range')).map(([n, d, kind]) => (kind === 'exact' ? `{${n}}` : kind === 'open' ? `{${n},}` : `{${n},${n + d}}`)) },
);
const { pattern: patternBodyArb } = fc.letrec((tie) => ({
  atom: fc.oneof(
    { weight: 3, arbitrary: literalArb.map(escaped) },
    { weight: 3, arbitrary: classArb },
    { weight: 1, arbitrary: fc.constantFrom('\\d', '\\w', '\\s', '\\S', '\\D', '.') },
    { weight: 1, arbitrary: fc.array(tie('sequence') as fc.Arbitrary<string>, { minLength: 1, maxLength: 3 }).map((branches) => `(?:${branches.join('|')})`) },
  ),
  sequence: fc.array(fc.tuple(tie('atom') as fc.Arbitrary<string>, quantifierArb).map(([a, q]) => a + q), { minLength: 1, maxLength: 3 }).map((items) => items.join('')),
  pattern: fc.array(fc.tuple(tie('atom') as fc.Arbitrary<string>, quantifierArb).map(([a, q]) => a + q), { minLength: 1, maxLength: 5 }).map((items) => items.join('')),
}));
const patternArb = fc.tuple(patternBodyArb, fc.boolean(), fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined })).map(([body, end, maxLength]) => ({ source: `^${body}${end ? '$' : ''}`, maxLength }));

describe('patternEdges', () => {
  it('for random patterns of the kind the model holds, each edge is classified as the pattern itself classifies it', () => {
    fc.assert(
      fc.property(patternArb, ({ source, maxLength }) => {
        // Two readings besides the one the edges use: JavaScript's without the `u` flag, and the automaton of the pattern's structure.
        const regex = new RegExp(source);
        const structural = structuralDecider(parsePattern(source));
        const fits = (value: string) => maxLength === undefined || [...value].length <= maxLength;
        for (const edge of patternEdges(source, maxLength === undefined ? {} : { maxLength })) {
          const where = `${source} (max ${maxLength}) on ${JSON.stringify(edge.value)}: ${edge.why}`;
          expect(regex.test(edge.value) && fits(edge.value), where).toBe(edge.inside);
          expect(structural(edge.value) && fits(edge.value), `${where} (structure)`).toBe(edge.inside);
        }
      }),
      { seed: 1106, numRuns: 400 },
    );
  });

  it.each(Object.entries(formats))('the %s format: every edge as its pattern says, some on each side', (_, format) => {
    const regex = new RegExp(format.pattern);
    const edges = patternEdges(format.pattern);
    for (const edge of edges) expect(regex.test(edge.value), `${JSON.stringify(edge.value)}: ${edge.why}`).toBe(edge.inside);
    expect(edges.some((e) => e.inside)).toBe(true);
    expect(edges.some((e) => !e.inside)).toBe(true);
  });

  it('`wp_command`: the edges that survived hand-written lists are derived (one white space and nothing after, a 5001-character command with a white-space tail)', () => {
    const edges = new Map(patternEdges(WP_COMMAND_PATTERN, { maxLength: WP_COMMAND_MAX_LENGTH }).map((e) => [e.value, e]));
    expect(edges.get('wp ')?.inside).toBe(false);
    expect(edges.get('wp a')?.inside).toBe(true);
    expect(edges.get('wpa')?.inside).toBe(false);
    const tails = [...edges.values()].filter((e) => e.value.length === WP_COMMAND_MAX_LENGTH + 1);
    expect(tails.length).toBeGreaterThan(0);
    expect(tails.every((e) => !e.inside)).toBe(true);
    for (const ws of [' ', '\t', '\r']) {
      expect(edges.get(`${'wp a'.padEnd(WP_COMMAND_MAX_LENGTH, 'a')}${ws}`)?.inside, JSON.stringify(ws)).toBe(false);
      expect(edges.get(`${'wp a'.padEnd(WP_COMMAND_MAX_LENGTH - 1, 'a')}${ws}`)?.inside, JSON.stringify(ws)).toBe(true);
    }
    // White space beyond ASCII: other dialects' `\s` decide it otherwise, so no edge uses it (ASM-WP-WHITESPACE-ASCII).
    for (const e of edges.values()) expect(e.value).not.toMatch(/[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/);
  });

  it.each([
    ['a lookahead', '^(?=a)a$'],
    ['a back-reference', '^(a)\\1$'],
    ['a word boundary', '^a\\b$'],
    ['an open class', '^[a$'],
    ['`^` in the middle', '^a^b$'],
  ])('refuses syntax it does not read: %s', (_, source) => {
    expect(() => parsePattern(source)).toThrow(/pattern/);
  });
});
