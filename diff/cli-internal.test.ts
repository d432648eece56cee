/**
 * An unexpected error inside the diff is a bug of ours, never a verdict: exit 2 (a SetupError to
 * the dispatcher) with "internal error", not 1 (which `--fail-on` reserves for a breaking change).
 * The engine is replaced by one that throws, the only way to reach this path on purpose.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { SetupError } from '../bin/command.ts';
import { runDiff } from './cli.ts';

vi.mock('./engine.ts', () => ({
  diffContracts: () => {
    throw new RangeError('Maximum call stack size exceeded');
  },
}));

const root = fileURLToPath(new URL('..', import.meta.url));
const sink = () => new Writable({ write: (_c, _e, done) => done() });

describe('diff: an internal error', () => {
  it('is a SetupError (exit 2) saying internal error, not a verdict', async () => {
    expect(readFileSync(join(root, 'generated/contract.json'), 'utf8').length).toBeGreaterThan(0);
    const failure = await runDiff(['--from', 'generated/contract.json', '--to', 'generated/contract.json', '--fail-on', 'any'], { stdout: sink(), stderr: sink(), cwd: root }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SetupError);
    expect((failure as Error).message).toMatch(/^internal error: Maximum call stack size exceeded \(a bug of hosted-site-contract, not a verdict/);
  });
});
