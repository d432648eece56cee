import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapConcurrently } from './concurrently.ts';

describe('mapConcurrently', () => {
  it('keeps item order and never runs more than the limit at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 5 }), { maxLength: 30 }), fc.integer({ min: 1, max: 6 }), async (delays, limit) => {
        let inFlight = 0;
        let peak = 0;
        const results = await mapConcurrently(delays, limit, async (delay, i) => {
          peak = Math.max(peak, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, delay));
          inFlight--;
          return i * 10;
        });
        expect(results).toEqual(delays.map((_, i) => i * 10));
        expect(peak).toBeLessThanOrEqual(limit);
        if (delays.length >= limit) expect(peak).toBe(limit);
      }),
      { numRuns: 30 },
    );
  });
});
