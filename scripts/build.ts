/**
 * `npm run build`: compiles what ships to dist/ (tsconfig.build.json: JS, declarations, source
 * maps with their sources inlined), then adds what the compiler does not write: the generated
 * files that are not TypeScript (validators, OpenAPI, schemas) and a launcher for self-test. The
 * package's command, bin/hosted-site-contract.js, runs this output on Node with no loader; in the
 * repository the same file runs the sources through tsx.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);

/**
 * The self-test starts its worker threads from the launcher it finds at ../bin/hosted-site-contract.js
 * (conformance/self-test-worker.ts): in the repository, the launcher; in dist/, this one, which
 * needs no check for sources.
 */
const LAUNCHER = `#!/usr/bin/env node
// The compiled dispatcher, on Node with no loader.
import './cli.js';
`;

function compile(dist: URL): void {
  const tsc = fileURLToPath(new URL('node_modules/typescript/bin/tsc', root));
  try {
    execFileSync(process.execPath, [tsc, '-p', fileURLToPath(new URL('tsconfig.build.json', root)), '--outDir', fileURLToPath(dist)], { stdio: 'inherit' });
  } catch {
    throw new Error('tsc reported errors (above)');
  }
}

/** generated/ files that are not TypeScript sources (tsc copies none of them). */
function copyGeneratedAssets(dist: URL): string[] {
  const names = readdirSync(new URL('generated/', root)).filter((name) => !name.endsWith('.ts') || name.endsWith('.d.ts'));
  for (const name of names) copyFileSync(new URL(`generated/${name}`, root), new URL(`generated/${name}`, dist));
  return names;
}

/**
 * tsc keeps a declaration's relative `.ts` specifiers as written. TypeScript 5 resolves them to
 * the `.d.ts` beside, but older compilers and other tools read nothing there: written as `.js`,
 * as the code they describe is imported.
 */
function declarationsImportJs(dir: URL): void {
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.d.ts'))) {
    const url = new URL(name, dir);
    const text = readFileSync(url, 'utf8');
    const rewritten = text.replace(/((?:from|import)\s*\(?\s*)(['"])(\.\.?\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
    if (rewritten !== text) writeFileSync(url, rewritten);
  }
}

/**
 * Builds into `dist` (default: the repository's dist/). The tests build once into a directory of
 * their own (scripts/test-build.ts), so a build the package test starts cannot pull it from under them.
 */
export function build(dist: URL = new URL('dist/', root)): number {
  rmSync(dist, { recursive: true, force: true });
  try {
    compile(dist);
  } catch (error) {
    console.error(`build: ${(error as Error).message}`);
    return 1;
  }
  declarationsImportJs(dist);
  const assets = copyGeneratedAssets(dist);
  const launcher = new URL('bin/hosted-site-contract.js', dist);
  writeFileSync(launcher, LAUNCHER);
  chmodSync(launcher, 0o755);
  console.log(`build: ${fileURLToPath(dist)} written (compiled sources, generated/${assets.join(', generated/')}, bin/hosted-site-contract.js)`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = build();
