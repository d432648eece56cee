import { describe, expect, it } from 'vitest';
import { Pacer, type PacerOptions } from './pacer.ts';
import { VirtualTime } from './virtual-time.test-kit.ts';

/** How a simulated target tells its limit. */
type Telling = 'draft' | 'x-ratelimit' | 'retry-after-only' | 'retry-after-date' | 'nothing';

/**
 * A token bucket (capacity `burst`, `rate` tokens a second) on virtual time, answering as the
 * issue's server does: each request takes a token or draws a 429; `telling` says which headers it sends.
 */
function bucketTarget(time: VirtualTime, burst: number, rate: number, telling: Telling) {
  let tokens = burst;
  let last = 0;
  return (): { status: number; headers: Record<string, string> } => {
    tokens = Math.min(burst, tokens + ((time.now - last) / 1000) * rate);
    last = time.now;
    const ok = tokens >= 1;
    if (ok) tokens -= 1;
    const headers: Record<string, string> = {};
    const wait = Math.ceil((1 - tokens) / rate);
    if (telling === 'draft') {
      headers['ratelimit-policy'] = `${burst};w=${burst / rate}`;
      headers.ratelimit = `limit=${burst}, remaining=${Math.floor(tokens)}, reset=${Math.ceil((burst - tokens) / rate)}`;
    }
    if (telling === 'x-ratelimit') {
      headers['x-ratelimit-limit'] = String(burst);
      headers['x-ratelimit-remaining'] = String(Math.floor(tokens));
      headers['x-ratelimit-reset'] = String(Math.ceil((Date.UTC(2026, 10, 25) + time.now) / 1000 + (burst - tokens) / rate));
    }
    if (!ok && telling !== 'nothing') headers['retry-after'] = telling === 'retry-after-date' ? new Date(Date.UTC(2026, 10, 25) + time.now + wait * 1000 + 1000).toUTCString() : String(wait);
    return { status: ok ? 200 : 429, headers };
  };
}

/**
 * `total` requests, `concurrency` at once, each retried until it is not a 429; `latencyMs` per
 * answer. With `operations`, the requests go to that many operations in turn, and `perOperation`
 * gives each its own bucket on the target.
 */
async function simulate(options: { total: number; concurrency: number; burst: number; rate: number; telling: Telling; latencyMs?: number; pacer?: PacerOptions; operations?: number; perOperation?: boolean }) {
  const time = new VirtualTime();
  const operations = options.operations ?? 1;
  const targets = Array.from({ length: options.perOperation ? operations : 1 }, () => bucketTarget(time, options.burst, options.rate, options.telling));
  const pacer = new Pacer({ clock: time.clock, wallClock: () => Date.UTC(2026, 10, 25) + time.now, wait: time.wait, ...options.pacer });
  let next = 0;
  let sent = 0;
  let throttled = 0;
  const worker = async () => {
    while (next < options.total) {
      // With several operations the first takes half of the requests, the others the rest in turn (a run's probes are uneven too).
      const n = next++;
      const operation = operations === 1 || n % 2 === 0 ? 0 : 1 + ((n >> 1) % (operations - 1));
      for (;;) {
        const ticket = (await pacer.acquire('key', Infinity, `op${operation}`))!;
        sent++;
        const answer = targets[options.perOperation ? operation : 0]!();
        await time.wait(options.latencyMs ?? 20);
        const throttle = pacer.observe(ticket, answer.status, answer.headers);
        if (answer.status !== 429) break;
        throttled++;
        // As the transport does: a lone 429's request waits by itself.
        if (throttle?.retry && throttle.afterMs) await time.wait(throttle.afterMs);
      }
    }
  };
  await time.run(Promise.all(Array.from({ length: options.concurrency }, worker)));
  return { sent, throttled, share: throttled / sent, wallS: time.now / 1000, idealS: Math.max(0, options.total - options.burst) / options.rate, stats: pacer.stats };
}

describe('Pacer against a token bucket of 120 a minute, burst 120 (the issue\'s target), on virtual time', () => {
  it.each([
    ['the IETF draft headers', 'draft'],
    ['X-RateLimit-* with an epoch reset', 'x-ratelimit'],
  ] as const)('%s: at most 2 per cent of requests draw a 429, within 1.25x of the ideal time', async (_, telling) => {
    const run = await simulate({ total: 600, concurrency: 8, burst: 120, rate: 2, telling });
    expect(run.share).toBeLessThanOrEqual(0.02);
    expect(run.wallS).toBeLessThanOrEqual(1.25 * run.idealS);
    expect(run.wallS).toBeGreaterThanOrEqual(run.idealS * 0.95); // it cannot beat the bucket
  });

  it.each([
    ['Retry-After in seconds only', 'retry-after-only'],
    ['Retry-After as an HTTP date only', 'retry-after-date'],
    ['nothing at all (multiplicative decrease, additive increase)', 'nothing'],
  ] as const)('%s: every request answered in the end, the 429s bounded', async (_, telling) => {
    const run = await simulate({ total: 400, concurrency: 8, burst: 120, rate: 2, telling });
    expect(run.sent - run.throttled).toBe(400);
    // Without a word before the limit, 429s show where it is; the pacing keeps them a minority.
    expect(run.share).toBeLessThan(telling === 'nothing' ? 0.25 : 0.1);
    expect(run.wallS).toBeLessThanOrEqual(2.5 * run.idealS);
  });

  it('--rate N spaces every request 1/N s apart, whatever the target says', async () => {
    const run = await simulate({ total: 50, concurrency: 8, burst: 1000, rate: 1000, telling: 'draft', pacer: { fixedRate: 10 } });
    expect(run.throttled).toBe(0);
    expect(run.wallS).toBeGreaterThanOrEqual(4.9);
    expect(run.wallS).toBeLessThan(5.2);
    expect(run.stats.source).toBe('fixed');
  });

  it('a target that says nothing and never throttles is not slowed down', async () => {
    const run = await simulate({ total: 800, concurrency: 8, burst: 1e9, rate: 1e9, telling: 'nothing' });
    expect(run.throttled).toBe(0);
    expect(run.wallS).toBeCloseTo((800 / 8) * 0.02, 1);
    expect(run.stats.allowedRate).toBeUndefined();
  });

  it('a limit per endpoint shows itself, and each operation is paced to its own: near the ideal, few 429s', async () => {
    // Four operations, each its own bucket of 120 a minute; the first takes 600 requests, the others 200 each.
    const run = await simulate({ total: 1200, concurrency: 8, burst: 120, rate: 2, telling: 'x-ratelimit', operations: 4, perOperation: true });
    const ideal = (600 - 120) / 2; // the busiest operation's; one bucket for all would take (1200 - 120) / 2
    expect(run.wallS).toBeGreaterThanOrEqual(0.95 * ideal);
    expect(run.stats.perOperation).toBe(true);
    expect(run.share).toBeLessThanOrEqual(0.05);
    expect(run.wallS).toBeLessThanOrEqual(1.5 * ideal);
  });

  it.each([['the IETF draft headers', 'draft'], ['X-RateLimit-*', 'x-ratelimit']] as const)('one limit shared by every operation (%s) is never taken for one per endpoint', async (_, telling) => {
    const run = await simulate({ total: 600, concurrency: 8, burst: 120, rate: 2, telling, operations: 5 });
    expect(run.stats.perOperation).toBeUndefined();
    expect(run.share).toBeLessThanOrEqual(0.02);
  });

  it('a slot that would come after the deadline is refused at once, nothing taken', async () => {
    const time = new VirtualTime();
    const pacer = new Pacer({ clock: time.clock, wait: time.wait, fixedRate: 1 });
    expect(await pacer.acquire('k', 10_000)).toBeDefined();
    expect(await time.run(pacer.acquire('k', 500))).toBeUndefined();
    expect(time.now).toBe(0);
    expect(pacer.stats.requests).toBe(1);
  });
});
