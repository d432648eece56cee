/**
 * JSON from a target, parsed within bounds (ASM-BODY-BOUNDS): a body nested deeper than
 * `MAX_JSON_DEPTH` is not parsed, so nothing the suite runs on a parsed answer (validators,
 * previews, the sanitizer's walk) ever recurses without a bound. V8's `JSON.parse` itself is
 * iterative; the depth is measured first, in one linear scan.
 */

/** Deeper than any documented body (the file tree's `children` included, with room to spare). */
export const MAX_JSON_DEPTH = 256;

export type Parsed = { readonly json: unknown } | { readonly error: 'empty' | 'deep' | 'syntax'; readonly message: string };

/** The nesting depth of JSON text, counted up to `limit + 1` (strings skipped, escapes honoured). */
export function nestingDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Whether `text` holds more than `limit` `[` and `{` in all, strings included: only then can it
 * nest deeper than `limit`. Found by native search, so most answers (a few dozen brackets) need
 * no scan of every character.
 */
function openingsPass(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++count > limit) return true;
  }
  return false;
}

/** Parses `text` unless it is empty, too deep or not JSON; the error names which. */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): Parsed {
  if (text.trim() === '') return { error: 'empty', message: 'empty' };
  if (openingsPass(text, maxDepth) && nestingDepth(text, maxDepth) > maxDepth) return { error: 'deep', message: `nested more than ${maxDepth} levels deep` };
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: 'syntax', message: (error as Error).message };
  }
}
