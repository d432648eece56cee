/**
 * Mock throughput: requests per second that a separate load-generator process (load.mts: undici
 * Pool, 32 connections, pipelining 1, a closed loop) gets, each server in its own process, from
 *   (a) a bare node:http server answering one fixed JSON body of the mock's size (bare.mts), to
 *       the same requests as (b) and (c): a GET, and a POST whose body it reads and drops;
 *   (b) the mock, run as users run it (`hosted-site-contract mock`, its log on, stderr to /dev/null),
 *       for a read, GET /sites/{site_id};
 *   (c) the mock for an action, POST /sites/environments/{env_id}/run-wp-cli-command.
 * Runs rotate through the four so that a noisy neighbour hurts them alike. The note gives the
 * server's CPU time per answer (Linux /proc), which the shared 2-core machine disturbs less
 * than the rate. Targets (issue 19): the mock's read at least 75% of the bare rate, its action
 * at least 60%, with its log on as users run it (to /dev/null); reported, never asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { LoadOptions, LoadResult } from './load.mts';
import { repoRoot, summarize, type Row, type Section } from './harness.ts';

const CONNECTIONS = 32;
const WARMUP_MS = 1_000;
const DURATION_MS = 3_000;
/** The mock's rate over the bare server's, at least (issue 19). */
const TARGETS = { read: 0.75, action: 0.6 } as const;
/** Linux's USER_HZ, the unit of /proc/<pid>/stat times, on every common platform. */
const TICKS_PER_SECOND = 100;

/** A child process whose first stdout line is JSON; stderr is dropped (the mock logs each request there). */
export async function startProcess(args: readonly string[]): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] });
  let text = '';
  child.stdout!.setEncoding('utf8');
  const line = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before printing its line`)));
  });
  return { child, info: JSON.parse(await line) as Record<string, unknown> };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** User plus system CPU seconds a process has used, or undefined off Linux. */
async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime: fields 14 and 15
  } catch {
    return undefined;
  }
}

export interface Target {
  readonly what: string;
  readonly server: ChildProcess;
  readonly request: Pick<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
}

export interface Sample {
  readonly perSecond: number;
  /** Server CPU microseconds per answer, warm-up included; undefined off Linux. */
  readonly cpuMicros: number | undefined;
  readonly result: LoadResult;
}

export async function measure(target: Target, load: Pick<LoadOptions, 'rate'> = {}): Promise<Sample> {
  const options: LoadOptions = { ...target.request, ...load, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS };
  const before = await cpuSeconds(target.server.pid);
  const { info } = await startProcess(['--import', 'tsx', 'scripts/bench/load.mts', JSON.stringify(options)]);
  const after = await cpuSeconds(target.server.pid);
  const result = info as unknown as LoadResult;
  const cpuMicros = before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / result.total;
  return { perSecond: result.perSecond, cpuMicros, result };
}

function rateRow(what: string, samples: readonly Sample[], extra = ''): Row {
  const rates = samples.map((s) => s.perSecond);
  const cpu = samples.map((s) => s.cpuMicros).filter((c): c is number => c !== undefined);
  const last = samples[samples.length - 1]!.result;
  const statuses = Object.entries(last.statuses).map(([status, n]) => `${status} ×${n}`);
  const notes = [
    ...(cpu.length ? [`server ${summarize(cpu).median.toFixed(1)} µs CPU/answer`] : []),
    `last run ${[...statuses, ...(last.errors ? [`${last.errors} errors`] : [])].join(', ')}`,
    ...(extra ? [extra] : []),
  ];
  return { what, runs: rates.length, median: summarize(rates).median, best: Math.max(...rates), unit: 'req/s', note: notes.join('; ') };
}

/**
 * Mock over bare, in rate (median over median, best over best), and in CPU per answer (bare's
 * over the mock's): what the rate ratio would be if each server had a core of its own.
 */
function ratioRow(what: string, mock: readonly Sample[], bare: readonly Sample[], target: number): Row {
  const rate = (samples: readonly Sample[]) => samples.map((s) => s.perSecond);
  const cpu = (samples: readonly Sample[]) => summarize(samples.flatMap((s) => (s.cpuMicros === undefined ? [] : [s.cpuMicros]))).median;
  const median = summarize(rate(mock)).median / summarize(rate(bare)).median;
  const best = Math.max(...rate(mock)) / Math.max(...rate(bare));
  const byCpu = cpu(bare) / cpu(mock);
  const verdict = median >= target ? 'meets' : 'BELOW';
  const cpuNote = Number.isNaN(byCpu) ? '' : `; by CPU per answer ${(byCpu * 100).toFixed(0)} %`;
  return { what, runs: mock.length, median: median * 100, best: best * 100, unit: '%', note: `${verdict} the ${target * 100}% target${cpuNote}` };
}

export const section: Section = {
  title: 'mock',
  async run(options) {
    const runs = options.runs ?? 3;
    const mock = await startProcess(['bin/hosted-site-contract.js', 'mock', '--port', '0']);
    let bare: Awaited<ReturnType<typeof startProcess>> | undefined;
    try {
      const { url, apiKey, siteId } = mock.info as Record<'url' | 'apiKey' | 'siteId', string>;
      const headers = { authorization: `Bearer ${apiKey}` };
      const siteUrl = `${url}/sites/${siteId}`;
      const siteBody = await (await fetch(siteUrl, { headers })).text();
      const envId = (JSON.parse(siteBody) as { site: { environments: { id: string }[] } }).site.environments[0]!.id;
      const size = Buffer.byteLength(siteBody);
      bare = await startProcess(['--import', 'tsx', 'scripts/bench/bare.mts', String(size)]);
      const bareUrl = bare.info.url as string;

      const read = { method: 'GET', headers } as const;
      const action = {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ wp_command: 'wp plugin list --status=active' }),
      } as const;
      const targets = {
        bareRead: { what: 'bare GET', server: bare.child, request: { ...read, url: `${bareUrl}/bare` } },
        bareAction: { what: 'bare POST', server: bare.child, request: { ...action, url: `${bareUrl}/bare` } },
        read: { what: 'mock read', server: mock.child, request: { ...read, url: siteUrl } },
        action: { what: 'mock action', server: mock.child, request: { ...action, url: `${url}/sites/environments/${envId}/run-wp-cli-command` } },
      } satisfies Record<string, Target>;
      const samples: Record<keyof typeof targets, Sample[]> = { bareRead: [], bareAction: [], read: [], action: [] };
      for (let run = 0; run < runs; run++) {
        for (const key of Object.keys(targets) as (keyof typeof targets)[]) samples[key].push(await measure(targets[key]));
      }
      const settings = `${CONNECTIONS} connections, pipelining 1, ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up`;
      return [
        rateRow(`bare node:http GET, fixed ${size}-byte JSON`, samples.bareRead, settings),
        rateRow('bare node:http POST, same answer', samples.bareAction),
        rateRow('mock GET /sites/{site_id}', samples.read),
        rateRow('mock POST .../run-wp-cli-command', samples.action),
        ratioRow('  mock read / bare GET', samples.read, samples.bareRead, TARGETS.read),
        ratioRow('  mock action / bare POST', samples.action, samples.bareAction, TARGETS.action),
      ];
    } finally {
      if (bare) await stopProcess(bare.child);
      await stopProcess(mock.child);
    }
  },
};
