/**
 * `hosted-site-contract conform` end to end, as a user runs it: usage errors and unusable targets
 * exit 2 with one line; the default run against the embedded mock conforms (the main
 * acceptance test); reports land where `--reporter`/`--output` say, and the JUnit one is XML.
 *
 * A process is started where the process is what is tested: the exit code and the one line the
 * dispatcher makes of a usage error, the command ending with its line, the launcher of a clone, the
 * compiled command as a workflow step runs it. Elsewhere `runConform` runs in this process, given
 * what the dispatcher gives it (its sanitizer, streams, environment): what it returns is the exit
 * code. Runs whose assertions are about the command's behaviour, not the suite's coverage, take one
 * example per property (`--runs 1`, every row still judged) or only the rules that show it (`--only`).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UsageError } from '../bin/command.ts';
import { commandLineSecrets } from '../bin/process-guard.ts';
import { seedCompanies } from '../mock/fixtures.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { Sanitizer } from '../sanitize/sanitizer.ts';
import { api } from '../spec/api.ts';
import { inScope, operation } from '../spec/queries.ts';
import { runConform } from './cli.ts';
import { wellFormed } from './report/well-formed.ts';
import type { Report } from './types.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The command from a clone (through tsx), as the README's main job runs it. */
const FROM_CLONE = 'bin/hosted-site-contract.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `conform` as a process: compiled, as the package runs it (scripts/test-build.ts), unless `launcher` names another. */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}, launcher = inject('compiledCli')): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [launcher, 'conform', ...args],
      { cwd: root, env: { PATH: process.env.PATH, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The sanitizer the dispatcher gives `conform` (bin/cli.ts): it knows the keys of the command line and of the environment. */
const processSanitizer = (args: readonly string[], env: NodeJS.ProcessEnv): Sanitizer => new Sanitizer(commandLineSecrets(['conform', ...args], env));

/** A stream whose text is kept. */
function caught(): { readonly stream: Writable; readonly text: () => string } {
  let text = '';
  return { stream: new Writable({ write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString('utf8')), done()) }), text: () => text };
}

/**
 * `conform` in this process, given what the dispatcher gives it: the process's sanitizer, the
 * streams (caught here) and the environment (`env` alone). It resolves to the command's exit code;
 * it throws what the dispatcher says as a usage line.
 */
async function conformHere(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const [stdout, stderr] = [caught(), caught()];
  const code = await runConform(args, { stdout: stdout.stream, stderr: stderr.stream, env, sanitizer: processSanitizer(args, env) });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * Flags `conform` refuses, in this process: what it threw, the line the dispatcher prints of it
 * (its message through the process's sanitizer, on one line), and what the command wrote before.
 */
async function refusedHere(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ error: unknown; line: string; stdout: string; stderr: string }> {
  const sanitizer = processSanitizer(args, env);
  const [stdout, stderr] = [caught(), caught()];
  try {
    const code = await runConform(args, { stdout: stdout.stream, stderr: stderr.stream, env, sanitizer });
    return { error: undefined, line: `not refused: exit ${code}`, stdout: stdout.text(), stderr: stderr.text() };
  } catch (error) {
    return { error, line: sanitizer.message(error), stdout: stdout.text(), stderr: stderr.text() };
  }
}

const UUID = '11111111-1111-4111-8111-111111111111';
const KEY = 'test-key-0123456789';
const live = ['--base-url', 'http://127.0.0.1:1/v2', '--api-key', KEY, '--site-id', UUID];

const USAGE: readonly (readonly [string, readonly string[], RegExp])[] = [
  ['a base URL not ending in /v2', ['--base-url', 'http://127.0.0.1:1/v3', '--api-key', KEY, '--site-id', UUID], /--base-url must end in \/v2/],
  ['a base URL that is not a URL', ['--base-url', 'localhost:80'], /--base-url/],
  ['an unknown --only rule', ['--only', 'AUTH-401,NOPE'], /unknown rule NOPE/],
  ['--other-api-key without --other-site-id', [...live, '--other-api-key', 'other-key-0123456789'], /--other-api-key needs --other-site-id/],
  ['--runs 0', ['--runs', '0'], /--runs needs a whole number/],
  ['--runs 1.5', ['--runs', '1.5'], /--runs needs a whole number/],
  ['--base-url without a key', ['--base-url', 'http://127.0.0.1:1/v2', '--site-id', UUID], /needs an API key/],
  ['a site id that is not a UUID', ['--base-url', 'http://127.0.0.1:1/v2', '--api-key', KEY, '--site-id', 'abc'], /--site-id must be a UUID/],
  ['an unknown reporter', ['--reporter', 'xml'], /--reporter must be/],
  ['json and junit without --output', ['--reporter', 'json', '--reporter', 'junit'], /need --output/],
  ['github and json without --output', ['--reporter', 'github', '--reporter', 'json'], /--reporter github and --reporter json together need --output FILE/],
  ['an unknown flag', ['--fast'], /unknown option '--fast'/],
  ['--max-wait-s that is not a number', ['--max-wait-s', 'soon'], /--max-wait-s needs a whole number from 0/],
  ['--max-body-kb 0', ['--max-body-kb', '0'], /--max-body-kb needs a whole number from 1/],
  ['--state-window-s 0', ['--state-window-s', '0'], /--state-window-s needs a whole number from 1 to 3600/],
  ['--rate that is neither auto nor a number', ['--rate', 'fast'], /--rate needs auto or a number of requests per second/],
  ['--max-requests 0', ['--max-requests', '0'], /--max-requests needs a whole number from 1/],
  ['--max-duration without a unit it knows', ['--max-duration', '10 minutes'], /--max-duration needs a duration such as 90s, 10m or 1.5h/],
  ['--max-duration 0s', ['--max-duration', '0s'], /--max-duration needs a duration/],
  ['--allow-live without --allow-destructive', [...live, '--allow-live'], /--allow-live needs --allow-destructive/],
  ['--output naming a directory', ['--reporter', 'json', '--output', tmpdir()], /--output: .* is a directory, not a file/],
  ['--output inside a file', ['--reporter', 'json', '--output', `${fileURLToPath(import.meta.url)}/report.json`], /--output: no directory/],
];

// Secrets in the wrong place: the message says what is wrong and never echoes them.
const SECRET = 'pa55-w0rd-of-the-user';
const SECRETS: readonly (readonly [string, readonly string[], NodeJS.ProcessEnv, RegExp])[] = [
  ['a base URL carrying credentials', ['--base-url', `http://user:${SECRET}@127.0.0.1:1/v2`, '--site-id', UUID], {}, /must not carry credentials/],
  ['an unparsable base URL carrying credentials', ['--base-url', `http://user:${SECRET}@[::1/v2`, '--site-id', UUID], {}, /does not parse as a URL, so it is not echoed/],
  ['a base URL with a key in its query', ['--base-url', `http://127.0.0.1:1/v2?api_key=${SECRET}`, '--site-id', UUID], {}, /must not carry a query string/],
  ['a key with a line break', ['--base-url', 'http://127.0.0.1:1/v2', '--site-id', UUID], { HSC_API_KEY: `${SECRET}\nsecond-line` }, /HSC_API_KEY holds a character an HTTP header cannot carry \(U\+000A at position 22\)/],
  ['a key beyond Latin-1', ['--base-url', 'http://127.0.0.1:1/v2', '--site-id', UUID, '--api-key', `${SECRET}\u2028`], {}, /--api-key value holds a character .* \(U\+2028 at position 22\)/],
  ['a key given to a mistyped flag', ['--api-kye', SECRET], {}, /unknown option '--api-kye'/],
  ['a key echoed back in a usage error', ['--mock-variant', SECRET], { HSC_API_KEY: SECRET }, /no variant named '\[redacted HSC_API_KEY\]'/],
  ['a key left as a stray argument (`--api-key= KEY`)', ['--api-key=', SECRET], {}, /unexpected argument \(not echoed/],
  ['a key beginning with a dash', ['--base-url', 'http://127.0.0.1:1/v2', '--site-id', UUID, '--api-key', `-${SECRET}`], {}, /--api-key needs a value; for a value that begins with '-', write --api-key=VALUE/],
  ['a negative number, read as the value it is', ['--runs', '-1'], {}, /--runs needs a whole number from 1 to 10000, not '-1'/],
  ['a base URL path carrying a token', ['--base-url', `http://127.0.0.1:1/api;token=${SECRET}`, '--site-id', UUID], { HSC_API_KEY: KEY }, /must end in \/v2/],
];

/**
 * The rows the compiled command runs as a process too, one for each way a refusal reaches the
 * dispatcher: node's own reading of the flags, a value `conform` checks, the file system, and the
 * secrets it hides, from the environment (a key that is not one line, a key echoed in a message
 * thrown after the flags were read, by the variant's lookup) and from the command line.
 */
const AS_A_PROCESS = new Set([
  'an unknown flag',
  '--runs 0',
  '--output naming a directory',
  'a key with a line break',
  'a key echoed back in a usage error',
  'a key left as a stray argument (`--api-key= KEY`)',
]);

// The default run is the slowest process here: started as the file starts, it runs beside the tests before it.
let defaultRun: Promise<Run>;
beforeAll(() => {
  defaultRun = cli(['--reporter', 'json'], {}, FROM_CLONE);
});
afterAll(async () => {
  await defaultRun;
});

describe('usage errors: exit 2, one line, no stack trace', () => {
  // Every row is a UsageError thrown as the flags are read, before the command writes or sends
  // anything: the dispatcher says each the same way (exit 2, one line), as the process rows below show.
  describe('refused as the flags are read, before anything is written or sent (in this process)', () => {
    it.each(USAGE)('%s', async (_, args, message) => {
      const { error, line, stdout, stderr } = await refusedHere(args);
      expect(error).toBeInstanceOf(UsageError);
      expect(stdout).toBe('');
      expect(stderr).toBe('');
      expect(line).toMatch(message);
      // The line the dispatcher prints: one line (a stack trace is many).
      expect(line.split('\n')).toHaveLength(1);
    });

    it.each(SECRETS)('%s: not echoed', async (_, args, env, message) => {
      const { error, line, stdout, stderr } = await refusedHere(args, env);
      expect(error).toBeInstanceOf(UsageError);
      expect(stdout).toBe('');
      expect(stderr).toBe('');
      expect(line).toMatch(message);
      // The line the dispatcher prints: one line (a stack trace is many).
      expect(line.split('\n')).toHaveLength(1);
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(SECRET.slice(0, 12));
    });

    it('with --reporter github, a GITHUB_STEP_SUMMARY that is a directory is refused before the run; without the reporter it is not read', async () => {
      const refused = await refusedHere(['--reporter', 'github', '--only', 'BASE-PATH'], { GITHUB_STEP_SUMMARY: tmpdir() });
      expect(refused.error).toBeInstanceOf(UsageError);
      expect(refused.stderr).toBe('');
      expect(refused.line).toMatch(/GITHUB_STEP_SUMMARY: .* is a directory, not a file/);
      expect(refused.line.split('\n')).toHaveLength(1);
      expect((await conformHere(['--only', 'BASE-PATH', '--reporter', 'json'], { GITHUB_STEP_SUMMARY: tmpdir() })).code).toBe(0);
    });

    it('an unwritable --output is found before the first request', async () => {
      let requests = 0;
      const server = createHttpServer((_req, res) => {
        requests++;
        res.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const port = (server.address() as { port: number }).port;
        const { error, line } = await refusedHere(['--base-url', `http://127.0.0.1:${port}/v2`, '--site-id', UUID, '--reporter', 'junit', '--output', '/proc/version/report.xml'], { HSC_API_KEY: KEY });
        expect(error).toBeInstanceOf(UsageError);
        expect(line).toMatch(/--output: no directory/);
        expect(requests).toBe(0);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });

  describe.concurrent('as the command says them (the compiled command, a process)', () => {
    it.for(USAGE.filter(([name]) => AS_A_PROCESS.has(name)))('%s', async ([, args, message], { expect }) => {
      const { code, stdout, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(/\n\s+at /);
    });

    it.for(SECRETS.filter(([name]) => AS_A_PROCESS.has(name)))('%s: exit 2, not echoed', async ([, args, env, message], { expect }) => {
      const { code, stdout, stderr } = await cli(args, env);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr).not.toContain(SECRET);
      expect(stderr).not.toContain(SECRET.slice(0, 12));
    });

    it('--output naming a pipe is refused before the run (writing it would block)', async ({ expect }) => {
      const dir = await mkdtemp(join(tmpdir(), 'hsc-fifo-'));
      try {
        execFileSync('mkfifo', [join(dir, 'report.json')]);
        const { code, stderr } = await cli(['--reporter', 'json', '--output', join(dir, 'report.json')]);
        expect(code).toBe(2);
        expect(stderr).toMatch(/is a pipe or socket, not a file/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('unusable targets: exit 2, one line', () => {
  let closedPort: number;
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a closed port', async () => {
    const { code, stdout, stderr } = await conformHere(['--base-url', `http://127.0.0.1:${closedPort}/v2`, '--site-id', UUID], { HSC_API_KEY: 'secret-key-xyz' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/cannot reach .*connection refused/);
    expect(stderr).not.toContain('secret-key-xyz');
  });

  it('a server that never answers: the line at --timeout-ms, and the command ends with it (no timer of the request fires after it)', async () => {
    const server = createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const timeoutMs = 600;
      // NODE_DEBUG=timer: node's own account of the timers whose callbacks ran, by duration, in order with the command's line.
      // The 10 s are a guard against a command that hangs, not what is tested (it ends within about a second).
      const child = spawn(process.execPath, [inject('compiledCli'), 'conform', '--base-url', `http://127.0.0.1:${port}/v2`, '--site-id', UUID, '--timeout-ms', String(timeoutMs)], {
        cwd: root,
        env: { PATH: process.env.PATH, HSC_API_KEY: 'secret-key-xyz', NODE_DEBUG: 'timer' },
        timeout: 10_000,
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code).toBe(2);
      const lines = stderr.trimEnd().split('\n');
      const own = lines.filter((line) => !/^TIMER \d+: /.test(line));
      expect(own).toHaveLength(1);
      expect(own[0]).toMatch(/no answer from .*: no complete answer within 600 ms/);
      const said = lines.indexOf(own[0]!);
      const fired = (from: number, to?: number) => lines.slice(from, to).flatMap((line) => /^TIMER \d+: timeout callback (\d+)$/.exec(line)?.[1] ?? []).map(Number);
      // The request's deadline fired, and then the line came.
      expect(fired(0, said)).toContain(timeoutMs);
      // After the line nothing of the request's: neither its deadline nor the longer grace after an abort
      // (armed after a settled attempt once, it kept the command up two seconds past its verdict).
      expect(fired(said + 1).filter((ms) => ms >= timeoutMs)).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe('the default run against the embedded mock', () => {
  let run: Run;
  let report: Report;
  beforeAll(async () => {
    run = await defaultRun;
    report = JSON.parse(run.stdout) as Report;
  });

  it('exits 0 with a JSON report on stdout and progress on stderr', () => {
    expect(run.code).toBe(0);
    expect(report).toMatchObject({ ok: true, seed: 1106, specVersion: api.specVersion, failures: [] });
    expect(report.requests).toBeGreaterThan(500);
    expect(run.stderr).toMatch(/✓ conforms on (\d+) of \1 checks \(100%\): .* seed 1106/);
  });

  it('passes every in-scope (rule, operation) pair', () => {
    const want = api.rules.flatMap((r) => (r.scope === 'target' ? [`${r.id} *`] : api.endpoints.filter((e) => inScope(r, e)).map((e) => `${r.id} ${operation(e)}`)));
    expect(report.checks.map((c) => `${c.rule} ${c.operation}`)).toEqual(want);
    // Every rule exercised on every endpoint it applies to: nothing skipped, nothing failed.
    expect(report.checks.filter((c) => c.outcome !== 'passed')).toEqual([]);
    expect(report.summary).toEqual({ passed: want.length, failed: 0, skipped: 0, warnings: 0, distinctFailures: 0, ruleViolations: 0, failingExchanges: 0 });
    expect(report.coverage).toMatchObject({ checked: want.length, total: want.length, skipped: [] });
  });

  it('--fail-on-skip changes nothing there (one example per property, every row judged): no row is skipped', async () => {
    const gated = await conformHere(['--fail-on-skip', '--runs', '1', '--reporter', 'json']);
    const gatedReport = JSON.parse(gated.stdout) as Report;
    expect(gated.code).toBe(0);
    expect(gatedReport).toMatchObject({ ok: true, summary: { skipped: 0 }, options: { failOnSkip: true } });
    expect(gatedReport.checks.map((c) => `${c.rule} ${c.operation}`)).toEqual(report.checks.map((c) => `${c.rule} ${c.operation}`));
  });

  it('names no key of the mock', () => {
    for (const { apiKey } of seedCompanies()) {
      for (const form of [apiKey, encodeURIComponent(apiKey), Buffer.from(`${apiKey}:`).toString('base64'), apiKey.slice(0, 12)]) expect(run.stdout + run.stderr).not.toContain(form);
    }
  });
});

describe('coverage against a target that is not the embedded mock (a mock started here; one example per property)', () => {
  let mock: RunningMock;
  const args = (m: RunningMock, ...more: string[]) => ['--base-url', m.url, '--site-id', m.fixtures.siteId, '--runs', '1', '--reporter', 'json', ...more];
  const env = (m: RunningMock) => ({ HSC_API_KEY: m.fixtures.apiKey });
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('without --allow-destructive: conforms, and the closing line says on how many checks and why the rest were skipped', async () => {
    const { code, stdout, stderr } = await conformHere(args(mock), env(mock));
    const report = JSON.parse(stdout) as Report;
    expect(code).toBe(0);
    expect(report.summary.skipped).toBeGreaterThan(0);
    const groups = report.coverage.skipped.map((g) => `${g.reason.replace(/[()]/g, '\\$&')} \\(${g.count}\\)`).join(', ');
    // Rows judged with some probes not sent are counted on the same line.
    const inPart = Object.values(report.coverage.rules).reduce((n, r) => n + r.partly.length, 0);
    const partly = inPart ? `, ${inPart} judged in part` : '';
    expect(stderr).toMatch(new RegExp(`✓ conforms on ${report.coverage.checked} of ${report.checks.length} checks \\(${Math.floor((report.coverage.checked * 100) / report.checks.length)}%\\)${partly} — ${report.summary.skipped} skipped: ${groups}; `));
    expect(stderr).toContain('needs --allow-destructive');
    expect(report.consumed).toEqual([]);
  });

  it('--fail-on-skip (a rule that needs --allow-destructive, and one judged): exit 1, and the closing line says the skips are why', async () => {
    const { code, stdout, stderr } = await conformHere(args(mock, '--fail-on-skip', '--only', 'STATE-SFTP-REMOVE,BASE-PATH'), env(mock));
    const report = JSON.parse(stdout) as Report;
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, failures: [], options: { failOnSkip: true } });
    expect(stderr).toMatch(new RegExp(`✗ does not conform: ${report.summary.skipped} of ${report.checks.length} checks skipped \\(--fail-on-skip\\) — .*skipped: needs --allow-destructive`));
  });

  it('a destructive run (--only STATE-SFTP-REMOVE) names what it consumed, which explains the next run\'s smaller coverage', async () => {
    const fresh = await startMock({ port: 0 });
    try {
      const environments = seedCompanies().flatMap((c) => c.sites.flatMap((site) => site.environments));
      // Without --allow-live only the non-live environments' accounts may go.
      const accounts = new Set(environments.filter((e) => e.name !== 'live').flatMap((e) => e.sftpAccounts.map((a) => a.id)));
      const removal = 'DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}';
      // Each run removes some accounts (discovery finds the others), until none is left where removals may act.
      const runs: Report[] = [];
      const removed = new Set<string>();
      while (runs.length < 8 && (runs.length === 0 || runs.at(-1)!.coverage.checked === runs[0]!.coverage.checked)) {
        const report = JSON.parse((await conformHere(args(fresh, '--allow-destructive', '--only', 'STATE-SFTP-REMOVE'), env(fresh))).stdout) as Report;
        const gone = report.consumed.filter((c) => c.operation === removal).map((c) => c.ids.sftp_account_id!);
        for (const id of gone) {
          expect(accounts.has(id)).toBe(true);
          expect(removed.has(id)).toBe(false); // never the same account twice: it is gone
          removed.add(id);
        }
        const accepted = report.consumed.filter((c) => c.operation === removal).reduce((n, c) => n + c.requests, 0);
        if (accepted) expect(report.notes.find((n) => n.startsWith('consumed:'))).toContain(`${accepted} × ${removal} (destructive`);
        runs.push(report);
      }
      expect(removed.size).toBeGreaterThan(0);
      // The accounts are gone: the last run has fewer to check, and says why.
      const [first, last] = [runs[0]!, runs.at(-1)!];
      expect(last.coverage.checked).toBeLessThan(first.coverage.checked);
      expect(last.coverage.rules['STATE-SFTP-REMOVE']!.checked).toBeLessThan(first.coverage.rules['STATE-SFTP-REMOVE']!.checked);
      expect(last.coverage.skipped.some((g) => /SFTP account/.test(g.reason))).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('where only the live environment holds what a destructive check needs, the check is skipped naming --allow-live, and runs there with it', async () => {
    const laidOut = await startMock({ port: 0, layout: 'staging-without-sftp-and-backups' });
    try {
      const company = laidOut.store.companies.find((c) => c.id === laidOut.fixtures.companyId)!;
      const liveEnv = company.sites[0]!.environments.find((e) => e.name === 'live')!;
      const restore = operation(api.endpoints.find((e) => e.name === 'restoreBackup')!);
      const only = ['--allow-destructive', '--only', 'INPUT-ACCEPT,ACK-202'];
      const without = await conformHere(args(laidOut, ...only), env(laidOut));
      const skipped = JSON.parse(without.stdout) as Report;
      expect(without.code).toBe(0);
      expect(skipped.options).toMatchObject({ allowDestructive: true, allowLive: false });
      expect(skipped.checks.find((c) => c.rule === 'INPUT-ACCEPT' && c.operation === restore)).toMatchObject({ outcome: 'skipped', reason: 'needs --allow-live (only the live environment has a backup)' });
      // Grouped in the closing line, with the rows it stands for.
      const group = skipped.coverage.skipped.find((g) => g.reason === 'needs --allow-live (only the live environment has a backup)');
      expect(group?.count).toBe(2);
      expect(without.stderr).toContain(`needs --allow-live (only the live environment has a backup) (${group!.count})`);
      expect(without.stderr).toMatch(/✓ conforms on \d+ of \d+ checks \(\d+%\) — \d+ skipped: /);
      expect(skipped.notes.some((n) => n.startsWith('safety: ') && n.includes(liveEnv.id))).toBe(true);
      expect(skipped.consumed.filter((c) => c.effect === 'destructive').flatMap((c) => Object.values(c.ids))).not.toContain(liveEnv.id);

      const withLive = JSON.parse((await conformHere(args(laidOut, ...only, '--allow-live'), env(laidOut))).stdout) as Report;
      expect(withLive.options).toMatchObject({ allowLive: true });
      expect(withLive.checks.find((c) => c.rule === 'INPUT-ACCEPT' && c.operation === restore)).toMatchObject({ outcome: 'passed' });
      expect(withLive.consumed.find((c) => c.operation === restore)?.ids).toMatchObject({ target_env_id: liveEnv.id });
    } finally {
      await laidOut.close();
    }
  });
});

describe('--strict against the embedded mock (one example per property, every row judged)', () => {
  it('runs the mock as the letter of the tables, and conforms', async () => {
    const { code, stdout, stderr } = await conformHere(['--strict', '--runs', '1', '--reporter', 'json']);
    const report = JSON.parse(stdout) as Report;
    expect(stderr).toContain('variant letter-of-the-tables');
    expect(report.failures).toEqual([]);
    expect(code).toBe(0);
    expect(report.notes.some((n) => /CONFLICT-ACTION-UNKNOWN-RESOURCE/.test(n))).toBe(true);
  });

  it('fails on a mock that takes the reading of several conflicts (here the reference plus extra headers)', async () => {
    const { code, stdout } = await conformHere(['--strict', '--mock-variant', 'extra-headers', '--runs', '1', '--reporter', 'json']);
    const report = JSON.parse(stdout) as Report;
    expect(code).toBe(1);
    expect(new Set(report.failures.map((f) => f.rule))).toEqual(new Set(['STATUS-SET']));
  });
});

describe.concurrent('reports', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsc-conform-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--reporter junit --reporter json --output FILE writes both, the second with the other extension; JUnit is XML', async ({ expect }) => {
    const { code, stdout } = await conformHere(['--only', 'AUTH-401,ERR-BODY', '--runs', '1', '--reporter', 'console', '--reporter', 'junit', '--reporter', 'json', '--output', join(dir, 'out.xml')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/SUMMARY/);
    const xml = await readFile(join(dir, 'out.xml'), 'utf8');
    const json = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8')) as Report;
    expect(wellFormed(xml)).toEqual([]);
    expect(new Set(json.checks.map((c) => c.rule))).toEqual(new Set(['AUTH-401', 'ERR-BODY']));
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml.match(/<testcase /g)).toHaveLength(json.checks.length);
  });

  it('compiled, as a workflow step runs it: annotations on stdout, JUnit and the job summary say the version, the console on stderr ends with the verdict', async ({ expect }) => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
    const summary = join(dir, 'summary.md');
    const args = ['--mock-variant', 'error-status-mismatch', '--only', 'ERR-BODY', '--runs', '1', '--reporter', 'console', '--reporter', 'github', '--reporter', 'junit', '--output', join(dir, 'step.xml')];
    const { code, stdout, stderr } = await cli(args, { GITHUB_STEP_SUMMARY: summary });
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^::error title=ERR-BODY on [^:]+::/);
    expect(stderr.trimEnd().split('\n').at(-1)).toMatch(/^✗ does not conform: /);
    expect(stderr).toContain(`${pkg.name} ${pkg.version} conform: `);
    expect(await readFile(join(dir, 'step.xml'), 'utf8')).toContain(`<property name="toolVersion" value="${pkg.version}"/>`);
    expect(await readFile(summary, 'utf8')).toContain(`${pkg.name} ${pkg.version}, spec ${api.specVersion}`);
  });
});
