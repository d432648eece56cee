/**
 * The generated validators, exercised: `generated/validators.js` (what the mock, the client and
 * the suite import) and `generated/schemas.json` compiled afresh run the same properties, so the
 * standalone code and the published schemas cannot drift apart. Expected values come from the
 * model and the arbitraries, never from a snapshot of the output.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as generated from '../generated/validators.js';
import type { ValidationError, Validator } from '../generated/validators.js';
import { api } from '../spec/api.ts';
import { queryArb, requestBodyArb, responseArb, valueArb, wpCommandNearMisses } from '../spec/arbitraries.ts';
import type { Endpoint, FieldType } from '../spec/model.ts';
import { type Mutation, queryMutations, requestMutations, responseMutations } from '../spec/mutations.ts';
import { WP_COMMAND_MAX_LENGTH } from '../spec/rules.ts';
import { codeBanner } from './output.ts';
import {
  generateValidators,
  SCHEMAS_FILE,
  schemaDocument,
  type ValidatorGroup,
  validatorEntries,
  validatorMaps,
  VALIDATORS_FILE,
  VALIDATORS_TYPES_FILE,
} from './validators.ts';

const generatedDir = new URL('../generated/', import.meta.url);
const files = generateValidators(api);
const contentsOf = (path: string): string => files.find((f) => f.path === path)!.contents;
const entries = validatorEntries(api);
const groups = Object.keys(validatorMaps) as ValidatorGroup[];

type ValidatorMap = Readonly<Record<string, Validator>>;

/** One implementation of the schemas: its four maps, keyed like `validators.js`'s. */
interface Implementation {
  readonly name: string;
  readonly maps: Record<ValidatorGroup, ValidatorMap>;
}

const standalone: Implementation = {
  name: `generated/${VALIDATORS_FILE}`,
  maps: {
    resource: generated.resourceValidators,
    response: generated.responseValidators,
    request: generated.requestValidators,
    query: generated.queryValidators,
  },
};

/** `schemas.json` as published, compiled by ajv now, with the options the generator uses. */
const fromSchemaDocument: Implementation = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
  ajv.addSchema(JSON.parse(readFileSync(new URL(SCHEMAS_FILE, generatedDir), 'utf8')), SCHEMAS_FILE);
  const maps = Object.fromEntries(groups.map((group) => [group, {} as Record<string, Validator>])) as Record<ValidatorGroup, Record<string, Validator>>;
  for (const entry of entries) {
    const validate = ajv.getSchema(`${SCHEMAS_FILE}#/$defs/${entry.defName}`);
    if (!validate) throw new Error(`schemas.json has no $defs/${entry.defName}`);
    maps[entry.group][entry.key] = validate as unknown as Validator;
  }
  return { name: `generated/${SCHEMAS_FILE} compiled by ajv`, maps };
})();

const validatorIn = (map: ValidatorMap, name: string): Validator => {
  const validate = map[name];
  if (!validate) throw new Error(`no validator for ${name}`);
  return validate;
};

const within = (path: string, root: string): boolean => path === root || path.startsWith(`${root}/`);

/** `value` is rejected, for the mutation's reason, and for nothing outside the broken field. */
function expectRejectedFor(validate: Validator, value: unknown, mutation: Mutation): void {
  const accepted = validate(value);
  const errors: readonly ValidationError[] = validate.errors ?? [];
  const reported = errors.some(
    (e) =>
      e.keyword === mutation.keyword &&
      e.instancePath === mutation.instancePath &&
      (mutation.missingProperty === undefined || e.params.missingProperty === mutation.missingProperty),
  );
  expect({ mutation: mutation.description, accepted, reported }).toEqual({ mutation: mutation.description, accepted: false, reported: true });
  const stray = errors.filter((e) => !within(e.instancePath, mutation.instancePath));
  expect(stray, mutation.description).toEqual([]);
}

function expectAccepted(validate: Validator, value: unknown): void {
  const accepted = validate(value);
  expect({ accepted, errors: validate.errors ?? null, value }).toMatchObject({ accepted: true, errors: null });
}

const withBody = api.endpoints.filter((e) => e.body);
const withQuery = api.endpoints.filter((e) => e.queryParams.length > 0);

describe('generateValidators', () => {
  it.each(files.map((f) => f.path))('generated/%s is the current output (else: npm run generate)', (path) => {
    expect(readFileSync(new URL(path, generatedDir), 'utf8') === contentsOf(path)).toBe(true);
  });

  it('is deterministic: a second run in the same process writes the same bytes', () => {
    expect(generateValidators(api)).toEqual(files);
  });

  it('writes plain ESM behind the banner: no require(), no CommonJS exports', () => {
    const js = contentsOf(VALIDATORS_FILE);
    expect(js.startsWith(codeBanner(api, 'generator/validators.ts'))).toBe(true);
    expect(js).not.toMatch(/\brequire\s*\(/);
    expect(js).not.toMatch(/\bmodule\.exports\b|\bexports\./);
    expect(contentsOf(VALIDATORS_TYPES_FILE).startsWith(codeBanner(api, 'generator/validators.ts'))).toBe(true);
  });

  it('exports the validators the mock, the client and the suite import by name', () => {
    for (const name of [
      'validateGetSiteResponse',
      'validateUpdateDnsRecordsRequest',
      'validateCheckWpAdminUserExistsQuery',
      'validateClearCdnCacheResponse',
      'validateSite',
      'validateErrorBody',
      'validateAcknowledgement',
    ]) {
      expect(typeof (generated as Record<string, unknown>)[name], name).toBe('function');
    }
    for (const entry of entries) expect((generated as Record<string, unknown>)[entry.exportName], entry.exportName).toBe(standalone.maps[entry.group][entry.key]);
  });

  it("no export shares its name with a client method (an endpoint's name): the ApiKey record's validator is validateApiKeyRecord", () => {
    const methods = new Set(api.endpoints.map((e) => e.name));
    expect(Object.keys(generated).filter((name) => methods.has(name))).toEqual([]);
    expect(typeof (generated as Record<string, unknown>).validateApiKeyRecord).toBe('function');
    expect((generated as Record<string, unknown>).validateApiKeyRecord).toBe(generated.resourceValidators.ApiKey);
  });

  it('keys each map by the names the model has: every resource, every endpoint, bodies and queries where they exist', () => {
    expect(Object.keys(generated.resourceValidators)).toEqual(api.resources.map((r) => r.name));
    expect(Object.keys(generated.responseValidators)).toEqual(api.endpoints.map((e) => e.name));
    expect(Object.keys(generated.requestValidators)).toEqual(withBody.map((e) => e.name));
    expect(Object.keys(generated.queryValidators)).toEqual(withQuery.map((e) => e.name));
  });

  it('types every export in validators.d.ts with the matching type of types.ts', () => {
    const dts = contentsOf(VALIDATORS_TYPES_FILE);
    expect(dts).toMatch(/import type \{[^}]*\} from '\.\/types\.js';/);
    for (const entry of entries) expect(dts).toContain(`export declare const ${entry.exportName}: Validator<${entry.typeName}>;`);
    for (const group of groups) expect(dts).toContain(`export declare const ${validatorMaps[group]}: {`);
    expect(dts).toContain('export declare const validateClearCdnCacheResponse: Validator<ClearCdnCacheResponse>;');
  });
});

describe(SCHEMAS_FILE, () => {
  const doc = schemaDocument(api) as { $comment: string; $defs: Record<string, unknown> };

  it('lists resources, then per endpoint its response, request and query schemas, in model order', () => {
    const expected = [
      ...api.resources.map((r) => r.name),
      ...api.endpoints.flatMap((e) => [`${e.name}.response`, ...(e.body ? [`${e.name}.request`] : []), ...(e.queryParams.length ? [`${e.name}.query`] : [])]),
    ];
    expect(Object.keys(doc.$defs)).toEqual(expected);
    expect(JSON.parse(contentsOf(SCHEMAS_FILE))).toEqual(doc);
    expect(contentsOf(SCHEMAS_FILE).endsWith('}\n')).toBe(true);
    expect(doc.$comment).toContain(`spec ${api.specVersion}`);
  });

  it('points every $ref at a resource under $defs', () => {
    const refs = [...contentsOf(SCHEMAS_FILE).matchAll(/"\$ref": "([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/\$defs\//);
      expect(api.resources.map((r) => r.name)).toContain(ref.slice('#/$defs/'.length));
    }
  });
});

describe.each([standalone, fromSchemaDocument])('$name', ({ maps }) => {
  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: success bodies pass; each one-field break fails at that field', (_, endpoint) => {
    const validate = validatorIn(maps.response, endpoint.name);
    fc.assert(
      fc.property(responseArb(endpoint), (body) => {
        expectAccepted(validate, body);
        for (const mutation of responseMutations(endpoint, body)) expectRejectedFor(validate, mutation.apply(body), mutation);
      }),
    );
  });

  it.each(withBody.map((e) => [e.name, e] as const))('%s: request bodies pass; each one-field break fails at that field', (_, endpoint) => {
    const validate = validatorIn(maps.request, endpoint.name);
    fc.assert(
      fc.property(requestBodyArb(endpoint), (body) => {
        expectAccepted(validate, body);
        for (const mutation of requestMutations(endpoint, body)) expectRejectedFor(validate, mutation.apply(body), mutation);
      }),
    );
  });

  it.each(withQuery.map((e) => [e.name, e] as const))('%s: queries pass; each one-field break fails at that field', (_, endpoint) => {
    const validate = validatorIn(maps.query, endpoint.name);
    fc.assert(
      fc.property(queryArb(endpoint), (query) => {
        expectAccepted(validate, query);
        for (const mutation of queryMutations(endpoint, query)) expectRejectedFor(validate, mutation.apply(query), mutation);
      }),
    );
  });

  it.each(api.resources.map((r) => [r.name] as const))('resource %s: generated values pass', (name) => {
    const validate = validatorIn(maps.resource, name);
    const type: FieldType = { kind: 'ref', resource: name };
    fc.assert(fc.property(valueArb(type, 'response'), (value) => expectAccepted(validate, value)));
  });
});

/** A copy of `value` with one unlisted property added to every object in it. */
function withUnlistedEverywhere(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnlistedEverywhere);
  if (typeof value !== 'object' || value === null) return value;
  const copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUnlistedEverywhere(v)]));
  return { ...copy, x_not_in_the_document: { nested: [1, 'two', null] } };
}

/** A copy of `value` with every string of an open set replaced by one the document never shows. */
function withUnshownSetValues(type: FieldType, value: unknown): unknown {
  switch (type.kind) {
    case 'string':
      return type.open ? 'a-value-the-document-never-shows' : value;
    case 'array':
      return Array.isArray(value) ? value.map((item) => withUnshownSetValues(type.items, item)) : value;
    case 'object':
    case 'ref': {
      const fields = type.kind === 'object' ? type.fields : api.resources.find((r) => r.name === type.resource)!.fields;
      const object = { ...(value as Record<string, unknown>) };
      for (const f of fields) if (f.name in object) object[f.name] = withUnshownSetValues(f.type, object[f.name]);
      return object;
    }
    default:
      return value;
  }
}

const successType = (e: Endpoint): FieldType => (e.success.kind === 'ack' ? { kind: 'ref', resource: 'Acknowledgement' } : e.success.body);

describe('responses stay open where the document is silent', () => {
  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: unlisted properties at every level are accepted', (_, endpoint) => {
    const validate = validatorIn(standalone.maps.response, endpoint.name);
    fc.assert(fc.property(responseArb(endpoint, { extraProperties: false }), (body) => expectAccepted(validate, withUnlistedEverywhere(body))));
  });

  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: values of open sets the document does not show are accepted', (_, endpoint) => {
    const validate = validatorIn(standalone.maps.response, endpoint.name);
    fc.assert(fc.property(responseArb(endpoint), (body) => expectAccepted(validate, withUnshownSetValues(successType(endpoint), body))));
  });

  it('a site with a status other than `live` is a valid site (UNK-ENUM-SETS)', () => {
    const [site] = fc.sample(valueArb({ kind: 'ref', resource: 'Site' }, 'response'), 1);
    expectAccepted(generated.validateSite, { ...(site as object), status: 'suspended' });
  });
});

describe('requests: only what the document marks required is required', () => {
  it.each(withBody.map((e) => [e.name, e] as const))('%s: a body without any one unmarked field is still valid', (_, endpoint) => {
    const validate = validatorIn(standalone.maps.request, endpoint.name);
    const unmarked = endpoint.body!.filter((f) => f.presence === 'not-shown').map((f) => f.name);
    fc.assert(
      fc.property(requestBodyArb(endpoint), (body) => {
        for (const name of unmarked) {
          const { [name]: _, ...rest } = body;
          expectAccepted(validate, rest);
        }
      }),
    );
  });
});

describe('wp_command (LIMIT-WP-COMMAND)', () => {
  const validate = generated.validateRunWpCliCommandRequest;
  const command = (wp_command: string) => ({ wp_command });
  const atLength = (length: number) => `wp option get ${'a'.repeat(length - 'wp option get '.length)}`;

  it(`accepts exactly ${WP_COMMAND_MAX_LENGTH} characters and refuses ${WP_COMMAND_MAX_LENGTH + 1} by maxLength alone`, () => {
    expect(atLength(WP_COMMAND_MAX_LENGTH)).toHaveLength(WP_COMMAND_MAX_LENGTH);
    expectAccepted(validate, command(atLength(WP_COMMAND_MAX_LENGTH)));
    expect(validate(command(atLength(WP_COMMAND_MAX_LENGTH + 1)))).toBe(false);
    expect(validate.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([['/wp_command', 'maxLength']]);
  });

  it('accepts every ASCII letter and digit', () => {
    for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') expectAccepted(validate, command(`wp x${c}`));
  });

  it.each([
    ['underscore', '_'],
    ['hyphen', '-'],
    ['dot', '.'],
    ['slash', '/'],
    ['colon', ':'],
    ['equals sign', '='],
    ['at sign', '@'],
    ['apostrophe', "'"],
    ['space', ' '],
    ['tab', '\t'],
    ['line feed', '\n'],
    ['carriage return', '\r'],
  ])('accepts %s', (_, c) => {
    expectAccepted(validate, command(`wp plugin${c}list`));
    expectAccepted(validate, command(`wp ${c}`));
  });

  it.each([
    ['space', ' '],
    ['tab', '\t'],
    ['line feed', '\n'],
    ['carriage return', '\r'],
  ])('accepts %s between `wp` and its arguments', (_, space) => {
    expectAccepted(validate, command(`wp${space}plugin list`));
  });

  it.each([
    ['semicolon', ';'],
    ['pipe', '|'],
    ['ampersand', '&'],
    ['dollar sign', '$'],
    ['backtick', '`'],
    ['double quote', '"'],
  ])('refuses %s by pattern', (_, c) => {
    expect(validate(command(`wp plugin list ${c}`))).toBe(false);
    expect(validate.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([['/wp_command', 'pattern']]);
  });

  it.each(wpCommandNearMisses.map((miss) => [miss.why, miss] as const))('refuses %s', (_, miss) => {
    expect(validate(command(miss.value))).toBe(false);
    expect(validate.errors?.map((e) => e.keyword)).toContain(miss.keyword);
  });

  it.each([
    ['`wp` alone', 'wp'],
    ['`wp` without white space after it', 'wplist'],
    ['white space before `wp`', ' wp plugin list'],
    ['`WP` in capitals', 'WP plugin list'],
  ])('refuses %s', (_, value) => {
    expect(validate(command(value))).toBe(false);
  });
});

describe('changeSshExpirationInterval: exp_interval (LIMIT-EXP-INTERVAL)', () => {
  const validate = generated.validateChangeSshExpirationIntervalRequest;
  it('accepts the shown value and any value shaped like it; refuses a missing one', () => {
    expectAccepted(validate, { exp_interval: 'days_7' });
    expectAccepted(validate, { exp_interval: 'days_30' });
    expect(validate({})).toBe(false);
    expect(validate.errors?.map((e) => e.params.missingProperty)).toEqual(['exp_interval']);
  });
});

describe('acknowledgements (ACK-202, OPID-KIND)', () => {
  it('refuses an acknowledgement of another action', () => {
    const ack = { operation_id: 'backups:restore-0f8fad5b-d9cb-469f-a165-70867728950e', message: 'In progress', status: 202 };
    expectAccepted(generated.validateRestoreBackupResponse, ack);
    expect(generated.validateClearCdnCacheResponse(ack)).toBe(false);
    expectAccepted(generated.validateAcknowledgement, ack);
  });
});
