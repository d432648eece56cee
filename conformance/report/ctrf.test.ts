/**
 * CTRF documents of real runs (conforming, failing, skipping) are valid under CTRF's published
 * schema (ctrf-schema-0.0.json, from the `ctrf` package 0.3.0, MIT), hold one test per row with
 * the row's outcome, and keep each test's id from run to run (shards and reruns merge by it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/server.ts';
import { runConform } from '../cli.ts';

const schema = JSON.parse(readFileSync(new URL('./ctrf-schema-0.0.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

interface Ctrf {
  results: { summary: { tests: number; passed: number; failed: number; skipped: number }; tests: { testId: string; name: string; status: string; message?: string; trace?: string; duration: number }[] };
}

async function ctrf(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; doc: Ctrf; json: { checks: { rule: string; operation: string; outcome: string }[] } }> {
  const sink = new Writable({ write: (_chunk, _e, done) => done() });
  const dir = mkdtempSync(join(tmpdir(), 'hsc-ctrf-'));
  try {
    // ctrf takes --output, json the same name with its own extension.
    const code = await runConform([...args, '--reporter', 'ctrf', '--reporter', 'json', '--output', join(dir, 'report.out')], { stdout: sink, stderr: sink, env });
    return { code, doc: JSON.parse(readFileSync(join(dir, 'report.out'), 'utf8')) as Ctrf, json: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as never };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = {} as Record<'conforming' | 'failing' | 'skipping' | 'again', Awaited<ReturnType<typeof ctrf>>>;
beforeAll(async () => {
  runs.conforming = await ctrf(['--only', 'AUTH-401,ERR-BODY', '--runs', '5']);
  runs.failing = await ctrf(['--mock-variant', 'error-body-without-message', '--only', 'ERR-BODY']);
  // A live API without --allow-destructive: the destructive rows are skipped.
  const mock = await startMock({ port: 0 });
  try {
    runs.skipping = await ctrf(['--base-url', mock.url, '--site-id', mock.fixtures.siteId, '--only', 'STATE-DNS-UPDATE,ERR-BODY', '--runs', '3'], { HSC_API_KEY: mock.fixtures.apiKey });
  } finally {
    await mock.close();
  }
  runs.again = await ctrf(['--only', 'AUTH-401,ERR-BODY', '--runs', '5', '--seed', '7']);
}, 120_000);

describe('CTRF', () => {
  it.each(['conforming', 'failing', 'skipping'] as const)('%s: valid under the published schema, one test per row with its outcome', (run) => {
    const { doc, json } = runs[run];
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.results.tests.map((t) => [t.testId, t.status])).toEqual(json.checks.map((c) => [`${c.rule} ${c.operation}`, c.outcome]));
    const { summary } = doc.results;
    expect(summary.tests).toBe(json.checks.length);
    expect(summary.passed + summary.failed + summary.skipped).toBe(summary.tests);
  });

  it('a failure carries its title as the message and the failure whole as the trace; a skip its reason', () => {
    const failed = runs.failing.doc.results.tests.filter((t) => t.status === 'failed');
    expect(runs.failing.code).toBe(1);
    expect(failed.length).toBeGreaterThan(0);
    for (const t of failed) {
      expect(t.message).toBeTruthy();
      expect(t.trace).toMatch(/curl: /);
    }
    const skipped = runs.skipping.doc.results.tests.filter((t) => t.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    for (const t of skipped) expect(t.message).toBeTruthy();
  });

  it('the same rows under the same ids in another run (another seed): documents merge by testId', () => {
    expect(runs.again.doc.results.tests.map((t) => t.testId)).toEqual(runs.conforming.doc.results.tests.map((t) => t.testId));
    expect(new Set(runs.conforming.doc.results.tests.map((t) => t.testId)).size).toBe(runs.conforming.doc.results.tests.length);
  });

  it('the validator refuses what the schema forbids (so the checks above can fail)', () => {
    const broken = structuredClone(runs.failing.doc) as unknown as { results: { tests: { status: string }[] } };
    broken.results.tests[0]!.status = 'broken';
    expect(validate(broken)).toBe(false);
  });
});
