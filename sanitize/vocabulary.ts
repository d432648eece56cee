/**
 * The suite's own vocabulary: text its code and its model write by themselves (report keys,
 * headings, rule ids, messages, notes, the document's quotes). A secret found in it (a served
 * password `failures`, a key `operation`) cannot be searched for in free text without rewriting
 * the report's own words, so the sanitizer hides it only where it stands as a value, and the
 * run says so. Read once, on first use, from the package's own files: whatever the suite can
 * print by itself is written there, so nothing is restated in a list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { api } from '../spec/api.ts';
import { foldText } from './scan.ts';
import { BoundedMap } from './bounded-map.ts';

/** The folders whose code writes what the suite prints (the mock's fixtures and hostile test servers hold secrets: not read). */
const WRITERS = ['bin', 'conformance', 'sanitize', 'spec'];
/** Test code, test kits and hostile servers: not the suite's output, and they hold the secrets tests hide. */
const NOT_WRITERS = /(\.test\.|test-kit|testing|test-target|hostile|\.d\.ts$|\.map$)/;

let corpus: string | undefined;
/**
 * Every run of GRAM units of the corpus, hashed into a bit set: a value with a run that is not
 * there is not in the corpus, which most values (random passwords, keys) show at once, without a
 * search of the whole corpus. A set bit proves nothing: the search decides.
 */
let grams: Uint8Array | undefined;
const GRAM = 8;
const GRAM_BITS = 1 << 23;

/** The hash of `text`'s units `from` to `from + GRAM`. */
function gramHash(text: string, from: number): number {
  let h = 0;
  for (let i = from; i < from + GRAM; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0) & (GRAM_BITS - 1);
}

/** 31 to the power GRAM - 1, in 32 bits: what the unit leaving a rolling hash weighs. */
const TOP = Array.from({ length: GRAM - 1 }).reduce<number>((p) => Math.imul(p, 31), 1);

/** Every gram of `text`, by a rolling hash equal to `gramHash` at each position. */
function gramsOf(text: string): Uint8Array {
  const set = new Uint8Array(GRAM_BITS / 8);
  if (text.length < GRAM) return set;
  let h = 0;
  for (let i = 0; i < GRAM; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  for (let i = 0; ; i++) {
    const bit = (h >>> 0) & (GRAM_BITS - 1);
    set[bit >>> 3]! |= 1 << (bit & 7);
    if (i + GRAM >= text.length) return set;
    h = (Math.imul(h - Math.imul(text.charCodeAt(i), TOP), 31) + text.charCodeAt(i + GRAM)) | 0;
  }
}

/**
 * Searches before the grams are built: a run asks about a few keys and passwords, each search a
 * fraction of a millisecond, while building the grams takes ~10 ms; past this many, they pay.
 */
const SEARCHES_BEFORE_GRAMS = 64;
let searches = 0;

/** False when some run of `folded` is surely not in the corpus; true when the search must decide. */
function mayHold(folded: string): boolean {
  if (folded.length < GRAM) return true;
  if (!grams && ++searches <= SEARCHES_BEFORE_GRAMS) return true;
  grams ??= gramsOf(corpus!);
  for (let i = 0; i + GRAM <= folded.length; i++) {
    const h = gramHash(folded, i);
    if ((grams[h >>> 3]! & (1 << (h & 7))) === 0) return false;
  }
  return true;
}

function load(): string {
  const root = new URL('../', import.meta.url);
  const parts = [JSON.stringify(api)];
  for (const dir of WRITERS) {
    let names: string[];
    try {
      names = readdirSync(new URL(`${dir}/`, root), { recursive: true, encoding: 'utf8' });
    } catch {
      continue; // a package laid out otherwise: the model's words remain
    }
    for (const name of names) {
      if (!/\.[jt]s$/.test(name) || NOT_WRITERS.test(name)) continue;
      try {
        // A compiled file's inline source map is base64 of the same words: left out.
        parts.push(readFileSync(fileURLToPath(new URL(`${dir}/${name}`, root)), 'utf8').replace(/^\/\/# sourceMappingURL=.*$/gm, ''));
      } catch {
        // unreadable: skipped
      }
    }
  }
  return foldText(parts.join('\n'));
}

/** Answers kept: every sanitizer of a run asks of the same keys and learned values (a search of the whole corpus each). */
const answers = new BoundedMap<string, boolean>(4096);

/** Whether `value` (case aside) occurs in text the suite writes by itself. */
export function inSuiteVocabulary(value: string): boolean {
  corpus ??= load();
  const folded = foldText(value);
  let found = answers.get(folded);
  if (found === undefined) {
    found = mayHold(folded) && corpus.includes(folded);
    // Kept by value only when short: a long secret is searched for once per sanitizer that adds it.
    if (folded.length <= 256) answers.set(folded, found);
  }
  return found;
}
