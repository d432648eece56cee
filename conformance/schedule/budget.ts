/**
 * The run's budget: at most `--max-requests` requests and `--max-duration` of time, from the
 * run's start. Once it is spent nothing more is sent; what was not sent judges nothing (its rows
 * are "not judged", never failed), and the report says what the budget bought.
 *
 * A share of it is kept for clean-up (`reserve`): the probes and the properties' sequences stop
 * that much before the limit, so what the run added to the target (probe DNS values) can still be
 * removed within it.
 */

export interface BudgetLimits {
  readonly maxRequests?: number;
  readonly maxDurationMs?: number;
}

/** What a request is for: clean-up may spend the reserve, everything else stops before it. */
export type Spending = 'run' | 'cleanup';

export class RunBudget {
  readonly limits: BudgetLimits;
  readonly #now: () => number;
  readonly #deadline: number;
  #sent = 0;
  #reserve = { requests: 0, ms: 0 };
  #stopped: string | undefined;

  constructor(limits: BudgetLimits = {}, clock: () => number = () => performance.now(), startedAt = clock()) {
    this.limits = limits;
    this.#now = clock;
    this.#deadline = limits.maxDurationMs === undefined ? Infinity : startedAt + limits.maxDurationMs;
  }

  /** Keeps up to this share of the budget for clean-up (at most a tenth of each limit). */
  reserve(requests: number, ms: number): void {
    this.#reserve = {
      requests: Math.min(requests, Math.floor((this.limits.maxRequests ?? 0) / 10)),
      ms: Math.min(ms, (this.limits.maxDurationMs ?? 0) / 10),
    };
  }

  /** The time by which a request must have been sent and answered (monotonic ms); Infinity without `--max-duration`. */
  deadline(spending: Spending = 'run'): number {
    return spending === 'cleanup' ? this.#deadline : this.#deadline - this.#reserve.ms;
  }

  get sent(): number {
    return this.#sent;
  }

  /** Whether any limit is set: the run then schedules coverage first. */
  get bounded(): boolean {
    return this.limits.maxRequests !== undefined || this.limits.maxDurationMs !== undefined;
  }

  /** Why nothing more may be sent for `spending` (the first limit reached), or undefined while some budget is left. */
  spent(spending: Spending = 'run'): string | undefined {
    const max = this.limits.maxRequests;
    const kept = spending === 'run' ? this.#reserve : { requests: 0, ms: 0 };
    if (max !== undefined && this.#sent >= max - kept.requests) return this.#stop(`--max-requests ${max} reached${kept.requests ? ` (the last ${kept.requests} kept for clean-up)` : ''}`, spending);
    if (this.#now() >= this.deadline(spending)) return this.#stop(this.#durationReached(kept.ms), spending);
    return spending === 'run' ? this.#stopped : undefined;
  }

  #durationReached(keptMs: number): string {
    return `--max-duration ${formatDuration(this.limits.maxDurationMs ?? 0)} reached${keptMs >= 1000 ? ` (the last ${formatDuration(keptMs)} kept for clean-up)` : ''}`;
  }

  /** `--max-duration 3m`, or the words for no duration at all. */
  get durationFlag(): string {
    return this.limits.maxDurationMs === undefined ? 'the run' : `--max-duration ${formatDuration(this.limits.maxDurationMs)}`;
  }

  /** Why the run stopped sending before it was done, once it did. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  #stop(why: string, spending: Spending): string {
    if (spending === 'run') this.#stopped ??= why;
    return why;
  }

  /** Stops the run's sending from now on (what was found already decides what the run is for). */
  stop(why: string): void {
    this.#stop(why, 'run');
  }

  /** Takes one request from the budget; the reason it is spent instead, when it is. */
  take(spending: Spending = 'run'): string | undefined {
    const why = this.spent(spending);
    if (why === undefined) this.#sent++;
    return why;
  }

  /** A request `spending` cut short at its deadline: why it is not judged (and, for the run, that the budget is spent from now on). */
  cutAtDeadline(spending: Spending = 'run'): string {
    return this.#stop(this.#durationReached(spending === 'run' ? this.#reserve.ms : 0), spending);
  }
}

/** `--max-duration`: a number with a unit, `90s`, `10m`, `1.5h`, or several, `1h30m` (seconds without one). */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  const parts = /^\d+(?:\.\d+)?$/.test(t) ? [`${t}s`] : /^(?:\d+(?:\.\d+)?\s*[hms]\s*)+$/.test(t) ? t.match(/\d+(?:\.\d+)?\s*[hms]/g)! : undefined;
  if (!parts) return undefined;
  const unit = { s: 1000, m: 60_000, h: 3_600_000 } as const;
  const ms = parts.reduce((sum, part) => sum + Number(part.slice(0, -1).trim()) * unit[part.at(-1) as 'h' | 'm' | 's'], 0);
  return ms > 0 && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** `0.3s`, `45s`, `3m`, `1h30m`: a duration as the flag takes it (under two minutes in seconds). */
export function formatDuration(ms: number): string {
  if (ms < 120_000) return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))}s`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${rest ? `${rest}s` : ''}`;
}
