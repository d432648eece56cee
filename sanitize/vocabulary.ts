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

/** The folders whose code writes what the suite prints (the mock's fixtures and hostile test servers hold secrets: not read). */
const WRITERS = ['bin', 'conformance', 'sanitize', 'spec'];
/** Test code, test kits and hostile servers: not the suite's output, and they hold the secrets tests hide. */
const NOT_WRITERS = /(\.test\.|test-kit|testing|test-target|hostile|\.d\.ts$|\.map$)/;

let corpus: string | undefined;

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

/** Whether `value` (case aside) occurs in text the suite writes by itself. */
export function inSuiteVocabulary(value: string): boolean {
  corpus ??= load();
  return corpus.includes(foldText(value));
}
