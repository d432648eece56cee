/**
 * How alike two names are (name-similarity.ts): the properties the did-you-means rely on. A
 * distance is 0 only for the same text and symmetric; the words of a name do not depend on how
 * they are joined or on a plural; a misspelt or shortened word is like the word, another is not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textDistance, wordSimilarity, wordsOf, wordsSimilarity } from './name-similarity.ts';

const wordArb = fc.stringMatching(/^[a-z]{2,10}$/);

describe('textDistance', () => {
  it('is 0 only for the same text, at most 1, and symmetric', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = textDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(1);
        expect(textDistance(b, a)).toBe(d);
      }),
    );
  });
});

describe('wordsOf', () => {
  it('reads the same words whatever joins them', () => {
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 1, maxLength: 4 }), (words) => {
        const camel = words.map((w, i) => (i === 0 ? w : `${w[0]!.toUpperCase()}${w.slice(1)}`)).join('');
        for (const joined of [words.join('_'), words.join('.'), words.join(' '), camel, words.join('-').toUpperCase()]) expect(wordsOf(joined), joined).toEqual(wordsOf(words.join('-')));
      }),
    );
  });

  it.each([
    ['sites', 'site'],
    ['companies', 'company'],
    ['backups', 'backup'],
    ['accounts', 'account'],
  ])('reads %s as %s', (plural, singular) => {
    expect(wordsOf(plural)).toEqual(wordsOf(singular));
  });

  it('keeps words that only end like a plural apart from their stem', () => {
    expect(wordsOf('status')).not.toEqual(wordsOf('statu'));
    expect(wordsOf('address')).not.toEqual(wordsOf('addres'));
  });
});

describe('wordSimilarity', () => {
  it.each([
    ['a misspelling', { given: ['password', 'pasword'], want: 'alike' }],
    ['an abbreviation', { given: ['env', 'environment'], want: 'alike' }],
    ['another form of a word', { given: ['cache', 'caching'], want: 'alike' }],
    ['one letter apart in a short word', { given: ['get', 'set'], want: 'unlike' }],
    ['other words', { given: ['ssh', 'sftp'], want: 'unlike' }],
  ] as const)('%s', (_, { given: [a, b], want }) => {
    const s = wordSimilarity(a, b);
    expect(s).toBe(wordSimilarity(b, a));
    if (want === 'alike') expect(s).toBeGreaterThan(0.5);
    else expect(s).toBe(0);
  });

  it('lists of words are alike in any order', () => {
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 1, maxLength: 5 }), (words) => {
        expect(wordsSimilarity(words, [...words].reverse())).toBe(1);
      }),
    );
  });
});
