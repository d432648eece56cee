import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingDepth, parseBoundedJson } from './json.ts';

/** The depth of a parsed value, counted the plain recursive way (the values here are small). */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value as object).map(depthOf)) : 0;

describe('nestingDepth', () => {
  it('is the depth of the value the text parses to, brackets inside strings and escapes not counted', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        const text = JSON.stringify(value);
        expect(nestingDepth(text, 1000)).toBe(depthOf(JSON.parse(text)));
      }),
    );
    expect(nestingDepth('{"a":"[[[{{\\\\\\"]]"}')).toBe(1);
  });

  it('stops counting past the limit: a 100 000-deep text is not walked to its end', () => {
    expect(nestingDepth('['.repeat(100_000), 256)).toBe(257);
  });
});

describe('parseBoundedJson', () => {
  it.each([
    ['empty', '  ', { error: 'empty' }],
    ['too deep', `${'['.repeat(300)}${']'.repeat(300)}`, { error: 'deep', message: 'nested more than 256 levels deep' }],
    ['exactly at the bound', `${'['.repeat(256)}${']'.repeat(256)}`, { json: expect.anything() }],
    ['not JSON', '<html>', { error: 'syntax' }],
  ])('%s', (_, text, want) => {
    expect(parseBoundedJson(text)).toMatchObject(want);
  });
});
