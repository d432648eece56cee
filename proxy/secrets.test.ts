/**
 * The proxy's hostile rows on secrets, over real loopback sockets: a key learned as its request
 * head arrives (another client's answer may echo it while it is held), passwords in answers the
 * judge cannot read (coded unasked, past the cap, broken off, in a coding this Node lacks, with a
 * 429), headers named like keys that are none, a key table filled on purpose, `?` folded into a
 * header, a zero-width character, and the request target forwarded byte for byte. Each asserts
 * that no byte of stderr, the reports or any header sent to a client holds the secret, that a
 * marker or a withheld note stands where it was printed, and that the run ends with its report.
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../mock/listen.ts';
import { PROBLEM_HEADER } from './server.ts';
import { throughProxy, type ProxyRun } from './test-kit.ts';

const SEED = Number(process.env.HSC_SEED ?? 29_2929);
const SITE = '/sites/0b6f1d1e-6a39-4c3e-9d1a-2f0c1a2b3c4d';
/** GET /sites/environments/{env_id}/ssh/password: the endpoint that serves the SFTP password. */
const PASSWORD_PATH = '/sites/environments/5d1c6e0a-1b2c-4d3e-8f90-a1b2c3d4e5f6/ssh/password';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))));
});

/** A loopback target answering with `handle`; its base URL ends in /v2. */
async function target(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  return listen(server);
}

/** A 404 whose `status` holds `echo`: the judge quotes it in its reason (`status` is "…"), so the line and report print it. */
const echo404 = (res: ServerResponse, echo: string) => {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message: 'Site not found', status: echo }));
};

/** Every form of a secret a careless tool prints, searched in every byte the run wrote or sent a client. */
function leaks(texts: Readonly<Record<string, string>>, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    const forms = [secret, secret.toUpperCase(), encodeURIComponent(secret), Buffer.from(secret).toString('base64'), JSON.stringify(secret).slice(1, -1)];
    for (const [where, text] of Object.entries(texts)) for (const form of forms) if (text.includes(form)) found.push(`${form.slice(0, 4)}… in ${where}`);
  }
  return found;
}

const written = (run: ProxyRun, headers: readonly string[] = []) => ({ stderr: run.stderr, stdout: run.stdout, ...Object.fromEntries(headers.map((h, i) => [`${PROBLEM_HEADER} #${i}`, h])) });

describe('two clients at once: a key is learned as its request arrives, before another answer can echo it', () => {
  it('each key echoed in the other client’s answer, at a random moment while its own request is held: never shown', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom(...'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.~'), minLength: 16, maxLength: 40 }),
        fc.string({ unit: fc.constantFrom(...'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.~'), minLength: 16, maxLength: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        async (keyA, keyB, delayA, delayB) => {
          fc.pre(keyA !== keyB && !keyA.includes(keyB) && !keyB.includes(keyA));
          // Each request is held until both have arrived; then each answer echoes the other's key, after its own delay.
          const held: { key: string; res: ServerResponse }[] = [];
          const url = await target((req, res) => {
            held.push({ key: String(req.headers.authorization).slice('Bearer '.length), res });
            if (held.length < 2) return;
            const [a, b] = held as [{ key: string; res: ServerResponse }, { key: string; res: ServerResponse }];
            setTimeout(() => echo404(a.res, b.key), delayA);
            setTimeout(() => echo404(b.res, a.key), delayB);
          });
          const notes: string[] = [];
          const run = await throughProxy(url, ['--annotate'], async (proxy) => {
            const ask = async (key: string) => {
              const res = await request(`${proxy}${SITE}`, { headers: { authorization: `Bearer ${key}` } });
              notes.push(String(res.headers[PROBLEM_HEADER] ?? ''));
              await res.body.dump();
            };
            const first = ask(keyA);
            await new Promise((resolve) => setTimeout(resolve, 5));
            await Promise.all([first, ask(keyB)]);
          });
          expect(run.report.exchanges).toBe(2);
          expect(leaks(written(run, notes), [keyA, keyB])).toEqual([]);
          // The echoes were printed: hidden by the markers, not left out.
          expect(run.stderr.match(/\[redacted CLIENT_API_KEY\]/g)?.length).toBe(2);
          expect(notes.every((n) => n.includes('[redacted CLIENT_API_KEY]'))).toBe(true);
        },
      ),
      { seed: SEED, numRuns: 12 },
    );
  });
});

describe('bodies still passing are read as far as they came before anything is printed', () => {
  const password = 'Streaming-Pw-5tR9qL2x';
  it.each(['the request', 'the answer'] as const)('a password in %s of a held exchange, echoed in another client’s answer: hidden', async (side) => {
    let partSeen!: () => void;
    const seen = new Promise<void>((resolve) => (partSeen = resolve));
    let releaseA!: () => void;
    const released = new Promise<void>((resolve) => (releaseA = resolve));
    const url = await target((req, res) => {
      if (req.headers['x-client'] === 'B') return echo404(res, `password ${password}`);
      if (side === 'the request') {
        req.once('data', () => partSeen());
        void released.then(() => echo404(res, 'done'));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"environment":{"id":"e1","sftp_password":"${password}",`, () => partSeen());
      void released.then(() => res.end('"note":"x"}}'));
    });
    const notes: string[] = [];
    const run = await throughProxy(url, ['--annotate'], async (proxy) => {
      const { port } = new URL(proxy);
      const a = new Promise<void>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, method: side === 'the request' ? 'POST' : 'GET', path: side === 'the request' ? '/v2/sites/environments/5d1c6e0a-1b2c-4d3e-8f90-a1b2c3d4e5f6/additional-sftp-accounts' : `/v2${PASSWORD_PATH}`, headers: { authorization: 'Bearer key-of-client-A-0123', ...(side === 'the request' ? { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } : {}) } }, (res) => (res.resume(), res.on('end', resolve)));
        req.on('error', () => resolve());
        if (side === 'the request') req.write(`{"sftp_password":"${password}",`);
        void released.then(() => req.end(side === 'the request' ? '"name":"x"}' : undefined));
        if (side === 'the answer') req.end();
      });
      await seen;
      const b = await request(`${proxy}${SITE}`, { headers: { authorization: 'Bearer key-of-client-B-0123', 'x-client': 'B' } });
      notes.push(String(b.headers[PROBLEM_HEADER] ?? ''));
      await b.body.dump();
      releaseA();
      await a;
    });
    expect(run.report.exchanges).toBe(2);
    expect(leaks(written(run, notes), [password])).toEqual([]);
    expect(notes[0]).toMatch(/`status` is "password \[redacted\]"/);
  });
});

describe('every conventional way a key is carried is learned', () => {
  const key = 'carried-key-8Jm3Qz7Wp';
  it.each([
    ['Authorization: Token token="K"', { authorization: `Token token="${key}"` }, ''],
    ['Authorization: ApiKey key=K, realm=x', { authorization: `ApiKey key=${key}, realm=x` }, ''],
    ['a quoted cookie', { cookie: `theme=dark; api_key="${key}"` }, ''],
    ['a sessionid cookie', { cookie: `sessionid=${key}` }, ''],
    ['X-Auth-Key', { 'x-auth-key': key }, ''],
    ['X-Api-Secret', { 'x-api-secret': key }, ''],
    ['Private-Token', { 'private-token': key }, ''],
    ['?x_api_key=', {}, `?x_api_key=${key}`],
    ['a `;`-separated query', {}, `?page=1;access_token=${key}`],
  ] as const)('%s', async (_, headers, query) => {
    const url = await target((_req, res) => echo404(res, `key ${key}`));
    const notes: string[] = [];
    const run = await throughProxy(url, ['--annotate'], async (proxy) => {
      const res = await request(`${proxy}${SITE}${query}`, { headers });
      notes.push(String(res.headers[PROBLEM_HEADER] ?? ''));
      await res.body.dump();
    });
    expect(leaks(written(run, notes), [key])).toEqual([]);
    expect(run.stderr).toContain('[redacted CLIENT_API_KEY]');
  });
});

/** Node's zstd, where it has one (22.15 on). */
const zstd = (zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;

/** A served password the judge cannot read as JSON, then echoed in a 404 the judge quotes. */
const PASSWORD = 'Served-Pw7-qX2zR9kL-unread';
const passwordJson = (padding = 0) => JSON.stringify({ environment: { id: 'e1', sftp_password: PASSWORD, padding: 'A'.repeat(padding) } });

const unreadable: readonly { name: string; args?: readonly string[]; serve: (res: ServerResponse) => void; shown: 'marker' | 'withheld' }[] = [
  { name: 'gzip-coded though the client did not ask', serve: (res) => (res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }), res.end(gzipSync(passwordJson()))), shown: 'marker' },
  {
    name: 'gzip-coded and cut after the password',
    serve: (res) => {
      // Padding that does not compress, so the stream is long and the cut falls well past the password.
      const coded = gzipSync(JSON.stringify({ environment: { sftp_password: PASSWORD, padding: randomBytes(6000).toString('base64') } }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': coded.length });
      res.write(coded.subarray(0, coded.length >> 1), () => res.destroy());
    },
    shown: 'marker',
  },
  { name: 'br-coded though the client did not ask', serve: (res) => (res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }), res.end(brotliCompressSync(passwordJson(3000)))), shown: 'marker' },
  { name: 'past --max-body-kb, the password at its end', args: ['--max-body-kb', '1'], serve: (res) => (res.writeHead(200, { 'content-type': 'application/json' }), res.end(JSON.stringify({ padding: 'A'.repeat(8000), sftp_password: PASSWORD }))), shown: 'marker' },
  {
    name: 'broken off after the password',
    serve: (res) => {
      const body = passwordJson(100);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length + 500 });
      res.write(body.slice(0, body.indexOf(PASSWORD) + PASSWORD.length + 5), () => res.destroy());
    },
    shown: 'marker',
  },
  { name: 'with a 429 (not judged)', serve: (res) => (res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }), res.end(JSON.stringify({ message: 'slow down', status: 429, data: { sftp_password: PASSWORD } }))), shown: 'marker' },
  {
    name: 'zstd-coded',
    // Where Node decodes zstd the password is learned; Node 20 does not: bytes that are no text cannot be read, so from then on the proxy withholds.
    serve: (res) => (res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }), res.end(zstd ? zstd(Buffer.from(passwordJson())) : Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), randomBytes(64)]))),
    shown: zstd ? 'marker' : 'withheld',
  },
  {
    name: 'in a coding no Node decodes (compress), bytes that are no text',
    serve: (res) => (res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' }), res.end(Buffer.concat([Buffer.from([0x1f, 0x9d, 0x90]), randomBytes(64)]))),
    shown: 'withheld',
  },
];

describe('a password in an answer the judge cannot read: learned from its bytes, or everything after withheld', () => {
  it.each(unreadable)('$name', async ({ args, serve, shown }) => {
    const url = await target((req, res) => (req.url?.endsWith('/ssh/password') ? serve(res) : echo404(res, `bad password ${PASSWORD}`)));
    const notes: string[] = [];
    const run = await throughProxy(url, ['--annotate', ...(args ?? [])], async (proxy) => {
      for (const path of [PASSWORD_PATH, SITE]) {
        try {
          const res = await request(`${proxy}${path}`, { headers: { authorization: 'Bearer key-of-the-client-0123' } });
          notes.push(String(res.headers[PROBLEM_HEADER] ?? ''));
          await res.body.dump();
        } catch {
          // the broken-off answer breaks the client's too
        }
      }
    });
    expect(run.report.exchanges).toBe(2);
    expect(leaks(written(run, notes), [PASSWORD])).toEqual([]);
    if (shown === 'marker') {
      expect(run.stderr).toMatch(/`status` is "bad password \[redacted\]"/);
      expect(run.report.withheld).toBeUndefined();
    } else {
      expect(run.stderr).toMatch(/could not be read for secrets/);
      expect(run.stderr).toMatch(/✗ GET \/sites\/\{site_id\} → 404 .*: server ERR-BODY: \[withheld\]/);
      expect(run.report.withheld).toMatchObject({ exchanges: expect.any(Number) });
    }
  });

  it('a password with zero-width characters inside, echoed without them: hidden', async () => {
    const password = 'Zero\u200bWidth\u200dPass\u2060word-12';
    const visible = password.replace(/[\u200b\u200d\u2060]/g, '');
    const url = await target((req, res) =>
      req.url?.endsWith('/ssh/password') ? (res.writeHead(200, { 'content-type': 'application/json' }), res.end(JSON.stringify({ environment: { id: 'e1', sftp_password: password } }))) : echo404(res, `bad password ${visible}`),
    );
    const run = await throughProxy(url, [], async (proxy) => {
      for (const path of [PASSWORD_PATH, SITE]) await (await request(`${proxy}${path}`, { headers: { authorization: 'Bearer key-of-the-client-0123' } })).body.dump();
    });
    expect(leaks(written(run), [visible, password])).toEqual([]);
    expect(run.stderr).toMatch(/`status` is "bad password \[redacted\]"/);
  });
});

describe('the key table: only credentials fill it, and a full one withholds rather than stops', () => {
  it('a new Idempotency-Key and session-free cookie per request fill nothing: a second key echoed later is hidden, every line printed', async () => {
    const other = 'second-client-key-7Hq2Lm9';
    const url = await target((req, res) => echo404(res, req.headers['x-echo'] ? `key ${other}` : 'nothing'));
    const requests = 1_100;
    const run = await throughProxy(url, [], async (proxy) => {
      for (let i = 0; i < requests; i++) {
        const res = await request(`${proxy}${SITE}`, { headers: { authorization: 'Bearer the-one-client-key-0123', 'idempotency-key': `idem-${i}-${'x'.repeat(12)}`, cookie: `theme=t${i}; lang=en` } });
        await res.body.dump();
      }
      await (await request(`${proxy}${SITE}`, { headers: { authorization: `Bearer ${other}` } })).body.dump();
      await (await request(`${proxy}${SITE}`, { headers: { authorization: 'Bearer the-one-client-key-0123', 'x-echo': '1' } })).body.dump();
    });
    expect(run.report.exchanges).toBe(requests + 2);
    expect(leaks(written(run), [other])).toEqual([]);
    expect(run.report.withheld).toBeUndefined();
    // One line per exchange with a problem (every 404 here has one): none stopped.
    expect(run.stderr.split('\n').filter((l) => l.startsWith('✗ GET')).length).toBe(requests + 2);
    expect(run.stderr).toMatch(/`status` is "key \[redacted CLIENT_API_KEY\]"/);
  });

  it('more distinct keys than it learns: lines go on with the details withheld, and the report says so', async () => {
    const url = await target((req, res) => echo404(res, `key ${String(req.headers.authorization).slice(7)}`));
    // The table's bound made small (a test seam): a thousand keys rebuild the matcher a thousand times.
    const keys = Array.from({ length: 30 }, (_, i) => `client-key-${String(i).padStart(5, '0')}-Zq`);
    const run = await throughProxy(url, [], { maxKeys: 20 }, async (proxy) => {
      for (const key of keys) await (await request(`${proxy}${SITE}`, { headers: { authorization: `Bearer ${key}` } })).body.dump();
    });
    expect(leaks(written(run), keys)).toEqual([]);
    const lines = run.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('✗ GET')).length).toBe(keys.length);
    expect(lines.some((l) => /more than 20 distinct credentials seen/.test(l))).toBe(true);
    expect(lines.filter((l) => l.includes('[withheld]')).length).toBeGreaterThan(0);
    expect(run.report.withheld?.exchanges).toBeGreaterThan(0);
  });
});

describe('what the proxy adds and forwards', () => {
  it('--annotate folds to ASCII before its last sanitizing: a key with `?`, echoed with `é` there, never lands in the header', async () => {
    const key = 'key?with?marks-0123456789';
    const url = await target((_req, res) => echo404(res, key.replace(/\?/g, 'é')));
    const notes: string[] = [];
    const run = await throughProxy(url, ['--annotate'], async (proxy) => {
      const res = await request(`${proxy}${SITE}`, { headers: { authorization: `Bearer ${key}` } });
      notes.push(String(res.headers[PROBLEM_HEADER] ?? ''));
      await res.body.dump();
    });
    expect(notes[0]).toMatch(/^[\x20-\x7e]+$/);
    expect(notes[0]).toContain('[redacted CLIENT_API_KEY]');
    expect(leaks({ header: notes[0]! }, [key])).toEqual([]);
    expect(run.report.exchanges).toBe(1);
  });

  it.each([
    ['dot segments', `/v2/sites/../sites/./x/..${SITE.slice('/sites'.length)}`],
    ['a back-slash', `/v2\\sites${SITE.slice('/sites'.length)}`],
    ['a leading //', `//v2${SITE}`],
    ['the absolute form', `http://other.example/v2${SITE}`],
  ])('a request target with %s is forwarded byte for byte, and judged on neither side', async (_, path) => {
    let got: string | undefined;
    const url = await target((req, res) => ((got = req.url), echo404(res, 'nothing')));
    const run = await throughProxy(url, [], async (proxy) => {
      const { port } = new URL(proxy);
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers: { authorization: 'Bearer key-of-the-client-0123' } }, (res) => (res.resume(), res.on('end', resolve)));
        req.on('error', reject);
        req.end();
      });
    });
    // Forwarded under the target's root as written (`/` added before a target that does not begin with one).
    expect(got).toBe(path.startsWith('/') ? path : `/${path}`);
    expect(run.report.notJudged).toEqual({ target: 1 });
    expect(run.report.problems).toEqual([]);
  });

  it('a stop with an exchange in flight names it in the proxy’s own words', async () => {
    const url = await target(() => undefined); // never answers
    const run = await throughProxy(url, [], async (proxy) => {
      void request(`${proxy}${SITE}`, { headers: { authorization: 'Bearer key-of-the-client-0123' } }).then((r) => r.body.dump(), () => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    expect(Object.keys(run.report.failures)).toEqual(['the proxy stopped before the answer was complete']);
    expect(run.stderr).not.toMatch(/UND_ERR/);
  });
});
