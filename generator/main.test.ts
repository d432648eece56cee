/**
 * The write step and the drift gate, through the real CLI (`node bin/hosted-site-contract.js`),
 * on temporary copies of generated/ so the repository's own tree is never touched.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { documentPath } from '../spec/document.ts';
import { carriesBanner, compareTree, repoRoot } from './main.ts';
import { codeBanner, hashBanner } from './output.ts';
import { FINGERPRINT_FILE } from './fingerprint.ts';
import { generateAll } from './outputs.ts';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI as a user would; never rejects, the exit code is part of the result. */
const cli = (...args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    execFile(process.execPath, ['bin/hosted-site-contract.js', ...args], { cwd: repoRoot }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });

const files = generateAll(api);
let scratch: string;
/** A tree written by the CLI in its own process; every case works on a copy of it. */
let base: string;
/** Compare with the model's own document copy, so these cases test drift and nothing else. */
const source = ['--source', documentPath];

const copyOfBase = async (name: string): Promise<string> => {
  const dir = join(scratch, name);
  await cp(base, dir, { recursive: true });
  return dir;
};

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hsc-generate-'));
  base = join(scratch, 'base');
  const run = await cli('generate', '--out', base, ...source);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(new RegExp(`^generated ${files.length} files in .* in \\d+ ms: ${files.length} written, 0 unchanged, 0 removed\\n$`));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('generate (write)', () => {
  it('writes what generateAll returns in this process, byte for byte', async () => {
    for (const file of files) expect(await readFile(join(base, file.path), 'utf8')).toBe(file.contents);
  });

  it('rewrites only what differs, removes bannered leftovers and keeps other files', async () => {
    const dir = await copyOfBase('rewrite');
    const [first] = files;
    await writeFile(join(dir, first!.path), 'hand edit\n');
    await mkdir(join(dir, 'old'), { recursive: true });
    await writeFile(join(dir, 'old', 'gone.ts'), `${codeBanner(api, 'generator/gone.ts')}export {};\n`);
    await writeFile(join(dir, 'notes.md'), 'not ours\n');
    const run = await cli('generate', '--out', dir, ...source);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`1 written, ${files.length - 1} unchanged, 1 removed`);
    expect(await readFile(join(dir, first!.path), 'utf8')).toBe(first!.contents);
    await expect(readFile(join(dir, 'old', 'gone.ts'), 'utf8')).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(dir, 'old'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe('not ours\n');
  });
});

describe.concurrent('generate --check (the drift gate)', () => {
  it('exits 0 on an unchanged tree, by the fingerprint generate left (the generator not loaded)', async () => {
    const run = await cli('generate', '--check', '--out', base, ...source);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`up to date with the model \\(${files.length} files, checked by the fingerprint of their inputs in \\d+ ms\\)`));
  });

  it('without a fingerprint that matches, generates and compares, and still finds the tree up to date', async () => {
    const dir = await copyOfBase('stale-fingerprint');
    await writeFile(join(dir, FINGERPRINT_FILE), 'not the hash of anything\n');
    const run = await cli('generate', '--check', '--out', dir, ...source);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`up to date with the model \\(${files.length} files, checked in \\d+ ms\\)`));
  });

  it.each(files.map((f) => [f.path] as const))('exits 1 and names %s when it is edited by hand', async (path) => {
    const dir = await copyOfBase(`edit-${path.replace(/\W/g, '_')}`);
    const contents = await readFile(join(dir, path), 'utf8');
    const middle = Math.floor(contents.length / 2);
    await writeFile(join(dir, path), `${contents.slice(0, middle)} hand edit ${contents.slice(middle)}`);
    const run = await cli('generate', '--check', '--out', dir, ...source);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`stale\\s+\\S*${path.replace(/\./g, '\\.')} `));
    // Only the edited file is named.
    for (const other of files.filter((f) => f.path !== path)) expect(run.stderr).not.toContain(`/${other.path} `);
    expect(run.stderr).toContain(`Run: npm run generate -- --out ${dir}`);
  });

  it('exits 1 naming a missing file and a bannered file no output produces', async () => {
    const dir = await copyOfBase('missing');
    const [first] = files;
    await rm(join(dir, first!.path));
    await writeFile(join(dir, 'extra.yaml'), `${hashBanner(api, 'generator/extra.ts')}a: 1\n`);
    await writeFile(join(dir, 'README.md'), 'hand-written, no banner: not ours\n');
    const run = await cli('generate', '--check', '--out', dir, ...source);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`missing\\s+\\S*/${first!.path.replace(/\./g, '\\.')} `));
    expect(run.stderr).toMatch(/unexpected\s+\S*\/extra\.yaml /);
    expect(run.stderr).not.toContain('README.md');
  });

  it('exits 1 when the published document differs from the copy the model follows', async () => {
    const changed = join(scratch, 'changed-hosted-site-api.md');
    await writeFile(changed, `${await readFile(documentPath, 'utf8')}\n## A new section\n`);
    const run = await cli('generate', '--check', '--out', base, '--source', changed);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the source document changed');
    expect(run.stderr).toContain('Review the model');
    expect(run.stderr).not.toContain('out of date');
  });

  it.each([
    ['an unknown flag', ['generate', '--frobnicate'], /unknown option '--frobnicate'/],
    ['--out without a value', ['generate', '--out'], /'--out <value>' argument missing/],
    ['a value for --check', ['generate', '--check=yes'], /'--check' does not take an argument/],
    ['a stray argument (never echoed: it may be a key)', ['generate', 'now'], /unexpected argument \(not echoed/],
    ['an empty --out', ['generate', '--out', ''], /--out needs a directory/],
    ['a --source that does not exist', ['generate', '--source', 'no/such/file.md'], /no such file/],
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  ] as const)('exits 2 on %s, with one line and no stack trace', async (_, args, message) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints help and exits 0', async () => {
    for (const args of [['help'], ['--help'], ['generate', '--help'], ['help', 'generate']]) {
      const run = await cli(...args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('generate');
    }
  });
});

describe('compareTree', () => {
  const file = (path: string, contents: string) => ({ path, contents });
  const bannered = `${hashBanner(api, 'generator/x.ts')}x: 1\n`;
  it.each([
    ['all match', { expected: [file('a', '1')], found: [['a', '1']] }, []],
    ['a changed file is stale', { expected: [file('a', '1')], found: [['a', '2']] }, [['a', 'stale']]],
    ['an absent file is missing', { expected: [file('a', '1')], found: [] }, [['a', 'missing']]],
    ['a bannered extra is unexpected', { expected: [], found: [['b', bannered]] }, [['b', 'unexpected']]],
    ['an extra without banner is not ours', { expected: [], found: [['b', 'hand-written']] }, []],
    ['drift is sorted by path', { expected: [file('b', '1'), file('a', '1')], found: [] }, [['a', 'missing'], ['b', 'missing']]],
  ] as const)('%s', (_, given, want) => {
    const drift = compareTree(given.expected, new Map(given.found.map(([p, c]) => [p, c])));
    expect(drift.map((d) => [d.path, d.kind])).toEqual(want);
  });

  it('recognises the banner of another spec version', () => {
    expect(carriesBanner(hashBanner({ ...api, specVersion: '9.9.9' }, 'generator/x.ts'))).toBe(true);
    expect(carriesBanner('# a hand-written file\n')).toBe(false);
  });
});
