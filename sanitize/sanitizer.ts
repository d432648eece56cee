/**
 * The one sanitizer every byte that leaves the process passes: reports, curl lines, messages,
 * progress, the mock's request log, every error the CLI prints. It is the second line of defence:
 * the first is structure (sanitize/structure.ts), which replaces a secret field's value where the
 * data is parsed. This one hides, in any text,
 * - the API keys given (`[redacted HSC_API_KEY]`),
 * - every value of a field the model marks secret (`sftp_password`, `admin_password`) seen in a
 *   request or an answer, parsed or not, whatever its JSON type (`learn`, `learnText`, `learnValues`): `[redacted]`,
 * - the user-information part of any URL (`https://user:pass@host`),
 * in every form a server echoes them: as sent, trimmed, JSON-escaped (`\/`, `\uXXXX`), URI- or
 * form-encoded, as HTML references (zero-padded, with or without `;`), up to three encodings
 * deep, broken by line breaks, indentation or white space, read as the wrong character set
 * (Latin-1 bytes as UTF-8 and back), hex, base64 (alone or in HTTP Basic, at any alignment), in
 * any letter case (full case folding: `ß` as `SS`), any prefix of 12 characters or more, and the
 * head of a secret cut off by `…` or `...`. Matching is linear in the text (sanitize/scan.ts); no
 * secret ever becomes a regular expression.
 *
 * Only values: the report's keys and the suite's own words are never rewritten. A secret shorter
 * than `MIN_SEARCHED_LENGTH`, or one the suite's own text holds (vocabulary.ts), is not searched
 * for in free text at all (it would rewrite the report's words): it is hidden where it stands as
 * a value (structure, `request`, `headers`, `value`'s secret fields), and `unsearchedNote` says so.
 *
 * A target may serve secret values without end; the sanitizer tracks `MAX_SERVED_SECRETS` of
 * them (and `MAX_SERVED_CHARS` in all), and past that says so (`overflow`): the caller stops
 * rather than print an answer holding one it no longer tracks.
 */
import { decodedLayers, foldedExtent, foldText, mergeRanges, SecretScanner, unitSet, type ScanPattern, type Span } from './scan.ts';
import { MAX_TEXT_VALUE, REDACTED, SecretFields, secretFields, type Learned } from './structure.ts';
import { inSuiteVocabulary } from './vocabulary.ts';

export { REDACTED };

/** A secret and the name it goes by: the environment variable a curl line reads it from. */
export interface Secret {
  readonly value: string;
  /** `HSC_API_KEY`, `HSC_OTHER_API_KEY`, or `HSC_<FIELD>` for a secret field's value. */
  readonly name: string;
  /** Keys are named where they are hidden; field values are not. */
  readonly kind: 'key' | 'field';
  /**
   * The shell expression a curl line rebuilds it with, where it is not an environment variable
   * of its own (a key the suite derived from the user's: `"${HSC_API_KEY%?}"`); default `"$NAME"`.
   */
  readonly shell?: string;
  /**
   * Only its head is known: the body it was read from ended inside it (cut at a size cap, or
   * broken off). Where the head is found, the span runs on over what may be the rest of a value
   * (up to a quote, white space or markup), so the part never read is hidden with it.
   */
  readonly open?: true;
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
 * Secrets shorter than this are hidden where they stand as values (a secret field's value, the
 * key where the suite put it), never searched for in free text: a short value (`null`, `a`,
 * four spaces) would be found in the report's own words and syntax. The same for a secret the
 * suite's own text holds (vocabulary.ts). The run's notes name both (`unsearchedNote`).
 */
export const MIN_SEARCHED_LENGTH = 8;
/** Distinct secret values a target may serve, and their characters in all, before the sanitizer gives up on it. */
export const MAX_SERVED_SECRETS = 1000;
export const MAX_SERVED_CHARS = 4 * 1024 * 1024;
/** Values nested deeper than this in `value` are not copied (suite-built values never are). */
const MAX_VALUE_DEPTH = 64;
/** Nodes `learn` visits in one value; parsed answers are capped in size long before this. */
const MAX_LEARN_NODES = 1_000_000;

export const keySecret = (value: string, name: string): Secret => ({ value, name, kind: 'key' });
export const fieldSecret = (value: string, field: string, open = false): Secret => ({ value, name: `HSC_${field.toUpperCase()}`, kind: 'field', ...(open ? { open: true as const } : {}) });

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
 * The value as a server may hold it: trimmed (HTTP drops a header value's outer white space),
 * without any white space (what the scanner's view that takes it out reads; from 8 characters,
 * shorter would be found in ordinary words), and read through the wrong character set: Latin-1
 * bytes read as UTF-8 (`é` → `�`), UTF-8 bytes read as Latin-1 (`é` → `Ã©`).
 */
export function textForms(value: string): string[] {
  const forms = new Set([value, value.trim()]);
  const compact = value.replace(/\s/g, ''); // `\s`, as the scanner reads white space
  if (compact.length >= 8) forms.add(compact);
  // Characters that show as nothing (zero-width spaces and joiners, soft hyphens, a BOM): a server that drops them echoes the rest.
  const visible = value.replace(INVISIBLE, '');
  if (visible !== value && visible.length >= 8) forms.add(visible);
  if (/[^\u0000-\u007f]/.test(value)) {
    if (/^[\u0000-\u00ff]*$/.test(value)) forms.add(Buffer.from(value, 'latin1').toString('utf8'));
    forms.add(Buffer.from(value, 'utf8').toString('latin1'));
  }
  forms.delete('');
  return [...forms];
}

/** Format characters a text shows as nothing: a secret holding them is echoed without them as often as with. */
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;

/** The value as JSON writes it inside a string, where that differs: standard, and PHP's (`\/`, `\uXXXX`). */
function jsonEscapings(value: string): string[] {
  const standard = JSON.stringify(value).slice(1, -1);
  return [...new Set([standard, phpEscaped(standard)])].filter((form) => form !== value);
}

/**
 * JSON string content as PHP's `json_encode` writes it: `/` as `\/`, every unit past ASCII as
 * `\uXXXX`. Written into one Latin-1 buffer sized first: a 400 000-unit secret is common enough
 * here, and joining millions of pieces costs ten times as much.
 */
function phpEscaped(standard: string): string {
  let size = standard.length;
  for (let i = 0; i < standard.length; i++) {
    const c = standard.charCodeAt(i);
    if (c === 0x2f) size += 1;
    else if (c >= 0x7f) size += 5;
  }
  if (size === standard.length) return standard;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < standard.length; i++) {
    const c = standard.charCodeAt(i);
    if (c === 0x2f) {
      out[at++] = 0x5c; // \
      out[at++] = 0x2f;
    } else if (c >= 0x7f) {
      out[at++] = 0x5c;
      out[at++] = 0x75; // u
      for (let shift = 12; shift >= 0; shift -= 4) out[at++] = HEX_DIGITS.charCodeAt((c >> shift) & 0xf);
    } else out[at++] = c;
  }
  return out.toString('latin1');
}

const HEX_DIGITS = '0123456789abcdef';


/**
 * Units of each form of a secret kept to compare; past them a match is taken to run the form's
 * whole length. A 1 MB secret then costs what a short one does: its forms (base64 of its PHP
 * escaping is eight times its length) are made once and dropped, never kept whole.
 */
export const PATTERN_KEPT = 256;

const patternCache = new WeakMap<Secret, readonly ScanPattern[]>();

/** Whether a value whose span ends at `end` is cut by the text's end: at it, or with only an escape begun after it (`&#x4`, `\u00`, `%2`). */
const endsInside = (text: string, end: number): boolean => end >= text.length || (text.length - end <= 10 && PARTIAL_ESCAPE.test(text.slice(end)));
const PARTIAL_ESCAPE = /^(?:&#?x?[0-9a-z]*|\\(?:u[0-9a-f]{0,3}|x[0-9a-f]?)?|%[0-9a-f]?)$/i;

/** Units past an open head's end its span may run over: what may be the rest of the value it was cut from. */
export const OPEN_REST = 4 * 1024 * 1024;

/**
 * What a value's rest may be made of: anything but quotes, white space, control characters,
 * markup's `<>`, and general punctuation (whose `…` marks a quote cut short). A back-slash runs
 * on: an echo in JSON escapes `/` as `\/`.
 */
const inValue = (c: number): boolean => c > 0x20 && c !== 0x22 && c !== 0x27 && c !== 0x3c && c !== 0x3e && c !== 0x60 && !(c >= 0x7f && c <= 0xa0) && !(c >= 0x2000 && c <= 0x206f) && c !== 0x3000 && c !== 0xfeff;

/** `span` run on over what may be the rest of an open head's value in `text` (hiding too much is the safe side). */
function runOn(text: string, span: SecretSpan): SecretSpan {
  if (!span.secret.open) return span;
  let end = span.end;
  const limit = Math.min(text.length, end + OPEN_REST);
  while (end < limit && inValue(text.charCodeAt(end))) end++;
  return end === span.end ? span : { ...span, end };
}

/** Every unit a base64 form may hold, either alphabet: what the rest of a long one is made of, known without reading it. */
const BASE64_UNITS = unitSet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_');

/** Every form of `secret` the scanner looks for, case-folded, each cut to PATTERN_KEPT units; made once per secret. */
function patternsOf(secret: Secret): readonly ScanPattern[] {
  const cached = patternCache.get(secret);
  if (cached) return cached;
  const patterns: ScanPattern[] = [];
  // Lengths count folded units (`ß` folds to two), as the scanner compares; an ASCII form (base64,
  // hex: most of them, and the longest) folds to its own length, so only its kept head is folded.
  // A long form is folded no further than its kept head: folding never shortens, so the head's
  // units all come from the form's first PATTERN_KEPT; its length and the rest's units are counted.
  const add = (form: string, prefixMin: number, alphabet?: Uint8Array) => {
    const ascii = alphabet !== undefined || /^[\u0000-\u007f]*$/.test(form);
    const { length, past } = ascii ? { length: form.length, past: PATTERN_KEPT } : foldedExtent(form, PATTERN_KEPT);
    const minAccept = form.length <= prefixMin ? length : foldText(form.slice(0, prefixMin)).length;
    if (length <= PATTERN_KEPT) return void patterns.push({ text: foldText(form), minAccept });
    // The rest's units: from the unit whose fold crosses the head's end (its whole fold, a few units more at most).
    patterns.push({ text: ownCopy(foldText(form.slice(0, PATTERN_KEPT)).slice(0, PATTERN_KEPT)), minAccept, extent: length, rest: alphabet ?? unitSet(form, past) });
  };
  for (const form of textForms(secret.value)) add(form, PREFIX_MIN);
  // Hex of its UTF-8 bytes (a debug dump), bare or with `:` or `-` between bytes, from 24 digits;
  // spaced, the scanner's view without white space reads it bare. Patterns, not a view decoding
  // hex: hex digits fill ordinary text, and a view would guess where bytes start and add a pass
  // over every text; the automaton finds these at any offset in the pass it makes anyway. Only
  // the kept head is written out: a form's length and its units follow from the bytes.
  const bytes = Buffer.from(secret.value, 'utf8');
  for (const separator of ['', ':', '-']) {
    const width = 2 + separator.length;
    const head = Array.from(bytes.subarray(0, Math.ceil(PATTERN_KEPT / width) + 1), (byte) => byte.toString(16).padStart(2, '0')).join(separator);
    const length = width * bytes.length - separator.length;
    const minAccept = Math.min(length, 12 * width - separator.length);
    if (length <= PATTERN_KEPT) patterns.push({ text: head, minAccept });
    else patterns.push({ text: head.slice(0, PATTERN_KEPT), minAccept, extent: length, rest: unitSet(`0123456789abcdef${separator}`) });
  }
  // HTTP Basic carries keys; a field's value is looked for in base64 on its own.
  for (const form of base64Forms(secret.value, secret.kind === 'key')) add(form, BASE64_PREFIX_MIN, BASE64_UNITS);
  // Base64 of JSON that holds it (a JWT, a PHP token): escaped before it was encoded.
  for (const escaped of jsonEscapings(secret.value)) for (const form of base64Forms(escaped, false)) add(form, BASE64_PREFIX_MIN, BASE64_UNITS);
  patternCache.set(secret, patterns);
  return patterns;
}

/** Why a secret is hidden only where it stands as a value, never searched for in free text. */
export type Unsearched = 'short' | 'vocabulary';

/** Texts longer than this found clean are remembered (the last one): a rendered report, never a value. */
const CLEAN_NOTED_CHARS = 4096;

export class Sanitizer {
  readonly #secrets = new Map<string, Secret>();
  /** Secrets hidden only by structure, with why. */
  readonly #unsearched = new Map<Secret, Unsearched>();
  /** Searchable secrets whose 12-character prefix the suite's own text holds: found whole only. */
  readonly #wholeOnly = new Set<Secret>();
  readonly fields: SecretFields;
  #scanner: SecretScanner | undefined;
  /** Secrets added since the scanner was built. */
  #stale = false;
  #owners: Secret[] = [];
  #work = 0;
  #servedCount = 0;
  #servedChars = 0;
  #overflow: string | undefined;
  #generation = 0;

  constructor(secrets: Iterable<Secret> = [], fields: SecretFields = secretFields) {
    this.fields = fields;
    for (const secret of secrets) this.add(secret);
  }

  /** Hides `secret` from now on; an empty value is ignored. A key wins over a field of the same value. */
  add(secret: Secret): void {
    if (secret.value === '') return;
    const known = this.#secrets.get(secret.value);
    if (known && (known.kind === 'key' || secret.kind === 'field')) return;
    if (known) this.#unsearched.delete(known);
    this.#secrets.set(secret.value, secret);
    const why = unsearchable(secret.value);
    if (why) this.#unsearched.set(secret, why);
    else if (secret.value.length > PREFIX_MIN && inSuiteVocabulary(secret.value.slice(0, PREFIX_MIN))) this.#wholeOnly.add(secret);
    this.#stale = true;
    this.#generation++;
  }

  /** Changes whenever a secret is added: what was sanitized before may read differently now (for memos). */
  get generation(): number {
    return this.#generation;
  }

  get secrets(): readonly Secret[] {
    return [...this.#secrets.values()];
  }

  /** The secrets hidden only where they stand as values, and why. */
  get unsearched(): readonly { readonly secret: Secret; readonly why: Unsearched }[] {
    return [...this.#unsearched].map(([secret, why]) => ({ secret, why }));
  }

  /**
   * Why the sanitizer stopped tracking what the target serves (more distinct secret values than
   * it keeps, or a body it could not read: `blind`), or undefined. Output from then on may hold a
   * value it does not know: stop.
   */
  get overflow(): string | undefined {
    return this.#overflow;
  }

  /**
   * Says the sanitizer can no longer vouch for what it is given (a body held that could not be
   * read for secrets): `overflow` from now on, with `why`, and the caller stops printing the target's text.
   */
  blind(why: string): void {
    this.#overflow ??= why;
  }

  /** A sanitizer that also hides `extra` (e.g. the credentials one request carried). */
  with(extra: Iterable<Secret>): Sanitizer {
    const copy = new Sanitizer(this.#secrets.values(), this.fields);
    for (const secret of extra) copy.add(secret);
    return copy;
  }

  /**
   * Remembers the values of secret fields anywhere in a parsed JSON value (iteratively: any
   * depth; a field in any spelling, `sftpPassword` too): strings, numbers and booleans, and
   * every such leaf of an array or object there.
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
      for (const [key, v] of Object.entries(value)) stack.push({ value: v, field: field ?? this.fields.fieldOf(key) });
    }
  }

  /**
   * Remembers secret field values in text that is not parsed JSON (cut at a size cap, too deep,
   * malformed, HTML, XML, YAML, form-encoded, single-quoted, escaped): whatever follows the
   * field's name, as it is and through every encoding around it (`SecretFields.valuesIn`).
   */
  learnText(text: string, origin: Origin, options: { readonly cut?: boolean; readonly streaming?: boolean } = {}): void {
    for (const { field, value, quoted, span } of this.fields.valuesIn(text)) {
      if (!quoted && origin !== 'served') continue;
      // Only its head is known: the text ended inside it (or inside an escape right after it), or it ran past what a value is read to.
      const open = (options.cut === true && endsInside(text, span.end)) || span.end - span.start >= MAX_TEXT_VALUE;
      const head = open ? value.replace(/\ufffd+$/, '') : value;
      // A head too short to search for cannot hide its echo: where the body has ended there, nothing vouches for what
      // follows. (Still streaming, it is read again once more has come.)
      if (open && origin === 'served' && unsearchable(head) !== undefined) {
        if (!options.streaming) this.blind(`a body ended ${head.length} characters into a value of ${field}, too few to search for its echoes`);
        continue;
      }
      this.#learnValue(field, head, origin, open);
    }
  }

  /** Remembers values an answer holds under secret fields, found by `SecretFields.screen`. */
  learnValues(values: Iterable<Learned>, origin: Origin): void {
    for (const { field, value } of values) this.#learnValue(field, value, origin);
  }

  /** `text` with the value after each secret field's name replaced, whatever its length and encoding: for an answer's own text. */
  maskFieldValues(text: string): string {
    return this.fields.maskIn(text);
  }

  #learnValue(field: string, value: string, origin: Origin, open = false): void {
    if (value === '' || value === REDACTED || this.#secrets.has(value)) return;
    // The suite's own short values (type probes, boundary cases) are no secrets to search for; a
    // target's are kept, hidden where they stand and named in the notes (`unsearchedNote`).
    if (origin === 'sent' && value.trim().length < MIN_SEARCHED_LENGTH) return;
    if (origin === 'served') {
      if (this.#overflow) return;
      if (this.#servedCount + 1 > MAX_SERVED_SECRETS || this.#servedChars + value.length > MAX_SERVED_CHARS) {
        this.#overflow = `the target served more secret values (${this.fields.names.join(', ')}) than the suite tracks (${MAX_SERVED_SECRETS} distinct, ${MAX_SERVED_CHARS / 1024 / 1024} MiB in all)`;
        return;
      }
      this.#servedCount++;
      this.#servedChars += value.length;
    }
    this.add(fieldSecret(ownCopy(value), field, open));
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
    for (const secret of this.#secrets.values()) {
      if (this.#unsearched.has(secret)) continue;
      const whole = this.#wholeOnly.has(secret);
      for (const pattern of patternsOf(secret)) push(whole ? { ...pattern, minAccept: pattern.text.length } : pattern, secret);
    }
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
    const found = this.#spans(text, false);
    if (found.length === 0 && text.length > CLEAN_NOTED_CHARS && userinfoSpans(text).length === 0) this.#noted(text);
    return found;
  }

  /**
   * The last text found to hold nothing, with the matcher that found so: a report is checked
   * whole once it is rendered and again as it is written (a second scan of the same string).
   */
  #clean: { readonly text: string; readonly scanner: SecretScanner } | undefined;

  #noted(text: string): void {
    if (this.#scanner && !this.#stale && text.length > CLEAN_NOTED_CHARS) this.#clean = { text, scanner: this.#scanner };
  }

  #spans(text: string, allowStale: boolean): SecretSpan[] {
    const scanner = this.#scan(allowStale);
    // Where secrets match the same text (a key, and one the suite derived from it by case), the
    // one it is exactly is named: the scanner keeps one of them, not always that one.
    const spans = scanner.spans(text).map((s: Span): SecretSpan => ({ start: s.start, end: s.end, secret: this.#secrets.get(text.slice(s.start, s.end)) ?? this.#owners[s.pattern]! }));
    if (!spans.some((s) => s.secret.open)) return spans;
    // Each open head's span runs on over its value's rest; one inside a run already made is merged, not run again (linear).
    let reach = -1;
    const run = [...spans].sort((a, b) => a.start - b.start).map((s) => {
      if (!s.secret.open) return s;
      if (s.start < reach) return s.end >= reach ? s : { ...s, end: reach };
      const longer = runOn(text, s);
      reach = longer.end;
      return longer;
    });
    return mergeRanges(run) as SecretSpan[];
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
    // The same string, found clean by the matcher as it still is (no secret learned since): nothing to redo.
    if (this.#clean?.text === text && this.#clean.scanner === this.#scanner && !this.#stale) return text;
    const credentials = userinfoSpans(text);
    const searched = this.#secrets.size > this.#unsearched.size;
    if (!searched && credentials.length === 0) return text;
    const allowStale = options.allowStale === true;
    const found = searched ? this.#spans(text, allowStale) : [];
    if (found.length === 0 && credentials.length === 0) {
      if (!allowStale) this.#noted(text);
      return text;
    }
    const spans = mergeRanges([...found, ...credentials.map((c) => ({ ...c, secret: URL_CREDENTIAL }))]) as SecretSpan[];
    const scanner = this.#scan(allowStale);
    const clean = (out: string) => scanner.spans(out).length === 0;
    let out = replaceSpans(text, spans, (s) => markerOf(s.secret));
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
   * A deep copy with every string value sanitized, every secret field's scalar value replaced, and
   * any number or boolean that holds a secret turned into the marker (a string: the JSON stays
   * valid). Keys are the report's own words: never rewritten (a target's header names are
   * sanitized where they are kept, `headers`).
   */
  value<T>(input: T): T {
    // A report repeats its words (rule ids, endpoints, reasons): each distinct text is scanned once.
    return this.#copy(input, 0, new Map()) as T;
  }

  #copy(value: unknown, depth: number, seen: Map<string, string>): unknown {
    if (typeof value === 'string') return this.#once(value, seen);
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
      const shown = String(value);
      return this.#once(shown, seen) === shown ? value : REDACTED;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_VALUE_DEPTH) return '[not shown: nested too deep]';
    if (Array.isArray(value)) return value.map((v) => this.#copy(v, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // defineProperty: a key `__proto__` is data here, not the prototype.
      Object.defineProperty(out, key, { value: this.fields.fieldOf(key) && (v === null || typeof v !== 'object') ? REDACTED : this.#copy(v, depth + 1, seen), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  #once(text: string, seen: Map<string, string>): string {
    let clean = seen.get(text);
    if (clean === undefined) seen.set(text, (clean = this.text(text)));
    return clean;
  }

  /**
   * A target's headers as a report keeps them: a header named like a secret field has its value
   * replaced, and names and values are sanitized (a name is the target's text, not the report's).
   * `allowStale` as for `text`, for headers kept during a run (the rendered report is scanned whole).
   */
  headers(headers: Readonly<Record<string, string>>, options: { readonly allowStale?: boolean } = {}): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      Object.defineProperty(out, ownCopy(this.text(name, options)), { value: this.fields.fieldOf(name) ? REDACTED : ownCopy(this.text(value, options)), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /**
   * A request the suite sent, as a report shows it: every secret replaced where it stands, by
   * structure, whatever its length: the key where the suite put it (a header's credentials, a
   * query parameter, as sent or in base64), a secret field's value in the body. Text search
   * (`value`) then does the rest.
   */
  request<R extends { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body?: string }>(request: R): R {
    const marked = (text: string) => replaceSpans(text, this.structuralSpans(text), (s) => markerOf(s.secret));
    return {
      ...request,
      url: marked(request.url),
      headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, marked(value)])),
      ...(request.body !== undefined ? { body: marked(this.fields.maskIn(request.body)) } : {}),
    };
  }

  /**
   * Where a key stands as a whole token in text the suite built (a request): as sent, URI- or
   * form-encoded, or in base64 as HTTP Basic carries it, bounded by the text's ends, white space,
   * quotes or URL and header punctuation. Every key, searchable or not: a one-character key is
   * found here as `Bearer a`, never inside a word. (A secret field's value stands under its
   * name, where `SecretFields.maskIn` finds it.)
   */
  structuralSpans(text: string): SecretSpan[] {
    const spans: SecretSpan[] = [];
    for (const secret of this.#secrets.values()) {
      if (secret.kind !== 'key') continue;
      for (const form of tokenForms(secret)) {
        for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
          const end = at + form.length;
          if (isTokenEdge(text[at - 1]) && isTokenEdge(text[end])) spans.push({ start: at, end, secret });
        }
      }
    }
    return mergeRanges(spans);
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
      get columns() {
        return (stream as { columns?: number }).columns;
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
  /** The terminal's width, where the stream is one. */
  readonly columns?: number | undefined;
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
 * What a text holding a URL's user information must contain, however encoded: a `/` (`2f`, `\/`,
 * or any numeric reference, zero-padded too) and an `@` (`40` in every hex escape, or a numeric
 * reference); a quick test before any decoding.
 */
const SLASHES = ['/', '2f', '&#'];
const AT_SIGNS = ['@', '40', '&#'];

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

/** What stands where a secret was: a key is named (`[redacted HSC_API_KEY]`), a field's value is not. */
const markerOf = (secret: Secret): string => (secret.kind === 'key' ? `[redacted ${secret.name}]` : REDACTED);

/** Why a secret cannot be searched for in free text, or undefined when it can. */
function unsearchable(value: string): Unsearched | undefined {
  if (value.trim().length < MIN_SEARCHED_LENGTH) return 'short';
  return inSuiteVocabulary(value) ? 'vocabulary' : undefined;
}

const tokenFormCache = new WeakMap<Secret, readonly string[]>();

/** A secret as the suite's requests carry it: as it is, URI- and form-encoded, and base64 as HTTP Basic has it. */
function tokenForms(secret: Secret): readonly string[] {
  let forms = tokenFormCache.get(secret);
  if (!forms) {
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    const v = secret.value;
    forms = [...new Set([v, encodeURIComponent(v), new URLSearchParams({ v }).toString().slice(2), JSON.stringify(v).slice(1, -1), b64(v), b64(`${v}:`), b64(`:${v}`)])];
    tokenFormCache.set(secret, forms);
  }
  return forms;
}

/** What may stand on either side of a whole token: the text's ends, white space, quotes, URL and header punctuation. */
const isTokenEdge = (c: string | undefined): boolean => c === undefined || /[\s"'=&?:;,/<>()[\]{}]/.test(c);

/**
 * One note on the secrets hidden only where they stand as values (`Sanitizer.unsearched`), for
 * the run's notes; undefined when every secret is searched for. Secrets are named, never shown.
 */
export function unsearchedNote(sanitizer: Sanitizer): string | undefined {
  const parts: string[] = [];
  for (const [why, words] of [
    ['short', `shorter than ${MIN_SEARCHED_LENGTH} characters`],
    ['vocabulary', "found in the suite's own text (a word or phrase its reports use)"],
  ] as const) {
    const of = sanitizer.unsearched.filter((u) => u.why === why).map((u) => u.secret);
    if (of.length === 0) continue;
    const keys = of.filter((s) => s.kind === 'key').map((s) => s.name);
    const fields = [...new Set(of.filter((s) => s.kind === 'field').map((s) => s.name))];
    const named = [...keys.map((k) => `the key ${k}`), ...fields.map((f) => `${of.filter((s) => s.name === f).length} value(s) of ${f}`)].join(', ');
    parts.push(`${named}: ${words}`);
  }
  if (parts.length === 0) return undefined;
  return `secrets: ${parts.join('; ')}. Each is hidden where it stands as a value (a secret field's value, the key where the suite put it, the curl lines' variables), but not searched for in free text, where it could not be told from the report's own words: a target's text that repeats it may show it.`;
}
