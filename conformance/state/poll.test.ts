/** Polling: reads until the effect shows, at least once, and gives up when the window closes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../types.ts';
import { poll } from './poll.ts';

/** An exchange whose status counts the reads: `until` looks at it. */
const reader = () => {
  let reads = 0;
  const read = async (): Promise<Exchange> => ({ probe: {} as Exchange['probe'], response: { status: ++reads, headers: {}, text: '', ms: 0 }, throttled: 0 });
  return { read, count: () => reads };
};

describe('poll', () => {
  it('stops at the first read that shows the effect, however many it takes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), async (k) => {
        const { read, count } = reader();
        const polled = await poll(read, (e) => e.response!.status >= k, { windowMs: 60_000, intervalMs: 1, maxIntervalMs: 2 });
        expect(polled).toMatchObject({ ok: true, reads: k });
        expect(polled.last.response!.status).toBe(k);
        expect(count()).toBe(k);
      }),
      { numRuns: 12 },
    );
  });

  it('reads at least once, even with no window, and reports the last answer when the effect never shows', async () => {
    const { read, count } = reader();
    const polled = await poll(read, () => false, { windowMs: 0, intervalMs: 1, maxIntervalMs: 1 });
    expect(polled).toMatchObject({ ok: false, reads: 1 });
    expect(count()).toBe(1);
    const again = reader();
    const later = await poll(again.read, () => false, { windowMs: 30, intervalMs: 1, maxIntervalMs: 4 });
    expect(later.ok).toBe(false);
    expect(later.reads).toBe(again.count());
    expect(later.last.response!.status).toBe(again.count());
    expect(later.reads).toBeGreaterThan(1); // it read again before giving up
  });
});
