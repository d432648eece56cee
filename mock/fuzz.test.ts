/**
 * Robustness of the mock over raw HTTP (issue 3). Requests no client library would send — odd
 * methods, mangled paths and percent-encodings, odd or duplicate headers, malformed, non-UTF-8,
 * oversized and deeply nested bodies, broken framing — are each answered, on a socket of their
 * own: never 5xx, never silence, always JSON, and the document's error body (`status` equal to
 * the HTTP status) whenever the answer is not a success. Half the examples are well-formed
 * requests with an odd body only, so that odd values reach the handlers. Afterwards every read
 * endpoint still answers a valid response for every fixture: fuzzing may change the state,
 * never corrupt it. A table pins the cases Node's HTTP layer used to answer on its own.
 *
 * HEAD is not an endpoint of the document, so it is answered like any unlisted method (401 or
 * 404) with the error's headers and, as HTTP requires, no body bytes.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseValidators, validateAcknowledgement, validateErrorBody } from '../generated/validators.js';
import type { Validator } from '../generated/validators.js';
import { requestBodyArb } from '../spec/arbitraries.ts';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { fillPath, isAck, mockErrorStatuses } from '../spec/queries.ts';
import type { CompanySeed } from './fixtures.ts';
import { MAX_BODY_BYTES } from './policy.ts';
import { startMock, type RunningMock } from './server.ts';

/** Examples per run; `FC_RUNS=5000 FC_SEED=7 npx vitest run mock/fuzz.test.ts` digs deeper. */
const NUM_RUNS = 250;
/** Per exchange; the mock answers in milliseconds, so this only turns a hang into a failure. */
const ANSWER_TIMEOUT_MS = 10_000;

// ---- raw HTTP ---------------------------------------------------------------------------------

interface RawResponse {
  readonly status: number;
  /** Lower-case names; repeated fields joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * The responses in `bytes`, in order, interim (1xx) ones dropped. Bodies are cut by
 * content-length (a HEAD answer has none to cut); a response without one takes the rest.
 */
function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf(HEAD_END);
    if (end < 0) return responses;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
    rest = rest.subarray(end + HEAD_END.length);
    if (status >= 100 && status < 200) continue;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const length = /^\d+$/.test(headers['content-length'] ?? '') ? Number(headers['content-length']) : rest.length;
    responses.push({ status, headers, body: rest.subarray(0, length) });
    rest = rest.subarray(length);
  }
}

/**
 * Sends `bytes` on a fresh connection, half-closes it, and reads until the server closes: every
 * request says `Connection: close` (or is HTTP/1.0, or is unparsable), so the server must.
 */
function exchange(port: number, bytes: Buffer): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let failure: Error | undefined;
    const timer = setTimeout(() => {
      failure = new Error(`no answer and no close within ${ANSWER_TIMEOUT_MS} ms`);
      socket.destroy();
    }, ANSWER_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (the server closing on unread bytes) is not a failure; no answer is.
    socket.on('error', (error) => (failure ??= error));
    socket.on('close', () => {
      clearTimeout(timer);
      const responses = parseResponses(Buffer.concat(chunks));
      if (responses.length && !failure?.message.startsWith('no answer')) resolve(responses);
      else reject(failure ?? new Error(`connection closed without a whole response (${Buffer.concat(chunks).length} bytes)`));
    });
    socket.end(bytes);
  });
}

// ---- the requests -----------------------------------------------------------------------------

/** A body as bytes with a short label, so fast-check's counterexamples stay readable. */
interface BodySpec {
  readonly label: string;
  readonly bytes: Buffer;
}
const body = (label: string, bytes: Buffer | string): BodySpec => {
  const value = { label, bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes };
  return Object.assign(value, { [fc.toStringMethod]: () => `${label} (${value.bytes.length} bytes)` });
};

type Framing = 'content-length' | 'chunked' | 'none' | 'truncated' | 'length-and-chunked';

interface RawRequest {
  readonly endpoint: string;
  readonly method: string;
  /** The request-target as it goes on the wire (may hold raw non-ASCII characters). */
  readonly target: string;
  readonly version: string;
  readonly headers: readonly string[];
  readonly body: BodySpec;
  readonly framing: Framing;
}

function render(request: RawRequest): Buffer {
  const { method, target, version, headers, body: { bytes }, framing } = request;
  const framingHeaders: Record<Framing, string[]> = {
    'content-length': [`Content-Length: ${bytes.length}`],
    chunked: ['Transfer-Encoding: chunked'],
    none: [],
    truncated: [`Content-Length: ${bytes.length + 16}`],
    'length-and-chunked': [`Content-Length: ${bytes.length}`, 'Transfer-Encoding: chunked'],
  };
  const requestLine = [method, target, version].filter((part) => part !== '').join(' ');
  const head = [requestLine, ...headers, ...framingHeaders[framing], 'Connection: close', '', ''].join('\r\n');
  // Non-ASCII characters go out as UTF-8 bytes, as a careless client would send them.
  const headBytes = Buffer.from(head, 'utf8');
  if (framing === 'none') return headBytes;
  if (framing === 'chunked' || framing === 'length-and-chunked') {
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 7919) {
      const piece = bytes.subarray(at, at + 7919);
      chunks.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    }
    return Buffer.concat([headBytes, ...chunks, Buffer.from('0\r\n\r\n')]);
  }
  return Buffer.concat([headBytes, bytes]);
}

const describeRequest = (r: RawRequest): string =>
  [`${r.method} ${r.target.length > 200 ? `${r.target.slice(0, 200)}…(${r.target.length} chars)` : r.target} ${r.version}`.trim(),
    ...r.headers.map((h) => (h.length > 120 ? `${h.slice(0, 120)}…(${h.length} chars)` : h)),
    `framing ${r.framing}, body ${r.body.label} (${r.body.bytes.length} bytes), endpoint ${r.endpoint}`].join(' | ');

/** One company's fixture ids, copied at the start: the fuzzing removes SFTP accounts from the store. */
interface TenantIds {
  readonly apiKey: string;
  /** Ids by path parameter name. */
  readonly byParam: Readonly<Record<string, readonly string[]>>;
  readonly environments: readonly { readonly id: string; readonly cdnCacheId: string; readonly backupIds: readonly number[]; readonly recordNames: readonly string[] }[];
  readonly userIds: readonly string[];
}

interface Fixtures {
  readonly own: TenantIds;
  readonly other: TenantIds;
}

const environmentsOf = (c: CompanySeed) => c.sites.flatMap((s) => s.environments);

function tenantIds(company: CompanySeed): TenantIds {
  const envs = environmentsOf(company);
  const envIds = envs.map((e) => e.id);
  return {
    apiKey: company.apiKey,
    byParam: {
      id: [company.id],
      site_id: company.sites.map((s) => s.id),
      env_id: envIds,
      target_env_id: envIds,
      domain_id: envs.flatMap((e) => e.domains.map((d) => d.id)),
      sftp_account_id: envs.flatMap((e) => e.sftpAccounts.map((a) => a.id)),
    },
    environments: envs.map((e) => ({
      id: e.id,
      cdnCacheId: e.cdnCacheId,
      backupIds: e.backups.map((b) => b.id),
      recordNames: e.domains.flatMap((d) => d.dnsRecords.map((r) => r.name)),
    })),
    userIds: company.users.map((u) => u.user.id),
  };
}

/** Ids a path parameter can take: mostly the caller's own, sometimes anything else. */
function idArb(param: string, { own, other }: Fixtures): fc.Arbitrary<string> {
  const idsOf = (tenant: TenantIds): readonly string[] => {
    const ids = tenant.byParam[param];
    if (!ids?.length) throw new Error(`no fixture ids for {${param}}`);
    return ids;
  };
  const encoded = fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent);
  const raw = fc.constantFrom('..', '.', '', '%zz', '%ff', '%', '%2e%2e', '%2F', '%00', '%C3%28', '%E2%82', 'é', '日本', '\t', 'a b');
  return fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...idsOf(own)) },
    { weight: 2, arbitrary: fc.constantFrom(...idsOf(own)).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: fc.constantFrom(...idsOf(other)) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom(...idsOf(own)).map((id) => id.replace(/[0-9a-f]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)) },
    { weight: 2, arbitrary: encoded },
    { weight: 2, arbitrary: raw },
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) => 'x'.repeat(n)) },
  );
}

/** One change to a path that was filled in from the model. */
const pathMutationArb: fc.Arbitrary<(path: string) => string> = fc.oneof(
  fc.nat().map((n) => (path: string) => insertAtSlash(path, n, '/..')),
  fc.nat().map((n) => (path: string) => insertAtSlash(path, n, '/.')),
  fc.nat().map((n) => (path: string) => insertAtSlash(path, n, '/')),
  fc.constant((path: string) => `${path}/`),
  fc.constant((path: string) => path.toUpperCase()),
  fc.constant((path: string) => path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)),
  fc.constantFrom('é', '日本', '%C3%A9', '%zz', '%ff', ';x=1', '*').map((tail) => (path: string) => `${path}${tail}`),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => (path: string) => `${path}/${'y'.repeat(n)}`),
  fc.constantFrom('/v1', '/V2', '', '/v2/v2', '//v2', '/v2%2F', 'http://127.0.0.1/v2', 'v2').map((base) => (path: string) => path.replace(/^\/v2/, base)),
);

function insertAtSlash(path: string, n: number, insert: string): string {
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index);
  const at = slashes[n % slashes.length] ?? 0;
  return `${path.slice(0, at)}${insert}${path.slice(at)}`;
}

const queryArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 4, arbitrary: fc.constant(`?email=${encodeURIComponent('admin@alpha.example.test')}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom('?email=%zz', '?email=a&email=b', '?email=', '?', '?%', '?&&=&', '#fragment', '?email=admin%40alpha.example.test#x', '?email=ADMIN@ALPHA.EXAMPLE.TEST'),
  },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 20 })).map((q) => `?${new URLSearchParams(q)}`) },
);

function methodArb(endpoint: Endpoint): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constant(endpoint.method) },
    { weight: 4, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
    { weight: 2, arbitrary: fc.constantFrom('get', 'Post', 'TRACE', 'CONNECT', 'PROPFIND', 'PURGE', 'M-SEARCH', 'QUERY', 'PRI', 'SOURCE') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{20,200}$/) },
    { weight: 1, arbitrary: fc.constantFrom('', 'GE T', 'GéT', 'GET\t', 'G\x00T') },
  );
}

const versionArb = fc.oneof(
  { weight: 20, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 2, arbitrary: fc.constant('HTTP/1.0') },
  { weight: 2, arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/9.9', 'http/1.1', 'HTTP/1.1x', '') },
);

function headersArb({ own, other }: Fixtures): fc.Arbitrary<string[]> {
  const auth = fc.constantFrom(
    `Bearer ${own.apiKey}`,
    `bearer ${own.apiKey}`,
    `BEARER   ${own.apiKey}  `,
    `Bearer ${other.apiKey}`,
    `Bearer ${own.apiKey}x`,
    `Bearer ${own.apiKey} extra`,
    `Bearer\t${own.apiKey}`,
    `Bearer "${own.apiKey}"`,
    'Bearer',
    'Bearer ',
    '',
    `Basic ${Buffer.from(`${own.apiKey}:`).toString('base64')}`,
    `Bearer ${own.apiKey.toUpperCase()}`,
    `Bearer ${own.apiKey}\u00e9`,
  );
  const authorization = fc.oneof(
    { weight: 10, arbitrary: fc.constant([`Authorization: Bearer ${own.apiKey}`]) },
    { weight: 3, arbitrary: auth.map((a) => [`Authorization: ${a}`]) },
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.tuple(auth, auth).map(([a, b]) => [`Authorization: ${a}`, `authorization: ${b}`]) },
  );
  const contentType = fc.oneof(
    { weight: 16, arbitrary: fc.constant(['Content-Type: application/json']) },
    { weight: 2, arbitrary: fc.constant([]) },
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'application/problem+json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          ';;;',
          '',
          'application/jsonx',
          'application/json, text/plain',
        )
        .map((type) => [`Content-Type: ${type}`]),
    },
    { weight: 1, arbitrary: fc.constant(['Content-Type: text/plain', 'Content-Type: application/json']) },
  );
  const odd = fc.subarray(
    [
      'Expect: 100-continue',
      'Expect: something-else',
      'Accept: text/html',
      'Accept-Encoding: gzip, br',
      'Content-Encoding: gzip',
      'Transfer-Encoding: gzip',
      'Content-Length: abc',
      'X-Latin: caf\u00e9',
      'X-Control: a\x7fb',
      'X-Null: a\x00b',
      'Bad Header: x',
      ': no-name',
      `X-Long: ${'z'.repeat(20_000)}`,
      'Cookie: session=1',
      'Upgrade: h2c',
    ],
    { minLength: 1, maxLength: 2 },
  );
  const extra = fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: odd });
  const host = fc.oneof(
    { weight: 8, arbitrary: fc.constant(['Host: 127.0.0.1']) },
    { weight: 1, arbitrary: fc.constantFrom([], ['Host: a', 'Host: b'], ['Host: é']) },
  );
  return fc.tuple(host, authorization, contentType, extra).map((parts) => parts.flat());
}

/** A body that is valid for the endpoint, with ids the caller owns. */
function validBodyArb(endpoint: Endpoint, { own }: Fixtures): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom(...own.environments).chain((e) =>
    requestBodyArb(endpoint, {
      environment_id: fc.constant(e.id),
      cdn_cache_id: fc.constant(e.cdnCacheId),
      backup_id: fc.constantFrom(...e.backupIds),
      notified_user_id: fc.constantFrom(...own.userIds),
      name: fc.constantFrom(...e.recordNames),
    }),
  );
}

function bodyArb(endpoint: Endpoint, fixtures: Fixtures, kind: 'odd' | 'body-only'): fc.Arbitrary<BodySpec> {
  const valid = endpoint.body ? validBodyArb(endpoint, fixtures) : fc.constant<Record<string, unknown>>({});
  const json = (label: string) => (value: unknown) => body(label, JSON.stringify(value));
  const nest = (depth: number, shape: 'array' | 'object') => (shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  const replaced = (keysOf: (value: Record<string, unknown>) => string[], replacement: fc.Arbitrary<unknown>, what: string) =>
    fc.tuple(valid, fc.nat(), replacement).map(([value, n, by]) => {
      const keys = keysOf(value);
      const key = keys.length ? keys[n % keys.length]! : 'extra';
      return body(`valid JSON with ${key} replaced by ${what}`, JSON.stringify({ ...value, [key]: by }));
    });
  // A string field given any string passes the schema's type check and reaches the handler.
  const stringFields = (endpoint.body ?? []).filter((f) => f.type.kind === 'string').map((f) => f.name);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(body('empty', '')) },
    { weight: 16, arbitrary: valid.map(json('valid JSON')) },
    { weight: kind === 'body-only' ? 40 : 5, arbitrary: replaced(() => stringFields, fc.string({ unit: 'grapheme', maxLength: 30 }), 'any string') },
    { weight: 5, arbitrary: replaced((value) => Object.keys(value), fc.jsonValue({ maxDepth: 3 }), 'any JSON') },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json('any JSON value')) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom('{', '{"a":}', 'nul', '\ufeff{}', '{}x', '[1,]', "{'a':1}", '{"a":1,"a":2}', '"\\ud800"', 'NaN', '1e999999', '{"__proto__":{"x":1}}', ' \n\t ')
        .map((text) => body(`malformed or odd JSON ${JSON.stringify(text)}`, text)),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(0xff, 0xc3, 0xed, 0x80)).map(([value, byte]) => {
        const text = Buffer.from(JSON.stringify({ ...value, extra: 'XX' }));
        const at = text.indexOf('XX');
        return body(`valid JSON with byte 0x${byte.toString(16)} in a string`, Buffer.concat([text.subarray(0, at), Buffer.from([byte]), text.subarray(at + 1)]));
      }),
    },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 256 }).map((bytes) => body('random bytes', Buffer.from(bytes))) },
    {
      weight: 2,
      arbitrary: fc.integer({ min: 1, max: 64 * 1024 }).map((extra) => body('JSON above MAX_BODY_BYTES', `{"wp_command":"wp ${'a'.repeat(MAX_BODY_BYTES + extra)}"}`)),
    },
    {
      weight: 1,
      arbitrary: valid.map((value) => {
        const text = JSON.stringify(value);
        return body('valid JSON padded to exactly MAX_BODY_BYTES', `${text}${' '.repeat(Math.max(0, MAX_BODY_BYTES - Buffer.byteLength(text)))}`);
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer({ min: 1_000, max: 60_000 }), fc.constantFrom('array' as const, 'object' as const), fc.boolean())
        .map(([depth, shape, inField]) =>
          body(`${shape}s nested ${depth} deep${inField ? ' in a field' : ''}`, inField ? `{"wp_command":${nest(depth, shape)}}` : nest(depth, shape)),
        ),
    },
  );
}

/**
 * A raw request for one endpoint of the model. `odd`: anything may be off (method, target,
 * version, headers, framing, body); oddities multiply, so most such requests stop at the HTTP
 * parser or the pipeline's first checks. `body-only`: a well-formed request whose body may be
 * off, the way to reach the handlers with values the schemas admit but the state cannot hold.
 */
function requestArb(fixtures: Fixtures, kind: 'odd' | 'body-only'): fc.Arbitrary<RawRequest> {
  const endpoints = kind === 'odd' ? api.endpoints : api.endpoints.filter((e) => e.body);
  return fc.constantFrom(...endpoints).chain((endpoint) => {
    const odd = kind === 'odd';
    const params = Object.fromEntries(
      endpoint.pathParams.map((p) => [p.name, odd ? idArb(p.name, fixtures) : fc.constantFrom(...fixtures.own.byParam[p.name]!)]),
    );
    const path = fc
      .record(params)
      // Odd ids go in as they are: fillPath would encode them, and the point is to send them raw.
      .map((values) => `${api.basePath}${endpoint.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => values[name] ?? '')}`);
    const validQuery = endpoint.queryParams.length ? `?email=${encodeURIComponent('admin@alpha.example.test')}` : '';
    const target = odd
      ? fc
          .tuple(path, fc.array(pathMutationArb, { maxLength: 2 }), fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }), queryArb)
          .map(([p, mutations, mutate, query]) => `${mutate ? mutations.reduce((acc, m) => m(acc), p) : p}${query}`)
      : path.map((p) => `${p}${validQuery}`);
    const framing = fc.oneof(
      { weight: 12, arbitrary: fc.constant<Framing>('content-length') },
      { weight: 3, arbitrary: fc.constant<Framing>('chunked') },
      { weight: 2, arbitrary: fc.constant<Framing>('none') },
      { weight: 1, arbitrary: fc.constantFrom<Framing>('truncated', 'length-and-chunked') },
    );
    const plainHeaders = ['Host: 127.0.0.1', `Authorization: Bearer ${fixtures.own.apiKey}`, 'Content-Type: application/json'];
    return fc
      .record({
        method: odd ? methodArb(endpoint) : fc.constant(endpoint.method),
        target,
        version: odd ? versionArb : fc.constant('HTTP/1.1'),
        headers: odd ? headersArb(fixtures) : fc.constant(plainHeaders),
        body: bodyArb(endpoint, fixtures, kind),
        framing: odd ? framing : fc.constantFrom<Framing>('content-length', 'chunked'),
      })
      .map((r) => {
        const request: RawRequest = { endpoint: endpoint.name, ...r };
        return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
      });
  });
}

// ---- what every answer must be ------------------------------------------------------------------

/** Statuses the mock may answer at all: the successes and every error status of its endpoints, below 500. */
const answerable = new Set([200, 202, ...api.endpoints.flatMap((e) => mockErrorStatuses(e))].filter((s) => s < 500));
const dataValidators: readonly Validator[] = api.endpoints
  .filter((e) => !isAck(e))
  .map((e) => (responseValidators as Record<string, Validator>)[e.name]!);

function checkAnswer(method: string, response: RawResponse): void {
  expect(response.status, 'a 5xx (or an unparsable status line)').toBeLessThan(500);
  expect([...answerable], `status ${response.status} is not one the mock may answer`).toContain(response.status);
  expect(response.headers['content-type'], 'content-type').toMatch(/^application\/json(;|$)/);
  expect(response.headers['content-length'], 'content-length (every answer of the mock has one)').toMatch(/^\d+$/);
  if (method === 'HEAD') {
    expect(response.body.length, 'a HEAD response carries no body').toBe(0);
    expect(response.status, 'HEAD is not an endpoint of the document').toBeGreaterThanOrEqual(400);
    return;
  }
  expect(response.body.length, 'a whole body of content-length bytes').toBe(Number(response.headers['content-length']));
  const parsed: unknown = JSON.parse(response.body.toString('utf8'));
  if (response.status >= 400) {
    expect(validateErrorBody(parsed), `error body: ${JSON.stringify(validateErrorBody.errors)}`).toBe(true);
    expect((parsed as { status: number }).status, 'error body status equals the HTTP status').toBe(response.status);
  } else if (response.status === 202) {
    expect(validateAcknowledgement(parsed), `acknowledgement: ${JSON.stringify(validateAcknowledgement.errors)}`).toBe(true);
  } else {
    expect(dataValidators.some((validate) => validate(parsed)), `200 body matches no read or action response: ${response.body.toString('utf8').slice(0, 300)}`).toBe(true);
  }
}

// ---- the reads that must still work -------------------------------------------------------------

interface ReadCheck {
  readonly name: string;
  readonly path: string;
  readonly apiKey: string;
}

/** Every read endpoint, for every fixture of both companies, with a query where one is needed. */
function readChecks(companies: readonly CompanySeed[]): ReadCheck[] {
  return companies.flatMap((company) => {
    const envs = environmentsOf(company);
    const valuesFor = (param: string): string[] =>
      ({
        id: [company.id],
        site_id: company.sites.map((s) => s.id),
        env_id: envs.map((e) => e.id),
        domain_id: envs.flatMap((e) => e.domains.map((d) => d.id)),
      })[param] ?? [];
    return api.endpoints
      .filter((e) => e.effect === 'read')
      .flatMap((e) => {
        const [param] = e.pathParams; // reads name at most one id
        const query = e.queryParams.length ? `?email=${encodeURIComponent('admin@alpha.example.test')}` : '';
        const paths = param ? valuesFor(param.name).map((v) => fillPath(e.path, { [param.name]: v })) : [e.path];
        return paths.map((p) => ({ name: e.name, path: `${p}${query}`, apiKey: company.apiKey }));
      });
  });
}

// ---- the tests ----------------------------------------------------------------------------------

describe('mock robustness over raw HTTP', () => {
  let mock: RunningMock;
  let port: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    mock = await startMock({ log: (line) => logLines.push(line) });
    port = Number(new URL(mock.url).port);
  });
  afterAll(() => mock.close());

  // Requests Node's HTTP layer used to answer itself (bare 400/431/417, or a dropped connection),
  // and a malformed request pipelined behind a good one (Node answered the good one with the 400).
  const good = (k: string, close = '') => `GET /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\n${close}\r\n`;
  const cases: readonly [string, { given: (key: string, envId: string) => string; want: readonly number[] }][] = [
    ['lower-case method', { given: (k) => `get /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nConnection: close\r\n\r\n`, want: [400] }],
    ['unknown method token', { given: () => `FROB /v2/validate HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`, want: [400] }],
    ['raw UTF-8 in the path', { given: (k) => `GET /v2/sit\u00e9s HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nConnection: close\r\n\r\n`, want: [400] }],
    ['header block above 16 KiB', { given: (k) => `GET /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nX: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`, want: [400] }],
    ['Content-Length with Transfer-Encoding', { given: (k) => `POST /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{}`, want: [400] }],
    ['body shorter than Content-Length', { given: (k) => `POST /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nContent-Length: 20\r\nConnection: close\r\n\r\n{}`, want: [400] }],
    ['HEAD with a body shorter than Content-Length', { given: (k) => `HEAD /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nContent-Length: 20\r\nConnection: close\r\n\r\n{}`, want: [400] }],
    ['HTTP/2 preface', { given: () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', want: [400] }],
    ['CONNECT without a key', { given: () => 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', want: [401] }],
    ['CONNECT with a key', { given: (k) => `CONNECT /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nConnection: close\r\n\r\n`, want: [404] }],
    ['Expect other than 100-continue', { given: (k) => `GET /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nExpect: foo\r\nConnection: close\r\n\r\n`, want: [200] }],
    ['HTTP/1.1 without Host', { given: (k) => `GET /v2/validate HTTP/1.1\r\nAuthorization: Bearer ${k}\r\nConnection: close\r\n\r\n`, want: [200] }],
    ['HEAD of a read', { given: (k) => `HEAD /v2/validate HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nConnection: close\r\n\r\n`, want: [404] }],
    ['two pipelined requests', { given: (k) => `${good(k)}${good(k, 'Connection: close\r\n')}`, want: [200, 200] }],
    ['garbage pipelined behind good requests', { given: (k) => `${good(k)}${good(k)}get /v2/validate HTTP/1.1\r\n\r\n`, want: [200, 200, 400] }],
    ['garbage pipelined behind an action', { given: (k, env) => `${action(k, env)}${good(k)}GARBAGE\r\n\r\n`, want: [202, 200, 400] }],
  ];
  const action = (k: string, env: string) => {
    const body = JSON.stringify({ wp_command: 'wp cache flush' });
    return `POST /v2/sites/environments/${env}/run-wp-cli-command HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${k}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };
  it.each(cases)('%s: answered as %j', async (_, { given, want }) => {
    const text = given(mock.fixtures.apiKey, mock.store.companies[0]!.sites[0]!.environments[0]!.id);
    const responses = await exchange(port, Buffer.from(text, 'utf8'));
    expect(responses.map((r) => r.status)).toEqual(want);
    const method = text.split(' ')[0]!;
    for (const response of responses) checkAnswer(method, response);
  });

  it(`answers ${NUM_RUNS} arbitrary raw requests without 5xx, silence or a non-JSON error`, async () => {
    const [own, other] = mock.store.companies.map(tenantIds);
    await fc.assert(
      fc.asyncProperty(fc.oneof(requestArb({ own: own!, other: other! }, 'odd'), requestArb({ own: own!, other: other! }, 'body-only')), async (request) => {
        const responses = await exchange(port, render(request)).catch((error: Error) => error);
        // Node drops a connection whose request line reads like the HTTP/2 preface (`PRI` without
        // an HTTP/1 version) before any listener runs: nothing the mock can answer.
        if (responses instanceof Error && request.method === 'PRI') return;
        if (responses instanceof Error) throw responses;
        expect(responses.length, 'one request, one answer').toBe(1);
        checkAnswer(request.method, responses[0]!);
      }),
      { numRuns: process.env.FC_RUNS ? Number(process.env.FC_RUNS) : NUM_RUNS },
    );
    expect(logLines.filter((line) => line.startsWith('mock error')), 'the pipeline threw').toEqual([]);
  });

  it('refuses a DNS update whose record name is no host name (storing it would break every later read)', async () => {
    const domain = mock.store.companies[0]!.sites[0]!.environments[0]!.domains[0]!;
    const update = { type: 'A', name: 'not a host name', ttl: 300, new_resource_records: [{ value: '192.0.2.1' }], removed_resource_records: [] };
    const response = await fetch(`${mock.url}/domains/${domain.id}/dns-records`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(update),
    });
    expect(response.status).toBe(400);
    expect(domain.dnsRecords.map((r) => r.name)).not.toContain(update.name);
  });

  it('leaves every read of every fixture answering a valid response', async () => {
    const failures: string[] = [];
    for (const check of readChecks(mock.store.companies)) {
      const response = await fetch(`${mock.url}${check.path}`, { headers: { authorization: `Bearer ${check.apiKey}` } });
      const parsed: unknown = await response.json();
      const validate = (responseValidators as Record<string, Validator>)[check.name]!;
      if (response.status !== 200 || !validate(parsed)) {
        failures.push(`${check.name} ${check.path}: ${response.status} ${JSON.stringify(validate.errors ?? parsed).slice(0, 400)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
