import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seconds } from './answers.ts';

describe('seconds', () => {
  // English number formatting is the oracle: the hand-written one must read the same.
  const english = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

  it('reads as Intl.NumberFormat writes one decimal at most, thousands grouped', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat({ max: 10_000 }), fc.nat({ max: 2_000_000_000 }), fc.double({ min: 0, max: 1e7, noNaN: true })), (ms) => {
        expect(seconds(ms)).toBe(`${english.format(ms / 1000)} s`);
      }),
    );
  });

  it('rounds halves up at the tenth, and drops a zero tenth', () => {
    expect(seconds(1250)).toBe('1.3 s');
    expect(seconds(1049)).toBe('1 s');
    expect(seconds(999_950)).toBe('1,000 s');
    expect(seconds(0)).toBe('0 s');
  });
});
