/**
 * The load generator of the mock bench, run in its own process so that it never shares an event
 * loop with the server it measures. A closed loop: one worker per connection of an undici Pool
 * (pipelining 1), each sending its next request when the last answer is read; with `rate`, the
 * same workers send on a fixed schedule instead (an open loop), for latencies below saturation. Counts only the
 * answers that arrive after the warm-up, for the fixed duration, and prints one JSON line:
 * `{ requests, seconds, perSecond, statuses, errors, total }`.
 *
 * usage: node --import tsx scripts/bench/load.mts '<LoadOptions as JSON>'
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface LoadOptions {
  /** Origin and path, e.g. `http://127.0.0.1:4010/v2/sites/…`. */
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly connections: number;
  /** Requests per second offered in all (an open loop: each goes at its time, answered or not before); default: as fast as answered. */
  readonly rate?: number;
  readonly warmupMs: number;
  readonly durationMs: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** Answers counted, by HTTP status. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  /** Every answer, warm-up and wind-down included: what the server did while the load ran. */
  readonly total: number;
  /** Milliseconds from sending a request to reading its whole answer, over the answers counted. */
  readonly latencyMs: { readonly mean: number; readonly p50: number; readonly p99: number };
}

const options = JSON.parse(process.argv[2] ?? '') as LoadOptions;
const url = new URL(options.url);
const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
const request = { method: options.method, path: `${url.pathname}${url.search}`, headers: options.headers, body: options.body ?? null };

let counting = false;
let running = true;
let requests = 0;
let errors = 0;
let total = 0;
const statuses: Record<string, number> = {};
const latencies: number[] = [];

const begun = performance.now();
let tickets = 0;

async function worker(): Promise<void> {
  while (running) {
    if (options.rate) {
      // The next request's time in the schedule; a worker late for it sends at once.
      const due = begun + (tickets++ * 1000) / options.rate - performance.now();
      if (due > 0) await sleep(due);
      if (!running) break;
    }
    try {
      const sent = performance.now();
      const response = await pool.request(request);
      await response.body.dump();
      total++;
      if (counting) {
        latencies.push(performance.now() - sent);
        requests++;
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      }
    } catch {
      if (counting) errors++;
    }
  }
}

const workers = Array.from({ length: options.connections }, worker);
await sleep(options.warmupMs);
counting = true;
const started = performance.now();
await sleep(options.durationMs);
counting = false;
const seconds = (performance.now() - started) / 1000;
running = false;
await Promise.all(workers);
await pool.close();
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
const mean = latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length;
const result: LoadResult = { requests, seconds, perSecond: requests / seconds, statuses, errors, total, latencyMs: { mean, p50: at(0.5), p99: at(0.99) } };
process.stdout.write(`${JSON.stringify(result)}\n`);
