/**
 * Keeps secrets out of reports and logs: both tenants' API keys (raw, URL-encoded, JSON-escaped
 * and in the base64 of HTTP Basic), the values of the fields the model marks secret
 * (`secretFieldNames`: `sftp_password`, `admin_password`) wherever they appear, and any value of
 * such a field seen in an exchange (`learn`), should a server echo it elsewhere.
 */
import { escapeRegex, secretFieldNames } from '../spec/queries.ts';

export const REDACTED = '[redacted]';

/** A secret and the name it goes by in reports and curl lines (`HSC_API_KEY`). */
export interface Secret {
  readonly value: string;
  readonly name: string;
}

export interface Redactor {
  /** Remembers the values of secret fields in a JSON body, so they are redacted wherever they recur. */
  learn(json: unknown): void;
  /** Replaces every secret in a string (and the value of every secret JSON field in it). */
  text(value: string): string;
  /** A deep copy with every string redacted and every secret field's value replaced. */
  value<T>(value: T): T;
}

/** Learned values shorter than this are not secrets worth hiding everywhere (and would mangle text). */
const MIN_LEARNED_LENGTH = 4;

/** Forms in which a key may travel: as sent, URL-encoded, JSON-escaped, in HTTP Basic credentials. */
export function secretForms(value: string): string[] {
  const forms = new Set([
    value,
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
    Buffer.from(`${value}:`).toString('base64'),
    Buffer.from(value).toString('base64'),
    Buffer.from(`:${value}`).toString('base64'),
  ]);
  // The base64 of `key:` ends in padding that may be cut; match its unpadded form too.
  for (const form of [...forms]) if (form.endsWith('=')) forms.add(form.replace(/=+$/, ''));
  return [...forms].filter((f) => f.length > 0);
}


/** `"sftp_password": <string or scalar>` in JSON text (objects and arrays as values are left alone). */
const secretFieldPattern = (names: readonly string[]) =>
  // The string may be cut short (a capped body): an unterminated value is redacted to the end.
  new RegExp(`("(?:${names.map(escapeRegex).join('|')})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*(?:"|\\\\?$)|[\\w.+-]+)`, 'g');

export function createRedactor(secrets: readonly Secret[], fieldNames: readonly string[] = secretFieldNames): Redactor {
  const literals = new Map<string, string>();
  const add = (form: string, replacement: string) => {
    if (!literals.has(form)) literals.set(form, replacement);
    pattern = undefined;
  };
  let pattern: RegExp | undefined;
  const fieldRegex = fieldNames.length ? secretFieldPattern(fieldNames) : undefined;
  const fieldSet = new Set(fieldNames);

  for (const secret of secrets) {
    if (!secret.value) continue;
    for (const form of secretForms(secret.value)) add(form, `[redacted ${secret.name}]`);
  }

  const literalPattern = () => {
    if (!pattern && literals.size) {
      // Longest first, so a secret inside another form does not leave the rest behind.
      const alternatives = [...literals.keys()].sort((a, b) => b.length - a.length).map(escapeRegex);
      pattern = new RegExp(alternatives.join('|'), 'g');
    }
    return pattern;
  };

  const text = (value: string): string => {
    let out = value;
    const literal = literalPattern();
    if (literal) out = out.replace(literal, (match) => literals.get(match) ?? REDACTED);
    if (fieldRegex) {
      out = out.replace(fieldRegex, (_, head: string) => `${head}"${REDACTED}"`);
    }
    return out;
  };

  const learn = (json: unknown): void => {
    walk(json, (key, v) => {
      if (fieldSet.has(key) && typeof v === 'string' && v.length >= MIN_LEARNED_LENGTH) {
        for (const form of secretForms(v).filter((f) => f.length >= MIN_LEARNED_LENGTH)) add(form, REDACTED);
      }
    });
  };

  const value = <T>(input: T): T => redactValue(input, text, fieldSet) as T;
  return { learn, text, value };
}

function walk(value: unknown, visit: (key: string, value: unknown) => void, depth = 0): void {
  if (depth > 64 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    visit(key, v);
    walk(v, visit, depth + 1);
  }
}

function redactValue(value: unknown, text: (s: string) => string, fields: ReadonlySet<string>, depth = 0): unknown {
  if (typeof value === 'string') return text(value);
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, text, fields, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[text(key)] = fields.has(key) && (v === null || typeof v !== 'object') ? REDACTED : redactValue(v, text, fields, depth + 1);
  }
  return out;
}
