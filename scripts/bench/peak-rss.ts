/**
 * Peak memory of a full conformance run (`--allow-destructive`, every probe and scenario) under
 * `--max-old-space-size=256`, against hostile targets whose every answer but discovery's is a
 * 200 MiB body, JSON nested 100 000 levels deep or a gzip bomb, or that serves eight passwords of
 * 400 000 characters (conformance/hostile/servers.ts, scope `most`), next to the same run against the embedded mock. Target: under 300 MB peak RSS,
 * and the run completes (exit 1: failures named), never an exhausted heap. Reported, never
 * asserted; conformance/hostile.test.ts asserts completion under the same heap limit.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostile, type Behaviour } from '../../conformance/hostile/servers.ts';
import { repoRoot, summarize, type Row, type Section } from './harness.ts';

const TARGET_MB = 300;
const HEAP_MB = 256;
const probe = new URL('./rss-probe.mjs', import.meta.url).pathname;

interface Measured {
  readonly code: number | null;
  readonly peakMb: number;
  readonly wallMs: number;
}

/** One CLI run, its exit code, wall time and peak RSS (from the child's own getrusage). */
async function measure(args: readonly string[], apiKey?: string): Promise<Measured> {
  const dir = await mkdtemp(join(tmpdir(), 'hsc-bench-rss-'));
  const file = join(dir, 'rss');
  try {
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', probe, 'bin/hosted-site-contract.js', 'conform', ...args], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HSC_BENCH_RSS_FILE: file, ...(apiKey ? { HSC_API_KEY: apiKey } : {}) },
        stdio: 'ignore',
      });
      child.on('close', (status) => resolve(status));
    });
    const wallMs = performance.now() - started;
    const kb = Number(await readFile(file, 'utf8').catch(() => 'NaN'));
    return { code, peakMb: kb / 1024, wallMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function hostileRun(behaviour: Behaviour): Promise<Measured> {
  const server = await startHostile(behaviour, 'most');
  try {
    return await measure(['--base-url', server.url, '--site-id', server.siteId, '--allow-destructive', '--reporter', 'json', '--timeout-ms', '5000'], server.apiKey);
  } finally {
    await server.close();
  }
}

function row(what: string, results: readonly Measured[]): Row {
  const t = summarize(results.map((r) => r.peakMb));
  const codes = [...new Set(results.map((r) => r.code))].join('/');
  const wall = summarize(results.map((r) => r.wallMs)).median / 1000;
  const verdict = Math.max(...results.map((r) => r.peakMb)) < TARGET_MB ? 'under' : 'OVER';
  return { what, runs: results.length, median: t.median, best: t.min, unit: 'MB', note: `${verdict} ${TARGET_MB} MB; exit ${codes}; ${wall.toFixed(1)} s` };
}

export const section: Section = {
  title: 'peak-rss',
  async run(options) {
    const runs = Math.max(1, Math.min(options.runs ?? 2, 5));
    const rows: Row[] = [];
    const repeat = async (fn: () => Promise<Measured>) => {
      const results: Measured[] = [];
      for (let i = 0; i < runs; i++) results.push(await fn());
      return results;
    };
    rows.push(row('embedded mock, default run (reference)', await repeat(() => measure(['--reporter', 'json']))));
    for (const [behaviour, what] of [
      ['deep-json', 'every answer JSON 100 000 levels deep'],
      ['huge-body', 'every answer a 200 MiB body'],
      ['gzip-bomb', 'every answer a gzip bomb'],
      ['long-passwords', 'eight served passwords of 400 000 non-ASCII characters'],
    ] as const) {
      rows.push(row(`full run, ${what}`, await repeat(() => hostileRun(behaviour))));
    }
    return rows;
  },
};
