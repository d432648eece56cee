/**
 * What the dispatcher guards the whole process with: the secrets the command line and the
 * environment name (so even a usage error or a crash cannot print them), and the last resort
 * for an error nobody caught. Kept free of heavy imports: `help` loads this module too.
 */
import type { Secret } from '../sanitize/sanitizer.ts';

/** Names of flags and variables whose values are secrets: keys, passwords, tokens. */
const SECRET_NAME = /key|password|secret|token/i;

/**
 * The values of `HSC_*` variables and of flags named like a secret (`--api-key`, a mistyped
 * `--apikey` too), each under its variable name (`--other-api-key` → `HSC_OTHER_API_KEY`).
 */
/** The environment variable a credential flag's value is named by (`--other-api-key`: `HSC_OTHER_API_KEY`). */
export const secretVariable = (flag: string): string => `HSC_${flag.toUpperCase().replace(/-/g, '_')}`;

export function commandLineSecrets(args: readonly string[], env: NodeJS.ProcessEnv): Secret[] {
  const secrets: Secret[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && name.startsWith('HSC_') && SECRET_NAME.test(name)) secrets.push({ value, name, kind: 'key' });
  }
  args.forEach((arg, i) => {
    const flag = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!flag || !SECRET_NAME.test(flag[1]!)) return;
    // `--api-key= KEY` (a space after `=`) leaves the key as the next argument.
    const value = flag[2] || args[i + 1];
    if (value) secrets.push({ value, name: secretVariable(flag[1]!), kind: 'key' });
  });
  return secrets;
}

/**
 * Output that cannot be written (a full disk, a reader that went away): not a bug and not a
 * verdict; one line where it still can be, and exit 2.
 */
export function onOutputError(report: (message: string) => void): void {
  const handle = (stream: string) => (error: NodeJS.ErrnoException) => {
    if (stream === 'stdout') report(`cannot write to ${stream} (${error.code ?? error.message}); the output is incomplete`);
    process.exit(2);
  };
  process.stdout.on('error', handle('stdout'));
  process.stderr.on('error', handle('stderr'));
}

/** An error nobody caught (a bug): handed to `report` (one sanitized line), and the process exits 2. */
export function onCrash(report: (error: unknown) => void): void {
  const handle = (error: unknown) => {
    report(error);
    process.exit(2);
  };
  process.on('uncaughtException', handle);
  process.on('unhandledRejection', handle);
}
