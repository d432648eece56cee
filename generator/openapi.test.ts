/**
 * The OpenAPI document, read back with `yaml` and checked against the model: every expected
 * value is derived from `api`, so a model change needs no test change.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checks } from '../conformance/checks/index.ts';
import { exchange, judge, strict } from '../conformance/checks/testing.ts';
import { queryValidators, requestValidators } from '../generated/validators.js';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { conflictsOf, inScope, isAck, operationIdPattern, operationKinds } from '../spec/queries.ts';
import { generateOpenApi, OPENAPI_FILE } from './openapi.ts';

type Node = Record<string, any>;

const [file] = generateOpenApi(api);
const text = file!.contents;
const doc: Node = parse(text);

/** Follows a local `$ref` (`#/a/b`) inside the document. */
const deref = (node: Node): Node =>
  typeof node.$ref === 'string'
    ? deref(node.$ref.slice(2).split('/').reduce((at: Node, key: string) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc))
    : node;

const operationOf = (e: Endpoint): Node => doc.paths?.[e.path]?.[e.method.toLowerCase()];
const successKey = (e: Endpoint): string => (isAck(e) ? '202' : '2XX');
const jsonSchemaOf = (node: Node): Node => deref(node).content['application/json'].schema;

/** The `operation_id` pattern inside an acknowledgement schema (`allOf: [Acknowledgement, {...}]`). */
const opIdPatternIn = (schema: Node): string | undefined =>
  (schema.allOf as Node[] | undefined)?.map((part) => part.properties?.operation_id?.pattern).find((p) => p !== undefined);

const uuid = '0b5f0c52-3a4e-4f0e-9d4c-6a3b2c1d0e9f';

describe(`${OPENAPI_FILE}`, () => {
  it('is OpenAPI 3.1.0 for the spec version, behind the banner', () => {
    expect(file!.path).toBe(OPENAPI_FILE);
    expect(text.split('\n')[0]).toContain(`spec ${api.specVersion}`);
    expect(text.split('\n')[0]).toContain('do not edit');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe(api.title);
    expect(doc.info.version).toBe(api.specVersion);
    expect(doc.info.description).toContain(api.document);
  });

  it('has a {base_url} server whose default ends in the base path', () => {
    const [server] = doc.servers;
    expect(server.url).toBe('{base_url}');
    expect(server.variables.base_url.default.endsWith(api.basePath)).toBe(true);
  });

  it('requires the bearer scheme globally', () => {
    const schemes = Object.entries(doc.components.securitySchemes as Node);
    expect(schemes).toHaveLength(1);
    const [name, scheme] = schemes[0]!;
    expect(scheme).toMatchObject({ type: 'http', scheme: api.auth.scheme });
    expect(doc.security).toEqual([{ [name]: [] }]);
  });

  it('has exactly one operation per endpoint, no more', () => {
    const operations = Object.values(doc.paths as Node).flatMap((item) => Object.values(item as Node));
    expect(operations.map((o: Node) => o.operationId).sort()).toEqual(api.endpoints.map((e) => e.name).sort());
  });

  it('tags every operation with a declared tag, noting ASM-TAG-GROUPS', () => {
    const declared = new Map((doc.tags as Node[]).map((t) => [t.name, t]));
    for (const e of api.endpoints) {
      expect(operationOf(e).tags).toEqual([e.tag]);
      expect(declared.get(e.tag)?.['x-assumption']).toBe('ASM-TAG-GROUPS');
    }
  });

  it('lists every resource under components.schemas', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(api.resources.map((r) => r.name));
  });

  it('carries the model gaps at the top level', () => {
    expect(doc['x-unknowns'].map((u: Node) => u.id)).toEqual(api.unknowns.map((u) => u.id));
    expect(doc['x-assumptions'].map((a: Node) => a.id)).toEqual(api.assumptions.map((a) => a.id));
    expect(doc['x-conflicts'].map((c: Node) => c.id)).toEqual(api.conflicts.map((c) => c.id));
    expect(doc['x-rules'].map((r: Node) => r.id)).toEqual(api.rules.map((r) => r.id));
  });

  describe.each(api.endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', (_, e) => {
    const op = () => operationOf(e);

    it('sits at its path and method with its name and summary', () => {
      expect(op()).toBeDefined();
      expect(op().operationId).toBe(e.name);
      expect(op().summary).toBe(e.summary);
      expect(op()['x-effect']).toBe(e.effect);
      expect(op().deprecated ?? false).toBe(e.deprecated !== undefined);
    });

    it('answers its success and exactly the error statuses of the per-endpoint table', () => {
      const keys = Object.keys(op().responses).sort();
      expect(keys).toEqual([successKey(e), ...e.errors.map(String)].sort());
      for (const status of e.errors) {
        const schema = jsonSchemaOf(op().responses[String(status)]);
        expect(schema.allOf[0].$ref).toBe('#/components/schemas/ErrorBody');
        expect(schema.allOf[1].properties.status.const).toBe(status);
      }
    });

    it('declares its path and query parameters', () => {
      const params: Node[] = op().parameters ?? [];
      const placeholders = [...e.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
      expect(params.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(placeholders);
      for (const p of params.filter((p) => p.in === 'path')) {
        expect(p.required).toBe(true);
        expect(p.schema).toMatchObject({ type: 'string', format: 'uuid' });
      }
      const query = params.filter((p) => p.in === 'query');
      expect(query.map((p) => p.name)).toEqual(e.queryParams.map((p) => p.name));
      for (const [i, p] of e.queryParams.entries()) expect(query[i]!['x-assumption']).toBe(p.assumption);
    });

    it('has a request body exactly where the model has one', () => {
      const body = op().requestBody;
      if (!e.body) return expect(body).toBeUndefined();
      expect(Object.keys(jsonSchemaOf(body).properties)).toEqual(e.body.map((f) => f.name));
      if (e.method === 'GET') expect(body.description).toContain('OpenAPI 3.1 permits a request body on GET');
    });

    it('names its kind, rules and conflicts', () => {
      expect(op()['x-operation-kind']).toBe(isAck(e) ? e.success.operationKind : undefined);
      expect(op()['x-rules']).toEqual(api.rules.filter((r) => inScope(r, e)).map((r) => r.id));
      expect((op()['x-conflicts'] ?? []).map((c: Node) => [c.id, c.extraStatus])).toEqual(
        conflictsOf(e).map((c) => [c.id, c.extraStatus]),
      );
    });

    if (isAck(e)) {
      it("pins the acknowledgement's operation id to its kind", () => {
        const schema = jsonSchemaOf(op().responses['202']);
        expect(opIdPatternIn(schema)).toBe(operationIdPattern(e.success.operationKind));
      });
    } else {
      it('notes that the success status is not shown', () => {
        const success = op().responses['2XX'];
        expect(success['x-unknown']).toBe('UNK-SYNC-SUCCESS-STATUS');
        expect(success['x-assumption']).toBe('ASM-SYNC-SUCCESS-2XX');
      });
    }
  });
});

describe('the OpenAPI JSON Schemas under ajv (draft 2020-12)', () => {
  // The document itself is the root schema, so `#/components/schemas/...` resolves as written.
  const ajv = new Ajv2020.default({ strict: true, allErrors: true });
  addFormats.default(ajv);
  for (const key of Object.keys(doc).filter((k) => k !== '$schema')) ajv.addKeyword(key);
  ajv.addSchema(doc, OPENAPI_FILE);
  const pointer = (...parts: string[]) => `${OPENAPI_FILE}#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

  it.each(api.resources.map((r) => [r.name]))('resource %s compiles', (name) => {
    expect(() => ajv.getSchema(pointer('components', 'schemas', name))).not.toThrow();
  });

  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: request and response schemas compile', (_, e) => {
    const base = ['paths', e.path, e.method.toLowerCase()];
    if (e.body) expect(ajv.getSchema(pointer(...base, 'requestBody', 'content', 'application/json', 'schema'))).toBeTypeOf('function');
    for (const status of [successKey(e), ...e.errors.map(String)]) {
      const response = ['responses', status];
      const at = e.errors.map(String).includes(status)
        ? ['components', 'responses', `Error${status}`, 'content', 'application/json', 'schema']
        : [...base, ...response, 'content', 'application/json', 'schema'];
      expect(ajv.getSchema(pointer(...at))).toBeTypeOf('function');
    }
  });

  it.each(api.endpoints.filter(isAck).map((e) => [e.name, e] as const))(
    '%s: the 202 schema accepts its own kind and refuses every other',
    (_, e) => {
      if (!isAck(e)) throw new Error('unreachable');
      const validate = ajv.getSchema(pointer('paths', e.path, e.method.toLowerCase(), 'responses', '202', 'content', 'application/json', 'schema'))!;
      const ack = (kind: string) => ({ operation_id: `${kind}-${uuid}`, message: 'in progress', status: 202 });
      expect(validate(ack(e.success.operationKind))).toBe(true);
      for (const other of operationKinds.filter((k) => k !== e.success.operationKind)) expect(validate(ack(other))).toBe(false);
      expect(validate({ ...ack(e.success.operationKind), status: 200 })).toBe(false);
    },
  );

  /** Every example in the document with where it sits and the schema it must satisfy (both as paths from the root). */
  const examplesIn = (root: Node): { at: string[]; schemaAt: string[]; value: unknown }[] => {
    const found: { at: string[]; schemaAt: string[]; value: unknown }[] = [];
    const visit = (node: unknown, at: string[]) => {
      if (node === null || typeof node !== 'object') return;
      const n = node as Node;
      // A media type or a parameter: `example` beside `schema`.
      if ('example' in n && 'schema' in n) found.push({ at: [...at, 'example'], schemaAt: [...at, 'schema'], value: n.example });
      // A schema: `examples` is an array of instances of the schema itself.
      if (Array.isArray(n.examples)) n.examples.forEach((value: unknown, i: number) => found.push({ at: [...at, 'examples', String(i)], schemaAt: at, value }));
      for (const [key, child] of Object.entries(n)) if (key !== 'example' && key !== 'examples') visit(child, [...at, key]);
    };
    visit(root, []);
    return found;
  };
  /** The examples their schema refuses, as `where: errors`; the schemas are the original document's (examples do not change them). */
  const invalidExamples = (root: Node): string[] =>
    examplesIn(root).flatMap(({ at, schemaAt, value }) => {
      const validate = ajv.getSchema(pointer(...schemaAt))!;
      return validate(value) ? [] : [`${at.join(' > ')}: ${ajv.errorsText(validate.errors)}`];
    });
  const at = (root: Node, path: readonly string[]): unknown => path.reduce((node: any, key) => node?.[key], root);

  it('every example validates against its own schema', () => {
    expect(examplesIn(doc).length).toBeGreaterThan(api.endpoints.length + api.resources.length);
    expect(invalidExamples(doc)).toEqual([]);
  });

  it('a corrupted example, any one of them, is caught', () => {
    const all = examplesIn(doc);
    let corrupted = 0;
    for (const [i, { at: where, schemaAt }] of all.entries()) {
      const validate = ajv.getSchema(pointer(...schemaAt))!;
      // A value of some JSON type the schema refuses; a schema that takes anything cannot be corrupted.
      const wrong = [{ corrupted: [1] }, 12345, 'corrupted', null, [], true].find((candidate) => !validate(candidate));
      if (wrong === undefined) continue;
      const copy = structuredClone(doc);
      const parent = at(copy, where.slice(0, -1)) as Node;
      parent[where.at(-1)!] = wrong;
      expect(invalidExamples(copy).map((line) => line.split(':')[0]), `example ${i} at ${where.join(' > ')}`).toEqual([where.join(' > ')]);
      corrupted++;
    }
    expect(corrupted).toBeGreaterThan(api.endpoints.length);
  });

  // Every parameter, path and query: Dredd aborts on a path parameter without one, and a tool that builds a request from the examples needs the required query parameter too.
  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: its success answer, request body and parameters have examples', (_, e) => {
    const op = operationOf(e);
    expect(op.responses[successKey(e)].content['application/json']).toHaveProperty('example');
    if (e.body) expect(op.requestBody.content['application/json']).toHaveProperty('example');
    for (const p of op.parameters ?? []) expect(p, `${p.in} parameter ${p.name}`).toHaveProperty('example');
    if (isAck(e)) expect(op.responses['202'].content['application/json'].example.operation_id).toMatch(new RegExp(operationIdPattern(e.success.operationKind)));
  });

  it('every error response the operations use has an example, 500 included', () => {
    const used = new Set(Object.values(doc.paths as Node).flatMap((item: Node) => Object.values(item).flatMap((op: Node) => Object.values((op.responses ?? {}) as Node).map((r: Node) => r.$ref).filter(Boolean))));
    expect([...used]).toContain('#/components/responses/Error500');
    for (const ref of used) expect(deref({ $ref: ref }).content['application/json'], ref).toHaveProperty('example');
  });

  it('every resource schema has an example', () => {
    for (const r of api.resources) expect(doc.components.schemas[r.name].examples, r.name).toHaveLength(1);
  });

  it('no secret of the fixtures appears: secret fields show a fake value', () => {
    const secrets = examplesIn(doc).flatMap(({ value }) => [...JSON.stringify(value ?? null).matchAll(/"(sftp_password|admin_password)":"([^"]*)"/g)].map((m) => m[2]));
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret).toMatch(/not-a-real/);
    expect(text).not.toMatch(/hsc_[0-9a-f]{32}/); // the fixtures' API keys
  });

  it('is the same document run after run (examples included)', () => {
    expect(generateOpenApi(api)[0]!.contents).toBe(text);
  });

  it('an error response schema pins `status` to the HTTP status', () => {
    const validate = ajv.getSchema(pointer('components', 'responses', 'Error401', 'content', 'application/json', 'schema'))!;
    expect(validate({ message: 'No or invalid API key provided', status: 401 })).toBe(true);
    expect(validate({ message: 'No or invalid API key provided', status: 500 })).toBe(false);
  });
});

/**
 * What a static mock of this document serves, Prism's static mode emulated: for each operation
 * the lowest 2xx response (a range key `2XX` served as 200) with the example of its JSON content,
 * whatever the request. The suite's own checks judge it as they would judge a live answer, under
 * --strict, so a static mock of openapi.yaml passes RESPONSE-SCHEMA, ACK-202 and OPID-*; and the
 * example request (path, query, body), which tools such as Dredd send, passes the generated
 * request validators the reference mock judges input with.
 */
describe('what a static mock of the document serves', () => {
  const served = (op: Node): { status: number; json: unknown } => {
    const [key, response] = Object.entries(op.responses as Node)
      .filter(([k]) => /^2(\d\d|XX)$/.test(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[0]!;
    return { status: Number(key.replace(/XX$/, '00')), json: deref(response).content['application/json'].example };
  };
  const requestOf = (op: Node) => {
    const params = (where: string) => Object.fromEntries((op.parameters ?? []).filter((p: Node) => p.in === where).map((p: Node) => [p.name, p.example]));
    const body = op.requestBody?.content['application/json'].example;
    return { path: params('path'), query: params('query'), body };
  };
  /** The rules whose checks apply to an answer, and the verdicts of those that fail it. */
  const judged = (e: Endpoint, answer: { status: number; json: unknown }) => {
    const { path, query, body } = requestOf(operationOf(e));
    const given = exchange({ endpoint: e, path, query, ...(body === undefined ? {} : { requestBody: JSON.stringify(body) }), ...answer });
    const applied = checks.filter((c) => c.applies(given));
    return {
      rules: applied.map((c) => c.rule),
      failed: applied.flatMap((c) => {
        const verdict = judge(c, given, strict);
        return verdict === 'pass' || verdict === 'skip' ? [] : [`${c.rule}: ${verdict.title}`];
      }),
    };
  };

  it.each(api.endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s: the served success passes every check that applies', (_, e) => {
    const answer = served(operationOf(e));
    expect(answer.status).toBe(isAck(e) ? 202 : 200);
    const { rules, failed } = judged(e, answer);
    expect(rules).toContain(isAck(e) ? 'OPID-KIND' : 'RESPONSE-SCHEMA');
    expect(failed).toEqual([]);
  });

  it.each(api.endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s: a served body without its fields would be caught', (_, e) => {
    expect(judged(e, { ...served(operationOf(e)), json: {} }).failed).not.toEqual([]);
  });

  it.each(api.endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s: the example request passes the generated request validators', (_, e) => {
    const { query, body } = requestOf(operationOf(e));
    const bodyValidator = requestValidators[e.name as keyof typeof requestValidators];
    const queryValidator = queryValidators[e.name as keyof typeof queryValidators];
    expect(bodyValidator !== undefined).toBe(e.body !== undefined);
    expect(queryValidator !== undefined).toBe(e.queryParams.length > 0);
    if (bodyValidator) expect(bodyValidator(body), JSON.stringify(bodyValidator.errors)).toBe(true);
    if (queryValidator) expect(queryValidator(query), JSON.stringify(queryValidator.errors)).toBe(true);
  });
});
