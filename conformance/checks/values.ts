/**
 * Small helpers the checks share to read a response and to say what they found in words a user
 * can act on: `status` is "404" (string), the body is not JSON, and so on.
 */
import { secretFieldNames } from '../../spec/queries.ts';
import type { Exchange, ProbeRequest, ProbeResponse } from '../types.ts';

/** The wire type of a JSON value in the document's words; `absent` for a missing property. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const MAX_SHOWN = 60;

/** Text cut to `max` characters with an ellipsis. */
export const clip = (text: string, max = MAX_SHOWN): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A value as JSON (clipped) with its type: `"404" (string)`, `null (null)`, `absent`. */
export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = String(value);
  }
  return `${clip(json)} (${kindOf(value)})`;
}

const secretNames = new Set(secretFieldNames);

/** `show`, except for values of fields the model marks secret (`sftp_password`, `admin_password`). */
export const showField = (name: string | number | undefined, value: unknown): string =>
  typeof name === 'string' && secretNames.has(name) && value !== undefined ? `a ${kindOf(value)} (secret, not shown)` : show(value);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A header's value, whatever the case of its name. */
export function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * Why a body that should be JSON is not usable, or undefined when it parsed: empty, or not JSON
 * (with the parser's complaint and the body's first characters).
 */
export function notJson(response: ProbeResponse): string | undefined {
  if (response.json !== undefined) return undefined;
  if (response.text.trim() === '') return 'the body is empty';
  const why = response.jsonError ? ` (${clip(response.jsonError, 80)})` : '';
  return `the body is not JSON${why}: it begins ${JSON.stringify(clip(response.text.trimStart(), 80))}`;
}

/** Credentials a request carries, so text quoted from the server never echoes them. */
function credentialsOf(request: ProbeRequest): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const credential = value.replace(/^\s*\S+\s*/, '');
      if (credential) found.push(credential);
      // A key sent without a scheme word; a lone scheme word (`Bearer`) is no secret.
      else if (value.trim().length >= 12) found.push(value.trim());
    } else if (/key|token|auth/.test(lower)) found.push(value);
  }
  try {
    for (const [name, value] of new URL(request.url).searchParams) if (/key|token|auth/i.test(name)) found.push(value);
  } catch {
    // Not a URL we can parse: nothing to add.
  }
  return found.filter((c) => c.length >= 4);
}

/** Server text with the request's credentials replaced by `[redacted]`. */
export function scrub(exchange: Exchange, text: string): string {
  let scrubbed = text;
  for (const credential of credentialsOf(exchange.probe.request)) scrubbed = scrubbed.split(credential).join('[redacted]');
  return scrubbed;
}

/** Server text quoted in a message: scrubbed, clipped, JSON-quoted. */
export const quote = (exchange: Exchange, text: string, max = 120): string => JSON.stringify(clip(scrub(exchange, text), max));

/** Text with its first letter capitalized, to open a message. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The server's own `message`, when its error answer has one, as a clause to append. */
export function serverSaid(exchange: Exchange): string {
  const response = exchange.response;
  if (!response || response.status < 400) return '';
  const json = response.json;
  return isObject(json) && typeof json.message === 'string' && json.message !== '' ? ` (the server said ${quote(exchange, json.message)})` : '';
}
