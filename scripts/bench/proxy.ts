/**
 * The validating proxy's cost to a client: the same load (load.mts, 32 connections) on the mock
 * directly, through a bare pass-through proxy that judges nothing (bare-proxy.mts), and through
 * `hosted-site-contract proxy`, each in its own process, alternating; once saturated (a closed
 * loop) and once at a fixed 1000 requests a second (an open loop, as a client's integration
 * tests load it). Target (issue 20): the proxy adds at most 25% to the mock's latency at 32
 * connections. A second hop on loopback costs more than that by itself on 2 cores shared by
 * the load, the mock and the proxy, so the rows also give the proxy over the bare proxy: what
 * judging costs. Reported, never asserted.
 */
import { summarize, type Row, type Section } from './harness.ts';
import { measure, startProcess, stopProcess, type Sample, type Target } from './mock.ts';

const TARGET = 1.25;
const OPEN_RATE = 1000;

const meanOf = (samples: readonly Sample[]) => summarize(samples.map((s) => s.result.latencyMs.mean)).median;

const latencyRow = (what: string, samples: readonly Sample[]): Row => {
  const last = samples[samples.length - 1]!.result;
  const cpu = samples.flatMap((s) => (s.cpuMicros === undefined ? [] : [s.cpuMicros]));
  return {
    what,
    runs: samples.length,
    median: meanOf(samples),
    best: Math.min(...samples.map((s) => s.result.latencyMs.mean)),
    unit: 'ms',
    note: `mean latency; last run p50 ${last.latencyMs.p50.toFixed(2)} ms, p99 ${last.latencyMs.p99.toFixed(2)} ms, ${last.perSecond.toFixed(0)} req/s${last.errors ? `, ${last.errors} errors` : ''}${cpu.length ? `; its server ${summarize(cpu).median.toFixed(0)} µs CPU/answer` : ''}`,
  };
};

const ratioRow = (what: string, over: readonly Sample[], under: readonly Sample[], target?: number): Row => {
  const ratio = meanOf(over) / meanOf(under);
  return { what, runs: over.length, median: ratio * 100, best: NaN, unit: '%', note: target === undefined ? 'what judging costs' : `${ratio <= target ? 'meets' : 'ABOVE'} the ${target * 100}% target` };
};

export const section: Section = {
  title: 'proxy',
  async run(options) {
    const runs = options.runs ?? 3;
    const mock = await startProcess(['bin/hosted-site-contract.js', 'mock', '--port', '0']);
    const started: Awaited<ReturnType<typeof startProcess>>[] = [];
    try {
      const { url, apiKey, siteId } = mock.info as Record<'url' | 'apiKey' | 'siteId', string>;
      const bare = await startProcess(['--import', 'tsx', 'scripts/bench/bare-proxy.mts', url]);
      started.push(bare);
      const proxy = await startProcess(['bin/hosted-site-contract.js', 'proxy', '--target', url, '--port', '0']);
      started.push(proxy);
      const request = { method: 'GET', headers: { authorization: `Bearer ${apiKey}` } } as const;
      const path = `/sites/${siteId}`;
      const rows: Row[] = [];
      for (const rate of [undefined, OPEN_RATE]) {
        const targets: Record<'direct' | 'bare' | 'proxy', Target> = {
          direct: { what: 'mock', server: mock.child, request: { ...request, url: `${url}${path}` } },
          bare: { what: 'bare proxy', server: bare.child, request: { ...request, url: `${bare.info.url as string}${path}` } },
          proxy: { what: 'proxy', server: proxy.child, request: { ...request, url: `${proxy.info.url as string}${path}` } },
        };
        const samples = { direct: [] as Sample[], bare: [] as Sample[], proxy: [] as Sample[] };
        for (let run = 0; run < runs; run++) {
          for (const key of ['direct', 'bare', 'proxy'] as const) samples[key].push(await measure(targets[key], rate === undefined ? {} : { rate }));
        }
        const load = rate === undefined ? 'saturated' : `${rate} req/s`;
        rows.push(
          latencyRow(`${load}: mock GET /sites/{site_id}, directly`, samples.direct),
          latencyRow(`${load}: through a bare proxy`, samples.bare),
          latencyRow(`${load}: through hosted-site-contract proxy`, samples.proxy),
          ratioRow(`  ${load}: proxy / direct`, samples.proxy, samples.direct, TARGET),
          ratioRow(`  ${load}: proxy / bare proxy`, samples.proxy, samples.bare),
        );
      }
      return rows;
    } finally {
      for (const s of started) await stopProcess(s.child);
      await stopProcess(mock.child);
    }
  },
};
