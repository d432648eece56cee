/**
 * `formatTypeScript` against ts-morph's `formatText` with the settings the generator used to
 * pass it: the same text for every kind of formatting the generated files need, and for the
 * options where TypeScript's defaults and ts-morph's could part (switch cases, anonymous
 * functions, parentheses, trailing whitespace, braces).
 */
import { readFileSync } from 'node:fs';
import { IndentationText, Project, QuoteKind, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { formatTypeScript } from './format.ts';

function formattedByProject(text: string): string {
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, newLineKind: ts.NewLineKind.LineFeed, quoteKind: QuoteKind.Single },
  });
  const file = project.createSourceFile('generated.ts', text);
  file.formatText({ indentSize: 2, tabSize: 2, convertTabsToSpaces: true, semicolons: ts.SemicolonPreference.Insert });
  return file.getFullText();
}

/** Every indentation step doubled and a space after each line: what the printer's four spaces look like, and more. */
const misindented = (text: string): string =>
  text
    .split('\n')
    .map((line) => `${line.replace(/^ +/, (spaces) => spaces.repeat(2))}${line.trim() === '' ? '' : ' '}`)
    .join('\n');

const cases: [string, string][] = [
  ['a nested type literal printed with four spaces', 'export interface A {\n  b: {\n        c: string;\n    };\n}\n'],
  ['a long union after `= `', "export type K = \n    | 'a'\n    | 'b';\n"],
  ['a one-line type literal without its last semicolon', 'type T = { a: string; b: number };\n'],
  ['an object literal printed with four spaces', "const routes = {\n    a: {\n        method: 'GET'\n    }\n};\n"],
  ['a switch', 'function f(x: number) {\nswitch (x) {\ncase 1:\nreturn 1;\ndefault:\nreturn 0;\n}\n}\n'],
  ['an anonymous function and parentheses', 'const g = function( a ){ return ( a ); };\n'],
  ['empty and non-empty braces', 'const o = {   };\nconst p = {a: 1};\nimport {x} from \'./x.ts\';\n'],
  ['a class with a template string', 'class C {\n#k = 1;\nm(): string {\nreturn `${this.#k}`;\n}\n}\n'],
];

const generatedTypeScript = ['types.ts', 'client.ts', 'validators.d.ts'].map((name): [string, string] => [
  `generated/${name}, its indentation doubled`,
  misindented(readFileSync(new URL(`../generated/${name}`, import.meta.url), 'utf8')),
]);

describe('formatTypeScript', () => {
  it.each([...cases, ...generatedTypeScript])('formats %s as ts-morph did', (_, text) => {
    const want = formattedByProject(text);
    expect(want).not.toBe(text);
    expect(formatTypeScript(text)).toBe(want);
  });

  it('leaves a generated file as it is', () => {
    const text = readFileSync(new URL('../generated/types.ts', import.meta.url), 'utf8');
    expect(formatTypeScript(text)).toBe(text);
  });
});
