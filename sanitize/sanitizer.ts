/**
 * The one sanitizer every byte that leaves the process passes: reports, curl lines, messages,
 * progress, the mock's request log, every error the CLI prints. It hides
 * - the API keys given (`[redacted HSC_API_KEY]`),
 * - every value of a field the model marks secret (`sftp_password`, `admin_password`) seen in a
 *   request or an answer, parsed or not (`learn`, `learnText`): `[redacted]`,
 * in every form a server echoes them: as sent, JSON-escaped (`\/`, `\uXXXX`), URI- or
 * form-encoded, as HTML references, base64 (alone or in HTTP Basic credentials, standard or URL
 * alphabet, at any alignment), in any letter case, and any prefix of 12 characters or more.
 * Matching is linear in the text (sanitize/scan.ts); no secret becomes a regular expression.
 */
import { secretFieldNames } from '../spec/queries.ts';
import { foldText, SecretScanner, type ScanPattern, type Span } from './scan.ts';

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

/** The shortest prefix of a secret that is hidden where it is quoted cut short. */
export const PREFIX_MIN = 12;
/** The same for the base64 forms (16 characters: 12 bytes). */
const BASE64_PREFIX_MIN = 16;
/** Learned values shorter than this are not worth hiding everywhere (and would mangle text). */
export const MIN_LEARNED_LENGTH = 4;
/** Values nested deeper than this in `value` are not copied (suite-built values never are). */
const MAX_VALUE_DEPTH = 64;
/** Nodes `learn` visits in one value; parsed answers are capped in size long before this. */
const MAX_LEARN_NODES = 1_000_000;

export const keySecret = (value: string, name: string): Secret => ({ value, name, kind: 'key' });
export const fieldSecret = (value: string, field: string): Secret => ({ value, name: `HSC_${field.toUpperCase()}`, kind: 'field' });

/**
 * The base64 forms of a value: of the value, of `value:` and `:value` (HTTP Basic), in the
 * standard and URL alphabets, padded or not; and the characters fixed by the value alone when
 * it sits at byte offset 1 or 2 of a longer base64 text.
 */
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const colon = Buffer.from(':');
  const forms = new Set<string>();
  // Shorter partial forms would be found in any text; a whole padded form is distinctive enough.
  const partial = (text: string) => {
    if (text.length >= 8) forms.add(text);
  };
  for (const whole of [bytes, Buffer.concat([bytes, colon]), Buffer.concat([colon, bytes])]) {
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

export class Sanitizer {
  readonly #secrets = new Map<string, Secret>();
  readonly #fieldNames: ReadonlySet<string>;
  #scanner: SecretScanner | undefined;
  #owners: Secret[] = [];
  #work = 0;

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
    this.#work += this.#scanner?.stats.steps ?? 0;
    this.#scanner = undefined;
  }

  get secrets(): readonly Secret[] {
    return [...this.#secrets.values()];
  }

  /** A sanitizer that also hides `extra` (e.g. the credentials one request carried). */
  with(extra: Iterable<Secret>): Sanitizer {
    const copy = new Sanitizer(this.#secrets.values(), [...this.#fieldNames]);
    for (const secret of extra) copy.add(secret);
    return copy;
  }

  /** Remembers the string values of secret fields anywhere in a parsed JSON value (iteratively: any depth). */
  learn(json: unknown): void {
    const stack: unknown[] = [json];
    let visited = 0;
    while (stack.length && visited++ < MAX_LEARN_NODES) {
      const value = stack.pop();
      if (typeof value !== 'object' || value === null) continue;
      if (Array.isArray(value)) {
        for (const item of value) stack.push(item);
        continue;
      }
      for (const [key, v] of Object.entries(value)) {
        if (this.#fieldNames.has(key) && typeof v === 'string') this.#learnValue(key, v);
        else stack.push(v);
      }
    }
  }

  /**
   * Remembers secret field values in JSON text that was not parsed (cut at a size cap, too
   * deep, malformed): `"sftp_password": "…"`, the value up to the text's end if it is cut
   * short; also one level down, in JSON-escaped JSON (`\"sftp_password\":\"…\"`).
   */
  learnText(text: string): void {
    for (const [field, value] of fieldValuesIn(text, this.#fieldNames)) this.#learnValue(field, value);
    if (text.includes('\\"')) {
      const inner = text.replace(/\\(["\\])/g, '$1');
      for (const [field, value] of fieldValuesIn(inner, this.#fieldNames)) this.#learnValue(field, value);
    }
  }

  #learnValue(field: string, value: string): void {
    if (value.length >= MIN_LEARNED_LENGTH) this.add(fieldSecret(value, field));
  }

  #scan(): SecretScanner {
    if (this.#scanner) return this.#scanner;
    const patterns: ScanPattern[] = [];
    const owners: Secret[] = [];
    const index = new Map<string, number>();
    const push = (text: string, minAccept: number, owner: Secret) => {
      const folded = foldText(text);
      const at = index.get(folded);
      if (at !== undefined) {
        // The same text from two secrets: a key's name wins; the shorter prefix rule wins.
        if (owner.kind === 'key') owners[at] = owner;
        patterns[at] = { text: folded, minAccept: Math.min(patterns[at]!.minAccept, minAccept) };
        return;
      }
      index.set(folded, patterns.length);
      patterns.push({ text: folded, minAccept });
      owners.push(owner);
    };
    for (const secret of this.#secrets.values()) {
      push(secret.value, Math.min(secret.value.length, PREFIX_MIN), secret);
      for (const form of base64Forms(secret.value)) push(form, Math.min(form.length, BASE64_PREFIX_MIN), secret);
    }
    this.#owners = owners;
    this.#scanner = new SecretScanner(patterns);
    return this.#scanner;
  }

  /** Steps the matcher has taken so far: linear in the text sanitized (for tests). */
  get work(): number {
    return this.#work + (this.#scanner?.stats.steps ?? 0);
  }

  /** Where secrets sit in `text`, merged, each with the secret of one pattern found there. */
  spans(text: string): SecretSpan[] {
    const scanner = this.#scan();
    return scanner.spans(text).map((s: Span) => ({ start: s.start, end: s.end, secret: this.#owners[s.pattern]! }));
  }

  /** `text` with every secret replaced; the result is checked again, so no replacement can complete one. */
  text(text: string): string {
    if (text === '' || this.#secrets.size === 0) return text;
    const spans = this.spans(text);
    if (spans.length === 0) return text;
    const scanner = this.#scan();
    const clean = (out: string) => scanner.spans(out).length === 0;
    let out = replaceSpans(text, spans, (s) => (s.secret.kind === 'key' ? `[redacted ${s.secret.name}]` : REDACTED));
    if (clean(out)) return out;
    // A secret made of the marker's characters: plainer markers, then none at all.
    for (const marker of ['[hidden]', '***', '']) {
      out = replaceSpans(text, spans, () => marker);
      if (clean(out)) return out;
    }
    for (let round = 0; round < 8; round++) {
      const left = this.spans(out);
      if (left.length === 0) return out;
      out = replaceSpans(out, left, () => '');
    }
    return '';
  }

  /** A deep copy with every string sanitized and every secret field's scalar value replaced. */
  value<T>(input: T): T {
    return this.#copy(input, 0) as T;
  }

  #copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= MAX_VALUE_DEPTH) return '[not shown: nested too deep]';
    if (Array.isArray(value)) return value.map((v) => this.#copy(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[this.text(key)] = this.#fieldNames.has(key) && (v === null || typeof v !== 'object') ? REDACTED : this.#copy(v, depth + 1);
    }
    return out;
  }

  /** A message of an error, sanitized, on one line. */
  message(error: unknown): string {
    const text = error instanceof Error ? error.message : String(error);
    return this.text(text).replace(/\s*[\r\n]+\s*/g, ' ');
  }

  /** A stream whose every write is sanitized first (text only; a chunk is sanitized whole). */
  writer<S extends NodeJS.WritableStream & { isTTY?: boolean }>(stream: S): SanitizedStream {
    const sanitizer = this;
    return {
      get isTTY() {
        return stream.isTTY;
      },
      write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        return callback ? stream.write(sanitizer.text(text), callback) : stream.write(sanitizer.text(text));
      },
    };
  }
}

/** What the CLI writes to: a stream that sanitizes every write. */
export interface SanitizedStream {
  readonly isTTY?: boolean | undefined;
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
}

function replaceSpans(text: string, spans: readonly SecretSpan[], marker: (span: SecretSpan) => string): string {
  let out = '';
  let from = 0;
  for (const span of spans) {
    out += text.slice(from, span.start) + marker(span);
    from = span.end;
  }
  return out + text.slice(from);
}

/**
 * `"field" : "value"` for each secret field in JSON text; a value cut short runs to the end. A
 * linear scan: each occurrence of a field name is read once, its value once.
 */
function fieldValuesIn(text: string, fields: ReadonlySet<string>): [string, string][] {
  const found: [string, string][] = [];
  for (const field of fields) {
    const needle = `"${field}"`;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      let i = at + needle.length;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (text[i] !== ':') continue;
      i++;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (text[i] !== '"') continue;
      const start = i + 1;
      let end = start;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      found.push([field, jsonStringContent(text.slice(start, Math.min(end, text.length)))]);
    }
  }
  return found;
}

/** The characters of a JSON string's content, escapes decoded; a cut-off escape at the end is dropped. */
function jsonStringContent(content: string): string {
  const whole = content.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    // A copy: a slice would keep the whole answer it was cut from alive as long as the secret.
    return Buffer.from(whole, 'utf16le').toString('utf16le');
  }
}
