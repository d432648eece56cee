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

/** The runner's own delays over a span: in all, the longest, how many. */
export interface RunnerDelayStats {
  /** Time the process could not run, in all, in ms. */
  readonly delayedMs: number;
  /** The longest single stall, in ms. */
  readonly longestMs: number;
  /** Stalls longer than the slack. */
  readonly stalls: number;
}

/**
 * Stalls kept, for the spans asked about (a request's deadline, a stretch of requests waiting):
 * past this many within one span (minutes of a starved run), its figures are a lower bound.
 */
const KEPT_STALLS = 16_384;

export class RunnerDelay {
  readonly #clock: () => number;
  readonly #tickMs: number;
  readonly #slackMs: number;
  #stalls: Stall[] = [];
  #last = 0;
  #holders = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: { readonly clock?: () => number; readonly tickMs?: number; readonly slackMs?: number } = {}) {
    this.#clock = options.clock ?? (() => performance.now());
    this.#tickMs = options.tickMs ?? 20;
    this.#slackMs = options.slackMs ?? 40;
  }

  /** Starts watching (the first holder starts the timer); `release` when done. */
  hold(): void {
    if (this.#holders++ === 0) {
      this.#last = this.#clock();
      this.#timer = setInterval(() => this.tick(), this.#tickMs);
      this.#timer.unref();
    }
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

  /** How long the process could not run between `from` and now, counting a stall still under way (the tick that ends it may not have run yet). */
  stalledWithin(from: number): number {
    return this.within(from).delayedMs;
  }

  /** The stalls between `from` and now (the parts of them within it), the one under way included. */
  within(from: number): RunnerDelayStats {
    let delayedMs = 0;
    let longestMs = 0;
    let stalls = 0;
    const open = this.#open();
    for (const s of open ? [...this.#stalls, open] : this.#stalls) {
      const ms = s.to - Math.max(s.from, from);
      if (ms <= 0) continue;
      delayedMs += ms;
      longestMs = Math.max(longestMs, ms);
      stalls++;
    }
    return { delayedMs, longestMs, stalls };
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
  }
}

/** What a transport asks of a watch (tests give one that sees what they say). */
export type DelayWatch = Pick<RunnerDelay, 'hold' | 'release' | 'within' | 'runningSince'>;

/**
 * The stalls while something waited: `busy()` when a wait begins, `idle()` when it ends (they
 * nest), `stats()` at any time. Stalls while nothing waited (the suite planning, its reports)
 * held nothing up: they are not counted.
 */
export class WaitingDelay {
  #waiting = 0;
  #since = 0;
  #done: RunnerDelayStats = { delayedMs: 0, longestMs: 0, stalls: 0 };

  constructor(
    private readonly watch: DelayWatch,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  busy(): void {
    if (this.#waiting++ === 0) this.#since = this.clock();
  }

  idle(): void {
    if (this.#waiting === 0 || --this.#waiting > 0) return;
    this.#done = add(this.#done, this.watch.within(this.#since));
  }

  stats(): RunnerDelayStats {
    const all = this.#waiting > 0 ? add(this.#done, this.watch.within(this.#since)) : this.#done;
    return { delayedMs: Math.round(all.delayedMs), longestMs: Math.round(all.longestMs), stalls: all.stalls };
  }
}

const add = (a: RunnerDelayStats, b: RunnerDelayStats): RunnerDelayStats => ({ delayedMs: a.delayedMs + b.delayedMs, longestMs: Math.max(a.longestMs, b.longestMs), stalls: a.stalls + b.stalls });

/** The process's one watch. */
export const runnerDelay = new RunnerDelay();
