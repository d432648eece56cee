import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunnerDelay, WaitingDelay } from './runner-delay.ts';

/** A watch on a clock the test moves, its ticks called by hand (the interval it starts never fires while a test runs: each is synchronous). */
function watched(tickMs = 20, slackMs = 40) {
  let now = 1_000;
  const clock = () => now;
  const watch = new RunnerDelay({ clock, tickMs, slackMs });
  watch.hold();
  const start = now;
  return {
    watch,
    clock,
    start,
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
    expect(w.watch.within(w.start)).toEqual({ delayedMs: 0, longestMs: 0, stalls: 0 });
    w.pass(1_020); // held for a second
    w.pass(20);
    w.pass(320);
    expect(w.watch.within(w.start)).toEqual({ delayedMs: 1_300, longestMs: 1_000, stalls: 2 });
    w.done();
  });

  it('a stall under way is counted before the tick that ends it (a deadline due in the same turn asks first)', () => {
    const w = watched();
    w.pass(20);
    const from = w.at();
    w.drift(800);
    expect(w.watch.stalledWithin(from)).toBe(780);
    expect(w.watch.runningSince(from)).toBe(20);
    expect(w.watch.within(w.start)).toMatchObject({ delayedMs: 780, stalls: 1 });
    w.done();
  });

  it('within a span: only the part of each stall inside it, for any pattern of ticks', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 2_000 }), { minLength: 1, maxLength: 60 }), fc.nat({ max: 59 }), (gaps, fromIndex) => {
        const w = watched();
        const ticks = [w.at()];
        let from = w.at();
        gaps.forEach((gap, i) => {
          if (i === fromIndex) from = w.at();
          w.pass(gap);
          ticks.push(w.at());
        });
        // Each gap past the period and the slack is a stall of what exceeds the period, ending at its tick.
        let want = 0;
        gaps.forEach((gap, i) => {
          if (gap - 20 > 40) want += Math.max(0, ticks[i + 1]! - Math.max(ticks[i + 1]! - (gap - 20), from));
        });
        expect(w.watch.stalledWithin(from)).toBe(want);
        expect(w.watch.runningSince(from)).toBe(w.at() - from - want);
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
    expect(w.watch.stalledWithin(w.start)).toBe(4_980); // still held once: the stall under way shows
    w.watch.release();
    expect(w.watch.within(w.start).stalls).toBe(1); // the last release's tick recorded it, and nothing is under way any more
    w.drift(5_000);
    expect(w.watch.stalledWithin(w.start)).toBe(4_980);
  });
});

describe('WaitingDelay', () => {
  it('counts the stalls while something waited, not those while nothing did (planning, reports)', () => {
    const w = watched();
    const waiting = new WaitingDelay(w.watch, w.clock);
    w.pass(1_020); // nothing waits: not counted
    waiting.busy();
    w.pass(20);
    waiting.busy(); // a second request at once: the same span
    w.pass(520);
    waiting.idle();
    w.pass(20);
    waiting.idle();
    w.pass(2_020); // nothing waits again
    expect(waiting.stats()).toEqual({ delayedMs: 500, longestMs: 500, stalls: 1 });
    waiting.busy();
    w.drift(300); // under way while a request waits
    expect(waiting.stats()).toEqual({ delayedMs: 780, longestMs: 500, stalls: 2 });
    w.done();
  });
});
