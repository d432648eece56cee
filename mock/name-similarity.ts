/**
 * How alike two names are, for the did-you-means (an endpoint, a body field, a code of the model):
 * by characters, and by the words a name is made of, the way a person reads `clear-cache`,
 * `clear_cache` and `clearCache` as one name and `cdn-cache/clear` as the same words swapped.
 */

/** Levenshtein distance over characters, divided by the longer length: 0 equal, 1 nothing shared. */
export function textDistance(a: string, b: string): number {
  if (a === b) return 0;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]! / Math.max(a.length, b.length);
}

/** Characters of a word compared: a longer run is no word a person typed, and comparing it costs its square. */
const WORD_CHARS = 32;

/**
 * A word without its plural ending, so `site` and `sites`, `company` and `companies` are one word.
 * Applied to both sides of every comparison, so a stem that is not English (`dns` → `dn`) is harmless.
 */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** The words of a name, lower case and stemmed: camelCase, `-`, `_`, `.` and spaces all separate words. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => stem(w.slice(0, WORD_CHARS)));
}

/** Below this distance two words are one misspelt; at a third, a three-letter word is another (`get`, `set`). */
const TYPO = 1 / 3;
/** What an abbreviation (`env` for `environment`, `cache` for `caching`) is worth beside the word itself. */
const ABBREVIATION = 0.8;

/** How alike two words are, from 0 (unrelated) to 1 (the same word): a misspelling or an abbreviation in between. */
export function wordSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const d = textDistance(a, b);
  const typo = d < TYPO ? 1 - d : 0;
  let prefix = 0;
  while (prefix < a.length && a[prefix] === b[prefix]) prefix++;
  const abbreviation = prefix >= 3 && prefix >= 0.75 * Math.min(a.length, b.length) ? ABBREVIATION : 0;
  return Math.max(typo, abbreviation);
}

export type Similarity = (a: string, b: string) => number;

/**
 * `wordSimilarity`, each pair computed once: for a caller that compares the same few words many
 * times over (a path against every template of the model).
 */
export function rememberingSimilarity(): Similarity {
  const known = new Map<string, number>();
  return (a, b) => {
    const key = a < b ? `${a}\0${b}` : `${b}\0${a}`;
    let value = known.get(key);
    if (value === undefined) known.set(key, (value = wordSimilarity(a, b)));
    return value;
  };
}

/** How much of `words` the best matches among `others` cover, summed (0 to `words.length`). */
export function coverage(words: readonly string[], others: readonly string[], similarity: Similarity = wordSimilarity): number {
  let sum = 0;
  for (const w of words) {
    let best = 0;
    for (const o of others) if (best < 1) best = Math.max(best, similarity(w, o));
    sum += best;
  }
  return sum;
}

/**
 * How alike two lists of words are, in any order: a soft Dice coefficient (each word counts by its
 * best match on the other side), 1 for the same words, 0 for none alike.
 */
export function wordsSimilarity(a: readonly string[], b: readonly string[], similarity: Similarity = wordSimilarity): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  return (coverage(a, b, similarity) + coverage(b, a, similarity)) / (a.length + b.length);
}
