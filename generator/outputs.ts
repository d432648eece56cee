/** Every output module, and the one call that runs them all: the model in, all of generated/ out. */
import type { Api } from '../spec/model.ts';
import { generateClient } from './client.ts';
import { generateConfigSchema } from './config-schema.ts';
import { generateConformanceReportSchema } from './conformance-report-schema.ts';
import { generateContract } from './contract.ts';
import { generateContractDiffSchema } from './contract-diff-schema.ts';
import { generateOpenApi } from './openapi.ts';
import { normalizeText, type Generate, type GeneratedFile } from './output.ts';
import { generateTypes } from './types.ts';
import { generateValidators } from './validators.ts';

/** One entry per output module; a new output is one more line here. */
export const outputs: readonly Generate[] = [generateTypes, generateValidators, generateClient, generateOpenApi, generateContract, generateContractDiffSchema, generateConformanceReportSchema, generateConfigSchema];

/**
 * Runs every output module and returns their files sorted by path (code-unit order, not locale
 * order, so every machine sorts alike). Throws when two outputs claim one path or a path could
 * escape `generated/`. Text is normalised once here (LF, one final newline).
 */
export function generateAll(api: Api, modules: readonly Generate[] = outputs): GeneratedFile[] {
  const files = modules.flatMap((generate) => generate(api));
  const seen = new Set<string>();
  for (const file of files) {
    if (!isSafeRelativePath(file.path)) throw new Error(`generated file path ${JSON.stringify(file.path)} must be relative, with forward slashes, inside generated/`);
    if (seen.has(file.path)) throw new Error(`two outputs both produce generated/${file.path}`);
    seen.add(file.path);
  }
  return files
    .map((file) => ({ path: file.path, contents: normalizeText(file.contents) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const isSafeRelativePath = (path: string): boolean =>
  path.length > 0 && !path.startsWith('/') && !path.includes('\\') && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
