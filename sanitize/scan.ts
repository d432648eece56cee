/**
 * Finds secrets in text in time linear in the text, whatever their length: no regular expression
 * is ever compiled from a secret (V8 refuses one over ~26 KB, and the error would quote it).
 *
 * - Patterns go into an Aho-Corasick automaton by their first `CHUNK` code units only, so its size
 *   does not grow with a 1 MB secret; a pattern longer than that is followed past its chunk by
 *   direct comparison, one code unit per step, as the text streams by.
 * - A pattern accepts any prefix of at least its `minAccept` units: a key quoted cut short in an
 *   error message is still found. Right before an ellipsis (`…`, how every excerpt in this
 *   project ends), the head of a pattern counts from `CUT_PREFIX_MIN` units: a quote cut inside
 *   a secret leaves no part of it.
 * - The text is read through several views, each decoding one way a server re-encodes what it
 *   echoes (JSON escapes including `\/` and `\uXXXX`, URI percent-encoding, form encoding, HTML
 *   character references, line breaks taken out with the indentation around them, all white
 *   space taken out, C-family `\xHH` / `\u{…}` / octal / `%uHHHH`, CSS and quoted-printable
 *   escapes), and through up to three such layers at once (a key URI-encoded twice, an HTML
 *   reference JSON-escaped); every code unit is fully case-folded (`ß` → `ss`), in the patterns
 *   as in the text. A match in a view maps back to the span of the original text it was decoded
 *   from.
 *
 * Spans may cover a little more than the secret (an overlapping second occurrence of a long
 * pattern is assumed to match where it was not compared; a pattern cut short by its owner is
 * assumed to run its whole `extent` once its kept units match): hiding too much is the safe side.
 */

/** Code units of a pattern kept in the automaton; the rest is compared as the text streams by. */
export const CHUNK = 64;
/** Units of a cut-off escape (`%2`, `\u00`, `&#x`) allowed between a secret's head and the cut mark. */
const CUT_SLACK = 5;
/** Recent units whose start is remembered: a chunk, a cut-off escape and the cut mark after them. */
const RING = CHUNK + CUT_SLACK + 4;
/** Where text was cut short (`…` or `...`), a secret's head of this many units before it is hidden too. */
export const CUT_PREFIX_MIN = 3;
const ELLIPSIS = 0x2026;
const DOT = 0x2e;
/**
 * Texts up to this long are also read through two layers of encoding (`%252F`), and up to the
 * next through three. Longer ones (a whole rendered report) are read through one: their parts
 * were sanitized one by one, each through three, before they were put together.
 */
export const LAYERED_MAX = 64 * 1024;
const LAYERED_3_MAX = 16 * 1024;

export interface ScanPattern {
  /** The pattern, already case-folded with `foldText`. */
  readonly text: string;
  /** The shortest prefix that counts as a match (the whole pattern when it is shorter). */
  readonly minAccept: number;
  /**
   * The length of the form `text` was cut from, when it was (longer than `text`), in folded units:
   * once the whole of `text` matches, the span runs on for the rest of this many units, uncompared.
   */
  readonly extent?: number;
  /** The units of the form past `text` (`unitSet`): the assumed rest stops at a unit not among them. */
  readonly rest?: Uint8Array;
}

/** Bit of a unit in a unit set: its own below U+1000, one per 256 above (544 bytes a set; a false hit only hides more). */
const unitBit = (unit: number): number => (unit < 0x1000 ? unit : 0x1000 + (unit >> 8));

/** The set of case-folded units of `text` from `from` on. */
export function unitSet(text: string, from = 0): Uint8Array {
  const set = new Uint8Array((0x1000 + 0x100) / 8);
  const add = (unit: number) => {
    const bit = unitBit(unit);
    set[bit >> 3]! |= 1 << (bit & 7);
  };
  // Each distinct unit is folded once: a 2-million-unit form of a long secret holds a few dozen.
  const seen = new Uint8Array(0x10000);
  for (let i = from; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (seen[unit]) continue;
    seen[unit] = 1;
    const folded = foldOne(unit);
    if (folded >= 0) add(folded);
    else for (const expanded of foldExpansions.get(unit)!) add(expanded.charCodeAt(0));
  }
  return set;
}

const holds = (set: Uint8Array, unit: number): boolean => {
  const bit = unitBit(unit);
  return (set[bit >> 3]! & (1 << (bit & 7))) !== 0;
};

/** Whether every unit `unit` folds to is in `set`. */
function holdsFolded(set: Uint8Array, unit: number): boolean {
  const folded = foldOne(unit);
  if (folded >= 0) return holds(set, folded);
  for (const expanded of foldExpansions.get(unit)!) if (!holds(set, expanded.charCodeAt(0))) return false;
  return true;
}

/** How a view reads the text: each decodes one encoding in which a server may echo a secret. */
export type View = 'raw' | 'json' | 'percent' | 'form' | 'html' | 'unwrap' | 'unspace' | 'cescape' | 'css' | 'qp';

/** White space as JavaScript's `\s` reads it; sanitizer.ts takes out the same from a secret (`textForms`). */
const SPACE = /\s/;

/** A view is worth reading only when the text holds a character its encoding starts with. */
const TRIGGERS: Readonly<Record<Exclude<View, 'raw'>, readonly string[] | RegExp>> = {
  json: ['\\'],
  percent: ['%'],
  form: ['+'],
  html: ['&'],
  unwrap: ['\n', '\r'],
  unspace: SPACE,
  cescape: ['\\', '%u', '%U'],
  css: ['\\'],
  qp: ['='],
};
/**
 * Whether `view` reads `text` otherwise than it is: it holds a character the encoding starts with,
 * and at one of them an escape the view decodes (`v=DMARC1` holds `=` but nothing quoted-printable).
 * A view that changes nothing would read what the text itself reads, through fewer layers: a
 * 16 KB DNS listing with one such `=` was copied whole for nothing.
 */
const triggered = (text: string, view: View): boolean => {
  if (view === 'raw') return true;
  const trigger = TRIGGERS[view];
  if (trigger instanceof RegExp) return trigger.test(text);
  for (const t of trigger) {
    for (let at = text.indexOf(t); at >= 0; at = text.indexOf(t, at + 1)) {
      if (decodeOne(text, at, text.charCodeAt(at), view, ignore) > 0) return true;
    }
  }
  return false;
};
const ignore: Feed = () => undefined;

/** The encodings a text is decoded through, stacked in any order, the same one twice too (`%252F`, `&amp;#x2F;`). */
const DECODING: readonly View[] = ['json', 'percent', 'form', 'html', 'unwrap'];
/**
 * Rarer encodings, read at every layer but not stacked on one another (the work would multiply).
 * Taking out all white space (`abcd efgh`, a key wrapped with indentation) is one: nearly every
 * text holds a space, so stacked it would double every layer.
 */
const LEAF_DECODING: readonly View[] = ['cescape', 'css', 'qp', 'unspace'];

/** How many encodings deep a text is read: three for a message's length, fewer as texts grow (the work multiplies). */
const layersFor = (length: number): number => (length <= LAYERED_3_MAX ? 3 : length <= LAYERED_MAX ? 2 : 1);

/** A text decoded by one view, with where each of its units came from in the original. */
interface Decoded {
  readonly text: string;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** Matched spans of the original text, sorted, merged, `[start, end)`; `pattern` is one pattern found there. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly pattern: number;
}

// ---- case folding --------------------------------------------------------------------------------

/**
 * Full case folding of each UTF-16 unit: the lower case of its upper case, to a fixed point, which
 * may be longer (`ß` and `ẞ` → `ss`, `ﬁ` → `fi`, `İ` → `i̇`): a secret echoed upper-cased
 * (`STRASSE`) folds as it does. `foldTable` holds a unit's fold where it is one unit, else 0
 * (no unit past ASCII folds to NUL), and `foldExpansions` the units it folds to; each unit past
 * ASCII is worked out the first time it is met (`known`), not all 65 536 at once.
 */
const foldTable = new Uint16Array(0x10000);
const known = new Uint8Array(0x10000);
const foldExpansions = new Map<number, string>();

/** Each unit of `text` as the lower case of its upper case; surrogates as they are (astral letters are not folded). */
function foldedOnce(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdfff ? text[i] : text[i]!.toUpperCase().toLowerCase();
  return out;
}

function learnFold(unit: number): void {
  const self = String.fromCharCode(unit);
  let folded = foldedOnce(self);
  if (folded !== self) for (let next = foldedOnce(folded); next !== folded; next = foldedOnce(folded)) folded = next; // `ẞ` → `ß` → `ss`
  if (folded.length === 1) foldTable[unit] = folded.charCodeAt(0);
  else foldExpansions.set(unit, folded);
  known[unit] = 1;
}

/** The one unit `unit` folds to, or -1 where it folds to several (`foldExpansions`). */
function foldOne(unit: number): number {
  if (unit < 0x80) return unit >= 0x41 && unit <= 0x5a ? unit + 32 : unit;
  if (!known[unit]) learnFold(unit);
  const folded = foldTable[unit]!;
  return folded === 0 ? -1 : folded;
}

const ASCII = /^[\u0000-\u007f]*$/;
const NOT_ASCII = /[^\u0000-\u007f]/g;

/**
 * `text` fully case-folded, unit by unit (see `foldTable`); patterns and the scanned text fold
 * alike. Runs of ASCII are folded natively (the same as the table on ASCII), the rest unit by unit.
 */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  let from = 0;
  for (const match of text.matchAll(NOT_ASCII)) {
    const at = match.index;
    if (at > from) out += text.slice(from, at).toLowerCase();
    const unit = text.charCodeAt(at);
    const folded = foldOne(unit);
    // Unit for unit, lone surrogates too (they fold to themselves).
    out += folded >= 0 ? String.fromCharCode(folded) : foldExpansions.get(unit)!;
    from = at + 1;
  }
  return out + text.slice(from).toLowerCase();
}

/**
 * How many units `text` folds to (`foldText(text).length`), and the index of the first unit whose
 * fold reaches past `upTo` folded units (`text.length` if none): counted, never built, so a form
 * of millions of units costs no copy.
 */
export function foldedExtent(text: string, upTo: number): { readonly length: number; readonly past: number } {
  let length = 0;
  let past = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const folded = foldOne(unit);
    length += folded >= 0 ? 1 : foldExpansions.get(unit)!.length;
    if (past === text.length && length > upTo) past = i;
  }
  return { length, past };
}

// ---- the automaton -------------------------------------------------------------------------------

/** Steps taken by every `spans` call so far, for tests that the work is linear in the text. */
export interface ScanStats {
  steps: number;
}

interface Extension {
  readonly pattern: number;
  /** Units of the pattern matched so far. */
  offset: number;
  readonly start: number;
  end: number;
  /** A later occurrence that began while this one was still matching: its decoded index and start. */
  pendingAt: number;
  pendingStart: number;
}

export class SecretScanner {
  readonly stats: ScanStats = { steps: 0 };
  private readonly patterns: readonly ScanPattern[];
  private readonly edges = new Map<number, number>();
  private readonly rootNext = new Int32Array(0x10000);
  private readonly fail: number[] = [0];
  private readonly depth: number[] = [0];
  /** The deepest accepting node on the suffix chain of each node (0: none). */
  private readonly acceptAt: number[] = [0];
  /** A pattern that accepts at each node (-1: none). */
  private readonly acceptPattern: number[] = [-1];
  /** Patterns longer than CHUNK, by the node where their chunk ends. */
  private readonly longAt = new Map<number, number[]>();
  /** The first pattern inserted through each node. */
  private readonly headOf: number[] = [0];

  constructor(patterns: readonly ScanPattern[]) {
    this.patterns = patterns;
    const childHead: number[] = [-1];
    const sibling: number[] = [-1];
    const unitOf: number[] = [0];
    patterns.forEach((pattern, index) => {
      const text = pattern.text;
      if (text.length === 0) return;
      const min = Math.max(1, Math.min(pattern.minAccept, text.length));
      let node = 0;
      const last = Math.min(text.length, CHUNK);
      for (let i = 0; i < last; i++) {
        const unit = text.charCodeAt(i);
        let next = node === 0 ? this.rootNext[unit]! : (this.edges.get(node * 0x10000 + unit) ?? 0);
        if (next === 0) {
          next = this.fail.length;
          this.fail.push(0);
          this.depth.push(i + 1);
          this.acceptAt.push(0);
          this.acceptPattern.push(-1);
          childHead.push(-1);
          unitOf.push(unit);
          this.headOf.push(index);
          sibling.push(childHead[node]!);
          childHead[node] = next;
          if (node === 0) this.rootNext[unit] = next;
          else this.edges.set(node * 0x10000 + unit, next);
        }
        node = next;
        if (i + 1 >= min && this.acceptPattern[node] === -1) this.acceptPattern[node] = index;
      }
      if (text.length > CHUNK) {
        const list = this.longAt.get(node);
        if (list) list.push(index);
        else this.longAt.set(node, [index]);
      }
    });
    // Breadth first: a node's failure link is shallower, so it is final when the node is reached.
    const queue: number[] = [];
    for (let child = childHead[0]!; child !== -1; child = sibling[child]!) {
      this.fail[child] = 0;
      queue.push(child);
    }
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      this.acceptAt[node] = this.acceptPattern[node] !== -1 ? node : this.acceptAt[this.fail[node]!]!;
      for (let child = childHead[node]!; child !== -1; child = sibling[child]!) {
        this.fail[child] = this.step(this.fail[node]!, unitOf[child]!);
        queue.push(child);
      }
    }
  }

  /** The automaton's move from `state` on `unit`, following failure links. */
  private step(state: number, unit: number): number {
    for (;;) {
      if (state === 0) return this.rootNext[unit]!;
      const next = this.edges.get(state * 0x10000 + unit);
      if (next !== undefined) return next;
      state = this.fail[state]!;
      this.stats.steps++;
    }
  }

  /** A pattern whose head `state` is (the first one inserted through it). */
  private headPattern(state: number): number {
    return this.headOf[state] ?? 0;
  }

  /** Units of pattern text held, in all (each cut pattern holds a fixed-size unit set besides). */
  get keptUnits(): number {
    return this.patterns.reduce((sum, p) => sum + p.text.length, 0);
  }

  get empty(): boolean {
    return this.fail.length === 1;
  }

  /**
   * Every span of `text` where a pattern matches, read as it is and through up to `layersFor`
   * encodings stacked (a server's two, and the quotes of a message that cites it), merged and sorted.
   */
  spans(text: string): Span[] {
    if (this.empty || text.length === 0) return [];
    const found: Span[] = [];
    this.scanLayers(text, undefined, layersFor(text.length), undefined, found);
    return mergeRanges(found);
  }

  /** Scans `text` as it is, then through each encoding it may hold: decoded again while layers are left. */
  private scanLayers(text: string, layer: Decoded | undefined, layers: number, under: View | undefined, found: Span[]): void {
    this.scanView(text, 'raw', found, layer);
    for (const view of LEAF_DECODING) if (triggered(text, view)) this.scanView(text, view, found, layer);
    for (const view of DECODING) {
      if ((view === 'unwrap' && under === 'unwrap') || !triggered(text, view)) continue;
      if (layers <= 1) this.scanView(text, view, found, layer);
      else {
        const inner = materialize(text, view, layer);
        this.scanLayers(inner.text, inner, layers - 1, view, found);
      }
    }
  }

  /** Scans `text` through `view`; `layer` maps positions of `text` back to the original (a decoded view). */
  private scanView(text: string, view: View, found: Span[], layer?: Decoded): void {
    const patterns = this.patterns;
    const ring = new Int32Array(RING);
    let position = 0; // decoded units so far
    let state = 0;
    /** The state after each recent unit: the head of a secret may sit a few units before a cut. */
    const states = new Int32Array(RING);
    let current: { start: number; end: number; pattern: number } | undefined;
    const active: Extension[] = [];
    const stats = this.stats;
    // A run of dots: the state and place before its first one (`...` cuts text like `…`).
    let dots = 0;
    let beforeDots = 0;
    let dotsAt = 0;
    let dotsStart = 0;

    const add = (spanStart: number, spanEnd: number, pattern: number) => {
      if (current && spanStart <= current.end) {
        current.start = Math.min(current.start, spanStart);
        current.end = Math.max(current.end, spanEnd);
      } else {
        if (current) found.push(current);
        current = { start: spanStart, end: spanEnd, pattern };
      }
    };
    /**
     * Text cut short at unit `at` (`stateBefore` the state just before it) right after the head of a
     * secret, or after its head and the start of an escape the cut broke: the head goes too.
     */
    const cut = (stateBefore: number, at: number, cutStart: number) => {
      for (let back = 0; back <= CUT_SLACK && at - back > 0; back++) {
        const before = back === 0 ? stateBefore : states[(at - 1 - back) % RING]!;
        const head = this.depth[before]!;
        if (head >= CUT_PREFIX_MIN) return add(ring[(at - back - head) % RING]!, cutStart, this.headPattern(before));
      }
    };

    /** `raw`, as its case-folded `unit` (one of the units it folds to), decoded from `[start, end)`. */
    const step = (raw: number, unit: number, start: number, end: number): void => {
      stats.steps++;
      ring[position % RING] = start;
      position++;
      if (raw === ELLIPSIS) cut(state, position - 1, start);
      if (raw === DOT) {
        if (dots++ === 0) {
          beforeDots = state;
          dotsAt = position - 1;
          dotsStart = start;
        }
        if (dots === 3) cut(beforeDots, dotsAt, dotsStart);
      } else dots = 0;
      // Long patterns being followed past their chunk.
      for (let k = 0; k < active.length; ) {
        const ext = active[k]!;
        stats.steps++;
        const pattern = patterns[ext.pattern]!;
        const text = pattern.text;
        // Past the units kept of a cut pattern, the rest of its form is assumed, not compared,
        // up to a unit the rest does not hold (the `…` that cut a quote of it, a closing quote).
        const blind = ext.offset >= text.length;
        if (blind ? !pattern.rest || holds(pattern.rest, unit) : text.charCodeAt(ext.offset) === unit) {
          ext.offset++;
          ext.end = end;
          if (ext.offset < (pattern.extent ?? text.length)) {
            k++;
            continue;
          }
          found.push({ start: ext.start, end: ext.end, pattern: ext.pattern });
          active[k] = active[active.length - 1]!;
          active.pop();
          continue;
        }
        found.push({ start: ext.start, end: ext.end, pattern: ext.pattern });
        // A later occurrence that began inside this one: carry on from where it would be.
        const offset = ext.pendingAt < 0 ? -1 : position - 1 - ext.pendingAt;
        if (offset >= 0 && offset < text.length && text.charCodeAt(offset) === unit) {
          if (offset + 1 < text.length) {
            active[k] = { pattern: ext.pattern, offset: offset + 1, start: ext.pendingStart, end, pendingAt: -1, pendingStart: 0 };
            k++;
            continue;
          }
          found.push({ start: ext.pendingStart, end, pattern: ext.pattern });
        }
        active[k] = active[active.length - 1]!;
        active.pop();
      }
      state = this.step(state, unit);
      states[(position - 1) % RING] = state;
      const accepting = this.acceptAt[state]!;
      if (accepting !== 0) add(ring[(position - this.depth[accepting]!) % RING]!, end, this.acceptPattern[accepting]!);
      if (this.depth[state] === CHUNK) {
        const long = this.longAt.get(state);
        if (long) {
          const chunkStart = ring[(position - CHUNK) % RING]!; // the chunk's first unit
          for (const pattern of long) {
            const ext = active.find((e) => e.pattern === pattern);
            if (!ext) active.push({ pattern, offset: CHUNK, start: chunkStart, end, pendingAt: -1, pendingStart: 0 });
            else if (ext.pendingAt < 0) {
              ext.pendingAt = position - CHUNK;
              ext.pendingStart = chunkStart;
            }
          }
        }
      }
    };

    /** Each unit as the units it folds to (`ß`: `s`, `s`), every one spanning where the unit came from. */
    const fold = (raw: number, start: number, end: number): void => {
      const unit = foldOne(raw);
      if (unit >= 0) return step(raw, unit, start, end);
      const expansion = foldExpansions.get(raw)!;
      for (let k = 0; k < expansion.length; k++) step(raw, expansion.charCodeAt(k), start, end);
    };
    // White space the view took out, at `at`, ends an assumed rest that does not hold it unless
    // the rest goes on right after it: the view joins a secret's pieces, not a word after one. A
    // run of white space is judged once, at its first unit (the work stays linear).
    const dropped = (raw: number, at: number): void => {
      if (at > 0 && isSpace(text.charCodeAt(at - 1))) return;
      for (let k = 0; k < active.length; ) {
        const ext = active[k]!;
        stats.steps++;
        const pattern = patterns[ext.pattern]!;
        const left = Math.min(REST_AFTER_SPACE, (pattern.extent ?? pattern.text.length) - ext.offset);
        if (ext.offset < pattern.text.length || !pattern.rest || holds(pattern.rest, raw) || restGoesOn(pattern.rest, text, at + 1, left, stats)) {
          k++;
          continue;
        }
        found.push({ start: ext.start, end: ext.end, pattern: ext.pattern });
        active[k] = active[active.length - 1]!;
        active.pop();
      }
    };
    const feed = layer ? (raw: number, start: number, end: number) => fold(raw, layer.start[start]!, layer.end[end - 1]!) : fold;
    decode(text, view, feed, dropped);
    if (current) found.push(current);
    for (const ext of active) found.push({ start: ext.start, end: ext.end, pattern: ext.pattern });
  }
}

/** A text as one stack of decodings reads it, with where each of its units came from (none for the text itself). */
export interface TextLayer {
  readonly text: string;
  readonly start?: Int32Array;
  readonly end?: Int32Array;
  /** The last decoding applied (none for the text itself). */
  readonly view?: View;
}

/**
 * `text` as it is and as every stack of up to `depth` decodings reads it (those its characters
 * call for; fewer for a long text, as for secrets), for finding shapes rather than secrets (a
 * URL's user information) the same ways.
 */
export function* decodedLayers(text: string, depth = layersFor(text.length) - 1, layer?: Decoded, under?: View): Generator<TextLayer> {
  yield layer ? { ...layer, ...(under ? { view: under } : {}) } : { text };
  if (depth <= 0) return;
  for (const view of [...DECODING, ...LEAF_DECODING]) {
    // White space ends a shape (a URL's authority, a bare value): joined, it would run into the next word.
    if (view === 'unspace' || (view === 'unwrap' && under === 'unwrap') || !triggered(layer?.text ?? text, view)) continue;
    const inner = materialize(layer?.text ?? text, view, layer);
    yield* decodedLayers(inner.text, LEAF_DECODING.includes(view) ? 0 : depth - 1, inner, view);
  }
}

/** `text` as `view` decodes it, each unit with the span of the original it came from (through `outer`, if `text` is itself decoded). */
function materialize(text: string, view: View, outer: Decoded | undefined): Decoded {
  let units = new Uint16Array(Math.max(16, text.length));
  let start = new Int32Array(units.length);
  let end = new Int32Array(units.length);
  let n = 0;
  decode(text, view, (unit, s, e) => {
    if (n === units.length) {
      const grow = <A extends Uint16Array | Int32Array>(a: A): A => {
        const b = new (a.constructor as new (size: number) => A)(a.length * 2);
        b.set(a);
        return b;
      };
      units = grow(units);
      start = grow(start);
      end = grow(end);
    }
    units[n] = unit;
    start[n] = outer ? outer.start[s]! : s;
    end[n] = outer ? outer.end[e - 1]! : e;
    n++;
  });
  let decoded = '';
  for (let i = 0; i < n; i += 8192) decoded += String.fromCharCode(...units.subarray(i, Math.min(n, i + 8192)));
  return { text: decoded, start: start.subarray(0, n), end: end.subarray(0, n) };
}

/** Ranges sorted, overlapping and touching ones joined (each keeps the other fields of its first). */
export function mergeRanges<T extends { readonly start: number; readonly end: number }>(ranges: readonly T[]): T[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  for (const range of sorted) {
    const last = out[out.length - 1];
    if (last && range.start <= last.end) out[out.length - 1] = { ...last, end: Math.max(last.end, range.end) };
    else out.push(range);
  }
  return out;
}

// ---- views ---------------------------------------------------------------------------------------

type Feed = (unit: number, start: number, end: number) => void;

const hexValue = (unit: number): number => {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  const lower = unit | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let value = 0;
  for (let i = 0; i < count; i++) {
    const digit = hexValue(text.charCodeAt(at + i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

const JSON_ESCAPES: Readonly<Record<string, number>> = { '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

/** Feeds the code units of `text` as `view` decodes them, each with the span it came from; `dropped` hears the white space 'unspace' takes out. */
function decode(text: string, view: View, feed: Feed, dropped?: (unit: number, at: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const unit = text.charCodeAt(i);
    if (view === 'unspace' && isSpace(unit)) {
      dropped?.(unit, i);
      i++;
      continue;
    }
    const used = view === 'raw' ? 0 : decodeOne(text, i, unit, view, feed);
    if (used > 0) i += used;
    else {
      feed(unit, i, i + 1);
      i++;
    }
  }
}

/** Decodes one escape at `i` and feeds its units; returns the characters it used, 0 if none. */
function decodeOne(text: string, i: number, unit: number, view: View, feed: Feed): number {
  switch (view) {
    case 'json': {
      if (unit !== 0x5c || i + 1 >= text.length) return 0;
      const next = text[i + 1]!;
      if (next === 'u') {
        const value = hexAt(text, i + 2, 4);
        if (value < 0) return 0;
        feed(value, i, i + 6);
        return 6;
      }
      const escaped = JSON_ESCAPES[next];
      if (escaped === undefined) return 0;
      feed(escaped, i, i + 2);
      return 2;
    }
    case 'form':
      if (unit === 0x2b) {
        feed(0x20, i, i + 1);
        return 1;
      }
      return unit === 0x25 ? decodePercent(text, i, feed) : 0;
    case 'percent':
      return unit === 0x25 ? decodePercent(text, i, feed) : 0;
    case 'html':
      return unit === 0x26 ? decodeReference(text, i, feed) : 0;
    case 'unwrap':
      return isSpace(unit) ? unwrapSpace(text, i, feed) : 0;
    case 'unspace':
      return 0; // taken out in `decode`
    case 'cescape':
      return unit === 0x5c || unit === 0x25 ? decodeCEscape(text, i, unit, feed) : 0;
    case 'css':
      return unit === 0x5c ? decodeCssEscape(text, i, feed) : 0;
    case 'qp':
      return unit === 0x3d ? decodeQuotedPrintable(text, i, feed) : 0;
    case 'raw':
      return 0;
  }
}

/** Units after white space inside an assumed rest (or all it has left) that must be the rest's for it to go on. */
const REST_AFTER_SPACE = 16;

/** Whether the `count` units from `from` (white space skipped; fewer at the text's end) all fold into `rest`. */
function restGoesOn(rest: Uint8Array, text: string, from: number, count: number, stats: ScanStats): boolean {
  for (let i = from, seen = 0; i < text.length && seen < count; i++) {
    stats.steps++;
    const unit = text.charCodeAt(i);
    if (isSpace(unit)) continue;
    seen++;
    if (!holdsFolded(rest, unit)) return false;
  }
  return true;
}

let spaceTable: Uint8Array | undefined;

/** Whether a unit is white space (`SPACE`), by a table made once. */
function isSpace(unit: number): boolean {
  if (unit < 0x80) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (!spaceTable) {
    spaceTable = new Uint8Array(0x10000);
    for (let u = 0x80; u < 0x10000; u++) spaceTable[u] = SPACE.test(String.fromCharCode(u)) ? 1 : 0;
  }
  return spaceTable[unit] === 1;
}

/**
 * A run of white space at `i`: taken out whole (nothing fed) if it holds a line break, so a
 * secret wrapped with indentation joins up; else fed as it is. Each run is read once.
 */
function unwrapSpace(text: string, i: number, feed: Feed): number {
  let end = i;
  let breaks = false;
  for (; end < text.length && isSpace(text.charCodeAt(end)); end++) breaks ||= text.charCodeAt(end) === 0x0a || text.charCodeAt(end) === 0x0d;
  if (!breaks) for (let k = i; k < end; k++) feed(text.charCodeAt(k), k, k + 1);
  return end - i;
}

/** `%XX` (or `=XX`, with `mark` 0x3d), or the escaped bytes of one UTF-8 sequence, as the code point they encode. */
function decodePercent(text: string, i: number, feed: Feed, mark = 0x25): number {
  const lead = hexAt(text, i + 1, 2);
  if (lead < 0) return 0;
  if (lead < 0x80) {
    feed(lead, i, i + 3);
    return 3;
  }
  const length = lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (length === 0) return 0;
  let codePoint = lead & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    const at = i + 3 * k;
    if (text.charCodeAt(at) !== mark) return 0;
    const byte = hexAt(text, at + 1, 2);
    if (byte < 0 || (byte & 0xc0) !== 0x80) return 0;
    codePoint = (codePoint << 6) | (byte & 0x3f);
  }
  if (codePoint > 0x10ffff) return 0;
  feedCodePoint(codePoint, i, i + 3 * length, feed);
  return 3 * length;
}

/** A code point as the one or two UTF-16 units it is, each spanning `[start, end)`. */
function feedCodePoint(codePoint: number, start: number, end: number, feed: Feed): void {
  if (codePoint < 0x10000) feed(codePoint, start, end);
  else {
    feed(0xd800 + ((codePoint - 0x10000) >> 10), start, end);
    feed(0xdc00 + ((codePoint - 0x10000) & 0x3ff), start, end);
  }
}

/** A run of up to `max` hex digits at `at`: its value and length (length 0: none). */
function hexRun(text: string, at: number, max: number): { value: number; length: number } {
  let value = 0;
  let length = 0;
  while (length < max && at + length < text.length) {
    const digit = hexValue(text.charCodeAt(at + length));
    if (digit < 0) break;
    value = value * 16 + digit;
    length++;
  }
  return { value, length };
}

/**
 * The escapes of C-family languages and their heirs: `\xHH` (JavaScript encoders, Python, C),
 * `\uHHHH` and `\u{H…}` (JavaScript, Rust), `\NNN` octal, and `%uHHHH` (JavaScript's `escape`).
 */
function decodeCEscape(text: string, i: number, unit: number, feed: Feed): number {
  const next = text[i + 1];
  if (unit === 0x25) {
    if (next !== 'u' && next !== 'U') return 0;
    const value = hexAt(text, i + 2, 4);
    if (value < 0) return 0;
    feed(value, i, i + 6);
    return 6;
  }
  if (unit !== 0x5c || next === undefined) return 0;
  if (next === 'x') {
    const value = hexAt(text, i + 2, 2);
    if (value < 0) return 0;
    feed(value, i, i + 4);
    return 4;
  }
  if (next === 'u' && text[i + 2] === '{') {
    const { value, length } = hexRun(text, i + 3, 6);
    if (length === 0 || text[i + 3 + length] !== '}' || value > 0x10ffff) return 0;
    feedCodePoint(value, i, i + 4 + length, feed);
    return 4 + length;
  }
  if (next === 'u') {
    const value = hexAt(text, i + 2, 4);
    if (value < 0) return 0;
    feed(value, i, i + 6);
    return 6;
  }
  let value = 0;
  let length = 0;
  while (length < 3 && text.charCodeAt(i + 1 + length) >= 0x30 && text.charCodeAt(i + 1 + length) <= 0x37) value = value * 8 + (text.charCodeAt(i + 1 + length++) - 0x30);
  if (length === 0 || value > 0xff) return 0;
  feed(value, i, i + 1 + length);
  return 1 + length;
}

/** CSS's `\H…` (one to six hex digits, then one optional white space that ends the escape). */
function decodeCssEscape(text: string, i: number, feed: Feed): number {
  const { value, length } = hexRun(text, i + 1, 6);
  if (length === 0 || value > 0x10ffff) return 0;
  const spaced = /[ \t\n]/.test(text[i + 1 + length] ?? '') ? 1 : 0;
  feedCodePoint(value, i, i + 1 + length + spaced, feed);
  return 1 + length + spaced;
}

/** Quoted-printable: `=XX` bytes (UTF-8 sequences too), and `=` at a line's end (a soft break) taken out. */
function decodeQuotedPrintable(text: string, i: number, feed: Feed): number {
  if (text[i + 1] === '\n') return 2;
  if (text[i + 1] === '\r' && text[i + 2] === '\n') return 3;
  return decodePercent(text, i, feed, 0x3d);
}

/**
 * Named references a server writes for the characters HTML escapes, with and without `;` (HTML
 * reads the legacy ones bare, `&amp` and `&AMP` alike), longest first.
 */
const NAMED_REFERENCES: readonly (readonly [string, number])[] = [
  ['quot', 0x22],
  ['QUOT', 0x22],
  ['apos', 0x27],
  ['amp', 0x26],
  ['AMP', 0x26],
  ['lt', 0x3c],
  ['LT', 0x3c],
  ['gt', 0x3e],
  ['GT', 0x3e],
];
/** Digits of a numeric reference read at most: zero padding (`&#0000000075;`) in bounded work per `&`. */
const REFERENCE_DIGITS_MAX = 32;

/**
 * `&amp;`, `&#NN;` or `&#xHH;` as the character it stands for: any zero padding, and the `;`
 * optional, as HTML reads them (a reference without one ends at its first non-digit).
 */
function decodeReference(text: string, i: number, feed: Feed): number {
  let at = i + 1;
  let codePoint: number;
  if (text.charCodeAt(at) === 0x23) {
    const hex = (text.charCodeAt(at + 1) | 0x20) === 0x78;
    at += hex ? 2 : 1;
    const from = at;
    codePoint = 0;
    for (; at < text.length; at++) {
      const unit = text.charCodeAt(at);
      const digit = hex ? hexValue(unit) : unit >= 0x30 && unit <= 0x39 ? unit - 0x30 : -1;
      if (digit < 0) break;
      if (at - from === REFERENCE_DIGITS_MAX) return 0;
      codePoint = codePoint * (hex ? 16 : 10) + digit;
      if (codePoint > 0x10ffff) return 0;
    }
    if (at === from) return 0;
  } else {
    const named = NAMED_REFERENCES.find(([name]) => text.startsWith(name, at));
    if (!named) return 0;
    codePoint = named[1];
    at += named[0].length;
  }
  if (text.charCodeAt(at) === 0x3b) at++;
  feedCodePoint(codePoint, i, at, feed);
  return at - i;
}
