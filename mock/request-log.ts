/**
 * The mock's request log: one line per request (method, path, status, duration, the body as
 * JSON, the warning a client author should see, and for a refusal why: the problems or the hint
 * its answer gave), readable text or one JSON object per line.
 *
 * Every part a client chose (method, path, body, warning, the refusal's words, which may quote
 * its fields) passes the project's one sanitizer;
 * the parts the mock writes itself (status, duration) hold nothing to search. A client part is
 * sanitized once per distinct value and the result kept (`RequestLog`): a client repeating a
 * request repeats its line's parts, and scanning each for every form of every secret was most
 * of the mock's time per request.
 */
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { parseJsonBody, WARNING_HEADER, type MockRequest, type MockResponse } from './app.ts';
import { BoundedMap } from '../sanitize/bounded-map.ts';
import { BAD_REQUEST } from './errors.ts';

export type LogFormat = 'text' | 'json';
/** `--log`: `off` builds no line at all. */
export const LOG_CHOICES = ['off', 'text', 'json'] as const;
export type LogChoice = (typeof LOG_CHOICES)[number];

/**
 * Names that say "secret" whatever the document marks: a client author's own fields (`password`,
 * `api_key`, `client_secret`) and command-line options inside values (`--user_pass=…`). The
 * sanitizer hides what the model marks secret; the log hides these too, since it shows bodies
 * the document never described.
 */
const SECRET_NAME = /pass(?:word|wd|phrase|_|$)|pwd|secret|token|api_?key|private_?key|authoriz|authent|credential/i;
const SECRET_OPTION = /(--?[A-Za-z0-9_-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api_?key|private_?key|authoriz|authent|credential)[A-Za-z0-9_-]*(?:=|\s+))("[^"]*"|'[^']*'|\S+)/gi;
/** Nesting past which a body is not walked (it is at most SHOWN_BODY_BYTES long anyway). */
const MAX_SHOWN_DEPTH = 32;

/** `body` with the values of fields and options named like secrets replaced. */
export function withSecretNamesHidden(body: unknown, depth = 0): unknown {
  if (typeof body === 'string') return body.replace(SECRET_OPTION, (_, name: string) => `${name}[redacted]`);
  if (typeof body !== 'object' || body === null) return body;
  if (depth >= MAX_SHOWN_DEPTH) return '[not shown: nested too deep]';
  if (Array.isArray(body)) return body.map((v) => withSecretNamesHidden(v, depth + 1));
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SECRET_NAME.test(k) && v !== null ? '[redacted]' : withSecretNamesHidden(v, depth + 1)]));
}

/** Bodies longer than this are logged by size only: cutting one could cut a secret the sanitizer would no longer know. */
const SHOWN_BODY_BYTES = 4096;
/** Distinct client parts whose sanitized form is kept; past it the memo starts over (bounded memory). */
const MEMO_ENTRIES = 1024;
/** Client parts longer than this are sanitized each time, never kept. */
const MEMO_MAX_CHARS = SHOWN_BODY_BYTES;
/** Methods the mock knows are words of HTTP, not a client's text; any other is sanitized like a path. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
/** What one log line says: a request answered (`request` for its body) or an answer without one (CONNECT). */
export interface LogEntry {
  readonly method: string;
  /** Without the query string: query values are never logged. */
  readonly path: string;
  readonly status: number;
  readonly durationMs?: number;
  readonly request?: MockRequest;
  readonly warning?: string | undefined;
  readonly refusal?: Refusal | undefined;
}

/**
 * Why the mock refused a request, as its answer told the client: the 400's `data.problems`, the
 * unknown endpoint's `data.hint`. Read from the error body the pipeline built (or a variant's,
 * whatever its shape: what is not there is not logged).
 */
export interface Refusal {
  readonly problems?: readonly { readonly path: string; readonly problem: string }[];
  readonly hint?: string;
}

/** Problems one log line names (an answer lists them all: a body can break every field at once); past it, how many more. */
const SHOWN_PROBLEMS = 10;

/** The refusal an error body states, if it states one; `undefined` for anything else. */
export function refusalOf(body: unknown): Refusal | undefined {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (typeof data !== 'object' || data === null) {
    // A body refused whole (not JSON, too large, not an object) says why in its message alone.
    const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
    const why = typeof message === 'string' && message.startsWith(BAD_REQUEST) ? message.slice(BAD_REQUEST.length) : undefined;
    return why ? { problems: [{ path: '', problem: why }] } : undefined;
  }
  const { problems, hint } = data as { problems?: unknown; hint?: unknown };
  const listed = Array.isArray(problems)
    ? problems.flatMap((p) => (typeof p === 'object' && p !== null && typeof p.path === 'string' && typeof p.problem === 'string' ? [{ path: p.path as string, problem: p.problem as string }] : []))
    : [];
  if (listed.length) return { problems: listed };
  return typeof hint === 'string' ? { hint } : undefined;
}

/** The entry for an answered request; only a refusal (4xx) pays for reading why. */
export const requestEntry = (request: MockRequest, response: MockResponse, durationMs: number): LogEntry => ({
  method: request.method,
  path: pathOnly(request.url),
  status: response.status,
  durationMs,
  request,
  warning: response.headers?.[WARNING_HEADER],
  refusal: response.status >= 400 && response.status < 500 ? refusalOf(response.body) : undefined,
});

/** The path without the query string: logs never carry query values. */
export const pathOnly = (url: string | undefined): string => {
  const text = url ?? '/';
  const query = text.indexOf('?');
  return query < 0 ? text : text.slice(0, query);
};

/** The body as the log shows it: parsed JSON with secret-named values hidden, or a note of its size. */
function shownBody(request: MockRequest): unknown {
  if (request.tooLarge) return '[body over the size cap, not kept]';
  const size = request.body.length;
  if (size > SHOWN_BODY_BYTES) return `[${size} bytes, not shown]`;
  const parsed = parseJsonBody(request);
  // Text that is not JSON has no fields to redact by name: only its size is logged.
  return parsed === undefined ? `[${size} bytes, not JSON]` : withSecretNamesHidden(parsed);
}

/**
 * Writes log lines through one sanitizer, in one format. Parts a client chose are sanitized as
 * whole values (a body as its whole JSON text, keys included) and kept by value in a bounded
 * memo that starts over when the sanitizer learns a secret.
 */
export class RequestLog {
  readonly #sanitizer: Sanitizer;
  readonly #format: LogFormat;
  /** Sanitized client parts by what they are (a path and a body may read alike) and by value. */
  readonly #memos = { method: memo(), path: memo(), body: memo(), warning: memo(), refusal: memo() };
  #generation: number;

  constructor(sanitizer: Sanitizer, format: LogFormat) {
    this.#sanitizer = sanitizer;
    this.#format = format;
    this.#generation = sanitizer.generation;
  }

  /** One line for an entry, or for a note of the mock's own (an aborted request, a mock bug). */
  line(entry: LogEntry | string): string {
    if (typeof entry === 'string') return this.#format === 'json' ? this.#sanitizer.text(JSON.stringify({ note: entry })) : this.#sanitizer.oneLine(entry);
    if (this.#generation !== this.#sanitizer.generation) {
      for (const memo of Object.values(this.#memos)) memo.clear();
      this.#generation = this.#sanitizer.generation;
    }
    const method = KNOWN_METHODS.has(entry.method) ? entry.method : this.#clean(this.#memos.method, entry.method);
    const path = this.#clean(this.#memos.path, entry.path);
    const request = entry.request;
    const body = request && (request.body.length > 0 || request.tooLarge) ? this.#body(request) : undefined;
    const warning = entry.warning ? this.#clean(this.#memos.warning, entry.warning) : undefined;
    const refusal = entry.refusal ? this.#refusal(entry.refusal) : undefined;
    const duration = entry.durationMs === undefined ? undefined : entry.durationMs.toFixed(1);
    if (this.#format === 'json') {
      let line = `{"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${entry.status}`;
      if (duration !== undefined) line += `,"durationMs":${Number(duration)}`;
      if (body !== undefined) line += `,"body":${body}`;
      if (refusal !== undefined) line += `,${refusal}`;
      if (warning !== undefined) line += `,"warning":${JSON.stringify(warning)}`;
      return `${line}}`;
    }
    let line = `${method} ${path} ${entry.status}`;
    if (duration !== undefined) line += ` ${duration}ms`;
    if (body !== undefined) line += ` body=${body}`;
    if (refusal !== undefined) line += ` ${refusal}`;
    if (warning !== undefined) line += ` warning: ${warning}`;
    return line;
  }

  /**
   * A refusal's words: `problems: /backup_id must be integer; …` or `hint: …` in text,
   * `"problems":[{"path":…,"problem":…}]` or `"hint":"…"` in JSON, whose values are sanitized,
   * then the JSON text whole, as a body's are. Kept by value.
   */
  #refusal(refusal: Refusal): string {
    const shown = refusal.problems?.slice(0, SHOWN_PROBLEMS);
    const more = (refusal.problems?.length ?? 0) - (shown?.length ?? 0);
    if (this.#format === 'text') {
      const words = shown ? `problems: ${shown.map((p) => `${p.path || '(body)'} ${p.problem}`).join('; ')}${more ? `; and ${more} more` : ''}` : `hint: ${refusal.hint ?? ''}`;
      return this.#clean(this.#memos.refusal, words);
    }
    const member = (value: unknown) => (shown ? `"problems":${JSON.stringify(value)}${more ? `,"moreProblems":${more}` : ''}` : `"hint":${JSON.stringify(value)}`);
    return kept(this.#memos.refusal, member(shown ?? refusal.hint ?? ''), () => this.#sanitizer.text(member(this.#sanitizer.value(shown ?? refusal.hint ?? ''))));
  }

  /** A client's text, sanitized (on one line, for text); kept by value. */
  #clean(memo: BoundedMap<string, string>, text: string): string {
    return kept(memo, text, () => this.#sanitized(text));
  }

  #sanitized(text: string): string {
    return this.#format === 'json' ? this.#sanitizer.text(text) : this.#sanitizer.oneLine(text);
  }

  /** The body's JSON text, sanitized whole (its keys are the client's text too); kept by its bytes. */
  #body(request: MockRequest): string {
    const shown = () => this.#sanitized(JSON.stringify(this.#sanitizer.value(shownBody(request))));
    return request.tooLarge || request.body.length > MEMO_MAX_CHARS ? shown() : kept(this.#memos.body, request.body.toString('latin1'), shown);
  }
}

const memo = () => new BoundedMap<string, string>(MEMO_ENTRIES);

/** What `make` gives, kept under `key` unless the key is too long to keep. */
function kept(memo: BoundedMap<string, string>, key: string, make: () => string): string {
  return key.length > MEMO_MAX_CHARS ? make() : memo.getOrAdd(key, make);
}
