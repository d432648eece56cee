/**
 * The credentials a request carries, wherever it carries them (the `Authorization` credential,
 * key-like headers, cookies and query parameters), and where an answer carries any of them back.
 * Read by the transport as an answer arrives (from its raw text, before anything is withheld),
 * by the proxy likewise, and by the checks that read a message without the request's own words.
 */
import { base64Forms, Sanitizer, textForms } from '../../sanitize/sanitizer.ts';
import { SecretFields } from '../../sanitize/structure.ts';
import { BoundedMap } from '../../sanitize/bounded-map.ts';
import type { ProbeRequest } from '../types.ts';

/** A credential of a request: where it stands, and its value. */
export interface Carried {
  /** `authorization`, a header's name, `cookie name`, `?name`. */
  readonly from: string;
  readonly value: string;
}

/** Names that carry keys by convention. */
const KEY_LIKE = /key|token|auth|session|jwt|bearer/i;

/** Values this short are no key worth finding (`Bearer`, a flag). */
const MIN_CREDENTIAL = 4;

/** The credentials a request carries: the Authorization credential, key-like headers, cookies and query values. */
export function credentialsOf(request: ProbeRequest): Carried[] {
  const found: Carried[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const credential = value.replace(/^\s*\S+\s*/, '');
      if (credential) found.push({ from: 'authorization', value: credential.trim() });
      // A key sent without a scheme word; a lone scheme word (`Bearer`) is no secret.
      else if (value.trim().length >= 12) found.push({ from: 'authorization', value: value.trim() });
    } else if (lower === 'cookie') {
      for (const part of value.split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0 && KEY_LIKE.test(part.slice(0, eq))) found.push({ from: `cookie ${part.slice(0, eq).trim()}`, value: part.slice(eq + 1).trim() });
      }
    } else if (KEY_LIKE.test(lower)) found.push({ from: lower, value: value.replace(/^\s*bearer\s+/i, '').trim() });
  }
  try {
    for (const [name, value] of new URL(request.url).searchParams) if (KEY_LIKE.test(name)) found.push({ from: `?${name}`, value });
  } catch {
    // Not a URL we can parse: nothing to add.
  }
  return found.filter((c) => c.value.length >= MIN_CREDENTIAL);
}

/** A run sends a few credentials many times (each near-miss key on every endpoint): one sanitizer each, kept. */
const hiders = new BoundedMap<string, Sanitizer>(256);

/** A sanitizer that hides exactly these values, in every form it knows (URL- or base64-encoded, escaped). */
export function hiderOf(values: readonly string[]): Sanitizer {
  return hiders.getOrAdd(JSON.stringify(values), () => new Sanitizer(values.map((value) => ({ value, name: 'CREDENTIAL', kind: 'field' as const })), new SecretFields([])));
}

/** Where an answer carries back a credential of its request: which one (`from`), and where (`the body`, `header x-echo`). */
export interface Echo {
  readonly from: string;
  readonly at: string;
}

/**
 * The whole forms a credential travels back in: as sent, trimmed, URL-encoded, JSON-escaped,
 * base64 (of it, and of `key:` as HTTP Basic writes it). Whole ones only: a part of a key (`hsc_…`,
 * its last four characters, a masked hint) serves no credential. Kept per value: a run sends few.
 */
const formsOf = new BoundedMap<string, readonly string[]>(256);
const keyForms = (value: string): readonly string[] =>
  formsOf.getOrAdd(value, () => [...new Set([...textForms(value), encodeURIComponent(value), JSON.stringify(value).slice(1, -1), ...base64Forms(value)])].filter((f) => f.length >= Math.min(8, value.length)));

/** Credentials of `request` that `text` (the answer's body, raw) or its headers carry whole, in any of their forms. */
export function echoesOf(request: ProbeRequest, text: string, headers: Readonly<Record<string, string>>): Echo[] {
  const carried = credentialsOf(request);
  if (!carried.length) return [];
  const echoes: Echo[] = [];
  for (const c of carried) {
    const forms = keyForms(c.value);
    const holds = (t: string) => forms.some((f) => t.includes(f));
    if (text && holds(text)) echoes.push({ from: c.from, at: 'the body' });
    for (const [name, value] of Object.entries(headers)) if (value && holds(value)) echoes.push({ from: c.from, at: `the \`${name}\` header` });
  }
  return echoes;
}
