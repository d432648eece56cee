/**
 * `hosted-site-contract explain [CODE]`: what a code a report, a warning or an error cites means,
 * as the model records it (spec/codes.ts); without a code, every code with its meaning.
 */
import { textDistance, wordsOf, wordsSimilarity } from '../mock/name-similarity.ts';
import { codeEntry, codeList, codes, explanation } from '../spec/codes.ts';
import { UsageError } from './command.ts';

/** Below this likeness a code is not offered as meant, nor one this much less like than the likest: unrelated codes help no one. */
const LIKE_ENOUGH = 0.4;
const NEAR_ENOUGH = 0.15;

/**
 * The codes of the model (or of `among`: the rules alone, for `--only`) most like what was typed,
 * best first: by their words (`body-marking`) or their letters (`UNK-BODY-MARKIN`).
 */
export function closestCodes(typed: string, limit = 3, among: readonly { readonly id: string }[] = codes): string[] {
  const words = wordsOf(typed);
  const upper = typed.toUpperCase();
  const ranked = among
    .map(({ id }) => ({ id, likeness: Math.max(wordsSimilarity(words, wordsOf(id)), 1 - textDistance(upper, id)) }))
    .sort((a, b) => b.likeness - a.likeness);
  const floor = Math.max(LIKE_ENOUGH, (ranked[0]?.likeness ?? 0) - NEAR_ENOUGH);
  return ranked
    .filter((c) => c.likeness >= floor)
    .slice(0, limit)
    .map((c) => c.id);
}

/**
 * What the user typed, when it is shaped like a code (letters, then groups after `-`). Anything
 * else may be a key pasted in the wrong place, and is never echoed.
 */
const CODE_SHAPE = /^[A-Za-z]+(?:-[A-Za-z0-9]+){1,6}$/;

/** Prints the explanation of `args[0]`, or the list of codes; a code the model lacks is a usage error (exit 2). */
export function runExplain(args: readonly string[], stdout: { write(text: string): unknown }): number {
  if (args.length > 1) throw new UsageError('takes one code at most');
  const [typed] = args;
  if (typed === undefined) {
    stdout.write(`${codeList()}\n`);
    return 0;
  }
  if (typed.startsWith('-')) throw new UsageError('takes a code, not flags');
  const entry = codeEntry(typed);
  if (!entry) {
    const named = CODE_SHAPE.test(typed) && typed.length <= 64 ? `no code ${typed} in the model` : 'no such code in the model (what was typed is not shaped like a code, so it is not echoed)';
    const meant = closestCodes(typed);
    throw new UsageError(`${named}${meant.length ? `; did you mean ${meant.join(', ')}?` : ';'} \`explain\` alone lists every code`);
  }
  stdout.write(`${explanation(entry)}\n`);
  return 0;
}
