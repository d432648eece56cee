/**
 * The one sanitizer every byte that leaves the process passes: reports, curl lines, messages,
 * progress, the mock's request log, every error the CLI prints. It hides
 * - the API keys given (`[redacted HSC_API_KEY]`),
 * - every value of a field the model marks secret (`sftp_password`, `admin_password`) seen in a
 *   request or an answer, parsed or not, whatever its JSON type (`learn`, `learnText`): `[redacted]`,
 * - the user-information part of any URL (`https://user:pass@host`),
 * in every form a server echoes them: as sent, trimmed, JSON-escaped (`\/`, `\uXXXX`), URI- or
 * form-encoded, as HTML references, two such encodings deep, across line breaks, read as the
 * wrong character set (Latin-1 bytes as UTF-8 and back), base64 (alone or in HTTP Basic, at any
 * alignment), in any letter case, any prefix of 12 characters or more, and the head of a secret
 * cut off by `…` or `...`. Matching is linear in the text (sanitize/scan.ts); no secret ever
 * becomes a regular expression.
 *
 * A target may serve secret values without end; the sanitizer tracks `MAX_SERVED_SECRETS` of
 * them (and `MAX_SERVED_CHARS` in all), and past that says so (`overflow`): the caller stops
 * rather than print an answer holding one it no longer tracks.
 */
import { secretFieldNames } from '../spec/queries.ts';
import { decodedLayers, foldText, mergeRanges, SecretScanner, unitSet, type ScanPattern, type Span } from './scan.ts';

export const REDACTED = '[redacted]';

/** A secret and the name it goes by: the environment variable a curl line reads it from. */
export interface Secret {
  readonly value: string;
  /** `HSC_API_KEY`, `HSC_OTHER_API_KEY`, or `HSC_<FIELD>` for a secret field's value. */
  readonly name: string;
  /** Keys are named where they are hidden; field values are not. */
  readonly kind: 'key' | 'field';
}

/** A span of text holding a secret, and whose it is. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly secret: Secret;
}

/** Where a learned value came from: an answer of the target, or a request the suite sent. */
export type Origin = 'served' | 'sent';

/** The shortest prefix of a secret that is hidden where it is quoted cut short. */
export const PREFIX_MIN = 12;
/** The same for the base64 forms (16 characters: 12 bytes). */
const BASE64_PREFIX_MIN = 16;
/**
 * Values shorter than this are hidden where they are served (`maskFieldValues`), not everywhere: a
 * short value (`null`, `AUTH`, four spaces) would be found in the report's own words and syntax.
 * A target's values must be longer than the suite's own (its generated passwords are 16+).
 */
export const MIN_LEARNED_LENGTH = 4;
export const MIN_SERVED_LENGTH = 8;
/** Distinct secret values a target may serve, and their characters in all, before the sanitizer gives up on it. */
export const MAX_SERVED_SECRETS = 1000;
export const MAX_SERVED_CHARS = 4 * 1024 * 1024;
/** Values nested deeper than this in `value` are not copied (suite-built values never are). */
const MAX_VALUE_DEPTH = 64;
/** Nodes `learn` visits in one value; parsed answers are capped in size long before this. */
const MAX_LEARN_NODES = 1_000_000;
/** Characters of a value read after a secret field's name in text that is not JSON. */
const MAX_TEXT_VALUE = 64 * 1024;

export const keySecret = (value: string, name: string): Secret => ({ value, name, kind: 'key' });
export const fieldSecret = (value: string, field: string): Secret => ({ value, name: `HSC_${field.toUpperCase()}`, kind: 'field' });

/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 keeps a slice of a
 * string as a view of the whole: a secret (or a 4 KB excerpt) cut from a 1 MiB answer would keep
 * the 1 MiB alive.
 */
export const ownCopy = (text: string): string => (text.length === 0 ? text : Buffer.from(text, 'utf16le').toString('utf16le'));

/**
 * The base64 forms of a value: of the value, in the standard and URL alphabets, padded or not;
 * the characters fixed by the value alone when it sits at byte offset 1 or 2 of a longer base64
 * text; and, for a key, of `value:` and `:value` (HTTP Basic).
 */
export function base64Forms(value: string, basic = true): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const colon = Buffer.from(':');
  const forms = new Set<string>();
  // Shorter partial forms would be found in any text; a whole padded form is distinctive enough.
  const partial = (text: string) => {
    if (text.length >= 8) forms.add(text);
  };
  for (const whole of basic ? [bytes, Buffer.concat([bytes, colon]), Buffer.concat([colon, bytes])] : [bytes]) {
    const standard = whole.toString('base64');
    forms.add(standard);
    partial(standard.replace(/=+$/, ''));
    partial(whole.toString('base64url'));
  }
  for (const offset of [1, 2]) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes]);
    const from = Math.ceil((8 * offset) / 6);
    const to = Math.floor((8 * (offset + bytes.length)) / 6);
    partial(shifted.toString('base64').slice(from, to));
    partial(shifted.toString('base64url').slice(from, to));
  }
  return [...forms];
}

/**
 * The value as a server may hold it: trimmed (HTTP drops a header value's outer white space), and
 * read through the wrong character set: Latin-1 bytes read as UTF-8 (`é` → `�`), UTF-8 bytes read
 * as Latin-1 (`é` → `Ã©`).
 */
export function textForms(value: string): string[] {
  const forms = new Set([value, value.trim()]);
  if (/[^\u0000-\u007f]/.test(value)) {
    if (/^[\u0000-\u00ff]*$/.test(value)) forms.add(Buffer.from(value, 'latin1').toString('utf8'));
    forms.add(Buffer.from(value, 'utf8').toString('latin1'));
  }
  forms.delete('');
  return [...forms];
}

/** The value as JSON writes it inside a string, where that differs: standard, and PHP's (`\/`, `\uXXXX`). */
function jsonEscapings(value: string): string[] {
  const standard = JSON.stringify(value).slice(1, -1);
  const php = standard.replace(/\//g, '\\/').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [...new Set([standard, php])].filter((form) => form !== value);
}

/**
 * Units of each form of a secret kept to compare; past them a match is taken to run the form's
 * whole length. A 1 MB secret then costs what a short one does: its forms (base64 of its PHP
 * escaping is eight times its length) are made once and dropped, never kept whole.
 */
export const PATTERN_KEPT = 256;

const patternCache = new WeakMap<Secret, readonly ScanPattern[]>();

/** Every form of `secret` the scanner looks for, case-folded, each cut to PATTERN_KEPT units; made once per secret. */
function patternsOf(secret: Secret): readonly ScanPattern[] {
  const cached = patternCache.get(secret);
  if (cached) return cached;
  const patterns: ScanPattern[] = [];
  const add = (form: string, prefixMin: number) => {
    const minAccept = Math.min(form.length, prefixMin);
    if (form.length <= PATTERN_KEPT) return void patterns.push({ text: foldText(form), minAccept });
    patterns.push({ text: foldText(ownCopy(form.slice(0, PATTERN_KEPT))), minAccept, extent: form.length, rest: unitSet(form, PATTERN_KEPT) });
  };
  for (const form of textForms(secret.value)) add(form, PREFIX_MIN);
  // HTTP Basic carries keys; a field's value is looked for in base64 on its own.
  for (const form of base64Forms(secret.value, secret.kind === 'key')) add(form, BASE64_PREFIX_MIN);
  // Base64 of JSON that holds it (a JWT, a PHP token): escaped before it was encoded.
  for (const escaped of jsonEscapings(secret.value)) for (const form of base64Forms(escaped, false)) add(form, BASE64_PREFIX_MIN);
  patternCache.set(secret, patterns);
  return patterns;
}

export class Sanitizer {
  readonly #secrets = new Map<string, Secret>();
  readonly #fieldNames: ReadonlySet<string>;
  #scanner: SecretScanner | undefined;
  /** Secrets added since the scanner was built. */
  #stale = false;
  #owners: Secret[] = [];
  #work = 0;
  #servedCount = 0;
  #servedChars = 0;
  #overflow: string | undefined;

  constructor(secrets: Iterable<Secret> = [], fieldNames: readonly string[] = secretFieldNames) {
    this.#fieldNames = new Set(fieldNames);
    for (const secret of secrets) this.add(secret);
  }

  /** Hides `secret` from now on; an empty value is ignored. A key wins over a field of the same value. */
  add(secret: Secret): void {
    if (secret.value === '') return;
    const known = this.#secrets.get(secret.value);
    if (known && (known.kind === 'key' || secret.kind === 'field')) return;
    this.#secrets.set(secret.value, secret);
    this.#stale = true;
  }

  get secrets(): readonly Secret[] {
    return [...this.#secrets.values()];
  }

  /**
   * Why the sanitizer stopped tracking what the target serves (more distinct secret values than
   * it keeps), or undefined. Output from then on may hold a value it does not know: stop.
   */
  get overflow(): string | undefined {
    return this.#overflow;
  }

  /** A sanitizer that also hides `extra` (e.g. the credentials one request carried). */
  with(extra: Iterable<Secret>): Sanitizer {
    const copy = new Sanitizer(this.#secrets.values(), [...this.#fieldNames]);
    for (const secret of extra) copy.add(secret);
    return copy;
  }

  /**
   * Remembers the values of secret fields anywhere in a parsed JSON value (iteratively: any
   * depth): strings, numbers and booleans, and every such leaf of an array or object there.
   */
  learn(json: unknown, origin: Origin): void {
    const stack: { value: unknown; field: string | undefined }[] = [{ value: json, field: undefined }];
    let visited = 0;
    while (stack.length && visited++ < MAX_LEARN_NODES) {
      const { value, field } = stack.pop()!;
      if (value === null || value === undefined || typeof value === 'boolean') continue;
      if (typeof value !== 'object') {
        // A number the suite sent is a probe of the field's type, not a secret (curl lines show it).
        if (field !== undefined && (typeof value === 'string' || origin === 'served')) this.#learnValue(field, String(value), origin);
        continue;
      }
      if (Array.isArray(value)) {
        for (const item of value) stack.push({ value: item, field });
        continue;
      }
      for (const [key, v] of Object.entries(value)) stack.push({ value: v, field: field ?? (this.#fieldNames.has(key) ? key : undefined) });
    }
  }

  /**
   * Remembers secret field values in text that is not parsed JSON (cut at a size cap, too deep,
   * malformed, HTML, XML, YAML, single-quoted): whatever follows the field's name, as
   * `fieldValuesIn` reads it; also one level down, in JSON-escaped JSON.
   */
  learnText(text: string, origin: Origin): void {
    const learnIn = (source: string) => {
      for (const { field, value, quoted } of fieldValuesIn(source, this.#fieldNames)) {
        if (quoted || origin === 'served') this.#learnValue(field, source.slice(value.start, value.end), origin);
      }
    };
    learnIn(text);
    if (text.includes('\\"')) learnIn(text.replace(/\\(["\\])/g, '$1'));
  }

  /** `text` with the value after each secret field's name replaced, whatever its length: for an answer's own text. */
  maskFieldValues(text: string): string {
    const spans = fieldValuesIn(text, this.#fieldNames).map(({ value }) => value);
    return spans.length ? replaceSpans(text, mergeRanges(spans), () => REDACTED) : text;
  }

  #learnValue(field: string, raw: string, origin: Origin): void {
    const value = jsonStringContent(raw);
    if (value.length < (origin === 'served' ? MIN_SERVED_LENGTH : MIN_LEARNED_LENGTH) || this.#secrets.has(value)) return;
    if (origin === 'served') {
      if (this.#overflow) return;
      if (this.#servedCount + 1 > MAX_SERVED_SECRETS || this.#servedChars + value.length > MAX_SERVED_CHARS) {
        this.#overflow = `the target served more secret values (${[...this.#fieldNames].join(', ')}) than the suite tracks (${MAX_SERVED_SECRETS} distinct, ${MAX_SERVED_CHARS / 1024 / 1024} MiB in all)`;
        return;
      }
      this.#servedCount++;
      this.#servedChars += value.length;
    }
    this.add(fieldSecret(value, field));
  }

  #scan(allowStale: boolean): SecretScanner {
    if (this.#scanner && (!this.#stale || allowStale)) return this.#scanner;
    const patterns: ScanPattern[] = [];
    const owners: Secret[] = [];
    const index = new Map<string, number>();
    const push = (pattern: ScanPattern, owner: Secret) => {
      const at = index.get(pattern.text);
      if (at !== undefined) {
        // The same text from two secrets: a key's name wins; the shorter prefix rule and the longer extent win.
        if (owner.kind === 'key') owners[at] = owner;
        const known = patterns[at]!;
        const extent = Math.max(known.extent ?? known.text.length, pattern.extent ?? pattern.text.length);
        // The assumed rests of two cut forms with the same head: either may follow it.
        const rests = [known.rest, pattern.rest].filter((r): r is Uint8Array => r !== undefined);
        const rest = rests.length === 2 ? rests[0]!.map((bits, i) => bits | rests[1]![i]!) : rests[0];
        patterns[at] = { text: pattern.text, minAccept: Math.min(known.minAccept, pattern.minAccept), ...(extent > pattern.text.length ? { extent, ...(rest ? { rest } : {}) } : {}) };
        return;
      }
      index.set(pattern.text, patterns.length);
      patterns.push(pattern);
      owners.push(owner);
    };
    for (const secret of this.#secrets.values()) for (const pattern of patternsOf(secret)) push(pattern, secret);
    this.#work += this.#scanner?.stats.steps ?? 0;
    this.#owners = owners;
    this.#scanner = new SecretScanner(patterns);
    this.#stale = false;
    return this.#scanner;
  }

  /** Units of secret forms the matcher as last built compares (for tests: bounded per secret). */
  get keptUnits(): number {
    return this.#scanner?.keptUnits ?? 0;
  }

  /** Steps the matcher has taken so far: linear in the text sanitized (for tests). */
  get work(): number {
    return this.#work + (this.#scanner?.stats.steps ?? 0);
  }

  /** Where secrets sit in `text`, merged, each with the secret of one pattern found there. */
  spans(text: string): SecretSpan[] {
    return this.#spans(text, false);
  }

  #spans(text: string, allowStale: boolean): SecretSpan[] {
    const scanner = this.#scan(allowStale);
    return scanner.spans(text).map((s: Span) => ({ start: s.start, end: s.end, secret: this.#owners[s.pattern]! }));
  }

  /**
   * `text` with every secret and URL credential replaced; the result is checked again, so no
   * replacement can complete one. `allowStale` uses the matcher as last built even if secrets
   * were learned since (for text that is sanitized again before it leaves the process: a
   * failure's excerpt kept during a run), so a run of many learned values does not rebuild it
   * for every answer.
   */
  text(text: string, options: { readonly allowStale?: boolean } = {}): string {
    if (text === '') return text;
    const credentials = userinfoSpans(text);
    if (this.#secrets.size === 0 && credentials.length === 0) return text;
    const allowStale = options.allowStale === true;
    const found = this.#secrets.size ? this.#spans(text, allowStale) : [];
    if (found.length === 0 && credentials.length === 0) return text;
    const spans = mergeRanges([...found, ...credentials.map((c) => ({ ...c, secret: URL_CREDENTIAL }))]) as SecretSpan[];
    const scanner = this.#scan(allowStale);
    const clean = (out: string) => scanner.spans(out).length === 0;
    let out = replaceSpans(text, spans, (s) => (s.secret.kind === 'key' ? `[redacted ${s.secret.name}]` : REDACTED));
    if (clean(out)) return out;
    // A secret made of the marker's characters: plainer markers, then none at all.
    for (const marker of ['[hidden]', '***', '']) {
      out = replaceSpans(text, spans, () => marker);
      if (clean(out)) return out;
    }
    for (let round = 0; round < 8; round++) {
      const left = this.#spans(out, allowStale);
      if (left.length === 0) return out;
      out = replaceSpans(out, left, () => '');
    }
    return '';
  }

  /**
   * A deep copy with every string sanitized, every secret field's scalar value replaced, and any
   * number or boolean that holds a secret turned into the marker (a string: the JSON stays valid).
   */
  value<T>(input: T): T {
    return this.#copy(input, 0) as T;
  }

  #copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
      const shown = String(value);
      return this.text(shown) === shown ? value : REDACTED;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_VALUE_DEPTH) return '[not shown: nested too deep]';
    if (Array.isArray(value)) return value.map((v) => this.#copy(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[this.text(key)] = this.#fieldNames.has(key) && (v === null || typeof v !== 'object') ? REDACTED : this.#copy(v, depth + 1);
    }
    return out;
  }

  /** A message of an error, sanitized, on one line that cannot drive a terminal (`oneLine`). */
  message(error: unknown): string {
    return this.oneLine(error instanceof Error ? error.message : String(error));
  }

  /**
   * Text for one line of a terminal: sanitized, line breaks folded into spaces, and every other
   * control character (escape sequences, NUL, bell, C1, bidirectional overrides) written as
   * `\uXXXX`, so text a target chose cannot redraw, recolour or hide what the user reads.
   */
  oneLine(text: string): string {
    return this.text(text)
      .replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ')
      .replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }

  /**
   * A stream whose every write is sanitized first (text only; a chunk is sanitized whole);
   * `allowStale` as for `text`, for writes that hold no target text (progress counts).
   */
  writer<S extends NodeJS.WritableStream & { isTTY?: boolean }>(stream: S, options: { readonly allowStale?: boolean } = {}): SanitizedStream {
    const sanitizer = this;
    return {
      get isTTY() {
        return stream.isTTY;
      },
      write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        const clean = sanitizer.text(text, options);
        return callback ? stream.write(clean, callback) : stream.write(clean);
      },
    };
  }
}

/** Characters that move, colour, hide or reorder what a terminal shows. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** What the CLI writes to: a stream that sanitizes every write. */
export interface SanitizedStream {
  readonly isTTY?: boolean | undefined;
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
}

/** The owner of a URL's user information in spans: not a secret the sanitizer was told. */
const URL_CREDENTIAL: Secret = { value: '', name: 'URL credentials', kind: 'field' };

interface Range {
  readonly start: number;
  readonly end: number;
}


function replaceSpans(text: string, spans: readonly Range[], marker: (span: SecretSpan) => string): string {
  let out = '';
  let from = 0;
  for (const span of spans) {
    out += text.slice(from, span.start) + marker(span as SecretSpan);
    from = span.end;
  }
  return out + text.slice(from);
}

/**
 * What a text holding a URL's user information must contain, however encoded: a `/` (`2f`, `&#47`,
 * `\/`) and an `@` (`40` in every hex escape, `&#64`); a quick test before any decoding.
 */
const SLASHES = ['/', '2f', '&#47'];
const AT_SIGNS = ['@', '40', '&#64'];

/**
 * The user information of every URL in `text` (`//user:pass@host`), read through the same
 * decodings as secrets (a URL HTML-escaped, JSON-escaped, URI-encoded twice): the part before
 * `@` in the authority, mapped back to the original text.
 */
function userinfoSpans(text: string): Range[] {
  const lower = text.toLowerCase();
  if (!AT_SIGNS.some((at) => lower.includes(at)) || !SLASHES.some((slash) => lower.includes(slash))) return [];
  const spans: Range[] = [];
  for (const layer of decodedLayers(text)) {
    for (const span of rawUserinfoSpans(layer.text)) {
      spans.push(layer.start && layer.end ? { start: layer.start[span.start]!, end: layer.end[span.end - 1]! } : span);
    }
  }
  return spans;
}

/** The user information of every URL in `text` as it is: after `//`, the authority's part before its last `@`. */
function rawUserinfoSpans(text: string): Range[] {
  const spans: Range[] = [];
  for (let i = text.indexOf('//'); i >= 0; i = text.indexOf('//', i + 2)) {
    const start = i + 2;
    let j = start;
    let userEnd = -1;
    for (; j < text.length && !AUTHORITY_ENDS.has(text[j]!); j++) if (text[j] === '@') userEnd = j;
    if (userEnd > start) spans.push({ start, end: userEnd });
    i = Math.max(i, j - 2); // each character is read once
  }
  return spans;
}

/** Where an authority ends: its path, query or fragment, or the quoting and spacing around a URL. */
const AUTHORITY_ENDS = new Set(['/', '?', '#', '"', "'", '<', '>', '\\', '`', ' ', '\t', '\r', '\n']);

/**
 * Where the value after each secret field's name sits in text of any shape: JSON (`"f": "v"`,
 * `"f": 12`, `"f": ["v"]`), single-quoted, YAML (`f: v`), form (`f=v`), XML (`<f>v</f>`), an
 * HTML table (`<td>f</td><td>v</td>`). A value cut short runs to the text's end. Linear: each
 * occurrence of a name is read once, its value at most `MAX_TEXT_VALUE` characters.
 */
function fieldValuesIn(text: string, fields: ReadonlySet<string>): { field: string; value: Range; quoted: boolean }[] {
  const found: { field: string; value: Range; quoted: boolean }[] = [];
  for (const field of fields) {
    for (let at = text.indexOf(field); at >= 0; at = text.indexOf(field, at + field.length)) {
      const after = valueAfter(text, at + field.length);
      if (after && after.value.end > after.value.start && !NOT_SECRETS.has(text.slice(after.value.start, after.value.end))) found.push({ field, ...after });
    }
  }
  return found;
}

/** Bare JSON literals after a field's name: its type, never its secret. */
const NOT_SECRETS = new Set(['null', 'true', 'false']);

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** The value that follows a field's name at `i`, if what follows looks like a value of it; `quoted` for a string. */
function valueAfter(text: string, i: number): { value: Range; quoted: boolean } | undefined {
  const n = text.length;
  const skipSpace = () => {
    while (i < n && isSpace(text[i])) i++;
  };
  // The name's closing quote, then separators: `:`, `=`, a tag's end, up to two whole tags between.
  if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === "'")) i += 2;
  else if (text[i] === '"' || text[i] === "'") i++;
  let separated = false;
  for (let tags = 0; tags < 3; ) {
    skipSpace();
    const c = text[i];
    if (c === ':' || c === '=') {
      i++;
      separated = true;
      break;
    }
    if (c === '>') {
      i++;
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
    return { value: { start: from, end: Math.min(i, n) }, quoted: true };
  }
  if (c === '[' || c === '{') {
    // A JSON value: from its first string or token on to its closing bracket, all hidden.
    let depth = 0;
    while (i < limit) {
      const d = text[i];
      if (d === '[' || d === '{') depth++;
      else if (d === ']' || d === '}') {
        depth--;
        if (depth === 0) return { value: { start: start + 1, end: i }, quoted: false };
      } else if (d === '"') {
        i++;
        while (i < limit && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      }
      i++;
    }
    return { value: { start: start + 1, end: Math.min(i, n) }, quoted: false };
  }
  // A bare token: up to the end of the line, a tag, or JSON punctuation.
  while (i < limit && !'\r\n<,;}]&'.includes(text[i]!)) i++;
  let end = i;
  while (end > start && isSpace(text[end - 1])) end--;
  return { value: { start, end }, quoted: false };
}

/** The characters of a JSON string's content, escapes decoded, in its own memory; a cut-off escape at the end is dropped. */
function jsonStringContent(content: string): string {
  if (!content.includes('\\')) return ownCopy(content);
  const whole = content.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    return ownCopy(whole);
  }
}
