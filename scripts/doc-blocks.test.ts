/**
 * Every block of the README and docs/ is run by a test, so none can go stale unnoticed: output is
 * marked `text`; shell and workflow blocks calling the tool are run as written by
 * scripts/package.test.ts; every other block names the test that runs it (RAN_ELSEWHERE), and
 * that test reads the doc. A block added without a way to run it fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docBlocks, howRun, RAN_ELSEWHERE, root, workflowSteps } from './doc-blocks.test-kit.ts';

const blocks = docBlocks();
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`;
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('the blocks of the README and docs/', () => {
  it('are found (the README has its own, the guides theirs)', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(4);
    expect(new Set(blocks.map((b) => b.file)).size).toBeGreaterThanOrEqual(7);
  });

  it('each says what it is (a language after the fence)', () => {
    expect(blocks.filter((b) => b.lang === '').map(where)).toEqual([]);
  });

  it('each is output, run as written by the package test, or run by a test named for it', () => {
    expect(blocks.filter((b) => howRun(b) === undefined).map((b) => `${where(b)} (${b.lang}): ${b.text.split('\n')[0]}`)).toEqual([]);
  });

  it.each(RAN_ELSEWHERE.map((e) => [`${e.file} (${e.holds})`, e.by, e] as const))('%s: one block, run by %s', (_, _by, e) => {
    expect(blocks.filter((b) => b.file === e.file && b.text.includes(e.holds)).map(where)).toHaveLength(1);
    // The test that runs it names the doc it reads (CI's script runs commands, checked below).
    if (e.by !== '.ci/run' && e.by !== 'scripts/doc-blocks.test.ts') expect(read(e.by)).toContain(e.file.replace(/^docs\//, ''));
  });
});

describe("the blocks CI runs (.ci/run)", () => {
  const ci = read('.ci/run');
  /** The commands of a line, split at `&&`, comments off. */
  const commands = (text: string) => text.split('\n').flatMap((l) => l.replace(/#.*$/, '').split('&&')).map((c) => c.trim()).filter(Boolean);

  it("the README's set-up: each command is one CI runs from the clean clone", () => {
    const setup = blocks.find((b) => b.file === 'README.md' && b.text.includes('npm ci && npm run conformance'))!;
    // CI's lines run them inside `if !` and `gate "name"`, npm run quiet (-s): the command itself, whole.
    const ciCommands = commands(ci).map((c) => c.replace(/^(if ! |gate "[^"]*" )/, '').replace(/^npm run -s /, 'npm run '));
    for (const command of commands(setup.text)) expect(ciCommands.some((c) => c === command || c.startsWith(`${command} `)), command).toBe(true);
  });

  it("the self-test guide's matrix: CI runs its step for each shard, as written", () => {
    const matrix = blocks.find((b) => b.file === 'docs/self-test.md' && b.lang === 'yaml')!;
    const step = workflowSteps(matrix.text).find((s) => s.run?.includes('self-test'))!;
    const shards = /shard: \[([\d, ]+)\]/.exec(matrix.text)![1]!.split(',').map((s) => s.trim());
    expect(ci).toContain(`for shard in ${shards.join(' ')}; do`);
    expect(ci).toContain(step.run!.trim().replace(/\$\{\{ matrix\.shard \}\}/g, '$shard'));
  });
});

describe("the self-test guide's catalogue excerpt", () => {
  it('is the catalogue entry of that fault, word for word', () => {
    const excerpt = blocks.find((b) => b.file === 'docs/self-test.md' && b.lang === 'ts')!.text;
    const name = /fault\('([\w-]+)'/.exec(excerpt)![1]!;
    const squash = (t: string) => t.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
    const families = readdirSync(join(root, 'mock', 'variants')).filter((f) => /^faults-.*\.ts$/.test(f) && !f.includes('.test'));
    const entry = families.map((f) => squash(read(join('mock', 'variants', f)))).find((s) => s.includes(`fault('${name}'`));
    expect(entry, `fault ${name} in mock/variants/`).toBeDefined();
    expect(entry).toContain(squash(excerpt).replace(/,$/, ''));
  });
});
