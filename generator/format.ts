/**
 * TypeScript's formatter on one generated file, straight from its text, parsed once. Its public
 * entry, a language service, parses the text with every JSDoc comment taken apart into nodes,
 * which the formatter never reads (it formats comments as text), and generated files are mostly
 * JSDoc; so the text is parsed here without them and handed to the `formatting` namespace that
 * the language service itself calls. The namespace is not in TypeScript's typings: the little
 * used of it is declared below, and format.test.ts holds the result to ts-morph's `formatText`.
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

/** What `ts.LanguageService#getFormattingEditsForDocument` runs, from TypeScript's internal `formatting`. */
interface Formatting {
  getFormatContext(options: ts.FormatCodeSettings, host: { getNewLine(): string }): unknown;
  formatDocument(file: ts.SourceFile, context: unknown): readonly ts.TextChange[];
}
const { formatting } = typescript as unknown as { readonly formatting: Formatting };
const formatContext = formatting.getFormatContext(settings, { getNewLine: () => '\n' });

/** `text` with TypeScript's formatting edits applied. */
export function formatTypeScript(text: string): string {
  const file = typescript.createSourceFile(
    'generated.ts',
    text,
    { languageVersion: typescript.ScriptTarget.Latest, jsDocParsingMode: typescript.JSDocParsingMode.ParseNone },
    // The formatter walks up from tokens to their parents.
    true,
  );
  const edits = [...formatting.formatDocument(file, formatContext)].sort((a, b) => a.span.start - b.span.start);
  const pieces: string[] = [];
  let from = 0;
  for (const { span, newText } of edits) {
    pieces.push(text.slice(from, span.start), newText);
    from = span.start + span.length;
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}
