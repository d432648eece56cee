/**
 * The self-test's scoring, on hand-made run results, and its sharding. The full runs are the CI
 * gate `npm run mutation`; here one shard of two variants runs end to end.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { UsageError } from '../bin/command.ts';
import type { Variant } from '../mock/variant.ts';
import { catalogue } from '../mock/variants/index.ts';
import { operatorNamed } from '../spec/operators/index.ts';
import { judgeVariant, parseShard, runSelfTest, shardOf, summarize, type RunResult, type SelfTestReport } from './self-test.ts';
import { WorkerPool } from './self-test-worker.ts';

const fault: Variant = { name: 'f', kind: 'fault', rule: 'ACK-202', endpoint: 'clearCdnCache', description: '', hooks: {} };
const conformant: Variant = { name: 'c', kind: 'conformant', description: '', hooks: {} };
const op = 'POST /sites/cdn/clear-cache';
const run = (exitCode: number | null, failures: RunResult['failures'] = [], error?: string): RunResult => ({ exitCode, failures, ms: 1, ...(error ? { error } : {}) });

describe('judgeVariant', () => {
  it.each([
    ['fault caught on its rule and operation', { variant: fault, run: run(1, [{ rule: 'ACK-202', operation: op }]), want: 'killed' }],
    ['fault caught on its rule among others', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', operation: op }, { rule: 'ACK-202', operation: op }]), want: 'killed' }],
    ['fault caught in one failure with others: its rule among the rules it broke', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'ACK-202'], operation: op }]), want: 'killed' }],
    ['failures listing rules, none the fault\'s', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'ERR-BODY'], operation: op }]), want: 'misattributed' }],
    ['fault\'s rule among the rules, another operation', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'ACK-202'], operation: 'PUT /sites/edge-caching/status' }]), want: 'misattributed' }],
    ['fault caught on another rule only', { variant: fault, run: run(1, [{ rule: 'STATUS-SET', operation: op }]), want: 'misattributed' }],
    ['fault caught on its rule, another operation', { variant: fault, run: run(1, [{ rule: 'ACK-202', operation: 'PUT /sites/edge-caching/status' }]), want: 'misattributed' }],
    ['fault not caught', { variant: fault, run: run(0), want: 'missed' }],
    ['fault run could not start (exit 2)', { variant: fault, run: run(2), want: 'error' }],
    ['fault run timed out', { variant: fault, run: run(null, [], 'no result within 120000 ms'), want: 'error' }],
    ['conformant variant passes', { variant: conformant, run: run(0), want: 'passed' }],
    ['conformant variant fails: a false alarm', { variant: conformant, run: run(1, [{ rule: 'ERR-BODY', operation: op }]), want: 'false-alarm' }],
  ] as const)('%s', (_, { variant, run: result, want }) => {
    expect(judgeVariant(variant, result).verdict).toBe(want);
  });
});

it('names every rule a failure broke among what the fault was caught as', () => {
  const result = judgeVariant(fault, run(1, [{ rule: 'STATUS-SET', rules: ['STATUS-SET', 'NO-SERVER-ERROR'], operation: op }]));
  expect(result.caughtAs).toEqual([`NO-SERVER-ERROR on ${op}`, `STATUS-SET on ${op}`]);
});

describe('summarize', () => {
  it('is ok only when every fault is killed and no conformant variant fails', () => {
    const killed = judgeVariant(fault, run(1, [{ rule: 'ACK-202', operation: op }]));
    const passed = judgeVariant(conformant, run(0));
    expect(summarize([killed, passed])).toMatchObject({ ok: true, faults: 1, killed: 1, score: 1, conformant: 1, falseAlarms: 0 });
    const missed = judgeVariant(fault, run(0));
    expect(summarize([killed, missed, passed])).toMatchObject({ ok: false, killed: 1, score: 0.5 });
    const alarm = judgeVariant(conformant, run(1));
    expect(summarize([killed, alarm])).toMatchObject({ ok: false, falseAlarms: 1 });
  });
});

describe('shardOf', () => {
  const shards = <T>(items: readonly T[], count: number) => Array.from({ length: count }, (_, i) => shardOf(items, { index: i + 1, count }));

  it('for any n from 1 to 10, the n shards partition the catalogue: together all of it, none shared', () => {
    const names = catalogue.map((v) => v.name);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), (count) => {
        const slices = shards(names, count);
        expect(slices.flat().sort()).toEqual([...names].sort());
        expect(new Set(slices.flat()).size).toBe(names.length);
      }),
    );
  });

  it('partitions any list, keeps its order within a shard and balances sizes within one', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 40 }), fc.integer({ min: 1, max: 10 }), (items, count) => {
        const slices = shards(items, count);
        expect(slices.flat().sort()).toEqual([...items].sort());
        for (const slice of slices) expect(slice).toEqual(items.filter((x) => slice.includes(x)));
        const sizes = slices.map((x) => x.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('cuts the same list the same way every time', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.nat(), (count, k) => {
      const shard = { index: (k % count) + 1, count };
      expect(shardOf(catalogue, shard).map((v) => v.name)).toEqual(shardOf([...catalogue], shard).map((v) => v.name));
    }));
  });
});

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
    ['10/10', { index: 10, count: 10 }],
  ])('reads %s', (text, want) => {
    expect(parseShard(text)).toEqual(want);
  });

  it.each(['0/2', '3/2', 'a/b', '1/0', '1', '/3', '1/3/5', ' 1/3', '-1/3', '1.5/3', '99999999999999999999/99999999999999999999'])('refuses %s', (text) => {
    expect(() => parseShard(text)).toThrow(UsageError);
  });
});

describe('self-test --variants given a name, not a file', () => {
  it.each([
    ['a variant of the catalogue', 'extra-fields-everywhere', /--variants takes a module file; 'extra-fields-everywhere' is a variant of the catalogue: run it with --only extra-fields-everywhere/],
    ['a near miss of one', 'extra-field', /--variants: no file extra-field .*; for a variant of the catalogue: --only extra-fields-everywhere$/],
    ['nothing like one', 'no-such-module.mts', /--variants: no file no-such-module\.mts \(a module whose export `variants` lists variants\)$/],
  ])('%s: one line that says which flag runs it', async (_, given, want) => {
    const refused = await runSelfTest(['--variants', given]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toMatch(want);
  });
});

describe('self-test --shard, as a user runs it', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // Compiled, as the package runs it (scripts/test-build.ts): tsx's loading, paid per process and per worker, is not what these test.
  const cli = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [inject('compiledCli'), 'self-test', ...args], { cwd: root, env: { PATH: process.env.PATH } }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  it.each(['0/2', '3/2', 'a/b', '1/0'])('--shard %s: one line, exit 2, nothing run', async (value) => {
    const run = await cli('--shard', value);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`--shard needs i/n`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('--list with --shard lists that shard only; the shards’ lists together are the catalogue, once each', async () => {
    const names = (stdout: string) => stdout.trimEnd().split('\n').map((line) => line.split(/\s+/)[1]);
    const shards = await Promise.all([1, 2, 3].map((i) => cli('--list', '--shard', `${i}/3`)));
    for (const run of shards) expect(run.code).toBe(0);
    const listed = shards.flatMap((run) => names(run.stdout));
    expect([...listed].sort()).toEqual(catalogue.map((v) => v.name).sort());
    expect(new Set(listed).size).toBe(listed.length);
    const only = await cli('--list', '--only', catalogue[1]!.name);
    expect(names(only.stdout)).toEqual([catalogue[1]!.name]);
  });

  it('with --only and --json: runs the shard of the chosen variants and says which in the table and the report', async () => {
    const [first, second, third] = catalogue.filter((v) => v.kind === 'conformant').map((v) => v.name);
    const dir = await mkdtemp(join(tmpdir(), 'hsc-shard-'));
    try {
      const file = join(dir, 'self-test.json');
      const run = await cli('--only', `${first},${second},${third}`, '--shard', '2/2', '--jobs', '1', '--json', file);
      const report = JSON.parse(await readFile(file, 'utf8')) as SelfTestReport;
      expect(report.results.map((r) => r.name)).toEqual([second]);
      expect(report.shard).toEqual({ index: 2, count: 2, variants: 1, of: 3 });
      expect(run.stdout).toContain('shard 2/2: 1 of 3 variants');
      expect(report.ok).toBe(true);
      expect(run.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('self-test --variants, as a user runs it', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));

  it('runs the variants of a module of ones own beside the catalogue, within --max-requests, and names the operators that killed each fault', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsc-variants-'));
    try {
      const module = join(dir, 'mine.mts');
      const build = new URL('../mock/variants/build.ts', import.meta.url).href;
      await writeFile(
        module,
        [
          `import { conformant, editError, fault, withHeaders } from ${JSON.stringify(build)};`,
          'export const variants = [',
          "  fault('mine-error-status-string', 'ERR-BODY', 'getSite', 'Error `status` is a string.', editError('getSite', (b) => ({ ...b, status: String(b.status) }))),",
          "  conformant('mine-extra-header', 'An extra header on every answer.', withHeaders(undefined, { 'x-mine': '1' })),",
          '];',
        ].join('\n'),
      );
      const file = join(dir, 'self-test.json');
      const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, ['bin/hosted-site-contract.js', 'self-test', '--variants', module, '--only', 'mine-error-status-string,mine-extra-header', '--max-requests', '300', '--jobs', '1', '--json', file], { cwd: root, env: { PATH: process.env.PATH } }, (error, stdout) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout }),
        ),
      );
      const report = JSON.parse(await readFile(file, 'utf8')) as SelfTestReport;
      expect(report.results.map((r) => [r.name, r.verdict])).toEqual([
        ['mine-error-status-string', 'killed'],
        ['mine-extra-header', 'passed'],
      ]);
      const [killed, passed] = report.results;
      // Operators of the registry, and the table says them too.
      expect(killed!.killedBy?.length).toBeGreaterThan(0);
      for (const id of killed!.killedBy!) expect(operatorNamed(id), id).toBeDefined();
      expect(run.stdout).toMatch(/killed +fault +mine-error-status-string +ERR-BODY on GET \/sites\/\{site_id\} \(by [a-z-]+:[a-z-]+/);
      // The budget reached the runs: a default run sends some 3 000 requests.
      expect(passed!.requests).toBeLessThanOrEqual(300);
      expect(killed!.requests).toBeLessThanOrEqual(300);
      expect(run.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the worker pool', () => {
  it('runs conform in a worker, ends a run that outlives its time with its worker, and carries on with a fresh one', async () => {
    const pool = new WorkerPool();
    try {
      // No run can finish in 20 ms (a worker takes longer than that to start).
      const cut = await pool.run(['--mock-variant', 'letter-dns-read', '--reporter', 'json'], 20);
      expect(cut).toEqual({ exitCode: null, stdout: '', stderr: '', error: 'no result within 20 ms' });
      const [a, b] = await Promise.all([
        pool.run(['--mock-variant', 'letter-dns-read', '--reporter', 'json', '--only', 'BASE-PATH'], 60_000),
        pool.run(['--no-such-flag'], 60_000),
      ]);
      expect(a.exitCode).toBe(0);
      expect((JSON.parse(a.stdout) as { ok: boolean }).ok).toBe(true);
      // A usage error is the command's one line and exit 2, as the CLI gives it.
      expect(b.exitCode).toBe(2);
      expect(b.stderr).toMatch(/^hosted-site-contract conform: unknown option '--no-such-flag'/);
    } finally {
      await pool.close();
    }
  });
});
