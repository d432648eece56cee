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
 * - A 429 without a stated rate, once 429s are a sizeable share of a round of answers, halves the
 *   rate its requests went out at over the last seconds (but not below what the target let
 *   through meanwhile), which then grows back by a tenth a second (one decrease per round of answers: requests sent before it do not decrease it again);
 *   a `Retry-After` pauses until then. Whose rate: the operation's, until such 429s of
 *   two operations show the limit is the key's. 429s now and then among many answers (a target
 *   that throttles every 25th request, whatever the pace) slow nothing: that request alone waits,
 *   longer each time, and goes again.
 * - A target whose limit is per endpoint shows it: an operation's answer, sent after another
 *   operation's answer came, says more is left than that one did by more than a shared count
 *   could regain. Seen twice, that key is paced per operation from then on.
 * - A pause that would pass the run's budget for pausing (`--max-wait-s`) is not taken: that
 *   request is given up (and judges nothing); the decrease its 429 calls for still holds.
 *
 * The target's own words: the document states no limit ("Rate limits and quotas: not shown").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { clip } from '../body.ts';
import { Bucket } from './bucket.ts';
import { readSignals, type RateSignals } from './signals.ts';

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
  /** The first wait of a request after a lone 429 that says nothing (default 500 ms), doubled for each next. */
  readonly backoffMs?: number;
}

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
  /** Which attempt of its request this is (0 the first): a lone 429's wait doubles with each. */
  readonly attempt: number;
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
  /** Where that rate comes from: `--rate`, the target's policy, its limit and reset, or 429s without a word. */
  readonly source?: 'fixed' | 'policy' | 'remaining' | 'backoff';
  /** The target's limit showed itself per endpoint: requests are paced per operation. */
  readonly perOperation?: true;
}

/** Requests kept in hand below what the target says is left: answers in flight may already have used some. */
const MARGIN = 1;
/** The increase after a decrease: a tenth more each second without another (it doubles in about 7 s). */
const GROWTH_PER_S = 1 / 10;
/** The slowest rate a decrease goes to. */
const MIN_RATE = 0.05;
/**
 * The share of a stated rate the run keeps to: requests sent exactly at the limit arrive a little
 * early or late by chance, and half of the early ones would draw a 429.
 */
const HEADROOM = 0.95;
/**
 * Answers since the last decrease, and a share of 429s among them, below which a 429 is one now
 * and then: it slows nothing (a `Retry-After` still pauses as it says).
 */
const LONE_SAMPLE = 8;
const LONE_SHARE = 0.15;
/** Answers of 429 in a row, to one key, after which its requests are given up at once. */
const REFUSED_EVERY_TIME = 16;
/** The longest a lone 429's request waits before it goes again. */
const MAX_LONE_WAIT_MS = 8_000;
/** 429s that say nothing, from two operations this close in time: the limit they meet is the key's. */
const SHARED_WITHIN_MS = 2_000;
/** How close in time two answers must be to tell a limit per endpoint, and how often they must tell it. */
const SPLIT_WITHIN_MS = 1_000;
const SPLIT_SIGNS = 2;

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
  /** Credentials whose target limits each operation apart, and the signs of it seen so far. */
  readonly #split = new Set<string>();
  readonly #splitSigns = new Map<string, number>();
  /** Per credential, the latest answer that said what is left: its operation, the count, when it came, and when that count resets. */
  readonly #said = new Map<string, { operation: string; remaining: number; at: number; resetAt: number | undefined }>();

  constructor(options: PacerOptions = {}) {
    this.#fixedInterval = options.fixedRate !== undefined && options.fixedRate > 0 && Number.isFinite(options.fixedRate) ? 1000 / options.fixedRate : undefined;
    this.#now = options.clock ?? (() => performance.now());
    this.#wall = options.wallClock ?? (() => Date.now());
    this.#wait = options.wait ?? sleep;
    this.#maxPauseMs = options.maxPauseMs ?? Infinity;
    this.#backoffMs = options.backoffMs ?? 500;
  }

  #bucket(key: string): Bucket {
    let b = this.#buckets.get(key);
    if (!b) this.#buckets.set(key, (b = new Bucket()));
    return b;
  }

  #keyOf(credential: string, operation: string): string {
    return this.#split.has(credential) ? `${credential}\u0000${operation}` : credential;
  }

  /** The earliest time a request of `operation` under `credential` may go. */
  #slotOf(credential: string, operation: string, now: number): number {
    const b = this.#bucket(this.#keyOf(credential, operation));
    const o = b.op(operation);
    return Math.max(this.#slot(b, now), o.pausedUntil, o.nextAt);
  }

  /** How long until a request of `operation` under `credential` may go (0: now): a scheduler sends others meanwhile. */
  readyIn(credential: string, operation = ''): number {
    const now = this.#now();
    return Math.max(0, this.#slotOf(credential, operation, now) - now);
  }

  /**
   * Waits for a slot to send a request under `credential`; undefined when the slot would come
   * after `deadline` (then nothing was taken, and nothing is waited).
   */
  async acquire(credential: string, deadline = Infinity, operation = '', attempt = 0): Promise<Ticket | undefined> {
    const started = this.#now();
    for (;;) {
      const now = this.#now();
      const at = this.#slotOf(credential, operation, now);
      if (at > deadline) return undefined;
      if (at <= now) break;
      await this.#wait(at - now);
    }
    const now = this.#now();
    const key = this.#keyOf(credential, operation);
    const b = this.#bucket(key);
    const o = b.op(operation);
    this.#pacedMs += now - started;
    b.nextAt = Math.max(b.nextAt, now) + this.#interval(b, now);
    const opRate = this.#steady(o, now);
    if (opRate !== undefined) o.nextAt = Math.max(o.nextAt, now) + 1000 / opRate;
    if (this.#fixedInterval !== undefined) this.#fixedNext = Math.max(this.#fixedNext, now) + this.#fixedInterval;
    b.inflight++;
    b.sent(now);
    o.sent(now);
    this.#requests++;
    this.#last = b;
    return { bucket: key, credential, operation, at: now, attempt };
  }

  /** The earliest time a request of `b` may go: after its pause and its gap, and, when nothing is left and only a reset will bring more, that reset. */
  #slot(b: Bucket, now: number): number {
    let at = Math.max(b.pausedUntil, b.nextAt);
    if (this.#fixedInterval !== undefined) at = Math.max(at, this.#fixedNext);
    const left = b.leftNow(now);
    if (left !== undefined && left <= 0 && b.resetAt !== undefined && this.#steady(b, now) === undefined) at = Math.max(at, b.resetAt);
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
    const left = b.leftNow(now);
    if (steady === undefined) return left !== undefined && b.resetAt !== undefined ? Math.max(0, b.resetAt - now) / Math.max(1, left) : 0;
    if (left !== undefined && left > MARGIN) return 0;
    return 1000 / steady;
  }

  /** The rate `b` may keep up for good (per second): its policy's, or after a decrease the backed-off rate grown since. */
  #steady(b: Bucket, now: number): number | undefined {
    if (b.limit !== undefined && b.windowMs !== undefined && b.windowMs > 0) return (HEADROOM * b.limit * 1000) / b.windowMs;
    if (b.backoff) return b.backoff.rate * (1 + GROWTH_PER_S) ** ((now - b.backoff.at) / 1000);
    return undefined;
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

  /**
   * What an answer to a request sent with `ticket` said: its status and headers (lower-cased
   * names). For a 429, whether its request is to be retried (after the pause the pacer now keeps).
   */
  observe(ticket: Ticket, status: number, headers: Readonly<Record<string, string>>): Throttle | undefined {
    const b = this.#bucket(ticket.bucket);
    const o = b.op(ticket.operation);
    b.inflight = Math.max(0, b.inflight - 1);
    const now = this.#now();
    const signals = readSignals(headers, this.#wall());
    this.#learnScope(ticket, signals, now);
    if (signals.limit !== undefined) b.limit = signals.limit;
    if (signals.windowMs !== undefined) b.windowMs = signals.windowMs;
    if (signals.remaining !== undefined) {
      b.remaining = signals.remaining;
      b.resetAt = signals.resetMs !== undefined ? now + signals.resetMs : undefined;
      if (signals.resetMs !== undefined) b.longestResetMs = Math.max(b.longestResetMs, signals.resetMs);
    }
    b.answered(status === 429, now);
    o.answered(status === 429, now);
    if (status !== 429) return undefined;
    this.#throttled++;
    if (b.remaining !== undefined) b.remaining = Math.min(b.remaining, 0);
    // A key the target refuses every time, pauses and all: waiting longer would buy nothing.
    if (b.throttledInARow >= REFUSED_EVERY_TIME) return { retry: false, why: `the target answered 429 to each of the last ${b.throttledInARow} requests with this key, whatever the pause` };
    let pause = signals.retryAfterMs;
    const rateKnown = b.remaining !== undefined || (b.limit !== undefined && b.windowMs !== undefined);
    // Whose pace a 429 that says nothing of the rate is about: its operation's, until such 429s
    // of another operation come close by; then the key's.
    let slowed: Bucket = b;
    if (!rateKnown) {
      b.bare.push({ operation: ticket.operation, at: now });
      while (b.bare.length && now - b.bare[0]!.at > SHARED_WITHIN_MS) b.bare.shift();
      if (!b.backoff && !b.bare.some((x) => x.operation !== ticket.operation)) slowed = o;
      // Too few answers since the last decrease to tell (one decrease per round), or few of them 429s: a lone one.
      const lone = slowed.answers.length < LONE_SAMPLE || slowed.throttledShare < LONE_SHARE;
      if (lone && pause === undefined) {
        // Now and then, and nothing said: only this request waits, longer each time, and the run goes on as it was.
        const wait = Math.min(MAX_LONE_WAIT_MS, this.#backoffMs * 2 ** ticket.attempt);
        if (!this.#fits(now, now + wait)) return this.#giveUp(wait, headers);
        this.#account(now, now + wait);
        return { retry: true, afterMs: wait };
      }
      // One decrease per round of answers: requests sent before the last one met the old rate.
      if (!lone && !(slowed.backoff && ticket.at < slowed.backoff.at)) {
        // Half the rate it was sending at, but not below what the target let through meanwhile:
        // a target that refuses now and then but passes most goes on near its pace.
        const sending = slowed.sendingRate(now, 1000 / this.#backoffMs);
        const current = slowed.backoff ? Math.min(this.#steady(slowed, now)!, sending) : sending;
        const rate = Math.min(current, Math.max(current / 2, 0.9 * slowed.passingRate(now)));
        slowed.backoff = { rate: Math.max(MIN_RATE, rate), at: now };
        slowed.answers.length = 0;
        pause ??= 1000 / slowed.backoff.rate;
      }
    }
    // Nothing left and no steady rate to go on: the reset is when more comes.
    if (pause === undefined && b.resetAt !== undefined && this.#steady(b, now) === undefined) pause = b.resetAt - now;
    // A pause that does not fit is not taken: the request is given up (the decrease stands).
    if (pause === undefined || pause <= 0) return { retry: true };
    if (!this.#fits(now, now + pause)) return this.#giveUp(pause, headers);
    this.#account(now, now + pause);
    slowed.pausedUntil = Math.max(slowed.pausedUntil, now + pause);
    return { retry: true };
  }

  #giveUp(pause: number, headers: Readonly<Record<string, string>>): Throttle {
    const asked = headers['retry-after'] === undefined ? 'no Retry-After' : `Retry-After: ${clip(headers['retry-after'], 40)}`;
    return { retry: false, why: `HTTP 429 asked to wait ${seconds(pause)} (${asked}), more than the ${seconds(Math.max(0, this.#maxPauseMs - this.#pausedMs))} left of the run's ${seconds(this.#maxPauseMs)} for waiting out 429s (--max-wait-s)` };
  }

  /**
   * Whether the target's limit is per operation. An answer of one operation to a request sent
   * after another operation's answer came (so the target counted it later) says more is left than
   * that answer did, by more than a shared count could regain in between (a tenth of the limit):
   * with a shared count, that cannot be. Seen `SPLIT_SIGNS` times, the credential is paced per
   * operation for the rest of the run.
   */
  #learnScope(ticket: Ticket, signals: RateSignals, now: number): void {
    if (signals.remaining === undefined || this.#split.has(ticket.credential)) return;
    const before = this.#said.get(ticket.credential);
    this.#said.set(ticket.credential, { operation: ticket.operation, remaining: signals.remaining, at: now, resetAt: signals.resetMs === undefined ? undefined : now + signals.resetMs });
    if (!before || before.operation === ticket.operation || ticket.at < before.at || now - before.at > SPLIT_WITHIN_MS) return;
    // A fixed window that reset in between gives everything back: no sign either way.
    if (before.resetAt !== undefined && ticket.at >= before.resetAt) return;
    const limit = signals.limit ?? Math.max(before.remaining, signals.remaining);
    if (signals.remaining <= before.remaining + 2 + limit / 10) return;
    const signs = (this.#splitSigns.get(ticket.credential) ?? 0) + 1;
    this.#splitSigns.set(ticket.credential, signs);
    if (signs >= SPLIT_SIGNS) this.#split.add(ticket.credential);
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
    // A limit and its reset, without a window: the longest reset named stands for the window.
    const estimate = b?.limit !== undefined && b.longestResetMs > 0 ? (b.limit * 1000) / b.longestResetMs : undefined;
    const target = steady ?? estimate;
    const fixed = this.#fixedInterval === undefined ? undefined : 1000 / this.#fixedInterval;
    const allowedRate = fixed !== undefined && target !== undefined ? Math.min(fixed, target) : (fixed ?? target);
    const source =
      fixed !== undefined && (target === undefined || fixed <= target)
        ? 'fixed'
        : steady === undefined
          ? estimate !== undefined
            ? 'remaining'
            : undefined
          : b?.windowMs === undefined
            ? 'backoff'
            : 'policy';
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
