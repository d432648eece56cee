/**
 * `hosted-site-contract diff` as a user runs it: snapshots from files and from git refs (a
 * temporary repository, cloned fresh), the three formats, `--output`, `--fail-on`, and one-line
 * errors with exit 2 for what it cannot use.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupError, UsageError } from '../bin/command.ts';
import { wellFormed } from '../conformance/report/well-formed.ts';
import { keySecret, Sanitizer } from '../sanitize/sanitizer.ts';
import { api } from '../spec/api.ts';
import { contractOf } from '../spec/contract.ts';
import type { Api } from '../spec/model.ts';
import { runDiff } from './cli.ts';
import { FAIL_ON } from './flags.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'generated/contract-diff.schema.json'), 'utf8')) as Record<string, unknown>;

type Model = { -readonly [K in keyof Api]: any };
const edit = (change: (model: Model) => void): string => {
  const model = JSON.parse(JSON.stringify(api)) as Model;
  change(model);
  return `${JSON.stringify(contractOf(model as unknown as Api), null, 2)}\n`;
};

let dir: string;
const file = (name: string) => join(dir, name);
const siteField = (m: Model) => m.resources.find((r: { name: string }) => r.name === 'Site').fields;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hsc-diff-'));
  writeFileSync(file('before.json'), readFileSync(join(root, 'generated/contract.json'), 'utf8'));
  // A response field removed: client-breaking only.
  writeFileSync(file('client.json'), edit((m) => siteField(m).splice(1, 1)));
  // An error status added where no rule turns on it: compatible only.
  writeFileSync(file('compatible.json'), edit((m) => m.endpoints.find((e: { name: string }) => e.name === 'getSftpPassword').errors.push(500)));
  // Several kinds at once, for the formats.
  writeFileSync(
    file('many.json'),
    edit((m) => {
      siteField(m).splice(1, 1);
      m.endpoints.find((e: { name: string }) => e.name === 'getSftpPassword').errors.push(500);
      m.endpoints.find((e: { name: string }) => e.name === 'resetSite').deprecated = { cite: { section: 'Versioning' }, replacement: 'UNK-EVENTS' };
      m.unknowns.pop();
      m.rules.push({ id: 'NEW-RULE', title: 'A <new> & "quoted" rule', statement: 'x', cite: { section: 'Errors' }, scope: 'acks' });
    }),
  );
  writeFileSync(file('not-json.json'), '{ "format": ');
  writeFileSync(file('other.json'), '{"openapi": "3.1.0"}');
  const scopeNull = JSON.parse(readFileSync(file('before.json'), 'utf8'));
  scopeNull.rules[0].scope = null;
  writeFileSync(file('scope-null.json'), JSON.stringify(scopeNull));
  writeFileSync(file('huge.json'), '');
  truncateSync(file('huge.json'), 40 * 1024 * 1024); // sparse: no 40 MB written
  writeFileSync(file('broken.json'), JSON.stringify({ ...JSON.parse(readFileSync(file('before.json'), 'utf8')), endpoints: [{ operation: 'GET /x' }] }));
  const duplicated = JSON.parse(readFileSync(file('before.json'), 'utf8'));
  duplicated.endpoints.push(duplicated.endpoints[3]);
  writeFileSync(file('duplicated.json'), JSON.stringify(duplicated));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (chunks.push(String(chunk)), done()) }) as Writable & { text: () => string };
  stream.text = () => chunks.join('');
  return stream;
}

async function diff(args: readonly string[], sanitizer?: Sanitizer) {
  const stdout = sink();
  const stderr = sink();
  const code = await runDiff(args, { stdout, stderr, cwd: dir, ...(sanitizer ? { sanitizer } : {}) });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('diff between files', () => {
  it('of a snapshot with itself: no changes, exit 0 even with --fail-on any', async () => {
    const run = await diff(['--from', 'before.json', '--to', 'before.json', '--fail-on', 'any']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/no contract changes/);
    expect(run.stdout).not.toMatch(/^\|/m);
  });

  it('markdown: a heading, the summary line, then a table per class naming the change', async () => {
    const run = await diff(['--from', 'before.json', '--to', 'client.json']);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`## Contract diff: ${api.specVersion} (before.json) → ${api.specVersion} (client.json)`);
    expect(lines[2]).toBe('**1 change: 1 client-breaking**');
    expect(run.stdout).toMatch(/^### Client-breaking.*\(1\)$/m);
    expect(run.stdout).not.toMatch(/^### Server-breaking/m);
    const row = lines.find((l) => l.startsWith('| `Site.name`'));
    expect(row, run.stdout).toBeDefined();
    expect(row).toContain('GET /sites/{site_id}');
    expect(row).toContain('Resources and fields > Site');
  });

  it('--fail-on client-breaking: exit 1 when there is one, 0 when there is none', async () => {
    expect((await diff(['--from', 'before.json', '--to', 'client.json', '--fail-on', 'client-breaking'])).code).toBe(1);
    expect((await diff(['--from', 'before.json', '--to', 'compatible.json', '--fail-on', 'client-breaking'])).code).toBe(0);
    expect((await diff(['--from', 'before.json', '--to', 'client.json', '--fail-on', 'server-breaking'])).code).toBe(0);
    const any = await diff(['--from', 'before.json', '--to', 'client.json', '--fail-on', 'any']);
    expect(any.code).toBe(1);
    expect(any.stderr).toMatch(/1 breaking change \(--fail-on any\)/);
  });

  it('json: valid against generated/contract-diff.schema.json, counts agreeing with the changes', async () => {
    const run = await diff(['--from', 'before.json', '--to', 'many.json', '--format', 'json']);
    const report = JSON.parse(run.stdout) as { counts: Record<string, number>; changes: { classes: string[] }[] };
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.counts.total).toBe(report.changes.length);
    expect(report.changes.length).toBeGreaterThanOrEqual(5);
    for (const c of ['client-breaking', 'server-breaking', 'deprecated', 'knowledge', 'compatible']) {
      expect(report.counts[c], c).toBe(report.changes.filter((x) => x.classes.includes(c)).length);
      expect(report.counts[c], c).toBeGreaterThan(0);
    }
    // Schema and engine agree on what a change is: the schema refuses a class it does not know.
    const [first] = report.changes;
    expect(validate({ ...report, changes: [{ ...first, classes: ['harmless'] }] })).toBe(false);
  });

  it('junit: well-formed, one failed testcase per breaking change, no skipped attribute on <testsuites>', async () => {
    const json = JSON.parse((await diff(['--from', 'before.json', '--to', 'many.json', '--format', 'json'])).stdout) as { changes: { classes: string[] }[] };
    const breaking = json.changes.filter((c) => c.classes.includes('client-breaking') || c.classes.includes('server-breaking')).length;
    const xml = (await diff(['--from', 'before.json', '--to', 'many.json', '--format', 'junit'])).stdout;
    expect(wellFormed(xml)).toEqual([]);
    expect(xml.match(/<testcase /g)).toHaveLength(breaking);
    expect(xml.match(/<failure /g)).toHaveLength(breaking);
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${breaking}" failures="${breaking}"`));
    expect(/<testsuites [^>]*skipped=/.test(xml)).toBe(false);
    expect(xml).toContain('A &lt;new&gt; &amp; &quot;quoted&quot; rule');
  });

  it('junit with --fail-on: only changes of that class are failed testcases', async () => {
    const json = JSON.parse((await diff(['--from', 'before.json', '--to', 'many.json', '--format', 'json'])).stdout) as { changes: { classes: string[] }[] };
    const client = json.changes.filter((c) => c.classes.includes('client-breaking')).length;
    const serverOnly = json.changes.filter((c) => c.classes.includes('server-breaking') && !c.classes.includes('client-breaking')).length;
    expect(serverOnly).toBeGreaterThan(0);
    const xml = (await diff(['--from', 'before.json', '--to', 'many.json', '--format', 'junit', '--fail-on', 'client-breaking'])).stdout;
    expect(wellFormed(xml)).toEqual([]);
    expect(xml.match(/<failure /g)).toHaveLength(client);
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*failures="${client}"`));
  });

  it('junit without a breaking change: one passing testcase, so CI sees a result', async () => {
    const xml = (await diff(['--from', 'before.json', '--to', 'compatible.json', '--format', 'junit'])).stdout;
    expect(wellFormed(xml)).toEqual([]);
    expect(xml.match(/<testcase /g)).toHaveLength(1);
    expect(xml).not.toContain('<failure');
  });

  it('--output FILE: the report goes there, a line on stderr, nothing on stdout', async () => {
    const run = await diff(['--from', 'before.json', '--to', 'client.json', '--output', 'out.md']);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/1 change: 1 client-breaking; markdown report written to out\.md/);
    expect(readFileSync(file('out.md'), 'utf8')).toMatch(/^## Contract diff/);
  });

  it('passes everything it writes through the sanitizer', async () => {
    const key = 'hsc_live_4f9a2b7c1d8e3f6a5b0c9d2e7f1a4b8c';
    writeFileSync(file('secret.json'), edit((m) => (m.unknowns[0].what = `leaked ${key}`)));
    const run = await diff(['--from', 'before.json', '--to', 'secret.json'], new Sanitizer([keySecret(key, 'HSC_API_KEY')]));
    expect(run.stdout).toMatch(/UNK-HIDDEN-GROUPS/);
    expect(run.stdout).not.toContain(key);
  });

  it.each([
    ['no --from', [], UsageError, /--from REF\|FILE is required/],
    ['an unknown format', ['--from', 'before.json', '--format', 'html'], UsageError, /--format must be one of markdown, json, junit/],
    ['an unknown --fail-on', ['--from', 'before.json', '--fail-on', 'all'], UsageError, /--fail-on must be one of/],
    ['a file that is not JSON', ['--from', 'not-json.json'], SetupError, /not-json\.json is not a valid contract snapshot: not JSON/],
    ['JSON that is no snapshot', ['--from', 'other.json'], SetupError, /other\.json is not a valid contract snapshot: format: must be/],
    ['a rule scope null', ['--from', 'scope-null.json'], SetupError, /scope-null\.json is not a valid contract snapshot: rules\[0\]\.scope: must be one of/],
    ['a file past the size cap', ['--from', 'huge.json'], SetupError, /^huge\.json is not a valid contract snapshot: larger than 32 MB$/],
    ['a snapshot missing parts', ['--from', 'broken.json'], SetupError, /broken\.json is not a valid contract snapshot: endpoints\[0\]\.name: must be a string/],
    ['a hand-edited --to with an endpoint twice', ['--from', 'before.json', '--to', 'duplicated.json'], SetupError, /^duplicated\.json is not a valid contract snapshot: endpoints\[\d+\]\.operation: operation "[^"]+" is given twice \(first at endpoints\[3\]\)$/],
    ['a directory, not a snapshot file', ['--from', '.'], SetupError, /^\. is a directory, not a snapshot file/],
  ] as const)('refuses %s', async (_, args, kind, message) => {
    const failure = await diff((args as readonly string[]).includes('--to') ? args : [...args, '--to', 'before.json']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(kind);
    expect((failure as Error).message).toMatch(message);
  });
});

describe('the default --to in a clone whose snapshot is stale', () => {
  let repository: string;
  const place = (snapshot: string, withSources = true) => {
    repository = mkdtempSync(join(tmpdir(), 'hsc-diff-stale-'));
    execFileSync('git', ['init', '-q'], { cwd: repository, stdio: 'ignore' });
    mkdirSync(join(repository, 'generated'));
    writeFileSync(join(repository, 'generated/contract.json'), readFileSync(file(snapshot)));
    // The model's sources, as a clone holds them (the installed package does not); this test's
    // process runs the model of this repository, which the stand-in clone's snapshot is held against.
    if (withSources) {
      mkdirSync(join(repository, 'spec'));
      writeFileSync(join(repository, 'spec/contract.ts'), '');
    }
  };
  afterAll(() => rmSync(repository, { recursive: true, force: true }));
  const run = async (args: readonly string[]) => {
    const [stdout, stderr] = [sink(), sink()];
    const code = await runDiff(args, { stdout, stderr, cwd: repository, packageRoot: repository });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  };

  it.each([
    ['the model edited, not regenerated: one warning line, and the diff still runs', 'client.json', true, [], 0, true],
    ['the snapshot the model writes: no warning, and --fail-on judges it', 'before.json', true, ['--fail-on', 'any'], 0, false],
    ['no model sources (the installed package): no warning, and --fail-on judges what it has', 'client.json', false, ['--fail-on', 'client-breaking'], 1, false],
    ['--to given: what it names is compared, no warning, and --fail-on judges it', 'client.json', true, ['--to', 'generated/contract.json', '--fail-on', 'client-breaking'], 1, false],
  ] as const)('%s', async (_, snapshot, withSources, more, code, warned) => {
    place(snapshot, withSources);
    const ran = await run(['--from', file('before.json'), ...more]);
    expect(ran.code).toBe(code);
    expect(ran.stdout).toMatch(/^## Contract diff/);
    const warnings = ran.stderr.split('\n').filter((l) => /stale/.test(l));
    expect(warnings).toEqual(warned ? ['hosted-site-contract diff: warning: generated/contract.json is stale (the model in spec/ would write another snapshot); run npm run generate, then diff again'] : []);
    rmSync(repository, { recursive: true, force: true });
  });

  // The case: the snapshot still equals --from, so it shows no change, though the model moved.
  it.each(FAIL_ON)('the model edited, not regenerated, with --fail-on %s: exit 2 naming npm run generate, never a pass', async (failOn) => {
    place('client.json');
    const [stdout, stderr] = [sink(), sink()];
    const failure = await runDiff(['--from', file('client.json'), '--fail-on', failOn], { stdout, stderr, cwd: repository, packageRoot: repository }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SetupError);
    expect((failure as Error).message).toBe(
      `generated/contract.json is stale (the model in spec/ would write another snapshot); run npm run generate, then diff again (--fail-on ${failOn} cannot judge model edits the snapshot does not hold)`,
    );
    expect(stdout.text()).toBe('');
    expect(stderr.text()).toBe('');
    rmSync(repository, { recursive: true, force: true });
  });
});

/** The CLI as a process, from `cwd`. */
function cli(args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/hosted-site-contract.js'), 'diff', ...args], { cwd, env: { PATH: process.env.PATH } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe('diff between git refs, in a fresh clone', () => {
  let origin: string;
  let clone: string;
  let shallow: string;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe' });

  beforeAll(() => {
    origin = mkdtempSync(join(tmpdir(), 'hsc-diff-origin-'));
    git(origin, 'init', '-q');
    writeFileSync(join(origin, 'README'), 'before any snapshot\n');
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'no snapshot yet');
    mkdirSync(join(origin, 'generated'));
    writeFileSync(join(origin, 'generated/contract.json'), readFileSync(file('before.json')));
    git(origin, 'add', '.');
    git(origin, 'commit', '-qm', 'snapshot');
    writeFileSync(join(origin, 'generated/contract.json'), readFileSync(file('client.json')));
    git(origin, 'commit', '-qam', 'a model change');
    // A branch whose snapshot is past the size cap (sparse: no 40 MB written, git compresses the zeros).
    git(origin, 'checkout', '-qb', 'huge');
    truncateSync(join(origin, 'generated/contract.json'), 40 * 1024 * 1024);
    git(origin, 'commit', '-qam', 'a snapshot too large');
    git(origin, 'checkout', '-q', 'main');
    clone = mkdtempSync(join(tmpdir(), 'hsc-diff-clone-'));
    git(clone, 'clone', '-q', origin, '.');
    // A branch named like a directory of the working tree: the ref is what --from means.
    git(clone, 'branch', 'snapshots', 'HEAD~1');
    mkdirSync(join(clone, 'snapshots'));
    shallow = mkdtempSync(join(tmpdir(), 'hsc-diff-shallow-'));
    git(shallow, 'clone', '-q', '--depth', '1', pathToFileURL(origin).href, '.');
  });
  afterAll(() => {
    for (const d of [origin, clone, shallow]) rmSync(d, { recursive: true, force: true });
  });

  it('diff --from HEAD~1 compares with the working tree; --fail-on client-breaking exits 1', async () => {
    const run = await cli(['--from', 'HEAD~1', '--fail-on', 'client-breaking'], clone);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/\(HEAD~1\) → .* \(working tree\)/);
    expect(run.stdout).toMatch(/^\| `Site\.name`/m);
    expect(run.stderr).toMatch(/1 client-breaking change \(--fail-on client-breaking\)/);
  });

  it('a ref named like a directory of the working tree: the ref is read', async () => {
    const run = await cli(['--from', 'snapshots', '--format', 'json'], clone);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).from.source).toBe('snapshots');
  });

  it('an unknown ref in a full clone: no shallow hint', async () => {
    const run = await cli(['--from', 'no-such-branch'], clone);
    expect(run.stderr).not.toMatch(/shallow/);
  });

  it('diff --from HEAD --to HEAD: nothing changed, --fail-on any exits 0', async () => {
    const run = await cli(['--from', 'HEAD', '--to', 'HEAD', '--fail-on', 'any', '--format', 'json'], clone);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).counts.total).toBe(0);
  });

  it.each([
    ['an unknown ref', ['--from', 'no-such-branch'], /unknown git ref no-such-branch/],
    ['a ref without the snapshot', ['--from', 'HEAD~2'], /git ref HEAD~2 holds no generated\/contract\.json/],
    ['a ref that reads as an option', ['--from=--output=x'], /--output=x is not a git ref/],
    ['--from given twice', ['--from', 'HEAD', '--from', 'HEAD~1'], /--from given more than once/],
    ['a directory that is no ref', ['--from', 'generated'], /^hosted-site-contract diff: generated is a directory, not a snapshot file \(give a generated\/contract\.json\), and not a git ref$/m],
    ['a directory outside the repository', ['--from', tmpdir()], /is a directory, not a snapshot file/],
    ['a ref whose snapshot is past the size cap', ['--from', 'origin/huge'], /^hosted-site-contract diff: git ref origin\/huge holds generated\/contract\.json, but it is not a valid contract snapshot: larger than 32 MB$/m],
    ['HEAD~1 in a shallow clone: a hint to fetch more history', ['--from', 'HEAD~1'], /unknown git ref HEAD~1 \(and no such file\); this clone is shallow: fetch more history \(git fetch --unshallow, or fetch-depth: 0 with actions\/checkout\)$/m, () => shallow],
  ] as [string, string[], RegExp, (() => string)?][])('%s: one line, exit 2', async (_, args, message, where) => {
    const run = await cli(args, where?.() ?? clone);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});
