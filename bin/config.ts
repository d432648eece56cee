/**
 * The config file, `hosted-site-contract.config.json` in the working folder or the one `--config`
 * names: a section per command (`conform`, `proxy`, `mock`, `diff`) whose keys are that command's
 * flags in camelCase (`baseUrl` for `--base-url`), values as the flag takes them (a string or a
 * number; true for a switch; a list for a repeatable flag). It becomes flags before the command's
 * own, so the command's parser judges every value with the same words, and a flag typed on the
 * command line wins over the file's. `${NAME}` in a value is the environment variable NAME; a
 * credential must be only that (a key written in a file lands in version control): written
 * literally, the file is refused. The file's JSON Schema is generated from the same flags
 * (generator/config-schema.ts), so editors complete it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './command.ts';
import { didYouMean } from './did-you-mean.ts';
import { PROGRAM } from './package-info.ts';
import { secretVariable } from './process-guard.ts';

export const CONFIG_FILE = 'hosted-site-contract.config.json';
export const CONFIG_SCHEMA_FILE = 'config.schema.json';
/** The `$schema` a config file names: the installed package's, from the project folder it sits in. */
export const CONFIG_SCHEMA_REF = `./node_modules/${PROGRAM}/dist/generated/${CONFIG_SCHEMA_FILE}`;

/** The commands a config file has a section for. */
export const CONFIGURED_COMMANDS = ['conform', 'proxy', 'mock', 'diff'] as const;
export type ConfiguredCommand = (typeof CONFIGURED_COMMANDS)[number];

export type FlagOption = { readonly type: 'string' | 'boolean'; readonly multiple?: boolean };
export type FlagOptionSet = Readonly<Record<string, FlagOption>>;

/** The help rows of `--config` (and `--print-config`, for conform), the flag column `width` wide. */
export function configFlagRows(command: ConfiguredCommand, width: number): string[] {
  const row = (flag: string, text: string) => `${flag.padEnd(width)}${text}`;
  const more = ' '.repeat(width);
  return [
    row('--config FILE', `options from a JSON file (default: ${CONFIG_FILE} here, if any): this command's`),
    `${more}flags in camelCase under "${command}"; \${NAME} reads the environment; a flag typed here wins`,
    row('--no-config', `read no config file, not even ${CONFIG_FILE} here`),
    ...(command === 'conform' ? [row('--print-config', 'print the options this run would use as a config file (credentials as ${NAME}), exit 0')] : []),
  ];
}

/** Flags that carry a credential: in a file, only as `${NAME}`. */
export const SECRET_FLAGS: ReadonlySet<string> = new Set(['api-key', 'other-api-key']);

/** Flags about the config itself, never a key of it. */
export const CONFIG_FLAGS: ReadonlySet<string> = new Set(['config', 'no-config', 'print-config']);

export const camelCase = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
export const flagName = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
/** A command's options as a config section (and the programmatic API) takes them. */
export type ConfigSection<O extends FlagOptionSet> = {
  -readonly [K in keyof O as K extends 'no-config' | 'print-config' ? never : Camel<K & string>]?: O[K]['type'] extends 'boolean' ? boolean : O[K] extends { multiple: true } ? readonly string[] | string : string | number;
};

/** A `${NAME}` reference, whole. */
const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * A section's values as flags, in the order the section lists them. `where` names the section in
 * messages (`hosted-site-contract.config.json: conform.baseUrl`); no message holds a value.
 */
export function sectionArgs(section: Readonly<Record<string, unknown>>, options: FlagOptionSet, env: NodeJS.ProcessEnv, where: string, fromFile: boolean): string[] {
  const known = Object.keys(options).filter((f) => !CONFIG_FLAGS.has(f));
  const args: string[] = [];
  for (const [key, value] of Object.entries(section)) {
    if (key === '$schema' || value === undefined) continue;
    const flag = flagName(key);
    const option = options[flag];
    if (!option || CONFIG_FLAGS.has(flag) || camelCase(flag) !== key) throw new UsageError(`${where}.${key} is no option${didYouMean(key, known.map(camelCase))}`);
    if (option.type === 'boolean') {
      if (typeof value !== 'boolean') throw new UsageError(`${where}.${key} must be true or false`);
      if (value) args.push(`--${flag}`);
      continue;
    }
    const values = Array.isArray(value) ? value : [value];
    if (Array.isArray(value) && !option.multiple) throw new UsageError(`${where}.${key} takes one value, not a list`);
    // An empty list would read as the flag not given (`only: []` as every rule): say so instead.
    if (Array.isArray(value) && value.length === 0) throw new UsageError(`${where}.${key} is an empty list: leave it out, or give it values`);
    for (const v of values) {
      if (typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) throw new UsageError(`${where}.${key} must be a string${option.multiple ? ' or a list of strings' : ' or a number'}`);
      if (fromFile && SECRET_FLAGS.has(flag) && !(typeof v === 'string' && REFERENCE.test(v))) {
        throw new UsageError(`${where}.${key} is a credential written literally: write "\${${secretVariable(flag)}}" and set that variable (a key in a file lands in version control)`);
      }
      args.push(`--${flag}=${substitute(String(v), env, `${where}.${key}`)}`);
    }
  }
  return args;
}

/** `${NAME}` replaced by the environment's NAME; an unset one is an error naming it (never a value). */
function substitute(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined || value === '') throw new UsageError(`${where} names \${${name}}, which is not set in the environment`);
    return value;
  });
}

/**
 * The programmatic API's options as the command's flags (`caller` names them in messages): the
 * flags of `options` in camelCase, and a config file only when `config` names one.
 */
export function optionArgs(caller: string, options: Readonly<Record<string, unknown>> & { readonly config?: string | number }, flagOptions: FlagOptionSet, env: NodeJS.ProcessEnv): string[] {
  const { config, ...flags } = options;
  return [...sectionArgs(flags, flagOptions, env, caller, false), ...(config === undefined ? ['--no-config'] : [`--config=${config}`])];
}

/**
 * The values a command's config section reads from the environment (`${NAME}`): the process's
 * sanitizer learns them before anything is printed, since the file may name any variable, and a
 * message about a value (a flag refusing it) would otherwise show it. A file that cannot be read
 * yields none (the command then says why).
 */
export function referencedValues(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): { readonly name: string; readonly value: string }[] {
  if (!(CONFIGURED_COMMANDS as readonly string[]).includes(command)) return [];
  let section: Readonly<Record<string, unknown>> | undefined;
  try {
    section = loadSection(command as ConfiguredCommand, args, cwd).section;
  } catch {
    return [];
  }
  const names = new Set([...JSON.stringify(section ?? {}).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!));
  return [...names].flatMap((name) => (env[name] ? [{ name, value: env[name]! }] : []));
}

/** The flags a command line gives, by name (`--name`, `--name=value`), up to a `--`. */
function typedFlags(args: readonly string[]): Set<string> {
  const end = args.indexOf('--');
  return new Set((end < 0 ? args : args.slice(0, end)).flatMap((a) => /^--([\w-]+)/.exec(a)?.[1] ?? []));
}

interface Loaded {
  /** The command line without `--config FILE`. */
  readonly given: string[];
  /** The command's section of the file, as written (`${NAME}` not yet replaced). */
  readonly section?: Readonly<Record<string, unknown>>;
  /** The file as messages name it. */
  readonly shown: string;
}

/** `--config FILE` taken out of the arguments and read, else the working folder's CONFIG_FILE when there is one. */
function loadSection(command: ConfiguredCommand, args: readonly string[], cwd: string): Loaded {
  const given = [...args];
  const end0 = given.indexOf('--');
  const off = given.findIndex((a, i) => a === '--no-config' && (end0 < 0 || i < end0));
  if (off >= 0) {
    given.splice(off, 1);
    if (given.some((a, i) => (a === '--config' || a.startsWith('--config=')) && (end0 < 0 || i < end0))) throw new UsageError('--config and --no-config together: choose one');
    return { given, shown: CONFIG_FILE };
  }
  let named: string | undefined;
  const at = given.findIndex((a) => a === '--config' || a.startsWith('--config='));
  const end = given.indexOf('--');
  if (at >= 0 && (end < 0 || at < end)) {
    const inline = given[at]!.startsWith('--config=');
    named = inline ? given[at]!.slice('--config='.length) : given[at + 1];
    if (named === undefined || named === '' || (!inline && named.startsWith('-'))) throw new UsageError('--config needs a file');
    given.splice(at, inline ? 1 : 2);
  }
  const shown = named ?? CONFIG_FILE;
  const file = resolve(cwd, shown);
  if (named === undefined && !existsSync(file)) return { given, shown };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(code === 'ENOENT' ? `--config: no file ${shown}` : code ? `--config: cannot read ${shown} (${code})` : `${shown} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${shown} must hold an object with a section per command (${CONFIGURED_COMMANDS.join(', ')})`);
  const stray = Object.keys(parsed).find((k) => k !== '$schema' && !(CONFIGURED_COMMANDS as readonly string[]).includes(k));
  if (stray) throw new UsageError(`${shown}: '${stray}' is no section (${CONFIGURED_COMMANDS.join(', ')})${didYouMean(stray, CONFIGURED_COMMANDS)}`);
  const section = (parsed as Record<string, unknown>)[command];
  if (section === undefined) return { given, shown };
  if (typeof section !== 'object' || section === null || Array.isArray(section)) throw new UsageError(`${shown}: ${command} must be an object of options`);
  return { given, section: section as Record<string, unknown>, shown };
}

/** The section's entries a flag of the command line does not replace. */
const notTyped = (section: Readonly<Record<string, unknown>>, given: readonly string[]) => {
  const typed = typedFlags(given);
  // A key no file may hold (`printConfig`) stays, to be refused, whatever the command line types.
  return Object.fromEntries(Object.entries(section).filter(([key]) => key === '$schema' || CONFIG_FLAGS.has(flagName(key)) || !typed.has(flagName(key))));
};

/**
 * A command's arguments with its config section before them; a flag the command line types
 * replaces the file's (all of a repeatable flag's values). Without a file, the arguments as given.
 */
export function withConfig(command: ConfiguredCommand, args: readonly string[], options: FlagOptionSet, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string[] {
  const { given, section, shown } = loadSection(command, args, cwd);
  if (!section) return given;
  return [...sectionArgs(notTyped(section, given), options, env, `${shown}: ${command}`, true), ...given];
}

/**
 * What a run will use, as a config file `--config` reads back: the file's section as written
 * (its `${NAME}` references kept), the command line's flags over it, a credential typed on the
 * command line as the `${HSC_...}` reference a run reads it from, never its value.
 */
export function printableConfig(command: ConfiguredCommand, args: readonly string[], options: FlagOptionSet, schema: string, cwd = process.cwd()): string {
  const { given, section } = loadSection(command, args, cwd);
  const fromFile = section ? notTyped(section, given) : {};
  delete fromFile.$schema;
  return `${JSON.stringify({ $schema: schema, [command]: { ...fromFile, ...configOf(given, options) } }, null, 2)}\n`;
}

/** The command line's flags as a config section, a credential as its `${HSC_...}` reference. */
function configOf(args: readonly string[], options: FlagOptionSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const end = args.indexOf('--');
  const flags = end < 0 ? args : args.slice(0, end);
  for (let i = 0; i < flags.length; i++) {
    const m = /^--([\w-]+)(?:=([\s\S]*))?$/.exec(flags[i]!);
    if (!m || CONFIG_FLAGS.has(m[1]!)) continue;
    const option = options[m[1]!];
    if (!option) continue;
    const key = camelCase(m[1]!);
    if (option.type === 'boolean') {
      out[key] = true;
      continue;
    }
    const value = m[2] ?? flags[++i] ?? '';
    const kept = SECRET_FLAGS.has(m[1]!) ? `\${${secretVariable(m[1]!)}}` : value;
    out[key] = option.multiple ? [...((out[key] as string[] | undefined) ?? []), kept] : kept;
  }
  return out;
}
