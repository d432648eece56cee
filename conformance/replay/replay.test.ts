/**
 * Record and replay over real sockets: a run against a faulty mock records its failing exchanges
 * as HAR 1.2 (valid under the HAR schema, har-schema 2.0.0, ISC, beside this file), holding no
 * key; replayed against the same fault they still fail (exit 1), against a conformant mock they
 * are fixed (exit 0); a placeholder whose variable is unset, or a tampered one, is not judged,
 * never sent wrong or run; a STATE-* failure is recorded as its sequence, with its pauses.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Ajv from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { runConform } from '../cli.ts';
import { api } from '../../spec/api.ts';
import { Sanitizer } from '../../sanitize/sanitizer.ts';
import { MAX_RECORDED_EXCHANGES } from '../flags.ts';
import type { Exchange, Report } from '../types.ts';
import { ExchangeRecorder, type Har } from './har.ts';
import { runReplay } from './cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'hsc-replay-'));
const schemaDir = new URL('./har-schema/', import.meta.url);
const ajv = new Ajv.default({ allErrors: true, strict: false });
ajv.addMetaSchema(draft6);
for (const name of readdirSync(schemaDir).filter((n) => n.endsWith('.json'))) ajv.addSchema(JSON.parse(readFileSync(new URL(name, schemaDir), 'utf8')) as object);
const validHar = ajv.getSchema('har.json#')!;

const FAULT = 'error-body-without-message';
const sink = (add: (t: string) => void = () => undefined) => new Writable({ write: (c: Buffer, _e, done) => (add(c.toString('utf8')), done()) });
let faulty: RunningMock;
let sound: RunningMock;
let keys: NodeJS.ProcessEnv;

async function record(target: RunningMock, file: string, only: string, ...more: string[]): Promise<Har> {
  const code = await runConform(['--base-url', target.url, '--site-id', target.fixtures.siteId, '--only', only, '--runs', '5', ...more, '--record', file, '--reporter', 'json'], { stdout: sink(), stderr: sink(), env: { HSC_API_KEY: target.fixtures.apiKey, HSC_OTHER_API_KEY: target.fixtures.otherApiKey } });
  expect(code).toBe(1);
  return JSON.parse(readFileSync(file, 'utf8')) as Har;
}

async function replay(args: readonly string[], env: NodeJS.ProcessEnv = keys): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runReplay(args, { stdout: sink((t) => (out += t)), stderr: sink((t) => (out += t)), env });
  return { code, out };
}

const recorded = join(dir, 'failures.har');
let har: Har;
beforeAll(async () => {
  faulty = await startMock({ port: 0, variant: FAULT });
  sound = await startMock({ port: 0 });
  keys = { HSC_API_KEY: faulty.fixtures.apiKey, HSC_OTHER_API_KEY: faulty.fixtures.otherApiKey };
  har = await record(faulty, recorded, 'ERR-BODY');
}, 120_000);
afterAll(async () => {
  await faulty?.close();
  await sound?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('conform --record', () => {
  it('writes HAR 1.2 a HAR validator accepts, one entry per failing exchange', () => {
    expect(validHar(har), JSON.stringify(validHar.errors)).toBe(true);
    expect(har.log.entries.length).toBeGreaterThan(0);
    for (const e of har.log.entries) expect(e._hostedSiteContract.rules).toContain('ERR-BODY');
  });

  it('holds no key: each is a placeholder the environment fills', () => {
    const text = readFileSync(recorded, 'utf8');
    for (const key of [faulty.fixtures.apiKey, faulty.fixtures.otherApiKey]) expect(text).not.toContain(key);
    expect(text).toMatch(/\$\{HSC_(OTHER_)?API_KEY/);
  });
});

describe('replay', () => {
  it('against the same fault: each still fails, exit 1', async () => {
    const { code, out } = await replay([recorded, '--base-url', faulty.url]);
    expect(code, out).toBe(1);
    expect(out).toMatch(/^✗ still fails {2}ERR-BODY /m);
    expect(out).not.toMatch(/^✓ fixed/m);
  });

  it('against a conformant server: each fixed, exit 0', async () => {
    const { code, out } = await replay([recorded, '--base-url', sound.url]);
    expect(code, out).toBe(0);
    expect(out.match(/^✓ fixed {2}/gm)?.length).toBe(har.log.entries.length);
    expect(out).toMatch(new RegExp(`${har.log.entries.length} fixed, 0 still failing, 0 not judged`));
  });

  it('a variable left unset: not judged, nothing sent with a wrong key, exit 2', async () => {
    const { code, out } = await replay([recorded, '--base-url', sound.url], { HSC_API_KEY: keys.HSC_API_KEY });
    const needsOther = har.log.entries.some((e) => JSON.stringify(e.request).includes('HSC_OTHER_API_KEY'));
    const needsMain = har.log.entries.some((e) => JSON.stringify(e.request).includes('HSC_API_KEY'));
    expect(needsMain).toBe(true);
    if (needsOther) {
      expect(code).toBe(2);
      expect(out).toMatch(/^\? not judged .*needs the variable HSC_OTHER_API_KEY, which is not set/m);
    }
    const none = await replay([recorded, '--base-url', sound.url], {});
    expect(none.code).toBe(2);
    expect(none.out).toMatch(/needs the variable HSC_(OTHER_)?API_KEY/);
  });

  it('a tampered placeholder is refused, never run', async () => {
    const tampered = structuredClone(har) as unknown as { log: { entries: { request: { headers: { name: string; value: string }[] } }[] } };
    tampered.log.entries[0]!.request.headers = [{ name: 'authorization', value: 'Bearer $(touch /tmp/hsc-pwned)' }];
    const file = join(dir, 'tampered.har');
    writeFileSync(file, JSON.stringify(tampered));
    const { out } = await replay([file, '--base-url', sound.url]);
    expect(out).toMatch(/^\? not judged .*only what hosted-site-contract writes is read/m);
  });

  it('a request the file sends to another host, or with a key in its URL to a non-loopback server, is not sent', async () => {
    const listener = createServer((req, res) => {
      heard.push(`${req.url} ${req.headers.authorization ?? ''}`);
      res.end();
    });
    const heard: string[] = [];
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    try {
      const elsewhere = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/steal`;
      const redirected = structuredClone(har) as unknown as { log: { entries: { request: { url: string } }[] } };
      for (const e of redirected.log.entries) e.request.url = e.request.url.replace(/^http:\/\/[^/]+\/v2/, elsewhere);
      const file = join(dir, 'elsewhere.har');
      writeFileSync(file, JSON.stringify(redirected));
      const { code, out } = await replay([file, '--base-url', sound.url]);
      expect(heard).toEqual([]);
      expect(code).toBe(2);
      expect(out).toMatch(/not under the base URL the file was recorded against: not sent/);

      const inUrl = structuredClone(har) as unknown as { log: { entries: { request: { url: string } }[] } };
      inUrl.log.entries = inUrl.log.entries.slice(0, 1);
      inUrl.log.entries[0]!.request.url += '?api_key=${HSC_API_KEY}';
      const keyFile = join(dir, 'key-in-url.har');
      writeFileSync(keyFile, JSON.stringify(inUrl));
      const far = await replay([keyFile, '--base-url', 'http://192.0.2.1:9/v2']);
      expect(far.code).toBe(2);
      expect(far.out).toMatch(/puts a key in the URL, which access logs keep: not sent to a non-loopback server without --allow-key-in-url/);
    } finally {
      await new Promise((done) => listener.close(done));
    }
  });

  it('an entry edited into something else: one line naming it (usage, exit 2)', async () => {
    const broken = JSON.parse(readFileSync(recorded, 'utf8')) as { log: { entries: unknown[] } };
    broken.log.entries[0] = { request: { method: 'GET', url: 1 } };
    const file = join(dir, 'broken-entry.har');
    writeFileSync(file, JSON.stringify(broken));
    await expect(runReplay([file, '--base-url', sound.url], { stdout: sink(), stderr: sink(), env: keys })).rejects.toThrow(/entries\[0\] is not an entry conform --record writes/);
  });

  it('a server that is not there: not judged, exit 2 (not "still fails")', async () => {
    const { code, out } = await replay([recorded, '--base-url', 'http://127.0.0.1:1/v2']);
    expect(code).toBe(2);
    expect(out).not.toMatch(/still fails/);
  });

  it.each([
    ['no file', [], /replay needs the HAR file/],
    ['no --base-url (keys go only where the user says)', [recorded], /--base-url is required/],
    ['not a recording', ['package.json'], /is not a recording of conform --record/],
    ['a bad base URL', [recorded, '--base-url', 'http://x'], /--base-url must end in \/v2/],

  ])('%s: one line (usage, exit 2)', async (_, args, want) => {
    await expect(runReplay(args, { stdout: sink(), stderr: sink(), env: keys })).rejects.toThrow(want);
  });
});

describe('a STATE-* failure', () => {
  it('is recorded as its sequence, each step with its place and pause; replayed, its steps are judged and the property named not judged', async () => {
    const stateMock = await startMock({ port: 0, variant: 'dns-update-drops-other-values' });
    try {
      const file = join(dir, 'state.har');
      // A live target's DNS records change only with --allow-destructive.
      const state = await record(stateMock, file, 'STATE-DNS-UPDATE', '--allow-destructive');
      expect(validHar(state), JSON.stringify(validHar.errors)).toBe(true);
      const steps = state.log.entries.filter((e) => e._hostedSiteContract.sequence);
      expect(steps.length).toBeGreaterThan(1);
      // Each sequence's steps in order, 1 to its length, the ones after the first with their pauses where the property waited.
      for (const id of new Set(steps.map((e) => e._hostedSiteContract.sequence!.id))) {
        const own = steps.filter((e) => e._hostedSiteContract.sequence!.id === id).map((e) => e._hostedSiteContract.sequence!);
        expect(own.map((q) => q.step)).toEqual(own.map((_, i) => i + 1));
        expect(own.every((q) => q.of === own.length)).toBe(true);
      }
      expect(steps.some((e) => (e._hostedSiteContract.sequence!.afterMs ?? 0) > 0)).toBe(true);
      const { code, out } = await replay([file, '--base-url', stateMock.url], { HSC_API_KEY: stateMock.fixtures.apiKey, HSC_OTHER_API_KEY: stateMock.fixtures.otherApiKey });
      expect(code, out).toBe(2);
      expect(out).toMatch(/^\? not judged {2}STATE-DNS-UPDATE .*\(a sequence of \d+ requests\).*rerun conform --only STATE-DNS-UPDATE --seed \d+/m);
    } finally {
      await stateMock.close();
    }
  }, 120_000);
});

describe('conform --record-all', () => {
  it('records every exchange judged, valid HAR, no key; replayed against the same conformant server, each passes', async () => {
    const file = join(dir, 'all.har');
    const code = await runConform(['--base-url', sound.url, '--site-id', sound.fixtures.siteId, '--only', 'AUTH-401', '--runs', '3', '--record', file, '--record-all', '--reporter', 'json'], { stdout: sink(), stderr: sink(), env: { HSC_API_KEY: sound.fixtures.apiKey } });
    expect(code).toBe(0);
    const all = JSON.parse(readFileSync(file, 'utf8')) as Har;
    expect(validHar(all), JSON.stringify(validHar.errors)).toBe(true);
    expect(all.log.entries.length).toBeGreaterThan(20);
    expect(readFileSync(file, 'utf8')).not.toContain(sound.fixtures.apiKey);
    // A password the run chose for a request is a secret field too: replay reads it from HSC_<FIELD>, any valid value.
    const needs = new Set([...readFileSync(file, 'utf8').matchAll(/\$\{(HSC_[A-Z_]+)/g)].map((m) => m[1]!));
    expect([...needs].sort()).toEqual(['HSC_ADMIN_PASSWORD', 'HSC_API_KEY']);
    const { code: replayed, out } = await replay([file, '--base-url', sound.url], { HSC_API_KEY: sound.fixtures.apiKey, HSC_ADMIN_PASSWORD: 'Replayed-Passw0rd!' });
    expect(out).not.toMatch(/^✗ fails/m);
    expect(out).toMatch(/^✓ passes {2}AUTH-401 /m);
    expect(replayed, out.split('\n').filter((l) => l.startsWith('?')).slice(0, 3).join('\n')).toBe(0);
    expect(out).toMatch(/replay of \d+ recorded exchanges against .*: \d+ pass, 0 fail, 0 not judged/);
  }, 120_000);

  it('--record-all alone is a usage error', async () => {
    await expect(runConform(['--record-all'], { stdout: sink(), stderr: sink(), env: {} })).rejects.toThrow(/--record-all needs --record FILE/);
  });
});

describe('the recorder of --record-all, at its bound', () => {
  it(`keeps the first ${MAX_RECORDED_EXCHANGES} exchanges, counts the rest, and the file says how many were left out`, () => {
    const recorder = new ExchangeRecorder(new Sanitizer(), 7);
    const endpoint = api.endpoints.find((e) => e.name === 'validateApiKey')!;
    const exchange = (i: number): Exchange => ({
      probe: { rule: 'AUTH-401', endpoint, expect: 'observe', title: `probe ${i}`, request: { method: 'GET', url: 'http://127.0.0.1:1/v2/validate', headers: {} } },
      response: { status: 200, headers: {}, text: 'x'.repeat(20_000), ms: 1 },
      throttled: 0,
    });
    for (let i = 0; i < MAX_RECORDED_EXCHANGES + 3; i++) recorder.add(exchange(i));
    expect(recorder.entries).toHaveLength(MAX_RECORDED_EXCHANGES);
    expect(recorder.dropped).toBe(3);
    // Each answer clipped, so the file stays bounded too.
    expect(recorder.entries[0]!.response.content.text!.length).toBeLessThan(20_000);
    const har = recorder.har({ target: 'http://127.0.0.1:1/v2', specVersion: '1.106.0', seed: 7 } as Report);
    expect(har.log.comment).toMatch(new RegExp(`but 3 past the first ${MAX_RECORDED_EXCHANGES}`));
  });
});
