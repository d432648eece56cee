/**
 * vitest's global set-up: the package compiled once, laid out as npm installs it (package.json
 * beside dist/, the dependencies resolvable), for the tests that run the CLI as a process many
 * times over. Each run through the repository's launcher pays tsx's loading (about 0.3 s of CPU
 * on this machine), which the hostile table and the CLI tests paid some hundred times; the
 * compiled command is what an installed package runs. The launcher from a clone keeps its own
 * tests (bin/cli.test.ts, and the runs named so).
 */
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { build } from './build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled command: `node <this> conform …` runs as the installed package does. */
    compiledCli: string;
  }
}

const root = fileURLToPath(new URL('../', import.meta.url));

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'hsc-test-build-'));
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const log = console.log;
  console.log = () => undefined; // the build's one line of progress, not the tests' output
  try {
    if (build(pathToFileURL(join(dir, 'dist/'))) !== 0) throw new Error('the build for the tests failed (tsc errors above)');
  } finally {
    console.log = log;
  }
  project.provide('compiledCli', join(dir, 'dist', 'bin', 'hosted-site-contract.js'));
  return () => rmSync(dir, { recursive: true, force: true });
}
