/** What every generator module returns: files for `generated/`, as text, with no I/O. */
import type { Api } from '../spec/model.ts';

export interface GeneratedFile {
  /** Path relative to `generated/`, with forward slashes. */
  readonly path: string;
  readonly contents: string;
}

/** One output module: the model in, files out; pure and deterministic. */
export type Generate = (api: Api) => readonly GeneratedFile[];

/**
 * The first line(s) of every generated file: which generator module wrote it, from which
 * spec version, and what to edit instead.
 */
export function bannerLines(api: Api, generatorModule: string): readonly string[] {
  return [
    `generated from spec ${api.specVersion} — do not edit.`,
    `Written by ${generatorModule} (npm run generate); edit the model in spec/ or the generator instead.`,
  ];
}

/** The banner as a block comment, for TypeScript and JavaScript files. */
export const codeBanner = (api: Api, generatorModule: string): string =>
  `/*\n${bannerLines(api, generatorModule).map((line) => ` * ${line}`).join('\n')}\n */\n`;

/** The banner as `#` comments, for YAML files. */
export const hashBanner = (api: Api, generatorModule: string): string =>
  `${bannerLines(api, generatorModule).map((line) => `# ${line}`).join('\n')}\n`;

/** Every generated file ends with exactly one newline and uses `\n` only. */
export const normalizeText = (text: string): string => `${text.replace(/\r\n?/g, '\n').replace(/\n+$/, '')}\n`;
