/**
 * `hosted-site-contract explain [CODE]`: in process (runExplain, closestCodes), and once as a
 * process, for the exit codes and the one line of a code the model lacks.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { api } from '../spec/api.ts';
import { UsageError } from './command.ts';
import { closestCodes, runExplain } from './explain.ts';

const allIds = [...api.rules.map((r) => r.id), ...api.unknowns.map((u) => u.id), ...api.assumptions.map((a) => a.id), ...api.conflicts.map((c) => c.id)];

function explain(...args: string[]): { code: number; out: string } {
  let out = '';
  const code = runExplain(args, { write: (text: string) => (out += text) });
  return { code, out };
}

/** The one-line message of the usage error `explain` throws for these arguments. */
function refusal(...args: string[]): string {
  try {
    explain(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`explain ${args.join(' ')} did not refuse`);
}

describe('explain CODE', () => {
  it.each(allIds.map((id) => [id]))('%s prints its entry, exit 0', (id) => {
    const { code, out } = explain(id);
    expect(code).toBe(0);
    expect(out.startsWith(`${id}: `)).toBe(true);
  });

  it('takes a code in any case', () => {
    expect(explain('unk-body-marking').out).toBe(explain('UNK-BODY-MARKING').out);
  });

  it('without a code, lists every code once, one per line', () => {
    const { code, out } = explain();
    expect(code).toBe(0);
    for (const id of allIds) expect(out.split('\n').filter((l) => l.trim().startsWith(`${id} `)), id).toHaveLength(1);
  });

  it('refuses a second code and flags', () => {
    expect(refusal('AUTH-401', 'ERR-BODY')).toMatch(/one code/);
    expect(refusal('--all')).toMatch(/not flags/);
  });
});

describe("the guide's example (docs/explain.md)", () => {
  it('is what explain prints for its code', () => {
    const readme = readFileSync(new URL('../docs/explain.md', import.meta.url), 'utf8');
    const example = /^\$ npx hosted-site-contract explain (\S+)\n([\s\S]*?)^```$/m.exec(readme);
    expect(example, 'an explain example in docs/explain.md').not.toBeNull();
    expect(explain(example![1]!).out).toBe(example![2]);
  });
});

describe('a code the model lacks', () => {
  const typos: [string, { given: string; want: string }][] = [
    ['a letter missing', { given: 'UNK-BODY-MARKIN', want: 'UNK-BODY-MARKING' }],
    ['without its prefix', { given: 'body-marking', want: 'UNK-BODY-MARKING' }],
    ['a word left out', { given: 'CONFLICT-CDN-400', want: 'CONFLICT-CDN-CLEAR-400' }],
    ['a word left out, lower case', { given: 'asm-wpa-email', want: 'ASM-WPA-QUERY-EMAIL' }],
    ['the number alone', { given: '401', want: 'AUTH-401' }],
    ['words swapped', { given: 'ASM-SENT-NOT-SHOWN-FIELDS', want: 'ASM-NOT-SHOWN-FIELDS-SENT' }],
  ];

  it.each(typos)('%s: the code meant is offered first', (_, { given, want }) => {
    expect(allIds).not.toContain(given.toUpperCase());
    expect(closestCodes(given)[0]).toBe(want);
    expect(refusal(given)).toContain(`did you mean ${want}`);
  });

  it('offers nothing for text like no code, and echoes only what is shaped like a code', () => {
    expect(closestCodes('xyzzy')).toEqual([]);
    expect(refusal('xyzzy')).not.toMatch(/did you mean/);
    const key = 'hsc_3f2b1c4d5e6f4a7b8c9d0e1f2a3b4c5d';
    expect(refusal(key)).not.toContain(key);
    expect(refusal('UNK-NOPE')).toContain('UNK-NOPE');
  });
});

describe('hosted-site-contract explain, as a process', () => {
  const run = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      // Compiled, as the package runs it (scripts/test-build.ts).
      execFile(process.execPath, [inject('compiledCli'), 'explain', ...args], { env: { PATH: process.env.PATH } }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  it('exits 0 with the entry on stdout; 2 with one line on stderr naming the code meant', async () => {
    const [known, unknown] = await Promise.all([run('AUTH-401'), run('AUTH-40')]);
    expect(known).toMatchObject({ code: 0, stderr: '' });
    expect(known.stdout.startsWith('AUTH-401: ')).toBe(true);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toMatch(/^hosted-site-contract explain: .*did you mean AUTH-401\b/);
  });
});
