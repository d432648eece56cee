/**
 * Reads until an effect shows. Actions are "accepted, not completed, when the call returns"
 * (§What the service does), so a property reads the state an action changes until the change
 * shows or a window closes: the pause between reads doubles from `intervalMs` up to
 * `maxIntervalMs`, so a quick server costs one read and a slow one a handful.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../types.ts';

export interface PollOptions {
  /** How long an effect may take to show, from the first read. */
  readonly windowMs: number;
  /** First pause between reads; each next one doubles. */
  readonly intervalMs: number;
  readonly maxIntervalMs: number;
}

export interface Polled {
  readonly ok: boolean;
  /** The last answer read: the one that showed the effect, or the last that did not. */
  readonly last: Exchange;
  readonly reads: number;
}

/**
 * Reads until `until` holds or the window closes; at least one read, and one at the window's end.
 * `pause` waits between reads (the property's, which stops at the run's deadline).
 */
export async function poll(read: () => Promise<Exchange>, until: (exchange: Exchange) => boolean, options: PollOptions, pause: (ms: number) => Promise<unknown> = sleep): Promise<Polled> {
  const started = performance.now();
  let gap = options.intervalMs;
  for (let reads = 1; ; reads++) {
    const last = await read();
    if (until(last)) return { ok: true, last, reads };
    const left = options.windowMs - (performance.now() - started);
    // Timers count whole milliseconds and may wake a fraction early: less than one left is the end.
    if (left < 1) return { ok: false, last, reads };
    await pause(Math.min(gap, left));
    gap = Math.min(gap * 2, options.maxIntervalMs);
  }
}
