/**
 * Stated patterns and lengths (§Limits: `wp_command` "maximum length 5000 characters; must
 * match the regular expression"; a format's pattern: a UUID, "a path beginning with `/`"),
 * broken along the pattern's own structure (`patternShape`): a character no dialect takes,
 * at any position of any part (the start, the middle, the end), after a valid prefix of any
 * length up to the limit, at the very end of the longest valid value, after a line break (a
 * validator that checks only the first line, or each line on its own, or with `^`/`$` read per
 * line, takes it), before the start and after the end; and with a limit, lengths past it ending
 * in every kind of member (a server that trims before it counts takes them). Each value is
 * checked against the pattern as validators read it: only values it refuses are given.
 */
import fc from 'fast-check';
import { patternShape, type EdgeKind, type PatternShape } from '../pattern-edges.ts';
import { operator, type Applied, type Operator } from './operator.ts';

const STATED = 'the stated pattern (§Limits; the format §Resources and fields states)';

export const patternOperators = {
  forbidden: operator({ id: 'pattern:forbidden-char', family: 'pattern', title: 'a character the pattern does not take', reading: STATED, expect: 'invalid', rank: 1 }),
  afterPrefix: operator({ id: 'pattern:after-prefix', family: 'pattern', title: 'a valid prefix of any length, then a character the pattern does not take', reading: STATED, expect: 'invalid', rank: 2 }),
  atLimit: operator({ id: 'pattern:at-limit', family: 'pattern', title: 'the longest valid value with its last character one the pattern does not take', reading: `${STATED} and its length limit`, expect: 'invalid', rank: 1 }),
  lineBreak: operator({ id: 'pattern:line-break', family: 'pattern', title: 'a valid line and one that is not, either way round', reading: `${STATED}: \`^\` and \`$\` anchor the whole value`, expect: 'invalid', rank: 1 }),
  afterNul: operator({ id: 'pattern:after-nul', family: 'pattern', title: 'a valid value, a NUL, then a character the pattern does not take', reading: `${STATED}: the value is the whole string, NUL and all (a check that reads a C string stops at the NUL)`, expect: 'invalid', rank: 1 }),
  beforeStart: operator({ id: 'pattern:before-start', family: 'pattern', title: 'something before the start', reading: `${STATED}: anchored at the start (\`^\`)`, expect: 'invalid', rank: 1 }),
  afterEnd: operator({ id: 'pattern:after-end', family: 'pattern', title: 'something after the end', reading: `${STATED}: anchored at the end (\`$\`)`, expect: 'invalid', rank: 1 }),
  overLimit: operator({ id: 'length:over-limit', family: 'length', title: 'longer than the limit', reading: 'the stated maximum length', expect: 'invalid', rank: 0 }),
  edgeQuantifier: operator({ id: 'pattern:edge-quantifier', family: 'pattern', title: 'a part of the pattern repeated once fewer than its minimum, or more than its maximum', reading: `${STATED} (spec/pattern-edges.ts)`, expect: 'invalid', rank: 0 }),
  edgeLength: operator({ id: 'pattern:edge-length', family: 'length', title: 'one character past the limit, ending in each kind of member', reading: 'the stated maximum length (spec/pattern-edges.ts)', expect: 'invalid', rank: 0 }),
  edgeAnchor: operator({ id: 'pattern:edge-anchor', family: 'pattern', title: 'a character before the start or after the end', reading: `${STATED} (spec/pattern-edges.ts)`, expect: 'invalid', rank: 1 }),
  edgeNearMiss: operator({ id: 'pattern:edge-near-miss', family: 'pattern', title: 'a printable ASCII character a class does not take, where it stands', reading: `${STATED} (spec/pattern-edges.ts)`, expect: 'invalid', rank: 1 }),
  edgeFarMiss: operator({ id: 'pattern:edge-far-miss', family: 'pattern', title: 'a character from beyond ASCII a class does not take (a look-alike, a neighbour)', reading: `${STATED} (spec/pattern-edges.ts)`, expect: 'invalid', rank: 2 }),
  everyMember: operator({
    id: 'pattern:every-member',
    family: 'pattern',
    title: 'one value holding every kind of member the pattern takes, at the length limit',
    reading: `${STATED} and its length limit: every member is valid, anywhere`,
    expect: 'valid',
    rank: 0,
  }),
  shownValue: operator({
    id: 'pattern:shown-value',
    family: 'pattern',
    title: 'a value the document shows for a set it shows only in part',
    reading: 'the document shows the value: it is one of the set',
    expect: 'valid',
    rank: 0,
  }),
  edgeInside: operator({ id: 'pattern:edge-inside', family: 'pattern', title: "an edge of the pattern's structure the pattern takes", reading: `${STATED} (spec/pattern-edges.ts)`, expect: 'valid', rank: 1 }),
} as const satisfies Record<string, Operator>;

/** A stated pattern, and its limit where one is stated. */
export interface Patterned {
  readonly pattern: string;
  readonly maxLength?: number;
  /**
   * A valid value to break (a value the document shows, `days_7`), where the pattern is one part:
   * characters are changed in it, lines and junk put around it. Default: the pattern's shortest.
   */
  readonly valid?: string;
}

/** Longest value the generated ones are built to without a limit (enough for a server that checks a prefix of any usual size). */
const UNLIMITED_SPAN = 600;

/** Counts per part making a value of about `length` characters: minimums, the last unbounded class part taking the rest. */
function counts(shape: PatternShape, length: number): number[] {
  const c = shape.parts.map((p) => p.min);
  const unbounded = shape.parts.map((p, i) => ({ p, i })).filter(({ p }) => p.max === Infinity && p.nonMembers.length).at(-1);
  if (!unbounded) return c;
  const base = c.reduce((sum, n, i) => sum + n * [...(shape.parts[i]!.members[0] ?? '')].length, 0);
  c[unbounded.i] = Math.max(c[unbounded.i]!, c[unbounded.i]! + length - base);
  return c;
}

/** A valid value with these counts, each part's characters picked by `pick` (members cycle), the first member where it is absent. */
function build(shape: PatternShape, n: readonly number[], pick: (part: number, at: number) => number = () => 0): string[] {
  return shape.parts.map((p, i) => Array.from({ length: n[i]! }, (_, k) => p.members[pick(i, k) % p.members.length]!).join(''));
}

/** Parts a character can be changed in: classes (not groups), present at least once. */
const changeable = (shape: PatternShape, n: readonly number[]): number[] => shape.parts.flatMap((p, i) => (p.nonMembers.length && n[i]! > 0 ? [i] : []));

/** The pattern's wrong values, or none where its structure is not one sequence (then `pattern-edges` alone serves). */
export function patternBreaks(stated: Patterned): Applied<string>[] {
  const shape = patternShape(stated.pattern);
  if (!shape) return [];
  const max = stated.maxLength;
  const refused = (value: string) => !shape.takes(value) || (max !== undefined && [...value].length > max);
  // A value ending in a line feed: `$` takes it in some dialects (PCRE, Python without \Z).
  const sure = (value: string) => refused(value) && !value.endsWith('\n');
  const o = patternOperators;
  const what = 'the value';
  const out: Applied<string>[] = [];
  const shortest = counts(shape, 0);
  const span = max ?? UNLIMITED_SPAN;
  // The second near miss, not the first: the pattern's edges (pattern-edges.ts) try the first there already.
  const nearest = (i: number) => shape.parts[i]!.nonMembers[1] ?? shape.parts[i]!.nonMembers[0]!;

  const around = stated.valid !== undefined && shape.parts.length === 1 && shape.takes(stated.valid) ? stated.valid : undefined;
  // A character the pattern does not take, anywhere in any part.
  const parts0 = changeable(shape, shortest);
  if (around !== undefined && parts0.length) {
    const misses = shape.parts[0]!.nonMembers;
    const chars = [...around];
    const replaced = (at: number, miss: number) => chars.map((c, i) => (i === at % chars.length ? misses[miss % misses.length]! : c)).join('');
    const first = replaced(chars.length - 1, 0);
    if (sure(first)) out.push({ operator: o.forbidden, what, first, arbitrary: fc.tuple(fc.nat(), fc.nat()).map(([at, miss]) => replaced(at, miss)).filter(sure) });
  } else if (parts0.length) {
    const last = parts0.at(-1)!;
    const firstValue = (() => {
      const pieces = build(shape, shortest);
      pieces[last] = pieces[last]!.slice(0, -1) + nearest(last);
      return pieces.join('');
    })();
    const arbitrary = fc
      .record({ length: fc.nat({ max: Math.min(span, 64) }), part: fc.nat(), at: fc.nat(), miss: fc.nat(), seed: fc.nat() })
      .map(({ length, part, at, miss, seed }) => {
        const n = counts(shape, length);
        const can = changeable(shape, n);
        const i = can[part % can.length]!;
        const pieces = build(shape, n, (p, k) => (seed >> ((p + k) % 16)) & 7);
        const chars = [...pieces[i]!];
        chars[at % chars.length] = shape.parts[i]!.nonMembers[miss % shape.parts[i]!.nonMembers.length]!;
        pieces[i] = chars.join('');
        return pieces.join('');
      })
      .filter(sure);
    if (sure(firstValue)) out.push({ operator: o.forbidden, what, first: firstValue, arbitrary });
  }

  // After a valid prefix of any length (a server that checks the first N characters).
  // Only where a part repeats without bound: a bounded pattern's value has no prefix of a length to choose.
  const unbounded = shape.parts.some((p) => p.max === Infinity && p.nonMembers.length);
  const tailPart = unbounded ? changeable(shape, counts(shape, 1)).at(-1) : undefined;
  if (tailPart !== undefined) {
    const withMissAt = (length: number, miss: number) => {
      const pieces = build(shape, counts(shape, length));
      const misses = shape.parts[tailPart]!.nonMembers;
      return `${pieces.join('')}${misses[miss % misses.length]}`;
    };
    const limitFor = max === undefined ? span : max - 1;
    const arbitrary = fc.tuple(fc.nat({ max: limitFor }), fc.nat()).map(([length, miss]) => withMissAt(length, miss)).filter(sure);
    const first = withMissAt(Math.min(64, limitFor), 0);
    if (sure(first)) out.push({ operator: o.afterPrefix, what, first, arbitrary });
    if (max !== undefined) {
      // The longest valid value, its very last character replaced.
      const atLimit = (miss: number) => {
        const value = [...withMissAt(max - 1, miss)];
        return value.length === max ? value.join('') : undefined;
      };
      const firstAt = atLimit(0);
      if (firstAt !== undefined && sure(firstAt)) {
        out.push({ operator: o.atLimit, what, first: firstAt, arbitrary: fc.nat().map((m) => atLimit(m) ?? firstAt).filter(sure) });
      }
    }
  }

  // A valid line and one that is not, either way round (validators that read per line, or the first only).
  const validValue = around ?? build(shape, shortest).join('');
  const badLine = (miss: number) => {
    const i = parts0.at(-1);
    if (i === undefined) return `${validValue}\u0001`;
    const misses = shape.parts[i]!.nonMembers.filter((c) => c !== '\n' && c !== '\r');
    return misses.length ? `${misses[miss % misses.length]}${validValue}` : `${validValue}\u0001`;
  };
  const lines = (order: boolean, sep: string, miss: number) => (order ? `${validValue}${sep}${badLine(miss)}` : `${badLine(miss)}${sep}${validValue}`);
  const firstLines = [lines(true, '\n', 0), lines(false, '\n', 0)].find(sure);
  if (firstLines !== undefined) out.push({ operator: o.lineBreak, what, first: firstLines, arbitrary: fc.tuple(fc.boolean(), fc.constantFrom('\n', '\r\n', '\r', '\u2028'), fc.nat()).map(([a, sep, m]) => lines(a, sep, m)).filter(sure) });

  // A NUL after a valid value, then a character the pattern does not take: a check that reads a C string stops at the NUL.
  if (parts0.length) {
    const misses = shape.parts[parts0.at(-1)!]!.nonMembers.filter((c) => c !== '\u0000' && c !== '\n');
    const afterNul = (miss: number) => `${validValue}\u0000${misses[miss % misses.length] ?? ';'}${validValue}`;
    if (sure(afterNul(0))) out.push({ operator: o.afterNul, what, first: afterNul(0), arbitrary: fc.nat().map(afterNul).filter(sure) });
  }

  // Before the start and after the end: white space a server may trim, a character it may skip.
  if (shape.start) {
    const first0 = shape.parts[0];
    const befores = [' ', '\t', ...(first0 ? first0.nonMembers : [])].filter((c) => !first0 || !first0.members.includes(c));
    const value = (c: string) => `${c}${validValue}`;
    const firstBefore = befores.map(value).find(sure);
    if (firstBefore !== undefined) out.push({ operator: o.beforeStart, what, first: firstBefore, arbitrary: fc.constantFrom(...befores).map(value).filter(sure) });
  }
  if (shape.end) {
    const lastPart = shape.parts.at(-1);
    const afters = [...(lastPart ? lastPart.nonMembers : []), ' ', '\t'].filter((c) => !lastPart || !lastPart.members.includes(c));
    const value = (c: string) => `${validValue}${c}`;
    const firstAfter = afters.map(value).find(sure);
    if (firstAfter !== undefined) out.push({ operator: o.afterEnd, what, first: firstAfter, arbitrary: fc.constantFrom(...afters).map(value).filter(sure) });
  }

  // Past the limit, ending in each kind of member (a server that trims, or counts bytes of a shorter value).
  if (max !== undefined) {
    const over = (extra: number, end: number) => {
      const n = counts(shape, max + extra);
      const pieces = build(shape, n);
      const lastClass = changeable(shape, n).at(-1);
      if (lastClass === undefined) return pieces.join('');
      const members = shape.parts[lastClass]!.members;
      pieces[lastClass] = pieces[lastClass]!.slice(0, -1) + members[end % members.length];
      return pieces.join('');
    };
    const firstOver = over(1, 0);
    if (refused(firstOver)) out.push({ operator: o.overLimit, what, first: firstOver, arbitrary: fc.tuple(fc.integer({ min: 1, max: 64 }), fc.nat()).map(([e, m]) => over(e, m)).filter(refused) });
  }
  return out;
}

/**
 * A valid value holding every member of every part (each as often as its part allows), made as
 * long as the limit allows with the last unbounded part's first member (a letter, where it has
 * one), its other members last: a server that refuses any member, or counts the length otherwise,
 * refuses it. Undefined where the pattern's parts cannot hold it.
 */
export function everyMember(stated: Patterned): string | undefined {
  const shape = patternShape(stated.pattern);
  if (!shape) return undefined;
  const last = shape.parts.map((p, i) => ({ p, i })).filter(({ p }) => p.max === Infinity && p.nonMembers.length).at(-1);
  const pieces = shape.parts.map((p) => {
    const room = Math.max(p.min, Math.min(p.max, p.members.length));
    return Array.from({ length: room }, (_, k) => p.members[k % p.members.length]!).join('');
  });
  if (last && stated.maxLength !== undefined) {
    const length = [...pieces.join('')].length;
    const fill = stated.maxLength - length;
    if (fill > 0) pieces[last.i] = `${last.p.members[0]!.repeat(fill)}${pieces[last.i]}`;
  }
  const value = pieces.join('');
  return shape.takes(value) && (stated.maxLength === undefined || [...value].length <= stated.maxLength) ? value : undefined;
}

/** The operator an edge of `patternEdges` is drawn as, by what it tests. */
export const edgeOperator = (kind: EdgeKind): Operator =>
  ({ quantifier: patternOperators.edgeQuantifier, length: patternOperators.edgeLength, anchor: patternOperators.edgeAnchor, 'near-miss': patternOperators.edgeNearMiss, 'far-miss': patternOperators.edgeFarMiss, member: patternOperators.edgeInside })[kind];
