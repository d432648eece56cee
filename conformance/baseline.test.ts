/**
 * A baseline over real runs of the embedded mock: written from a faulty run, it turns that run
 * green and lists its findings as known; a new fault still fails the run while the entries it no
 * longer meets are named fixed; the same fault under another seed has the same fingerprints; a
 * file that is not a baseline stops the run with one line (exit 2).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_FORMAT, fingerprint, type BaselineFile } from './baseline.ts';
import { runConform } from './cli.ts';
import { renderConsole } from './report/console.ts';
import { renderCtrf } from './report/ctrf.ts';
import { renderGithub } from './report/github.ts';
import { renderJunit } from './report/junit.ts';
import type { Report } from './types.ts';

const dir = mkdtempSync(join(tmpdir(), 'hsc-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const baselineFile = join(dir, 'baseline.json');

/** ERR-BODY's fault, and one of another rule: the only rules these runs judge. */
const FAULT = 'error-body-without-message';
const OTHER_FAULT = 'validated-key-expiry-number';
const ONLY = ['--only', 'ERR-BODY,RESPONSE-SCHEMA', '--runs', '5'];

async function conform(args: readonly string[]): Promise<{ code: number; report: Report; stderr: string }> {
  let out = '';
  let err = '';
  const sink = (add: (t: string) => void) => new Writable({ write: (chunk: Buffer, _e, done) => (add(chunk.toString('utf8')), done()) });
  const code = await runConform([...args, ...ONLY, '--reporter', 'json'], { stdout: sink((t) => (out += t)), stderr: sink((t) => (err += t)), env: {} });
  return { code, report: out ? (JSON.parse(out) as Report) : (undefined as never), stderr: err };
}

const runs = {} as Record<'written' | 'known' | 'otherSeed' | 'newFault' | 'fixed', Awaited<ReturnType<typeof conform>>>;
beforeAll(async () => {
  runs.written = await conform(['--mock-variant', FAULT, '--write-baseline', baselineFile]);
  runs.known = await conform(['--mock-variant', FAULT, '--baseline', baselineFile]);
  runs.otherSeed = await conform(['--mock-variant', FAULT, '--seed', '99']);
  runs.newFault = await conform(['--mock-variant', OTHER_FAULT, '--baseline', baselineFile]);
  runs.fixed = await conform(['--baseline', baselineFile]);
}, 120_000);

describe('--write-baseline', () => {
  it("writes the run's findings, each with its fingerprint and a reason, and judges the run against them (exit 0)", () => {
    const file = JSON.parse(readFileSync(baselineFile, 'utf8')) as BaselineFile;
    expect(file.format).toBe(BASELINE_FORMAT);
    expect(file.findings.length).toBeGreaterThan(0);
    expect(file.findings.map((e) => e.fingerprint)).toEqual([...new Set(runs.written.report.failures.map(fingerprint))]);
    for (const e of file.findings) expect(e.reason.length).toBeGreaterThan(0);
    expect(runs.written.code).toBe(0);
    expect(runs.written.stderr).toMatch(new RegExp(`baseline of ${file.findings.length} findings? written to `));
  });
});

describe('--baseline', () => {
  it('turns the faulty run green, listing every finding as known with its reason, none hidden', () => {
    const { code, report } = runs.known;
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.failures.length).toBeGreaterThan(0);
    expect(report.failures.every((f) => typeof f.known === 'string' && f.known.length > 0)).toBe(true);
    expect(report.baseline).toMatchObject({ known: report.failures.length, new: 0, gone: [] });
    expect(report.checks.filter((c) => c.outcome === 'failed').every((c) => c.known === true)).toBe(true);
  });

  it('fingerprints hold nothing a run draws: the same fault under another seed shows the same ones', () => {
    expect(runs.otherSeed.code).toBe(1);
    expect(new Set(runs.otherSeed.report.failures.map(fingerprint))).toEqual(new Set(runs.known.report.failures.map(fingerprint)));
  });

  it('a new fault still fails the run (exit 1), and the entries it no longer meets are named fixed', () => {
    const { code, report } = runs.newFault;
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.baseline!.new).toBeGreaterThan(0);
    expect(report.failures.some((f) => f.known === undefined && f.rules.includes('RESPONSE-SCHEMA'))).toBe(true);
    expect(report.baseline!.gone).toEqual(runs.known.report.failures.map(fingerprint));
  });

  it('against a conforming target: exit 0, every entry fixed', () => {
    expect(runs.fixed.code).toBe(0);
    expect(runs.fixed.report.baseline).toMatchObject({ known: 0, new: 0, notJudged: [] });
    expect(runs.fixed.report.baseline!.gone.length).toBe(runs.known.report.failures.length);
  });

  it('rewritten by a narrowed run, it keeps the entries that run did not judge (never calls them fixed)', async () => {
    const rewritten = join(dir, 'rewritten.json');
    const sink = new Writable({ write: (_c, _e, d) => d() });
    const code = await runConform(['--only', 'AUTH-401', '--runs', '3', '--baseline', baselineFile, '--write-baseline', rewritten, '--reporter', 'json'], { stdout: sink, stderr: sink, env: {} });
    expect(code).toBe(0);
    const before = (JSON.parse(readFileSync(baselineFile, 'utf8')) as BaselineFile).findings;
    expect((JSON.parse(readFileSync(rewritten, 'utf8')) as BaselineFile).findings).toEqual(before);
  });

  it.each([
    ['not JSON', 'nope', /--baseline: .* is not JSON/],
    ['not a baseline', JSON.stringify({ findings: [] }), /is not a baseline \(format hosted-site-contract\/baseline@1; --write-baseline writes one\)/],
    ['an entry without its reason', JSON.stringify({ format: BASELINE_FORMAT, tool: {}, findings: [{ fingerprint: 'x', rules: [], operation: 'GET /validate' }] }), /findings\[0\] needs fingerprint, rules, operation and reason/],
  ])('%s: one line, before any request', async (_, text, want) => {
    const file = join(dir, `bad-${Math.random()}.json`);
    writeFileSync(file, text);
    await expect(runConform(['--baseline', file], { stdout: new Writable({ write: (_c, _e, d) => d() }), stderr: new Writable({ write: (_c, _e, d) => d() }), env: {} })).rejects.toThrow(want);
  });
});

describe('every report says what the baseline knew', () => {
  it('console: the known findings one line each under KNOWN, the verdict naming them; fixed entries under FIXED', () => {
    const text = renderConsole(runs.known.report);
    expect(text).toMatch(/^KNOWN \(\d+, in the baseline .*baseline\.json: they do not fail the run\)$/m);
    for (const f of runs.known.report.failures) expect(text).toContain(`  ~ ${fingerprint(f)}: `);
    expect(text).not.toMatch(/^FAILURES/m);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^✓ conforms, but for \d+ known findings? \(baseline .*\), on /);
    expect(renderConsole(runs.fixed.report)).toMatch(/^FIXED \(\d+ baseline entries no longer occur/m);
  });

  it('JUnit: a known row is <skipped message="known finding…">, never a <failure>; the baseline in the properties', () => {
    const xml = renderJunit(runs.known.report);
    expect(xml).not.toMatch(/<failure /);
    expect(xml).toMatch(/<skipped message="known findings? \(in the baseline\): /);
    expect(xml).toMatch(/<property name="baseline" value="[^"]*baseline\.json"\/>/);
    expect(renderJunit(runs.newFault.report)).toMatch(/<failure /);
  });

  it('GitHub: known findings as notices, not errors; a new one an error', () => {
    const known = renderGithub(runs.known.report);
    expect(known).not.toMatch(/^::error /m);
    expect(known.match(/^::notice title=known \(baseline\)/gm)?.length).toBe(runs.known.report.failures.length);
    expect(renderGithub(runs.newFault.report)).toMatch(/^::error /m);
    // Entries the run no longer met are said too: the file can shrink.
    expect(renderGithub(runs.fixed.report)).toMatch(/^::notice title=baseline%3A \d+ entr(y|ies) no longer occurs?::Remove them from /m);
  });

  it('CTRF: a known row skipped, its raw status kept', () => {
    const tests = (JSON.parse(renderCtrf(runs.known.report)) as { results: { tests: { status: string; rawStatus?: string }[] } }).results.tests;
    expect(tests.some((t) => t.status === 'failed')).toBe(false);
    expect(tests.filter((t) => t.rawStatus === 'failed (known: in the baseline)').length).toBe(runs.known.report.checks.filter((c) => c.known).length);
  });
});
