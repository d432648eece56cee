/**
 * `hosted-site-contract mock` as a user runs it (`node bin/hosted-site-contract.js mock`): one
 * JSON line on stdout with the URL and the fixtures, one log line per request on stderr with no
 * key in it, a clean stop on SIGTERM and SIGINT, and one-line errors (no stack) with exit 2 for
 * bad usage and when it cannot listen (exit 1 means a failed check, which the mock never reports).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { validateValidateApiKeyResponse } from '../generated/validators.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE_KEYS = ['url', 'apiKey', 'companyId', 'siteId', 'otherApiKey', 'otherCompanyId', 'otherSiteId'];

interface Run {
  readonly child: ChildProcess;
  /** Resolves with the first stdout line; rejects if the process exits first. */
  readonly firstLine: Promise<string>;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Starts reading stderr, for a run started with `holdStderr`. */
  readonly readStderr: () => void;
}

/** `holdStderr`: nobody reads the mock's stderr until `readStderr` (a log reader that stalls). */
function runMockCli(args: readonly string[], env: Readonly<Record<string, string>> = {}, options: { holdStderr?: boolean } = {}): Run {
  // Compiled, as the package runs it (scripts/test-build.ts): the launcher's tsx is bin/cli.test.ts's subject.
  const child = spawn(process.execPath, [inject('compiledCli'), 'mock', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const readStderr = () => void child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  if (!options.holdStderr) readStderr();
  const exit = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const firstLine = new Promise<string>((resolve, reject) => {
    const check = () => {
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve(stdout.slice(0, end));
    };
    child.stdout!.on('data', check);
    void exit.then(({ code }) => reject(new Error(`the mock exited (${code}) before printing a line; stderr: ${stderr}`)));
  });
  firstLine.catch(() => {}); // runs that are meant to fail never read it
  return { child, firstLine, exit, stdout: () => stdout, stderr: () => stderr, readStderr };
}

/** Stderr's lines, and that none of them is a stack frame. */
function expectOneLineError(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^hosted-site-contract mock: /);
  return lines[0]!;
}

describe('hosted-site-contract mock', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('prints its URL and fixtures, serves and logs without keys, and stops on %s with exit 0', async (signal) => {
    const run = runMockCli(['--port', '0']);
    try {
      const info = JSON.parse(await run.firstLine) as Record<string, string>;
      expect(Object.keys(info).sort()).toEqual([...FIXTURE_KEYS].sort());
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
      for (const key of FIXTURE_KEYS) expect(info[key], key).toMatch(/\S/);

      const ok = await fetch(`${info.url}/validate`, { headers: { authorization: `Bearer ${info.apiKey}` } });
      expect(ok.status).toBe(200);
      expect(validateValidateApiKeyResponse(await ok.json())).toBe(true);
      // Keys where a careless client might put them: a query, a path, the other tenant's header.
      await (await fetch(`${info.url}/validate?api_key=${info.apiKey}`)).arrayBuffer();
      await (await fetch(`${info.url}/sites/${info.otherApiKey}`, { headers: { authorization: `Bearer ${info.otherApiKey}` } })).arrayBuffer();

      run.child.kill(signal);
      expect(await run.exit).toEqual({ code: 0, signal: null });
      expect(run.stdout().split('\n').filter(Boolean), 'stdout holds only the JSON line').toHaveLength(1);
      const log = run.stderr();
      expect(log).toMatch(/^GET \/v2\/validate 200 [\d.]+ms$/m);
      expect(log).toMatch(/^GET \/v2\/validate 401 /m);
      expect(log).toMatch(/^GET \/v2\/sites\/\[redacted HSC_OTHER_API_KEY\] 404 /m);
      expect(log).toMatch(/^mock stopped$/m);
      expect(log).not.toContain(info.apiKey);
      expect(log).not.toContain(info.otherApiKey);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('--log off writes no request line, only that it stopped', async () => {
    const run = runMockCli(['--port', '0', '--log', 'off']);
    try {
      const info = JSON.parse(await run.firstLine) as Record<string, string>;
      const response = await fetch(`${info.url}/validate`, { headers: { authorization: `Bearer ${info.apiKey}` } });
      expect(response.status).toBe(200);
      run.child.kill('SIGTERM');
      expect((await run.exit).code).toBe(0);
      expect(run.stderr()).toBe('mock stopped\n');
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('keeps answering while nobody reads its log, drops lines past its cap and says how many', async () => {
    const run = runMockCli(['--port', '0'], {}, { holdStderr: true });
    try {
      const info = JSON.parse(await run.firstLine) as Record<string, string>;
      // Each request leaves a ~3.5 KB line: 600 of them are twice what the pipe and the cap hold.
      const body = JSON.stringify({ note: 'n'.repeat(3500) });
      const statuses = new Set<number>();
      for (let i = 0; i < 600; i++) {
        const response = await fetch(`${info.url}/validate`, { method: 'POST', headers: { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        statuses.add(response.status);
      }
      expect([...statuses]).toEqual([404]);
      run.readStderr();
      run.child.kill('SIGTERM');
      expect((await run.exit).code).toBe(0);
      const notes = [...run.stderr().matchAll(/^log: (\d+) line\(s\) dropped: the log's reader was slower than the requests$/gm)];
      expect(notes.length, run.stderr().slice(-500)).toBeGreaterThan(0);
      const logged = run.stderr().split('\n').filter((line) => line.startsWith('POST /v2/validate 404 ')).length;
      expect(logged + notes.reduce((sum, note) => sum + Number(note[1]), 0)).toBe(600);
      expect(run.stderr()).toMatch(/^mock stopped$/m);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it("logs through the process's sanitizer too: a key the environment names never shows", async () => {
    const token = 'tok-0123456789abcdef';
    const run = runMockCli(['--port', '0'], { HSC_DEPLOY_TOKEN: token });
    try {
      const info = JSON.parse(await run.firstLine) as Record<string, string>;
      await (await fetch(`${info.url}/sites/${token}`, { headers: { authorization: `Bearer ${info.apiKey}` } })).arrayBuffer();
      run.child.kill('SIGTERM');
      expect(await run.exit).toEqual({ code: 0, signal: null });
      expect(run.stderr()).toMatch(/^GET \/v2\/sites\/\[redacted HSC_DEPLOY_TOKEN\] 404 /m);
      expect(run.stderr()).not.toContain(token);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  const usage: readonly [string, { args: readonly string[]; says: RegExp }][] = [
    ['a port above 65535', { args: ['--port', '99999'], says: /--port must be a whole number from 0 to 65535, not '99999'/ }],
    ['a port that is not a number', { args: ['--port', 'abc'], says: /--port must be a whole number from 0 to 65535, not 'abc'/ }],
    ['a negative port', { args: ['--port=-1'], says: /--port must be a whole number/ }],
    ['a flag without its value', { args: ['--port'], says: /--port/ }],
    ['an unknown flag', { args: ['--verbose'], says: /unknown option '--verbose'/i }],
    ['a rate limit without a window', { args: ['--rate-limit', '120'], says: /--rate-limit needs requests per window, such as 120\/60s, 120\/1m or 20\/s, not '120'/ }],
    ['a positional argument (never echoed: it may be a key)', { args: ['4010'], says: /unexpected argument \(not echoed/ }],
  ];
  it.each(usage)('refuses %s: exit 2, one line, no stack', async (_, { args, says }) => {
    const run = runMockCli(args);
    expect((await run.exit).code).toBe(2);
    expect(expectOneLineError(run.stderr())).toMatch(says);
    expect(run.stdout()).toBe('');
  });

  it('says the port is in use, on one line, and exits 2', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const run = runMockCli(['--port', String(port)]);
      expect((await run.exit).code).toBe(2);
      expect(expectOneLineError(run.stderr())).toMatch(new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use.*\\(EADDRINUSE\\)`));
      expect(run.stdout()).toBe('');
    } finally {
      taken.close();
    }
  });

  it('says a host name does not resolve, on one line, and exits 2', async () => {
    // RFC 6761 §6.4: no name under .invalid resolves; a resolver that cannot be reached says EAI_AGAIN.
    const run = runMockCli(['--host', 'no-such-host.invalid', '--port', '0']);
    expect((await run.exit).code).toBe(2);
    expect(expectOneLineError(run.stderr())).toMatch(/cannot listen on no-such-host\.invalid:0: .*\((ENOTFOUND|EAI_AGAIN)\)$/);
    expect(run.stdout()).toBe('');
  });
});
