/**
 * The dispatcher's own flags, as a user runs them: `--version` names the package's version and
 * the document's, read here from package.json and the whole model (the CLI reads neither whole).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/hosted-site-contract.js', ...args], { cwd: root, env: { PATH: process.env.PATH } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('--version', () => {
  it.each([['--version'], ['-v']])('%s prints the package and spec versions on one line, exit 0', async (flag) => {
    const { version, name } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string; name: string };
    const run = await cli(flag);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stdout.startsWith(`${name} ${version} `)).toBe(true);
    expect(run.stdout).toContain(`${api.title} ${api.basePath.slice(1)}`);
    expect(run.stdout).toContain(`spec ${api.specVersion})`);
  });

  it('takes no arguments: one line, exit 2', async () => {
    const run = await cli('--version', 'conform');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--version takes no arguments/);
  });

  it('is listed by help', async () => {
    const run = await cli('help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s+--version, -v\s+print the package version/m);
  });
});
