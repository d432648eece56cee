/**
 * Where a snapshot comes from: a file, or `generated/contract.json` as a git ref holds it
 * (`git show REF:generated/contract.json`, git run without a shell). An argument naming an
 * existing file is that file; anything else is a ref of the repository around `cwd`.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { SetupError } from '../bin/command.ts';
import type { ContractSnapshot } from '../spec/contract.ts';
import { MAX_SNAPSHOT_BYTES, parseSnapshot, SnapshotError, TOO_LARGE } from './snapshot.ts';

/** The snapshot's path in the repository (the generator's output). */
export const SNAPSHOT_PATH = 'generated/contract.json';

export interface LoadedSnapshot {
  readonly snapshot: ContractSnapshot;
  /** How a report names it: the ref, the file as given, or `working tree`. */
  readonly source: string;
  /** The repository whose working tree it was read from (the default `--to` only). */
  readonly repository?: string;
}

/** git's answer, or its first line of complaint. */
function git(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd, maxBuffer: MAX_SNAPSHOT_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new Error(TOO_LARGE));
      reject(new Error(code === 'ENOENT' ? 'git is not installed (or not on PATH)' : (stderr.trim().split('\n')[0] ?? error.message).replace(/^fatal:\s*/, '')));
    });
  });
}

/** The top folder of the repository around `cwd`, or undefined outside one. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  try {
    return (await git(['rev-parse', '--show-toplevel'], cwd)).trim();
  } catch {
    return undefined;
  }
}

const parsed = (text: string, source: string): LoadedSnapshot => {
  try {
    return { snapshot: parseSnapshot(text), source };
  } catch (error) {
    if (error instanceof SnapshotError) throw new SetupError(`${source} is not a valid contract snapshot: ${error.message}`);
    throw error;
  }
};

export async function loadFile(path: string, source = path): Promise<LoadedSnapshot> {
  let text: string;
  try {
    // Refused before reading: a snapshot is read whole.
    if ((await stat(path)).size > MAX_SNAPSHOT_BYTES) throw new SnapshotError(TOO_LARGE);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof SnapshotError) throw new SetupError(`${source} is not a valid contract snapshot: ${error.message}`);
    throw new SetupError(`cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parsed(text, source);
}

/** Why a ref may be unknown where the repository is a shallow clone: the commit was never fetched. */
async function shallowHint(root: string): Promise<string> {
  const shallow = await git(['rev-parse', '--is-shallow-repository'], root).catch(() => 'false');
  return shallow.trim() === 'true' ? '; this clone is shallow: fetch more history (git fetch --unshallow, or fetch-depth: 0 with actions/checkout)' : '';
}

/**
 * `directory`: the argument names a directory (not a snapshot file), said when it is no ref
 * either, rather than "unknown git ref".
 */
export async function loadRef(ref: string, cwd: string, directory = false): Promise<LoadedSnapshot> {
  const neither = directory ? `${ref} is a directory, not a snapshot file (give a generated/contract.json), and not a git ref` : undefined;
  const root = await repositoryRoot(cwd);
  if (!root) throw new SetupError(neither ?? `${ref} is neither a file nor a git ref: ${cwd} is not inside a git repository`);
  // A ref is never an option to git: refuse what would read as one.
  if (ref.startsWith('-')) throw new SetupError(`${ref} is not a git ref`);
  try {
    await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], root);
  } catch {
    throw new SetupError(neither ?? `unknown git ref ${ref} (and no such file)${await shallowHint(root)}`);
  }
  const object = `${ref}:${SNAPSHOT_PATH}`;
  let size: number;
  try {
    size = Number((await git(['cat-file', '-s', object], root)).trim());
  } catch (error) {
    throw new SetupError(`git ref ${ref} holds no ${SNAPSHOT_PATH} (${(error as Error).message})`);
  }
  // Sized before it is read: a snapshot is read whole.
  if (size > MAX_SNAPSHOT_BYTES) throw new SetupError(`git ref ${ref} holds ${SNAPSHOT_PATH}, but it is not a valid contract snapshot: ${TOO_LARGE}`);
  const text = await git(['show', object], root).catch((error: Error) => {
    throw new SetupError(`cannot read ${SNAPSHOT_PATH} of git ref ${ref} (${error.message})`);
  });
  return parsed(text, ref);
}

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();
const isDirectory = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

/**
 * A `--from`/`--to` argument: an existing regular file, else a git ref (a directory of the same
 * name as a branch, such as `diff` or `spec`, is not a snapshot: the ref is read).
 */
export function load(argument: string, cwd: string): Promise<LoadedSnapshot> {
  const path = resolve(cwd, argument);
  return isFile(path) ? loadFile(path, argument) : loadRef(argument, cwd, isDirectory(path));
}

/**
 * The default `--to`: the snapshot of the repository around `cwd` (its working tree); where that
 * repository holds none (a project that installed the package), the installed package's own.
 */
export async function loadWorkingTree(cwd: string, packageRoot: string): Promise<LoadedSnapshot> {
  const repository = await repositoryRoot(cwd);
  if (repository !== undefined && isFile(join(repository, SNAPSHOT_PATH))) return { ...(await loadFile(join(repository, SNAPSHOT_PATH), 'working tree')), repository };
  const own = join(packageRoot, SNAPSHOT_PATH);
  if (isFile(own)) return loadFile(own, 'installed package');
  throw new SetupError(`no ${SNAPSHOT_PATH} in ${relative(cwd, repository ?? packageRoot) || '.'} (run npm run generate, or give --to)`);
}
