/**
 * The generated client against a throwaway local HTTP server: every endpoint of the model sends
 * what the document says and gets back what the server said; every failure has its own type.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { Project } from 'ts-morph';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { Endpoint, FieldType, ResourceName } from '../spec/model.ts';
import { fillPath, operation, resource } from '../spec/queries.ts';
import { ApiError, HostedSiteClient, HostedSiteClientError, ResponseValidationError, TimeoutError, TransportError } from '../generated/client.ts';
import { generateClient } from './client.ts';

const API_KEY = 'hsk_live_0123456789abcdef-SECRET';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}
interface Answer {
  readonly status: number;
  readonly contentType?: string;
  readonly body?: string;
  /** Send the headers and this much of the body, then stall. */
  readonly stallAfter?: string;
  /** Never answer. */
  readonly hang?: true;
}

let received: Received[] = [];
let answer: (request: Received) => Answer = () => ({ status: 200, body: '{}' });
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const reply = answer(request);
      if (reply.hang) return;
      res.writeHead(reply.status, reply.contentType ? { 'content-type': reply.contentType } : {});
      if (reply.stallAfter !== undefined) res.write(reply.stallAfter);
      else res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

/** A base URL on a port that was just freed, so the connection is refused. */
async function closedBaseUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}/v2`;
}

const json = (status: number, body: unknown): Answer => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
const client = (options: Partial<ConstructorParameters<typeof HostedSiteClient>[0]> = {}) =>
  new HostedSiteClient({ baseUrl, apiKey: API_KEY, timeoutMs: 2000, ...options });

/** A value of a model type, for request bodies; enough to see it arrive intact. */
function sample(type: FieldType, depth = 0): unknown {
  switch (type.kind) {
    case 'string':
      return type.open?.occurs[0] ?? type.enum?.shown[0] ?? (type.pattern ? 'wp plugin list' : 'text "with" ünïcode');
    case 'integer':
      return 42;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'any':
      return { any: ['thing'] };
    case 'array':
      return [sample(type.items, depth)];
    case 'object':
      return Object.fromEntries(type.fields.map((f) => [f.name, sample(f.type, depth)]));
    case 'ref':
      return sampleResource(type.resource, depth + 1);
  }
}
const sampleResource = (name: ResourceName, depth: number): unknown =>
  depth > 3 ? {} : sample({ kind: 'object', fields: resource(name).fields }, depth);

/** Path values that need encoding, so a missing or doubled encoding shows. */
const pathValue = (name: string): string => `${name} ü/?#%&`;
const EMAIL = 'admin+ops@example.com';

/** Calls the client method named as the endpoint, with the arguments its kind takes. */
function callEndpoint(c: HostedSiteClient, e: Endpoint, body: unknown): Promise<unknown> {
  const params = {
    ...Object.fromEntries(e.pathParams.map((p) => [p.name, pathValue(p.name)])),
    ...Object.fromEntries(e.queryParams.map((p) => [p.name, EMAIL])),
  };
  const args = [...(e.pathParams.length + e.queryParams.length > 0 ? [params] : []), ...(e.body ? [body] : [])];
  const method = (c as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[e.name];
  if (typeof method !== 'function') throw new Error(`the client has no method ${e.name}`);
  return method.apply(c, args);
}

const bodyOf = (e: Endpoint): unknown => (e.body ? sample({ kind: 'object', fields: e.body }) : undefined);
const successOf = (e: Endpoint): Answer =>
  e.success.kind === 'ack'
    ? json(202, { operation_id: `${e.success.operationKind}-0b7c2a53-3c1e-4d5e-9f7a-1a2b3c4d5e6f`, message: 'in progress', status: 202 })
    : json(200, { endpoint: e.name, nested: { list: [1, 'two', null] } });

const endpointCases = api.endpoints.map((e) => [e.name, e] as const);

describe('HostedSiteClient: one method per endpoint', () => {
  it('has exactly the model’s endpoint names as methods', () => {
    const methods = Object.getOwnPropertyNames(HostedSiteClient.prototype).filter((name) => name !== 'constructor');
    expect(methods.sort()).toEqual(api.endpoints.map((e) => e.name).sort());
  });

  it.each(endpointCases)('%s sends method, encoded path, query, auth, and its JSON body', async (_, e) => {
    answer = () => successOf(e);
    const body = bodyOf(e);
    await callEndpoint(client(), e, body);

    expect(received).toHaveLength(1);
    const got = received[0]!;
    const url = new URL(got.url, baseUrl);
    const pathValues = Object.fromEntries(e.pathParams.map((p) => [p.name, pathValue(p.name)]));
    expect(got.method).toBe(e.method);
    expect(url.pathname).toBe(`${api.basePath}${fillPath(e.path, pathValues)}`);
    expect(url.pathname).not.toMatch(/[ ü?#]/);
    expect(Object.fromEntries(url.searchParams)).toEqual(Object.fromEntries(e.queryParams.map((p) => [p.name, EMAIL])));
    expect(got.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(got.headers.accept).toBe('application/json');
    if (e.body) {
      expect(got.headers['content-type']).toBe('application/json');
      expect(JSON.parse(got.body)).toEqual(body);
    } else {
      expect(got.headers['content-type']).toBeUndefined();
      expect(got.body).toBe('');
    }
  });

  it.each(endpointCases)('%s returns the success body parsed', async (_, e) => {
    const success = successOf(e);
    answer = () => success;
    await expect(callEndpoint(client(), e, bodyOf(e))).resolves.toEqual(JSON.parse(success.body ?? ''));
  });

  it('sends the JSON body of the GET that lists themes', async () => {
    answer = () => json(200, {});
    await client().listThemes({ env_id: 'env-1' }, { status: 'active', column: 'name' });
    expect(received[0]).toMatchObject({ method: 'GET', url: '/v2/sites/environments/env-1/wp-themes' });
    expect(received[0]?.headers['content-length']).toBe(String(received[0]?.body.length));
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ status: 'active', column: 'name' });
  });
});

/** Every endpoint with every error status of its row in §Errors. */
const errorCases = api.endpoints.flatMap((e) => e.errors.map((status) => [e.name, status, e] as const));

describe('HostedSiteClient: answers outside 2xx', () => {
  it.each(errorCases)('%s: a JSON error body with status %i becomes ApiError', async (_, status, e) => {
    const errorBody = { message: 'Could not find data', status, data: { id: 'x', reasons: ['gone'] } };
    answer = () => json(status, errorBody);
    const error = await callEndpoint(client(), e, bodyOf(e)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'ApiError', status, endpoint: e.name, operation: operation(e), body: errorBody });
    expect((error as ApiError).message).toContain(`${operation(e)} answered HTTP ${status}: Could not find data`);
  });

  it.each([
    ['a non-JSON 500', { status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' }],
    ['an empty 503', { status: 503 }],
    ['a 302 redirect', { status: 302, body: 'Found' }],
    ['JSON that is not an Error body', { status: 400, contentType: 'application/json', body: '{"error":"bad"}' }],
    ['an Error body with a string status', { status: 404, contentType: 'application/json', body: '{"message":"x","status":"404"}' }],
  ] as const)('%s gives ApiError with the raw text and no body', async (_, reply: Answer) => {
    answer = () => reply;
    const error = await client().getSite({ site_id: 's1' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: reply.status, body: undefined, text: reply.body ?? '', operation: 'GET /sites/{site_id}' });
  });

  it('never shows the API key, even when the server echoes it', async () => {
    answer = (request) =>
      json(401, { message: `No or invalid API key provided: ${request.headers.authorization ?? ''}`, status: 401, data: { header: request.headers.authorization } });
    const c = client();
    const error = await c.validateApiKey().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    for (const text of [apiError.message, apiError.text, apiError.stack ?? '', JSON.stringify(apiError.body), inspect(apiError, { depth: 9 }), inspect(c)]) {
      expect(text).not.toContain(API_KEY);
    }
    expect(apiError.message).toContain('[redacted]');
  });
});

describe('HostedSiteClient: failures without an answer', () => {
  it('gives TimeoutError when no answer comes within timeoutMs', async () => {
    answer = () => ({ status: 200, hang: true });
    const started = Date.now();
    const error = await client({ timeoutMs: 150 }).getSshStatus({ env_id: 'e' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ name: 'TimeoutError', timeoutMs: 150, operation: 'GET /sites/environments/{env_id}/ssh/get-status' });
    expect(Date.now() - started).toBeLessThan(1500); // a hang guard, ten times the deadline: not the property tested
  });

  it('gives TimeoutError when the body stalls after the headers', async () => {
    answer = () => ({ status: 200, contentType: 'application/json', stallAfter: '{"environment":' });
    await expect(client({ timeoutMs: 150 }).getSshStatus({ env_id: 'e' })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('gives TransportError with the system code when nothing listens', async () => {
    const error = await client({ baseUrl: await closedBaseUrl() }).validateApiKey().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', operation: 'GET /validate' });
    expect((error as Error).message).not.toContain(API_KEY);
  });
});

describe('HostedSiteClient: success bodies', () => {
  it('refuses a success body that is not JSON', async () => {
    answer = () => ({ status: 200, contentType: 'text/plain', body: 'ok' });
    const error = await client().getSshStatus({ env_id: 'e' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, body: 'ok', problems: ['the body is not JSON'] });
  });

  it('returns a body that does not match its schema when validateResponses is off', async () => {
    answer = () => json(200, { unexpected: true });
    await expect(client().getSshStatus({ env_id: 'e' })).resolves.toEqual({ unexpected: true });
  });

  it('with validateResponses, passes a conforming body and rejects a wrong one', async () => {
    const c = client({ validateResponses: true });
    const good = { environment: { active_container: { is_ssh_enabled: true } } };
    answer = () => json(200, good);
    await expect(c.getSshStatus({ env_id: 'e' })).resolves.toEqual(good);

    answer = () => json(200, { environment: { active_container: { is_ssh_enabled: 'yes' } } });
    const error = await c.getSshStatus({ env_id: 'e' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).problems.join()).toContain('/environment/active_container/is_ssh_enabled');
  });

  it('with validateResponses, rejects an acknowledgement of another operation kind', async () => {
    answer = () => json(202, { operation_id: 'sites:reset-site-0b7c2a53-3c1e-4d5e-9f7a-1a2b3c4d5e6f', message: 'in progress', status: 202 });
    const body = { environment_id: '0b7c2a53-3c1e-4d5e-9f7a-1a2b3c4d5e6f', cdn_cache_id: '0b7c2a53-3c1e-4d5e-9f7a-1a2b3c4d5e6f' };
    await expect(client({ validateResponses: true }).clearCdnCache(body)).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

describe('HostedSiteClient: one base class for every error a call throws', () => {
  const params = { env_id: 'e' };
  /** Each failure a call can end in: the error type it throws, and a call that ends in it. */
  const failures = [
    [
      'ApiError',
      ApiError,
      async () => {
        answer = () => json(404, { message: 'Could not find data', status: 404 });
        return client().getSshStatus(params);
      },
    ],
    ['TransportError', TransportError, async () => client({ baseUrl: await closedBaseUrl() }).getSshStatus(params)],
    [
      'TimeoutError',
      TimeoutError,
      async () => {
        answer = () => ({ status: 200, hang: true });
        return client({ timeoutMs: 150 }).getSshStatus(params);
      },
    ],
    [
      'ResponseValidationError (not JSON)',
      ResponseValidationError,
      async () => {
        answer = () => ({ status: 200, contentType: 'text/plain', body: 'ok' });
        return client().getSshStatus(params);
      },
    ],
    [
      'ResponseValidationError (schema)',
      ResponseValidationError,
      async () => {
        answer = () => json(200, { environment: 'none' });
        return client({ validateResponses: true }).getSshStatus(params);
      },
    ],
  ] as const;

  it.each(failures)('%s is a HostedSiteClientError that says where it happened', async (_, type, call) => {
    const error = await call().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(HostedSiteClientError);
    expect(error).toBeInstanceOf(Error);
    // What a caller does: one check, then the fields every error has.
    if (!(error instanceof HostedSiteClientError)) throw new Error('not a HostedSiteClientError');
    expect([error.name, error.endpoint, error.operation]).toEqual([type.name, 'getSshStatus', 'GET /sites/environments/{env_id}/ssh/get-status']);
    expect(error.message).not.toContain(API_KEY);
  });
});

describe('HostedSiteClient: arguments', () => {
  it('accepts a base URL with a trailing slash and refuses one without /v2', async () => {
    answer = () => json(200, {});
    await client({ baseUrl: `${baseUrl}/` }).validateApiKey();
    expect(received[0]?.url).toBe('/v2/validate');
    expect(() => client({ baseUrl: baseUrl.replace('/v2', '/v1') })).toThrow(/baseUrl must end in \/v2/);
  });

  it.each(['', '.', '..'])('refuses the path value %j, which would address another endpoint', async (value) => {
    await expect(client().getSite({ site_id: value })).rejects.toThrow(TypeError);
    expect(received).toHaveLength(0);
  });
});

describe('generateClient', () => {
  const text = generateClient(api)[0]?.contents ?? '';
  const clientClass = new Project({ useInMemoryFileSystem: true }).createSourceFile('client.ts', text).getClassOrThrow('HostedSiteClient');

  it('starts with the banner and is deterministic', () => {
    expect(text.startsWith('/*\n * generated from spec 1.106.0 — do not edit.')).toBe(true);
    expect(generateClient(api)[0]?.contents).toBe(text);
  });

  it.each(endpointCases)('documents %s: summary, METHOD /path, error statuses, deprecation', (name, e) => {
    const doc = clientClass.getMethodOrThrow(name).getJsDocs().map((d) => d.getText()).join('\n');
    expect(doc).toContain(e.summary);
    expect(doc).toContain(`\`${operation(e)}\``);
    for (const status of e.errors) expect(doc).toContain(`${status} (`);
    expect(doc.includes('@deprecated')).toBe(e.deprecated !== undefined);
  });
});
