/**
 * The "did you mean" of every name a user types: commands, flags, choices of a flag, rule ids,
 * variant names. Ranked as the mock ranks a path or a body field (mock/name-similarity.ts): by
 * characters, case aside; a name too far from every known one gets no guess.
 */
import { textDistance } from '../mock/name-similarity.ts';

/** Farther than this (half the longer name's characters changed) is no slip of the fingers. */
const FARTHEST = 0.5;
/** Names this much farther than the nearest are still named beside it. */
const ALSO = 0.1;

/** The known names nearest to `typed`, best first: at most three, none when none is near. */
export function nearest(typed: string, known: readonly string[]): string[] {
  const t = typed.toLowerCase();
  // A name begun (`extra-fields` of `extra-fields-everywhere`) is as near as a slip.
  const distance = (name: string) => (t.length >= 3 && name.toLowerCase().startsWith(t) ? ALSO : textDistance(t, name.toLowerCase()));
  const scored = known.map((name) => ({ name, distance: distance(name) })).filter((s) => s.distance <= FARTHEST);
  if (scored.length === 0) return [];
  scored.sort((a, b) => a.distance - b.distance);
  const best = scored[0]!.distance;
  return scored.filter((s) => s.distance <= best + ALSO).slice(0, 3).map((s) => s.name);
}

/** `; did you mean NAME?` for a name typed that is none of `known`, or '' when none is near. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const names = nearest(typed, known);
  return names.length ? `; did you mean ${names.join(', ')}?` : '';
}
