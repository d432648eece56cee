import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunnerDelay } from './runner-delay.ts';

/** A watch on a clock the test moves; its ticks are called by hand (the timer it starts is stopped at once). */
function watched(tickMs = 20, slackMs = 40) {
  let now = 1_000;
  const watch = new RunnerDelay({ clock: () => now, tickMs, slackMs });
  const mark = watch.hold();
  return {
    watch,
    mark,
    /** The clock moves `ms`, and the tick that was due comes at its end. */
    pass(ms: number) {
      now += ms;
      watch.tick();
    },
    /** The clock moves `ms` with no tick: a stall still under way. */
    drift(ms: number) {
      now += ms;
    },
    at: () => now,
    done: () => watch.release(),
  };
}

describe('RunnerDelay', () => {
  it('ticks on time are no stall; a tick late past the slack counts the time past its period', () => {
    const w = watched();
    for (let i = 0; i < 50; i++) w.pass(20 + (i % 3) * 10); // up to 20 ms late: within the slack
    expect(w.watch.since(w.mark)).toEqual({ delayedMs: 0, longestMs: 0, stalls: 0 });
    w.pass(1_020); // held for a second
    w.pass(20);
    w.pass(320);
    expect(w.watch.since(w.mark)).toEqual({ delayedMs: 1_300, longestMs: 1_000, stalls: 2 });
    w.done();
  });

  it('a stall under way is counted before the tick that ends it (a deadline due in the same turn asks first)', () => {
    const w = watched();
    w.pass(20);
    const from = w.at();
    w.drift(800);
    expect(w.watch.stalledWithin(from)).toBe(780);
    expect(w.watch.runningSince(from)).toBe(20);
    expect(w.watch.since(w.mark)).toMatchObject({ delayedMs: 780, stalls: 1 });
    w.done();
  });

  it('running time plus stalled time is the time passed, for any pattern of ticks (stalls before the window count only within it)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 2_000 }), { minLength: 1, maxLength: 60 }), fc.nat({ max: 59 }), (gaps, fromIndex) => {
        const w = watched();
        let from = w.at();
        gaps.forEach((gap, i) => {
          if (i === fromIndex) from = w.at();
          w.pass(gap);
        });
        const stalled = w.watch.stalledWithin(from);
        const running = w.watch.runningSince(from);
        expect(stalled).toBeGreaterThanOrEqual(0);
        expect(running).toBeGreaterThanOrEqual(0);
        expect(stalled + running).toBeCloseTo(w.at() - from, 6);
        // Each gap past the period and the slack is a stall of what exceeds the period.
        const want = gaps.reduce((n, g) => n + (g - 20 > 40 ? g - 20 : 0), 0);
        expect(w.watch.since(w.mark).delayedMs).toBe(want);
        w.done();
      }),
      { seed: 1106 },
    );
  });

  it('released by its last holder, it sees nothing more', () => {
    const w = watched();
    w.watch.hold();
    w.done();
    w.drift(5_000);
    expect(w.watch.stalledWithin(w.mark.at)).toBe(4_980); // still held once: the stall under way shows
    w.watch.release();
    expect(w.watch.since(w.mark).stalls).toBe(1); // the last release's tick recorded it, and nothing is under way any more
    w.drift(5_000);
    expect(w.watch.stalledWithin(w.mark.at)).toBe(4_980);
  });
});
