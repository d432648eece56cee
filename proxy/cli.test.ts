/**
 * `hosted-site-contract proxy` as a user runs it: bad flags are one line and exit 2 before it
 * listens; run as a process (the package compiled once, scripts/test-build.ts), it stops on
 * SIGTERM or after --exit-after, writes its report and exits by --fail-on; the JUnit report is
 * valid under the schema CI tools hold JUnit files to.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { UsageError } from '../bin/command.ts';
import { listen } from '../mock/listen.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { parseProxyArgs } from './cli.ts';
import type { ProxyReport } from './report.ts';

describe('bad flags: one line, before anything listens', () => {
  it.each([
    ['no --target', [], /--target is required/],
    ['a target that is no URL', ['--target', 'localhost:4010'], /--target must be an http or https URL/],
    ['a target of another scheme', ['--target', 'ftp://example.com/v2'], /--target must be an http or https URL/],
    ['a target not ending in /v2', ['--target', 'http://127.0.0.1:4010/v3'], /--target must end in \/v2/],
    ['credentials in the target', ['--target', 'http://user:secret-pass@127.0.0.1:4010/v2'], /--target must not carry credentials/],
    ['an unknown --fail-on', ['--target', 'http://127.0.0.1:4010/v2', '--fail-on', 'both'], /--fail-on must be one of client, server, any, none/],
    ['json beside console with no --output', ['--target', 'http://127.0.0.1:4010/v2', '--reporter', 'json', '--reporter', 'console'], /need --output/],
    ['--exit-after 0', ['--target', 'http://127.0.0.1:4010/v2', '--exit-after', '0'], /--exit-after needs a whole number from 1/],
    ['--port past 65535', ['--target', 'http://127.0.0.1:4010/v2', '--port', '70000'], /--port needs a whole number from 0 to 65535/],
    ['an unknown flag', ['--target', 'http://127.0.0.1:4010/v2', '--fast'], /unknown option '--fast'/],
    ['a json report to stdout beside a command', ['--target', 'http://127.0.0.1:4010/v2', '--reporter', 'json', '--', 'npm', 'test'], /with -- COMMAND, --reporter json need --output/],
    ['-- and no command', ['--target', 'http://127.0.0.1:4010/v2', '--'], /-- must be followed by a command/],
  ])('%s', (_, args, message) => {
    expect(() => parseProxyArgs(args)).toThrow(UsageError);
    expect(() => parseProxyArgs(args)).toThrow(message);
  });

  it('the credentials of a refused target are never echoed', () => {
    expect(() => parseProxyArgs(['--target', 'http://user:secret-pass@127.0.0.1:4010/v2'])).toThrow(/^(?!.*secret-pass)/);
  });
});

/** The compiled command in its own process; its stdout's first line read as JSON. */
function proxyProcess(args: readonly string[]) {
  const child = spawn(process.execPath, [inject('compiledCli'), 'proxy', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  const url = new Promise<string>((resolve, reject) => {
    const check = () => {
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve((JSON.parse(stdout.slice(0, end)) as { url: string }).url);
    };
    child.stdout.on('data', check);
    void exit.then((code) => reject(new Error(`the proxy exited (${code}): ${stderr}`)));
  });
  return { child, url, exit, stdout: () => stdout, stderr: () => stderr };
}

describe('as a process', () => {
  let mock: RunningMock;
  let dir: string;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'hsc-proxy-'));
  });
  afterAll(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('SIGTERM: the console report on stdout, ending with the verdict, and exit 1 for a client problem', async () => {
    const proxy = proxyProcess(['--target', mock.url]);
    const url = await proxy.url;
    await (await request(`${url}/sites/${mock.fixtures.siteId}`, { headers: { authorization: `Token ${mock.fixtures.apiKey}` } })).body.text();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exit).toBe(1);
    expect(proxy.stdout()).toMatch(/CLIENT \(the requests\)\n {2}✗ AUTH-BEARER GET \/sites\/\{site_id\}/);
    expect(proxy.stdout()).toMatch(/✗ problems \(--fail-on any\): 1 client problem, 0 server problems, 0 warnings in 1 exchange\n$/);
    expect(proxy.stderr()).toMatch(/^✗ GET \/v2\/sites\/[0-9a-f-]+ → 401 \(\d+ ms\): client AUTH-BEARER: at Authorization: uses the scheme Token, not Bearer/);
    expect(proxy.stdout() + proxy.stderr()).not.toContain(mock.fixtures.apiKey);
  });

  it('--exit-after 2 --fail-on server: stops by itself, exit 0 as the mock answered well; JUnit and JSON files 0600', async () => {
    const output = join(dir, 'proxy.xml');
    const proxy = proxyProcess(['--target', mock.url, '--exit-after', '2', '--fail-on', 'server', '--reporter', 'junit', '--reporter', 'json', '--output', output]);
    const url = await proxy.url;
    for (const path of ['/sites/not-a-uuid', `/sites/${mock.fixtures.siteId}`]) await (await request(`${url}${path}`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } })).body.text();
    expect(await proxy.exit).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'proxy.json'), 'utf8')) as ProxyReport;
    expect(report.exchanges).toBe(2);
    expect(report.problems.map((p) => `${p.side} ${p.rule}`)).toEqual(['client READ-404']);
    expect(report.tool.version).toBe((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);
    for (const file of [output, join(dir, 'proxy.json')]) expect((await stat(file)).mode & 0o777).toBe(0o600);
    const xml = await readFile(output, 'utf8');
    const xsd = readFileSync(new URL('../conformance/report/junit-10.xsd', import.meta.url), 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'proxy.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: xsd }] });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(xml).toMatch(/<failure message="at \{site_id\}: is not a UUID[^"]*" type="READ-404">/);
  });

  /**
   * The proxy as a process in front of a target that takes requests and never answers, one
   * request (its key under `scheme`) in flight: a stop then waits out its grace with it.
   */
  async function withExchangeInFlight(scheme: string, test: (proxy: ReturnType<typeof proxyProcess>) => Promise<void>): Promise<void> {
    let arrived!: () => void;
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const server = createServer(() => arrived());
    const target = await listen(server);
    try {
      const proxy = proxyProcess(['--target', target, '--reporter', 'json']);
      const url = await proxy.url;
      void request(`${url}/sites/${mock.fixtures.siteId}`, { headers: { authorization: `${scheme} ${mock.fixtures.apiKey}` } }).then((r) => r.body.dump(), () => undefined);
      await got;
      await test(proxy);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }

  /** Resolves once `seen()` holds, polling (a hang guard is the test's own timeout). */
  async function until(seen: () => boolean): Promise<void> {
    while (!seen()) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const stopping = (stderr: () => string) => until(() => /: stopping; 1 exchange\(s\) in flight/.test(stderr()));

  it('a second SIGTERM while it stops changes nothing: said on stderr, the report still written, the exit code by --fail-on', () =>
    withExchangeInFlight('Token', async (proxy) => {
      // Signals of a kind do not queue: the second is sent once the first is seen to be handled.
      proxy.child.kill('SIGTERM');
      await stopping(proxy.stderr);
      proxy.child.kill('SIGTERM');
      expect(await proxy.exit).toBe(1); // the Token scheme: a client problem, and --fail-on any
      expect(proxy.stderr()).toMatch(/SIGTERM again: still stopping to write the report/);
      const report = JSON.parse(proxy.stdout().slice(proxy.stdout().indexOf('\n') + 1)) as ProxyReport;
      expect(report.exchanges).toBe(1);
      expect(report.failures).toEqual({ 'the proxy stopped before the answer was complete': 1 });
    }));

  it('a third signal forces the exit, saying so', () =>
    withExchangeInFlight('Bearer', async (proxy) => {
      proxy.child.kill('SIGINT');
      await stopping(proxy.stderr);
      proxy.child.kill('SIGINT');
      await until(() => /again/.test(proxy.stderr()));
      proxy.child.kill('SIGINT');
      expect(await proxy.exit).toBe(130);
      expect(proxy.stderr()).toMatch(/SIGINT a third time: exiting now, without the report/);
    }));

  it('-- COMMAND: the command runs with HSC_PROXY_URL, the proxy stops when it ends; exit by --fail-on when it passes, its own code when it fails', async () => {
    const client = `fetch(process.env.HSC_PROXY_URL + '/sites/${mock.fixtures.siteId}', { headers: { authorization: 'Token ${mock.fixtures.apiKey}' } }).then((r) => r.text()).then(() => process.exit(Number(process.argv[1])))`;
    for (const [commandCode, want] of [
      [0, 1], // the Token scheme: a client problem, --fail-on any
      [3, 3],
    ] as const) {
      const output = join(dir, `command-${commandCode}.json`);
      const proxy = proxyProcess(['--target', mock.url, '--reporter', 'json', '--output', output, '--', process.execPath, '-e', client, String(commandCode)]);
      expect(await proxy.exit).toBe(want);
      const report = JSON.parse(await readFile(output, 'utf8')) as ProxyReport;
      expect(report.exchanges).toBe(1);
      expect(report.problems.map((p) => `${p.side} ${p.rule}`)).toEqual(['client AUTH-BEARER']);
      // A failing command is named as the exit code's cause: the report's verdict is the proxy's alone.
      if (commandCode !== 0) expect(proxy.stderr()).toMatch(/the command after -- exited 3: that is the exit code/);
    }
  });

  it('-- with a command that cannot start: one line, exit 2, the report still written, and a run that sent nothing says so', async () => {
    const output = join(dir, 'no-command.json');
    const proxy = proxyProcess(['--target', mock.url, '--reporter', 'json', '--output', output, '--', 'no-such-command-hsc']);
    expect(await proxy.exit).toBe(2);
    expect(proxy.stderr()).toMatch(/cannot run the command after --: ENOENT/);
    expect(proxy.stderr()).toMatch(/sent nothing through the proxy: does it read HSC_PROXY_URL\?/);
    expect((JSON.parse(await readFile(output, 'utf8')) as ProxyReport).exchanges).toBe(0);
  });

  it('started by a wrapper that dies without passing its signal on (as npx does): it notices, writes its report and stops listening', async () => {
    const output = join(dir, 'orphaned.json');
    // `; true` keeps the shell from exec'ing the command: the shell stays its parent, as npm's `sh -c` does.
    const wrapper = spawn('sh', ['-c', `"${process.execPath}" "${inject('compiledCli')}" proxy --port 0 --target ${mock.url} --reporter json --output ${output}; true`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let first = '';
    wrapper.stdout.setEncoding('utf8').on('data', (t: string) => (first += t));
    while (!first.includes('\n')) await new Promise((resolve) => setTimeout(resolve, 20));
    const { url } = JSON.parse(first.slice(0, first.indexOf('\n'))) as { url: string };
    wrapper.kill('SIGKILL');
    while (!existsSync(output)) await new Promise((resolve) => setTimeout(resolve, 50));
    await expect.poll(async () => request(`${url}/sites/x`).then(() => 'listening', (e: { code?: string }) => e.code ?? 'error'), { timeout: 10_000 }).toBe('ECONNREFUSED');
    expect((JSON.parse(await readFile(output, 'utf8')) as ProxyReport).exchanges).toBe(0);
  });

  it('a port in use: one line, exit 2', async () => {
    const first = proxyProcess(['--target', mock.url]);
    const port = new URL(await first.url).port;
    const second = spawn(process.execPath, [inject('compiledCli'), 'proxy', '--target', mock.url, '--port', port], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    second.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const [code] = await once(second, 'exit');
    first.child.kill('SIGTERM');
    await first.exit;
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/);
  });
});
