/**
 * Secrets by structure. The model marks the fields that hold secrets (`sftp_password`,
 * `admin_password`); wherever an answer names one, in any spelling (`sftpPassword`, escaped as
 * `sftp\u005fpassword`, HTML-escaped, form-encoded as `environment[sftp_password]=…`, in JSON
 * inside a string, under a duplicate key), its value is found where the data is parsed and
 * replaced before any text is made from it. Text search for the values learned here is the
 * second line of defence (sanitizer.ts), never the first.
 */
import { secretFieldNames } from '../spec/queries.ts';
import { readJsonTree, writeJsonTree, type JsonNode } from './json-tree.ts';
import { decodedLayers, mergeRanges, type View } from './scan.ts';
import { BoundedMap } from './bounded-map.ts';

export const REDACTED = '[redacted]';

export interface Range {
  readonly start: number;
  readonly end: number;
}

/** A value found after a secret field's name: where it sits in the original text, and what it reads as there. */
export interface FieldValue {
  readonly field: string;
  readonly span: Range;
  /** The value as the layer it was found in decodes it (`pass+word` for `pass%2Bword`). */
  readonly value: string;
  /** It was quoted: a string, not a bare token. */
  readonly quoted: boolean;
}

/** Characters of a value read after a secret field's name in text that is not JSON. */
export const MAX_TEXT_VALUE = 64 * 1024;
/** JSON inside strings is read this many levels down. */
const MAX_NESTED = 8;

/** A field name with case and word separators taken out: `sftpPassword`, `SFTP-PASSWORD` and `sftp_password` read alike. */
const normalName = (name: string): string => asciiLower(name).replace(/[\s_.-]+/g, '');

/** Lower case for ASCII letters only: every position stays where it was (`toLowerCase` may change lengths). */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** The secret fields, and how to find them in parsed data and in text. */
/** Texts up to this long have what `namesIn` found kept, up to this many. */
const NAMES_MEMO_CHARS = 16 * 1024;
const NAMES_MEMO_ENTRIES = 1024;
/** Keys up to this long have the field they name kept (as many as texts). */
const FIELD_MEMO_CHARS = 256;

export class SecretFields {
  readonly names: readonly string[];
  readonly #normal: readonly string[];
  /** Each name as text may spell it, lower-cased, with the name it spells. */
  readonly #spellings: readonly (readonly [spelling: string, field: string])[];
  /** The last word of each name, lower-cased: every spelling holds one. */
  readonly #lastWords: readonly string[];
  /** Any of them, in any case (the model's field names, never a secret). */
  readonly #lastWordIn: RegExp;

  constructor(names: readonly string[] = secretFieldNames) {
    this.names = names;
    this.#normal = names.map(normalName);
    this.#lastWords = [...new Set(names.map((name) => asciiLower(name).split(/[\s_.-]+/).at(-1)!))];
    this.#lastWordIn = this.#lastWords.length ? new RegExp(this.#lastWords.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i') : /(?!)/;
    this.#spellings = names.flatMap((name) => {
      const words = asciiLower(name).split(/[\s_.-]+/);
      return [...new Set(['_', '-', '', ' ', '.'].map((sep) => words.join(sep)))].map((s) => [s, name] as const);
    });
  }

  /** The secret field a key names in any spelling (it contains one: `sftp_password_hash` too), or undefined. */
  fieldOf(key: string): string | undefined {
    // Keys repeat (header names, the document's fields): each short one is read once.
    return key.length > FIELD_MEMO_CHARS ? this.#fieldOf(key) : this.#fields.getOrAdd(key, (k) => this.#fieldOf(k));
  }

  readonly #fields = new BoundedMap<string, string | undefined>(NAMES_MEMO_ENTRIES);

  #fieldOf(key: string): string | undefined {
    const normal = normalName(key);
    const at = this.#normal.findIndex((n) => normal.includes(n));
    return at < 0 ? undefined : this.names[at];
  }

  /** Whether `text`, as it is or through any encoding a server wraps it in, names a secret field. */
  namedIn(text: string): boolean {
    return this.namesIn(text, true).length > 0;
  }

  /** The secret fields `text` names, as it is or through any encoding a server wraps it in; `first`: stop at one. */
  namesIn(text: string, first = false): string[] {
    if (text.length === 0) return [];
    // A target repeats its answers (error bodies, reads): each short text is read through its encodings once.
    if (text.length > NAMES_MEMO_CHARS) return this.#namesIn(text, first);
    const names = (first ? this.#namedFirst : this.#named).getOrAdd(text, (t) => this.#namesIn(t, first));
    return names.length === 0 ? [] : [...names];
  }

  readonly #named = new BoundedMap<string, readonly string[]>(NAMES_MEMO_ENTRIES);
  readonly #namedFirst = new BoundedMap<string, readonly string[]>(NAMES_MEMO_ENTRIES);

  #namesIn(text: string, first: boolean): string[] {
    const names = new Set<string>();
    for (const layer of decodedLayers(text)) {
      // Most texts hold no name's last word at all: one native search, no copy, rules them out.
      if (!this.#lastWordIn.test(layer.text)) continue;
      // Positions do not matter here: the native lower case (which may change a length) is faster.
      for (const { field } of this.#namesAt(layer.text.toLowerCase())) {
        names.add(field);
        if (first) return [field];
      }
    }
    return [...names];
  }

  /** Where each spelling of a name ends in `lower`, with the field it names. */
  #namesAt(lower: string): { field: string; end: number }[] {
    const found: { field: string; end: number }[] = [];
    // Every spelling holds its name's last word (`password`): one pass rules most texts out.
    if (!this.#lastWords.some((w) => lower.includes(w))) return found;
    for (const [spelling, field] of this.#spellings) {
      for (let at = lower.indexOf(spelling); at >= 0; at = lower.indexOf(spelling, at + spelling.length)) found.push({ field, end: at + spelling.length });
    }
    return found;
  }

  /**
   * The value after each secret field's name, in text of any shape (JSON, single-quoted, YAML,
   * form, XML, an HTML table) as it is and through every encoding a server wraps it in; spans
   * are of `text` itself. Linear: each name is read once per layer, its value up to MAX_TEXT_VALUE.
   */
  valuesIn(text: string): FieldValue[] {
    const found: FieldValue[] = [];
    for (const layer of decodedLayers(text)) {
      const source = layer.text;
      // Where line breaks or spaces were taken out, a bare token would run on into the next line.
      const bareTokens = layer.view === undefined || !SPACE_DROPPING.has(layer.view);
      for (const { field, end } of this.#namesAt(asciiLower(source))) {
        const after = valueAfter(source, end);
        if (!after || after.end <= after.start || (!after.quoted && !bareTokens)) continue;
        const value = source.slice(after.start, after.end);
        if (NOT_SECRETS.has(value)) continue;
        const span = layer.start && layer.end ? { start: layer.start[after.start]!, end: layer.end[after.end - 1]! } : { start: after.start, end: after.end };
        found.push({ field, span, value: after.quoted ? unescapeQuoted(value) : value, quoted: after.quoted });
      }
    }
    return found;
  }

  /** `text` with the value after each secret field's name replaced, however it is encoded. */
  maskIn(text: string): string {
    const spans = mergeRanges(this.valuesIn(text).map((v) => v.span));
    if (spans.length === 0) return text;
    let out = '';
    let from = 0;
    for (const span of spans) {
      out += text.slice(from, span.start) + REDACTED;
      from = span.end;
    }
    return out + text.slice(from);
  }

  /**
   * An answer read for its secrets: every value under a secret field (duplicates, JSON inside
   * strings, text that is not JSON), and, where it is JSON, the same JSON with those values
   * replaced: `json` keeps each value's type (what the checks judge), `shape` writes each as
   * the marker and keeps duplicate keys (what a report shows).
   */
  screen(text: string): Screened {
    const values: Learned[] = [];
    const tree = readJsonTree(text);
    let json: unknown;
    let shape: string | undefined;
    if (tree.root && tree.closed) {
      shape = writeJsonTree(this.#redact(tree.root, 'shape', values, 0));
      if (tree.complete) json = JSON.parse(writeJsonTree(this.#redact(tree.root, 'typed', [], 0))) as unknown;
    }
    // JSON read whole has every value found by structure; anything else is read as text too.
    if (!tree.complete) for (const { field, value } of this.valuesIn(text)) values.push({ field, value });
    const seen = new Set<string>();
    return {
      values: values.filter((v) => !seen.has(v.value) && seen.add(v.value)),
      ...(tree.complete ? { json } : {}),
      ...(shape !== undefined ? { shape, shapeComplete: tree.complete } : {}),
    };
  }

  /** `node` with every secret value replaced; `learned` gets each value replaced. */
  #redact(node: JsonNode, mode: 'typed' | 'shape', learned: Learned[], nested: number): JsonNode {
    switch (node.kind) {
      case 'object':
        return {
          kind: 'object',
          members: node.members.map(([key, value]) => {
            const field = this.fieldOf(key);
            return [key, field ? hidden(value, mode, learned, field) : this.#redact(value, mode, learned, nested)];
          }),
        };
      case 'array':
        return { kind: 'array', items: node.items.map((item) => this.#redact(item, mode, learned, nested)) };
      case 'string':
        return node.value.length > 0 && nested < MAX_NESTED && this.namedIn(node.value) ? { kind: 'string', value: this.#redactText(node.value, mode, learned, nested + 1) } : node;
      default:
        return node;
    }
  }

  /** A string that names a secret field: JSON inside it redacted as JSON, anything else masked after the names. */
  #redactText(text: string, mode: 'typed' | 'shape', learned: Learned[], nested: number): string {
    const trimmed = text.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      const inner = readJsonTree(trimmed);
      if (inner.root && inner.complete) return writeJsonTree(this.#redact(inner.root, mode, learned, nested));
    }
    for (const { field, value } of this.valuesIn(text)) learned.push({ field, value });
    return this.maskIn(text);
  }
}

/** A value found under a secret field. */
export interface Learned {
  readonly field: string;
  readonly value: string;
}

export interface Screened {
  /** Every value the text holds under a secret field's name, once each: for the sanitizer to search for elsewhere. */
  readonly values: readonly Learned[];
  /** The parsed JSON with every secret value replaced by one of its type; absent when the text is not one JSON value. */
  readonly json?: unknown;
  /** JSON text of the value the text begins with (read to its end), every secret value the marker, duplicate keys kept. */
  readonly shape?: string;
  /** The shape is of the whole text (nothing follows it). */
  readonly shapeComplete?: boolean;
}

/** A secret field's value replaced: in `typed`, by a value of the same type (what a schema judges); in `shape`, by the marker. */
function hidden(node: JsonNode, mode: 'typed' | 'shape', learned: Learned[], field: string): JsonNode {
  switch (node.kind) {
    case 'string':
      if (node.value === '') return node;
      learned.push({ field, value: node.value });
      return { kind: 'string', value: REDACTED };
    case 'number':
      learned.push({ field, value: node.raw });
      return mode === 'typed' ? { kind: 'number', raw: '0' } : { kind: 'string', value: REDACTED };
    case 'literal':
      return node;
    case 'array':
      return { kind: 'array', items: node.items.map((item) => hidden(item, mode, learned, field)) };
    case 'object':
      return { kind: 'object', members: node.members.map(([key, value]) => [key, hidden(value, mode, learned, field)]) };
  }
}

/** Decodings that take white space out (scan.ts). */
const SPACE_DROPPING: ReadonlySet<View> = new Set(['unwrap', 'unspace']);

/** Bare JSON literals after a field's name: its type, never its secret. */
const NOT_SECRETS = new Set(['null', 'true', 'false']);

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/**
 * The value that follows a field's name ending at `i`, if what follows looks like a value of it:
 * after the name's closing quote or bracket (`environment[sftp_password]`), a separator (`:`,
 * `=`, `=>`, a tag's end, up to two whole tags between), then a quoted string, a JSON container
 * (all of it) or a bare token.
 */
function valueAfter(text: string, i: number): { start: number; end: number; quoted: boolean } | undefined {
  const n = text.length;
  const skipSpace = () => {
    while (i < n && isSpace(text[i])) i++;
  };
  if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === "'")) i += 2;
  else if (text[i] === '"' || text[i] === "'" || text[i] === ']') i++;
  let separated = false;
  for (let tags = 0; tags < 3; ) {
    skipSpace();
    const c = text[i];
    if (c === ':' || c === '=' || c === '>') {
      i += c === '=' && text[i + 1] === '>' ? 2 : 1;
      separated = true;
      break;
    }
    if (c === '<') {
      const close = text.indexOf('>', i);
      if (close < 0 || close - i > 64) return undefined;
      i = close + 1;
      separated = true;
      tags++;
      continue;
    }
    break;
  }
  if (!separated) return undefined;
  skipSpace();
  const start = i;
  const limit = Math.min(n, start + MAX_TEXT_VALUE);
  const c = text[i];
  if (c === '"' || c === "'" || (c === '\\' && text[i + 1] === '"')) {
    const escapedQuote = c === '\\';
    const quote = escapedQuote ? '"' : c;
    i += escapedQuote ? 2 : 1;
    const from = i;
    while (i < limit) {
      if (escapedQuote ? text[i] === '\\' && text[i + 1] === '"' : text[i] === quote) break;
      i += text[i] === '\\' && !escapedQuote ? 2 : 1;
    }
    return { start: from, end: Math.min(i, n), quoted: true };
  }
  if (c === '[' || c === '{') {
    // A JSON value: from its first string or token on to its closing bracket, all hidden.
    let depth = 0;
    while (i < limit) {
      const d = text[i];
      if (d === '[' || d === '{') depth++;
      else if (d === ']' || d === '}') {
        depth--;
        if (depth === 0) return { start: start + 1, end: i, quoted: false };
      } else if (d === '"') {
        i++;
        while (i < limit && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      }
      i++;
    }
    return { start: start + 1, end: Math.min(i, n), quoted: false };
  }
  // A bare token: up to the end of the line, a tag, or JSON or form punctuation.
  while (i < limit && !'\r\n<,;}]&'.includes(text[i]!)) i++;
  let end = i;
  while (end > start && isSpace(text[end - 1])) end--;
  return { start, end, quoted: false };
}

/** A quoted value's characters with JSON escapes decoded where they decode; a cut-off escape at the end dropped. */
function unescapeQuoted(content: string): string {
  if (!content.includes('\\')) return content;
  const whole = content.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    return whole;
  }
}

/** The model's secret fields: one reader for the whole process. */
export const secretFields = new SecretFields();
