/**
 * diff --ignore over the worked next version: the file --write-ignore writes turns the gate green;
 * a breaking change left out of it still fails; a line that matches no change is named; ignored
 * changes are shown, never hidden (Markdown, JUnit skipped, JSON valid under the shipped schema).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { runDiff } from './cli.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'hsc-ignore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SIDES = ['--from', 'generated/contract.json', '--to', 'diff/fixtures/next-version/contract.json'];
const schema = JSON.parse(readFileSync(join(root, 'generated', 'contract-diff.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ strict: false }).compile(schema);

async function diff(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runDiff([...SIDES, ...args], { stdout: new Writable({ write: (c: Buffer, _e, d) => ((out += c.toString()), d()) }), stderr: new Writable({ write: (c: Buffer, _e, d) => ((err += c.toString()), d()) }), cwd: root });
  return { code, out, err };
}

describe('diff --ignore', () => {
  const file = join(dir, 'accepted.txt');

  it('--write-ignore writes the breaking changes, and with that file the gate passes, showing them as ignored', async () => {
    expect((await diff(['--fail-on', 'client-breaking', '--write-ignore', file])).code).toBe(1);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines.length).toBeGreaterThan(0);
    const ignored = await diff(['--fail-on', 'client-breaking', '--ignore', file]);
    expect(ignored.code).toBe(0);
    expect(ignored.out).toMatch(new RegExp(`${lines.length} changes? ignored`));
    expect(ignored.out).toMatch(/\(ignored: /);
  });

  it('a breaking change left out of the file still fails the gate', async () => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const firstChange = lines.findIndex((l) => l && !l.startsWith('#'));
    const fewer = join(dir, 'fewer.txt');
    writeFileSync(fewer, lines.filter((_, i) => i !== firstChange).join('\n'));
    const { code, err } = await diff(['--fail-on', 'any', '--ignore', fewer]);
    expect(code).toBe(1);
    expect(err).toMatch(/1 breaking change \(--fail-on any\)/);
  });

  it('names the lines that match no change any more; JSON carries it, valid under the shipped schema; JUnit skips the ignored', async () => {
    const stale = join(dir, 'stale.txt');
    writeFileSync(stale, `${readFileSync(file, 'utf8')}field-removed Nowhere.field  # gone long ago\n`);
    const json = await diff(['--ignore', stale, '--format', 'json']);
    const report = JSON.parse(json.out) as { ignore: { gone: string[]; ignored: number }; changes: { ignored?: string }[] };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.ignore.gone).toEqual(['field-removed Nowhere.field']);
    expect(report.changes.filter((c) => c.ignored !== undefined).length).toBe(report.ignore.ignored);
    const junit = await diff(['--ignore', stale, '--format', 'junit', '--fail-on', 'any']);
    expect(junit.code).toBe(0);
    expect(junit.out).not.toMatch(/<failure /);
    expect(junit.out).toMatch(/<skipped message="ignored: /);
  });

  it('a line that is no change, or a kind mistyped: one line naming where (exit 2)', async () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, '# fine\nNot A Change\n');
    await expect(diff(['--ignore', bad])).rejects.toThrow(/bad\.txt:2 is not KIND SUBJECT/);
    const typo = join(dir, 'typo.txt');
    writeFileSync(typo, 'limit-tightend POST /sites/environments/{env_id}/run-wp-cli-command request body: wp_command\n');
    await expect(diff(['--ignore', typo])).rejects.toThrow(/typo\.txt:1: 'limit-tightend' is no kind of change; did you mean limit-tightened\?/);
  });
});
