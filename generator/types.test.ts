/**
 * generated/types.ts read back with ts-morph and compared with the model it came from: the
 * expectations are derived from `api`, not from a snapshot, so a model change needs no edit here.
 */
import { readFileSync } from 'node:fs';
import { type InterfaceDeclaration, Node, Project, type SourceFile, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { Api, Endpoint, Field, Param, Resource } from '../spec/model.ts';
import { generateClient } from './client.ts';
import { endpointTypeNames, generateTypes } from './types.ts';

const typesText = (model: Api = api): string => generateTypes(model)[0]?.contents ?? '';

function parse(text: string): SourceFile {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, noEmit: true } });
  return project.createSourceFile('types.ts', text);
}

const file = parse(typesText());

function interfaceNamed(name: string): InterfaceDeclaration {
  const found = file.getInterface(name);
  if (!found?.isExported()) throw new Error(`no exported interface ${name}`);
  return found;
}

/** Property name → whether it is optional, as the model says it should be. */
const expectedOptionality = (members: readonly (Field | Param)[]) =>
  Object.fromEntries(members.map((m) => [m.name, m.presence === 'may-be-absent' || m.presence === 'not-shown']));

const actualOptionality = (declaration: InterfaceDeclaration) =>
  Object.fromEntries(declaration.getProperties().map((p) => [p.getName(), p.hasQuestionToken()]));

const jsDocText = (node: Node): string => (Node.isJSDocable(node) ? node.getJsDocs().map((doc) => doc.getText()).join('\n') : '');

describe('generateTypes', () => {
  it('type-checks under strict settings, with no diagnostics', () => {
    expect(file.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
  });

  it('starts with the banner and is deterministic', () => {
    expect(typesText()).toBe(typesText());
    expect(typesText().startsWith('/*\n * generated from spec 1.106.0 — do not edit.')).toBe(true);
  });

  it('is what generated/types.ts and generated/client.ts on disk hold', () => {
    const onDisk = (path: string) => readFileSync(new URL(`../generated/${path}`, import.meta.url), 'utf8');
    for (const generated of [...generateTypes(api), ...generateClient(api)]) expect(onDisk(generated.path), generated.path).toBe(generated.contents);
  });

  it.each(api.resources.map((r) => [r.name, r] as const))('has an interface for resource %s with its fields and their presence', (name, r: Resource) => {
    const declaration = interfaceNamed(name);
    expect(actualOptionality(declaration)).toEqual(expectedOptionality(r.fields));
    expect(jsDocText(declaration)).toContain(r.cite.section);
  });

  it('makes Acknowledgement generic in the operation kind, with the kinds of the model', () => {
    const ack = interfaceNamed('Acknowledgement');
    expect(ack.getTypeParameters().map((p) => p.getText())).toEqual(['K extends OperationKind = OperationKind']);
    expect(ack.getPropertyOrThrow('operation_id').getTypeNodeOrThrow().getText()).toBe('`${K}-${string}`');
    expect(ack.getPropertyOrThrow('status').getTypeNodeOrThrow().getText()).toBe('202');
    const kinds = file.getTypeAliasOrThrow('OperationKind').getType().getUnionTypes().map((t) => t.getLiteralValue());
    const modelKinds = api.endpoints.flatMap((e) => (e.success.kind === 'ack' ? [e.success.operationKind] : []));
    expect(new Set(kinds)).toEqual(new Set(modelKinds));
  });

  it.each(api.endpoints.map((e) => [e.name, e] as const))('has the parameter, request and response types of %s', (_, e: Endpoint) => {
    const names = endpointTypeNames(e);
    const present = (name: string | undefined) => (name ? file.getInterface(name) ?? file.getTypeAlias(name) : undefined);
    expect(Boolean(present(names.pathParams))).toBe(e.pathParams.length > 0);
    expect(Boolean(present(names.query))).toBe(e.queryParams.length > 0);
    expect(Boolean(present(names.request))).toBe(e.body !== undefined);
    if (names.pathParams && e.pathParams.length) expect(actualOptionality(interfaceNamed(names.pathParams))).toEqual(expectedOptionality(e.pathParams));
    if (names.query && e.queryParams.length) expect(actualOptionality(interfaceNamed(names.query))).toEqual(expectedOptionality(e.queryParams));
    if (names.request && e.body) expect(actualOptionality(interfaceNamed(names.request))).toEqual(expectedOptionality(e.body));

    const success = e.success;
    if (success.kind === 'ack') {
      expect(file.getTypeAliasOrThrow(names.response).getTypeNodeOrThrow().getText()).toBe(`Acknowledgement<'${success.operationKind}'>`);
    } else if (success.body.kind === 'object') {
      expect(actualOptionality(interfaceNamed(names.response))).toEqual(expectedOptionality(success.body.fields));
    } else {
      expect(file.getTypeAlias(names.response)?.isExported()).toBe(true);
    }
    const entry = interfaceNamed('Endpoints').getPropertyOrThrow(e.name).getTypeNodeOrThrow().getText();
    expect(entry).toContain(`method: '${e.method}';`);
    expect(entry).toContain(`path: '${e.path}';`);
    expect(entry).toContain(`response: ${names.response};`);
  });

  it('names every endpoint in EndpointName', () => {
    const names = file.getTypeAliasOrThrow('EndpointName').getType().getUnionTypes().map((t) => t.getLiteralValue());
    expect(names).toEqual(api.endpoints.map((e) => e.name));
  });

  it('marks the deprecated endpoint, and only it, @deprecated', () => {
    const deprecated = new Set(api.endpoints.filter((e) => e.deprecated).map((e) => e.name));
    expect(deprecated.size).toBeGreaterThan(0);
    for (const e of api.endpoints) {
      const response = file.getInterface(endpointTypeNames(e).response) ?? file.getTypeAliasOrThrow(endpointTypeNames(e).response);
      expect(jsDocText(response).includes('@deprecated'), e.name).toBe(deprecated.has(e.name));
      expect(jsDocText(interfaceNamed('Endpoints').getPropertyOrThrow(e.name)).includes('@deprecated'), e.name).toBe(deprecated.has(e.name));
    }
  });

  it('types known-but-open values as open unions and says what is not shown', () => {
    expect(interfaceNamed('Site').getPropertyOrThrow('status').getTypeNodeOrThrow().getText()).toBe("'live' | (string & {})");
    const expInterval = interfaceNamed('ChangeSshExpirationIntervalRequest').getPropertyOrThrow('exp_interval');
    expect(expInterval.getTypeNodeOrThrow().getText()).toBe("'days_7' | (string & {})");
    expect(jsDocText(expInterval)).toContain('the other 4 values are not shown');
    expect(jsDocText(interfaceNamed('ListThemesRequest').getPropertyOrThrow('status'))).toContain('Required/optional: not shown');
  });

  it('marks secret fields in their JSDoc', () => {
    const password = interfaceNamed('GetSftpPasswordResponse').getPropertyOrThrow('environment').getTypeNodeOrThrow().getText();
    expect(password).toMatch(/@secret[^]*sftp_password: string;/);
    expect(jsDocText(interfaceNamed('ResetSiteRequest').getPropertyOrThrow('admin_password'))).toContain('@secret');
  });

  it('escapes model text that would break the code: comment ends, quotes, non-identifier names', () => {
    const hostile: Api = {
      ...api,
      resources: api.resources.map((r) =>
        r.name === 'Region'
          ? {
              ...r,
              doc: 'ends */ early',
              fields: [
                ...r.fields,
                { name: 'odd-name', type: { kind: 'string', open: { occurs: ["it's */"], unknown: 'UNK-ENUM-SETS' } }, presence: 'documented', doc: '*/ x' },
              ],
            }
          : r,
      ),
    };
    const parsed = parse(typesText(hostile));
    expect(parsed.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
    const odd = parsed.getInterfaceOrThrow('Region').getPropertyOrThrow("'odd-name'");
    expect(odd.getType().getUnionTypes().map((t) => t.getLiteralValue())).toContain("it's */");
  });
});
