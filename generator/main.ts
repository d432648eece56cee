/**
 * `hosted-site-contract generate [--check] [--out DIR] [--source FILE]`: the one place where
 * generation touches the file system. `generateAll` computes every file in memory; this module
 * compares that with the directory (pure: `compareTree`), then either writes the difference or,
 * with `--check`, reports it and fails.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { parseFlags, UsageError } from '../bin/command.ts';
import { api } from '../spec/api.ts';
import { documentPath } from '../spec/document.ts';
import type { Api } from '../spec/model.ts';
import { FINGERPRINT_FILE, fingerprintOf, recordedFingerprint } from './fingerprint.ts';
import { bannerLines, type GeneratedFile } from './output.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const defaultOutDir = join(repoRoot, 'generated');
/** The document as published beside the repository; the model follows the copy in spec/document/. */
export const defaultSourceDocument = resolve(repoRoot, '..', 'shared', 'spec', 'hosted-site-api.md');
const REGENERATE = 'npm run generate';

export type DriftKind = 'stale' | 'missing' | 'unexpected';
export interface Drift {
  readonly path: string;
  readonly kind: DriftKind;
}

/**
 * Whether a file carries the banner every output starts with, for any spec version. Only such
 * files are ours to report or remove; anything else in the directory is left alone.
 */
export function carriesBanner(contents: string, model: Api = api): boolean {
  const [first = ''] = bannerLines(model, '');
  const [before = '', after = ''] = first.split(model.specVersion);
  const head = contents.slice(0, 2000);
  const at = head.indexOf(before);
  return at >= 0 && head.indexOf(after, at + before.length) >= 0;
}

/**
 * What differs between the files the generator produces and the files found in the directory
 * (relative path → text). Files found that no output produces count only if they carry the banner.
 */
export function compareTree(expected: readonly GeneratedFile[], found: ReadonlyMap<string, string>): Drift[] {
  const drift: Drift[] = [];
  const expectedPaths = new Set(expected.map((f) => f.path));
  for (const file of expected) {
    const actual = found.get(file.path);
    if (actual === undefined) drift.push({ path: file.path, kind: 'missing' });
    else if (actual !== file.contents) drift.push({ path: file.path, kind: 'stale' });
  }
  for (const [path, contents] of found) {
    if (!expectedPaths.has(path) && carriesBanner(contents)) drift.push({ path, kind: 'unexpected' });
  }
  return drift.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every regular file under `dir`, keyed by its path relative to `dir` with forward slashes. */
async function readTree(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!existsSync(dir)) return found;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const texts = await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')));
  files.forEach((entry, i) => found.set(relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'), texts[i]!));
  return found;
}

/** Writes stale and missing files, removes unexpected ones (and folders they leave empty). */
async function applyDrift(dir: string, expected: readonly GeneratedFile[], drift: readonly Drift[]): Promise<void> {
  const byPath = new Map(expected.map((f) => [f.path, f]));
  for (const { path, kind } of drift) {
    const target = join(dir, ...path.split('/'));
    if (kind === 'unexpected') {
      await rm(target);
      await removeEmptyParents(dir, dirname(target));
    } else {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, byPath.get(path)!.contents);
    }
  }
}

async function removeEmptyParents(root: string, folder: string): Promise<void> {
  for (let current = folder; current !== root && current.startsWith(root); current = dirname(current)) {
    if ((await readdir(current)).length > 0) return;
    await rmdir(current);
  }
}

/** Whether the published document differs from the copy the model was written against. */
async function sourceDocumentChanged(sourceDocument: string): Promise<boolean> {
  const lf = (text: string) => text.replace(/\r\n?/g, '\n');
  const [source, copy] = await Promise.all([readFile(sourceDocument, 'utf8'), readFile(documentPath, 'utf8')]);
  return lf(source) !== lf(copy);
}

/** A path as the user would type it: relative to the working directory unless that climbs far. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' ? '.' : rel.startsWith(`..${sep}..`) || isAbsolute(rel) ? path : rel.split(sep).join('/');
}

const DRIFT_NOTE: Record<DriftKind, string> = {
  stale: 'differs from what the generator produces',
  missing: 'is not there',
  unexpected: 'carries the generator banner, but no output produces it',
};

/** The flags of `generate`, as `parseFlags` reads them (the spec-upgrade guide's CI example, docs/spec-upgrades.md, is checked against them). */
export const generateFlagOptions = {
  check: { type: 'boolean' },
  out: { type: 'string' },
  source: { type: 'string' },
} as const;

/** The `generate` command: parses its flags, then generates or checks. Resolves to the exit code. */
export async function runGenerate(args: readonly string[]): Promise<number> {
  // One short pass over much cold code (TypeScript's printer and formatter, ajv's compiler):
  // V8's optimizing compiler, on background threads that compete for the same two cores, costs
  // more than its code saves before the process exits; without it the command takes about a
  // third less CPU, for the same output. Process-wide, which suits a CLI command's entry point.
  setFlagsFromString('--no-turbofan');
  const flags = parseFlags(args, generateFlagOptions);
  if (flags.out === '') throw new UsageError('--out needs a directory');
  if (flags.source === '') throw new UsageError('--source needs a file');
  if (flags.source !== undefined && !existsSync(flags.source)) throw new UsageError(`--source: no such file ${flags.source}`);

  const started = performance.now();
  const outDir = flags.out === undefined ? defaultOutDir : resolve(flags.out);
  const outShown = `${shown(outDir)}/`;
  const command = flags.out === undefined ? REGENERATE : `${REGENERATE} -- --out ${flags.out}`;
  const sourceDocument = flags.source === undefined ? defaultSourceDocument : resolve(flags.source);

  const documentChanged = existsSync(sourceDocument) && (await sourceDocumentChanged(sourceDocument));
  const documentMessage = [
    `the source document changed: ${shown(sourceDocument)} differs from ${shown(documentPath)}, the copy the model in spec/ is written against.`,
    `Review the model: copy the document over ${shown(documentPath)}, update spec/ to match it, then run: ${REGENERATE}`,
  ];

  // Nothing generation reads has changed since `generate` wrote these files, nor have they:
  // up to date without loading the generator (ts-morph).
  const fingerprint = flags.check && !documentChanged ? fingerprintOf(outDir) : undefined;
  if (fingerprint && recordedFingerprint(outDir) === fingerprint.hash) {
    console.log(`${outShown} is up to date with the model (${fingerprint.outputs} files, checked by the fingerprint of their inputs in ${Math.round(performance.now() - started)} ms)`);
    return 0;
  }

  const { generateAll } = await import('./outputs.ts');
  const expected = generateAll(api);
  const drift = compareTree(expected, await readTree(outDir));

  if (flags.check) {
    const ms = Math.round(performance.now() - started);
    if (drift.length === 0 && !documentChanged) {
      console.log(`${outShown} is up to date with the model (${expected.length} files, checked in ${ms} ms)`);
      // The published document is compared where it lies beside the repository (the team's layout) or
      // where --source names it (a missing one is refused above); elsewhere, only the model's copy is checked, silently.
      return 0;
    }
    if (drift.length > 0) {
      const width = Math.max(...drift.map((d) => d.kind.length));
      console.error(`${outShown} is out of date with the model (${drift.length} of ${expected.length} files):`);
      for (const d of drift) console.error(`  ${d.kind.padEnd(width)}  ${outShown}${d.path} ${DRIFT_NOTE[d.kind]}`);
      console.error(`Run: ${command}`);
    }
    if (documentChanged) for (const line of documentMessage) console.error(line);
    return 1;
  }

  await applyDrift(outDir, expected, drift);
  await writeFile(join(outDir, FINGERPRINT_FILE), `${fingerprintOf(outDir).hash}\n`);
  const ms = Math.round(performance.now() - started);
  const count = (kind: DriftKind) => drift.filter((d) => d.kind === kind).length;
  const written = count('stale') + count('missing');
  console.log(
    `generated ${expected.length} files in ${outShown} in ${ms} ms: ${written} written, ${expected.length - written} unchanged, ${count('unexpected')} removed`,
  );
  if (documentChanged) for (const line of documentMessage) console.error(`warning: ${line}`);
  return 0;
}
