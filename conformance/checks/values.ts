/**
 * Small helpers the checks share to read a response and to say what they found in words a user
 * can act on: `status` is "404" (string), the body is not JSON, and so on.
 */
import { secretFieldNames } from '../../spec/queries.ts';
import { clip, redirectTarget } from '../body.ts';
import type { Exchange, ProbeResponse } from '../types.ts';

/** The wire type of a JSON value in the document's words; `absent` for a missing property. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const MAX_SHOWN = 60;

export { clip };

/** A value as JSON (clipped) with its type: `"404" (string)`, `null (null)`, `absent`. */
export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  return `${preview(value, MAX_SHOWN)} (${kindOf(value)})`;
}

/**
 * JSON text of a value up to about `max` characters, then `…`: the walk stops there, so a huge
 * or deeply nested answer costs no more than its first characters.
 */
export function preview(value: unknown, max = MAX_SHOWN): string {
  let out = '';
  const write = (text: string): boolean => {
    out += text;
    return out.length <= max;
  };
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') return write(JSON.stringify(v) ?? String(v));
    if (Array.isArray(v)) {
      if (!write('[')) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !write(',')) || !walk(v[i])) return false;
      return write(']');
    }
    if (!write('{')) return false;
    let first = true;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      if ((!first && !write(',')) || !write(`${JSON.stringify(key)}:`) || !walk((v as Record<string, unknown>)[key])) return false;
      first = false;
    }
    return write('}');
  };
  return walk(value) ? out : `${out.slice(0, max)}…`;
}

const secretNames = new Set(secretFieldNames);

/** `show`, except for values of fields the model marks secret (`sftp_password`, `admin_password`). */
export const showField = (name: string | number | undefined, value: unknown): string =>
  typeof name === 'string' && secretNames.has(name) && value !== undefined ? `a ${kindOf(value)} (secret, not shown)` : show(value);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `1 request`, `3 requests`: a count with its noun, for messages and notes. */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The value at a path of object keys, or undefined where the path leaves objects. */
export const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, key) => (isObject(v) ? v[key] : undefined), value);

/** A header's value, whatever the case of its name. */
export function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** Why a body that should be JSON is not usable (the transport's named cause), or undefined when it parsed. */
export function notJson(response: ProbeResponse): string | undefined {
  if (response.json !== undefined) return undefined;
  return response.jsonError ?? (response.text.trim() === '' ? 'the body is empty' : 'the body is not JSON');
}

/** Server text quoted in a message: clipped, JSON-quoted (the report's sanitizer hides any secret in it). */
export const quote = (text: string, max = 120): string => JSON.stringify(clip(text, max));

/** Text with its first letter capitalized, to open a message. */
export const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The server's own `message`, when its error answer has one, or where a redirect points, as a clause to append. */
export function serverSaid(exchange: Exchange): string {
  const response = exchange.response;
  if (!response) return '';
  if (response.status >= 300 && response.status < 400) return ` (a redirect, Location: ${redirectTarget(response.headers)}, which the suite does not follow)`;
  if (response.status < 400) return '';
  const json = response.json;
  return isObject(json) && typeof json.message === 'string' && json.message !== '' ? ` (the server said ${quote(json.message)})` : '';
}
