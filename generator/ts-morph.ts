/**
 * ts-morph's run-time values, for the generator modules. The package is CommonJS; an ESM
 * `import` of it has Node first scan its 1 MB bundle for export names (cjs-module-lexer), close
 * to a tenth of `generate --check`, where `require` hands over the same module object without
 * the scan. Types still come from `import type ... from 'ts-morph'`, which is erased.
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';

const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const { StructureKind, VariableDeclarationKind, Writers, printStructure } = tsMorph;
/** Also the type of every `kind` (an enum is both). */
export type StructureKind = TsMorph.StructureKind;

/**
 * The TypeScript compiler API that ts-morph carries. Under its own name, as a module cannot
 * export a value `ts` beside the namespace `ts` that types such as `ts.Node` come from.
 */
export const typescript = tsMorph.ts;
