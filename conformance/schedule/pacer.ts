/**
 * One limiter for every request of a run (discovery, probes, state properties, shrinking,
 * clean-up): it paces the run to what the target says of its limit, before the limit, not one
 * request after it.
 *
 * - `--rate N` (fixed): requests start at least 1/N s apart, across all callers.
 * - `--rate auto` (the default): per credential (a limit is per key, as a rule), the run sends as
 *   fast as it may while the target says requests are left (`RateLimit` remaining, less those in
 *   flight), then at 95% of the policy's rate (`RateLimit-Policy` q/w) or, without one, spreads
 *   what is left until the reset.
 * - A 429 without a stated rate: once 429s are a sizeable share of the latest answers, it halves
 *   the rate the run was sending at, which then grows back by a twentieth of itself per second
 *   (multiplicative decrease, additive increase; one decrease per round of answers), and a
 *   `Retry-After` pauses until then. Whose rate: the operation's, until such 429s of two
 *   operations show the limit is the key's. A 429 now and then (a target that throttles every
 *   25th request, whatever the pace) slows nothing: its request alone waits and goes again.
 * - A target whose limit is per endpoint shows it: two operations of one key say, within a
 *   second, counts left that no shared count could (one far above the other). From then on that
 *   key is paced per operation.
 * - A pause that would pass the run's budget for pausing (`--max-wait-s`) is not taken and slows
 *   nothing: that request is given up (and judges nothing).
 *
 * The target's own words: the document states no limit ("Rate limits and quotas: not shown").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { clip } from '../body.ts';
import { readSignals } from './signals.ts';

export interface PacerOptions {
  /** Requests per second at most (`--rate N`); undefined paces to the target (`--rate auto`). */
  readonly fixedRate?: number;
  /** Milliseconds, monotonic; for tests. */
  readonly clock?: () => number;
  /** Epoch milliseconds, for headers that give a time of day; for tests. */
  readonly wallClock?: () => number;
  readonly wait?: (ms: number) => Promise<unknown>;
  /**
   * The run's budget for pausing on 429s (`--max-wait-s`): the time the run spends paused, each
   * moment counted once however many requests wait it out. A 429 that asks for more than is left
   * is not waited for: `observe` says so, and that request ends as throttled.
   */
  readonly maxPauseMs?: number;
  /** The gap a 429 that says nothing is answered with before anything is known of the rate (default 500 ms). */
  readonly backoffMs?: number;
}

/** What a 429 meant for its request: retry (after the pause the pacer keeps), or give up, and why. */
/**
 * What a 429 meant for its request: retry (after the pause the pacer keeps, and `afterMs` of its
 * own when the 429 was a lone one that slows nothing else), or give up, and why.
 */
export type Throttle = { readonly retry: true; readonly afterMs?: number } | { readonly retry: false; readonly why: string };

/** A slot to send one request; given back with what the answer said (`observe`) or that none came (`settle`). */
export interface Ticket {
  readonly bucket: string;
  readonly credential: string;
  readonly operation: string;
  readonly at: number;
}

/** What the pacer has done and learned, for progress, the plan and the report. */
export interface PacerStats {
  readonly requests: number;
  /** Answers that were 429. */
  readonly throttled: number;
  /** Time requests spent waiting for a slot, all together (ms). */
  readonly pacedMs: number;
  /** Time the run spent paused by 429s, each moment once (ms): what `--max-wait-s` bounds. */
  readonly pausedMs: number;
  /** The rate the target allows, as last understood (requests per second); undefined while nothing says. */
  readonly allowedRate?: number;
  /** Where that rate comes from: `--rate`, the target's policy, its remaining/reset, or 429s without a word. */
  readonly source?: 'fixed' | 'policy' | 'remaining' | 'backoff';
  /** The target's limit showed itself per endpoint: requests are paced per operation. */
  readonly perOperation?: true;
}

/** Requests kept in hand below what the target says is left: answers in flight may already have used some. */
const MARGIN = 1;
/** Additive increase after a decrease: a twentieth of the decreased rate, per second without a 429. */
const GROWTH_PER_S = 1 / 20;
/**
 * The share of a stated rate the run keeps to: requests sent exactly at the limit arrive a little
 * early or late by chance, and half of the early ones would draw a 429.
 */
const HEADROOM = 0.95;
/** The slowest rate a decrease goes to. */
const MIN_RATE = 0.05;
/** Two answers this close in time that disagree on what is left beyond what a shared count allows: the limit is per endpoint. */
const SPLIT_WITHIN_MS = 1_000;

/**
 * The share of 429s among the latest answers below which a 429 slows nothing: a target that
 * throttles now and then, whatever the pace (every 25th request, say), would otherwise bring the
 * run down to its slowest rate, when sending slower would not spare one 429.
 */
const DECREASE_SHARE = 0.15;
/** Answers a decrease needs since the last (one decrease per round of answers, as TCP's once per round trip). */
const DECREASE_SAMPLE = 16;
/** 429s that say nothing, from two operations this close in time: the limit they meet is the key's. */
const SHARED_WITHIN_MS = 2_000;

/**
 * What the pacer keeps of one key (or, where the target limits each endpoint apart, of one key on
 * one operation), and, in `ops`, of each operation under it: a 429 that says nothing slows its
 * operation alone until 429s of another operation show the limit is the key's.
 */
class Bucket {
  limit: number | undefined;
  windowMs: number | undefined;
  remaining: number | undefined;
  resetAt: number | undefined;
  inflight = 0;
  pausedUntil = 0;
  nextAt = 0;
  /** After a 429 that said nothing: the rate decided then, and when. */
  backoff: { rate: number; at: number } | undefined;
  /** Recent send times, for the rate a bare 429 halves. */
  readonly recent: number[] = [];
  /** Each operation's own pause and back-off; only for a key's bucket. */
  readonly ops = new Map<string, Bucket>();
  /** The latest bare 429s: which operation, when. */
  readonly bare: { operation: string; at: number }[] = [];
  /** The latest answers, 1 for a 429 and 0 for any other: the share of 429s a decrease needs. */
  readonly answers: number[] = [];

  op(operation: string): Bucket {
    let o = this.ops.get(operation);
    if (!o) this.ops.set(operation, (o = new Bucket()));
    return o;
  }
}

/** Notes an answer in `b`'s latest answers. */
function answered(b: Bucket, throttled: boolean): void {
  b.answers.push(throttled ? 1 : 0);
  if (b.answers.length > 32) b.answers.shift();
}

/** The share of 429s among `b`'s latest answers. */
const throttledShare = (b: Bucket): number => (b.answers.length ? b.answers.reduce((n, x) => n + x, 0) / b.answers.length : 0);

/** Notes a send at `now` in `b`'s recent times. */
function sent(b: Bucket, now: number): void {
  b.recent.push(now);
  if (b.recent.length > 32) b.recent.shift();
}

export class Pacer {
  readonly #fixedInterval: number | undefined;
  readonly #now: () => number;
  readonly #wall: () => number;
  readonly #wait: (ms: number) => Promise<unknown>;
  readonly #buckets = new Map<string, Bucket>();
  #fixedNext = 0;
  #requests = 0;
  #throttled = 0;
  #pacedMs = 0;
  #pausedMs = 0;
  /** The latest moment any pause runs to: pauses overlapping it are counted once. */
  #pausedTo = 0;
  readonly #maxPauseMs: number;
  readonly #backoffMs: number;
  #last: Bucket | undefined;
  /** Credentials whose target limits each operation apart. */
  readonly #split = new Set<string>();
  /** Per credential, the latest answer that said what is left: its operation, the count, when, and when that count resets. */
  readonly #said = new Map<string, { operation: string; remaining: number; at: number; resetAt: number | undefined }>();

  constructor(options: PacerOptions = {}) {
    this.#fixedInterval = options.fixedRate !== undefined && options.fixedRate > 0 && Number.isFinite(options.fixedRate) ? 1000 / options.fixedRate : undefined;
    this.#now = options.clock ?? (() => performance.now());
    this.#wall = options.wallClock ?? (() => Date.now());
    this.#wait = options.wait ?? sleep;
    this.#maxPauseMs = options.maxPauseMs ?? Infinity;
    this.#backoffMs = options.backoffMs ?? 500;
  }

  /** Whether a pause from `now` to `until` fits in what is left of the budget for pausing. */
  #fits(now: number, until: number): boolean {
    const added = until - Math.max(now, this.#pausedTo);
    return !(added > 0 && this.#pausedMs + added > this.#maxPauseMs);
  }

  /** Counts the time from `now` to `until` as paused, each moment once. */
  #account(now: number, until: number): void {
    const added = until - Math.max(now, this.#pausedTo);
    if (added <= 0) return;
    this.#pausedMs += added;
    this.#pausedTo = until;
  }

  /** Pauses `b` until `until`; false (and no pause) when that would pass the budget for pausing. */
  #pause(b: Bucket, now: number, until: number): boolean {
    if (!this.#fits(now, until)) return false;
    this.#account(now, until);
    b.pausedUntil = Math.max(b.pausedUntil, until);
    return true;
  }

  #bucket(key: string): Bucket {
    let b = this.#buckets.get(key);
    if (!b) this.#buckets.set(key, (b = new Bucket()));
    return b;
  }

  /**
   * Waits for a slot to send a request under `credential`; undefined when the slot would come
   * after `deadline` (then nothing was taken, and nothing is waited).
   */
  async acquire(credential: string, deadline = Infinity, operation = ''): Promise<Ticket | undefined> {
    const key = this.#split.has(credential) ? `${credential}\u0000${operation}` : credential;
    const b = this.#bucket(key);
    const o = b.op(operation);
    const started = this.#now();
    for (;;) {
      const now = this.#now();
      const at = Math.max(this.#slot(b, now), o.pausedUntil, o.nextAt);
      if (at > deadline) return undefined;
      if (at <= now) break;
      await this.#wait(at - now);
    }
    const now = this.#now();
    this.#pacedMs += now - started;
    b.nextAt = Math.max(b.nextAt, now) + this.#interval(b, now);
    const opRate = this.#steady(o, now);
    if (opRate !== undefined) o.nextAt = Math.max(o.nextAt, now) + 1000 / opRate;
    if (this.#fixedInterval !== undefined) this.#fixedNext = Math.max(this.#fixedNext, now) + this.#fixedInterval;
    b.inflight++;
    sent(b, now);
    sent(o, now);
    this.#requests++;
    this.#last = b;
    return { bucket: key, credential, operation, at: now };
  }

  /** The earliest time a request of `b` may go: after its pause and its gap, and, when nothing is left and only a reset will bring more, that reset. */
  #slot(b: Bucket, now: number): number {
    let at = Math.max(b.pausedUntil, b.nextAt);
    if (this.#fixedInterval !== undefined) at = Math.max(at, this.#fixedNext);
    if (b.remaining !== undefined && b.resetAt !== undefined && now >= b.resetAt) {
      // The window reset: what was spent is back (as far as the target said how much that is).
      b.remaining = b.limit;
      b.resetAt = undefined;
    }
    const left = b.remaining === undefined ? Infinity : b.remaining - b.inflight;
    if (left <= 0 && b.resetAt !== undefined && this.#steady(b, now) === undefined) at = Math.max(at, b.resetAt);
    return at;
  }

  /**
   * The gap after a request of `b` sent now. With a steady rate known (a policy, or a backed-off
   * rate): none while the target says requests are left (the burst is the target's to give),
   * then that rate's. With only a count left and a reset (`X-RateLimit-*`, often a fixed window):
   * what is left spread evenly until the reset.
   */
  #interval(b: Bucket, now: number): number {
    const steady = this.#steady(b, now);
    const left = b.remaining === undefined ? undefined : b.remaining - b.inflight;
    if (steady === undefined) return left !== undefined && b.resetAt !== undefined ? Math.max(0, b.resetAt - now) / Math.max(1, left) : 0;
    if (left !== undefined && left > MARGIN) return 0;
    return 1000 / steady;
  }

  /** The rate `b` may keep up for good (per second): its policy's, or after a bare 429 the backed-off rate grown since. */
  #steady(b: Bucket, now: number): number | undefined {
    if (b.limit !== undefined && b.windowMs !== undefined && b.windowMs > 0) return (HEADROOM * b.limit * 1000) / b.windowMs;
    if (b.backoff) return b.backoff.rate * (1 + (GROWTH_PER_S * (now - b.backoff.at)) / 1000);
    return undefined;
  }

  /**
   * What an answer to a request sent with `ticket` said: its status and headers (lower-cased
   * names). For a 429, whether its request is to be retried (after the pause the pacer now keeps).
   */
  observe(ticket: Ticket, status: number, headers: Readonly<Record<string, string>>): Throttle | undefined {
    const b = this.#bucket(ticket.bucket);
    b.inflight = Math.max(0, b.inflight - 1);
    const now = this.#now();
    const signals = readSignals(headers, this.#wall());
    this.#learnScope(ticket, signals, now);
    if (signals.limit !== undefined) b.limit = signals.limit;
    if (signals.windowMs !== undefined) b.windowMs = signals.windowMs;
    if (signals.remaining !== undefined) {
      b.remaining = signals.remaining;
      b.resetAt = signals.resetMs !== undefined ? now + signals.resetMs : undefined;
    }
    const o = b.op(ticket.operation);
    answered(b, status === 429);
    answered(o, status === 429);
    if (status !== 429) return undefined;
    this.#throttled++;
    if (b.remaining !== undefined) b.remaining = Math.min(b.remaining, 0);
    let pause = signals.retryAfterMs;
    // A pause past what is left of the budget for pausing is not taken, and says nothing of the
    // pace: that request is given up, and the run goes on as it was (one endpoint shut for a day
    // must not slow every other one).
    if (pause !== undefined && !this.#fits(now, now + pause)) return this.#giveUp(pause, headers);
    // A `Retry-After` says when, not how fast: unless the target said its rate, halve the rate
    // this was sent at (or the backed-off rate, if lower), and pause one gap if nothing said how
    // long. Whose rate: the operation's, until bare 429s of two operations show it is the key's.
    const rateKnown = b.remaining !== undefined || (b.limit !== undefined && b.windowMs !== undefined);
    let slowed: Bucket = b;
    let backoff: Bucket['backoff'];
    if (!rateKnown) {
      b.bare.push({ operation: ticket.operation, at: now });
      while (b.bare.length && now - b.bare[0]!.at > SHARED_WITHIN_MS) b.bare.shift();
      const shared = b.backoff !== undefined || b.bare.some((x) => x.operation !== ticket.operation);
      slowed = shared ? b : b.op(ticket.operation);
      // Requests sent before the last decrease met the old rate: one decrease for them all. And a
      // 429 now and then is no sign of the pace: it is waited out (`--backoff`'s gap), nothing slowed.
      const lone = slowed.answers.length < DECREASE_SAMPLE || throttledShare(slowed) < DECREASE_SHARE;
      if (lone && pause === undefined) {
        // Nothing said, and no sign of the pace: only this request waits, the run goes on as it was.
        const wait = this.#backoffMs;
        if (!this.#fits(now, now + wait)) return this.#giveUp(wait, headers);
        this.#account(now, now + wait);
        return { retry: true, afterMs: wait };
      }
      // (A lone 429 that says when pauses as it says, and slows nothing.)
      if (!lone && !(slowed.backoff && ticket.at < slowed.backoff.at)) {
        const recent = slowed.recent;
        const sending = recent.length >= 2 ? ((recent.length - 1) * 1000) / Math.max(1, now - recent[0]!) : 1000 / this.#backoffMs;
        const current = slowed.backoff ? Math.min(this.#steady(slowed, now)!, sending) : sending;
        backoff = { rate: Math.max(MIN_RATE, current / 2), at: now };
        pause ??= 1000 / backoff.rate;
      }
    }
    // Nothing left and no steady rate to go on: the reset is when more comes.
    if (pause === undefined && b.resetAt !== undefined && this.#steady(b, now) === undefined) pause = b.resetAt - now;
    // A pause that does not fit is not taken, and the pace is left as it was.
    if (pause !== undefined && pause > 0 && !this.#fits(now, now + pause)) return this.#giveUp(pause, headers);
    if (backoff) {
      slowed.backoff = backoff;
      // The next decrease waits for a round of answers to the new pace.
      slowed.answers.length = 0;
    }
    if (pause !== undefined && pause > 0) this.#pause(slowed, now, now + pause);
    return { retry: true };
  }

  #giveUp(pause: number, headers: Readonly<Record<string, string>>): Throttle {
    const asked = headers['retry-after'] === undefined ? 'no Retry-After' : `Retry-After: ${clip(headers['retry-after'], 40)}`;
    return { retry: false, why: `HTTP 429 asked to wait ${seconds(pause)} (${asked}), more than the ${seconds(Math.max(0, this.#maxPauseMs - this.#pausedMs))} left of the run's ${seconds(this.#maxPauseMs)} for waiting out 429s (--max-wait-s)` };
  }

  /**
   * Whether the target's limit is per operation: an answer of one operation says more is left
   * than an answer of another said just before, by more than a shared count could have regained
   * (a tenth of the limit, and the requests in flight). Once seen, the credential is paced per
   * operation for the rest of the run.
   */
  #learnScope(ticket: Ticket, signals: { readonly remaining?: number; readonly limit?: number; readonly resetMs?: number }, now: number): void {
    if (signals.remaining === undefined || this.#split.has(ticket.credential)) return;
    const before = this.#said.get(ticket.credential);
    this.#said.set(ticket.credential, { operation: ticket.operation, remaining: signals.remaining, at: now, resetAt: signals.resetMs === undefined ? undefined : now + signals.resetMs });
    if (!before || before.operation === ticket.operation || now - before.at > SPLIT_WITHIN_MS) return;
    // A fixed window that reset in between gives everything back: no sign either way.
    if (before.resetAt !== undefined && now >= before.resetAt) return;
    const limit = signals.limit ?? Math.max(before.remaining, signals.remaining);
    const slack = 2 + limit / 10 + this.#bucket(ticket.credential).inflight;
    if (signals.remaining > before.remaining + slack) this.#split.add(ticket.credential);
  }

  /** No answer came for `ticket` (a timeout, a reset): its slot is free again. */
  settle(ticket: Ticket): void {
    const b = this.#bucket(ticket.bucket);
    b.inflight = Math.max(0, b.inflight - 1);
  }

  get stats(): PacerStats {
    const b = this.#last;
    const now = this.#now();
    const steady = b ? this.#steady(b, now) : undefined;
    const fixed = this.#fixedInterval === undefined ? undefined : 1000 / this.#fixedInterval;
    const allowedRate = fixed !== undefined && steady !== undefined ? Math.min(fixed, steady) : (fixed ?? steady);
    const source = fixed !== undefined && (steady === undefined || fixed <= steady) ? 'fixed' : b?.backoff && steady !== undefined && b.windowMs === undefined ? 'backoff' : steady !== undefined ? 'policy' : b?.remaining !== undefined ? 'remaining' : undefined;
    return {
      requests: this.#requests,
      throttled: this.#throttled,
      pacedMs: this.#pacedMs,
      pausedMs: this.#pausedMs,
      ...(allowedRate !== undefined ? { allowedRate } : {}),
      ...(source ? { source } : {}),
      ...(this.#split.size ? { perOperation: true as const } : {}),
    };
  }
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
