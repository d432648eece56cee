/**
 * `hosted-site-contract <command>`: the dispatcher. Each command is one row of `commands`; its
 * module is imported only when it runs, so `help` stays instant and a command pays only for
 * what it uses. Exit codes: 0 success, 1 the command's check failed, 2 bad usage, an environment
 * the command cannot use, or an internal error (never a verdict).
 */
import { inspect } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { apiIdentity } from '../spec/identity.ts';
import { thrown, type Command } from './command.ts';
import { commands } from './commands.ts';
import { didYouMean } from './did-you-mean.ts';
import { packageVersion, PROGRAM } from './package-info.ts';
import { commandLineSecrets, onCrash, onOutputError } from './process-guard.ts';
import { referencedValues } from './config.ts';



function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 'help'.length);
  return [
    `usage: ${PROGRAM} <command> [flags]`,
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  show this list, or the flags of one command (help <command>)`,
    '',
    'flags:',
    '  --version, -v  print the package version and the version of the document it checks (spec)',
  ].join('\n');
}

/**
 * `hosted-site-contract 0.1.0 (Hosted Site Management API v2, spec 1.106.0)`: the package's own
 * version from its package.json, the document's from the model's identity (not the whole model).
 */
function versionLine(): string {
  const { title, basePath, specVersion } = apiIdentity;
  return `${PROGRAM} ${packageVersion()} (${title} ${basePath.replace(/^\//, '')}, spec ${specVersion})`;
}

const commandHelp = (c: Command): string =>
  [`usage: ${PROGRAM} ${c.usage}`, '', c.summary, ...(c.flags?.length ? ['', ...c.flags.map((f) => `  ${f}`)] : [])].join('\n');

const isHelpFlag = (arg: string | undefined): boolean => arg === '--help' || arg === '-h';

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    console.error(overview());
    return 2;
  }
  // Loaded only when something may be printed that the user typed: `help` stays instant.
  const processSanitizer = async () =>
    new (await import('../sanitize/sanitizer.ts')).Sanitizer([
      ...commandLineSecrets(argv, process.env),
      // What a config file reads from the environment may be anything: learned before any message shows it.
      ...referencedValues(name ?? '', args, process.env).map(({ name: n, value }) => ({ value, name: n, kind: 'key' as const })),
    ]);
  if (name === '--version' || name === '-v') {
    if (args.length) return usageError(`${name} takes no arguments`, await processSanitizer());
    console.log(versionLine());
    return 0;
  }
  if (name === 'help' || isHelpFlag(name)) {
    const topic = args[0] === undefined ? undefined : commands.find((c) => c.name === args[0]);
    if (args[0] !== undefined && !topic) return unknownCommand(args[0], await processSanitizer());
    console.log(topic ? commandHelp(topic) : overview());
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) return unknownCommand(name, await processSanitizer());
  if (args.some(isHelpFlag)) {
    console.log(commandHelp(command));
    return 0;
  }
  const sanitizer = await processSanitizer();
  const fail = (message: string) => console.error(sanitizer.oneLine(`${PROGRAM} ${command.name}: ${message}`));
  onOutputError(fail);
  const failed = (error: unknown) => {
    fail(thrown(error, PROGRAM, (e) => sanitizer.message(e)).line);
    if (process.env.HOSTED_SITE_CONTRACT_DEBUG) console.error(sanitizer.text(inspect(error)));
  };
  onCrash(failed);
  try {
    return await command.run(args, { sanitizer });
  } catch (error) {
    const outcome = thrown(error, PROGRAM, (e) => sanitizer.message(e));
    if (outcome.usage) return usageError(outcome.line, sanitizer, command);
    failed(error);
    return 2;
  }
}

/**
 * One line through the process's sanitizer (the user's typing may hold a key), and exit code 2.
 * It points at the command's help rather than repeating its usage: the error is what to read.
 */
function usageError(message: string, sanitizer: Sanitizer, command?: Command): number {
  const where = command ? `${PROGRAM} ${command.name}` : PROGRAM;
  const see = command ? `${PROGRAM} help ${command.name} lists its flags` : `commands: ${[...commands.map((c) => c.name), 'help'].join(', ')}`;
  // A guess says enough on its own.
  console.error(sanitizer.oneLine(`${where}: ${message}${message.includes('did you mean') ? '' : ` (${see})`}`));
  return 2;
}

/** A command name that is none: the nearest ones (`--verison`: the version flag), or the list when none is near. */
function unknownCommand(typed: string, sanitizer: Sanitizer): number {
  const guess = didYouMean(typed, [...commands.map((c) => c.name), 'help', '--version', '--help']);
  if (!guess) return usageError(`unknown command '${typed}'`, sanitizer);
  console.error(sanitizer.oneLine(`${PROGRAM}: unknown command '${typed}'${guess}`));
  return 2;
}

// The same launcher starts the self-test's worker threads: they run `conform` as asked, not argv.
const worker = isMainThread ? undefined : await import('../conformance/self-test-worker.ts');
if (worker?.isSelfTestWorker()) worker.serveSelfTestRuns();
else process.exitCode = await main(process.argv.slice(2));
