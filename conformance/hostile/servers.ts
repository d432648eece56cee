/**
 * Hostile targets: the reference mock with one misbehaviour, on 127.0.0.1, for testing how the
 * suite copes with servers we do not control (hostile.test.ts). Under scope `all` every request
 * misbehaves, so the suite's discovery (GET /validate, GET /sites/{site_id}) cannot work; under
 * `some` only the requests to one endpoint discovery never reads misbehave, so the run goes on
 * and must report failures there. Everything else is the mock's own answer.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import type { EndpointName } from '../../generated/types.ts';
import { phpJsonEncode } from '../../sanitize/echo-forms.ts';
import { is2xx } from '../../spec/queries.ts';
import type { MockRequest, MockResponse } from '../../mock/app.ts';
import { seedCompanies, type CompanySeed } from '../../mock/fixtures.ts';
import { startMock } from '../../mock/server.ts';
import { Store } from '../../mock/store.ts';
import type { Variant } from '../../mock/variant.ts';

/** A served password the suite must find by structure, in a body it cannot read as the document's JSON. */
function servedLayouts() {
  return ['served-html-escaped', 'served-form-encoded', 'served-escaped-key', 'served-trailing-garbage', 'served-duplicate-key', 'served-nested-json'] as const;
}
/** Forms of an echoed secret a search must read through. */
function echoForms() {
  return ['echo-html-padded', 'echo-html-bare', 'echo-wrapped', 'echo-sharp-s', 'echo-cut-headers', 'echo-hex'] as const;
}
/** A served password in an answer the suite holds but does not parse (coded, cut, broken off), or in a form only its zero-width characters tell apart. */
function unreadForms() {
  return ['unread-gzip', 'unread-cap-cut', 'unread-broken-off', 'unread-zero-width', 'unread-unknown-coding'] as const;
}
export const UNREAD_FORMS = unreadForms();
export const SERVED_LAYOUTS = servedLayouts();
export const ECHO_FORMS = echoForms();

export const behaviours = [
  'never-answers',
  'headers-then-stall',
  'byte-per-second',
  'reset',
  'garbage-http',
  'duplicate-content-length',
  'html-200',
  'huge-body',
  'gzip-bomb',
  'deep-json',
  'redirect-loop',
  'redirect-other-host',
  'throttled-forever',
  'huge-password',
  'echo-secrets',
  'echo-in-errors',
  'long-passwords',
  'password-flood',
  'quote-injection',
  ...servedLayouts(),
  // Secrets no text search can hide without rewriting the report's own words.
  'word-passwords',
  'one-character-key',
  ...echoForms(),
  ...unreadForms(),
] as const;
export type Behaviour = (typeof behaviours)[number];

/**
 * Behaviours that act on one endpoint discovery never reads, or on discovery's reads in a way it
 * copes with (the suite learns from them): run under scope `some` only.
 */
export const ONE_SCOPE: ReadonlySet<Behaviour> = new Set(['quote-injection', ...SERVED_LAYOUTS, 'word-passwords', 'one-character-key', ...ECHO_FORMS, ...UNREAD_FORMS]);

/**
 * `all`: every request misbehaves (discovery fails); `some`: only one endpoint's requests do;
 * `most`: every endpoint but the reads discovery needs (the run goes on, and nearly every answer
 * misbehaves: the memory and time bounds under the heaviest load).
 */
export type Scope = 'all' | 'some' | 'most';

/** The reads the suite's discovery sends (conformance/discovery.ts): left alone under `most`. */
export const DISCOVERY_READS: ReadonlySet<EndpointName> = new Set([
  'validateApiKey',
  'getSite',
  'listEnvironments',
  'listDnsRecords',
  'listBackups',
  'listAdditionalSftpAccounts',
  'listCompanyUsers',
]);

export interface HostileOptions {
  /** The endpoint that misbehaves under scope `some` (default: the behaviour's own choice). */
  readonly endpoint?: EndpointName;
}

export interface HostileServer {
  /** Base URL, ending in `/v2`. */
  readonly url: string;
  /** The key of the company under test (pass it as HSC_API_KEY). */
  readonly apiKey: string;
  readonly siteId: string;
  /** The site's environments, live first. */
  readonly envIds: readonly string[];
  /** The first domain of the site's first environment. */
  readonly domainId: string;
  /** Exact strings that must never appear in the suite's output: the key and the served passwords (growing as they are served). */
  readonly secrets: readonly string[];
  /**
   * Secrets no output can be searched for without rewriting the report's own words (one
   * character, a word the reports use): hidden only where they stand as values, and the run says so.
   */
  readonly wordLike: readonly string[];
  /** An endpoint discovery does not read that misbehaves (under `some` the only one); undefined under `all`. */
  readonly endpoint: EndpointName | undefined;
  /** Requests that fell in the scope, and lazy bodies still being written (byte-per-second, huge-body). */
  readonly stats: () => { readonly inScope: number; readonly streaming: number };
  close(): Promise<void>;
}

/** Sizes and values the rows are built on; the wire-level test reads them too. */
export const HUGE_BODY_BYTES = 200 * 1024 * 1024;
export const GZIP_BOMB_BYTES = 100 * 1024 * 1024;
export const DEEP_JSON_LEVELS = 100_000;
export const HUGE_PASSWORD_BYTES = 1024 * 1024;
export const THROTTLE_RETRY_AFTER_S = 100_000;
/** Fresh SFTP passwords each answer of the password-flood row carries. */
export const FLOOD_PER_ANSWER = 100;
/**
 * The quote-injection row: DNS record names that end a shell quote and run a command, and an
 * SFTP password equal to how a curl line quotes them, so that hiding it would end the quote.
 * `touch` names a file the test looks for after running every curl line the suite printed.
 */
export const injectedRecordName = (marker: string) => `zzzzzzzz'Y;touch ${marker};#.example.com`;
export const INJECTION_PASSWORD = "zzzzzzzz'\\'";
export const OTHER_HOST = 'other-host.invalid';
/** A key with `/`, `é` and `+`: a valid header value (Latin-1, no control characters), no `"`. */
export const ECHO_KEY = 'hsc_live/k\u00e9y+Secret_0123456789ABCDEF';
/** Passwords with `/`, `é` and `"`, one per environment. */
export const echoPassword = (envName: string) => `sftp/pa"ss\u00e9-${envName}-Zq7xW2`;

/** The served-* rows' passwords (one per environment), each echoed in a header so the suite must have learned it to hide it. */
export const servedPassword = (envName: string) => `served-Pw7-${envName}-qX2zR9kL`;
/** The unread-zero-width row's passwords: zero-width characters inside, which an echo drops. */
export const zeroWidthPassword = (envName: string) => `zero\u200bwidth\u200d-${envName}\u2060-Pw4qX8`;
export const visibleOf = (password: string) => password.replace(/[\u200b\u200d\u2060]/g, '');
/** The first bytes of the unread-unknown-coding row's body: LZW's (`compress`) magic, then bytes that are no text. */
export const UNKNOWN_CODING_MAGIC = Buffer.from([0x1f, 0x9d, 0x90]);
/** Characters of the password the size cap leaves in the unread-cap-cut row's body. */
export const CAP_CUT_KEPT = 14;
/** The size cap the unread-cap-cut row cuts at: the suite's default --max-body-kb. */
const DEFAULT_CAP_BYTES = 1024 * 1024;

/** The decoy a duplicate key's last value carries (what `JSON.parse` keeps). */
export const DECOY_PASSWORD = 'decoy-password-not-the-real-one';
/** The word-passwords row: words of the suite's reports, served as passwords. */
export const WORD_PASSWORDS = ['failures', 'warnings', 'coverage', 'operation', 'specVersion'] as const;
/** The one-character-key row's key. */
export const ONE_CHARACTER_KEY = 'k';
/** The echo-sharp-s row's key and passwords: `ß` upper-cases to `SS`, a longer text. */
export const SHARP_S_KEY = 'hsc_straße_Schlüssel_0123456789';
export const sharpSPassword = (envName: string) => `größe-straße-${envName}-Pw9`;

/** What a misbehaviour's `wire` gets: the mock's answer, the request, and the row's secrets. */
interface Answer {
  readonly res: ServerResponse;
  readonly socket: Socket;
  readonly response: MockResponse;
  readonly request: MockRequest;
  /** The company's environment passwords. */
  readonly passwords: readonly string[];
  /** Marks a lazily written body as started; the returned function marks it stopped. */
  readonly streamStarted: () => () => void;
  /** Records a secret the answer serves, so the test searches the output for it too. */
  readonly served: (secret: string) => void;
  /** How many secrets answers have served so far (`served`). */
  readonly servedCount: number;
}

interface Misbehaviour {
  readonly description: string;
  /** Secrets of the row that no text search can hide (`HostileServer.wordLike`). */
  readonly wordLike?: readonly string[];
  /** `wire` sees every answer under scope `some` too, and picks the ones it changes (discovery's reads among them). */
  readonly choosesEndpoints?: true;
  /** Under scope `some`: an endpoint discovery does not read, and that gets few probes. */
  readonly someEndpoint: EndpointName;
  /** Changes to the company under test before the store is built (key, passwords). */
  readonly company?: (company: CompanySeed) => CompanySeed;
  /** Writes the misbehaving answer; false lets the mock write `response` as it is. */
  readonly wire: (answer: Answer) => boolean;
}

const QUIET_ENDPOINT: EndpointName = 'getSshAllowedIps';
const PASSWORD_ENDPOINT: EndpointName = 'getSftpPassword';

const jsonText = (response: MockResponse) => (response.body === undefined ? '' : JSON.stringify(response.body));

/** A whole answer. The body goes as bytes: Node then writes the headers as Latin-1 (with a string body, as UTF-8). */
function writeText(res: ServerResponse, status: number, text: string, headers: Record<string, string | number | string[]> = {}): true {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length, ...headers }).end(body);
  return true;
}

/** Bytes written on the socket itself, past Node's HTTP layer; `end` closes the connection after them. */
function writeRaw(socket: Socket, bytes: string | Buffer, end: boolean): true {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
  if (end) socket.end(data, () => socket.destroy());
  else socket.write(data);
  return true;
}

/**
 * A body of `total` bytes written piece by piece as the client reads: `next(offset)` gives the
 * next piece; back-pressure and `every` ms pace it; it stops for good when the connection goes.
 */
function writeLazily(answer: Answer, status: number, headers: Record<string, string | number>, total: number, next: (offset: number) => Buffer, everyMs?: number): true {
  const { res } = answer;
  const stopped = answer.streamStarted();
  let offset = 0;
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    stopped();
  };
  res.once('close', stop);
  res.writeHead(status, { ...headers, 'content-length': total });
  const pump = () => {
    while (!done && offset < total) {
      const piece = next(offset).subarray(0, total - offset);
      offset += piece.length;
      const more = res.write(piece);
      if (offset >= total) break;
      if (everyMs !== undefined) return void (timer = setTimeout(pump, everyMs));
      if (!more) return void res.once('drain', pump);
    }
    if (!done) res.end(stop);
  };
  pump();
  return true;
}

/** Deterministic printable filler (base64url), so a prefix of it appears nowhere by chance. */
function filler(length: number, label: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const part = createHash('sha256').update(`${label}:${i}`).digest('base64url');
    parts.push(part);
    size += part.length;
  }
  return parts.join('').slice(0, length);
}

let hugePassword: string | undefined;
/** The 1 MiB password of the huge-password row. */
export const hugePasswordValue = (): string => (hugePassword ??= filler(HUGE_PASSWORD_BYTES, 'hostile-sftp-password'));

let gzipBomb: Promise<Buffer> | undefined;
/** `{"environment":{"padding":"AAAA…"}}` of ~100 MB, gzipped once per process (about 100 KB), never whole in memory. */
export function gzipBombBytes(): Promise<Buffer> {
  return (gzipBomb ??= (async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'A');
    async function* payload() {
      yield Buffer.from('{"environment":{"padding":"');
      for (let i = 0; i < GZIP_BOMB_BYTES / chunk.length; i++) yield chunk;
      yield Buffer.from('"}}');
    }
    const parts: Buffer[] = [];
    for await (const part of Readable.from(payload()).pipe(createGzip({ level: 9 }))) parts.push(part as Buffer);
    return Buffer.concat(parts);
  })());
}

/** The request's key as it was sent: the bearer token, else the whole Authorization value. */
function requestKey(request: MockRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const key = (/^\s*bearer\s+(.*)$/i.exec(header)?.[1] ?? header).trim();
  return key === '' ? undefined : key;
}

/** PHP's json_encode of a string, without its quotes. */
export const phpJsonEscape = (value: string): string => phpJsonEncode(value).slice(1, -1);

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The mock's answer, status and body kept, echoing the request's key and the passwords in every
 * form a careless server might: raw and upper-cased, JSON- and PHP-escaped, URI-encoded and as
 * Basic credentials in headers, and a 12-character prefix quoted in an error's `message`.
 */
function echoSecrets({ res, response, request, passwords }: Answer): true {
  const key = requestKey(request);
  const values = [...(key === undefined ? [] : [key]), ...passwords];
  let text = jsonText(response);
  if (isObject(response.body)) {
    const body: Record<string, unknown> = {
      ...response.body,
      echo: { raw: values, upper: values.map((v) => v.toUpperCase()), basic: values.map((v) => base64(`${v}:`)) },
    };
    if (response.status >= 400 && typeof body.message === 'string') {
      const quoted = (v: string) => `"${v.slice(0, 12)}\u2026"`;
      const keyPart = key === undefined ? 'No key' : `Invalid key ${quoted(key)}`;
      body.message = `${body.message} (${keyPart}; SFTP password ${passwords.map(quoted).join(', ')})`;
    }
    // PHP's json_encode, written by hand: no JSON.stringify produces `\/` or `\u00e9`.
    text = `${JSON.stringify(body).slice(0, -1)},"echo_php":[${values.map((v) => `"${phpJsonEscape(v)}"`).join(',')}]}`;
  }
  const kept = Object.entries(response.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  return writeText(res, response.status, text, {
    ...Object.fromEntries(kept),
    'x-echo-raw': values,
    'x-echo': values.map(encodeURIComponent),
    'x-echo-basic': values.map((v) => `Basic ${base64(`${v}:`)}`),
    'x-echo-upper': values.map((v) => v.toUpperCase()),
  });
}

/**
 * A 500 whose message quotes the request's key and the passwords in every form a careless server
 * does (so the report prints them, and only the sanitizer stands between them and the output):
 * raw, PHP-escaped (`\/`, `\u00e9`), URI-encoded, upper-cased, base64, as Basic credentials, and
 * a 12-character prefix quoted cut short. The passwords are also served, in `sftp_password`
 * fields of `data`, so the suite can know them.
 */
function echoInErrors({ res, request, passwords }: Answer): true {
  const key = requestKey(request);
  const values = [...(key === undefined ? [] : [key]), ...passwords];
  const forms = values.flatMap((v) => [
    JSON.stringify(v).slice(1, -1),
    phpJsonEscape(v),
    encodeURIComponent(v),
    JSON.stringify(v.toUpperCase()).slice(1, -1),
    base64(v),
    `Basic ${base64(`${v}:`)}`,
    `\\"${JSON.stringify(v.slice(0, 12)).slice(1, -1)}\u2026\\"`,
  ]);
  const data = passwords.map((p) => `{"sftp_password":${JSON.stringify(p)}}`).join(',');
  return writeText(res, 500, `{"code":500,"message":"Internal error; request was ${forms.join(' | ')}","data":[${data}]}`);
}

/** How many answers of the long-passwords row carry a new password (under the sanitizer's MAX_SERVED_CHARS in all). */
export const LONG_PASSWORD_ANSWERS = 8;
/** Units of each: two UTF-8 bytes each (PHP escapes one to six characters), the answer under the 1 MiB default cap. */
const LONG_PASSWORD_UNITS = 400_000;
let longPasswordCount = 0;

/** A password of `LONG_PASSWORD_UNITS` characters in U+0100–U+07FF, a new one each call. */
function longPassword(): string {
  const seed = longPasswordCount++;
  const units = new Uint16Array(LONG_PASSWORD_UNITS);
  for (let i = 0; i < units.length; i++) units[i] = 0x100 + ((i * 7919 + seed * 104_729) % 0x700);
  return Buffer.from(units.buffer).toString('utf16le');
}

const statusLine = (status: number, reason: string) => `HTTP/1.1 ${status} ${reason}\r\n`;

/** Every environment of the company gets a new password. */
const withPasswords = (company: CompanySeed, password: (envName: string) => string): CompanySeed => ({
  ...company,
  sites: company.sites.map((site) => ({ ...site, environments: site.environments.map((env) => ({ ...env, sftpPassword: password(env.name) })) })),
});

const misbehaviours: Readonly<Record<Behaviour, Misbehaviour>> = {
  'never-answers': {
    description: 'accepts the connection, reads the request, never writes a byte',
    someEndpoint: QUIET_ENDPOINT,
    wire: () => true,
  },
  'headers-then-stall': {
    description: 'writes a 200 status line and headers with a Content-Length, then nothing',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ socket, response }) =>
      writeRaw(socket, `${statusLine(200, 'OK')}content-type: application/json\r\ncontent-length: ${Math.max(Buffer.byteLength(jsonText(response)), 64)}\r\n\r\n`, false),
  },
  'byte-per-second': {
    description: "trickles the mock's JSON answer one byte per second",
    someEndpoint: QUIET_ENDPOINT,
    wire: (answer) => {
      const body = Buffer.from(jsonText(answer.response) || '{}');
      return writeLazily(answer, answer.response.status, { 'content-type': 'application/json' }, body.length, (offset) => body.subarray(offset, offset + 1), 1000);
    },
  },
  reset: {
    description: 'resets the connection on the request (TCP RST)',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ socket }) => {
      socket.resetAndDestroy();
      return true;
    },
  },
  'garbage-http': {
    description: 'writes bytes that are not HTTP, then ends the connection',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ socket }) => writeRaw(socket, Buffer.from('\u0000\u00ff\u00fe garbage, not HTTP \u0001\u0002\r\n\r\n\u0000', 'latin1'), true),
  },
  'duplicate-content-length': {
    description: 'answers with two Content-Length headers that disagree',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ socket, response }) => {
      const body = Buffer.from(jsonText(response) || '{}');
      const head = `${statusLine(200, 'OK')}content-type: application/json\r\ncontent-length: ${body.length}\r\ncontent-length: ${body.length + 10}\r\nconnection: close\r\n\r\n`;
      return writeRaw(socket, Buffer.concat([Buffer.from(head, 'latin1'), body]), true);
    },
  },
  'html-200': {
    description: 'answers 200 with a small text/html page',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res }) =>
      writeText(res, 200, '<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>\n', { 'content-type': 'text/html; charset=utf-8' }),
  },
  'huge-body': {
    description: 'answers 200 with a 200 MiB JSON body, written lazily as the client reads',
    someEndpoint: QUIET_ENDPOINT,
    wire: (answer) => {
      const head = Buffer.from('{"padding":"');
      const tail = Buffer.from('"}');
      const block = Buffer.alloc(64 * 1024, 'x');
      return writeLazily(answer, 200, { 'content-type': 'application/json' }, HUGE_BODY_BYTES, (offset) =>
        offset === 0 ? head : offset >= HUGE_BODY_BYTES - tail.length ? tail : block.subarray(0, HUGE_BODY_BYTES - tail.length - offset),
      );
    },
  },
  'gzip-bomb': {
    description: 'answers 200 with `Content-Encoding: gzip`: ~100 KB that inflate to ~100 MB of JSON',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res }) => {
      void gzipBombBytes().then((bytes) => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bytes.length }).end(bytes);
      });
      return true;
    },
  },
  'deep-json': {
    description: `answers 200 with JSON arrays nested ${DEEP_JSON_LEVELS} deep`,
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res }) => writeText(res, 200, `${'['.repeat(DEEP_JSON_LEVELS)}${']'.repeat(DEEP_JSON_LEVELS)}`),
  },
  'redirect-loop': {
    description: 'answers 302 with a Location that is the request URL itself',
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res, socket, request }) =>
      writeText(res, 302, '', { 'content-type': 'text/plain', location: `http://${socket.localAddress}:${socket.localPort}${request.url}` }),
  },
  'redirect-other-host': {
    description: `answers 302 with a Location on another host (${OTHER_HOST})`,
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res, request }) => writeText(res, 302, '', { 'content-type': 'text/plain', location: `http://${OTHER_HOST}${request.url}` }),
  },
  'throttled-forever': {
    description: `answers 429 with Retry-After: ${THROTTLE_RETRY_AFTER_S}`,
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res }) => writeText(res, 429, JSON.stringify({ message: 'Too many requests', status: 429 }), { 'retry-after': String(THROTTLE_RETRY_AFTER_S) }),
  },
  'huge-password': {
    description: 'serves an sftp_password of 1 MiB; under scope all every 2xx answer is such a body',
    someEndpoint: PASSWORD_ENDPOINT,
    company: (company) => withPasswords(company, hugePasswordValue),
    // The store serves the password on its own endpoint; every other 2xx answer is replaced by it.
    wire: ({ res, response, request, passwords }) => {
      if (!is2xx(response.status) || response.endpoint?.name === PASSWORD_ENDPOINT) return false;
      const envId = /\/environments\/([^/?]+)/.exec(request.url)?.[1] ?? '00000000-0000-4000-8000-000000000000';
      return writeText(res, response.status, JSON.stringify({ environment: { id: envId, sftp_password: passwords[0] } }));
    },
  },
  'echo-secrets': {
    description: "echoes the request's key and the passwords in many forms, in fields and headers the document allows",
    someEndpoint: QUIET_ENDPOINT,
    company: (company) => withPasswords({ ...company, apiKey: ECHO_KEY }, echoPassword),
    wire: echoSecrets,
  },
  'echo-in-errors': {
    description: "answers 500 quoting the request's key and the passwords in every form a careless server does, and serving the passwords",
    someEndpoint: QUIET_ENDPOINT,
    company: (company) => withPasswords({ ...company, apiKey: ECHO_KEY }, echoPassword),
    wire: echoInErrors,
  },
  'long-passwords': {
    description: `adds an sftp_password of ${LONG_PASSWORD_UNITS} non-ASCII characters to each of the first ${LONG_PASSWORD_ANSWERS} 2xx answers, a new one each`,
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res, response, served, servedCount }) => {
      if (!is2xx(response.status) || !isObject(response.body) || servedCount >= LONG_PASSWORD_ANSWERS) return false;
      const value = longPassword();
      served(value);
      return writeText(res, response.status, JSON.stringify({ ...response.body, sftp_password: value }));
    },
  },
  'password-flood': {
    description: `adds ${FLOOD_PER_ANSWER} fresh sftp_password values to every 2xx answer (extra fields the document allows)`,
    someEndpoint: QUIET_ENDPOINT,
    wire: ({ res, response, served }) => {
      if (!is2xx(response.status) || !isObject(response.body)) return false;
      const flood = Array.from({ length: FLOOD_PER_ANSWER }, () => {
        const value = `flood-${filler(20, `flood-${floodCount++}`)}`;
        served(value);
        return { sftp_password: value };
      });
      return writeText(res, response.status, JSON.stringify({ ...response.body, flood }));
    },
  },
  'quote-injection': {
    description: 'serves DNS record names that break out of shell quoting, and a password equal to their quoted form',
    someEndpoint: 'listDnsRecords',
    choosesEndpoints: true,
    wire: ({ res, response }) => {
      const body = response.body;
      if (!is2xx(response.status) || !isObject(body)) return false;
      if (response.endpoint?.name === 'validateApiKey') return writeText(res, response.status, JSON.stringify({ ...body, sftp_password: INJECTION_PASSWORD }));
      if (response.endpoint?.name !== 'listDnsRecords' || !isObject(body.domain) || !Array.isArray(body.domain.dns_records)) return false;
      const records = body.domain.dns_records.map((r) => (isObject(r) ? { ...r, name: injectedRecordName(injectionMarker) } : r));
      return writeText(res, response.status, JSON.stringify({ ...body, domain: { ...body.domain, dns_records: records } }));
    },
  },
  'served-html-escaped': servedAs('its JSON HTML-escaped (`&quot;sftp_password&quot;:…`), as text/html', 'text/html; charset=utf-8', (env, pw) =>
    JSON.stringify({ environment: { id: env, sftp_password: pw } }).replace(/"/g, '&quot;'),
  ),
  'served-form-encoded': servedAs('form-encoded (`environment[sftp_password]=…`)', 'application/x-www-form-urlencoded', (env, pw) =>
    `environment%5Bid%5D=${encodeURIComponent(env)}&environment%5Bsftp_password%5D=${encodeURIComponent(pw)}`,
  ),
  'served-escaped-key': servedAs('as JSON whose key is escaped (`"sftp\\u005fpassword"`), as text/plain', 'text/plain', (env, pw) =>
    `{"environment":{"id":${JSON.stringify(env)},"sftp\\u005fpassword":${JSON.stringify(pw)}}}`,
  ),
  'served-trailing-garbage': servedAs('as JSON followed by garbage', 'application/json', (env, pw) => `${JSON.stringify({ environment: { id: env, sftp_password: pw } })}<!-- debug -->`),
  'served-duplicate-key': servedAs('under a duplicate key whose last value is a decoy, as text/plain', 'text/plain', (env, pw) =>
    `{"environment":{"id":${JSON.stringify(env)},"sftp_password":${JSON.stringify(pw)},"sftp_password":${JSON.stringify(DECOY_PASSWORD)}}}`,
  ),
  'served-nested-json': servedAs('only inside JSON in a string (`"debug":"{\\"sftp_password\\":…}"`), a decoy in the field, as text/plain', 'text/plain', (env, pw) =>
    JSON.stringify({ environment: { id: env, sftp_password: DECOY_PASSWORD }, debug: JSON.stringify({ sftp_password: pw }) }),
  ),
  'word-passwords': {
    description: `serves words of the suite's reports as SFTP passwords (${WORD_PASSWORDS.join(', ')}), and the password endpoint's answer as text/plain`,
    someEndpoint: PASSWORD_ENDPOINT,
    wordLike: WORD_PASSWORDS,
    choosesEndpoints: true,
    company: (company) => withPasswords(company, (envName) => (envName === 'live' ? WORD_PASSWORDS[0] : WORD_PASSWORDS[4])),
    wire: ({ res, response }) => {
      if (!is2xx(response.status) || !isObject(response.body)) return false;
      if (response.endpoint?.name === 'validateApiKey') return writeText(res, response.status, JSON.stringify({ ...response.body, sftp_password: WORD_PASSWORDS }));
      if (response.endpoint?.name !== PASSWORD_ENDPOINT) return false;
      return writeText(res, response.status, JSON.stringify(response.body), { 'content-type': 'text/plain' });
    },
  },
  'one-character-key': {
    description: `has the one-character key \`${ONE_CHARACTER_KEY}\`, and answers 500 on one endpoint`,
    someEndpoint: QUIET_ENDPOINT,
    wordLike: [ONE_CHARACTER_KEY],
    company: (company) => ({ ...company, apiKey: ONE_CHARACTER_KEY }),
    wire: ({ res }) => writeText(res, 500, JSON.stringify({ message: 'Error occurred while processing the request', status: 500 })),
  },
  'echo-html-padded': echoIn('as HTML references with zero padding (`&#0000000104;`, `&#x00068;`)', (v) =>
    [...v].map((c, i) => (i % 2 ? `&#${String(c.codePointAt(0)).padStart(10, '0')};` : `&#x${c.codePointAt(0)!.toString(16).padStart(7, '0')};`)).join(''),
  ),
  'echo-html-bare': echoIn('as HTML references without `;` (`&#104&#115`)', (v) => [...v].map((c) => `&#${c.codePointAt(0)}`).join('')),
  'echo-wrapped': echoIn('broken by line breaks and indentation', (v) => `${v.slice(0, 9)}\n        ${v.slice(9, 17)}\r\n\t\t${v.slice(17)}`),
  'echo-sharp-s': {
    ...echoIn('upper-cased, where `ß` becomes `SS`', (v) => v.toUpperCase()),
    company: (company) => withPasswords({ ...company, apiKey: SHARP_S_KEY }, sharpSPassword),
  },
  'echo-cut-headers': {
    description: 'answers 200 with a Content-Type that holds the key past its 69th character, then 429s whose Retry-After holds it past its 29th',
    someEndpoint: QUIET_ENDPOINT,
    company: (company) => ({ ...company, apiKey: ECHO_KEY }),
    wire: ({ res, request, response }) => {
      const key = requestKey(request) ?? ECHO_KEY;
      // The suite cuts a Content-Type at 80 characters and a Retry-After at 40: 11 of the key's characters before each cut.
      if (request.method === 'GET' && cutHeaderAnswers++ % 2 === 0) return writeText(res, 429, '{"message":"slow down","status":429}', { 'retry-after': `${'9'.repeat(28)} ${key}` });
      return writeText(res, 200, jsonText(response), { 'content-type': `text/plain; profile=${'p'.repeat(69 - 'text/plain; profile='.length)}${key}` });
    },
  },
  'unread-gzip': unread('gzip-coded though the suite never asks for a coding (as a CDN may), and echoes it in a header', {
    serve: ({ res }, pw, env) => {
      const body = gzipSync(JSON.stringify({ environment: { id: env, sftp_password: pw } }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length, 'x-echo': pw }).end(body);
      return true;
    },
  }),
  'unread-cap-cut': unread(`in a body the size cap cuts ${CAP_CUT_KEPT} characters into the password, and echoes it whole in a header`, {
    serve: ({ res }, pw, env) => {
      const head = `{"environment":{"id":${JSON.stringify(env)},"padding":"`;
      const between = '","sftp_password":"';
      const padding = 'A'.repeat(DEFAULT_CAP_BYTES - CAP_CUT_KEPT - Buffer.byteLength(head) - between.length);
      return writeText(res, 200, `${head}${padding}${between}${pw}"}}`, { 'x-echo': pw });
    },
  }),
  'unread-broken-off': unread('in a body broken off just after it, and answers 500 on another endpoint quoting the passwords', {
    serve: ({ res, socket }, pw, env) => {
      const body = Buffer.from(JSON.stringify({ environment: { id: env, sftp_password: pw, padding: 'A'.repeat(200) } }));
      const through = body.indexOf(pw) + Buffer.byteLength(pw) + 3;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.write(body.subarray(0, through), () => socket.destroy());
      return true;
    },
    echoed: (pw) => pw,
  }),
  'unread-zero-width': unread('with zero-width characters inside, and answers 500 on another endpoint quoting the passwords without them', {
    company: (company) => withPasswords(company, zeroWidthPassword),
    echoed: visibleOf,
  }),
  'unread-unknown-coding': unread('in a coding no Node decodes (`compress`), as bytes that are no text', {
    serve: ({ res }) => {
      const body = Buffer.concat([UNKNOWN_CODING_MAGIC, createHash('sha256').update('unread').digest()]);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress', 'content-length': body.length }).end(body);
      return true;
    },
  }),
  'echo-hex': echoIn('as the hex of its UTF-8 bytes: lower case, upper case and colon-separated', (v) => {
    const hex = Buffer.from(v, 'utf8').toString('hex');
    return `${hex} ${hex.toUpperCase()} ${hex.match(/../g)!.join(':')}`;
  }),
};

let cutHeaderAnswers = 0;

/**
 * The unread-* rows: the password endpoint serves the password in a body the suite holds but
 * does not parse (`serve`), or as usual; with `echoElsewhere`, a quiet endpoint answers 500
 * quoting the passwords (as `echoed` writes them), so only what the suite learned from the
 * unread body can hide them.
 */
function unread(how: string, options: { readonly company?: Misbehaviour['company']; readonly serve?: (answer: Answer, password: string, envId: string) => true; readonly echoed?: (password: string) => string }): Misbehaviour {
  const echoed = options.echoed;
  return {
    description: `serves the SFTP password ${how}`,
    someEndpoint: options.serve ? PASSWORD_ENDPOINT : QUIET_ENDPOINT,
    choosesEndpoints: true,
    company: options.company ?? ((company) => withPasswords(company, servedPassword)),
    wire: (answer) => {
      const { res, response, request, passwords, served } = answer;
      if (echoed && response.endpoint?.name === QUIET_ENDPOINT) {
        const forms = passwords.map(echoed);
        for (const form of forms) if (!passwords.includes(form)) served(form);
        return writeText(res, 500, JSON.stringify({ message: `Internal error; passwords ${forms.join(' | ')}`, status: 500 }));
      }
      if (!options.serve || response.endpoint?.name !== PASSWORD_ENDPOINT || !is2xx(response.status)) return false;
      const envId = /\/environments\/([^/?]+)/.exec(request.url)?.[1] ?? '';
      const env = isObject(response.body) && isObject(response.body.environment) ? response.body.environment : {};
      return options.serve(answer, typeof env.sftp_password === 'string' ? env.sftp_password : passwords[0]!, envId);
    },
  };
}

/**
 * The served-* rows: the password endpoint answers 200 with the password in `layout`, under
 * `contentType`, and echoes it in an `x-echo` header: the header is printed with the failure, so
 * the run must have learned the value from the layout (no text search knows it otherwise).
 */
function servedAs(how: string, contentType: string, layout: (envId: string, password: string) => string): Misbehaviour {
  return {
    description: `serves the SFTP password ${how}, and echoes it in a header`,
    someEndpoint: PASSWORD_ENDPOINT,
    company: (company) => withPasswords(company, servedPassword),
    wire: ({ res, response, request, passwords }) => {
      if (!is2xx(response.status)) return false;
      const envId = /\/environments\/([^/?]+)/.exec(request.url)?.[1] ?? '';
      const env = isObject(response.body) && isObject(response.body.environment) ? response.body.environment : {};
      const password = typeof env.sftp_password === 'string' ? env.sftp_password : passwords[0]!;
      return writeText(res, 200, layout(envId, password), { 'content-type': contentType, 'x-echo': password });
    },
  };
}

/**
 * The echo-* rows: one endpoint answers 500 quoting the request's key and the passwords in one
 * form, in its message; the passwords are served as usual, so the suite knows them.
 */
function echoIn(how: string, form: (value: string) => string): Misbehaviour {
  return {
    description: `answers 500 quoting the key and the passwords ${how}`,
    someEndpoint: QUIET_ENDPOINT,
    company: (company) => withPasswords({ ...company, apiKey: ECHO_KEY }, echoPassword),
    wire: ({ res, request, passwords }) => {
      const key = requestKey(request);
      const values = [...(key === undefined ? [] : [key]), ...passwords];
      return writeText(res, 500, JSON.stringify({ message: `Internal error; request was ${values.map(form).join(' | ')}`, status: 500 }));
    },
  };
}

let floodCount = 0;

/** Where the quote-injection row's command would leave its mark: one file per process. */
export const injectionMarker = `/tmp/hsc-hostile-injected-${process.pid}`;

export const describeBehaviour = (behaviour: Behaviour): string => misbehaviours[behaviour].description;

export async function startHostile(behaviour: Behaviour, scope: Scope, options: HostileOptions = {}): Promise<HostileServer> {
  const misbehaviour = misbehaviours[behaviour];
  const companies = seedCompanies().map((c, i) => (i === 0 && misbehaviour.company ? misbehaviour.company(c) : c));
  const company = companies[0]!;
  const site = company.sites[0]!;
  const passwords = [...new Set(company.sites.flatMap((s) => s.environments.map((e) => e.sftpPassword)))];
  const endpoint = scope === 'all' ? undefined : (options.endpoint ?? misbehaviour.someEndpoint);
  if (behaviour === 'gzip-bomb') await gzipBombBytes(); // compressed before the first request, not during it
  let inScope = 0;
  let streaming = 0;
  const servedSecrets: string[] = [];
  const served = (secret: string) => void servedSecrets.push(secret);
  const streamStarted = () => {
    streaming++;
    return () => void streaming--;
  };
  const variant: Variant = {
    name: `hostile-${behaviour}-${scope}`,
    kind: 'conformant',
    description: misbehaviour.description,
    hooks: {
      wire: (res, response, request) => {
        if (scope === 'some' && response.endpoint?.name !== endpoint && !misbehaviour.choosesEndpoints) return false;
        if (scope === 'most' && (!response.endpoint || DISCOVERY_READS.has(response.endpoint.name as EndpointName))) return false;
        inScope++;
        const socket = res.socket;
        if (!socket) return true; // the client is already gone: nothing to write to
        return misbehaviour.wire({ res, socket, response, request, passwords, streamStarted, served, servedCount: servedSecrets.length });
      },
    },
  };
  // Idle connections stay open past any stall of a loaded test machine: a client that reuses one
  // the server had just closed reads a reset no misbehaviour caused (the keep-alive race).
  const mock = await startMock({ port: 0, store: new Store({ companies }), variant, keepAliveTimeoutMs: 60_000 });
  return {
    url: mock.url,
    apiKey: company.apiKey,
    siteId: site.id,
    envIds: site.environments.map((e) => e.id),
    domainId: site.environments[0]!.domains[0]!.id,
    get secrets() {
      const wordLike = new Set(misbehaviour.wordLike ?? []);
      return [company.apiKey, ...passwords, ...servedSecrets].filter((s) => !wordLike.has(s));
    },
    wordLike: misbehaviour.wordLike ?? [],
    endpoint,
    stats: () => ({ inScope, streaming }),
    close: () => mock.close(),
  };
}
