/**
 * Conformance speed: the default run against the embedded mock (in process and through the CLI),
 * its requests per second, and next to it the raw rate the same machine reaches against the mock
 * with the same concurrency: a tight undici loop of GET /sites/{site_id} (the cheapest answer), and
 * the suite's own requests replayed by the same loop, whose gap to the suite is what the suite
 * itself costs (generating probes, judging, validating schemas, sanitizing). Targets: the default run
 * well within 30 s, and within 1.5× of the same command at the commits before issues 9 and 27
 * (measured in the same run, alternating). Reported, never asserted.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { Probe } from '../../conformance/types.ts';
import { msRow, repoRoot, runCli, summarize, time, type Row, type Section } from './harness.ts';

const TARGET_MS = 30_000;
/** The suite's requests per second over the raw client's, at least (issue 19). */
const SUITE_TARGET = 0.5;

export const section: Section = {
  title: 'conformance',
  async run(options) {
    const runs = Math.max(1, Math.min(options.runs ?? 3, 10));
    const [{ startMock }, { discover }, { createTransport }, { runConformance }, { defaultSuite }, { DEFAULT_RUNS, DEFAULT_SEED, DEFAULT_CONCURRENCY }] = await Promise.all([
      import('../../mock/server.ts'),
      import('../../conformance/discovery.ts'),
      import('../../conformance/http.ts'),
      import('../../conformance/runner.ts'),
      import('../../conformance/suite.ts'),
      import('../../conformance/flags.ts'),
    ]);
    const rows: Row[] = [];

    // The default run in process: a fresh mock each time, discovery included, as the CLI does it.
    const rates: number[] = [];
    /** The last run's requests as sent, for the replay below: path, method, headers, body. */
    let sent: Sent[] = [];
    let requests = 0;
    let ok = true;
    let budgets: string[] = [];
    const defaultRun = async () => {
      const mock = await startMock({ port: 0 });
      const transport = createTransport({ timeoutMs: 10_000, connections: DEFAULT_CONCURRENCY * 2 });
      const recorded: Sent[] = [];
      const send = Object.assign((probe: Probe) => {
        const { method, url, headers, body } = probe.request;
        recorded.push({ method, path: url.slice(mock.url.length), headers, ...(body === undefined ? {} : { body }) });
        return transport(probe);
      }, transport);
      const started = performance.now();
      try {
        const f = mock.fixtures;
        const main = await discover({ baseUrl: mock.url, apiKey: f.apiKey, siteId: f.siteId, send, allowLive: true });
        const other = await discover({ baseUrl: mock.url, apiKey: f.otherApiKey, siteId: f.otherSiteId, send, allowLive: true });
        const report = await runConformance({
          target: { baseUrl: mock.url, main: { apiKey: f.apiKey, ids: main.ids }, other: { apiKey: f.otherApiKey, ids: other.ids }, allowDestructive: true, allowLive: true, embedded: true },
          seed: DEFAULT_SEED,
          runs: DEFAULT_RUNS,
          options: { strict: false },
          concurrency: DEFAULT_CONCURRENCY,
          send,
          suite: defaultSuite,
          priorRequests: main.requests + other.requests,
        });
        requests = report.requests;
        ok &&= report.ok;
        budgets = budgetNotes(report);
        rates.push((report.requests * 1000) / (performance.now() - started));
        sent = recorded;
      } finally {
        await send.close();
        await mock.close();
      }
    };
    // One untimed run first: the replay below runs on code the runs before it warmed, so the
    // suite's rate is taken warm too (the CLI's row below is the cold start, end to end).
    await defaultRun();
    rates.length = 0;
    const inProcess = await time(runs, defaultRun);
    rows.push(msRow(`default run in process, warm (--runs ${DEFAULT_RUNS})`, inProcess, `${requests} requests, ${ok ? 'conforms' : 'FAILED'}`));
    rows.push(rateRow('  requests/s of the suite', rates));
    for (const note of budgets) rows.push({ what: '  spent of a budget (last run)', runs: 1, median: NaN, best: NaN, unit: '', note });

    // The CLI end to end, alternating with the same command at each baseline, so a noisy neighbour weighs on all alike.
    const checkouts = await Promise.all(BASELINES.map(async (b) => ({ ...b, dir: await checkoutOf(b.ref), ms: [] as number[], requests: 0 })));
    const codes = new Set<number>();
    const now: number[] = [];
    let nowRequests = 0;
    const requestsOf = (stdout: string): number => {
      try {
        return (JSON.parse(stdout) as { requests?: number }).requests ?? 0;
      } catch {
        return 0;
      }
    };
    try {
      // One untimed run each first: tsx compiles a checkout's sources on its first run.
      for (const b of checkouts) if (b.dir) await runCli(['conform', '--reporter', 'json'], join(b.dir, 'bin/hosted-site-contract.js'));
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        const ran = await runCli(['conform', '--reporter', 'json']);
        now.push(performance.now() - start);
        codes.add(ran.code);
        nowRequests = requestsOf(ran.stdout);
        for (const b of checkouts) {
          if (!b.dir) continue;
          const began = performance.now();
          const theirs = await runCli(['conform', '--reporter', 'json'], join(b.dir, 'bin/hosted-site-contract.js'));
          b.ms.push(performance.now() - began);
          b.requests = requestsOf(theirs.stdout);
        }
      }
    } finally {
      for (const b of checkouts) if (b.dir) await removeCheckout(b.dir);
    }
    const cli = summarize(now);
    const verdict = cli.median < TARGET_MS ? 'under' : 'OVER';
    rows.push(msRow('npm run conformance, end to end (CLI)', cli, `${verdict} the ${TARGET_MS / 1000} s target; ${nowRequests} requests; exit ${[...codes].join('/')}`));
    for (const b of checkouts) {
      const what = `  the same at ${b.ref} (${b.why})`;
      if (!b.ms.length) {
        rows.push({ what, runs: 0, median: NaN, best: NaN, unit: '', note: 'not measured: that commit is not in this clone (a shallow one?)' });
        continue;
      }
      const ratio = cli.median / summarize(b.ms).median;
      rows.push(msRow(what, summarize(b.ms), `${b.requests} requests; now/before ${ratio.toFixed(2)}: ${ratio <= BASELINE_FACTOR ? 'within' : 'OVER'} ${BASELINE_FACTOR}×`));
    }

    // The ceiling: the same machine, the same mock, the same concurrency, no suite.
    const raw: number[] = [];
    const total = 4000;
    for (let i = 0; i < runs; i++) raw.push(await loopRate(startMock, DEFAULT_CONCURRENCY, siteReads(total)));
    rows.push(rateRow(`raw: GET /sites/{site_id}, undici, ${DEFAULT_CONCURRENCY} in flight`, raw, `${total} requests per run`));
    // The suite's own requests, the same ones in the same order, sent by a bare undici loop: what
    // the mock and the client cost for this mix (its POSTs and refusals cost more than a GET).
    const replayed: number[] = [];
    for (let i = 0; i < runs; i++) replayed.push(await loopRate(startMock, DEFAULT_CONCURRENCY, () => sent));
    rows.push(rateRow(`raw: the suite's ${sent.length} requests replayed, undici, ${DEFAULT_CONCURRENCY} in flight`, replayed));
    const suite = summarize(rates).median;
    const ceiling = summarize(replayed).median / summarize(raw).median;
    const ratio = suite / summarize(replayed).median;
    rows.push({ what: '  suite / replay', runs: rates.length, median: ratio * 100, best: (Math.max(...rates) / Math.max(...replayed)) * 100, unit: '%', note: `${ratio >= SUITE_TARGET ? 'meets' : 'BELOW'} the ${SUITE_TARGET * 100}% target: what the suite itself adds per request` });
    const get = suite / summarize(raw).median;
    rows.push({ what: '  suite / raw GET', runs: rates.length, median: get * 100, best: (Math.max(...rates) / Math.max(...raw)) * 100, unit: '%', note: `${get >= SUITE_TARGET ? 'meets' : 'BELOW'} ${SUITE_TARGET * 100}%; the replay alone reaches ${(ceiling * 100).toFixed(0)}% of GET, the most any suite sending this mix could` });
    return rows;
  },
};

/**
 * Commits whose default run today's is held within 1.5× of: the one before issue 9 (verdicts on
 * any target, shrinking, state properties) and the one before issue 27 (generated invalidity,
 * every answer judged).
 */
const BASELINES = [
  { ref: '2069551', why: 'before issue 9' },
  { ref: 'bb5a5b4', why: 'before issue 27' },
] as const;
const BASELINE_FACTOR = 1.5;

/** A detached worktree of `ref` sharing this clone's node_modules, or undefined when the commit is not here. */
async function checkoutOf(ref: string): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'hsc-bench-baseline-'));
  const added = await git(['worktree', 'add', '--detach', dir, ref]);
  if (!added) {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

async function removeCheckout(dir: string): Promise<void> {
  await git(['worktree', 'remove', '--force', dir]);
  await rm(dir, { recursive: true, force: true });
}

const git = (args: readonly string[]): Promise<boolean> =>
  new Promise((resolve) => execFile('git', args, { cwd: repoRoot }, (error) => resolve(!error)));

function rateRow(what: string, rates: readonly number[], note?: string): Row {
  const t = summarize(rates);
  return { what, runs: rates.length, median: t.median, best: Math.max(...rates), unit: 'req/s', ...(note ? { note } : {}) };
}

/** A request as the suite sent it, its URL relative to the mock's base. */
interface Sent {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

type StartMock = typeof import('../../mock/server.ts').startMock;

/**
 * The requests `requestsOf` gives for a fresh mock, sent by a tight undici loop, `concurrency` at
 * once; requests per second. Replayed requests may be answered otherwise (their ids are the first
 * mock's), the mix is the same.
 */
async function loopRate(start: StartMock, concurrency: number, requestsOf: (mock: Awaited<ReturnType<StartMock>>) => readonly Sent[]): Promise<number> {
  const mock = await start({ port: 0 });
  const agent = new Agent({ connections: concurrency * 2 });
  const requests = requestsOf(mock);
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let r = requests[next++]; r; r = requests[next++]) {
          const res = await request(`${mock.url}${r.path}`, { method: r.method as 'GET', headers: r.headers, body: r.body ?? null, dispatcher: agent });
          await res.body.text();
        }
      }),
    );
    return (requests.length * 1000) / (performance.now() - started);
  } finally {
    await agent.close();
    await mock.close();
  }
}

/** `total` reads of the first site: the cheapest answer the mock gives. */
const siteReads =
  (total: number) =>
  (mock: Awaited<ReturnType<StartMock>>): Sent[] =>
    Array.from({ length: total }, () => ({ method: 'GET', path: `/sites/${mock.fixtures.siteId}`, headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } }));

/** What the run's shrinking and state properties spent of their budgets, as the report states them. */
function budgetNotes(report: { readonly shrinking?: { readonly requests: number; readonly perRun: number; readonly perFailure: number }; readonly notes: readonly string[] }): string[] {
  const shrinking = report.shrinking ? [`shrinking: ${report.shrinking.requests} extra requests (budget ${report.shrinking.perFailure} per failure, ${report.shrinking.perRun} per run)`] : [];
  const state = report.notes.flatMap((n) => {
    const m = /^(STATE-[A-Z-]+) \(model-based\): .*?(\d+) requests of a budget of (\d+)/.exec(n);
    return m ? [`${m[1]}: ${m[2]} requests (budget ${m[3]})`] : [];
  });
  return [...shrinking, ...state];
}
