/**
 * How long this process itself could not run. A timer ticks every `tickMs`; a tick that comes
 * later than `tickMs + slackMs` after the one before means the event loop was held (a long
 * synchronous step, a busy loop, a machine giving its CPUs to others) for the time past `tickMs`.
 * The suite's deadlines count only the time it was running: an answer that arrived while the
 * process could not read its socket is no slowness of the target, and a verdict must not rest on
 * the runner's own speed. One watch per process, shared by every run in it (a run reads the
 * stalls within its own span); it ticks only while some run holds it, and never keeps the
 * process alive.
 */

/** A span of time (performance.now() ms) the process could not run. */
interface Stall {
  readonly from: number;
  readonly to: number;
}

/** What a run reports of the runner's own delays, from `RunnerDelay.since(mark)`. */
export interface RunnerDelayStats {
  /** Time the process could not run, in all, in ms. */
  readonly delayedMs: number;
  /** The longest single stall, in ms. */
  readonly longestMs: number;
  /** Stalls longer than the slack. */
  readonly stalls: number;
}

/** Where a run began, for `since`. */
export interface DelayMark {
  readonly at: number;
  readonly total: number;
  readonly count: number;
}

/** Stalls kept for the questions of open deadlines (a deadline is never older than a few of them). */
const KEPT_STALLS = 4096;

export class RunnerDelay {
  readonly #clock: () => number;
  readonly #tickMs: number;
  readonly #slackMs: number;
  #stalls: Stall[] = [];
  #total = 0;
  #count = 0;
  #last = 0;
  #holders = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: { readonly clock?: () => number; readonly tickMs?: number; readonly slackMs?: number } = {}) {
    this.#clock = options.clock ?? (() => performance.now());
    this.#tickMs = options.tickMs ?? 20;
    this.#slackMs = options.slackMs ?? 40;
  }

  /** Starts watching (the first holder starts the timer); `release` when done. */
  hold(): DelayMark {
    if (this.#holders++ === 0) {
      this.#last = this.#clock();
      this.#timer = setInterval(() => this.tick(), this.#tickMs);
      this.#timer.unref();
    }
    return this.mark();
  }

  release(): void {
    if (this.#holders > 0 && --this.#holders === 0) {
      this.tick();
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** One tick: the time past `tickMs` since the last one, if it is past the slack, was a stall. Called by the timer (tests call it with a clock of their own). */
  tick(): void {
    const now = this.#clock();
    const late = now - this.#last - this.#tickMs;
    if (late > this.#slackMs) this.#record({ from: now - late, to: now });
    this.#last = now;
  }

  mark(): DelayMark {
    return { at: this.#clock(), total: this.#total, count: this.#count };
  }

  /** The runner's delays since `mark` (the stall under way now included). */
  since(mark: DelayMark): RunnerDelayStats {
    const open = this.#open();
    const openMs = open ? open.to - open.from : 0;
    let longestMs = openMs;
    for (const s of this.#stalls) if (s.to > mark.at) longestMs = Math.max(longestMs, s.to - s.from);
    return { delayedMs: Math.round(this.#total - mark.total + openMs), longestMs: Math.round(longestMs), stalls: this.#count - mark.count + (open ? 1 : 0) };
  }

  /** How long the process could not run between `from` and now, counting a stall still under way (the tick that ends it may not have run yet). */
  stalledWithin(from: number): number {
    let ms = 0;
    const open = this.#open();
    for (const s of open ? [...this.#stalls, open] : this.#stalls) ms += Math.max(0, s.to - Math.max(s.from, from));
    return ms;
  }

  /** How long the process ran between `from` and now. */
  runningSince(from: number): number {
    return this.#clock() - from - this.stalledWithin(from);
  }

  /** The stall under way: the time since the last tick past `tickMs` and the slack, when the timer has not come back yet. */
  #open(): Stall | undefined {
    if (this.#holders === 0) return undefined;
    const now = this.#clock();
    const late = now - this.#last - this.#tickMs;
    return late > this.#slackMs ? { from: now - late, to: now } : undefined;
  }

  #record(stall: Stall): void {
    this.#stalls.push(stall);
    if (this.#stalls.length > KEPT_STALLS) this.#stalls = this.#stalls.slice(-KEPT_STALLS / 2);
    this.#total += stall.to - stall.from;
    this.#count++;
  }
}

/** What a transport asks of a watch (tests give one that sees what they say). */
export type DelayWatch = Pick<RunnerDelay, 'hold' | 'release' | 'since' | 'runningSince'>;

/** The process's one watch. */
export const runnerDelay = new RunnerDelay();
