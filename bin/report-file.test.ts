/**
 * Report files the user names (issue 21): created 0600, an existing one made 0600, never written
 * through a symbolic link. The helper on its own, then every command that writes such a file, as a
 * user runs it: the same two cases for each.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue } from '../mock/variants/index.ts';
import { HARD_LINK_REFUSED, probeReportFile, REPORT_FILE_MODE, ReportFileRefused, reportFileProblem, SYMLINK_REFUSED, writeReportFile } from './report-file.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const modeOf = (path: string) => statSync(path).mode & 0o777;
const TARGET_TEXT = 'the file a link points at\n';
/** Another user's ids, for the tests root can run (nobody). */
const OTHER_ID = 65534;
const asRoot = process.geteuid?.() === 0;

let dir: string;
let n = 0;
/** A fresh path in the test's folder. */
const fresh = (name = 'report.json') => join(dir, `${++n}-${name}`);
/** A 0644 file holding TARGET_TEXT and a link to it: what a refusal must leave as it was. */
function linkToTarget(): { link: string; target: string } {
  const target = fresh('target.txt');
  writeFileSync(target, TARGET_TEXT);
  chmodSync(target, 0o644);
  const link = fresh('link.json');
  symlinkSync(target, link);
  return { link, target };
}
function expectUntouched({ link, target }: { link: string; target: string }): void {
  expect(readFileSync(target, 'utf8')).toBe(TARGET_TEXT);
  expect(modeOf(target)).toBe(0o644);
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hsc-report-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeReportFile', () => {
  it('creates a new file 0600 holding the text', async () => {
    const path = fresh();
    await writeReportFile(path, 'report\n');
    expect(readFileSync(path, 'utf8')).toBe('report\n');
    expect(modeOf(path)).toBe(REPORT_FILE_MODE);
  });

  it('makes an existing 0644 file 0600 and replaces all of its content', async () => {
    const path = fresh();
    writeFileSync(path, 'a longer report from an earlier run\n');
    chmodSync(path, 0o644);
    await writeReportFile(path, 'short\n');
    expect(readFileSync(path, 'utf8')).toBe('short\n');
    expect(modeOf(path)).toBe(REPORT_FILE_MODE);
  });

  it('refuses a symbolic link, leaving the file it points at as it was', async () => {
    const paths = linkToTarget();
    const refused = await writeReportFile(paths.link, 'report\n').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ReportFileRefused);
    expect(reportFileProblem(refused)).toBe(SYMLINK_REFUSED);
    expectUntouched(paths);
  });

  it('refuses a dangling symbolic link, creating nothing where it points', async () => {
    const link = fresh('dangling.json');
    const target = fresh('not-there.json');
    symlinkSync(target, link);
    await expect(writeReportFile(link, 'report\n')).rejects.toThrow(SYMLINK_REFUSED);
    expect(lstatSync(target, { throwIfNoEntry: false })).toBeUndefined();
  });

  it('writes to a device without changing its mode', async () => {
    const before = statSync('/dev/null').mode;
    await writeReportFile('/dev/null', 'report\n');
    expect(statSync('/dev/null').mode).toBe(before);
  });

  it('leaves the report its writer\'s own, also where another user\'s file was (which only root can write)', async () => {
    const path = fresh();
    writeFileSync(path, 'an earlier report\n');
    if (asRoot) chownSync(path, OTHER_ID, OTHER_ID);
    await writeReportFile(path, 'report\n');
    expect(statSync(path).uid).toBe(process.geteuid?.());
  });

  it.runIf(asRoot)('as root, takes another user\'s file over before writing: that user can no longer read the report', async () => {
    const path = fresh();
    writeFileSync(path, 'an earlier report\n');
    chmodSync(path, 0o644);
    chownSync(path, OTHER_ID, OTHER_ID);
    await writeReportFile(path, 'report\n');
    const after = statSync(path);
    expect([after.uid, after.gid]).toEqual([process.geteuid!(), process.getegid!()]);
    expect(after.mode & 0o777).toBe(REPORT_FILE_MODE);
    expect(readFileSync(path, 'utf8')).toBe('report\n');
  });

  it.runIf(asRoot)("as root, refuses another user's file with a second name (a hard link), untouched", async () => {
    const path = fresh();
    writeFileSync(path, 'theirs\n');
    chownSync(path, OTHER_ID, OTHER_ID);
    linkSync(path, `${path}.link`);
    await expect(writeReportFile(path, 'report\n')).rejects.toThrow(HARD_LINK_REFUSED);
    expect([statSync(path).uid, readFileSync(path, 'utf8')]).toEqual([OTHER_ID, 'theirs\n']);
  });

  it.runIf(asRoot)('as another user, refuses a file it may write but not own, leaving it untouched rather than emptied', async () => {
    // The other user must reach the file (the test's folder is root's, 0700: opened to pass
    // through) and may write it, so only the change of owner stands between it and the report.
    const reachable = join(dir, `${++n}-reachable`);
    mkdirSync(reachable, { mode: 0o755 });
    chmodSync(dir, 0o711);
    const path = join(reachable, 'report.json');
    writeFileSync(path, 'root\'s earlier report\n');
    chmodSync(path, 0o666);
    const run = await cli(['diff', '--from', 'generated/contract.json', '--to', 'generated/contract.json', '--format', 'json', '--output', path], { uid: OTHER_ID, gid: OTHER_ID });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('EPERM');
    expect(readFileSync(path, 'utf8')).toBe('root\'s earlier report\n');
    expect([statSync(path).uid, modeOf(path)]).toEqual([0, 0o666]);
  });
});

describe('probeReportFile (the check before a run)', () => {
  it('leaves no file behind where none was', () => {
    const path = fresh();
    probeReportFile(path);
    expect(lstatSync(path, { throwIfNoEntry: false })).toBeUndefined();
  });

  it('changes nothing of an existing file', () => {
    const path = fresh();
    writeFileSync(path, 'kept\n');
    chmodSync(path, 0o644);
    probeReportFile(path);
    expect(readFileSync(path, 'utf8')).toBe('kept\n');
    expect(modeOf(path)).toBe(0o644);
  });

  it('refuses a symbolic link, leaving the file it points at as it was', () => {
    const paths = linkToTarget();
    expect(() => probeReportFile(paths.link)).toThrow(ReportFileRefused);
    expectUntouched(paths);
  });

  it('says the system\'s code for a folder that does not exist', () => {
    let problem = '';
    try {
      probeReportFile(join(dir, 'no-such-folder', 'report.json'));
    } catch (error) {
      problem = reportFileProblem(error);
    }
    expect(problem).toBe('ENOENT');
  });
});

function cli(args: readonly string[], as: { uid?: number; gid?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/hosted-site-contract.js', ...args], { cwd: root, env: { PATH: process.env.PATH }, ...as }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** Every command that writes a file the user names, each run its fastest way. */
const commands: readonly [string, { args: (file: string) => string[] }][] = [
  ['conform --output', { args: (file) => ['conform', '--only', 'AUTH-401', '--runs', '1', '--reporter', 'json', '--output', file] }],
  ['diff --output', { args: (file) => ['diff', '--from', 'generated/contract.json', '--to', 'generated/contract.json', '--format', 'json', '--output', file] }],
  // Shard 2 of a single variant is empty: the report is written at once, nothing run.
  ['self-test --json', { args: (file) => ['self-test', '--only', catalogue[0]!.name, '--shard', '2/2', '--json', file] }],
];

describe.each(commands)('%s', (_, { args }) => {
  it('leaves the report 0600, also where a 0644 file was', async () => {
    const path = fresh();
    writeFileSync(path, 'an earlier report\n');
    chmodSync(path, 0o644);
    const run = await cli(args(path));
    expect(run.code, run.stderr).toBe(0);
    expect(modeOf(path)).toBe(REPORT_FILE_MODE);
    expect(typeof JSON.parse(readFileSync(path, 'utf8'))).toBe('object');
  });

  it('refuses a symbolic link at the path: exit 2, one line, the link\'s target untouched', async () => {
    const paths = linkToTarget();
    const run = await cli(args(paths.link));
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(SYMLINK_REFUSED);
    expectUntouched(paths);
  });
});
