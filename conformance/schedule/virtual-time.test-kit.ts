/**
 * Virtual time for the pacer's tests: timers that fire when the test advances the clock, so a
 * run of thousands of requests behind a 2-per-second limit takes milliseconds, the same each time.
 */
export class VirtualTime {
  now = 0;
  readonly #timers: { at: number; resolve: () => void }[] = [];

  readonly clock = (): number => this.now;
  readonly wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.#timers.push({ at: this.now + Math.max(0, ms), resolve });
      this.#timers.sort((a, b) => a.at - b.at);
    });

  /** Lets every promise that can settle settle, then fires the next timer; false when none is left. */
  async step(): Promise<boolean> {
    for (let i = 0; i < 20; i++) await Promise.resolve();
    const next = this.#timers.shift();
    if (!next) return false;
    this.now = Math.max(this.now, next.at);
    next.resolve();
    return true;
  }

  /** Runs until `done` settles (its timers fired as they come due). */
  async run<T>(done: Promise<T>): Promise<T> {
    let settled = false;
    const result = done.finally(() => {
      settled = true;
    });
    while (!settled) {
      if (await this.step()) continue;
      for (let i = 0; i < 20 && !settled; i++) await Promise.resolve();
      if (!settled) throw new Error('virtual time: nothing left to wait for, and the run has not ended');
    }
    return result;
  }
}
