/**
 * What the pacer keeps of one key, or, where the target limits each endpoint apart, of one key on
 * one operation; and, in `ops`, of each operation under it (a 429 that says nothing slows its
 * operation alone until 429s of another operation show the limit is the key's).
 */

/** Recent sends and answers a bucket keeps: enough for a rate and a share, bounded. */
const KEPT = 32;
/** How far back the rate a decrease halves is measured. */
const SENDING_WINDOW_MS = 2_000;
/** A gap between sends longer than this is idle time, not pace. */
const IDLE_MS = 250;

export class Bucket {
  /** What the target said: its limit per window, the window, what is left and when that resets. */
  limit: number | undefined;
  windowMs: number | undefined;
  remaining: number | undefined;
  resetAt: number | undefined;
  /** The longest time to a reset the target named: a window's length, where it said no other. */
  longestResetMs = 0;
  inflight = 0;
  pausedUntil = 0;
  nextAt = 0;
  /** After a decrease: the rate decided then, and when (it grows back from there). */
  backoff: { rate: number; at: number } | undefined;
  /** Recent send times. */
  readonly sends: number[] = [];
  /** The latest answers, 1 for a 429 and 0 for any other. */
  readonly answers: number[] = [];
  /** When the latest answers other than 429 came: the rate the target lets through. */
  readonly passed: number[] = [];
  /** Each operation's own pause and back-off (only a key's bucket has them). */
  readonly ops = new Map<string, Bucket>();
  /** The latest 429s that said nothing of the rate: which operation, when. */
  readonly bare: { operation: string; at: number }[] = [];

  op(operation: string): Bucket {
    let o = this.ops.get(operation);
    if (!o) this.ops.set(operation, (o = new Bucket()));
    return o;
  }

  sent(now: number): void {
    this.sends.push(now);
    if (this.sends.length > KEPT) this.sends.shift();
  }

  /** Answers of 429 in a row, up to the latest. */
  throttledInARow = 0;

  answered(throttled: boolean, now: number): void {
    this.throttledInARow = throttled ? this.throttledInARow + 1 : 0;
    this.answers.push(throttled ? 1 : 0);
    if (this.answers.length > KEPT) this.answers.shift();
    if (throttled) return;
    this.passed.push(now);
    if (this.passed.length > KEPT) this.passed.shift();
  }

  /** The rate answers other than 429 came at over the last seconds (per second): what the target let through. */
  passingRate(now: number): number {
    const recent = this.passed.filter((t) => now - t <= SENDING_WINDOW_MS);
    return recent.length ? (recent.length * 1000) / Math.max(500, now - recent[0]!) : 0;
  }

  /** The share of 429s among the latest answers. */
  get throttledShare(): number {
    return this.answers.length ? this.answers.reduce((n, x) => n + x, 0) / this.answers.length : 0;
  }

  /**
   * The rate requests went out at while they went out, over the last seconds (per second): gaps
   * longer than `IDLE_MS` (a pause the target asked for, a phase with nothing to send) are left
   * out, or a pause would read as a slow pace. `fallback` when too few went out to tell.
   */
  sendingRate(now: number, fallback: number): number {
    const recent = this.sends.filter((t) => now - t <= SENDING_WINDOW_MS);
    let gaps = 0;
    let busy = 0;
    for (let i = 1; i < recent.length; i++) {
      const gap = recent[i]! - recent[i - 1]!;
      if (gap > IDLE_MS) continue;
      gaps++;
      busy += gap;
    }
    return gaps ? (gaps * 1000) / Math.max(1, busy) : fallback;
  }

  /** Counts of what is left, and whether the window reset since (it then holds the limit again, as far as the target said). */
  leftNow(now: number): number | undefined {
    if (this.remaining !== undefined && this.resetAt !== undefined && now >= this.resetAt) {
      this.remaining = this.limit;
      this.resetAt = undefined;
    }
    return this.remaining === undefined ? undefined : this.remaining - this.inflight;
  }
}
