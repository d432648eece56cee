/**
 * The JSON Schema of the config file (`config.schema.json`, bin/config.ts): a section per
 * command, its keys the command's flags in camelCase, each described by the flag's own help row,
 * so an editor completes and explains the file as `help <command>` does. Written from the flags
 * the commands parse: a flag added there is a key here.
 */
import { CONFIG_FLAGS, CONFIG_SCHEMA_FILE, CONFIGURED_COMMANDS, camelCase, SECRET_FLAGS, type ConfiguredCommand, type FlagOptionSet } from '../bin/config.ts';
import { conformFlagOptions, conformFlags } from '../conformance/flags.ts';
import { diffFlagOptions, diffFlags } from '../diff/flags.ts';
import { mockFlagOptions, mockFlags } from '../mock/flags.ts';
import { proxyFlagOptions, proxyFlags } from '../proxy/flags.ts';
import { bannerLines, normalizeText, type Generate } from './output.ts';

const GENERATOR = 'generator/config-schema.ts';

const flagsOf: Readonly<Record<ConfiguredCommand, { readonly options: FlagOptionSet; readonly rows: readonly string[] }>> = {
  conform: { options: conformFlagOptions, rows: conformFlags },
  proxy: { options: proxyFlagOptions, rows: proxyFlags },
  mock: { options: mockFlagOptions, rows: mockFlags },
  diff: { options: diffFlagOptions, rows: diffFlags },
};

/** A flag's help text: its row after the flag and its argument, and the indented rows that go on with it. */
export function helpText(rows: readonly string[], flag: string): string | undefined {
  const at = rows.findIndex((r) => new RegExp(`^--${flag}(\\s|$)`).test(r));
  if (at < 0) return undefined;
  const first = rows[at]!.replace(/^\S+(?: (?!\s)[^\s]+)?\s{2,}/, '');
  const more: string[] = [];
  for (const row of rows.slice(at + 1)) {
    if (!/^\s+\S/.test(row)) break;
    more.push(row.trim());
  }
  return [first, ...more].join(' ');
}

function section(command: ConfiguredCommand) {
  const { options, rows } = flagsOf[command];
  const properties = Object.fromEntries(
    Object.entries(options)
      .filter(([flag]) => !CONFIG_FLAGS.has(flag))
      .map(([flag, option]) => {
        const description = helpText(rows, flag);
        const words = { ...(description ? { description: `--${flag}: ${description}` } : {}) };
        if (option.type === 'boolean') return [camelCase(flag), { type: 'boolean', ...words }];
        if (SECRET_FLAGS.has(flag)) return [camelCase(flag), { type: 'string', pattern: '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$', ...words, description: `${words.description ?? ''} Only as \${NAME}, an environment variable: a key written in the file is refused.`.trim() }];
        const one = { type: ['string', 'number'] };
        return [camelCase(flag), option.multiple ? { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }], ...words } : { ...one, ...words }];
      }),
  );
  return { type: 'object', additionalProperties: false, description: `The flags of \`${command}\`, in camelCase.`, properties };
}

export const generateConfigSchema: Generate = (api) => [
  {
    path: CONFIG_SCHEMA_FILE,
    contents: normalizeText(
      JSON.stringify(
        {
          $comment: bannerLines(api, GENERATOR).join(' '),
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          title: 'hosted-site-contract.config.json',
          description: 'Options for hosted-site-contract, a section per command; a flag on the command line wins over the file. ${NAME} in a value reads the environment variable NAME.',
          type: 'object',
          additionalProperties: false,
          properties: { $schema: { type: 'string' }, ...Object.fromEntries(CONFIGURED_COMMANDS.map((c) => [c, section(c)])) },
        },
        null,
        2,
      ),
    ),
  },
];
