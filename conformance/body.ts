/**
 * What an answer's body is to the suite: parsed JSON, or a named reason it is not (empty, cut at
 * the size cap, content-encoded, nested too deep, not JSON with its content type and first
 * characters). Every reader of an answer (checks, discovery, scenarios) gives the same reason.
 *
 * Secrets by structure first: an answer from an endpoint that serves a secret, or one that names
 * a secret field in any spelling, is never kept as text. Its values under secret fields are
 * found where it is parsed (sanitize/structure.ts), its JSON is kept with them replaced, and its
 * text is a description: size, content type, a keyed hash and its shape with the secrets
 * replaced. Everything the suite writes about it is made from that, never from the raw text.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { secretFields, type Learned, type SecretFields } from '../sanitize/structure.ts';
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

/** An answer as the suite keeps it: what reports may show of it, its JSON with secrets replaced, and the secrets found. */
export interface ReadAnswer extends ReadBody {
  /** The body as reports may show it: as received, or the description of a withheld body. */
  readonly text: string;
  /** The body names a secret: `text` describes it instead of holding it. */
  readonly withheld?: true;
  /** Values found under secret fields (the body's, and headers named like one): to hide wherever else they appear. */
  readonly secrets: readonly Learned[];
}

/** `1024 KiB`, `256 bytes`. */
export const bytes = (n: number): string => (n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`);

/** Text cut to `max` characters, the cut marked `…` (so a secret's head left before it is still found: sanitize/scan.ts). */
export const clip = (text: string, max = 60): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The first characters of a text, quoted, for a message. */
export const beginning = (text: string, max = 60): string => JSON.stringify(clip(text, max));

/** The body as the suite reads it: JSON, or why not. `shown` is what a message may quote of it. */
export function readBody(facts: BodyFacts, shown: string | undefined = facts.text): ReadBody {
  const encoding = facts.headers['content-encoding']?.trim();
  if (encoding && encoding.toLowerCase() !== 'identity') {
    return { jsonError: `the body is content-encoded (Content-Encoding: ${clip(encoding, 40)}), which the suite neither asked for nor decodes; not parsed`, unread: 'encoded' };
  }
  if (facts.cut) return { jsonError: `the body was cut at the size cap of ${bytes(facts.cap ?? 0)} (--max-body-kb) and not parsed`, unread: 'cut' };
  const parsed = parseBoundedJson(facts.text, MAX_JSON_DEPTH);
  if ('json' in parsed) return { json: parsed.json };
  if (parsed.error === 'empty') return { jsonError: 'the body is empty' };
  if (parsed.error === 'deep') return { jsonError: `the body is JSON ${parsed.message}, which the suite does not parse (ASM-BODY-BOUNDS)`, unread: 'deep' };
  const type = facts.headers['content-type'];
  const label = type === undefined ? 'no Content-Type' : `Content-Type ${clip(type, 80)}`;
  const begins = shown === undefined ? 'it names a secret field, so it is not quoted' : `it begins ${beginning(shown.trimStart())}`;
  return { jsonError: `the body is not JSON (${label}; ${begins}): ${clip(parsed.message, 120)}` };
}

/**
 * An answer read as the suite keeps it. `servesSecret`: the endpoint's success body holds a
 * secret (the model says so), so its body is withheld whatever it holds.
 */
export function readAnswer(facts: BodyFacts & { readonly servesSecret?: boolean }, fields: SecretFields = secretFields): ReadAnswer {
  const fromHeaders: Learned[] = [];
  for (const name in facts.headers) {
    const field = fields.fieldOf(name);
    const value = facts.headers[name]!;
    if (field && value !== '') fromHeaders.push({ field, value });
  }
  const named = facts.text === '' ? [] : fields.namesIn(facts.text);
  if (!facts.servesSecret && named.length === 0) return { text: facts.text, ...readBody(facts), secrets: fromHeaders };
  const read = readBody(facts, undefined);
  // Encoded bodies are already a description (http.ts); nothing in them was read.
  if (read.unread === 'encoded') return { text: facts.text, ...read, secrets: fromHeaders };
  const screened = fields.screen(facts.text);
  const json = read.json === undefined ? undefined : screened.json;
  const why = facts.servesSecret ? 'this endpoint serves a secret' : `it names a secret field (${named.join(', ')})`;
  const type = facts.headers['content-type'];
  const shape =
    screened.shape === undefined
      ? 'not JSON, so no shape is shown'
      : `its JSON${screened.shapeComplete ? '' : ' (followed by text that is not JSON)'} with every secret value replaced: ${screened.shape}`;
  const text = `[body withheld: ${why}; ${Buffer.byteLength(facts.text)} bytes${facts.cut ? ' (cut at the size cap)' : ''}, ${type === undefined ? 'no Content-Type' : `Content-Type ${clip(type, 80)}`}, keyed hash ${keyedHash(facts.text)}; ${shape}]`;
  return { text, ...read, ...(json === undefined ? {} : { json }), withheld: true, secrets: [...screened.values, ...fromHeaders] };
}

/** A key of this process only: a withheld body's hash tells answers apart in one report, and cannot be searched for a guessed secret. */
const HASH_KEY = randomBytes(32);
export const keyedHash = (data: string | Buffer): string => `hmac-sha256:${createHmac('sha256', HASH_KEY).update(data).digest('hex').slice(0, 16)}`;

/** Where a redirect points, as a message shows it: credentials taken out first (with or without a scheme), then clipped. */
export function redirectTarget(headers: Readonly<Record<string, string>>): string {
  const location = headers.location;
  if (location === undefined) return 'none';
  return clip(location.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)[^/?#]*@/i, '$1'), 200);
}

/** What each sanitizer has learned from, so a body the transport taught it is not read again by the runner. */
const learnedBy = new WeakMap<Sanitizer, WeakSet<object>>();

/** Marks `response` as learned by `sanitizer` (the transport learned its raw body before keeping it). */
export function markLearned(sanitizer: Sanitizer, response: ProbeResponse): void {
  let learned = learnedBy.get(sanitizer);
  if (!learned) learnedBy.set(sanitizer, (learned = new WeakSet()));
  learned.add(response);
}

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
