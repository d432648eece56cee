/**
 * What a subcommand of `hosted-site-contract` is, and how it reads its flags. Kept free of heavy
 * imports: the dispatcher loads a command's module only when that command runs.
 */
import { didYouMean } from './did-you-mean.ts';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Sanitizer } from '../sanitize/sanitizer.ts';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;
/** What `parseFlags` returns, spelled out so the declaration emitted for dist/ can name it. */
type FlagValues<T extends FlagOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>>['values'];

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis after the program name, e.g. `generate [--check] [--out DIR]`. */
  readonly usage: string;
  /** Flag descriptions for `help <command>`, one per line. */
  readonly flags?: readonly string[];
  /**
   * Runs the command and resolves to its exit code; throws `UsageError` for bad arguments and
   * `SetupError` when the environment keeps it from running.
   */
  readonly run: (args: readonly string[], context: CommandContext) => Promise<number>;
}

export interface CommandContext {
  /**
   * The process's one sanitizer: it knows the keys of the command line and the environment, and
   * whatever secret the command learns; the dispatcher passes its error messages through it too.
   */
  readonly sanitizer: Sanitizer;
}

/** Bad arguments: the dispatcher prints the message on one line with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The environment keeps the command from running (a port in use, an unwritable report file, a
 * target it cannot use): one line, no usage, exit 2. Exit 1 stays "the check failed".
 */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

/**
 * What a command that threw comes to: a usage error (with the usage line), a setup problem, or
 * the tool's own failure, said as such. All exit 2: 1 is only ever a verdict.
 */
export function thrown(error: unknown, program: string, message: (error: unknown) => string): { readonly usage: boolean; readonly line: string } {
  if (error instanceof UsageError) return { usage: true, line: error.message };
  if (error instanceof SetupError) return { usage: false, line: error.message };
  return { usage: false, line: `internal error: ${message(error)} (a bug of ${program}, not a verdict; HOSTED_SITE_CONTRACT_DEBUG=1 shows where)` };
}

/** A flag's value from a fixed set: `fallback` when the flag was not given; else one of `choices`. */
export function oneOf<T extends string>(flag: string, value: string | undefined, choices: readonly T[], fallback?: T): T | undefined {
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${choices.join(', ')}, not '${value}'${didYouMean(value, choices)}`);
  return value as T;
}

/** A flag's whole number from `min` to `max`; `fallback` when the flag was not given. */
export function wholeNumberFlag<F>(flag: string, text: string | undefined, fallback: F, min: number, max: number): number | F {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(Number.isSafeInteger(n) && n >= min && n <= max)) throw new UsageError(`${flag} needs a whole number from ${min} to ${max}, not '${text}'`);
  return n;
}

/**
 * `--runs -1` as `--runs=-1`: no flag begins with a digit, so a negative number after a flag that
 * takes a value is that value, and the flag's own check says what it accepts.
 */
function negativeNumbersJoined(args: readonly string[], options: FlagOptions): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = /^--([\w-]+)$/.exec(args[i]!)?.[1];
    const next = args[i + 1];
    if (flag !== undefined && options[flag]?.type === 'string' && next !== undefined && /^-\d/.test(next)) out.push(`--${flag}=${args[++i]}`);
    else out.push(args[i]!);
  }
  return out;
}

/** `node:util` parseArgs, strict, no positionals; its errors become one-line `UsageError`s. */
export function parseFlags<const T extends FlagOptions>(args: readonly string[], options: T): FlagValues<T> {
  let parsed;
  try {
    parsed = parseArgs({ args: negativeNumbersJoined(args, options), options, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // An argument that is no flag may be a key pasted in the wrong place: never echoed.
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError('unexpected argument (not echoed; flags take the form --name VALUE or --name=VALUE)');
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test((error as Error).message)) {
      const flag = /'(--[^']+)'/.exec((error as Error).message)?.[1] ?? 'the flag';
      throw new UsageError(`${flag} needs a value; for a value that begins with '-', write ${flag}=VALUE`);
    }
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      // Node's messages go on with advice about `--`; the first sentence says what is wrong.
      const first = (error as Error).message.split(/\.\s/)[0] ?? 'bad arguments';
      const typed = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(first)?.[1] : undefined;
      const guess = typed === undefined ? '' : didYouMean(typed, Object.keys(options).map((name) => `--${name}`));
      throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1) + guess);
    }
    throw error;
  }
  // parseArgs keeps the last of a repeated single-value flag; two values the user meant are refused.
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || options[token.name]?.multiple) continue;
    if (seen.has(token.name) && options[token.name]?.type === 'string') throw new UsageError(`--${token.name} given more than once; give it once`);
    seen.add(token.name);
  }
  return parsed.values as FlagValues<T>;
}
