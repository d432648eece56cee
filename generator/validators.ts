/**
 * The model → JSON Schemas (`schemas.json`) and ajv validators compiled from them at generation
 * time (`validators.js`, standalone ESM, typed by `validators.d.ts`). The mock server, the
 * generated client and the conformance suite import the validators, so none of them needs ajv
 * or a schema compiler at run time, and all of them judge bodies by the same code.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createRequire } from 'node:module';
import type { StatementStructures, VariableDeclarationStructure } from 'ts-morph';
import type { Api, Endpoint } from '../spec/model.ts';
import { operation } from '../spec/queries.ts';
import { identifier, renderSourceFile } from './code.ts';
import { bannerLines, codeBanner, normalizeText, type Generate } from './output.ts';
import { StructureKind, VariableDeclarationKind, Writers } from './ts-morph.ts';
import { endpointTypeNames } from './types.ts';
import { objectSchema, requestSchema, resourceSchemas, responseSchema, type JsonSchema, type RefTo } from './schema.ts';

const GENERATOR = 'generator/validators.ts';
export const SCHEMAS_FILE = 'schemas.json';
export const VALIDATORS_FILE = 'validators.js';
export const VALIDATORS_TYPES_FILE = 'validators.d.ts';
// `.js`, as Node and a consumer's TypeScript (nodenext) resolve it next to the compiled types.js;
// in the repository TypeScript maps it to types.ts.
const TYPES_MODULE = './types.js';

/** The four maps `validators.js` exports, each keyed by resource or endpoint name. */
export type ValidatorGroup = 'resource' | 'response' | 'request' | 'query';
export const validatorMaps: Record<ValidatorGroup, string> = {
  resource: 'resourceValidators',
  response: 'responseValidators',
  request: 'requestValidators',
  query: 'queryValidators',
};

/** One schema of `schemas.json` and the validator compiled from it. */
export interface ValidatorEntry {
  readonly group: ValidatorGroup;
  /** The resource or endpoint name: the key in the group's map. */
  readonly key: string;
  /** The key under `$defs`: the resource name, or `<endpointName>.response|request|query`. */
  readonly defName: string;
  /** `validate` + the type name, e.g. `validateGetSiteResponse`, `validateSite`. */
  readonly exportName: string;
  /** The matching type of `generated/types.ts`. */
  readonly typeName: string;
  readonly schema: JsonSchema;
}

const defRef: RefTo = (resource) => `#/$defs/${resource}`;

const groupTitles = { response: 'Success body', request: 'Request body', query: 'Query parameters' } as const;

function endpointEntry(e: Endpoint, group: Exclude<ValidatorGroup, 'resource'>, schema: JsonSchema): ValidatorEntry {
  const typeName = endpointTypeNames(e)[group];
  if (typeName === undefined) throw new Error(`types.ts names no ${group} type for ${e.name}`);
  const defName = `${e.name}.${group}`;
  return {
    group,
    key: e.name,
    defName,
    exportName: identifier(`validate${typeName}`),
    typeName,
    schema: { title: defName, description: `${groupTitles[group]} of ${operation(e)}.`, ...schema },
  };
}

/**
 * Query parameters arrive as strings whatever they carry, so a query schema is an object of
 * strings; a non-string parameter type would need a decoding rule the model does not have yet.
 */
function querySchema(e: Endpoint, refTo: RefTo): JsonSchema {
  for (const p of e.queryParams) {
    if (p.type.kind !== 'string') throw new Error(`query parameter ${p.name} of ${e.name} is ${p.type.kind}; only strings are supported`);
  }
  return objectSchema(e.queryParams, 'request', refTo);
}

/**
 * `validate` + the resource, unless that is an endpoint's name (the client's method: `validateApiKey()`
 * calls GET /validate), then `validate<Resource>Record`, so one name never means two things.
 */
function resourceValidatorName(api: Api, resource: string): string {
  const name = identifier(`validate${resource}`);
  return api.endpoints.some((e) => e.name === name) ? `${name}Record` : name;
}

/** Every schema, in the order `schemas.json` lists them: resources, then each endpoint's response, request, query. */
export function validatorEntries(api: Api, refTo: RefTo = defRef): readonly ValidatorEntry[] {
  const resources = Object.entries(resourceSchemas(api, refTo)).map(
    ([name, schema]): ValidatorEntry => ({
      group: 'resource',
      key: name,
      defName: name,
      exportName: resourceValidatorName(api, name),
      typeName: identifier(name),
      schema,
    }),
  );
  const perEndpoint = api.endpoints.flatMap((e) => {
    const request = requestSchema(e, refTo);
    return [
      endpointEntry(e, 'response', responseSchema(e, refTo)),
      ...(request ? [endpointEntry(e, 'request', request)] : []),
      ...(e.queryParams.length ? [endpointEntry(e, 'query', querySchema(e, refTo))] : []),
    ];
  });
  const entries = [...resources, ...perEndpoint];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.exportName)) throw new Error(`two schemas would both export ${entry.exportName}`);
    seen.add(entry.exportName);
  }
  return entries;
}

/** `schemas.json` as data: one JSON Schema 2020-12 document, every schema under `$defs`. */
export function schemaDocument(api: Api): JsonSchema {
  return {
    // JSON has no comments: the banner travels as the document's `$comment`.
    $comment: bannerLines(api, GENERATOR).join(' '),
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `${api.title} ${api.basePath} (spec ${api.specVersion}): JSON Schemas`,
    $defs: Object.fromEntries(validatorEntries(api).map((entry) => [entry.defName, entry.schema])),
  };
}

/**
 * ajv compiles each schema under its own id, with `$ref`s pointing at those ids instead of
 * `#/$defs/...`: then every body that uses a resource calls the one function compiled for it,
 * where fragments of one document would be compiled again for each export.
 */
const compileId = (defName: string): string => `urn:hosted-site-contract:${encodeURIComponent(defName)}`;
const compileRef: RefTo = (resource) => compileId(resource);

/**
 * ajv's standalone ESM output still loads these helpers with `require("ajv/dist/runtime/...")`;
 * each is a self-contained function, so its source is inlined instead and the module stays pure
 * ESM with no run-time dependency. They are loaded the way that code would have loaded them, as
 * CommonJS, since loaders disagree on what an ESM default import of CommonJS is.
 */
const loadCommonJs = createRequire(import.meta.url);
const runtimeHelpers: readonly { readonly code: string; toString(): string }[] = ['ucs2length', 'equal'].map(
  (name) => loadCommonJs(`ajv/dist/runtime/${name}`).default,
);

function inlineRuntimeHelpers(code: string): string {
  let inlined = code;
  for (const helper of runtimeHelpers) inlined = inlined.split(helper.code).join(`(${helper.toString()})`);
  if (inlined.includes('require(')) throw new Error('ajv emitted a require() of a runtime helper that validators.ts does not inline');
  return inlined;
}

/**
 * ajv's standalone output declares a copy of every root schema (`const schemaN = {...};`, one
 * line each) that no code reads: a sixth of the file. A declaration whose name occurs nowhere
 * else, with a literal initializer, has no effect, so it is dropped.
 */
function dropUnusedSchemaConstants(code: string): string {
  // Counted in one pass over the code, not one pass per constant.
  const occurrences = new Map<string, number>();
  for (const [name] of code.matchAll(/\bschema\d+\b/g)) occurrences.set(name, (occurrences.get(name) ?? 0) + 1);
  return code
    .split('\n')
    .filter((line) => {
      const declared = /^const (schema\d+) = \{.*\};$/.exec(line)?.[1];
      return declared === undefined || (occurrences.get(declared) ?? 0) > 1;
    })
    .join('\n');
}

/**
 * Options chosen for a contract checker:
 * - `allErrors`: reports list every problem of a body, not only the first;
 * - `validateFormats: false`: `format` is documentation next to `pattern`, and the patterns
 *   (spec/formats.ts) already decide every format; this keeps ajv-formats out of the output;
 * - `inlineRefs: false`: each resource is one function that every body using it calls, instead
 *   of a copy per use (a quarter smaller, and one place to read when a check surprises);
 * - `strict`: a schema keyword ajv does not know is a generator bug, not something to ignore.
 */
function compiledModule(api: Api): string {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    validateFormats: false,
    inlineRefs: false,
    code: { source: true, esm: true, lines: true },
  });
  const entries = validatorEntries(api, compileRef);
  ajv.addSchema(entries.map((entry) => ({ $id: compileId(entry.defName), ...entry.schema })));
  const refs = Object.fromEntries(entries.map((entry) => [entry.exportName, compileId(entry.defName)]));
  return dropUnusedSchemaConstants(inlineRuntimeHelpers(standaloneCode.default(ajv, refs)));
}

function mapExports(api: Api): string {
  const entries = validatorEntries(api);
  return (Object.keys(validatorMaps) as ValidatorGroup[])
    .map((group) => {
      const members = entries
        .filter((entry) => entry.group === group)
        .map((entry) => `  ${JSON.stringify(entry.key)}: ${entry.exportName},`)
        .join('\n');
      return `export const ${validatorMaps[group]} = Object.freeze({\n${members}\n});`;
    })
    .join('\n\n');
}

/** `validators.js`: the banner, ajv's standalone code, then the maps keyed by name. */
export const validatorsModule = (api: Api): string =>
  normalizeText(`${codeBanner(api, GENERATOR)}${compiledModule(api)}\n\n${mapExports(api)}`);

/** `validators.d.ts`: each validator typed with the matching type of `generated/types.ts`. */
export function validatorsDeclarations(api: Api): string {
  const entries = validatorEntries(api);
  const validatorType = (entry: ValidatorEntry) => `Validator<${entry.typeName}>`;
  const declaredConst = (doc: string, name: string, type: VariableDeclarationStructure['type']): StatementStructures => ({
    kind: StructureKind.VariableStatement,
    isExported: true,
    hasDeclareKeyword: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: [doc],
    declarations: [{ name, type }],
  });
  const body = renderSourceFile([
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: TYPES_MODULE,
      namedImports: [...new Set(entries.map((entry) => entry.typeName))].sort(),
    },
    {
      kind: StructureKind.Interface,
      name: 'ValidationError',
      isExported: true,
      docs: ['One problem ajv found: where (`instancePath`), which schema keyword, and its parameters.'],
      properties: [
        { name: 'instancePath', type: 'string' },
        { name: 'schemaPath', type: 'string' },
        { name: 'keyword', type: 'string' },
        { name: 'params', type: 'Record<string, unknown>' },
        { name: 'message', type: 'string', hasQuestionToken: true },
      ],
    },
    {
      kind: StructureKind.Interface,
      name: 'Validator',
      isExported: true,
      docs: ['A compiled schema: true when `data` conforms; otherwise `errors` says why.'],
      typeParameters: [{ name: 'T', default: 'unknown' }],
      callSignatures: [{ parameters: [{ name: 'data', type: 'unknown' }], returnType: 'data is T' }],
      properties: [{ name: 'errors', type: 'ValidationError[] | null', hasQuestionToken: true }],
    },
    ...entries.map((entry) => declaredConst(`\`#/$defs/${entry.defName}\` of schemas.json.`, entry.exportName, validatorType(entry))),
    ...(Object.keys(validatorMaps) as ValidatorGroup[]).map((group) =>
      declaredConst(
        `The ${group} validators, keyed by ${group === 'resource' ? 'resource' : 'endpoint'} name.`,
        validatorMaps[group],
        Writers.objectType({
          properties: entries
            .filter((entry) => entry.group === group)
            .map((entry) => ({ name: identifier(entry.key), isReadonly: true, type: validatorType(entry) })),
        }),
      ),
    ),
  ]);
  return normalizeText(`${codeBanner(api, GENERATOR)}${body}`);
}

export const generateValidators: Generate = (api) => [
  { path: SCHEMAS_FILE, contents: normalizeText(JSON.stringify(schemaDocument(api), null, 2)) },
  { path: VALIDATORS_FILE, contents: validatorsModule(api) },
  { path: VALIDATORS_TYPES_FILE, contents: validatorsDeclarations(api) },
];
