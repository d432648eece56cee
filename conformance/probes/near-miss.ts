/**
 * Keys that are almost the company's (AUTH-401): what an off-by-one or a lax comparison lets
 * through (a server that compares the first 16 characters, a prefix, or without case). Each is
 * derived from the real key, so the sanitizer learns it as a secret of its own, shown as the
 * key's marker with what was done to it, and curl lines rebuild it from `$HSC_API_KEY` in the
 * shell: no form of the key is ever printed. (The character put in its last place says whether
 * the real one was `0`: nothing more.)
 */
import type { Secret } from '../../sanitize/sanitizer.ts';

export interface NearMiss {
  /** What was done to the key, for probe titles and the sanitizer's marker. */
  readonly how: string;
  readonly value: string;
  /** The shell expression that rebuilds it from the real key's variable. */
  readonly shell: string;
}

/** Each letter in the other case. */
const flipCase = (text: string): string => [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');

/** The near misses of `key`, as a variable named `name` holds it; a case flip only where the key has letters. */
export function nearMissKeys(key: string, name = 'HSC_API_KEY'): NearMiss[] {
  const head = key.slice(0, -1);
  const last = key.at(-1) === '0' ? '1' : '0';
  const misses: NearMiss[] = [
    { how: 'its last character changed', value: `${head}${last}`, shell: `"\${${name}%?}${last}"` },
    { how: 'its last character dropped', value: head, shell: `"\${${name}%?}"` },
    { how: 'one character appended', value: `${key}0`, shell: `"\${${name}}0"` },
  ];
  const flipped = flipCase(key);
  if (flipped !== key) misses.push({ how: 'every letter in the other case', value: flipped, shell: `"$(printf %s "$${name}" | tr 'a-zA-Z' 'A-Za-z')"` });
  // A one-character key has no head: dropping its character leaves no key at all, which `no Authorization header` covers.
  return misses.filter((m) => m.value !== '' && m.value !== key);
}

/** The near misses as secrets: hidden wherever they stand, named after the key they come from. */
export const nearMissSecrets = (key: string, name = 'HSC_API_KEY'): Secret[] =>
  nearMissKeys(key, name).map((m) => ({ value: m.value, name: `${name} with ${m.how}`, kind: 'key', shell: m.shell }));
