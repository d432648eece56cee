#!/usr/bin/env node
// The command. Installed from the package, it runs the compiled dist/ on Node with no loader
// (the package holds no TypeScript source). In a clone of the repository, where the sources sit
// beside this file, it runs them through tsx, so an edit shows at once with no build step.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./cli.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli.ts');
} else {
  await import('../dist/bin/cli.js');
}
