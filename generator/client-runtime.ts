/**
 * The parts of generated/client.ts that do not depend on the model: the error classes, the
 * path and query helpers, and the one private method every endpoint method calls. They are
 * fixed code, kept as ts-morph structures so `client.ts` assembles the file in one batch.
 *
 * Why the generated client is shaped this way:
 * - It is standalone (undici and its sibling generated files only), so it carries its own
 *   `fillPath` instead of importing spec/queries.ts.
 * - The API key lives in a `#private` field and is cut out of every error text, so neither
 *   `console.log(client)` nor a logged error shows it.
 * - One deadline (`AbortSignal.timeout`) covers connect, headers and body, so `timeoutMs` means
 *   what a caller expects, whatever dispatcher is in use.
 */
import type { ClassDeclarationStructure, FunctionDeclarationStructure, InterfaceDeclarationStructure } from 'ts-morph';
import { print, stringLiteral } from './code.ts';
import { StructureKind } from './ts-morph.ts';

type Kinded<T> = T & { kind: StructureKind };

/** Where an error happened: the fields every error class carries, and every constructor takes. */
const whereFields = 'readonly endpoint: EndpointName; readonly operation: string;';

/** The constructor argument of an error class: where it happened, plus its own details. */
const detailsType = (own: string): string => `{ ${whereFields} ${own} }`;

/** The base of every error a call throws; it holds where the error happened. */
const BASE_ERROR = 'HostedSiteClientError';

export const errorClasses: readonly Kinded<ClassDeclarationStructure>[] = [
  {
    kind: StructureKind.Class,
    name: BASE_ERROR,
    isExported: true,
    isAbstract: true,
    extends: 'Error',
    docs: [
      'The base of every error a client call throws (`ApiError`, `TransportError` and its `TimeoutError`, `ResponseValidationError`): one `instanceof` check catches them all, and each says on which endpoint it happened.',
    ],
    properties: [
      // `name` comes first, as in each subclass, so an error's own keys keep their order: name, endpoint, operation, then its own.
      { name: 'name', hasOverrideKeyword: true, type: 'string', initializer: print(stringLiteral(BASE_ERROR)) },
      { name: 'endpoint', isReadonly: true, type: 'EndpointName', docs: ['The endpoint, by its client method name.'] },
      { name: 'operation', isReadonly: true, type: 'string', docs: ['`METHOD /path/template`, exactly as the document writes it.'] },
    ],
    ctors: [
      {
        parameters: [
          { name: 'message', type: 'string' },
          { name: 'details', type: `{ ${whereFields} }` },
          { name: 'options', hasQuestionToken: true, type: 'ErrorOptions' },
        ],
        statements: ['super(message, options);', 'this.endpoint = details.endpoint;', 'this.operation = details.operation;'],
      },
    ],
  },
  {
    kind: StructureKind.Class,
    name: 'ApiError',
    isExported: true,
    extends: BASE_ERROR,
    docs: ['An answer with a status outside 2xx. Every text it carries has the API key cut out.'],
    properties: [
      { name: 'name', hasOverrideKeyword: true, isReadonly: true, initializer: "'ApiError'" },
      { name: 'status', isReadonly: true, type: 'number', docs: ['The HTTP status.'] },
      { name: 'body', isReadonly: true, type: 'ErrorBody | undefined', docs: ['The error body when the answer is JSON shaped `{ message, status }`.'] },
      { name: 'text', isReadonly: true, type: 'string', docs: ['The raw answer text, kept whether or not it is JSON.'] },
    ],
    ctors: [
      {
        parameters: [{ name: 'details', type: detailsType('readonly status: number; readonly body: ErrorBody | undefined; readonly text: string') }],
        statements: [
          "const detail = details.body?.message ?? (details.text.slice(0, 200) || '(empty body)');",
          'super(`${details.operation} answered HTTP ${details.status}: ${detail}`, details);',
          'this.status = details.status;',
          'this.body = details.body;',
          'this.text = details.text;',
        ],
      },
    ],
  },
  {
    kind: StructureKind.Class,
    name: 'TransportError',
    isExported: true,
    extends: BASE_ERROR,
    docs: ['No answer arrived: the connection was refused or reset, the host was not found, ... The cause is undici\'s error.'],
    properties: [
      { name: 'name', hasOverrideKeyword: true, type: 'string', initializer: "'TransportError'" },
      { name: 'code', isReadonly: true, type: 'string | undefined', docs: ["The system's or undici's error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`."] },
    ],
    ctors: [
      {
        parameters: [{ name: 'details', type: detailsType('readonly message: string; readonly code: string | undefined; readonly cause: unknown') }],
        statements: [
          'super(details.message, details, { cause: details.cause });',
          'this.code = details.code;',
        ],
      },
    ],
  },
  {
    kind: StructureKind.Class,
    name: 'TimeoutError',
    isExported: true,
    extends: 'TransportError',
    docs: ['No complete answer (headers and body) within `timeoutMs`.'],
    properties: [
      { name: 'name', hasOverrideKeyword: true, type: 'string', initializer: "'TimeoutError'" },
      { name: 'timeoutMs', isReadonly: true, type: 'number' },
    ],
    ctors: [
      {
        parameters: [{ name: 'details', type: detailsType('readonly timeoutMs: number; readonly cause: unknown') }],
        statements: [
          "super({ ...details, message: `${details.operation} got no complete answer within ${details.timeoutMs} ms`, code: 'TIMEOUT' });",
          'this.timeoutMs = details.timeoutMs;',
        ],
      },
    ],
  },
  {
    kind: StructureKind.Class,
    name: 'ResponseValidationError',
    isExported: true,
    extends: BASE_ERROR,
    docs: ['A success answer whose body is not JSON, or, with `validateResponses`, does not match its schema.'],
    properties: [
      { name: 'name', hasOverrideKeyword: true, isReadonly: true, initializer: "'ResponseValidationError'" },
      { name: 'status', isReadonly: true, type: 'number' },
      { name: 'body', isReadonly: true, type: 'unknown', docs: ['The parsed body, or the raw text when it is not JSON.'] },
      { name: 'problems', isReadonly: true, type: 'readonly string[]', docs: ['What does not match, one entry per problem.'] },
    ],
    ctors: [
      {
        parameters: [{ name: 'details', type: detailsType('readonly status: number; readonly body: unknown; readonly problems: readonly string[]') }],
        statements: [
          "super(`${details.operation} answered HTTP ${details.status} with an unexpected body: ${details.problems.join('; ')}`, details);",
          'this.status = details.status;',
          'this.body = details.body;',
          'this.problems = details.problems;',
        ],
      },
    ],
  },
];

export const helperFunctions: readonly Kinded<FunctionDeclarationStructure>[] = [
  {
    kind: StructureKind.Function,
    name: 'fillPath',
    docs: [
      'Fills a path template, encoding each value. `.`, `..` and the empty string are refused: URL parsing would turn them into another path, and so another endpoint.',
    ],
    parameters: [
      { name: 'template', type: 'string' },
      { name: 'values', type: 'Readonly<Record<string, unknown>>' },
    ],
    returnType: 'string',
    statements: [
      'return template.replace(/\\{([a-z_]+)\\}/g, (_, name: string) => {',
      '  const value = values[name];',
      "  if (typeof value !== 'string') throw new TypeError(`path parameter ${name} of ${template} must be a string`);",
      "  if (value === '' || value === '.' || value === '..') throw new TypeError(`path parameter ${name} of ${template} must not be ${JSON.stringify(value)}`);",
      '  return encodeURIComponent(value);',
      '});',
    ],
  },
  {
    kind: StructureKind.Function,
    name: 'queryString',
    docs: ['`?name=value&...` for the parameters that are set, or the empty string.'],
    parameters: [
      { name: 'names', type: 'readonly string[]' },
      { name: 'values', type: 'Readonly<Record<string, unknown>>' },
    ],
    returnType: 'string',
    statements: [
      'const search = new URLSearchParams();',
      'for (const name of names) {',
      '  const value = values[name];',
      '  if (value !== undefined) search.append(name, String(value));',
      '}',
      'const text = search.toString();',
      "return text ? `?${text}` : '';",
    ],
  },
  {
    kind: StructureKind.Function,
    name: 'parseJson',
    docs: ['The parsed text, or `undefined` with `ok: false` when it is not JSON.'],
    parameters: [{ name: 'text', type: 'string' }],
    returnType: '{ readonly ok: boolean; readonly value: unknown }',
    statements: ['try {', '  return { ok: true, value: JSON.parse(text) as unknown };', '} catch {', '  return { ok: false, value: undefined };', '}'],
  },
  {
    kind: StructureKind.Function,
    name: 'asErrorBody',
    docs: ['The value when it has the shape of the Error body (`message` string, `status` number).'],
    parameters: [{ name: 'value', type: 'unknown' }],
    returnType: 'ErrorBody | undefined',
    statements: [
      "if (typeof value !== 'object' || value === null) return undefined;",
      'const { message, status } = value as Partial<Record<keyof ErrorBody, unknown>>;',
      "return typeof message === 'string' && typeof status === 'number' ? (value as ErrorBody) : undefined;",
    ],
  },
  {
    kind: StructureKind.Function,
    name: 'errorCode',
    parameters: [{ name: 'error', type: 'unknown' }],
    returnType: 'string | undefined',
    statements: [
      "const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;",
      "return typeof code === 'string' ? code : undefined;",
    ],
  },
];

export const routeInterface: Kinded<InterfaceDeclarationStructure> = {
  kind: StructureKind.Interface,
  name: 'Route',
  docs: ['Where an endpoint lives, and how its one parameter object splits into path and query.'],
  properties: [
    { name: 'method', isReadonly: true, type: 'Dispatcher.HttpMethod' },
    { name: 'path', isReadonly: true, type: 'string', docs: ['The path template exactly as the document writes it, relative to the base URL.'] },
    { name: 'pathParams', isReadonly: true, type: 'readonly string[]' },
    { name: 'queryParams', isReadonly: true, type: 'readonly string[]' },
  ],
};

export const optionsInterface: Kinded<InterfaceDeclarationStructure> = {
  kind: StructureKind.Interface,
  name: 'HostedSiteClientOptions',
  isExported: true,
  properties: [
    { name: 'baseUrl', isReadonly: true, type: 'string', docs: ['Base URL of the API; its path ends in the version segment, e.g. `https://api.example.com/v2`.'] },
    { name: 'apiKey', isReadonly: true, type: 'string', docs: ['Sent as `Authorization: Bearer <apiKey>`; never part of an error.'] },
    { name: 'timeoutMs', isReadonly: true, hasQuestionToken: true, type: 'number', docs: ['Deadline of one call, connect to last body byte, in milliseconds. Default 10000.'] },
    { name: 'dispatcher', isReadonly: true, hasQuestionToken: true, type: 'Dispatcher', docs: ["undici dispatcher (Agent, Pool, MockAgent, ProxyAgent); undici's global one by default."] },
    {
      name: 'validateResponses',
      isReadonly: true,
      hasQuestionToken: true,
      type: 'boolean',
      docs: ['Check every success body with the generated `responseValidators` (./validators.js, loaded on first use); a mismatch throws `ResponseValidationError`.'],
    },
  ],
};

/** The validator shape the client relies on; the generated validators satisfy it. */
export const validatorInterface: Kinded<InterfaceDeclarationStructure> = {
  kind: StructureKind.Interface,
  name: 'ResponseValidator',
  docs: ['What the client needs of a generated validator: a verdict, and on failure the reasons.'],
  callSignatures: [{ parameters: [{ name: 'data', type: 'unknown' }], returnType: 'boolean' }],
  properties: [
    {
      name: 'errors',
      isReadonly: true,
      hasQuestionToken: true,
      type: 'readonly { readonly instancePath: string; readonly keyword: string; readonly message?: string }[] | null',
    },
  ],
};

/** Members of `HostedSiteClient` besides the endpoint methods. */
export const clientCore: Pick<ClassDeclarationStructure, 'properties' | 'ctors' | 'methods'> = {
  properties: [
    { name: '#baseUrl', isReadonly: true, type: 'string' },
    { name: '#apiKey', isReadonly: true, type: 'string' },
    { name: '#timeoutMs', isReadonly: true, type: 'number' },
    { name: '#dispatcher', isReadonly: true, type: 'Dispatcher | undefined' },
    { name: '#validateResponses', isReadonly: true, type: 'boolean' },
    { name: '#validators', type: 'Promise<Readonly<Record<EndpointName, ResponseValidator>>> | undefined' },
  ],
  ctors: [
    {
      parameters: [{ name: 'options', type: 'HostedSiteClientOptions' }],
      statements: [
        "const baseUrl = options.baseUrl.replace(/\\/+$/, '');",
        'if (!new URL(baseUrl).pathname.endsWith(BASE_PATH)) {',
        '  throw new TypeError(`baseUrl must end in ${BASE_PATH}, e.g. https://api.example.com${BASE_PATH}; got ${options.baseUrl}`);',
        '}',
        'const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;',
        "if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) throw new TypeError('timeoutMs must be a positive number of milliseconds');",
        'this.#baseUrl = baseUrl;',
        'this.#apiKey = options.apiKey;',
        'this.#timeoutMs = timeoutMs;',
        'this.#dispatcher = options.dispatcher;',
        'this.#validateResponses = options.validateResponses ?? false;',
      ],
    },
  ],
  methods: [
    {
      name: '#call',
      isAsync: true,
      docs: ['One call: build the URL, exchange, then map the answer to a result or an error.'],
      typeParameters: [{ name: 'N', constraint: 'EndpointName' }],
      parameters: [
        { name: 'endpoint', type: 'N' },
        { name: 'params', type: 'object | undefined' },
        { name: 'body', type: 'unknown' },
      ],
      returnType: "Promise<Endpoints[N]['response']>",
      statements: [
        'const route = routes[endpoint];',
        'const operation = `${route.method} ${route.path}`;',
        '// The typed parameter interfaces have no index signature; the route names the keys to read.',
        'const values = (params ?? {}) as Readonly<Record<string, unknown>>;',
        'const url = `${this.#baseUrl}${fillPath(route.path, values)}${queryString(route.queryParams, values)}`;',
        'const answer = await this.#exchange(endpoint, operation, route.method, url, body);',
        'if (answer.status < 200 || answer.status > 299) {',
        '  const text = this.#redact(answer.text);',
        '  throw new ApiError({ endpoint, operation, status: answer.status, body: asErrorBody(parseJson(text).value), text });',
        '}',
        'const parsed = parseJson(answer.text);',
        'if (!parsed.ok) {',
        "  throw new ResponseValidationError({ endpoint, operation, status: answer.status, body: answer.text, problems: ['the body is not JSON'] });",
        '}',
        'if (this.#validateResponses) await this.#validate(endpoint, operation, answer.status, parsed.value);',
        "return parsed.value as Endpoints[N]['response'];",
      ],
    },
    {
      name: '#exchange',
      isAsync: true,
      docs: ['Sends the request and reads the whole answer under one deadline.'],
      parameters: [
        { name: 'endpoint', type: 'EndpointName' },
        { name: 'operation', type: 'string' },
        { name: 'method', type: 'Dispatcher.HttpMethod' },
        { name: 'url', type: 'string' },
        { name: 'body', type: 'unknown' },
      ],
      returnType: 'Promise<{ readonly status: number; readonly text: string }>',
      statements: [
        'const signal = AbortSignal.timeout(this.#timeoutMs);',
        "const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };",
        "if (body !== undefined) headers['content-type'] = 'application/json';",
        'try {',
        '  const response = await request(url, {',
        '    method,',
        '    headers,',
        '    body: body === undefined ? undefined : JSON.stringify(body),',
        '    signal,',
        '    dispatcher: this.#dispatcher,',
        '  });',
        '  return { status: response.statusCode, text: await response.body.text() };',
        '} catch (error) {',
        '  if (signal.aborted) throw new TimeoutError({ endpoint, operation, timeoutMs: this.#timeoutMs, cause: error });',
        '  const reason = error instanceof Error ? error.message : String(error);',
        '  throw new TransportError({ endpoint, operation, message: this.#redact(`${operation} failed: ${reason}`), code: errorCode(error), cause: error });',
        '}',
      ],
    },
    {
      name: '#validate',
      isAsync: true,
      parameters: [
        { name: 'endpoint', type: 'EndpointName' },
        { name: 'operation', type: 'string' },
        { name: 'status', type: 'number' },
        { name: 'body', type: 'unknown' },
      ],
      returnType: 'Promise<void>',
      statements: [
        "this.#validators ??= import('./validators.js').then((module) => module.responseValidators);",
        'const validate = (await this.#validators)[endpoint];',
        'if (validate(body)) return;',
        "const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'}: ${e.message ?? e.keyword}`);",
        'throw new ResponseValidationError({ endpoint, operation, status, body, problems });',
      ],
    },
    {
      name: '#redact',
      docs: ['Cuts the API key out of text a server or the network stack produced.'],
      parameters: [{ name: 'text', type: 'string' }],
      returnType: 'string',
      statements: ["return this.#apiKey ? text.split(this.#apiKey).join('[redacted]') : text;"],
    },
  ],
};
