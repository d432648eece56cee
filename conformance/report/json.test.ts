/**
 * The JSON report as a CI step reads it: it says what made it (the schema, the format, the tool
 * and the version package.json states), and the reports of real `conform` runs are valid, by ajv,
 * under the schema the package ships (generated/conformance-report.schema.json, exported as
 * `<package>/conformance-report.schema.json` and copied into the build). The runs between them
 * fill every optional part of the schema that matters: a conforming run on the embedded mock,
 * failures with a shrunk generated input and a state property's sequence, and a run paced to a
 * rate limit and stopped by its budget, with skipped rows; the validator refuses reports broken the ways a
 * drifting writer breaks them, so a pass means something.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { runConform } from '../cli.ts';
import type { Failure, Report } from '../types.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; exports: Record<string, unknown> };
const SCHEMA_FILE = 'conformance-report.schema.json';
const schemaText = readFileSync(join(root, 'generated', SCHEMA_FILE), 'utf8');
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(schemaText) as Record<string, unknown>);

type JsonReport = Report & { $schema: string; format: string; tool: { name: string; version: string } };

/** `conform ARGS --reporter json` in this process; the report is what it prints on stdout. */
async function conformJson(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; report: JsonReport }> {
  let out = '';
  const stdout = new Writable({ write: (chunk: Buffer, _encoding, done) => ((out += chunk.toString('utf8')), done()) });
  const stderr = new Writable({ write: (_chunk, _encoding, done) => done() });
  const code = await runConform([...args, '--reporter', 'json'], { stdout, stderr, env });
  return { code, report: JSON.parse(out) as JsonReport };
}

const RUNS = ['conforming', 'shrunk', 'state', 'budget'] as const;
const runs = {} as Record<(typeof RUNS)[number], { code: number; report: JsonReport }>;
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: { limit: 200, windowMs: 1000 } });
  // One after another: other test files run beside this one.
  runs.conforming = await conformJson(['--runs', '5']);
  runs.shrunk = await conformJson(['--mock-variant', 'dns-update-wrong-types-accepted', '--only', 'INPUT-400,RESPONSE-SCHEMA', '--runs', '20']);
  runs.state = await conformJson(['--mock-variant', 'dns-update-drops-other-values', '--only', 'STATE-DNS-UPDATE', '--runs', '3']);
  runs.budget = await conformJson(['--base-url', mock.url, '--site-id', mock.fixtures.siteId, '--max-requests', '300'], { HSC_API_KEY: mock.fixtures.apiKey });
}, 120_000);

afterAll(async () => {
  await mock?.close();
});

const everyFailure = () => RUNS.flatMap((run) => [...runs[run].report.failures, ...runs[run].report.warnings]);

describe('what made the report', () => {
  it('names the format and the tool with the version package.json states, and a $schema that resolves from the working folder (stdout) to the schema', () => {
    for (const run of RUNS) {
      const { $schema, format, tool } = runs[run].report;
      expect({ format, tool }, run).toEqual({ format: 'hosted-site-contract/conformance-report@1', tool: { name: pkg.name, version: pkg.version } });
      expect(isAbsolute($schema), $schema).toBe(false);
      expect(readFileSync(resolve(process.cwd(), $schema), 'utf8'), $schema).toBe(schemaText);
    }
  });

  it('a report written to a file elsewhere names the schema relative to that file, as an editor resolves it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsc-json-schema-'));
    try {
      const file = join(folder, 'nested', 'report.json');
      mkdirSync(dirname(file));
      const code = await runConform(['--only', 'AUTH-401', '--reporter', 'json', '--output', file], { stdout: new Writable({ write: (_c, _e, done) => done() }), stderr: new Writable({ write: (_c, _e, done) => done() }), env: {} });
      expect(code).toBe(0);
      const { $schema } = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
      expect($schema).toMatch(/^(\.\.\/)+/);
      expect(readFileSync(resolve(dirname(file), $schema), 'utf8')).toBe(schemaText);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('the package exports that name, and the build ships the schema there, byte for byte', () => {
    const target = pkg.exports[`./${SCHEMA_FILE}`];
    expect(target).toBe(`./dist/generated/${SCHEMA_FILE}`);
    // The compiled package of the test run (scripts/test-build.ts) is laid out as npm installs it.
    const installed = join(dirname(dirname(dirname(inject('compiledCli')))), target as string);
    expect(readFileSync(installed, 'utf8')).toBe(schemaText);
  });
});

describe('the reports of real runs are valid under the shipped schema', () => {
  it('each run shows what it is meant to', () => {
    expect(runs.conforming.code).toBe(0);
    expect(runs.conforming.report.stateShrinking?.length).toBeGreaterThan(0);
    expect(runs.conforming.report.consumed.length).toBeGreaterThan(0);
    expect(runs.shrunk.code).toBe(1);
    expect(runs.shrunk.report.failures.some((f) => f.original !== undefined && (f.shrinkSteps ?? 0) > 0 && f.shrink !== undefined)).toBe(true);
    expect(runs.state.code).toBe(1);
    expect(runs.state.report.failures.some((f) => (f.sequence?.length ?? 0) > 0)).toBe(true);
    expect(runs.budget.code).toBe(0);
    const budget = runs.budget.report;
    expect(budget.schedule?.budget?.stopped).toMatch(/--max-requests 300/);
    // Paced to the limit the mock states: the rate and where it came from are in the report.
    expect(budget.schedule?.allowedRate).toBeGreaterThan(0);
    expect(budget.schedule?.rateFrom).toBeDefined();
    expect(budget.summary.skipped).toBeGreaterThan(0);
    expect(Object.values(budget.coverage.rules).some((r) => r.partly.length > 0)).toBe(true);
    const failures: readonly Failure[] = everyFailure();
    expect(failures.some((f) => f.response !== undefined && (f.examples?.length ?? 0) > 0)).toBe(true);
  });

  it.each(RUNS)('%s', (run) => {
    expect(validate(runs[run].report), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });
});

describe('the validator refuses what the schema forbids (so the check above can fail)', () => {
  /** A copy of a real report to break, as plain data. */
  type Data = Record<string, any>;
  const base = () => structuredClone(runs.shrunk.report) as unknown as Data;
  it.each<[string, (r: Data) => void]>([
    ['a report without its summary', (r) => delete r.summary],
    ['a key the schema does not know', (r) => void (r.extra = 1)],
    ['another format', (r) => void (r.format = 'hosted-site-contract/conformance-report@2')],
    ['a tool without its version', (r) => delete r.tool.version],
    ['a rule the model does not have', (r) => void (r.failures[0].rule = 'NO-SUCH-RULE')],
    ['an operation the document does not write', (r) => void (r.failures[0].operation = 'GET /nowhere')],
    ['an outcome other than passed, failed or skipped', (r) => void (r.checks[0].outcome = 'maybe')],
    ['a count that is not a whole number', (r) => void (r.summary.passed = 1.5)],
    ['a start time that is not a date-time', (r) => void (r.startedAt = 'yesterday')],
    ['a failure seen no time at all', (r) => void (r.failures[0].occurrences = 0)],
    ['a field of a failure the schema does not know', (r) => void (r.failures[0].extra = true)],
  ])('%s', (_, breakIt) => {
    const report = base();
    expect(validate(report)).toBe(true);
    breakIt(report);
    expect(validate(report)).toBe(false);
  });
});
