/**
 * The curl line, run through bash itself (with `curl` replaced by a function that prints its
 * arguments), must reproduce the request: method, URL, headers and the exact body, with the keys
 * filled in from `$HSC_API_KEY` / `$HSC_OTHER_API_KEY` and secret field values from
 * `$HSC_<FIELD>`, and never written out.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CURL_WITHHELD, curlFor, shellQuote } from './curl.ts';
import { fieldSecret, keySecret, Sanitizer } from '../sanitize/sanitizer.ts';
import type { ProbeRequest } from './types.ts';

const KEY = "hsc_k3y'with$odd`chars\"and\\slash";
const OTHER = 'other-company-key-0123456789';
const ADMIN = 'Adm1n!pass-word/42';
const secrets = new Sanitizer([keySecret(KEY, 'HSC_API_KEY'), keySecret(OTHER, 'HSC_OTHER_API_KEY'), fieldSecret(ADMIN, 'admin_password')]);

/**
 * Bash, as a user's shell would run the line. stdin is /dev/null: on a socket (Node's pipes are
 * socket pairs) bash assumes a remote shell daemon started it and reads ~/.bashrc.
 */
const bash = (script: string, env: NodeJS.ProcessEnv = {}): string =>
  execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The arguments bash passes to `curl` for the line. */
function argvOf(line: string): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\n${line}`;
  const out = bash(script, { HSC_API_KEY: KEY, HSC_OTHER_API_KEY: OTHER, HSC_ADMIN_PASSWORD: ADMIN });
  return out.split('\0').slice(0, -1);
}

/** The request curl would send for those arguments (the subset of curl's options curlFor uses). */
function requestOf(argv: readonly string[]): ProbeRequest {
  let method: string | undefined;
  let url = '';
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-sS' || a === '-i' || a === '-g') continue;
    if (a === '-X') method = argv[++i];
    else if (a === '-H') {
      const h = argv[++i]!;
      if (h.endsWith(';') && !h.includes(':')) headers[h.slice(0, -1)] = '';
      else {
        const colon = h.indexOf(':');
        const value = h.slice(colon + 1).replace(/^ /, '');
        if (value === '') delete headers[h.slice(0, colon)]; // `Name:` removes a header curl would add
        else headers[h.slice(0, colon)] = value;
      }
    } else if (a === '--data-raw') body = argv[++i];
    else url = a;
  }
  return { method: method ?? 'GET', url, headers, ...(body === undefined ? {} : { body }) };
}

const base = 'https://api.example.test/v2';
const cases: [string, ProbeRequest][] = [
  ['a plain read', { method: 'GET', url: `${base}/sites/abc`, headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' } }],
  ['no Authorization at all', { method: 'GET', url: `${base}/validate`, headers: {} }],
  ['the other tenant', { method: 'GET', url: `${base}/sites/x`, headers: { authorization: `Bearer ${OTHER}` } }],
  ['HTTP Basic from the key', { method: 'GET', url: `${base}/validate`, headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` } }],
  ['the key in the query string', { method: 'GET', url: `${base}/validate?api_key=${OTHER}`, headers: {} }],
  ['an empty bearer', { method: 'GET', url: `${base}/validate`, headers: { authorization: 'Bearer ' } }],
  ['an empty header value', { method: 'GET', url: `${base}/validate`, headers: { authorization: '' } }],
  [
    'a body full of shell syntax',
    {
      method: 'POST',
      url: `${base}/sites/environments/e/run-wp-cli-command`,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ wp_command: "wp plugin list; rm -rf / && echo $HOME `id` 'q' \"d\" $(x) !! \\ | > <" }),
    },
  ],
  [
    'control characters and Unicode',
    { method: 'PUT', url: `${base}/domains/d/dns-records`, headers: { 'content-type': 'application/json' }, body: 'line1\nline2\ttab\r\u0001\u007f é ✓ 𝄞 \u2028 end' },
  ],
  ['a body without Content-Type', { method: 'POST', url: `${base}/sites/cdn/clear-cache`, headers: {}, body: '{"environment_id":1}' }],
  ['GET with a body (themes)', { method: 'GET', url: `${base}/sites/environments/e/wp-themes`, headers: { 'content-type': 'application/json' }, body: '{"status":"active","column":"name"}' }],
  ['an empty body', { method: 'POST', url: `${base}/x`, headers: { 'content-type': 'application/json' }, body: '' }],
  ['braces in the URL', { method: 'GET', url: `${base}/sites/%7Bsite_id%7D/{x}[1]`, headers: {} }],
  ['a DELETE', { method: 'DELETE', url: `${base}/sites/environments/additional-sftp-accounts/abc`, headers: { authorization: `bearer ${KEY}` } }],
  [
    'a secret field in the body (a site reset)',
    { method: 'POST', url: `${base}/sites/s/reset-site`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ admin_password: ADMIN }) },
  ],
];

describe('curlFor', () => {
  it.each(cases)('%s: bash reproduces the request', (_, request) => {
    const line = curlFor(request, secrets);
    expect(line).not.toContain('\n');
    expect(line).not.toContain(KEY);
    expect(line).not.toContain(OTHER);
    expect(line).not.toContain(Buffer.from(`${KEY}:`).toString('base64'));
    expect(line).not.toContain(ADMIN);
    const argv = argvOf(line);
    expect(requestOf(argv)).toEqual(request);
  });

  it('writes the keys as their variables, inside double quotes', () => {
    const line = curlFor(cases[0]![1], secrets);
    expect(line).toContain('"$HSC_API_KEY"');
    expect(curlFor(cases[2]![1], secrets)).toContain('"$HSC_OTHER_API_KEY"');
    expect(curlFor(cases.at(-1)![1], secrets)).toContain('"$HSC_ADMIN_PASSWORD"');
  });

  it('a line the sanitizer would still change is withheld: hiding a secret inside shell quoting could end a quote early', () => {
    // A hostile target serves a record name with a quote, and a "password" equal to how the
    // line quotes it: hiding the password in the finished line would leave `'Y;touch …` unquoted.
    const request: ProbeRequest = { method: 'PUT', url: `${base}/domains/d/dns-records`, headers: {}, body: JSON.stringify({ name: "zzzzzzzz'Y;touch /tmp/pwned;#.example.com" }) };
    const hostile = secrets.with([fieldSecret("zzzzzzzz'\\'", 'sftp_password')]);
    expect(curlFor(request, secrets)).toContain("zzzzzzzz'\\''Y;touch"); // quoted as usual without it
    expect(curlFor(request, hostile)).toBe(CURL_WITHHELD);
    // One too short to be searched for is never replaced inside the line: it stays quoted as usual.
    expect(curlFor(request, secrets.with([fieldSecret("zz'\\'", 'sftp_password')]))).toContain("zzzzzzzz'\\''Y;touch");
  });

  it('a secret in a form the shell cannot rebuild becomes the marker', () => {
    const line = curlFor({ method: 'GET', url: `${base}/validate`, headers: { 'x-echo': KEY.toUpperCase() } }, secrets);
    expect(line).toContain('[redacted HSC_API_KEY]');
    expect(line.toLowerCase()).not.toContain(KEY.toLowerCase());
  });

  it.each(['', 'plain', "it's", 'a\nb', '$HOME', '!event', '\\', "'", '\u0001x', '\u0085 \u2029'])('shellQuote(%j) is one word that expands to itself', (text) => {
    const out = bash(`printf '%s' ${shellQuote(text)}`);
    expect(out).toBe(text);
  });
});
