/**
 * The suite against targets that throttle, over real sockets (the throttling mock of
 * mock/rate-limit.ts, on loopback, with fast buckets: tens to hundreds of requests a second, so
 * the same logic runs in seconds):
 * - every throttling conformant variant of the catalogue passes, with no failure: throttling is
 *   never a verdict, whatever the target says of its limit (or says nothing);
 * - faults of different rule families are still killed behind a rate limit, within a budget
 *   (coverage first: every row's first probe before any row's second);
 * - `--max-duration` stops the run (its deadline on a virtual clock is schedule/budget.test.ts's),
 *   never before its time, and what it did not reach is "not judged";
 * - a request the target throttles for good judges nothing, and the report says why.
 */
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { RateLimit } from '../mock/rate-limit.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { catalogue } from '../mock/variants/index.ts';
import { runConform } from './cli.ts';
import type { Report } from './types.ts';

// Tests run at once (it.concurrent): each closes the mocks it started, and only those.
const started = new Set<RunningMock>();
afterAll(async () => {
  await Promise.all([...started].map((m) => m.close()));
});

/** `conform ARGS --reporter json` in this process: the exit code, the report, the wall time. */
async function conformJson(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; report: Report; stdout: string; stderr: string; wallMs: number }> {
  let json = '';
  let stderr = '';
  const stdout = new Writable({ write: (chunk: Buffer, _encoding, done) => ((json += chunk.toString('utf8')), done()) });
  const errors = new Writable({ write: (chunk: Buffer, _encoding, done) => ((stderr += chunk.toString('utf8')), done()) });
  const began = performance.now();
  const code = await runConform([...args, '--reporter', 'json'], { stdout, stderr: errors, env });
  return { code, report: (json ? JSON.parse(json) : undefined) as Report, stdout: json, stderr, wallMs: performance.now() - began };
}

/** A mock behind a rate limit, checked as a live API is (`--base-url`), destructive requests allowed. */
async function behindLimit(rateLimit: RateLimit, variant?: string) {
  const mock = await startMock({ port: 0, rateLimit, ...(variant ? { variant } : {}) });
  started.add(mock);
  const args = ['--base-url', mock.url, '--site-id', mock.fixtures.siteId, '--allow-destructive', '--allow-live'];
  return { mock, args, env: { HSC_API_KEY: mock.fixtures.apiKey } };
}

const throttlingVariants = catalogue.filter((v) => v.kind === 'conformant' && v.rateLimit);

describe.concurrent('throttling conformant variants: no false verdict', () => {
  it('the catalogue holds one per way a target says its limit, and per way it shares it', () => {
    const told = new Set(throttlingVariants.map((v) => v.rateLimit!.telling ?? 'draft'));
    const shared = new Set(throttlingVariants.map((v) => v.rateLimit!.per ?? 'key'));
    expect([...told].sort()).toEqual(['draft', 'nothing', 'retry-after-date', 'x-ratelimit']);
    expect([...shared].sort()).toEqual(['everyone', 'key', 'key-and-endpoint']);
  });

  it.each(throttlingVariants.map((v) => [v.name] as const))('%s: conforms, no failure, every request answered in the end', async (name) => {
    const run = await conformJson(['--mock-variant', name, '--runs', '20']);
    expect(run.report.failures.map((f) => `${f.rule} ${f.operation}: ${f.title}`)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report.schedule?.notJudged).toEqual({ throttled: 0, budget: 0, runner: 0 });
    expect(run.report.summary.skipped).toBe(0);
    // It was throttled for real (or paced ahead of the limit), and the 429s stayed a minority.
    const { throttled } = run.report.schedule!;
    expect(throttled / run.report.requests).toBeLessThan(0.1);
    expect(throttled > 0 || (run.report.schedule?.pacedMs ?? 0) > 0).toBe(true);
  });
});

describe.concurrent('faults behind a rate limit, within a budget: still killed', () => {
  // One per rule family, each shown by the first probe of its row or the first sequence of its property.
  const faults = [
    'auth-ignored-get-site',
    'error-body-without-message',
    'content-type-text-plain',
    'site-without-display-name',
    'unknown-site-200',
    'opid-kind-plural',
    'dns-update-not-applied',
  ] as const;

  it.each(faults.map((f) => [f] as const))('%s', async (name) => {
    const fault = catalogue.find((v) => v.name === name)!;
    const target = await behindLimit({ limit: 60, windowMs: 1000 }, name);
    // An effect that never shows is known only once the state window closes: a short one, as for a fast target.
    // A budget of requests, not of time: how far a run gets in seconds is the runner's speed (a slow
    // one beside other test files got through the first round only), which is no verdict; --max-duration has its own tests below.
    const run = await conformJson([...target.args, '--max-requests', '400', '--state-window-s', '1'], target.env);
    expect(run.code, run.stderr).toBe(1);
    const caught = run.report.failures.filter((f) => f.rules.includes(fault.rule!) && f.operation === run.report.checks.find((c) => c.rule === fault.rule && c.outcome === 'failed')?.operation);
    expect(caught.length, `${fault.rule} failed`).toBeGreaterThan(0);
    // The budget did stop it: the run was cut, yet the fault's row was judged first.
    expect(run.report.schedule?.budget?.stopped).toMatch(/--max-requests 400 reached/);
  });

  it('the rule families are different ones, five at least', () => {
    const rules = new Set(faults.map((f) => catalogue.find((v) => v.name === f)!.rule));
    expect(rules.size).toBeGreaterThanOrEqual(5);
  });
});

describe('--max-duration', () => {
  it('--max-duration 4s against a target allowing 20 requests a second: the budget stops the run, not before its time, and it conforms on what it judged', async () => {
    const target = await behindLimit({ limit: 20, windowMs: 1000 });
    const run = await conformJson([...target.args, '--max-duration', '4s'], target.env);
    expect(run.code).toBe(0);
    // The run's own clock: with work left, it cannot end before the budget, however fast the machine.
    // How soon after it ends is the runner's speed (tested on a virtual clock in schedule/budget.test.ts).
    expect(run.report.durationMs).toBeGreaterThanOrEqual(3_600);
    // A hang guard, several times the budget: not the property tested.
    expect(run.wallMs).toBeLessThan(4 * 4_000);
    expect(run.report.schedule?.budget).toMatchObject({ maxDurationMs: 4_000, stopped: '--max-duration 4s reached' });
    // What it did not reach is not judged, never failed: skipped or judged in part, with the reason.
    const notJudged = run.report.checks.filter((c) => /not judged: --max-duration 4s reached/.test(c.reason ?? ''));
    expect(notJudged.length).toBeGreaterThan(0);
    expect(notJudged.every((c) => c.outcome !== 'failed')).toBe(true);
    expect(run.report.summary.failed).toBe(0);
  });

});

describe.concurrent('--max-requests', () => {
  it('--max-requests N: at most N requests, and every row with a probe of its own got its first before any got a second', async () => {
    const target = await behindLimit({ limit: 1000, windowMs: 1000 });
    const unbounded = await conformJson([...target.args, '--runs', '5'], target.env);
    const bounded = await conformJson([...target.args, '--runs', '5', '--max-requests', '500'], target.env);
    expect(bounded.code).toBe(0);
    expect(bounded.report.requests).toBeLessThanOrEqual(500);
    expect(bounded.report.schedule?.budget?.stopped).toMatch(/^--max-requests 500 reached/);
    // Coverage first: the rows an unbounded run judges, the bounded one judges too, nearly all.
    const judged = (r: Report) => new Set(r.checks.filter((c) => c.outcome !== 'skipped').map((c) => `${c.rule} ${c.operation}`));
    const all = judged(unbounded.report);
    const some = judged(bounded.report);
    expect(some.size / all.size).toBeGreaterThanOrEqual(0.95);
  });

  it('a --max-requests too small for discovery: exit 2, one line naming the budget, no report', async () => {
    const target = await behindLimit({ limit: 1000, windowMs: 1000 });
    const run = await conformJson([...target.args, '--max-requests', '1'], target.env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/not sent: --max-requests 1 reached/);
  });
});
