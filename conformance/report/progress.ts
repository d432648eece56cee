/**
 * Progress while a run goes: on a terminal one line redrawn in place, anywhere else a line every
 * few seconds and at each phase's start and end. Each says the phase and how far it is, the
 * requests sent, the rate of the last few seconds, the 429s met and, while probes are sent at a
 * measurable pace, when they will be done: against a throttled API that is the figure a user waits on.
 */
import { count } from '../checks/values.ts';
import type { Progress } from '../run/execute.ts';

/** Where progress goes: a terminal gets one line redrawn in place, anything else a line now and then. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** How far back the rate and the ETA look: long enough to smooth a burst, short enough to follow a change of pace. */
const WINDOW_MS = 10_000;

/** Recent samples of (time, requests, probes done), for the rate and the ETA. */
class Pace {
  readonly #samples: { at: number; requests: number; done: number }[] = [];

  add(at: number, requests: number, done: number): void {
    this.#samples.push({ at, requests, done });
    while (this.#samples.length > 2 && at - this.#samples[1]!.at >= WINDOW_MS) this.#samples.shift();
  }

  /** Requests per second over the window; undefined before a second has passed. */
  rate(): number | undefined {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || last.at - first.at < 1000) return undefined;
    return ((last.requests - first.requests) * 1000) / (last.at - first.at);
  }

  /** Time until `total` probes are done at the window's pace; undefined while that pace is unknown. */
  eta(total: number): number | undefined {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || last.at - first.at < 1000 || last.done <= first.done) return undefined;
    return ((total - last.done) * (last.at - first.at)) / (last.done - first.done);
  }
}

/** `45s`, `3m05s`, `1h02m`: a time left, in one form whatever its length. */
function timeLeft(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function createProgress(
  stream: ProgressStream,
  everyMs = 2000,
  clock: () => number = () => Date.now(),
): { update: (p: Progress) => void; say: (line: string) => void; end: () => void } {
  const tty = stream.isTTY === true;
  let last = 0;
  let lastPhase = '';
  const endedPhases = new Set<string>();
  let drawn = false;
  const pace = new Pace();
  let probesDone = 0;
  const ended = (p: Progress) => p.ended ?? p.done === p.total;
  const failures = (p: Progress) => count(p.failures, 'distinct failure');
  /** The pace of the run, where there is one to say: requests per second, 429s, when the probes end. */
  const paced = (p: Progress): string => {
    const rate = pace.rate();
    const eta = p.phase === 'probes' && !ended(p) ? pace.eta(p.total) : undefined;
    // The budget ends the run first: the ETA is its end.
    const capped = eta !== undefined && p.deadlineIn !== undefined && p.deadlineIn < eta;
    const until = capped ? p.deadlineIn : eta;
    return [
      ...(rate !== undefined ? [`${rate < 10 ? rate.toFixed(1) : Math.round(rate)}/s`] : []),
      ...(p.throttled ? [`${p.throttled} throttled`] : []),
      ...(until !== undefined && until >= 5_000 ? [`ETA ${timeLeft(until)}${capped ? ' (--max-duration)' : ''}`] : []),
    ]
      .map((part) => `, ${part}`)
      .join('');
  };
  const text = (p: Progress) =>
    p.phase === 'probes'
      ? `probes ${p.done}/${p.total}${p.unsent ? ` (${p.unsent} not sent)` : ''}, ${count(p.requests, 'request')}, ${failures(p)}${paced(p)}`
      : p.phase === 'scenarios'
        ? `scenarios ${p.done}/${p.total}, ${count(p.requests, 'request')}, ${failures(p)}${paced(p)}`
        : p.phase === 'shrinking'
          ? ended(p)
            ? `shrinking failures: done, ${count(p.done, 'extra request')} of a budget of ${p.total}, ${count(p.requests, 'request')}`
            : `shrinking failures: ${count(p.done, 'extra request')} of at most ${p.total}, ${count(p.requests, 'request')}${paced(p)}`
          : `done: ${count(p.requests, 'request')}, ${failures(p)}`;
  const clear = () => {
    if (tty && drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    update(p) {
      const now = clock();
      if (p.phase === 'probes') probesDone = p.done;
      pace.add(now, p.requests, probesDone);
      if (tty) {
        if (now - last < 80 && !ended(p)) return;
        last = now;
        stream.write(`\r\x1b[2K${text(p)}`);
        drawn = true;
        return;
      }
      if (p.phase === 'done') return;
      const end = ended(p);
      const due = p.phase !== lastPhase || (end && !endedPhases.has(p.phase)) || now - last >= everyMs;
      if (!due) return;
      last = now;
      lastPhase = p.phase;
      if (end) endedPhases.add(p.phase);
      stream.write(`${text(p)}\n`);
    },
    say(line) {
      clear();
      stream.write(`${line}\n`);
    },
    end: clear,
  };
}
