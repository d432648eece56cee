/**
 * The edges of a pattern, read from its structure (`^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$`, a format's
 * pattern, any pattern a new version of the document states): each quantifier at its minimum and
 * one below, at its maximum and one above; each character class's members and the nearest
 * non-members (the code points beside each range, the other case of a letter, look-alikes from
 * other scripts, every printable ASCII non-member); the anchors; and, with a length limit, the longest value and one longer, each
 * ending in every kind of member (white space included). Nothing is listed by hand for one
 * pattern: a new pattern gets its edges with no new code.
 *
 * Each edge says whether the pattern (and the limit) takes it, as a validator reads the pattern
 * (and as a small automaton built from its structure agrees); characters whose membership differs between regular
 * expression dialects (white space beyond ASCII for `\s`, line separators for `.`) are never used,
 * so an edge holds under every dialect a server may check with (ASM-WP-WHITESPACE-ASCII).
 *
 * The syntax read is what the model's patterns use: anchors, literals and escapes, `.`, `\d \w \s`
 * (and their negations), classes with ranges (and negated), groups with alternatives, and the
 * quantifiers `? * + {n} {n,} {n,m}`. Anything else is refused, loudly.
 */

// ---- character sets -------------------------------------------------------------------------------

const MAX_CODE = 0x10ffff;
type Range = readonly [number, number];

/** A set of code points as sorted, disjoint ranges. */
class CodeSet {
  constructor(readonly ranges: readonly Range[]) {}

  static of(...ranges: Range[]): CodeSet {
    const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
    const out: [number, number][] = [];
    for (const [lo, hi] of sorted) {
      const last = out.at(-1);
      if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else out.push([lo, hi]);
    }
    return new CodeSet(out);
  }

  static chars(text: string): CodeSet {
    return CodeSet.of(...[...text].map((c): Range => [c.codePointAt(0)!, c.codePointAt(0)!]));
  }

  union(other: CodeSet): CodeSet {
    return CodeSet.of(...this.ranges, ...other.ranges);
  }

  complement(): CodeSet {
    const out: Range[] = [];
    let from = 0;
    for (const [lo, hi] of this.ranges) {
      if (lo > from) out.push([from, lo - 1]);
      from = hi + 1;
    }
    if (from <= MAX_CODE) out.push([from, MAX_CODE]);
    return new CodeSet(out);
  }

  has(code: number): boolean {
    return this.ranges.some(([lo, hi]) => code >= lo && code <= hi);
  }
}

/**
 * What an atom of the pattern matches: `members` under the dialect the suite compiles patterns
 * with (ECMAScript), and `uncertain`, the code points other dialects decide otherwise.
 */
interface CharClass {
  readonly members: CodeSet;
  readonly uncertain: CodeSet;
}

const ASCII_SPACE = CodeSet.chars('\t\n\v\f\r ');
/** What ECMAScript's `\s` adds beyond ASCII; PCRE without Unicode properties, POSIX classes and others do not. */
const UNICODE_SPACE = CodeSet.chars('\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff');
const DIGIT = CodeSet.of([0x30, 0x39]);
const WORD = CodeSet.of([0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]);
const NONE = CodeSet.of();

const cls = (members: CodeSet, uncertain: CodeSet = NONE): CharClass => ({ members, uncertain });
const negated = (c: CharClass): CharClass => cls(c.members.complement(), c.uncertain);
/** White space to other dialects but not to ECMAScript's `\s`: Python's (`str.isspace`) takes the separators U+001C–U+001F and NEL. */
const OTHER_SPACE = CodeSet.of([0x1c, 0x1f], [0x85, 0x85]);
const space = (): CharClass => cls(ASCII_SPACE.union(UNICODE_SPACE), UNICODE_SPACE.union(OTHER_SPACE));
/** `.`: all but line terminators (CR and the Unicode separators are uncertain: some dialects take them). */
const dot = (): CharClass => cls(CodeSet.chars('\n\r\u2028\u2029').complement(), CodeSet.chars('\r\u2028\u2029'));

// ---- the pattern as a tree ------------------------------------------------------------------------

type Node =
  | { readonly kind: 'class'; readonly cls: CharClass }
  | { readonly kind: 'alt'; readonly branches: readonly Sequence[] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number };
type Sequence = readonly Node[];

export interface ParsedPattern {
  readonly start: boolean;
  readonly end: boolean;
  readonly body: Node;
}

/** Parses a pattern of the syntax the model uses (see the module's comment); throws on anything else. */
export function parsePattern(source: string): ParsedPattern {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`pattern ${JSON.stringify(source)}: ${why} at ${at}`);
  };
  const peek = () => source[at];
  const start = peek() === '^' ? (at++, true) : false;
  let end = false;

  const escape = (inClass: boolean): CharClass => {
    const c = source[at++] ?? fail('a lone backslash');
    switch (c) {
      case 'd':
        return cls(DIGIT);
      case 'D':
        return negated(cls(DIGIT));
      case 'w':
        return cls(WORD);
      case 'W':
        return negated(cls(WORD));
      case 's':
        return space();
      case 'S':
        return negated(space());
      case 't':
        return cls(CodeSet.chars('\t'));
      case 'n':
        return cls(CodeSet.chars('\n'));
      case 'r':
        return cls(CodeSet.chars('\r'));
      case 'f':
        return cls(CodeSet.chars('\f'));
      case 'v':
        return cls(CodeSet.chars('\v'));
      case 'b':
        return inClass ? cls(CodeSet.chars('\b')) : fail('a word boundary is not read');
      default:
        if (/[A-Za-z0-9]/.test(c)) return fail(`the escape \\${c} is not read`);
        return cls(CodeSet.chars(c));
    }
  };

  const charClass = (): CharClass => {
    const negate = peek() === '^' ? (at++, true) : false;
    let members = NONE;
    let uncertain = NONE;
    let first = true;
    const single = (): CharClass => {
      const c = source[at++] ?? fail('an open class');
      return c === '\\' ? escape(true) : cls(CodeSet.chars(c));
    };
    while (peek() !== ']' || first) {
      first = false;
      if (peek() === undefined) fail('an open class');
      const from = single();
      const one = from.members.ranges.length === 1 && from.members.ranges[0]![0] === from.members.ranges[0]![1];
      if (one && peek() === '-' && source[at + 1] !== ']' && source[at + 1] !== undefined) {
        at++;
        const to = single();
        const lo = from.members.ranges[0]![0];
        const hi = to.members.ranges[0]?.[0] ?? fail('a range to a class');
        if (to.members.ranges.length !== 1 || to.members.ranges[0]![0] !== to.members.ranges[0]![1] || hi < lo) fail('a bad range');
        members = members.union(CodeSet.of([lo, hi]));
      } else {
        members = members.union(from.members);
        uncertain = uncertain.union(from.uncertain);
      }
    }
    at++; // ]
    const c = cls(members, uncertain);
    return negate ? negated(c) : c;
  };

  const quantified = (node: Node): Node => {
    let min: number;
    let max: number;
    const c = peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at));
      if (!m) return node;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      at += m[0].length - 1;
    } else return node;
    at++;
    if (peek() === '?') at++; // lazy: the same language
    return { kind: 'repeat', node, min, max };
  };

  const alternation = (): Node => {
    const branches: Sequence[] = [];
    let current: Node[] = [];
    for (;;) {
      const c = peek();
      if (c === undefined || c === ')') break;
      if (c === '|') {
        at++;
        branches.push(current);
        current = [];
        continue;
      }
      if (c === '$') {
        at++;
        if (at !== source.length) fail('`$` before the end');
        end = true;
        break;
      }
      at++;
      let atom: Node;
      if (c === '(') {
        if (source.startsWith('?:', at)) at += 2;
        else if (peek() === '?') fail('a group of another kind');
        atom = alternation();
        if (source[at++] !== ')') fail('an open group');
      } else if (c === '[') atom = { kind: 'class', cls: charClass() };
      else if (c === '.') atom = { kind: 'class', cls: dot() };
      else if (c === '\\') atom = { kind: 'class', cls: escape(false) };
      else if ('*+?{'.includes(c!) && c !== '{') fail('a quantifier with nothing before it');
      else if (c === '^') fail('`^` after the start');
      else atom = { kind: 'class', cls: cls(CodeSet.chars(c!)) };
      current.push(quantified(atom!));
    }
    branches.push(current);
    return { kind: 'alt', branches };
  };

  const body = alternation();
  if (at !== source.length) fail('text left over');
  return { start, end, body };
}

// ---- deciding: an automaton from the tree ---------------------------------------------------------

/** A state: a class it moves on, or moves that take no character. */
interface State {
  cls?: CharClass;
  next: number[];
  free: number[];
}

/** Counted repeats are written out; past this many states a pattern is refused (the model's largest, an IPv6 address, needs a few thousand). */
const MAX_STATES = 100_000;

/** A Thompson automaton of `body`: states, the start and the accepting state. */
function automaton(body: Node): { readonly states: State[]; readonly start: number; readonly accept: number } {
  const states: State[] = [];
  const state = (): number => {
    if (states.length >= MAX_STATES) throw new Error(`a pattern of more than ${MAX_STATES} states (counted repeats written out) is not read`);
    return states.push({ next: [], free: [] }) - 1;
  };
  /** Builds `node` between `from` and a new state it returns. */
  const build = (node: Node, from: number): number => {
    switch (node.kind) {
      case 'class': {
        const on = state();
        const to = state();
        states[from]!.free.push(on);
        states[on]!.cls = node.cls;
        states[on]!.next.push(to);
        return to;
      }
      case 'alt': {
        const to = state();
        for (const branch of node.branches) {
          const entry = state();
          states[from]!.free.push(entry);
          const exit = branch.reduce((s, n) => build(n, s), entry);
          states[exit]!.free.push(to);
        }
        return to;
      }
      case 'repeat': {
        let at = from;
        for (let i = 0; i < node.min; i++) at = build(node.node, at);
        if (!Number.isFinite(node.max)) {
          const loop = state();
          states[at]!.free.push(loop);
          const back = build(node.node, loop);
          states[back]!.free.push(loop);
          return loop;
        }
        const to = state();
        states[at]!.free.push(to);
        for (let i = node.min; i < node.max; i++) {
          at = build(node.node, at);
          states[at]!.free.push(to);
        }
        return to;
      }
    }
  };
  const start = state();
  const accept = build(body, start);
  return { states, start, accept };
}

/**
 * Whether the pattern takes `text`: the automaton of its structure run over it, the anchors as
 * parsed. The independent reading the edges' classification is checked against (in tests).
 */
export function structuralDecider(pattern: ParsedPattern): (text: string) => boolean {
  const { states, start, accept } = automaton(pattern.body);
  const closure = (set: Set<number>) => {
    const stack = [...set];
    while (stack.length) for (const s of states[stack.pop()!]!.free) if (!set.has(s)) (set.add(s), stack.push(s));
    return set;
  };
  return (text: string) => {
    const codes = [...text].map((c) => c.codePointAt(0)!);
    // Unanchored at the start: a match may begin anywhere, so the start state is added at each step.
    let current = closure(new Set([start]));
    if (current.has(accept) && !pattern.end) return true;
    for (const code of codes) {
      const next = new Set<number>();
      for (const s of current) {
        const st = states[s]!;
        if (st.cls?.members.has(code)) for (const n of st.next) next.add(n);
      }
      if (!pattern.start) next.add(start);
      current = closure(next);
      if (current.has(accept) && !pattern.end) return true;
    }
    return current.has(accept);
  };
}

// ---- the edges --------------------------------------------------------------------------------------

export interface Edge {
  readonly value: string;
  /** The pattern (and the length limit) takes it. */
  readonly inside: boolean;
  /** What it tests, for titles: `\s+ once fewer than its minimum`. */
  readonly why: string;
  /**
   * Which part of the structure it tests: a quantifier's bounds (or an alternative), a member or a
   * near miss of a class (printable ASCII, or from further off), an anchor, the length limit.
   */
  readonly kind: EdgeKind;
}

export type EdgeKind = 'quantifier' | 'member' | 'near-miss' | 'far-miss' | 'anchor' | 'length';

/** Characters a witness is preferably made of: readable ones first. */
const PREFERRED = [...'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', ' ', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i))];

/** Look-alikes of ASCII characters in other scripts and forms (Cyrillic, Greek, fullwidth, punctuation; `\\` for `/`, the other path separator). */
const LOOKALIKES: Readonly<Record<string, readonly string[]>> = {
  a: ['\u0430'], c: ['\u0441'], e: ['\u0435'], o: ['\u043e', '\u03bf'], p: ['\u0440'], x: ['\u0445'], y: ['\u0443'], w: ['\u051d'], i: ['\u0456'], s: ['\u0455'],
  A: ['\u0391', '\u0410'], B: ['\u0392'], E: ['\u0395'], O: ['\u041e'], P: ['\u0420'],
  '-': ['\u2010', '\u2212'], '.': ['\u2024'], '/': ['\\', '\u2215'], ':': ['\u2236'], "'": ['\u2019'], '0': ['\u041e'], '1': ['\u0406'],
};
/** The fullwidth form of a printable ASCII character (U+FF01 to U+FF5E), a look-alike in every script. */
const fullwidth = (c: string): string | undefined => {
  const code = c.charCodeAt(0);
  return code > 0x20 && code < 0x7f ? String.fromCharCode(0xff01 + code - 0x21) : undefined;
};

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;
const certain = (c: CharClass, code: number) => code >= 0 && code <= MAX_CODE && !isSurrogate(code) && !c.uncertain.has(code);

/** A member of `c` to build values with: a readable one, else the lowest; undefined when it has none. */
function witnessOf(c: CharClass): string | undefined {
  const found = PREFERRED.find((ch) => c.members.has(ch.codePointAt(0)!) && certain(c, ch.codePointAt(0)!));
  if (found) return found;
  for (const [lo, hi] of c.members.ranges) for (let code = lo; code <= hi && code < lo + 64; code++) if (certain(c, code)) return String.fromCodePoint(code);
  return undefined;
}

/** Members worth trying: each range's ends and, for wide ranges, one between; readable ones first. */
function membersOf(c: CharClass): string[] {
  const out = new Set<string>();
  for (const [lo, hi] of c.members.ranges) {
    if (hi - lo > 0x1000) continue; // a negated class: its edges are its non-members
    for (const code of [lo, hi, Math.floor((lo + hi) / 2)]) if (certain(c, code)) out.add(String.fromCodePoint(code));
  }
  return [...out].slice(0, 24);
}

/** Shell and pattern metacharacters, the command separators first (OWASP: command injection): the near misses tried first. */
const METACHARACTERS = ';|&$`<>()\n!*?~#%^"\\{}[],';

/**
 * Non-members next to members: every printable ASCII character outside a class (few, and the
 * ones a server's own check most often lets slip), the code points beside each range, the other
 * case of a letter, look-alikes in other scripts.
 */
function nearMissesOf(c: CharClass): string[] {
  const out = new Set<string>();
  const add = (code: number) => {
    if (certain(c, code) && !c.members.has(code) && code !== 0) out.add(String.fromCodePoint(code));
  };
  // (A literal's near misses are its neighbours, its other case and its look-alikes: not all of ASCII.)
  const literal = c.members.ranges.length === 1 && c.members.ranges[0]![0] === c.members.ranges[0]![1];
  // Characters with a meaning in shells and in patterns first: where a hand-written check slips, they do harm.
  if (!literal) for (const ch of METACHARACTERS) add(ch.codePointAt(0)!);
  if (!literal) for (let code = 0x20; code < 0x7f; code++) add(code);
  for (const [lo, hi] of c.members.ranges) {
    // Beside a range of members other dialects may not take (white space beyond ASCII): no edge of the pattern's own.
    if (c.uncertain.has(lo) && c.uncertain.has(hi)) continue;
    add(lo - 1);
    add(hi + 1);
  }
  for (const ch of membersOf(c)) {
    const other = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
    if (other.length === 1) add(other.codePointAt(0)!);
    for (const look of [...(LOOKALIKES[ch] ?? []), fullwidth(ch)]) if (look) add(look.codePointAt(0)!);
  }
  return [...out].slice(0, 64);
}

/** A readable name of a character for edge titles. */
export const nameOf = (ch: string): string => {
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code > 0x7e) return `${JSON.stringify(ch)} (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  return ch === ' ' ? 'a space' : `\`${ch}\``;
};

/** One piece of a value: `count` copies of a character standing for one atom of the top-level sequence. */
interface Slot {
  readonly node: Node;
  readonly min: number;
  readonly max: number;
  readonly cls?: CharClass;
  readonly witness: string;
  readonly label: string;
}

/** A readable label of a node, for titles: its source text is not kept, so a description. */
function labelOf(node: Node): string {
  if (node.kind === 'class') {
    const w = witnessOf(node.cls);
    const single = node.cls.members.ranges.length === 1 && node.cls.members.ranges[0]![0] === node.cls.members.ranges[0]![1];
    return single && w ? nameOf(w) : 'a class';
  }
  if (node.kind === 'alt') return 'a group';
  const q = node.max === Infinity ? (node.min === 0 ? '*' : node.min === 1 ? '+' : `{${node.min},}`) : node.min === node.max ? `{${node.min}}` : `{${node.min},${node.max}}`;
  return `${labelOf(node.node)}${q}`;
}

/** The shortest text a node takes, each class by its witness; undefined when a class has no member to use. */
function shortest(node: Node): string | undefined {
  switch (node.kind) {
    case 'class':
      return witnessOf(node.cls);
    case 'alt': {
      const texts = node.branches.map((b) => b.map(shortest)).filter((parts) => parts.every((p) => p !== undefined)).map((parts) => parts.join(''));
      return texts.sort((a, b) => a.length - b.length)[0];
    }
    case 'repeat': {
      const one = shortest(node.node);
      return one === undefined ? undefined : one.repeat(node.min);
    }
  }
}

/** The top-level sequence as slots: a repeat of a class, a class once, or a group standing as its shortest text. */
function slotsOf(body: Node): Slot[] | undefined {
  if (body.kind !== 'alt' || body.branches.length !== 1) return undefined;
  const slots: Slot[] = [];
  for (const node of body.branches[0]!) {
    const inner = node.kind === 'repeat' ? node.node : node;
    const [min, max] = node.kind === 'repeat' ? [node.min, node.max] : [1, 1];
    const witness = inner.kind === 'class' ? witnessOf(inner.cls) : shortest(inner);
    if (witness === undefined) return undefined;
    slots.push({ node, min, max, ...(inner.kind === 'class' ? { cls: inner.cls } : {}), witness, label: labelOf(node) });
  }
  return slots;
}

/**
 * The edges of `source` (and of `maxLength`, when the field has one), each labelled by the
 * pattern's own structure. Titles name the part of the pattern an edge tests.
 */
export function patternEdges(source: string, options: { readonly maxLength?: number } = {}): readonly Edge[] {
  // The model's patterns are few and fixed: each pair is worked out once per process.
  const key = `${options.maxLength ?? ''}/${source}`;
  let edges = edgesOf.get(key);
  if (!edges) edgesOf.set(key, (edges = Object.freeze(computeEdges(source, options))));
  return edges;
}

const edgesOf = new Map<string, readonly Edge[]>();

/** The pattern as ajv compiles it (`u`), or without the flag where the `u` syntax refuses an escape (`\-` outside a class). */
function readAsValidatorsDo(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

function computeEdges(source: string, options: { readonly maxLength?: number }): Edge[] {
  const pattern = parsePattern(source);
  // Whether the pattern takes a value, as JSON Schema's validators read it (ECMA-262, by code
  // point): edges use no character whose membership differs between dialects, so this reading
  // is every reading's; the structure's own automaton (`structuralDecider`) agrees on each edge
  // (pattern-edges.test.ts), and is slow on the longest values.
  const regex = readAsValidatorsDo(source);
  const takes = (text: string) => regex.test(text);
  const max = options.maxLength;
  const edges = new Map<string, Edge>();
  const add = (value: string, why: string, kind: EdgeKind, inside = takes(value) && (max === undefined || [...value].length <= max)) => {
    // A value ending in a line feed that the pattern refuses: `$` takes it in other dialects.
    if (!inside && value.endsWith('\n') && pattern.end) return;
    if (!edges.has(value)) edges.set(value, { value, inside, why, kind });
  };

  // Each alternative of the whole pattern at its shortest.
  if (pattern.body.kind === 'alt') {
    for (const branch of pattern.body.branches) {
      const text = branch.map(shortest);
      if (text.every((t) => t !== undefined)) add(text.join(''), pattern.body.branches.length > 1 ? 'an alternative at its shortest' : 'every part at its minimum', 'quantifier');
    }
  }
  const slots = slotsOf(pattern.body);
  if (!slots) return [...edges.values()];

  /** The value with each slot's count (default its minimum, at least once for a class to show), slot `i` as `piece`. */
  const counts = slots.map((s) => s.min);
  const valueWith = (i: number, piece: string, count?: number[]) => (count ?? counts).map((n, j) => (j === i ? piece : slots[j]!.witness.repeat(n))).join('');
  const base = valueWith(-1, '');
  const others = slots.reduce<CodeSet>((set, s) => (s.cls ? set.union(s.cls.members) : set), NONE);

  // The last part first: a tail the check takes empty (`+` read as `*`) is the common slip.
  [...slots.entries()].reverse().forEach(([i, slot]) => {
    const w = slot.witness;
    // Quantifiers at their bounds and one past them.
    if (slot.min > 0) add(valueWith(i, w.repeat(slot.min - 1)), `${slot.label} once fewer than its minimum`, 'quantifier');
    if (slot.min === 0) add(valueWith(i, w), `${slot.label} once`, 'quantifier');
    if (Number.isFinite(slot.max) && slot.max > slot.min) add(valueWith(i, w.repeat(slot.max)), `${slot.label} at its maximum`, 'quantifier');
    if (Number.isFinite(slot.max)) add(valueWith(i, w.repeat(slot.max + 1)), `${slot.label} once more than its maximum`, 'quantifier');
    // A group: each of its alternatives at its shortest, where the group stands.
    const inner = slot.node.kind === 'repeat' ? slot.node.node : slot.node;
    if (inner.kind === 'alt' && inner.branches.length > 1) {
      for (const branch of inner.branches) {
        const text = branch.map(shortest);
        if (text.every((t) => t !== undefined)) add(valueWith(i, w.repeat(Math.max(0, slot.min - 1)) + text.join('')), `an alternative of ${slot.label}`, 'quantifier');
      }
    }
    if (!slot.cls) return;
    const n = Math.max(1, slot.min);
    // Each member, and each near miss, where this class stands (the rest of the value unchanged).
    for (const m of membersOf(slot.cls)) add(valueWith(i, w.repeat(n - 1) + m), `${nameOf(m)} in ${slot.label}`, 'member');
    for (const miss of nearMissesOf(slot.cls)) add(valueWith(i, w.repeat(n - 1) + miss), `${nameOf(miss)} in ${slot.label} (not a member)`, miss.codePointAt(0)! < 0x7f ? 'near-miss' : 'far-miss');
  });

  // The anchors: something before the start, and after the end.
  const junk = PREFERRED.find((ch) => !others.has(ch.codePointAt(0)!)) ?? '\u0001';
  add(`${junk}${base}`, `${nameOf(junk)} before the start${pattern.start ? ' (`^`)' : ''}`, 'anchor');
  add(`${base}${junk}`, `${nameOf(junk)} after the end${pattern.end ? ' (`$`)' : ''}`, 'anchor');

  // The length limit: the longest value and one longer, the last unbounded part ending in each of its kinds of member.
  if (max !== undefined) {
    const last = slots.map((s, i) => ({ s, i })).filter(({ s }) => s.max === Infinity && s.cls).at(-1);
    if (last) {
      const room = max - [...base].length + last.s.min;
      for (const m of [last.s.witness, ...membersOf(last.s.cls!)]) {
        for (const length of [max, max + 1]) {
          const fill = room + (length - max) - 1;
          if (fill < Math.max(0, last.s.min - 1)) continue;
          const value = valueWith(last.i, last.s.witness.repeat(fill) + m);
          if ([...value].length === length) add(value, `${length} characters (at most ${max}), ending in ${nameOf(m)}`, 'length');
        }
      }
    }
  }
  return [...edges.values()];
}

// ---- the shape, for generated values ----------------------------------------------------------------

/** One part of a pattern's top-level sequence, as generated values are built along it. */
export interface PatternPart {
  readonly min: number;
  readonly max: number;
  /** Members every dialect takes, readable ones first (a group: its shortest text, its one member). */
  readonly members: readonly string[];
  /** Characters no dialect takes here, metacharacters first (`nearMissesOf`'s order); empty for a group (what breaks one is not one character). */
  readonly nonMembers: readonly string[];
  /** What the part is, for titles. */
  readonly label: string;
}

export interface PatternShape {
  readonly parts: readonly PatternPart[];
  readonly start: boolean;
  readonly end: boolean;
  /** Whether the pattern takes a text, as validators read it. */
  readonly takes: (text: string) => boolean;
}

/**
 * Controls and characters from far off (a NUL a C string ends at, an escape, DEL, a combining
 * mark, an astral character): non-members a server's own check may strip or skip before it looks.
 */
const FAR_MISSES = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0301', '\u200b', '\ud83d\ude00'];

/** Every member of a class worth building with: readable ones first (letters, digits, a space, punctuation), then other ASCII white space, then its ranges' edges. */
function buildersOf(c: CharClass): string[] {
  const out = new Set<string>();
  for (const ch of PREFERRED) if (c.members.has(ch.codePointAt(0)!) && certain(c, ch.codePointAt(0)!)) out.add(ch);
  for (let code = 0x09; code <= 0x0d; code++) if (c.members.has(code) && certain(c, code)) out.add(String.fromCharCode(code));
  for (const m of membersOf(c)) out.add(m);
  return [...out];
}


/**
 * The pattern's top-level sequence as parts to build values along (undefined when its top level
 * is not one sequence, e.g. alternatives), and the reading validators give it. Shared with
 * `patternEdges`: the same parse, the same certainty of each character.
 */
export function patternShape(source: string): PatternShape | undefined {
  let shape = shapes.get(source);
  if (shape === undefined) shapes.set(source, (shape = computeShape(source) ?? null));
  return shape ?? undefined;
}

const shapes = new Map<string, PatternShape | null>();

function computeShape(source: string): PatternShape | undefined {
  const pattern = parsePattern(source);
  const slots = slotsOf(pattern.body);
  if (!slots) return undefined;
  const regex = readAsValidatorsDo(source);
  const parts = slots.map((slot): PatternPart => {
    if (!slot.cls) return { min: slot.min, max: slot.max, members: [slot.witness], nonMembers: [], label: slot.label };
    const cls = slot.cls;
    const far = FAR_MISSES.filter((ch) => certain(cls, ch.codePointAt(0)!) && !cls.members.has(ch.codePointAt(0)!));
    return { min: slot.min, max: slot.max, members: buildersOf(cls), nonMembers: [...nearMissesOf(cls), ...far], label: slot.label };
  });
  return { parts, start: pattern.start, end: pattern.end, takes: (text) => regex.test(text) };
}
