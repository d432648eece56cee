#!/usr/bin/env node
// The command. Installed from the package, it runs the compiled dist/ on Node with no loader
// (the package holds no TypeScript source). In a clone of the repository, where the sources sit
// beside this file, it runs them through tsx, so an edit shows at once with no build step.
// Paths start from this file's real location: npm links it from node_modules/.bin, and under
// --preserve-symlinks-main import.meta.url names the link.
import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = pathToFileURL(realpathSync(fileURLToPath(import.meta.url)));
const sources = new URL('./cli.ts', here);

if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/bin/cli.js', here).href);
}
