/**
 * The package as a user gets it: built, packed, installed from the tarball into a fresh project
 * (no loader, no dev dependency), then used there: the command (`--version`, `help`, `conform`
 * against the embedded mock), the client and the mock from plain JS, and the typed client from
 * TypeScript (nodenext) where a wrong body must not compile.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { apiIdentity } from '../spec/identity.ts';
import { blocksRunHere, docBlocks, LIVE_API, SITE_PLACEHOLDER, workflowSteps, type DocBlock } from './doc-blocks.test-kit.ts';
import { build } from './build.ts';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function sh(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(file, [...args], { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}

let work: string;
let consumer: string;
let packed: readonly string[];
let tarball: string;
const bin = () => join(consumer, 'node_modules', '.bin', pkg.name);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'hsc-package-'));
  consumer = join(work, 'consumer');
  // Built and packed from a staging folder, as `npm pack` lays the package out: the repository's
  // own dist/ is never written (a pack or a build beside the tests keeps its files).
  const stage = join(work, 'stage');
  mkdirSync(join(stage, 'bin'), { recursive: true });
  for (const file of ['package.json', 'README.md', 'bin/hosted-site-contract.js']) copyFileSync(join(repo, file), join(stage, file));
  const log = console.log;
  console.log = () => undefined; // the build's one line of progress
  try {
    expect(build(pathToFileURL(join(stage, 'dist/'))), 'the build').toBe(0);
  } finally {
    console.log = log;
  }
  // --ignore-scripts: built just above; the JSON listing stays alone on stdout.
  const pack = await sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], stage);
  expect(pack.code, pack.stderr).toBe(0);
  const [listing] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
  packed = listing.files.map((f) => f.path);
  tarball = join(work, listing.filename);
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --prefer-offline: the runtime dependencies are in npm's cache since the repository's install.
  const install = await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, listing.filename)], consumer);
  expect(install.code, install.stderr).toBe(0);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds compiled code and declarations, and no test, source, CI, bench or generator file', () => {
    expect(packed).toContain('dist/index.js');
    expect(packed).toContain('bin/hosted-site-contract.js');
    const stray = packed.filter(
      (p) =>
        /\.test\.|\.test-kit\.|\.typetest\./.test(p) ||
        (/\.ts$/.test(p) && !/\.d\.ts$/.test(p)) ||
        (/^(\.ci|scripts|generator|spec|mock|conformance|bin|generated|dist\/generator)\//.test(p) && p !== 'bin/hosted-site-contract.js') ||
        /vitest|tsconfig/.test(p),
    );
    expect(stray).toEqual([]);
  });

  it("declarations import what ships (.js), never a .ts source the package does not hold", () => {
    const declarations = packed.filter((p) => p.endsWith('.d.ts')).map((p) => readFileSync(join(consumer, 'node_modules', pkg.name, p), 'utf8'));
    expect(declarations.length).toBeGreaterThan(10);
    const tsSpecifiers = declarations.flatMap((text) => text.match(/(?:from|import)\s*\(?\s*['"]\.\.?\/[^'"]*\.ts['"]/g) ?? []);
    expect(tsSpecifiers).toEqual([]);
  });

  it('installs only the runtime dependencies the compiled code imports (no loader, no ts-morph)', () => {
    for (const name of Object.keys(pkg.dependencies)) expect(existsSync(join(consumer, 'node_modules', name)), name).toBe(true);
    for (const devOnly of ['tsx', 'esbuild', 'ts-morph', 'typescript', 'ajv', 'yaml', 'vitest']) {
      expect(existsSync(join(consumer, 'node_modules', devOnly)), devOnly).toBe(false);
    }
  });
});

describe('the installed command', () => {
  it('--version names the package version and the spec version', async () => {
    const ran = await sh('npx', ['--no-install', pkg.name, '--version'], consumer);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe(`${pkg.name} ${pkg.version} (${apiIdentity.title} ${apiIdentity.basePath.slice(1)}, spec ${apiIdentity.specVersion})`);
  });

  it('runs through the npm link under --preserve-symlinks-main too', async () => {
    const ran = await sh(bin(), ['--version'], consumer, { NODE_OPTIONS: '--preserve-symlinks-main' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(new RegExp(`^${pkg.name} ${pkg.version.replace(/\./g, '\\.')} `));
  });

  it('help lists the commands', async () => {
    const ran = await sh(bin(), ['help'], consumer);
    expect(ran.code).toBe(0);
    for (const command of ['conform', 'mock', 'self-test', 'generate']) expect(ran.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it('conform against the embedded mock passes (exit 0)', async () => {
    const ran = await sh(bin(), ['conform', '--reporter', 'json'], consumer);
    expect(ran.code, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout) as { $schema: string; summary: { failed: number; passed: number } };
    expect(report.summary.failed).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(0);
    // Its $schema, read from the folder it ran in, is the schema the installed package ships.
    expect(resolve(consumer, report.$schema)).toBe(join(consumer, 'node_modules', pkg.name, 'dist', 'generated', 'conformance-report.schema.json'));
    expect(existsSync(resolve(consumer, report.$schema))).toBe(true);
  });

  it("diff compares a snapshot with the installed package's own (default --to outside a repository that has one)", async () => {
    const own = join('node_modules', pkg.name, 'dist', 'generated', 'contract.json');
    const ran = await sh(bin(), ['diff', '--from', own, '--fail-on', 'any'], consumer);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/\(installed package\)/);
    expect(ran.stdout).toMatch(/no contract changes/);
  });

  it('generate says it is a development command of the repository (exit 2, no stack trace)', async () => {
    const ran = await sh(bin(), ['generate', '--check'], consumer);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/development command/);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
  });
});

/**
 * The proxy guide's CI block, as written: the lines of its `run: |`, run by bash in the
 * consumer project, whose `npm test` calls GET /validate at API_BASE_URL with API_KEY (or a key
 * refused by the proxy's judgement, when asked to err). Only the ports are made free ones.
 */
describe("the proxy guide's CI block (docs/proxy.md), run as written", () => {
  const block = (() => {
    const readme = readFileSync(join(repo, 'docs', 'proxy.md'), 'utf8');
    const at = readme.indexOf('- name: Integration tests through the validating proxy');
    const lines = readme.slice(at).split('\n');
    const run = lines.findIndex((l) => l.trim() === 'run: |');
    const body: string[] = [];
    const indent = /^\s*/.exec(lines[run + 1]!)![0].length;
    for (const line of lines.slice(run + 1)) {
      if (line.startsWith('```') || (line.trim() !== '' && /^\s*/.exec(line)![0].length < indent)) break;
      body.push(line.slice(indent));
    }
    return body.join('\n');
  })();

  it.each([
    ['through npx, a client that errs: exit 1, the JUnit report names the problem', 'npx', 'Token', 1],
    ['without npx, a sound client: exit 0', 'bin', 'Bearer', 0],
  ] as const)('%s', async (_, how, scheme, want) => {
    expect(block).toContain('npx hosted-site-contract proxy');
    const dir = mkdtempSync(join(work, 'ci-'));
    const client = `fetch(process.env.API_BASE_URL + '/validate', { headers: { authorization: '${scheme} ' + process.env.API_KEY } }).then((r) => process.exit(r.status < 500 ? 0 : 1))`;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ci', private: true, type: 'module', scripts: { test: `node -e "${client.replace(/"/g, '\\"')}"` } }));
    symlinkSync(join(consumer, 'node_modules'), join(dir, 'node_modules'));
    const [mockPort, proxyPort] = [await freePort(), await freePort()];
    let script = block.replace(/4010/g, String(mockPort)).replace(/4011/g, String(proxyPort));
    if (how === 'bin') script = script.replace(/npx hosted-site-contract/g, './node_modules/.bin/hosted-site-contract');
    // The block's own shell, as a CI runner gives it (bash -e); its background mock ends with the group.
    const child = spawn('bash', ['-e', '-c', script], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // the group is gone already
    }
    expect(code, output).toBe(want);
    const junit = readFileSync(join(dir, 'contract.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites /);
    if (want === 1) expect(junit).toMatch(/type="AUTH-BEARER"/);
    else expect(junit).not.toMatch(/<failure /);
  }, 120_000);
});

/**
 * The docs' shell blocks and workflow steps that call the tool (scripts/doc-blocks.test-kit.ts),
 * run as written by bash -e in a project that installed the package; a mock started apart stands
 * in for the live API they name (its URL for `https://api.example.com/v2`, its site for
 * `<site uuid>`, its key for the secret or for what `read` reads), and the workflow's variables
 * for `${{ }}`. Each must end as the guide says: exit 0 against a conformant API, with the
 * reports it names written.
 */
describe("the docs' shell blocks and CI steps, run as written (a mock stands in for the live API)", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const standIn = (text: string) =>
    text
      .replaceAll(LIVE_API, mock.url)
      .replaceAll(SITE_PLACEHOLDER, mock.fixtures.siteId)
      .replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
        const value = { 'secrets.HSC_API_KEY': mock.fixtures.apiKey, 'vars.HSC_BASE_URL': mock.url, 'vars.HSC_SITE_ID': mock.fixtures.siteId }[name];
        if (value === undefined) throw new Error(`no stand-in for ${whole}`);
        return value;
      });

  /** A script in bash -e, in a folder of its own that sees the installed package, `stdin` fed. */
  async function bash(script: string, env: Record<string, string>, stdin: string): Promise<Ran & { dir: string }> {
    const dir = mkdtempSync(join(work, 'doc-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'doc', private: true, type: 'module' }));
    symlinkSync(join(consumer, 'node_modules'), join(dir, 'node_modules'));
    const child = spawn('bash', ['-e', '-c', script], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', HSC_API_KEY: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(stdin);
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code: code ?? -1, stdout, stderr, dir };
  }

  const outputs = (script: string) => [...script.matchAll(/--output\s+(\S+)/g)].map((m) => m[1]!.replace(/^"(.*)"$/, '$1'));

  it('the blocks are found: the live-API quick starts and both CI steps among them', () => {
    const here = blocksRunHere();
    expect(here.filter((b) => b.lang === 'sh').length).toBeGreaterThanOrEqual(3);
    expect(here.filter((b) => b.lang === 'yaml').map((b) => b.file)).toEqual(['README.md', 'docs/live-api.md']);
  });

  it.each(blocksRunHere().map((b) => [`${b.file}:${b.line} (${b.lang})`, b] as const))('%s', async (_, block: DocBlock) => {
    const runs =
      block.lang === 'sh'
        ? [{ script: block.text.replace(/^npm install hosted-site-contract\b/m, `npm install --no-audit --no-fund --prefer-offline ${tarball}`), env: {} as Record<string, string> }]
        : workflowSteps(block.text)
            .filter((s) => /hosted-site-contract conform\b/.test(s.run ?? ''))
            // A fragment's job variables (BASE_URL, SITE_ID) are the job's: the live API's.
            .map((s) => ({ script: s.run!, env: { BASE_URL: mock.url, SITE_ID: mock.fixtures.siteId, ...Object.fromEntries(Object.entries(s.env).map(([k, v]) => [k, standIn(v)])) } }))
            // A CI step runs the same without npx, from the project's own bin.
            .flatMap((r) => [r, { ...r, script: r.script.replace(/npx (--no-install )?hosted-site-contract/g, './node_modules/.bin/hosted-site-contract') }]);
    expect(runs.length).toBeGreaterThan(0);
    for (const { script, env } of runs) {
      // A block that reads the key reads it from the terminal (stdin here); any other finds it set.
      const reads = /\bread -rs HSC_API_KEY\b/.test(script);
      const ran = await bash(standIn(script), reads ? env : { HSC_API_KEY: mock.fixtures.apiKey, ...env }, `${mock.fixtures.apiKey}\n`);
      const said = `${script}\n--- exit ${ran.code}\n${ran.stdout}\n${ran.stderr}`;
      expect(ran.code, said).toBe(0);
      expect(ran.stdout + ran.stderr, said).toMatch(/✓ conforms on \d+ of \d+ checks/);
      for (const file of outputs(script)) expect(readFileSync(join(ran.dir, file), 'utf8'), file).toMatch(/^<\?xml|^\{/);
    }
  }, 240_000);

  it("the library guide's vitest example passes in a project that installed the package (docs/library.md)", async () => {
    const example = docBlocks().find((b) => b.file === 'docs/library.md' && b.lang === 'ts' && b.text.includes("from 'vitest'"))!;
    const dir = mkdtempSync(join(work, 'doc-vitest-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'doc-vitest', private: true, type: 'module' }));
    mkdirSync(join(dir, 'node_modules'));
    // The package as installed, and the test runner the project would have.
    symlinkSync(join(consumer, 'node_modules', pkg.name), join(dir, 'node_modules', pkg.name));
    symlinkSync(join(repo, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'));
    writeFileSync(join(dir, 'contract.test.ts'), example.text);
    const ran = await sh(process.execPath, [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--reporter', 'verbose'], dir);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/2 passed/);
  }, 120_000);

  it("the library guide's client example compiles and runs against the API (docs/library.md)", async () => {
    const example = docBlocks().find((b) => b.file === 'docs/library.md' && b.lang === 'ts' && b.text.includes("from 'hosted-site-contract/client'"))!;
    const dir = mkdtempSync(join(work, 'doc-ts-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'doc-ts', private: true, type: 'module' }));
    symlinkSync(join(consumer, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'example.ts'), standIn(example.text));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, outDir: 'out', types: ['node'], typeRoots: [join(repo, 'node_modules', '@types')] }, files: ['example.ts'] }),
    );
    const tsc = await sh(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], dir);
    expect(tsc.stdout + tsc.stderr, 'tsc').toBe('');
    const ran = await sh(process.execPath, ['out/example.js'], dir, { HSC_API_KEY: mock.fixtures.apiKey });
    expect(ran.code, ran.stderr).toBe(0);
    // The acknowledged operation, then the ApiError of an unknown site: 404 with the API's reason.
    expect(ran.stdout.trim()).toMatch(/^environment:run-wp-cli-command-[0-9a-f-]{36} 404 \S/);
  }, 120_000);
});

/** A port free on loopback now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the library from a consumer project', () => {
  it('plain JS (ESM, no loader) imports the client and the mock, reads a site and gets an acknowledgement', async () => {
    writeFileSync(
      join(consumer, 'use.mjs'),
      `import { HostedSiteClient } from '${pkg.name}/client';
import { startMock } from '${pkg.name}/mock';
import { api } from '${pkg.name}';
const mock = await startMock({ port: 0 });
try {
  const client = new HostedSiteClient({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, validateResponses: true });
  const { site } = await client.getSite({ site_id: mock.fixtures.siteId });
  const { site: { environments } } = await client.listEnvironments({ site_id: site.id });
  const ack = await client.runWpCliCommand({ env_id: environments[0].id }, { wp_command: 'wp plugin list' });
  console.log(JSON.stringify({ site: site.id, operation: ack.operation_id, endpoints: api.endpoints.length }));
} finally {
  await mock.close();
}
`,
    );
    const ran = await sh(process.execPath, ['use.mjs'], consumer);
    expect(ran.code, ran.stderr).toBe(0);
    const out = JSON.parse(ran.stdout) as { site: string; operation: string; endpoints: number };
    expect(out.operation).toMatch(/^environment:run-wp-cli-command-[0-9a-f-]{36}$/);
    expect(out.site).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.endpoints).toBe(27);
  });

  it.each([
    ['nodenext', 'nodenext'],
    ['node16', 'node16'],
    ['esnext', 'bundler'],
  ])('TypeScript (module %s, moduleResolution %s, library checks on) type-checks the typed client, and a wrong body does not compile', async (module, moduleResolution) => {
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module,
          moduleResolution,
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules', '@types')],
        },
        include: ['*.ts'],
      }),
    );
    const consumerTs = (wrong: string) => `import { ApiError, HostedSiteClient } from '${pkg.name}/client';
import type { GetSiteResponse } from '${pkg.name}/types';
import { validateSite } from '${pkg.name}/validators';
import { startMock } from '${pkg.name}/mock';
import { api, conform, startProxy, type ConformReport, type Model, type ProxyReport } from '${pkg.name}';
const mock = await startMock({ port: 0 });
const client = new HostedSiteClient({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey });
const answer: GetSiteResponse = await client.getSite({ site_id: mock.fixtures.siteId });
const valid: boolean = validateSite(answer.site);
const first: Model.Endpoint | undefined = api.endpoints[0];
const run = await conform({ baseUrl: mock.url, siteId: mock.fixtures.siteId, apiKey: mock.fixtures.apiKey, only: ['AUTH-401'], runs: 2, allowDestructive: true });
const report: ConformReport = run.report;
const failed: number = report.summary.failed;
const proxy = await startProxy({ target: mock.url, failOn: 'server' });
const judged: ProxyReport = (await proxy.close()).report;
export const used = [valid, first, ApiError, failed, judged.exchanges];
${wrong}
await mock.close();
`;
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    // A body with a wrong field type and a missing required field: the compiler must refuse it.
    writeFileSync(join(consumer, 'use.ts'), consumerTs(`await client.clearCdnCache({ environment_id: 42 });`));
    const wrong = await sh(process.execPath, [tsc, '-p', '.'], consumer);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(/use\.ts\(17,/);
    expect(wrong.stdout.split('\n').filter((l) => /error TS/.test(l) && !/^use\.ts\(17,/.test(l))).toEqual([]);

    writeFileSync(join(consumer, 'use.ts'), consumerTs(`await client.clearCdnCache({ environment_id: '${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}', cdn_cache_id: 'x' });`));
    const right = await sh(process.execPath, [tsc, '-p', '.'], consumer);
    expect(right.stdout + right.stderr).toBe('');
    expect(right.code).toBe(0);
  });
});
