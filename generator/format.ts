/**
 * TypeScript's formatter on one generated file, straight from its text: a syntax-only language
 * service over that one text parses it once. Formatting a ts-morph source file parses the text
 * three times (the project's copy, the language service's, and the edited text written back).
 */
import type { ts } from 'ts-morph';
import { typescript } from './ts-morph.ts';

export const INDENT = 2;

/**
 * TypeScript's formatting defaults, with the indentation and semicolons of generated files:
 * what ts-morph's `formatText` applied before, option for option (format.test.ts compares).
 */
const settings: ts.FormatCodeSettings = {
  ...typescript.getDefaultFormatCodeSettings('\n'),
  indentSize: INDENT,
  tabSize: INDENT,
  convertTabsToSpaces: true,
  semicolons: typescript.SemicolonPreference.Insert,
};

const FILE_NAME = 'generated.ts';

/** `text` with TypeScript's formatting edits applied. */
export function formatTypeScript(text: string): string {
  const service = typescript.createLanguageService(
    {
      getCompilationSettings: () => ({}),
      getScriptFileNames: () => [FILE_NAME],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) => (name === FILE_NAME ? typescript.ScriptSnapshot.fromString(text) : undefined),
      getCurrentDirectory: () => '/',
      getDefaultLibFileName: () => 'lib.d.ts',
      fileExists: (name) => name === FILE_NAME,
      readFile: () => undefined,
    },
    undefined,
    typescript.LanguageServiceMode.Syntactic,
  );
  const edits = [...service.getFormattingEditsForDocument(FILE_NAME, settings)].sort((a, b) => a.span.start - b.span.start);
  const pieces: string[] = [];
  let from = 0;
  for (const { span, newText } of edits) {
    pieces.push(text.slice(from, span.start), newText);
    from = span.start + span.length;
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}
