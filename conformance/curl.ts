/**
 * A copy-pasteable `curl` line that reproduces a probe's request. API keys are never written out:
 * each appears as its environment variable inside double quotes (`"$HSC_API_KEY"`), so the shell
 * fills it in; HTTP Basic credentials are rebuilt from it with `base64`. Everything else is
 * single-quoted (or `$'...'` when it holds control characters), so no shell expands it.
 */
import type { Secret } from './redact.ts';
import type { ProbeRequest } from './types.ts';

/** A piece of one shell word: text to quote, or shell syntax to keep as it is. */
type Part = { readonly text: string } | { readonly shell: string };

/** How each form of a key is rebuilt in the shell from its variable. */
function keyForms(secret: Secret): [string, string][] {
  const v = `"$${secret.name}"`;
  const b64 = (format: string, strip = '\\n') => `"$(printf '${format}' ${v} | base64 | tr -d '${strip}')"`;
  const forms: [string, string][] = [
    [secret.value, v],
    [Buffer.from(`${secret.value}:`).toString('base64'), b64('%s:')],
    [Buffer.from(`${secret.value}:`).toString('base64').replace(/=+$/, ''), b64('%s:', '\\n=')],
    [Buffer.from(`:${secret.value}`).toString('base64'), b64(':%s')],
    [Buffer.from(secret.value).toString('base64'), b64('%s')],
    // Approximations: the shell does not URL-encode or JSON-escape; keys rarely need either.
    [encodeURIComponent(secret.value), v],
    [JSON.stringify(secret.value).slice(1, -1), v],
  ];
  return forms.filter(([form]) => form.length > 0);
}

/** Splits a string into literal text and shell expressions standing for the secrets in it. */
function parts(value: string, secrets: readonly Secret[]): Part[] {
  const forms = secrets.filter((s) => s.value).flatMap(keyForms);
  // Longest first: a key inside its own base64 or encoded form must not win.
  forms.sort((a, b) => b[0].length - a[0].length);
  const out: Part[] = [];
  let rest = value;
  outer: while (rest) {
    let best: { at: number; form: string; shell: string } | undefined;
    for (const [form, shell] of forms) {
      const at = rest.indexOf(form);
      if (at >= 0 && (!best || at < best.at)) best = { at, form, shell };
    }
    if (!best) break outer;
    if (best.at > 0) out.push({ text: rest.slice(0, best.at) });
    out.push({ shell: best.shell });
    rest = rest.slice(best.at + best.form.length);
  }
  if (rest) out.push({ text: rest });
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

function word(value: string, secrets: readonly Secret[]): string {
  if (value === '') return "''";
  return parts(value, secrets)
    .map((p) => ('shell' in p ? p.shell : shellQuote(p.text)))
    .join('');
}

/** Headers curl sets on its own from the command line; sending them again would duplicate them. */
const SET_BY_CURL = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/**
 * `curl` with the method, URL, headers and exact body of the request. `secrets` name the keys
 * (`HSC_API_KEY`, `HSC_OTHER_API_KEY`); other secrets are left to the redactor.
 */
export function curlFor(request: ProbeRequest, secrets: readonly Secret[] = []): string {
  const args = ['curl', '-sS', '-i'];
  const hasBody = request.body !== undefined;
  if (request.method !== 'GET' || hasBody) args.push('-X', shellQuote(request.method));
  if (/[[\]{}]/.test(request.url)) args.push('-g'); // no URL globbing: the URL is sent as it is
  args.push(word(request.url, secrets));
  const names = new Set<string>();
  for (const [name, value] of Object.entries(request.headers)) {
    if (SET_BY_CURL.has(name.toLowerCase())) continue;
    names.add(name.toLowerCase());
    // `Name;` is curl's way to send a header with an empty value (`Name:` would remove it).
    args.push('-H', word(value === '' ? `${name};` : `${name}: ${value}`, secrets));
  }
  if (hasBody) {
    // Without this, curl would add `Content-Type: application/x-www-form-urlencoded`.
    if (!names.has('content-type')) args.push('-H', shellQuote('Content-Type:'));
    args.push('--data-raw', word(request.body ?? '', secrets));
  }
  return args.join(' ');
}
