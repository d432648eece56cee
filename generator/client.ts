/**
 * generated/client.ts: a typed client on `undici.request`, one method per endpoint, named as
 * the model names the endpoint. The fixed machinery (errors, helpers, the private call) is in
 * client-runtime.ts; this module adds what the model decides: routes, methods and their docs.
 */
import type { MethodDeclarationStructure, OptionalKind, StatementStructures } from 'ts-morph';
import type { Api, Endpoint } from '../spec/model.ts';
import { operation } from '../spec/queries.ts';
import { clientCore, errorClasses, helperFunctions, optionsInterface, routeInterface, validatorInterface } from './client-runtime.ts';
import { type Doc, docStructure, identifier, inlineCode, type Literal, literalExpression, print, renderSourceFile, stringLiteral } from './code.ts';
import { codeBanner, type Generate, normalizeText } from './output.ts';
import { StructureKind, VariableDeclarationKind } from './ts-morph.ts';
import { deprecationTags, endpointTypeNames } from './types.ts';

const TYPES_MODULE = './types.ts';
const DEFAULT_TIMEOUT_MS = 10_000;

/** The type of a method's `params` argument: path and query parameters as one object, if any. */
function paramsType(e: Endpoint): string | undefined {
  const { pathParams, query } = endpointTypeNames(e);
  const parts = [pathParams, query].filter((name): name is string => name !== undefined);
  return parts.length > 0 ? parts.join(' & ') : undefined;
}

const routeOf = (e: Endpoint): Literal => ({
  method: e.method,
  path: e.path,
  pathParams: e.pathParams.map((p) => p.name),
  queryParams: e.queryParams.map((p) => p.name),
});

function methodDoc(api: Api, e: Endpoint): Doc {
  const meaning = (status: number) => api.errorMeanings.find((m) => m.status === status)?.meaning;
  const errors = e.errors.map((status) => `${status} (${meaning(status) ?? 'meaning not shown'})`).join(', ');
  const success = e.success;
  const returns =
    success.kind === 'ack'
      ? `The HTTP 202 acknowledgement; its \`operation_id\` is \`${success.operationKind}-<UUID>\`.`
      : 'The success body, parsed.';
  const typeNames = endpointTypeNames(e);
  return {
    description: `${e.summary}\n\n${inlineCode(operation(e))}`,
    tags: [
      ...(paramsType(e) ? [{ tagName: 'param', text: 'params Path and query parameters; path values are URL-encoded.' }] : []),
      ...(typeNames.request ? [{ tagName: 'param', text: 'body Request body, sent as JSON.' }] : []),
      { tagName: 'returns', text: returns },
      { tagName: 'throws', text: `{ApiError} On any status outside 2xx; the document lists ${errors}.` },
      { tagName: 'throws', text: '{TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).' },
      ...deprecationTags(e),
    ],
  };
}

function endpointMethod(api: Api, e: Endpoint): OptionalKind<MethodDeclarationStructure> {
  const params = paramsType(e);
  const { request, response } = endpointTypeNames(e);
  return {
    name: identifier(e.name),
    docs: [docStructure(methodDoc(api, e))],
    parameters: [...(params ? [{ name: 'params', type: params }] : []), ...(request ? [{ name: 'body', type: request }] : [])],
    returnType: `Promise<${response}>`,
    statements: [`return this.#call(${print(stringLiteral(e.name))}, ${params ? 'params' : 'undefined'}, ${request ? 'body' : 'undefined'});`],
  };
}

/** Every type name the client uses from types.ts, sorted so the import line is stable. */
function importedTypes(api: Api): readonly string[] {
  const names = api.endpoints.flatMap((e) => {
    const { pathParams, query, request, response } = endpointTypeNames(e);
    return [pathParams, query, request, response].filter((name): name is string => name !== undefined);
  });
  return [...new Set(['EndpointName', 'Endpoints', 'ErrorBody', ...names])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function clientStatements(api: Api): readonly StatementStructures[] {
  // A blank line before each constant, as ts-morph adds one only around block-like declarations.
  const constant = (name: string, doc: string, initializer: string, type?: string): StatementStructures => ({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    leadingTrivia: '\n',
    docs: [doc],
    declarations: [{ name, type, initializer }],
  });
  return [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: 'undici',
      namedImports: ['request', { name: 'Dispatcher', isTypeOnly: true }],
    },
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: TYPES_MODULE, namedImports: [...importedTypes(api)] },
    constant('BASE_PATH', 'The version segment the path of every base URL ends in (§Versioning).', print(stringLiteral(api.basePath))),
    constant('DEFAULT_TIMEOUT_MS', 'Deadline of one call when the options set none.', String(DEFAULT_TIMEOUT_MS)),
    routeInterface,
    constant(
      'routes',
      'Every endpoint’s route, from the spec model.',
      print(literalExpression(Object.fromEntries(api.endpoints.map((e) => [e.name, routeOf(e)])))),
      '{ readonly [N in EndpointName]: Route }',
    ),
    optionsInterface,
    validatorInterface,
    ...errorClasses,
    ...helperFunctions,
    {
      kind: StructureKind.Class,
      name: 'HostedSiteClient',
      isExported: true,
      docs: [
        docStructure({
          description: `Client of the ${api.title} (${api.basePath}, spec ${api.specVersion}): one method per endpoint, bearer auth, JSON in and out.`,
        }),
      ],
      properties: clientCore.properties,
      ctors: clientCore.ctors,
      methods: [...api.endpoints.map((e) => endpointMethod(api, e)), ...(clientCore.methods ?? [])],
    },
  ];
}

export const generateClient: Generate = (api) => [
  {
    path: 'client.ts',
    contents: normalizeText(
      `${codeBanner(api, 'generator/client.ts')}\n${renderSourceFile([...clientStatements(api)])}`,
    ),
  },
];
