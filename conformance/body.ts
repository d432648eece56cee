/**
 * What an answer's body is to the suite: parsed JSON, or a named reason it is not (empty, cut at
 * the size cap, content-encoded, nested too deep, not JSON with its content type and first
 * characters). Every reader of an answer (checks, discovery, scenarios) gives the same reason.
 */
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { MAX_JSON_DEPTH, parseBoundedJson } from './json.ts';
import type { ProbeRequest, ProbeResponse } from './types.ts';

export interface ReadBody {
  readonly json?: unknown;
  /** Why `json` is absent, as a clause: `the body is empty`, `the body was cut at the size cap …`. */
  readonly jsonError?: string;
  /** The body was not read for what it is, whatever it held: cut at the cap, nested too deep, or content-encoded. */
  readonly unread?: 'cut' | 'deep' | 'encoded';
}

export interface BodyFacts {
  readonly text: string;
  /** Lowercased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body went on past `cap` bytes and was cut there. */
  readonly cut?: boolean;
  readonly cap?: number;
}

/** `1024 KiB`, `256 bytes`. */
export const bytes = (n: number): string => (n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`);

/** The first characters of a text, quoted, for a message. */
export const beginning = (text: string, max = 60): string => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

/** The body as the suite reads it: JSON, or why not. */
export function readBody(facts: BodyFacts): ReadBody {
  const encoding = facts.headers['content-encoding']?.trim();
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return { jsonError: `the body is content-encoded (Content-Encoding: ${encoding.slice(0, 40)}), which the suite neither asked for nor decodes; not parsed`, unread: 'encoded' };
  }
  if (facts.cut) return { jsonError: `the body was cut at the size cap of ${bytes(facts.cap ?? 0)} (--max-body-kb) and not parsed`, unread: 'cut' };
  const parsed = parseBoundedJson(facts.text, MAX_JSON_DEPTH);
  if ('json' in parsed) return { json: parsed.json };
  if (parsed.error === 'empty') return { jsonError: 'the body is empty' };
  if (parsed.error === 'deep') return { jsonError: `the body is JSON ${parsed.message}, which the suite does not parse (ASM-BODY-BOUNDS)`, unread: 'deep' };
  const type = facts.headers['content-type'];
  const label = type === undefined ? 'no Content-Type' : `Content-Type ${type.slice(0, 80)}`;
  return { jsonError: `the body is not JSON (${label}; it begins ${beginning(facts.text.trimStart())}): ${parsed.message.slice(0, 120)}` };
}

/** Where a redirect points, as a message shows it: credentials taken out first (with or without a scheme), then clipped. */
export function redirectTarget(headers: Readonly<Record<string, string>>): string {
  const location = headers.location;
  if (location === undefined) return 'none';
  const bare = location.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)[^/?#]*@/i, '$1');
  return bare.length > 200 ? `${bare.slice(0, 200)}…` : bare;
}

/** What each sanitizer has learned from, so a body the transport taught it is not read again by the runner. */
const learnedBy = new WeakMap<Sanitizer, WeakSet<object>>();

/**
 * Teaches the sanitizer the secret field values a request and its answer carry: the parsed body
 * where there is one, its text where not. Each request and answer once per sanitizer, whoever
 * asks first (the transport as they pass, the runner for any other `Send`).
 */
export function learnExchange(sanitizer: Sanitizer, request: ProbeRequest, response?: ProbeResponse): void {
  let learned = learnedBy.get(sanitizer);
  if (!learned) learnedBy.set(sanitizer, (learned = new WeakSet()));
  if (request.body !== undefined && !learned.has(request)) {
    learned.add(request);
    const body = readBody({ text: request.body, headers: {} });
    if (body.json !== undefined) sanitizer.learn(body.json, 'sent');
    else sanitizer.learnText(request.body, 'sent');
  }
  if (response && !learned.has(response)) {
    learned.add(response);
    if (response.json !== undefined) sanitizer.learn(response.json, 'served');
    else if (response.text) sanitizer.learnText(response.text, 'served');
  }
}
