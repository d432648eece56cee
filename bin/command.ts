/**
 * What a subcommand of `hosted-site-contract` is, and how it reads its flags. Kept free of heavy
 * imports: the dispatcher loads a command's module only when that command runs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis after the program name, e.g. `generate [--check] [--out DIR]`. */
  readonly usage: string;
  /** Flag descriptions for `help <command>`, one per line. */
  readonly flags?: readonly string[];
  /** Runs the command and resolves to its exit code; throws `UsageError` for bad arguments. */
  readonly run: (args: readonly string[]) => Promise<number>;
}

/** Bad arguments: the dispatcher prints the message on one line with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `node:util` parseArgs, strict, no positionals; its errors become one-line `UsageError`s. */
export function parseFlags<const T extends FlagOptions>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      // Node's messages go on with advice about `--`; the first sentence says what is wrong.
      const first = (error as Error).message.split(/\.\s/)[0] ?? 'bad arguments';
      throw new UsageError(first.charAt(0).toLowerCase() + first.slice(1));
    }
    throw error;
  }
}
