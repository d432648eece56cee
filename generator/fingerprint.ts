/**
 * What `generate --check` can know without generating: a hash of everything generation reads
 * (the modules `outputs.ts` imports, followed to the end, every file of spec/ but its tests, such
 * as the document's copy, the installed version of each library they import, package-lock.json
 * and Node's version) and of the files in the
 * output directory. `generate` writes it beside its outputs (FINGERPRINT_FILE); when `--check`
 * computes the same, nothing it could generate can differ and it need not load the generator
 * (ts-morph). Any difference, or no fingerprint, and it generates and compares as always. A
 * library's files edited in place under the same version are not seen: `--check` without the
 * fingerprint file (delete it) compares everything.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Not a generated output (no banner): the drift comparison leaves it alone. */
export const FINGERPRINT_FILE = '.fingerprint';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(repoRoot, 'generator', 'outputs.ts');
/** Module specifiers, static and dynamic. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

/**
 * Every local module `outputs.ts` reaches through its imports, itself included, and the
 * package.json of every library they import (its installed version).
 */
function moduleClosure(): string[] {
  const seen = new Set<string>();
  const libraries = new Set<string>();
  const queue = [ENTRY];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) libraries.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  }
  return [...seen, ...[...libraries].map((name) => join(repoRoot, 'node_modules', name, 'package.json'))];
}

/** Files under `dir`, recursively, as absolute paths; none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The hash of generation's inputs and of the files now in `outDir` (the fingerprint itself aside), and how many those are. */
export function fingerprintOf(outDir: string): { readonly hash: string; readonly outputs: number } {
  const model = filesUnder(join(repoRoot, 'spec')).filter((file) => !/\.test\.ts$/.test(file));
  const inputs = new Set([...moduleClosure(), ...model, join(repoRoot, 'package-lock.json')]);
  const outputs = filesUnder(outDir).filter((file) => relative(outDir, file) !== FINGERPRINT_FILE);
  const hash = createHash('sha256');
  // The same libraries on another Node may print differently: its version is an input too.
  hash.update(`node ${process.version}\0`);
  for (const [root, files] of [[repoRoot, [...inputs].filter((f) => !f.startsWith(outDir + sep))], [outDir, outputs]] as const) {
    for (const file of [...files].sort()) {
      hash.update(`${relative(root, file).split(sep).join('/')}\0`);
      hash.update(existsSync(file) ? readFileSync(file) : Buffer.from('(missing)'));
      hash.update('\0');
    }
  }
  return { hash: hash.digest('hex'), outputs: outputs.length };
}

/** The fingerprint `generate` last wrote in `outDir`, if any. */
export function recordedFingerprint(outDir: string): string | undefined {
  try {
    return readFileSync(join(outDir, FINGERPRINT_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}
