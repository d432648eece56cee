/**
 * A JSON Schema's `description`s, read from the doc comments of the TypeScript type it was
 * written against: what a field means is said once, on its type, and the schema (editors show it
 * on hover, docs/reference/reports.md lists it) carries those words. A field's own comment wins;
 * without one, the comment of the interface or alias its type names. Read from the syntax of the
 * type's module and the modules it imports (no type checker: a generation stays fast), which is
 * enough for the plain interfaces, aliases, arrays, records and optional fields a report is made of.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ts } from 'ts-morph';

type Schema = Readonly<Record<string, unknown>>;
type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

/** Every interface and alias of `file` and of the relative modules it imports, by name. */
function declarations(file: string, into = new Map<string, Declaration>(), seen = new Set<string>()): Map<string, Declaration> {
  if (seen.has(file)) return into;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  for (const statement of source.statements) {
    if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && !into.has(statement.name.text)) into.set(statement.name.text, statement);
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text.startsWith('.')) {
      declarations(resolve(dirname(file), statement.moduleSpecifier.text), into, seen);
    }
  }
  return into;
}

const docOf = (node: ts.Node): string =>
  ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
    .join(' ')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

export function describedByType(schema: Schema, file: string, typeName: string): Schema {
  const known = declarations(file);
  const describe = (s: Schema, doc: string): Schema => (s.description === undefined && doc ? { ...s, description: doc } : s);

  /** The members of an interface (its bases' too) or a type literal. */
  const membersOf = (node: ts.Node): ts.TypeElement[] => {
    if (ts.isTypeLiteralNode(node)) return [...node.members];
    if (!ts.isInterfaceDeclaration(node)) return [];
    const bases = (node.heritageClauses ?? []).flatMap((h) => h.types).flatMap((t) => (ts.isIdentifier(t.expression) && known.get(t.expression.text) ? membersOf(known.get(t.expression.text)!) : []));
    return [...bases, ...node.members];
  };

  const walk = (s: Schema, type: ts.TypeNode | Declaration): Schema => {
    if (ts.isTypeAliasDeclaration(type)) return walk(describe(s, docOf(type)), type.type);
    if (ts.isInterfaceDeclaration(type)) return walkMembers(describe(s, docOf(type)), membersOf(type));
    if (ts.isParenthesizedTypeNode(type)) return walk(s, type.type);
    if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword) return walk(s, type.type);
    if (ts.isUnionTypeNode(type)) {
      const present = type.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword && !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
      return present.length === 1 ? walk(s, present[0]!) : s;
    }
    if (ts.isArrayTypeNode(type)) return s.items ? { ...s, items: walk(s.items as Schema, type.elementType) } : s;
    if (ts.isTypeLiteralNode(type)) return walkMembers(s, membersOf(type));
    if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
      const name = type.typeName.text;
      const [first, second] = type.typeArguments ?? [];
      if ((name === 'Readonly' || name === 'Partial') && first) return walk(s, first);
      if ((name === 'ReadonlyArray' || name === 'Array') && first) return s.items ? { ...s, items: walk(s.items as Schema, first) } : s;
      if (name === 'Record' && second && s.additionalProperties && typeof s.additionalProperties === 'object') return { ...s, additionalProperties: walk(s.additionalProperties as Schema, second) };
      const declared = known.get(name);
      if (declared) return walk(s, declared);
    }
    return s;
  };

  const walkMembers = (s: Schema, members: readonly ts.TypeElement[]): Schema => {
    const properties = s.properties as Record<string, Schema> | undefined;
    if (!properties) return s;
    const byName = new Map(members.filter(ts.isPropertySignature).map((m) => [m.name.getText(), m] as const));
    const described = Object.entries(properties).map(([key, sub]) => {
      const member = byName.get(key);
      return [key, member?.type ? walk(describe(sub, docOf(member)), member.type) : sub] as const;
    });
    return { ...s, properties: Object.fromEntries(described) };
  };

  const root = known.get(typeName);
  if (!root) throw new Error(`${file} declares no type ${typeName}`);
  return walk(schema, root);
}
