import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, RunBudget } from './budget.ts';

describe('--max-duration values', () => {
  it.each([
    ['90s', 90_000],
    ['90', 90_000],
    ['10m', 600_000],
    ['1.5h', 5_400_000],
    ['1h30m', 5_400_000],
    ['2m30s', 150_000],
    [' 3M ', 180_000],
    ['0.3s', 300],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each([['0s'], ['-1m'], ['10 minutes'], ['1d'], [''], ['m'], ['1e3s']])('%s is refused', (text) => expect(parseDuration(text)).toBeUndefined());

  it('what formatDuration writes, parseDuration reads back to the same second (under two minutes, the same tenth)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 7 * 86_400_000 }), (ms) => {
        const back = parseDuration(formatDuration(ms))!;
        expect(Math.abs(back - ms)).toBeLessThanOrEqual(ms < 10_000 ? 50 : 500);
      }),
      { seed: 1106 },
    );
  });
});

describe('RunBudget', () => {
  it('--max-requests: N taken, then every request refused with the reason; the clean-up keeps its reserve', () => {
    const budget = new RunBudget({ maxRequests: 100 });
    budget.reserve(20, 0); // at most a tenth: 10
    for (let i = 0; i < 90; i++) expect(budget.take()).toBeUndefined();
    expect(budget.take()).toBe('--max-requests 100 reached (the last 10 kept for clean-up)');
    expect(budget.stopped).toBe('--max-requests 100 reached (the last 10 kept for clean-up)');
    for (let i = 0; i < 10; i++) expect(budget.take('cleanup')).toBeUndefined();
    expect(budget.take('cleanup')).toBe('--max-requests 100 reached');
    expect(budget.sent).toBe(100);
  });

  it('--max-duration: the run stops a reserve before the deadline, the clean-up at it', () => {
    let now = 0;
    const budget = new RunBudget({ maxDurationMs: 60_000 }, () => now, 0);
    budget.reserve(0, 15_000); // at most a tenth: 6 s
    expect(budget.deadline('run')).toBe(54_000);
    expect(budget.deadline('cleanup')).toBe(60_000);
    now = 54_000;
    expect(budget.take()).toBe('--max-duration 60s reached (the last 6s kept for clean-up)');
    expect(budget.take('cleanup')).toBeUndefined();
    now = 60_000;
    expect(budget.take('cleanup')).toBe('--max-duration 60s reached');
  });

  it('no limit: never spent, never bounded', () => {
    const budget = new RunBudget();
    for (let i = 0; i < 1000; i++) expect(budget.take()).toBeUndefined();
    expect(budget.bounded).toBe(false);
    expect(budget.deadline()).toBe(Infinity);
  });
});
