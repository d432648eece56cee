/**
 * Turning model values into TypeScript safely. Every name, string and comment the model puts
 * into generated code passes through one of these, so no generator escapes by hand.
 */
import type { JSDocStructure, OptionalKind, StatementStructures, ts } from 'ts-morph';
import { formatTypeScript, INDENT } from './format.ts';
import { printStructure, StructureKind, typescript } from './ts-morph.ts';

const factory = typescript.factory;

/** A JSDoc comment as data: printed through ts-morph structures or attached to a printed node. */
export interface Doc {
  readonly description: string;
  readonly tags?: readonly { readonly tagName: string; readonly text?: string }[];
}

/** Text shown as code in a doc comment. */
export const inlineCode = (text: string): string => `\`${text}\``;

/** A `*\/` inside comment text would end the comment early. */
const commentText = (text: string): string => text.replace(/\*\//g, '*\\/');

/** A doc as a ts-morph JSDoc structure, escaped. */
export const docStructure = (doc: Doc): OptionalKind<JSDocStructure> => ({
  description: commentText(doc.description),
  tags: (doc.tags ?? []).map((tag) => ({ tagName: tag.tagName, text: tag.text === undefined ? undefined : commentText(tag.text) })),
});

/** Attaches a doc to a factory-built node (e.g. a member of a type literal), escaped. */
export function withDoc<T extends ts.Node>(node: T, doc: Doc): T {
  const lines = [
    ...doc.description.split('\n'),
    ...(doc.tags ?? []).map((tag) => (tag.text === undefined ? `@${tag.tagName}` : `@${tag.tagName} ${tag.text}`)),
  ].map(commentText);
  const body = lines.length === 1 ? `* ${lines[0]} ` : `*\n${lines.map((line) => ` * ${line}`.trimEnd()).join('\n')}\n `;
  return typescript.addSyntheticLeadingComment(node, typescript.SyntaxKind.MultiLineCommentTrivia, body, true);
}

/** Whether a name can stand bare as a property name (keywords can). */
function isIdentifier(name: string): boolean {
  const codePoints = [...name].map((char) => char.codePointAt(0) ?? 0);
  const [first, ...rest] = codePoints;
  return (
    first !== undefined &&
    typescript.isIdentifierStart(first, typescript.ScriptTarget.ES2022) &&
    rest.every((point) => typescript.isIdentifierPart(point, typescript.ScriptTarget.ES2022))
  );
}

/** Whether a name is a keyword: scanned as one token of a keyword kind. */
function isKeyword(name: string): boolean {
  const kind = typescript.createScanner(typescript.ScriptTarget.ES2022, true, typescript.LanguageVariant.Standard, name).scan();
  return kind >= typescript.SyntaxKind.FirstKeyword && kind <= typescript.SyntaxKind.LastKeyword;
}

/** A name that must be a declared identifier in the output; refuses anything else rather than emit broken code. */
export function identifier(name: string): string {
  if (!isIdentifier(name) || isKeyword(name)) throw new Error(`not a valid TypeScript identifier: ${JSON.stringify(name)}`);
  return name;
}

/** `listThemes` → `ListThemes`, for type names derived from endpoint names. */
export const pascalCase = (name: string): string => identifier(name.charAt(0).toUpperCase() + name.slice(1));

/** A property name as written in code: bare when it is an identifier, quoted otherwise. */
export const propertyName = (name: string): string => (isIdentifier(name) ? name : print(stringLiteral(name)));

const propertyNameNode = (name: string): ts.PropertyName => (isIdentifier(name) ? factory.createIdentifier(name) : stringLiteral(name));

export const stringLiteral = (value: string): ts.StringLiteral => factory.createStringLiteral(value, true);

/** A union of literal types, e.g. `'GET'` or `401 | 404 | 500`. */
export function literalUnionType(values: readonly (string | number)[]): ts.TypeNode {
  const types = values.map((value) =>
    factory.createLiteralTypeNode(typeof value === 'string' ? stringLiteral(value) : factory.createNumericLiteral(value)),
  );
  if (types.length === 0) return factory.createKeywordTypeNode(typescript.SyntaxKind.NeverKeyword);
  return types.length === 1 ? types[0]! : factory.createUnionTypeNode(types);
}

/** A property of a type literal, with its doc. */
export const propertySignature = (name: string, type: ts.TypeNode, options: { optional?: boolean; doc?: Doc } = {}): ts.PropertySignature => {
  const node = factory.createPropertySignature(
    undefined,
    propertyNameNode(name),
    options.optional ? factory.createToken(typescript.SyntaxKind.QuestionToken) : undefined,
    type,
  );
  return options.doc ? withDoc(node, options.doc) : node;
};

/** Plain data (strings, numbers, booleans, arrays, objects) as a TypeScript expression. */
export type Literal = string | number | boolean | readonly Literal[] | { readonly [key: string]: Literal };

export function literalExpression(value: Literal): ts.Expression {
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number') return factory.createNumericLiteral(value);
  if (typeof value === 'boolean') return value ? factory.createTrue() : factory.createFalse();
  if (Array.isArray(value)) return factory.createArrayLiteralExpression((value as readonly Literal[]).map(literalExpression));
  return factory.createObjectLiteralExpression(
    Object.entries(value).map(([key, inner]) => factory.createPropertyAssignment(propertyNameNode(key), literalExpression(inner))),
    true,
  );
}

/**
 * Prints a factory-built node with `\n` line ends. One printer, and one empty file as the
 * context every node is printed in, serve all calls; ts-morph's `printNode` would make both
 * afresh for each of the many small nodes a generated file prints.
 */
const printer = typescript.createPrinter({ newLine: typescript.NewLineKind.LineFeed });
const printContext = typescript.createSourceFile('print.tsx', '', typescript.ScriptTarget.Latest, false, typescript.ScriptKind.TSX);
export const print = (node: ts.Node): string => printer.printNode(typescript.EmitHint.Unspecified, node, printContext);

/** Prints a type alias's type; a long union goes one member a line, so a reader can scan it. */
export const printAliasType = (node: ts.TypeNode): string =>
  typescript.isUnionTypeNode(node) && node.types.length > 3 ? node.types.map((member) => `\n  | ${print(member)}`).join('') : print(node);

/**
 * Builds one generated TypeScript file in memory: the statements (ts-morph structures, built in
 * one batch) are printed to text, then the whole file is formatted once so printed nodes and
 * structures share one indentation. `printStructure` gives the text that adding them to an
 * empty source file would, without a project parsing it and wrapping every node.
 */
export const renderSourceFile = (statements: readonly StatementStructures[]): string =>
  formatTypeScript(
    printStructure({ kind: StructureKind.SourceFile, statements: [...statements] }, { indentNumberOfSpaces: INDENT, newLine: '\n', useSingleQuote: true }),
  );
