/**
 * A copy-pasteable `curl` line that reproduces a probe's request. No secret is written out: the
 * sanitizer finds each, and each appears as its environment variable inside double quotes
 * (`"$HSC_API_KEY"`, `"$HSC_ADMIN_PASSWORD"` for a secret field's value), so the shell fills it
 * in; HTTP Basic credentials are rebuilt from it with `base64`. A secret in a form the shell
 * cannot rebuild becomes the sanitizer's marker. Everything else is single-quoted (or `$'...'`
 * when it holds control characters), so no shell expands it.
 */
import type { Sanitizer, Secret } from '../sanitize/sanitizer.ts';
import { mergeRanges } from '../sanitize/scan.ts';
import type { ProbeRequest } from './types.ts';

/** A piece of one shell word: text to quote, shell syntax to keep as it is, or the sanitizer's marker for a secret no expression rebuilds. */
type Part = { readonly text: string } | { readonly shell: string } | { readonly marked: string };

/** The shell expression that rebuilds `text`, a form of `secret` found in a request, or undefined. */
function shellFor(text: string, secret: Secret): string | undefined {
  const v = secret.shell ?? `"$${secret.name}"`;
  const b64 = (format: string, strip = '\\n') => `"$(printf '${format}' ${v} | base64 | tr -d '${strip}')"`;
  const base64 = (raw: string) => Buffer.from(raw).toString('base64');
  const forms: readonly [string, string][] = [
    [secret.value, v],
    [base64(`${secret.value}:`), b64('%s:')],
    [base64(`${secret.value}:`).replace(/=+$/, ''), b64('%s:', '\\n=')],
    [base64(`:${secret.value}`), b64(':%s')],
    [base64(secret.value), b64('%s')],
    // Approximations: the shell does not URL-encode or JSON-escape; keys rarely need either.
    [encodeURIComponent(secret.value), v],
    [new URLSearchParams({ v: secret.value }).toString().slice(2), v],
    [JSON.stringify(secret.value).slice(1, -1), v],
  ];
  return forms.find(([form]) => form === text)?.[1];
}

/** Splits a string into literal text and shell expressions (or markers) standing for the secrets in it. */
export function secretParts(value: string, sanitizer: Sanitizer | undefined): Part[] {
  if (!sanitizer) return [{ text: value }];
  const out: Part[] = [];
  let from = 0;
  // Text search for the secrets it can find, and every secret where it stands whole (a short key too).
  for (const span of mergeRanges([...sanitizer.spans(value), ...sanitizer.structuralSpans(value)])) {
    if (span.start > from) out.push({ text: value.slice(from, span.start) });
    const found = value.slice(span.start, span.end);
    const shell = shellFor(found, span.secret);
    out.push(shell === undefined ? { marked: sanitizer.text(found) } : { shell });
    from = span.end;
  }
  if (from < value.length) out.push({ text: value.slice(from) });
  return out;
}

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: invisible or line-breaking.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** One literal string as a single shell word that expands to exactly it. */
export function shellQuote(text: string): string {
  if (text === '') return "''";
  if (SAFE.test(text)) return text;
  if (!CONTROL.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
  let out = "$'";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    // As UTF-8 bytes: bash reads `\u` escapes only under a UTF-8 locale, `\x` under any.
    else if (CONTROL.test(ch)) for (const byte of Buffer.from(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

function word(value: string, sanitizer: Sanitizer | undefined): string {
  if (value === '') return "''";
  return secretParts(value, sanitizer)
    .map((p) => ('shell' in p ? p.shell : shellQuote('text' in p ? p.text : p.marked)))
    .join('');
}

/** Headers curl sets on its own from the command line; sending them again would duplicate them. */
const SET_BY_CURL = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/**
 * What stands in for a curl line the sanitizer would still change: a replacement inside shell
 * quoting could end a quote early, and a target choosing its secrets could then make the line
 * run a command of its own.
 */
export const CURL_WITHHELD = '(no curl line: a part of it reads like a secret of this run, and hiding it could break its quoting; the request above is what was sent)';

/** `curl` with the method, URL, headers and exact body of the request; `sanitizer` knows the secrets. */
export function curlFor(request: ProbeRequest, sanitizer?: Sanitizer): string {
  const line = curlLine(request, sanitizer);
  return sanitizer && sanitizer.spans(line).length > 0 ? CURL_WITHHELD : line;
}

function curlLine(request: ProbeRequest, sanitizer: Sanitizer | undefined): string {
  const args = ['curl', '-sS', '-i'];
  const hasBody = request.body !== undefined;
  if (request.method !== 'GET' || hasBody) args.push('-X', shellQuote(request.method));
  if (/[[\]{}]/.test(request.url)) args.push('-g'); // no URL globbing: the URL is sent as it is
  args.push(word(request.url, sanitizer));
  const names = new Set<string>();
  for (const [name, value] of Object.entries(request.headers)) {
    if (SET_BY_CURL.has(name.toLowerCase())) continue;
    names.add(name.toLowerCase());
    // `Name;` is curl's way to send a header with an empty value (`Name:` would remove it).
    args.push('-H', word(value === '' ? `${name};` : `${name}: ${value}`, sanitizer));
  }
  if (hasBody) {
    // Without this, curl would add `Content-Type: application/x-www-form-urlencoded`.
    if (!names.has('content-type')) args.push('-H', shellQuote('Content-Type:'));
    args.push('--data-raw', word(request.body ?? '', sanitizer));
  }
  return args.join(' ');
}
