/**
 * The mock's request log: one entry per request (method, path, status, duration, the body as
 * JSON, the warning a client author should see), written as a readable line or as JSON. Entries
 * are sanitized by the server (mock/server.ts) before they are formatted.
 */
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { parseJsonBody, WARNING_HEADER, type MockRequest, type MockResponse } from './app.ts';

export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

export interface RequestLogEntry {
  readonly method: string;
  /** Without the query string: query values are never logged. */
  readonly path: string;
  readonly status: number;
  readonly durationMs?: number;
  /** The request body as parsed JSON, or a note of its size when it is not JSON or too long to show. */
  readonly body?: unknown;
  readonly warning?: string;
}

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

function loggedBody(request: MockRequest): unknown {
  if (request.tooLarge) return '[body over the size cap, not kept]';
  const size = request.body.length;
  if (size === 0) return undefined;
  if (size > SHOWN_BODY_BYTES) return `[${size} bytes, not shown]`;
  const parsed = parseJsonBody(request);
  // Text that is not JSON has no fields to redact by name: only its size is logged.
  return parsed === undefined ? `[${size} bytes, not JSON]` : withSecretNamesHidden(parsed);
}

/** The entry for an answered request; secrets are still in it (the server sanitizes every entry). */
export function requestEntry(request: MockRequest, response: MockResponse, durationMs: number): RequestLogEntry {
  const body = loggedBody(request);
  const warning = response.headers?.[WARNING_HEADER];
  return {
    method: request.method,
    path: request.url.split('?')[0]!,
    status: response.status,
    durationMs: Number(durationMs.toFixed(1)),
    ...(body === undefined ? {} : { body }),
    ...(warning ? { warning } : {}),
  };
}

/** One line of the log, sanitized whole once more; `oneLine` keeps a text line one line (JSON escapes by itself). */
export function formatLogEntry(entry: RequestLogEntry | string, format: LogFormat, sanitizer: Sanitizer): string {
  if (format === 'json') return sanitizer.text(JSON.stringify(typeof entry === 'string' ? { note: entry } : entry));
  if (typeof entry === 'string') return sanitizer.oneLine(entry);
  const parts = [entry.method, entry.path, String(entry.status)];
  if (entry.durationMs !== undefined) parts.push(`${entry.durationMs.toFixed(1)}ms`);
  if (entry.body !== undefined) parts.push(`body=${JSON.stringify(entry.body)}`);
  if (entry.warning) parts.push(`warning: ${entry.warning}`);
  return sanitizer.oneLine(parts.join(' '));
}
