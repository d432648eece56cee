/**
 * The package's own package.json, wherever it runs from: next to bin/ in the repository, two
 * levels up from dist/bin/ once built. Kept free of heavy imports: `--version` and every report
 * that says what made it read it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SetupError } from './command.ts';

export const PROGRAM = 'hosted-site-contract';

function packageJson(): URL {
  for (const up of ['../package.json', '../../package.json']) {
    const url = new URL(up, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new SetupError(`cannot find the package.json of ${PROGRAM} next to its bin/`);
}

let version: string | undefined;

/** The package's version, as its package.json states it. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(packageJson(), 'utf8')) as { version: string }).version;
  return version;
}
