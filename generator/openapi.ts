/**
 * The model → `openapi.yaml` (OpenAPI 3.1.0). Schemas come from `schema.ts`, the same
 * conversion the validators use, pointed at `#/components/schemas/<Name>`. The document's gaps
 * travel with it as vendor extensions (`x-unknowns`, `x-assumptions`, `x-conflicts`), so users
 * of OpenAPI tools see what the document leaves open instead of a contract that looks complete.
 */
import { stringify } from 'yaml';
import type { Api, Endpoint, ErrorStatus, HttpMethod, Param, TagGroup } from '../spec/model.ts';
import { conflictsOf, inScope, isAck, operationIdPattern } from '../spec/queries.ts';
import { examplesOf, type EndpointExample, type Examples } from './examples.ts';
import { hashBanner, normalizeText, type Generate } from './output.ts';
import { requestSchema, resourceSchemas, responseSchema, typeSchema, type JsonSchema, type RefTo } from './schema.ts';

export const OPENAPI_FILE = 'openapi.yaml';
const GENERATOR = 'generator/openapi.ts';
const JSON_MEDIA = 'application/json';
const SECURITY_SCHEME = 'bearerAuth';

type Node = { [key: string]: unknown };

const SCHEMAS = '#/components/schemas/';
const schemaRef: RefTo = (resource) => `${SCHEMAS}${resource}`;
const errorResponseName = (status: ErrorStatus): string => `Error${status}`;

/** Path-item keys in the order OpenAPI lists them, so a path's operations always read alike. */
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE'];

export const generateOpenApi: Generate = (api) => [
  {
    path: OPENAPI_FILE,
    contents: normalizeText(
      hashBanner(api, GENERATOR) +
        // Insertion order is the key order; no aliases, no folding: the text diffs line by line.
        stringify(openApiDocument(api), { aliasDuplicateObjects: false, lineWidth: 0, sortMapEntries: false }),
    ),
  },
];

/** The OpenAPI document as plain data; `generateOpenApi` only serialises it. */
export function openApiDocument(api: Api): Node {
  const examples = examplesOf(api);
  const schemas = resourceSchemas(api, schemaRef);
  const operations = paths(api, examples);
  return {
    openapi: '3.1.0',
    info: {
      title: api.title,
      version: api.specVersion,
      description: [
        `Generated from the typed model of the document \`${api.document}\` (interface description version ${api.specVersion});`,
        'the model in `spec/` is the source of truth, this file is one of its outputs.',
        'Error responses list the per-endpoint status table of the document to the letter; where another statement of the',
        'document lets a server answer one more status, the operation names it under `x-conflicts`.',
        'Tags are the tag groups the document names; which endpoint belongs to which group is our choice (ASM-TAG-GROUPS).',
        'What the document leaves open is listed under `x-unknowns`, the choices made anyway under `x-assumptions`.',
        'The document names no contact and no licence, so `info` carries neither (none is invented).',
      ].join(' '),
    },
    servers: [
      {
        url: '{base_url}',
        description: `The service's base URL; its path ends in the version segment \`${api.basePath}\` (BASE-PATH). The host is not shown in the document.`,
        variables: {
          base_url: {
            default: `https://api.example.invalid${api.basePath}`,
            description: `Replace with the real base URL; keep the \`${api.basePath}\` path segment.`,
          },
        },
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: tags(api),
    paths: operations,
    components: {
      schemas: withResourceExamples(schemas, operations, examples),
      responses: errorResponses(api, examples),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: api.auth.scheme,
          description: `\`${api.auth.header}: Bearer <API_KEY>\`, where \`<API_KEY>\` is an API key of the company (AUTH-BEARER). A missing or invalid key yields 401 (AUTH-401).`,
        },
      },
    },
    'x-rules': api.rules.map((r) => ({ id: r.id, title: r.title })),
    'x-unknowns': api.unknowns.map((u) => ({ id: u.id, what: u.what, section: u.cite.section })),
    'x-assumptions': api.assumptions.map((a) => ({ id: a.id, choice: a.choice, why: a.why })),
    'x-conflicts': api.conflicts.map((c) => ({
      id: c.id,
      endpoints: [...c.endpoints],
      letter: c.letter.says,
      reading: c.reading.says,
      ...(c.extraStatus ? { extraStatus: c.extraStatus } : {}),
      mock: c.mock,
    })),
  };
}

/**
 * Tag groups in order of first use. The document names them but not their members, so each
 * endpoint's group is our choice (ASM-TAG-GROUPS); groups whose endpoints are not shown
 * (UNK-HIDDEN-GROUPS) have no endpoint here and so no tag.
 */
function tags(api: Api): Node[] {
  return api.tagGroups.map((name) =>
    api.endpoints.some((e) => e.tag === name)
      ? { name, description: tagDescription(api, name), 'x-assumption': 'ASM-TAG-GROUPS' }
      : { name, description: 'Endpoints of this group: not shown.', 'x-unknown': 'UNK-HIDDEN-GROUPS' },
  );
}

/**
 * The document gives a group no words beyond its name, so a tag says which endpoints it holds
 * here, and that the membership is our choice.
 */
function tagDescription(api: Api, name: string): string {
  const members = api.endpoints.filter((e) => e.tag === name).map((e) => `\`${e.method} ${e.path}\` (${e.summary.replace(/\.$/, '')})`);
  return `A tag group the document names (§ What the service does). Its endpoints here, by our choice (ASM-TAG-GROUPS): ${members.join('; ')}.`;
}

function paths(api: Api, examples: Examples): Node {
  const byPath = new Map<string, Endpoint[]>();
  for (const e of api.endpoints) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  const result: Node = {};
  for (const [path, endpoints] of byPath) {
    const item: Node = {};
    for (const method of METHOD_ORDER) {
      const e = endpoints.find((candidate) => candidate.method === method);
      if (e) item[method.toLowerCase()] = operationObject(api, e, examples.byEndpoint.get(e.name)!);
    }
    result[path] = item;
  }
  return result;
}

function operationObject(api: Api, e: Endpoint, example: EndpointExample): Node {
  const parameters = [
    ...e.pathParams.map((p) => parameter(p, 'path', example.path[p.name])),
    ...e.queryParams.map((p) => parameter(p, 'query', example.query[p.name])),
  ];
  const body = requestSchema(e, schemaRef);
  const conflicts = conflictsOf(e);
  return {
    operationId: e.name,
    summary: e.summary,
    description: operationDescription(api, e),
    tags: [e.tag],
    ...(e.deprecated ? { deprecated: true } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: requestBody(e, body, example.body) } : {}),
    responses: responses(e, example.response),
    ...(isAck(e) ? { 'x-operation-kind': e.success.operationKind } : {}),
    'x-effect': e.effect,
    'x-rules': api.rules.filter((r) => inScope(r, e)).map((r) => r.id),
    ...(conflicts.length
      ? { 'x-conflicts': conflicts.map((c) => ({ id: c.id, ...(c.extraStatus ? { extraStatus: c.extraStatus } : {}) })) }
      : {}),
  };
}

function operationDescription(api: Api, e: Endpoint): string {
  const lines = [`\`${e.method} ${e.path}\` — ${api.document} § ${e.cite.section}.`];
  if (e.cite.quote) lines.push(`The document: “${e.cite.quote}”`);
  if (e.deprecated) {
    const { replacement } = e.deprecated;
    const instead = replacement.startsWith('UNK-') ? `The replacement is not shown (${replacement}).` : `Use \`${replacement}\` instead.`;
    lines.push(`Deprecated: “${e.deprecated.cite.quote ?? e.deprecated.cite.section}” ${instead}`);
  }
  return lines.join('\n');
}

function parameter(p: Param, location: 'path' | 'query', example: string | undefined): Node {
  return {
    name: p.name,
    in: location,
    // Path parameters are always required in OpenAPI; a query parameter is as the model marks it.
    required: location === 'path' || p.presence === 'required',
    description: p.doc,
    schema: typeSchema(p.type, 'request', schemaRef),
    ...(example === undefined ? {} : { example }),
    ...(p.assumption ? { 'x-assumption': p.assumption } : {}),
  };
}

function requestBody(e: Endpoint, schema: JsonSchema, example: unknown): Node {
  const notes = ['Body fields are required only where the document marks them so (UNK-BODY-MARKING).'];
  if (e.method === 'GET') {
    notes.unshift(
      `The document states that this GET request carries a JSON body. OpenAPI 3.1 permits a request body on GET (HTTP gives it no defined semantics), so some clients and proxies may drop it.`,
    );
  }
  return { description: notes.join(' '), required: true, content: { [JSON_MEDIA]: { schema, ...(example === undefined ? {} : { example }) } } };
}

/** A `Map`, not an object: JavaScript would list integer-like keys (`'401'`) before `'2XX'`. */
function responses(e: Endpoint, example: unknown): Map<string, Node> {
  const content = { [JSON_MEDIA]: { schema: responseSchema(e, schemaRef), example } };
  const success: [string, Node] = isAck(e)
    ? [
        '202',
        {
          description: `Accepted: the action is in progress (ACK-202). \`operation_id\` is \`${e.success.operationKind}-<UUID>\` (OPID-KIND).`,
          content,
        },
      ]
    : [
        // The status is not shown; the range key says "some 2xx" without inventing one.
        '2XX',
        {
          description:
            'Success. The exact status is not shown in the document (UNK-SYNC-SUCCESS-STATUS); it is a 2xx with a body, not 202 or 204 (ASM-SYNC-SUCCESS-2XX). Our mock answers 200.',
          content,
          'x-unknown': 'UNK-SYNC-SUCCESS-STATUS',
          'x-assumption': 'ASM-SYNC-SUCCESS-2XX',
        },
      ];
  const errors = [...e.errors]
    .sort((a, b) => a - b)
    .map((status): [string, Node] => [String(status), { $ref: `#/components/responses/${errorResponseName(status)}` }]);
  return new Map([success, ...errors]);
}

/** One reusable response per error status of §Errors; the body's `status` equals the HTTP status (ERR-BODY). */
function errorResponses(api: Api, examples: Examples): Node {
  const result: Node = {};
  for (const { status, meaning, condition } of [...api.errorMeanings].sort((a, b) => a.status - b.status)) {
    result[errorResponseName(status)] = {
      description: `${meaning}. Condition: ${condition}.`,
      content: {
        [JSON_MEDIA]: {
          schema: { allOf: [{ $ref: schemaRef('ErrorBody') }, { type: 'object', properties: { status: { const: status } } }] },
          ...(examples.errors.has(status) ? { example: examples.errors.get(status) } : {}),
        },
      },
    };
  }
  return result;
}

/**
 * Each resource schema with one example: the first value that sits at a `$ref` to it in the
 * example answers (then request bodies, then error answers), walking schema and value together.
 */
function withResourceExamples(schemas: Record<string, JsonSchema>, operations: Node, examples: Examples): Node {
  const found = new Map<string, unknown>();
  const walk = (schema: unknown, value: unknown): void => {
    if (value === undefined || schema === null || typeof schema !== 'object') return;
    const s = schema as Node;
    if (typeof s.$ref === 'string') {
      const name = s.$ref.slice(SCHEMAS.length);
      if (!found.has(name)) found.set(name, value);
      walk(schemas[name], value);
    }
    for (const part of (s.allOf as unknown[] | undefined) ?? []) walk(part, value);
    if (Array.isArray(value)) for (const item of value) walk(s.items, item);
    else if (value !== null && typeof value === 'object' && s.properties) {
      for (const [key, sub] of Object.entries(s.properties as Node)) walk(sub, (value as Node)[key]);
    }
  };
  const media = (node: unknown) => (node as { content?: Record<string, { schema: unknown; example?: unknown }> } | undefined)?.content?.[JSON_MEDIA];
  const items = Object.values(operations).flatMap((item) => Object.values(item as Node) as Node[]);
  for (const op of items) for (const response of (op.responses as Map<string, Node>).values()) walk(media(response)?.schema, media(response)?.example);
  for (const op of items) walk(media(op.requestBody)?.schema, media(op.requestBody)?.example);
  for (const error of examples.errors.values()) walk({ $ref: schemaRef('ErrorBody') }, error);
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, found.has(name) ? { ...schema, examples: [found.get(name)] } : schema]),
  );
}
