/**
 * Secrets by structure, as a property over real sockets: a loopback server serves a secret (a
 * word of the report's own vocabulary, 1 to 8 characters, or a random one) as the SFTP password
 * in one of the layouts a careless server uses (JSON, an escaped key, form encoding, HTML
 * escaping, JSON inside a string, a duplicate key) and echoes it in free text; the transport, the
 * runner and every reporter (GitHub's job summary too) handle it. Always: every reporter renders,
 * the JSON parses with its own keys, the JUnit is well formed, and the secret's place as a value
 * shows the marker. A secret the sanitizer searches for appears nowhere; one it cannot (too
 * short, or the report's own words) is named in a note instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySecret, Sanitizer } from '../../sanitize/sanitizer.ts';
import { endpoint } from '../../spec/queries.ts';
import { createTransport } from '../http.ts';
import { runConformance } from '../runner.ts';
import type { Check, Probe, Target } from '../types.ts';
import { renderConsole } from './console.ts';
import { renderGithub } from './github.ts';
import { renderJobSummary } from './job-summary.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { wellFormed } from './well-formed.ts';

const KEY = 'hsc_struct_q8Zr2LmXw0';
const ENV = '11111111-2222-4333-8444-555555555555';

/** Layouts of an answer that serves `secret` as the SFTP password, written by hand (never by the code under test). */
const layouts: Readonly<Record<string, { readonly type: string; readonly body: (secret: string) => string }>> = {
  json: { type: 'application/json', body: (s) => JSON.stringify({ environment: { id: ENV, sftp_password: s } }) },
  'escaped key': { type: 'application/json', body: (s) => `{"environment":{"id":"${ENV}","sftp\\u005fpassword":${JSON.stringify(s)}}}` },
  'form-encoded': { type: 'application/x-www-form-urlencoded', body: (s) => `environment[id]=${ENV}&environment[sftp_password]=${encodeURIComponent(s)}` },
  'HTML-escaped': { type: 'text/html', body: (s) => JSON.stringify({ environment: { id: ENV, sftp_password: s } }).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;') },
  'nested JSON': { type: 'application/json', body: (s) => JSON.stringify({ environment: { id: ENV }, debug: JSON.stringify({ sftp_password: s }) }) },
  'duplicate key': { type: 'application/json', body: (s) => `{"environment":{"id":"${ENV}","sftp_password":${JSON.stringify(s)},"sftp_password":"decoy-value-Qz81"}}` },
};

/** What the server serves now: the password endpoint in a layout; every other request a 500 whose message echoes the secret. */
let serving = { secret: 'x', layout: 'json' };
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const { secret, layout } = serving;
    if (req.url?.endsWith('/ssh/password')) {
      const { type, body } = layouts[layout]!;
      res.writeHead(200, { 'content-type': type }).end(body(secret));
    } else res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `failed for ${secret}`, status: 500 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = (): Target => ({
  baseUrl,
  main: { apiKey: KEY, ids: { companyId: 'c', siteId: 's', envIds: [ENV], envId: ENV, sftpAccountIds: [] } },
  allowDestructive: false,
  embedded: false,
});

const probeOf = (name: string, path: string): Probe => ({
  rule: 'AUTH-401',
  endpoint: endpoint(name),
  expect: 'unauthorized',
  title: name,
  request: { method: 'GET', url: `${baseUrl}${path}`, headers: { authorization: `Bearer ${KEY}` } },
});

/** Fails every answer, quoting what the suite kept of it, as a careless check might. */
const quoting: Check = {
  rule: 'AUTH-401',
  applies: (e) => e.response !== undefined,
  check: (_, e) => ({ title: 'answered', message: `kept: ${e.response!.text} json: ${JSON.stringify(e.response!.json ?? null)}` }),
};

/** Words of the report's own text: a rendered report's keys and the words of its console form. */
async function reportWords(): Promise<string[]> {
  const report = await run();
  const words = new Set<string>();
  JSON.stringify(report).replace(/"([A-Za-z]+)":/g, (_, k: string) => (words.add(k), ''));
  for (const w of renderConsole(report).split(/[^A-Za-z]+/)) if (w.length >= 3) words.add(w);
  return [...words];
}

async function run() {
  const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY')]);
  const send = createTransport({ timeoutMs: 5_000, sanitizer });
  try {
    const report = await runConformance({
      target: target(),
      seed: 1,
      runs: 1,
      options: { strict: false },
      send,
      sanitizer,
      suite: { checks: [quoting], probeSources: [() => ({ probes: [probeOf('getSftpPassword', `/sites/environments/${ENV}/ssh/password`), probeOf('getSite', '/sites/s')], skipped: [] })], scenarioSources: [] },
    });
    return Object.assign(report, { unsearched: sanitizer.unsearched.map((u) => u.secret.value) });
  } finally {
    await send.close();
  }
}

describe('a served secret, by structure, whatever it is and however it is laid out', () => {
  it('every reporter survives it, its place as a value shows the marker, and free text hides it or a note says why not', async () => {
    const vocabulary = await reportWords();
    expect(vocabulary).toEqual(expect.arrayContaining(['failures', 'warnings', 'coverage', 'operation', 'specVersion']));
    const secretArb = fc.oneof(
      fc.constantFrom(...vocabulary),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }),
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 12, maxLength: 24 }),
    );
    await fc.assert(
      fc.asyncProperty(secretArb, fc.constantFrom(...Object.keys(layouts)), async (secret, layout) => {
        fc.pre(secret.trim() !== '');
        serving = { secret, layout };
        const report = await run();
        const outputs = { console: renderConsole(report), json: renderJson(report), junit: renderJunit(report), github: renderGithub(report), 'job summary': renderJobSummary(report) };
        const json = JSON.parse(outputs.json) as Record<string, unknown>;
        expect(Object.keys(json)).toEqual(expect.arrayContaining(['ok', 'summary', 'checks', 'coverage', 'failures', 'notes', 'specVersion']));
        expect(wellFormed(outputs.junit)).toEqual([]);
        expect(outputs.console).toMatch(/✗ does not conform/);
        const kept = report.failures.find((f) => f.operation.endsWith('/ssh/password'))!.response!.text;
        expect(kept).toMatch(/^\[body withheld: this endpoint serves a secret; \d+ bytes, Content-Type [^,]+, keyed hash hmac-sha256:[0-9a-f]{16}; /);
        if (layout === 'json' || layout === 'escaped key' || layout === 'duplicate key') expect(kept).toContain('"sftp_password":"[redacted]"');
        if (layout === 'nested JSON') expect(kept).toContain('\\"sftp_password\\":\\"[redacted]\\"');
        if (report.unsearched.includes(secret)) {
          expect(report.notes.join('\n')).toMatch(/^secrets: .*HSC_SFTP_PASSWORD: (shorter than 8 characters|found in the suite's own text)/m);
        } else {
          for (const [format, text] of Object.entries(outputs)) expect(text.toLowerCase().includes(secret.toLowerCase()), `${format} holds the secret`).toBe(false);
        }
      }),
      { seed: 1106, numRuns: 60 },
    );
  }, 120_000);
});
