/**
 * The worked example against a server: the conformance suite built from the next version's model
 * fails today's mock exactly on the endpoints the diff calls server-breaking, and nowhere else.
 *
 * Today's mock runs in its own process, on today's model. In this file the suite is built from
 * the next model: `spec/api.ts` is replaced by the fixture model, and the generated validators by
 * those the generator writes for it, so every module of the suite reads the next version, as it
 * would after the bump, with no change to how the suite obtains its model.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Api } from '../spec/model.ts';

const generatedDir = vi.hoisted(() => ({ path: '' }));

vi.mock('../spec/api.ts', async (importOriginal) => {
  const today = await importOriginal<{ api: Api }>();
  const { nextVersion } = await import('./fixtures/next-version/model.ts');
  return { ...today, api: nextVersion(today.api) };
});

vi.mock('../generated/validators.js', async () => {
  const { api } = await import('../spec/api.ts'); // the next version, by the mock above
  const { generateValidators, VALIDATORS_FILE } = await import('../generator/validators.ts');
  const file = generateValidators(api).find((f) => f.path === VALIDATORS_FILE)!;
  generatedDir.path = mkdtempSync(join(tmpdir(), 'hsc-next-generated-'));
  const path = join(generatedDir.path, VALIDATORS_FILE);
  writeFileSync(path, file.contents);
  return import(/* @vite-ignore */ pathToFileURL(path).href);
});

const root = fileURLToPath(new URL('..', import.meta.url));

interface MockLine {
  readonly url: string;
  readonly apiKey: string;
  readonly siteId: string;
  readonly otherApiKey: string;
  readonly otherSiteId: string;
}

/** The tail of the mock's stderr kept for a message: it logs every request there (over 100 KB a run). */
const STDERR_TAIL = 4096;
const STOP_GRACE_MS = 5_000;

/**
 * Today's mock, on today's model, in its own process: the first line it prints says where. Both
 * pipes are read to the end: a pipe left unread fills (64 KB) and the mock blocks on its request
 * log, so the actions the suite sends time out.
 */
function startTodaysMock(): Promise<{ child: ChildProcess; line: MockLine }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/hosted-site-contract.js'), 'mock', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (tail = (tail + text).slice(-STDERR_TAIL)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // afterAll never sees a mock that did not start
      reject(new Error(`the mock did not start within 20 s: ${tail}`));
    }, 20_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited (${code}) before printing its line: ${tail}`));
    });
    // readline reads stdout to the end, past the first line.
    createInterface({ input: child.stdout! }).once('line', (text) => {
      clearTimeout(timer);
      resolve({ child, line: JSON.parse(text) as MockLine });
    });
  });
}

/** Stops the child and waits for it: SIGTERM, then SIGKILL if it has not exited within the grace. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

let mock: { child: ChildProcess; line: MockLine } | undefined;
beforeAll(async () => {
  mock = await startTodaysMock();
});
afterAll(async () => {
  if (mock) await stop(mock.child);
  if (generatedDir.path) rmSync(generatedDir.path, { recursive: true, force: true });
});

describe('the suite of the next version against today\'s mock', () => {
  it('fails exactly where the diff says server-breaking', async () => {
    const { api: next } = await import('../spec/api.ts');
    const { api: today } = await vi.importActual<{ api: Api }>('../spec/api.ts');
    expect(next.specVersion).not.toBe(today.specVersion); // the substitution took

    const { contractOf } = await import('../spec/contract.ts');
    const { diffContracts } = await import('./engine.ts');
    const changes = diffContracts(contractOf(today), contractOf(next));
    const serverBreaking = new Set(changes.filter((c) => c.classes.includes('server-breaking')).flatMap((c) => c.operations));
    expect(serverBreaking.size).toBeGreaterThan(0);

    const { runConform } = await import('../conformance/cli.ts');
    const chunks: string[] = [];
    const stdout = new Writable({ write: (chunk, _enc, done) => (chunks.push(String(chunk)), done()) });
    const stderr = new Writable({ write: (_chunk, _enc, done) => done() });
    const { url, apiKey, siteId, otherApiKey, otherSiteId } = mock!.line;
    // A short state window and fewer examples: the differences are boundary cases and a new
    // endpoint, found on the first examples; a live target's 10 s window would dominate the test.
    const code = await runConform(['--base-url', url, '--site-id', siteId, '--other-site-id', otherSiteId, '--allow-destructive', '--state-window-s', '1', '--runs', '25', '--reporter', 'json'], {
      stdout,
      stderr,
      env: { HSC_API_KEY: apiKey, HSC_OTHER_API_KEY: otherApiKey },
    });
    const report = JSON.parse(chunks.join('')) as {
      specVersion: string;
      checks: { rule: string; operation: string; outcome: string }[];
      failures: { operation: string; rules: string[] }[];
    };
    expect(report.specVersion).toBe(next.specVersion);
    expect(code).toBe(1);
    const failed = new Set([...report.checks.filter((c) => c.outcome === 'failed').map((c) => c.operation), ...report.failures.map((f) => f.operation)]);
    expect([...failed].sort()).toEqual([...serverBreaking].sort());
  });
});
