/**
 * The suite against a target that throttles: the issue's token bucket (120 requests a minute per
 * key, burst 120, 429 with `Retry-After` and the IETF draft `RateLimit` / `RateLimit-Policy`)
 * with its time scaled down twenty times (120 per 3 s) so a run takes seconds, as the throttling
 * mock serves it (mock/rate-limit.ts). Goals (issue 17): at most 2% of requests draw a 429, wall
 * time within 1.25x of requests ÷ the allowed rate (burst included); under `--max-duration` of
 * 180 s scaled (9 s), exit 0 and at least 95% of the rows an unthrottled run judges. Then the
 * same pacing against targets that say less: `Retry-After` as an HTTP date only, a bare 429, a
 * limit per endpoint. Reported, never asserted (conformance/throttling.test.ts asserts the verdicts).
 */
import { Writable } from 'node:stream';
import { runConform } from '../../conformance/cli.ts';
import type { Report } from '../../conformance/types.ts';
import type { RateLimit } from '../../mock/rate-limit.ts';
import { startMock } from '../../mock/server.ts';
import type { Variant } from '../../mock/variant.ts';
import type { Row, Section } from './harness.ts';

/** The issue's bucket, twenty times faster: 120 per 3 s, burst 120. */
const BUCKET: RateLimit = { limit: 120, windowMs: 3_000 };
const SCALE = 20;

interface Measured {
  readonly code: number;
  readonly report: Report;
  /** Requests the main key's bucket let through: what its rate bounds. */
  readonly drawn: number;
}

/** `conform --base-url` against the mock behind `rate`, default options plus `args`; the report. */
async function measure(rate: RateLimit | undefined, args: readonly string[] = []): Promise<Measured> {
  let drawn = 0;
  let key = '';
  // Counts what got past the limit with the main key (the other keys have buckets of their own).
  const counting: Variant = {
    name: 'bench-counting',
    kind: 'conformant',
    description: 'the reference, counting requests with the main key',
    hooks: { authenticate: (_e, request, reference) => ((drawn += Number(request.headers.authorization === `Bearer ${key}`)), reference) },
  };
  const mock = await startMock({ port: 0, variant: counting, ...(rate ? { rateLimit: rate } : {}) });
  key = mock.fixtures.apiKey;
  try {
    let json = '';
    const stdout = new Writable({ write: (chunk: Buffer, _e, done) => ((json += chunk.toString('utf8')), done()) });
    const stderr = new Writable({ write: (_c, _e, done) => done() });
    const code = await runConform(['--base-url', mock.url, '--site-id', mock.fixtures.siteId, '--reporter', 'json', ...args], { stdout, stderr, env: { HSC_API_KEY: mock.fixtures.apiKey } });
    return { code, report: JSON.parse(json) as Report, drawn };
  } finally {
    await mock.close();
  }
}

/** The time the bucket needs for the requests that drew on it, its burst included. */
function idealMs(measured: Measured, rate: RateLimit): number {
  return Math.max(1, ((measured.drawn - rate.limit) * rate.windowMs) / rate.limit);
}

const judged = (report: Report) => report.checks.filter((c) => c.outcome !== 'skipped').length;

function rows(what: string, results: readonly Measured[], rate: RateLimit): Row[] {
  const shares = results.map((r) => (100 * (r.report.schedule?.throttled ?? 0)) / r.report.requests);
  const ratios = results.map((r) => r.report.durationMs / idealMs(r, rate));
  const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const codes = [...new Set(results.map((r) => r.code))].join('/');
  const requests = median(results.map((r) => r.report.requests));
  const drawn = median(results.map((r) => r.drawn));
  return [
    { what: `${what}: 429 share`, runs: results.length, median: median(shares), best: Math.min(...shares), unit: '%', note: `goal ≤ 2%; ${requests} requests, ${drawn} through the main key's bucket; exit ${codes}` },
    { what: `${what}: wall ÷ ideal`, runs: results.length, median: median(ratios), best: Math.min(...ratios), unit: 'x', note: `goal ≤ 1.25; wall ${(median(results.map((r) => r.report.durationMs)) / 1000).toFixed(1)} s` },
  ];
}

export const section: Section = {
  title: 'throttling',
  async run(options) {
    const runs = Math.max(1, Math.min(options.runs ?? 1, 3));
    const repeat = async (fn: () => Promise<Measured>) => {
      const results: Measured[] = [];
      for (let i = 0; i < runs; i++) results.push(await fn());
      return results;
    };
    const out: Row[] = [];
    out.push(...rows(`bucket 120/60s ÷ ${SCALE}, draft headers`, await repeat(() => measure(BUCKET)), BUCKET));
    // --max-duration 180s scaled: the rows it judges, of those an unthrottled run judges. The
    // default run needs less than that behind this bucket; with --allow-destructive (3 times the
    // requests) the budget binds.
    for (const extra of [[], ['--allow-destructive']]) {
      const free = await measure(undefined, extra);
      const bounded = await repeat(() => measure(BUCKET, ['--max-duration', `${180 / SCALE}s`, ...extra]));
      const shares = bounded.map((r) => (100 * judged(r.report)) / judged(free.report));
      const within = bounded.map((r) => r.report.durationMs / ((180 / SCALE) * 1000));
      out.push({
        what: `--max-duration ${180 / SCALE}s${extra.length ? ` ${extra.join(' ')}` : ''}: rows judged ÷ unthrottled`,
        runs: bounded.length,
        median: shares.sort((a, b) => a - b)[Math.floor(shares.length / 2)]!,
        best: Math.max(...shares),
        unit: '%',
        note: `goal ≥ 95% and exit 0; exit ${[...new Set(bounded.map((r) => r.code))].join('/')}; ended at ${within.map((w) => w.toFixed(2)).join('/')}x the duration${bounded.some((r) => r.report.schedule?.budget?.stopped) ? ', the budget spent' : ', within it'}`,
      });
    }
    for (const [what, rate] of [
      ['Retry-After as an HTTP date only', { ...BUCKET, telling: 'retry-after-date' }],
      ['a bare 429', { ...BUCKET, telling: 'nothing' }],
      ['a limit per endpoint (X-RateLimit-*; ideal as if one bucket)', { ...BUCKET, telling: 'x-ratelimit', per: 'key-and-endpoint' }],
    ] as const) {
      out.push(...rows(what, await repeat(() => measure(rate)), rate));
    }
    return out;
  },
};
