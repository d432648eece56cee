/**
 * generated/types.ts: TypeScript types of every resource, and of every endpoint's path
 * parameters, query, request body and success body, read from the spec model.
 *
 * Presence becomes optionality: a response field is required when the document lists it
 * (`documented`) and optional when it "may be absent"; a request field is required only where
 * the document marks it so, every other one is optional because its marking is "not shown".
 */
import type { OptionalKind, PropertySignatureStructure, StatementStructures, ts } from 'ts-morph';
import type { Api, Cite, Endpoint, FieldType, OperationKind, Presence, Resource } from '../spec/model.ts';
import { operation } from '../spec/queries.ts';
import {
  type Doc,
  docStructure,
  identifier,
  inlineCode,
  literalUnionType,
  pascalCase,
  print,
  printAliasType,
  propertyName,
  propertySignature,
  renderSourceFile,
} from './code.ts';
import { codeBanner, type Generate, normalizeText } from './output.ts';
import { StructureKind, typescript } from './ts-morph.ts';

const factory = typescript.factory;

/** Names of an endpoint's generated types; the client refers to them by these names. */
export interface EndpointTypeNames {
  readonly pathParams: string | undefined;
  readonly query: string | undefined;
  readonly request: string | undefined;
  readonly response: string;
}

export function endpointTypeNames(e: Endpoint): EndpointTypeNames {
  const base = pascalCase(e.name);
  return {
    pathParams: e.pathParams.length > 0 ? `${base}PathParams` : undefined,
    query: e.queryParams.length > 0 ? `${base}Query` : undefined,
    request: e.body ? `${base}Request` : undefined,
    response: `${base}Response`,
  };
}

/** A resource field, body field or parameter: all three read the same way. */
interface Member {
  readonly name: string;
  readonly type: FieldType;
  readonly presence: Presence;
  readonly doc: string;
  readonly secret?: true;
}

const isRequired = (member: Member): boolean => member.presence === 'documented' || member.presence === 'required';

const keyword = (kind: ts.KeywordTypeSyntaxKind): ts.TypeNode => factory.createKeywordTypeNode(kind);

/**
 * A string of which some values are known and the rest are not shown: the known ones complete
 * in editors, while `(string & {})` keeps every other string assignable, as a server may send one.
 */
const openString = (known: readonly string[]): ts.TypeNode =>
  factory.createUnionTypeNode([
    literalUnionType(known),
    factory.createParenthesizedType(factory.createIntersectionTypeNode([keyword(typescript.SyntaxKind.StringKeyword), factory.createTypeLiteralNode([])])),
  ]);

export function typeNode(type: FieldType): ts.TypeNode {
  switch (type.kind) {
    case 'string': {
      const known = type.open?.occurs ?? type.enum?.shown;
      return known ? openString(known) : keyword(typescript.SyntaxKind.StringKeyword);
    }
    case 'integer':
    case 'number':
      return keyword(typescript.SyntaxKind.NumberKeyword);
    case 'boolean':
      return keyword(typescript.SyntaxKind.BooleanKeyword);
    case 'null':
      return factory.createLiteralTypeNode(factory.createNull());
    case 'any':
      return keyword(typescript.SyntaxKind.UnknownKeyword);
    case 'array':
      return factory.createArrayTypeNode(typeNode(type.items));
    case 'object':
      return factory.createTypeLiteralNode(
        type.fields.map((field) => propertySignature(field.name, typeNode(field.type), { optional: !isRequired(field), doc: memberDoc(field) })),
      );
    case 'ref':
      return factory.createTypeReferenceNode(identifier(type.resource));
  }
}

/** What the type alone cannot say: formats, stated limits, and which values are known. */
function typeNotes(type: FieldType): readonly string[] {
  if (type.kind === 'array') return typeNotes(type.items).map((note) => `Each item: ${note}`);
  if (type.kind !== 'string') return [];
  const notes: string[] = [];
  if (type.format) notes.push(`Format: ${type.format}.`);
  if (type.open) notes.push(`Values that occur: ${type.open.occurs.map(inlineCode).join(', ')}; the full set: not shown (${type.open.unknown}).`);
  if (type.enum) {
    const { shown, size, unknown } = type.enum;
    notes.push(`One of ${size} values; shown: ${shown.map(inlineCode).join(', ')}; the other ${size - shown.length} values are not shown (${unknown}).`);
  }
  if (type.maxLength !== undefined) notes.push(`Maximum length: ${type.maxLength}.`);
  if (type.pattern !== undefined) notes.push(`Pattern: ${inlineCode(type.pattern)}.`);
  if (type.limit) notes.push(`Limit: ${type.limit}.`);
  return notes;
}

const presenceNotes: Readonly<Record<Presence, readonly string[]>> = {
  documented: [],
  required: ['Required.'],
  'may-be-absent': ['May be absent.'],
  'not-shown': ['Required/optional: not shown.'],
};

function memberDoc(member: Member): Doc {
  return {
    description: [member.doc, ...typeNotes(member.type), ...presenceNotes[member.presence]].join('\n'),
    tags: member.secret ? [{ tagName: 'secret', text: 'Redact this value in logs and reports.' }] : [],
  };
}

function memberProperty(member: Member): OptionalKind<PropertySignatureStructure> {
  return {
    name: propertyName(member.name),
    type: print(typeNode(member.type)),
    hasQuestionToken: !isRequired(member),
    docs: [docStructure(memberDoc(member))],
  };
}

const seeTag = (api: Api, cite: Cite) => ({
  tagName: 'see',
  text: `${api.document} § ${cite.section}${cite.quote ? `: “${cite.quote}”` : ''}`,
});

/** `@deprecated` for an endpoint the document deprecates; the types and the client method carry the same tag. */
export const deprecationTags = (e: Endpoint): NonNullable<Doc['tags']> =>
  e.deprecated
    ? [{ tagName: 'deprecated', text: `${e.deprecated.cite.quote ?? 'Deprecated.'} Replacement: not shown (${e.deprecated.replacement}).` }]
    : [];

function endpointDoc(api: Api, e: Endpoint, what: string): Doc {
  return { description: `${what} of ${inlineCode(operation(e))} (${e.name}): ${e.summary}`, tags: [seeTag(api, e.cite), ...deprecationTags(e)] };
}

const interfaceOf = (name: string, doc: Doc, members: readonly Member[]): StatementStructures => ({
  kind: StructureKind.Interface,
  name: identifier(name),
  isExported: true,
  docs: [docStructure(doc)],
  properties: members.map(memberProperty),
});

const typeAliasOf = (name: string, doc: Doc, type: ts.TypeNode): StatementStructures => ({
  kind: StructureKind.TypeAlias,
  name: identifier(name),
  isExported: true,
  docs: [docStructure(doc)],
  type: printAliasType(type),
});

const ackType = (kind: OperationKind): ts.TypeNode => factory.createTypeReferenceNode('Acknowledgement', [literalUnionType([kind])]);

/** The Acknowledgement resource made generic in its operation kind, so each action's result names its kind. */
function acknowledgementInterface(api: Api, resource: Resource): StatementStructures {
  // Code texts, not model values: the document fixes `<kind>-<UUID>` and HTTP 202.
  const narrowed: Readonly<Record<string, string>> = { operation_id: '`${K}-${string}`', status: '202' };
  for (const name of Object.keys(narrowed)) {
    if (!resource.fields.some((f) => f.name === name)) throw new Error(`the Acknowledgement resource has no field ${name}`);
  }
  return {
    kind: StructureKind.Interface,
    name: 'Acknowledgement',
    isExported: true,
    typeParameters: [{ name: 'K', constraint: 'OperationKind', default: 'OperationKind' }],
    docs: [docStructure({ description: resource.doc, tags: [seeTag(api, resource.cite)] })],
    properties: resource.fields.map((f) => ({ ...memberProperty(f), type: narrowed[f.name] ?? print(typeNode(f.type)) })),
  };
}

function resourceStatements(api: Api): readonly StatementStructures[] {
  return api.resources.map((r) =>
    r.name === 'Acknowledgement'
      ? acknowledgementInterface(api, r)
      : interfaceOf(r.name, { description: r.doc, tags: [seeTag(api, r.cite)] }, r.fields),
  );
}

function responseStatement(api: Api, e: Endpoint, name: string): StatementStructures {
  const success = e.success;
  if (success.kind === 'ack') {
    return typeAliasOf(name, endpointDoc(api, e, `HTTP 202 acknowledgement (operation kind ${inlineCode(success.operationKind)})`), ackType(success.operationKind));
  }
  const doc = endpointDoc(api, e, 'Success body');
  return success.body.kind === 'object' ? interfaceOf(name, doc, success.body.fields) : typeAliasOf(name, doc, typeNode(success.body));
}

function endpointStatements(api: Api, e: Endpoint): readonly StatementStructures[] {
  const names = endpointTypeNames(e);
  return [
    ...(names.pathParams ? [interfaceOf(names.pathParams, endpointDoc(api, e, 'Path parameters'), e.pathParams)] : []),
    ...(names.query ? [interfaceOf(names.query, endpointDoc(api, e, 'Query parameters'), e.queryParams)] : []),
    ...(names.request && e.body ? [interfaceOf(names.request, endpointDoc(api, e, 'Request body'), e.body)] : []),
    responseStatement(api, e, names.response),
  ];
}

const typeRefOrUndefined = (name: string | undefined): ts.TypeNode =>
  name ? factory.createTypeReferenceNode(name) : keyword(typescript.SyntaxKind.UndefinedKeyword);

/** One entry of the `Endpoints` map: everything a caller or a server needs to type one call. */
function endpointEntry(e: Endpoint): ts.TypeNode {
  const names = endpointTypeNames(e);
  return factory.createTypeLiteralNode([
    propertySignature('method', literalUnionType([e.method])),
    propertySignature('path', literalUnionType([e.path])),
    propertySignature('pathParams', typeRefOrUndefined(names.pathParams)),
    propertySignature('query', typeRefOrUndefined(names.query)),
    propertySignature('request', typeRefOrUndefined(names.request)),
    propertySignature('response', factory.createTypeReferenceNode(names.response)),
    propertySignature('errors', literalUnionType(e.errors), { doc: { description: 'Error statuses of the per-endpoint table in §Errors.' } }),
  ]);
}

function mapStatements(api: Api): readonly StatementStructures[] {
  return [
    typeAliasOf('EndpointName', { description: 'The name of every endpoint; also the client method names.' }, literalUnionType(api.endpoints.map((e) => e.name))),
    {
      kind: StructureKind.Interface,
      name: 'Endpoints',
      isExported: true,
      docs: [docStructure({ description: 'Every endpoint by name: method, path template, and the types of its parts (`undefined` where it has none).' })],
      properties: api.endpoints.map((e) => ({
        name: propertyName(e.name),
        type: print(endpointEntry(e)),
        docs: [docStructure(endpointDoc(api, e, 'Endpoint'))],
      })),
    },
  ];
}

/** Operation kinds in the order of the endpoints that acknowledge with them. */
const operationKinds = (api: Api): readonly OperationKind[] => [
  ...new Set(api.endpoints.flatMap((e) => (e.success.kind === 'ack' ? [e.success.operationKind] : []))),
];

function typeStatements(api: Api): readonly StatementStructures[] {
  return [
    typeAliasOf('OperationKind', { description: 'Kinds of operation ids, `<kind>-<UUID>` (§Endpoints > Conventions).' }, literalUnionType(operationKinds(api))),
    ...resourceStatements(api),
    ...api.endpoints.flatMap((e) => endpointStatements(api, e)),
    ...mapStatements(api),
  ];
}

export const generateTypes: Generate = (api) => [
  {
    path: 'types.ts',
    contents: normalizeText(`${codeBanner(api, 'generator/types.ts')}\n${renderSourceFile([...typeStatements(api)])}`),
  },
];
