/**
 * The mock's refusals: 401 for every way of not sending `Authorization: Bearer <key>`, 404 for
 * ids that name nothing, 400 for bodies and queries no reading accepts, each with the document's
 * error body and a status the endpoint may answer (`mockErrorStatuses`). Refused requests change
 * nothing. Inputs at the edge of each limit are accepted. A method and path the document does
 * not have keep the 404 body and meaning, and say they are no endpoint of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { formatArb, formatNearMisses, wpCommandNearMisses } from '../spec/arbitraries.ts';
import type { Endpoint, FieldType } from '../spec/model.ts';
import { isAck, mockErrorStatuses, operation } from '../spec/queries.ts';
import { WP_COMMAND_MAX_LENGTH } from '../spec/rules.ts';
import { validateErrorBody } from '../generated/validators.js';
import { notFound, renderError, unknownEndpoint } from './errors.ts';
import { MOCK_EXP_INTERVALS } from './policy.ts';
import { startMock, type RunningMock } from './server.ts';
import { expectError, rows, sampleOne, send, tenantOf, validRequest, type ApiRequest, type Exchange, type SendOptions, type Tenant } from './test-kit.ts';

let mock: RunningMock;
let tenant: Tenant;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  tenant = tenantOf(mock.store, mock.fixtures.companyId);
});
afterAll(() => mock.close());

/** Both companies' data and the operation log, to show a refused request changed nothing. */
const stateOf = (m: RunningMock) => ({ a: m.store.snapshot(m.fixtures.companyId), b: m.store.snapshot(m.fixtures.otherCompanyId), operations: m.store.acknowledgedOperations });

const expectSuccess = (answer: Exchange, endpoint: Endpoint) =>
  expect(answer.status, `${operation(endpoint)}: ${answer.text.slice(0, 300)}`).toBe(isAck(endpoint) ? 202 : 200);

const withPathIds = api.endpoints.filter((e) => e.pathParams.length > 0);
const withBody = api.endpoints.filter((e) => e.body !== undefined);
const withQuery = api.endpoints.filter((e) => e.queryParams.length > 0);
/** Fields the document marks required: the only ones whose absence the default mock refuses (UNK-BODY-MARKING, policy.ts). */
const markedRequired = (e: Endpoint) => (e.body ?? []).filter((f) => f.presence === 'required').map((f) => f.name);
const bodyFieldNames = (e: Endpoint) => (e.body ?? []).map((f) => f.name);

// ---- authentication (§Authentication 1-2) -------------------------------------------------------

const unknownKey = `hsc_${sampleOne(formatArb('uuid', 'request')).replaceAll('-', '')}`;

const unauthenticated: [string, { given: (key: string) => SendOptions; want: 401 }][] = [
  ['no Authorization header', { given: () => ({ authorization: null }), want: 401 }],
  ['an unknown key', { given: () => ({ authorization: `Bearer ${unknownKey}` }), want: 401 }],
  ['the key with one character more', { given: (key) => ({ authorization: `Bearer ${key}0` }), want: 401 }],
  ['the key with one character less', { given: (key) => ({ authorization: `Bearer ${key.slice(0, -1)}` }), want: 401 }],
  ['the key in upper case', { given: (key) => ({ authorization: `Bearer ${key.toUpperCase()}` }), want: 401 }],
  ['the key under the Basic scheme', { given: (key) => ({ authorization: `Basic ${key}` }), want: 401 }],
  ['the key as Basic credentials', { given: (key) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }), want: 401 }],
  ['the key under the Token scheme', { given: (key) => ({ authorization: `Token ${key}` }), want: 401 }],
  ['the key without a scheme', { given: (key) => ({ authorization: key }), want: 401 }],
  ['Bearer and the key without a space', { given: (key) => ({ authorization: `Bearer${key}` }), want: 401 }],
  ['an empty bearer token', { given: () => ({ authorization: 'Bearer ' }), want: 401 }],
  ['the scheme alone', { given: () => ({ authorization: 'Bearer' }), want: 401 }],
  ['an empty Authorization header', { given: () => ({ authorization: '' }), want: 401 }],
  ['two tokens', { given: (key) => ({ authorization: `Bearer ${key} ${key}` }), want: 401 }],
  ['the key in the query string as api_key', { given: (key) => ({ authorization: null, extraQuery: { api_key: key } }), want: 401 }],
  ['the key in the query string as access_token', { given: (key) => ({ authorization: null, extraQuery: { access_token: key } }), want: 401 }],
  ['the key in an X-API-Key header', { given: (key) => ({ authorization: null, headers: { 'x-api-key': key } }), want: 401 }],
];

describe.each(unauthenticated)('a request with %s', (_, { given, want }) => {
  it.each(rows(api.endpoints))(`is refused with ${want} on %s, changing nothing`, async (_, endpoint) => {
    const before = stateOf(mock);
    const answer = await send(mock.url, validRequest(endpoint, tenant), given(tenant.apiKey));
    expectError(answer, endpoint, want);
    expect((answer.body as { message: string }).message).toMatch(/API key/i);
    expect(stateOf(mock)).toEqual(before);
  });
});

// RFC 7235 §2.1: the scheme name is case-insensitive; one or more spaces separate it from the token.
const acceptedSchemes: [string, { given: (key: string) => string }][] = [
  ['Bearer', { given: (key) => `Bearer ${key}` }],
  ['bearer', { given: (key) => `bearer ${key}` }],
  ['BEARER', { given: (key) => `BEARER ${key}` }],
  ['bEaReR', { given: (key) => `bEaReR ${key}` }],
  ['Bearer and several spaces', { given: (key) => `Bearer   ${key}` }],
];

describe.each(acceptedSchemes)('Authorization: %s <key>', (_, { given }) => {
  // A mock of its own: every endpoint once, the SFTP removal included, on fresh state.
  let own: RunningMock;
  beforeAll(async () => {
    own = await startMock({ port: 0 });
  });
  afterAll(() => own.close());

  it.each(rows(api.endpoints))('is accepted on %s', async (_, endpoint) => {
    const answer = await send(own.url, validRequest(endpoint, tenantOf(own.store, own.fixtures.companyId)), { authorization: given(own.fixtures.apiKey) });
    expectSuccess(answer, endpoint);
  });
});

// ---- ids that name nothing (§Authentication 4; CONFLICT-READ-MALFORMED-ID, CONFLICT-ACTION-UNKNOWN-RESOURCE) ---

const unknownIds: [string, { given: (t: Tenant, param: string) => string; want: 404 }][] = [
  ['a random UUID', { given: () => sampleOne(formatArb('uuid', 'request')), want: 404 }],
  ['the nil UUID', { given: () => '00000000-0000-0000-0000-000000000000', want: 404 }],
  // A real id of the caller's, but of another kind of resource.
  ['an id of another kind', { given: (t, param) => (param === 'id' ? t.siteId : t.companyId), want: 404 }],
  ...formatNearMisses.uuid
    .filter((id) => id !== '') // an empty segment is another path
    .map((id): [string, { given: () => string; want: 404 }] => [`the non-UUID ${JSON.stringify(id)}`, { given: () => id, want: 404 }]),
  ['a non-UUID number', { given: () => '1001', want: 404 }],
  ['a non-UUID with an encoded slash', { given: (t) => `${t.companyId}/x`, want: 404 }],
];

describe.each(unknownIds)('a path id that is %s', (_, { given, want }) => {
  it.each(rows(withPathIds))(`answers ${want} on %s, changing nothing`, async (_, endpoint) => {
    for (const param of endpoint.pathParams) {
      const valid = validRequest(endpoint, tenant);
      const req: ApiRequest = { ...valid, params: { ...valid.params, [param.name]: given(tenant, param.name) } };
      const before = stateOf(mock);
      expectError(await send(mock.url, req, { apiKey: tenant.apiKey }), endpoint, want);
      expect(stateOf(mock)).toEqual(before);
    }
  });
});

// ---- bodies and queries (§Errors 400, §Limits) ---------------------------------------------------

/** How a case changes a valid request of its endpoint. */
type Alter = (valid: ApiRequest) => { req: ApiRequest; options?: SendOptions };
type InputCase = [string, { given: { endpoint: Endpoint; alter: Alter }; want: 400 | 'accepted' }];

const setField = (name: string, value: unknown): Alter => (valid) => ({ req: { ...valid, body: { ...valid.body, [name]: value } } });
const dropField = (name: string): Alter => (valid) => ({ req: { ...valid, body: Object.fromEntries(Object.entries(valid.body ?? {}).filter(([k]) => k !== name)) } });
const rawBody = (text: (valid: ApiRequest) => string, headers?: Record<string, string>): Alter => (valid) => ({ req: valid, options: { rawBody: text(valid), headers } });
const setQuery = (query: Record<string, string>): Alter => (valid) => ({ req: { ...valid, query } });

/** Values of the wrong JSON type for a field type. */
function wrongTypes(type: FieldType): unknown[] {
  switch (type.kind) {
    case 'string':
      return [42, true, null, ['text'], { value: 'text' }];
    case 'integer':
      return ['1001', 1001.5, true, null, [1001]];
    case 'number':
      return ['1', true, null];
    case 'boolean':
      return ['true', 1, 0, null, ['true']];
    case 'array':
      return [{}, 'text', null, [42], [{}], [{ value: 42 }]];
    default:
      return [];
  }
}

/** The endpoint (with a body) whose body has this field: limits belong to fields, not to endpoint names. */
const endpointWithField = (name: string): Endpoint => {
  const found = withBody.filter((e) => bodyFieldNames(e).includes(name));
  if (found.length !== 1) throw new Error(`expected one endpoint with body field ${name}, found ${found.length}`);
  return found[0]!;
};
const fieldCaseOn = (endpoint: Endpoint, name: string, label: string, value: unknown, want: 400 | 'accepted'): InputCase => [
  `${operation(endpoint)}: ${name} ${label}`,
  { given: { endpoint, alter: setField(name, value) }, want },
];
const fieldCase = (name: string, label: string, value: unknown, want: 400 | 'accepted'): InputCase => fieldCaseOn(endpointWithField(name), name, label, value, want);

const malformed: [string, (valid: ApiRequest) => string][] = [
  ['malformed JSON', () => '{"a":'],
  ['a truncated body', (valid) => JSON.stringify(valid.body).slice(0, -1)],
  ['a body with a trailing comma', (valid) => `${JSON.stringify(valid.body).slice(0, -1)},}`],
  ['a single-quoted body', (valid) => JSON.stringify(valid.body).replaceAll('"', "'")],
  ['a JSON array', () => '[]'],
  ['the valid body inside an array', (valid) => `[${JSON.stringify(valid.body)}]`],
  ['a JSON string', () => '"text"'],
  ['a JSON number', () => '42'],
  ['JSON null', () => 'null'],
  ['JSON true', () => 'true'],
];

const wpCommand = (length: number) => `wp option get ${'a'.repeat(length - 'wp option get '.length)}`;
const WP_ALLOWED = `wp abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@' \t\n\r\f\vend`;

const inputCases: InputCase[] = [
  ...withBody.flatMap((endpoint) => [
    ...malformed.map(([label, text]): InputCase => [`${operation(endpoint)}: ${label}`, { given: { endpoint, alter: rawBody(text) }, want: 400 }]),
    [`${operation(endpoint)}: valid JSON sent as text/plain`, { given: { endpoint, alter: rawBody((v) => JSON.stringify(v.body), { 'content-type': 'text/plain' }) }, want: 400 }] satisfies InputCase,
    [`${operation(endpoint)}: Content-Type with a charset`, { given: { endpoint, alter: rawBody((v) => JSON.stringify(v.body), { 'content-type': 'application/json; charset=utf-8' }) }, want: 'accepted' }] satisfies InputCase,
    [`${operation(endpoint)}: a property the document does not list`, { given: { endpoint, alter: setField('hsc_extra_property', 'ignored') }, want: 'accepted' }] satisfies InputCase,
    ...(endpoint.body ?? []).flatMap((field) =>
      wrongTypes(field.type).map((value): InputCase => [`${operation(endpoint)}: ${field.name} = ${JSON.stringify(value)}`, { given: { endpoint, alter: setField(field.name, value) }, want: 400 }]),
    ),
  ]),
  // Only fields the document marks required must be there (policy.ts; mock/unmarked-fields.test.ts has the strict mode).
  ...withBody.flatMap((endpoint): InputCase[] => {
    const required = markedRequired(endpoint);
    const want = required.length ? 400 : 'accepted';
    return [
      [`${operation(endpoint)}: an empty body`, { given: { endpoint, alter: rawBody(() => '') }, want }],
      [`${operation(endpoint)}: an empty object`, { given: { endpoint, alter: (v) => ({ req: { ...v, body: {} } }) }, want }],
      ...bodyFieldNames(endpoint).map((name): InputCase => [
        `${operation(endpoint)}: ${name} missing`,
        { given: { endpoint, alter: dropField(name) }, want: required.includes(name) ? 400 : 'accepted' },
      ]),
    ];
  }),
  // Formats of id and address fields.
  ...withBody.flatMap((endpoint) =>
    (endpoint.body ?? []).flatMap((field) => {
      const format = field.type.kind === 'string' ? field.type.format : undefined;
      if (format !== 'uuid' && format !== 'email') return [];
      return formatNearMisses[format].map((value) => fieldCaseOn(endpoint, field.name, `= ${JSON.stringify(value)} (not ${format === 'uuid' ? 'a UUID' : 'an e-mail address'})`, value, 400));
    }),
  ),
  // LIMIT-WP-COMMAND.
  ...wpCommandNearMisses.map(({ value, why }) => fieldCase('wp_command', `is ${why}`, value, 400)),
  fieldCase('wp_command', 'has a character outside the set (`!`)', 'wp option get x!', 400),
  fieldCase('wp_command', 'has a character outside the set (`#`)', 'wp option get x#y', 400),
  fieldCase('wp_command', 'begins with white space', ' wp option get x', 400),
  fieldCase('wp_command', 'is `wp` and white space only', 'wp   ', 'accepted'), // `\s` is in the set after the first run
  fieldCase('wp_command', 'begins with `WP`', 'WP option get x', 400),
  fieldCase('wp_command', 'is empty', '', 400),
  fieldCase('wp_command', `is exactly ${WP_COMMAND_MAX_LENGTH} characters`, wpCommand(WP_COMMAND_MAX_LENGTH), 'accepted'),
  fieldCase('wp_command', `is ${WP_COMMAND_MAX_LENGTH + 1} characters`, wpCommand(WP_COMMAND_MAX_LENGTH + 1), 400),
  fieldCase('wp_command', 'holds every allowed character', WP_ALLOWED, 'accepted'),
  fieldCase('wp_command', 'separates with a tab', 'wp\toption\tget\tblogname', 'accepted'),
  fieldCase('wp_command', 'separates with newlines', 'wp\noption get\r\nblogname', 'accepted'),
  // LIMIT-WEB-ROOT-SUBFOLDER.
  fieldCase('web_root_subfolder', 'without a leading `/`', 'public', 400),
  fieldCase('web_root_subfolder', 'relative with segments', 'www/public', 400),
  fieldCase('web_root_subfolder', 'beginning with `./`', './public', 400),
  fieldCase('web_root_subfolder', 'beginning with a space', ' /public', 400),
  fieldCase('web_root_subfolder', 'empty', '', 400),
  fieldCase('web_root_subfolder', 'is `/`', '/', 'accepted'),
  fieldCase('web_root_subfolder', 'is a nested path', '/public/blog', 'accepted'),
  // LIMIT-EXP-INTERVAL: the mock's five values (policy.ts) and nothing else.
  ...MOCK_EXP_INTERVALS.map((value) => fieldCase('exp_interval', `= ${value}`, value, 'accepted')),
  ...['days_2', 'DAYS_7', 'days_7 ', ' days_7', 'days7', 'weekly', ''].map((value) => fieldCase('exp_interval', `= ${JSON.stringify(value)}`, value, 400)),
  // Integers.
  fieldCase('backup_id', 'is a fraction', 1001.5, 400),
  fieldCase('backup_id', 'is a numeric string', '1001', 400),
  fieldCase('ttl', 'is a fraction', 300.5, 400),
  fieldCase('ttl', 'is a numeric string', '300', 400),
  // Queries.
  ...withQuery.flatMap((endpoint) => [
    ...endpoint.queryParams.map((p): InputCase => [
      `${operation(endpoint)}: query parameter ${p.name} missing`,
      { given: { endpoint, alter: (v) => ({ req: { ...v, query: Object.fromEntries(Object.entries(v.query).filter(([k]) => k !== p.name)) } }) }, want: 400 },
    ]),
    ...endpoint.queryParams
      .filter((p) => p.type.kind === 'string' && p.type.format === 'email')
      .flatMap((p) => ['user', 'user@', '@example.com', 'us er@example.com', ''].map((value): InputCase => [`${operation(endpoint)}: ${p.name}=${JSON.stringify(value)}`, { given: { endpoint, alter: (v) => setQuery({ ...v.query, [p.name]: value })(v) }, want: 400 }])),
  ]),
];

describe.each(inputCases)('%s', (_, { given, want }) => {
  it(want === 'accepted' ? 'is accepted' : `answers ${want} with an error body, changing nothing`, async () => {
    const { req, options } = given.alter(validRequest(given.endpoint, tenant));
    const before = stateOf(mock);
    const answer = await send(mock.url, req, { apiKey: tenant.apiKey, ...options });
    if (want === 'accepted') return expectSuccess(answer, given.endpoint);
    expectError(answer, given.endpoint, want);
    expect(stateOf(mock)).toEqual(before);
  });
});

describe('the input cases', () => {
  it('break every body field and query parameter of the model at least once', () => {
    const broken = new Set(inputCases.filter(([, c]) => c.want === 400).map(([name]) => name));
    for (const e of withBody) for (const name of bodyFieldNames(e)) expect([...broken].some((n) => n.startsWith(`${operation(e)}: ${name} `)), `${e.name}.${name}`).toBe(true);
    for (const e of withQuery) for (const p of e.queryParams) expect([...broken].some((n) => n.includes(`query parameter ${p.name} missing`)), `${e.name}?${p.name}`).toBe(true);
  });

  it('run only on endpoints where the mock may answer 400', () => {
    for (const [name, c] of inputCases) if (c.want === 400) expect(mockErrorStatuses(c.given.endpoint), name).toContain(400);
  });
});

// ---- an endpoint the document does not have (§Errors: 404; its `data`: UNK-ERROR-DATA) ---------

describe('the 404 of an unknown endpoint', () => {
  /** §Errors: the message meaning of 404, read from the model. */
  const meaning404 = api.errorMeanings.find((m) => m.status === 404)!.meaning;
  const [first, second] = api.endpoints.map(operation);
  const cases: [string, { given: Parameters<typeof unknownEndpoint>; want: { allowed?: string[]; basePath?: string } }][] = [
    ['an unknown path', { given: ['GET', { allowed: [], closest: [first!, second!] }], want: {} }],
    ['a path outside the base path', { given: ['GET', { allowed: [], closest: [first!] }, api.basePath], want: { basePath: api.basePath } }],
    ['a known path under a wrong method', { given: ['PATCH', { allowed: ['GET', 'PUT'], closest: [first!] }], want: { allowed: ['GET', 'PUT'] } }],
  ];

  it.each(cases)("%s: the document's error body and 404 meaning, saying it is no endpoint, naming what was meant", (_, { given, want }) => {
    const error = unknownEndpoint(...given);
    const body = renderError(error) as { message: string; status: number; data: { hint: string; closest: string[]; allowed?: string[] } };
    expect(error.status).toBe(404);
    expect(validateErrorBody(body), JSON.stringify(validateErrorBody.errors)).toBe(true);
    expect(body.status).toBe(404);
    // The meaning §Errors gives 404, then what sets this 404 apart from an unknown id's.
    expect(body.message.startsWith(meaning404)).toBe(true);
    expect(body.message).not.toBe(renderError(notFound('site')).message);
    expect(body.message).toMatch(/not an endpoint of the document/);
    // A client that shows only `message` shows the suggestion too; `data` carries it for programs.
    expect(body.data.closest).toEqual(given[1].closest);
    for (const name of given[1].closest) {
      expect(body.message).toContain(name);
      expect(body.data.hint).toContain(name);
    }
    expect(body.data.allowed).toEqual(want.allowed);
    for (const method of want.allowed ?? []) expect(body.message).toContain(method);
    if (want.basePath) expect(body.data.hint).toContain(want.basePath);
  });

  it('an unknown id keeps the plain 404 message and its own data', () => {
    expect(renderError(notFound('site'))).toEqual({ message: meaning404, status: 404, data: { resource: 'site' } });
  });
});
