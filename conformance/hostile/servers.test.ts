/**
 * The hostile servers on the wire, read with a raw TCP client (no HTTP library to smooth what
 * they send over): each behaviour does what its row says, under both scopes, so a failing row of
 * hostile.test.ts is the suite's failure and not the harness's.
 */
import { connect } from 'node:net';
import { createGunzip, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { endpoint, fillPath } from '../../spec/queries.ts';
import {
  behaviours,
  DECOY_PASSWORD,
  DEEP_JSON_LEVELS,
  ECHO_KEY,
  ONE_CHARACTER_KEY,
  ONE_SCOPE,
  SHARP_S_KEY,
  WORD_PASSWORDS,
  FLOOD_PER_ANSWER,
  injectedRecordName,
  injectionMarker,
  GZIP_BOMB_BYTES,
  HUGE_BODY_BYTES,
  HUGE_PASSWORD_BYTES,
  OTHER_HOST,
  phpJsonEscape,
  startHostile,
  THROTTLE_RETRY_AFTER_S,
  type Behaviour,
  type HostileServer,
  type Scope,
  CAP_CUT_KEPT,
  UNKNOWN_CODING_MAGIC,
  visibleOf,
  zeroWidthPassword,
} from './servers.ts';

/** What came back on one connection within the wait. */
interface Wire {
  readonly bytes: Buffer;
  /** The server ended or closed the connection. */
  readonly closed: boolean;
  /** The socket error, e.g. ECONNRESET. */
  readonly error?: string;
  readonly ms: number;
}

interface Head {
  readonly status: number;
  /** Lowercased names, values as sent (Latin-1), repeats kept. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

interface ExchangeOptions {
  /** Give up (and close) after this long. */
  readonly waitMs: number;
  /** Stop once this many bytes came. */
  readonly maxBytes?: number;
  /** The Authorization header; default the server's key as a bearer token. */
  readonly authorization?: string | null;
}

/** One GET on a fresh connection, `Connection: close`; headers written as Latin-1, as HTTP clients do. */
function exchange(server: HostileServer, path: string, options: ExchangeOptions): Promise<Wire> {
  const base = new URL(server.url);
  const authorization = options.authorization === undefined ? `Bearer ${server.apiKey}` : options.authorization;
  const request = [
    `GET ${base.pathname}${path} HTTP/1.1`,
    `Host: ${base.host}`,
    'Accept: application/json',
    ...(authorization === null ? [] : [`Authorization: ${authorization}`]),
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let error: string | undefined;
    let settled = false;
    const socket = connect({ host: base.hostname, port: Number(base.port) });
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed, ...(error ? { error } : {}), ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), options.waitMs);
    socket.on('connect', () => socket.write(request, 'latin1'));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (options.maxBytes !== undefined && size >= options.maxBytes) finish(false);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => finish(true));
  });
}

function parseHead(bytes: Buffer): Head | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!status) return undefined;
  const headers = lines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
  });
  return { status: Number(status[1]), headers, body: bytes.subarray(end + 4) };
}

const header = (head: Head, name: string): string[] => head.headers.filter(([n]) => n === name).map(([, v]) => v);

function mustParse(wire: Wire): Head {
  const head = parseHead(wire.bytes);
  if (!head) throw new Error(`no HTTP head in ${wire.bytes.length} bytes: ${JSON.stringify(wire.bytes.subarray(0, 80).toString('latin1'))}`);
  return head;
}

/** A complete, ordinary JSON answer: the mock's own. */
function expectMockAnswer(wire: Wire, status = 200): unknown {
  const head = mustParse(wire);
  expect(head.status).toBe(status);
  expect(header(head, 'content-type')[0]).toMatch(/^application\/json/);
  expect(header(head, 'content-length')).toEqual([String(head.body.length)]);
  return JSON.parse(head.body.toString('utf8'));
}

/** Where a behaviour shows: GET /validate under scope all, the chosen endpoint under some. */
function misbehavingPath(server: HostileServer): string {
  if (server.endpoint === undefined) return '/validate';
  const e = endpoint(server.endpoint);
  return fillPath(e.path, { env_id: server.envIds[1]!, site_id: server.siteId, domain_id: server.domainId });
}

/** What each behaviour looks like on the wire, read from the path where it shows. */
const wireChecks: Readonly<Record<Behaviour, { readonly waitMs: number; readonly maxBytes?: number; readonly extraExchanges?: number; readonly check: (wire: Wire, server: HostileServer) => void | Promise<void> }>> = {
  'never-answers': {
    waitMs: 1_200,
    check: (wire) => {
      expect(wire.bytes.length).toBe(0);
      expect(wire.closed).toBe(false);
    },
  },
  'headers-then-stall': {
    waitMs: 1_200,
    check: (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      expect(Number(header(head, 'content-length')[0])).toBeGreaterThan(0);
      expect(head.body.length).toBe(0);
      expect(wire.closed).toBe(false);
    },
  },
  'byte-per-second': {
    waitMs: 2_500,
    check: (wire) => {
      const head = mustParse(wire);
      expect(header(head, 'content-type')[0]).toBe('application/json');
      expect(Number(header(head, 'content-length')[0])).toBeGreaterThan(10);
      // One byte at once, then one a second: 3 within 2.5 s.
      expect(head.body.length).toBeGreaterThanOrEqual(2);
      expect(head.body.length).toBeLessThanOrEqual(3);
      expect(head.body.toString('latin1')).toMatch(/^\{"/);
      expect(wire.closed).toBe(false);
    },
  },
  reset: {
    waitMs: 2_000,
    check: (wire) => {
      expect(wire.bytes.length).toBe(0);
      expect(wire.closed).toBe(true);
      expect(wire.error).toBe('ECONNRESET');
    },
  },
  'garbage-http': {
    waitMs: 2_000,
    check: (wire) => {
      expect(wire.bytes.length).toBeGreaterThan(0);
      expect(wire.bytes.subarray(0, 5).toString('latin1')).not.toBe('HTTP/');
      expect(parseHead(wire.bytes)).toBeUndefined();
      expect(wire.closed).toBe(true);
    },
  },
  'duplicate-content-length': {
    waitMs: 2_000,
    check: (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      const lengths = header(head, 'content-length').map(Number);
      expect(lengths).toHaveLength(2);
      expect(lengths[0]).not.toBe(lengths[1]);
      expect(lengths).toContain(head.body.length);
      JSON.parse(head.body.toString('utf8'));
      expect(wire.closed).toBe(true);
    },
  },
  'html-200': {
    waitMs: 2_000,
    check: (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      expect(header(head, 'content-type')[0]).toMatch(/^text\/html/);
      expect(head.body.toString('utf8')).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
      expect(header(head, 'content-length')).toEqual([String(head.body.length)]);
    },
  },
  'huge-body': {
    waitMs: 5_000,
    maxBytes: 4 * 1024 * 1024,
    check: async (wire, server) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      expect(header(head, 'content-type')[0]).toBe('application/json');
      expect(header(head, 'content-length')).toEqual([String(HUGE_BODY_BYTES)]);
      expect(head.body.subarray(0, 12).toString('latin1')).toBe('{"padding":"');
      expect(wire.closed).toBe(false); // still streaming when the client had seen enough
      // The client went away: the server stops writing.
      await expect.poll(() => server.stats().streaming, { timeout: 2_000 }).toBe(0);
    },
  },
  'gzip-bomb': {
    waitMs: 5_000,
    check: async (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      expect(header(head, 'content-type')[0]).toBe('application/json');
      expect(header(head, 'content-encoding')[0]).toBe('gzip');
      expect(header(head, 'content-length')).toEqual([String(head.body.length)]);
      expect(head.body.length).toBeLessThan(1024 * 1024);
      // Inflated as a stream, counted, never kept whole.
      let inflated = 0;
      let start = '';
      for await (const chunk of createGunzip().end(head.body) as AsyncIterable<Buffer>) {
        if (start.length < 30) start += chunk.subarray(0, 30).toString('latin1');
        inflated += chunk.length;
      }
      expect(inflated).toBeGreaterThanOrEqual(GZIP_BOMB_BYTES);
      expect(start).toMatch(/^\{"environment":\{"padding":"A/);
    },
  },
  'deep-json': {
    waitMs: 2_000,
    check: (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      expect(header(head, 'content-type')[0]).toBe('application/json');
      const text = head.body.toString('latin1');
      expect(text).toBe(`${'['.repeat(DEEP_JSON_LEVELS)}${']'.repeat(DEEP_JSON_LEVELS)}`);
    },
  },
  'redirect-loop': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(head.status).toBe(302);
      expect(header(head, 'location')).toEqual([`${server.url}${misbehavingPath(server)}`]);
    },
  },
  'redirect-other-host': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(head.status).toBe(302);
      expect(header(head, 'location')).toEqual([`http://${OTHER_HOST}${new URL(server.url).pathname}${misbehavingPath(server)}`]);
    },
  },
  'throttled-forever': {
    waitMs: 2_000,
    check: (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(429);
      expect(header(head, 'retry-after')).toEqual([String(THROTTLE_RETRY_AFTER_S)]);
      expect(JSON.parse(head.body.toString('utf8'))).toMatchObject({ status: 429 });
    },
  },
  'huge-password': {
    waitMs: 5_000,
    check: (wire, server) => {
      const body = expectMockAnswer(wire) as { environment: { sftp_password: string } };
      expect(body.environment.sftp_password).toHaveLength(HUGE_PASSWORD_BYTES);
      expect(server.secrets).toContain(body.environment.sftp_password);
    },
  },
  'echo-secrets': {
    waitMs: 2_000,
    check: (wire, server) => expectEchoes(wire, server, 200),
  },
  'quote-injection': {
    waitMs: 2_000,
    check: (wire) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      const records = (JSON.parse(head.body.toString('utf8')) as { domain: { dns_records: { name: string }[] } }).domain.dns_records;
      expect(records.length).toBeGreaterThan(0);
      for (const r of records) expect(r.name).toBe(injectedRecordName(injectionMarker));
    },
  },
  'echo-in-errors': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(head.status).toBe(500);
      const text = head.body.toString('utf8');
      const body = JSON.parse(text) as { message: string; data: { sftp_password: string }[] };
      const [key, ...passwords] = server.secrets;
      expect(key).toBe(ECHO_KEY);
      // The passwords are served, so a suite can know them; every form is in the message.
      expect(body.data.map((d) => d.sftp_password)).toEqual(passwords);
      for (const secret of [key!, ...passwords]) {
        for (const form of [secret, secret.toUpperCase(), encodeURIComponent(secret), Buffer.from(secret).toString('base64'), `Basic ${Buffer.from(`${secret}:`).toString('base64')}`, `"${secret.slice(0, 12)}\u2026"`]) {
          expect(body.message).toContain(form);
        }
        expect(text).toContain(phpJsonEscape(secret));
      }
    },
  },
  'long-passwords': {
    waitMs: 5_000,
    check: (wire, server) => {
      const body = expectMockAnswer(wire) as { sftp_password: string };
      expect(body.sftp_password.length).toBeGreaterThan(100_000);
      expect(/^[\u0100-\u07ff]+$/.test(body.sftp_password)).toBe(true);
      expect(server.secrets).toContain(body.sftp_password);
    },
  },
  'served-html-escaped': servedCheck('text/html; charset=utf-8', (p) => `&quot;sftp_password&quot;:&quot;${p}&quot;`),
  'served-form-encoded': servedCheck('application/x-www-form-urlencoded', (p) => `environment%5Bsftp_password%5D=${encodeURIComponent(p)}`),
  'served-escaped-key': servedCheck('text/plain', (p) => `"sftp\\u005fpassword":"${p}"`),
  'served-trailing-garbage': servedCheck('application/json', (p) => `"sftp_password":"${p}"}}<!--`),
  'served-duplicate-key': servedCheck('text/plain', (p) => `"sftp_password":"${p}","sftp_password":"${DECOY_PASSWORD}"}`),
  'served-nested-json': servedCheck('text/plain', (p) => `"sftp_password":"${DECOY_PASSWORD}"},"debug":"{\\"sftp_password\\":\\"${p}\\"}"`),
  'word-passwords': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(header(head, 'content-type')).toEqual(['text/plain']);
      const password = (JSON.parse(head.body.toString('utf8')) as { environment: { sftp_password: string } }).environment.sftp_password;
      expect(WORD_PASSWORDS as readonly string[]).toContain(password);
      expect(server.wordLike).toEqual(WORD_PASSWORDS);
      expect(server.secrets.some((s) => (WORD_PASSWORDS as readonly string[]).includes(s))).toBe(false);
    },
  },
  'one-character-key': {
    waitMs: 2_000,
    check: (wire, server) => {
      expect(mustParse(wire).status).toBe(500);
      expect(server.apiKey).toBe(ONE_CHARACTER_KEY);
      expect(server.wordLike).toEqual([ONE_CHARACTER_KEY]);
    },
  },
  'echo-html-padded': echoCheck((v) => new RegExp(`^Internal error; request was (&#0{3,}\\d+;|&#x0{2,}[0-9a-f]+;){${[...v].length}}`)),
  'echo-html-bare': echoCheck((v) => [...v].map((c) => `&#${c.codePointAt(0)}`).join('')),
  'echo-wrapped': echoCheck((v) => `${v.slice(0, 9)}\n        ${v.slice(9, 17)}\r\n\t\t`),
  'echo-sharp-s': echoCheck((v) => v.toUpperCase(), SHARP_S_KEY),
  'echo-hex': echoCheck((v) => {
    const hex = Buffer.from(v).toString('hex');
    return `${hex} ${hex.toUpperCase()} ${hex.replace(/(..)(?!$)/g, '$1:')}`;
  }),
  'echo-cut-headers': {
    waitMs: 2_000,
    extraExchanges: 1,
    check: async (wire, server) => {
      // Every other GET of the endpoint is a 429 whose Retry-After holds the key after 29 characters; the others are 200s whose Content-Type holds it after 69.
      const second = await exchange(server, misbehavingPath(server), { waitMs: 2_000 });
      const heads = [mustParse(wire), mustParse(second)];
      const throttled = heads.find((h) => h.status === 429)!;
      const answered = heads.find((h) => h.status === 200)!;
      expect(header(throttled, 'retry-after')[0]!.indexOf(ECHO_KEY)).toBe(29);
      expect(header(answered, 'content-type')[0]!.indexOf(ECHO_KEY)).toBe(69);
    },
  },
  'unread-gzip': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(header(head, 'content-encoding')).toEqual(['gzip']);
      const [password] = header(head, 'x-echo');
      expect(server.secrets).toContain(password);
      expect(gunzipSync(head.body).toString('utf8')).toContain(`"sftp_password":"${password}"`);
    },
  },
  'unread-cap-cut': {
    waitMs: 5_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      const [password] = header(head, 'x-echo');
      expect(server.secrets).toContain(password);
      // The suite's default cap (1 MiB) falls CAP_CUT_KEPT bytes into the password.
      expect(head.body.indexOf(`"sftp_password":"${password}"`) + '"sftp_password":"'.length).toBe(1024 * 1024 - CAP_CUT_KEPT);
    },
  },
  'unread-broken-off': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(wire.closed).toBe(true);
      expect(head.body.length).toBeLessThan(Number(header(head, 'content-length')[0]));
      const text = head.body.toString('utf8');
      expect(server.secrets.some((p) => text.includes(`"sftp_password":"${p}"`))).toBe(true);
    },
  },
  'unread-zero-width': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(head.status).toBe(500);
      const { message } = JSON.parse(head.body.toString('utf8')) as { message: string };
      // Quoted without their zero-width characters, and those forms searched for too.
      for (const name of ['live', 'staging']) {
        const visible = visibleOf(zeroWidthPassword(name));
        if (!message.includes(visible)) continue;
        expect(server.secrets).toContain(visible);
      }
      expect(message).not.toMatch(/[\u200b\u200d\u2060]/);
      expect(server.secrets.filter((p) => /[\u200b\u200d\u2060]/.test(p)).every((p) => message.includes(visibleOf(p)))).toBe(true);
    },
  },
  'unread-unknown-coding': {
    waitMs: 2_000,
    check: (wire) => {
      const head = mustParse(wire);
      expect(header(head, 'content-encoding')).toEqual(['compress']);
      expect(head.body.subarray(0, 3).equals(UNKNOWN_CODING_MAGIC)).toBe(true);
      expect(head.body.toString('utf8')).toContain('\ufffd');
    },
  },
  'password-flood': {
    waitMs: 2_000,
    check: (wire, server) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      const flood = (JSON.parse(head.body.toString('utf8')) as { flood: { sftp_password: string }[] }).flood;
      expect(flood).toHaveLength(FLOOD_PER_ANSWER);
      expect(new Set(flood.map((f) => f.sftp_password)).size).toBe(FLOOD_PER_ANSWER);
      // Each served value is recorded for the leak search.
      for (const { sftp_password } of flood) expect(server.secrets).toContain(sftp_password);
    },
  },
};

/**
 * A served-* row's answer: 200 under `contentType`, the password in the `x-echo` header, and in
 * the body in the row's layout (`inBody`, written here by hand from the layout's description).
 */
function servedCheck(contentType: string, inBody: (password: string) => string) {
  return {
    waitMs: 2_000,
    check: (wire: Wire, server: HostileServer) => {
      const head = mustParse(wire);
      expect(head.status).toBe(200);
      expect(header(head, 'content-type')).toEqual([contentType]);
      const [password] = header(head, 'x-echo');
      expect(server.secrets).toContain(password);
      expect(head.body.toString('utf8')).toContain(inBody(password!));
    },
  };
}

/** An echo-* row's answer: a 500 whose message quotes the key and every password in the row's form. */
function echoCheck(form: (value: string) => string | RegExp, key = ECHO_KEY) {
  return {
    waitMs: 2_000,
    check: (wire: Wire, server: HostileServer) => {
      const head = mustParse(wire);
      expect(head.status).toBe(500);
      const { message } = JSON.parse(head.body.toString('utf8')) as { message: string };
      expect(server.apiKey).toBe(key);
      for (const secret of server.secrets) {
        const want = form(secret);
        if (typeof want === 'string') expect(message).toContain(want);
        else expect(message).toMatch(want);
      }
    },
  };
}

/** Every form of the key and the passwords the echo row promises, in one answer. */
function expectEchoes(wire: Wire, server: HostileServer, status: number): void {
  const head = mustParse(wire);
  expect(head.status).toBe(status);
  const text = head.body.toString('utf8');
  const body = JSON.parse(text) as Record<string, unknown>; // still JSON, PHP escapes and all
  const [key, ...passwords] = server.secrets;
  expect(key).toBe(ECHO_KEY);
  for (const secret of [key!, ...passwords]) {
    expect(header(head, 'x-echo-raw')).toContain(secret);
    expect(header(head, 'x-echo')).toContain(encodeURIComponent(secret));
    expect(header(head, 'x-echo-basic')).toContain(`Basic ${Buffer.from(`${secret}:`).toString('base64')}`);
    expect(text).toContain(JSON.stringify(secret).slice(1, -1));
    expect(text).toContain(phpJsonEscape(secret));
    expect(text).toContain(JSON.stringify(secret.toUpperCase()).slice(1, -1));
  }
  expect(text).toContain('\\/');
  expect(text).toContain('\\u00e9');
  expect(passwords.every((p) => p.includes('/') && p.includes('\u00e9') && p.includes('"'))).toBe(true);
  if (status >= 400) expect(body.message).toContain(`Invalid key "${key!.slice(0, 12)}`);
}

const servers: HostileServer[] = [];
async function start(behaviour: Behaviour, scope: Scope): Promise<HostileServer> {
  const server = await startHostile(behaviour, scope);
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const rows = behaviours.flatMap((behaviour) =>
  (ONE_SCOPE.has(behaviour) ? (['some'] as const) : (['all', 'some', 'most'] as const)).map((scope) => [`${behaviour} (${scope})`, { behaviour, scope }] as const),
);

describe.concurrent('hostile servers on the wire', () => {
  it.for(rows)('%s', async ([, { behaviour, scope }]) => {
    const server = await start(behaviour, scope);
    const { waitMs, maxBytes, check } = wireChecks[behaviour];
    const path = misbehavingPath(server);
    expect(server.endpoint === undefined).toBe(scope === 'all');
    if (scope !== 'all') {
      // Discovery's own reads are the mock's answers.
      expectMockAnswer(await exchange(server, '/validate', { waitMs: 2_000 }));
      expectMockAnswer(await exchange(server, `/sites/${server.siteId}`, { waitMs: 2_000 }));
    } else {
      // Discovery's second read is in scope too (what it looks like is the path check's business).
      const before = server.stats().inScope;
      await exchange(server, `/sites/${server.siteId}`, { waitMs: 300, maxBytes: 64 * 1024 });
      expect(server.stats().inScope).toBe(before + 1);
    }
    const before = server.stats().inScope;
    await check(await exchange(server, path, { waitMs, ...(maxBytes ? { maxBytes } : {}) }), server);
    expect(server.stats().inScope).toBe(before + 1 + (wireChecks[behaviour].extraExchanges ?? 0));
  });

  it('huge-password: the password endpoint serves 1 MiB under both scopes', async () => {
    for (const scope of ['all', 'some'] as const) {
      const server = await start('huge-password', scope);
      const wire = await exchange(server, fillPath(endpoint('getSftpPassword').path, { env_id: server.envIds[0]! }), { waitMs: 5_000 });
      wireChecks['huge-password'].check(wire, server);
    }
  });

  it('huge-password (all): an error answer stays the mock\u2019s', async () => {
    const server = await start('huge-password', 'all');
    expect(expectMockAnswer(await exchange(server, '/validate', { waitMs: 2_000, authorization: null }), 401)).toMatchObject({ status: 401 });
  });

  it('echo-secrets: an error answer quotes a 12-character prefix in its message, status kept', async () => {
    const server = await start('echo-secrets', 'all');
    expectEchoes(await exchange(server, '/sites/00000000-0000-4000-8000-000000000000', { waitMs: 2_000 }), server, 404);
  });

  it('echo-secrets: fields are only added, the mock\u2019s answer is kept', async () => {
    const all = await start('echo-secrets', 'all');
    const some = await start('echo-secrets', 'some');
    const echoed = JSON.parse(mustParse(await exchange(all, '/validate', { waitMs: 2_000 })).body.toString('utf8')) as Record<string, unknown>;
    const plain = expectMockAnswer(await exchange(some, '/validate', { waitMs: 2_000 }));
    const { echo: _echo, echo_php: _php, ...rest } = echoed;
    expect(rest).toEqual(plain);
    // Under `some`, answers outside the endpoint carry no form of any secret.
    const text = JSON.stringify(plain);
    for (const secret of some.secrets) expect(text).not.toContain(secret.slice(0, 12));
  });
});
