/**
 * The property runner on its own, with a stand-in property (no server): shrinking keeps to the
 * failure first found, a violation the state as found shows is the verdict when no run fails,
 * a failure carries the requests that reproduce it, shrinking sends no candidate twice and reads
 * each fewer times, and the budget follows the target and `--state-window-s`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../spec/queries.ts';
import { conformFlags } from '../flags.ts';
import { contextOf, mockTarget } from '../probes/test-target.ts';
import type { Exchange, Probe, Send } from '../types.ts';
import { budgetFor, EMBEDDED_BUDGET, LIVE_BUDGET, runStateProperty, startStateProperty, Violation, type StateBudget, type StateCommand, type StateIo, type StateProperty } from './property.ts';

const send: Send = async (probe) => ({ probe, throttled: 0 }) as Exchange;

/** A step: the first run that takes two fails at its second as `first`; every later run fails at its first step as `other`. */
class Step implements StateCommand<{ run: number; steps: number }, object> {
  check(): boolean {
    return true;
  }
  async run(model: { run: number; steps: number }): Promise<void> {
    model.steps++;
    if (!firstFailing.run && model.steps === 2) firstFailing.run = model.run;
    if (model.run === firstFailing.run) throw new Violation('first', `failed in run ${model.run}`);
    if (firstFailing.run) throw new Violation('other', `failed in run ${model.run}`);
  }
  toString(): string {
    return 'step';
  }
}
const firstFailing = { run: 0 };

const standIn = (): StateProperty<{ run: number; steps: number }, object> => ({
  rule: 'STATE-DNS-UPDATE',
  endpoints: [],
  title: 'stand-in',
  commands: [fc.constant(new Step())],
  setup: async (_io, run) => ({ model: { run, steps: 0 }, real: {} }),
});

describe('runStateProperty', () => {
  it('reports the failure first found, not a shorter sequence that fails otherwise, and notes the other', async () => {
    firstFailing.run = 0;
    const outcome = await runStateProperty(standIn(), { ...EMBEDDED_BUDGET, sequences: 5 }, 1106, send);
    expect(outcome.verdict?.title).toBe('first');
    expect(outcome.verdict!.message).toMatch(new RegExp(`^failed in run ${firstFailing.run} Shortest failing sequence`));
    expect(outcome.notes!.join('\n')).toMatch(/while shrinking, \d+ shorter sequences? failed otherwise, not taken as shorter forms of the failure reported: other/);
  });

  it('a violation of the state as found is the verdict when every run passes, with no sequence', async () => {
    const passing: StateProperty<object, object> = { rule: 'STATE-DNS-UPDATE', endpoints: [], title: 'passes', commands: [fc.constant({ check: () => true, run: async () => {}, toString: () => 'noop' })], setup: async () => ({ model: {}, real: {} }), before: async () => new Violation('found broken', 'it was broken before') };
    const outcome = await runStateProperty(passing, EMBEDDED_BUDGET, 1106, send);
    expect(outcome.verdict).toEqual({ title: 'found broken', message: 'it was broken before' });
  });

  it('--state-window-s sets the window and the settling wait against any target; without it each keeps its own', () => {
    const live = contextOf(mockTarget());
    const embedded = contextOf({ ...mockTarget(), embedded: true });
    expect(budgetFor(live)).toMatchObject({ poll: LIVE_BUDGET.poll, settleMs: LIVE_BUDGET.settleMs });
    expect(budgetFor(embedded)).toMatchObject({ poll: EMBEDDED_BUDGET.poll, settleMs: EMBEDDED_BUDGET.settleMs });
    for (const context of [live, embedded]) {
      const widened = budgetFor({ ...context, options: { ...context.options, stateWindowMs: 30_000 } });
      expect(widened.poll.windowMs).toBe(30_000);
      expect(widened.settleMs).toBe(30_000);
    }
    // The help states the defaults these budgets hold.
    expect(conformFlags.find((l) => l.startsWith('--state-window-s'))).toContain(`default ${LIVE_BUDGET.poll.windowMs / 1000} against a live API, ${EMBEDDED_BUDGET.poll.windowMs / 1000} for the mock`);
  });
});

// ---- a stand-in with requests: actions and reads of the model's endpoints, answered 200 ----------

const action = endpoint('updateDnsRecords');
const read = endpoint('listDnsRecords');
let made = 0;
const probeOf = (e: typeof action, title: string): Probe => ({
  rule: 'STATE-DNS-UPDATE',
  endpoint: e,
  expect: 'valid',
  title,
  request: { method: e.method, url: `http://127.0.0.1:9/v2/${title.replaceAll(' ', '-')}/${++made}`, headers: {}, ...(e.method === 'PUT' ? { body: `{"n":${made}}` } : {}) },
});
const answered: Send = async (probe) => ({ probe, response: { status: 200, headers: {}, text: '', ms: 0 }, throttled: 0 });

interface Total {
  total: number;
  readonly run: number;
}
interface Io {
  readonly io: StateIo;
  /** The commands each run ran, by run. */
  readonly ran: Map<number, object[]>;
}

/** An action adding `size`, read once after. */
class Add implements StateCommand<Total, Io> {
  constructor(readonly size: number) {}
  check(): boolean {
    return true;
  }
  async run(model: Total, real: Io): Promise<void> {
    real.ran.get(model.run)!.push(this);
    model.total += this.size;
    await real.io.send(probeOf(action, `add ${this.size}`));
    await real.io.poll(probeOf(read, 'read'), () => true);
  }
  toString(): string {
    return `add ${this.size}`;
  }
}

/** A read that fails, after reading until the window closes, once the adds reach 3: alone, it passes. */
class Check implements StateCommand<Total, Io> {
  check(): boolean {
    return true;
  }
  async run(model: Total, real: Io): Promise<void> {
    real.ran.get(model.run)!.push(this);
    const shown = await real.io.poll(probeOf(read, 'check read'), () => model.total < 3);
    if (!shown.ok) throw new Violation('too many', `adds reach ${model.total}`, shown.last);
  }
  toString(): string {
    return 'check';
  }
}

const adding = (ran: Map<number, object[]>): StateProperty<Total, Io> => ({
  rule: 'STATE-DNS-UPDATE',
  endpoints: [action, read],
  title: 'adds',
  commands: [fc.integer({ min: 1, max: 2 }).map((n) => new Add(n)), fc.constant(null).map(() => new Check())],
  setup: async (io, run) => {
    ran.set(run, []);
    await io.send(probeOf(read, 'setup read'));
    return { model: { total: 0, run }, real: { io, ran } };
  },
});

/** A window of 150 ms read often: a failing read waits it out, long enough to show as a pause. */
const SHORT: StateBudget = { ...EMBEDDED_BUDGET, sequences: 10, poll: { windowMs: 150, intervalMs: 5, maxIntervalMs: 20 } };

/** Runs the stand-in; the runs after the first failure are shrinking's. */
async function runAdding(send: Send = answered) {
  const ran = new Map<number, object[]>();
  const outcome = await runStateProperty(adding(ran), SHORT, 1106, send);
  const found = outcome.spend!.sequences;
  return { outcome, ran, shrinkRuns: [...ran].filter(([run]) => run > found) };
}

describe('a failure carries the requests that reproduce it', () => {
  it('the actions of the shortest failing run in order, then the read that showed it, after the pause the property made', async () => {
    const sent: Exchange[] = [];
    const { outcome } = await runAdding(async (probe) => {
      const exchange = await answered(probe);
      sent.push(exchange);
      return exchange;
    });
    expect(outcome.verdict?.title).toBe('too many');
    const steps = outcome.sequence!;
    // The shortest failing run: two adds (each at most 2) reach 3, then the check; its reads between are not steps.
    expect(outcome.spend!.shrunk?.toCommands).toBe(3);
    expect(steps.map((s) => s.request.method)).toEqual([action.method, action.method, read.method]);
    expect(steps.at(-1)!.request).toBe(outcome.exchange!.probe.request);
    // Requests actually sent, in the order sent.
    const order = steps.map((s) => sent.findIndex((x) => x.probe.request === s.request));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // The failing read came when the window closed (the poll's last millisecond aside): the step says it waited.
    expect(steps.at(-1)!.afterMs).toBeGreaterThanOrEqual(SHORT.poll.windowMs - 1);
    expect(steps[0]!.afterMs).toBeUndefined();
  });

  it('a violation of the state as found shows the steps it names, its read after the settling wait', async () => {
    const earlier = await answered(probeOf(action, 'earlier add'));
    const passing: StateProperty<object, object> = {
      rule: 'STATE-DNS-UPDATE',
      endpoints: [],
      title: 'passes',
      commands: [fc.constant({ check: () => true, run: async () => {}, toString: () => 'noop' })],
      setup: async () => ({ model: {}, real: {} }),
      before: async (io, seen) => {
        const shown = await io.send(probeOf(read, 'before read'));
        return new Violation('found broken', 'it was broken before', shown, [...seen, shown]);
      },
    };
    const outcome = await runStateProperty(passing, EMBEDDED_BUDGET, 1106, answered, [earlier]);
    expect(outcome.sequence!.map((s) => s.request.url)).toEqual([earlier.probe.request.url, expect.stringContaining('before-read')]);
    // Sent after requests of other probes: the read waits as long as their effects may take to show.
    expect(outcome.sequence![1]!.afterMs).toBe(EMBEDDED_BUDGET.settleMs);
  });
});

describe('shrinking spends its share where it tells', () => {
  it('sends no shorter sequence twice, and still ends on the shortest', async () => {
    const { outcome, shrinkRuns } = await runAdding();
    expect(outcome.spend!.shrunk?.toCommands).toBe(3);
    // fast-check offered some sequence again (the check alone, after each reduction): it was not sent.
    expect(outcome.spend!.shrinkRepeatsSkipped).toBeGreaterThan(0);
    expect(outcome.notes![0]).toMatch(/\d+ already run not sent again/);
    const ids = new Map<object, number>();
    const keys = shrinkRuns.map(([, commands]) => commands.map((c) => ids.get(c) ?? ids.set(c, ids.size).get(c)).join(' '));
    expect(keys.length).toBe(outcome.spend!.shrinkSequences);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('reads a failing candidate at most four times within the same window', async () => {
    const reads = new Map<number, number>();
    let run = 0;
    const { outcome, shrinkRuns } = await runAdding(async (probe) => {
      if (probe.title === 'setup read') run++;
      if (probe.title === 'check read') reads.set(run, (reads.get(run) ?? 0) + 1);
      return answered(probe);
    });
    expect(outcome.verdict).toBeDefined();
    const failing = shrinkRuns.filter(([r]) => (reads.get(r) ?? 0) > 1);
    expect(failing.length).toBeGreaterThan(0);
    for (const [r, commands] of shrinkRuns) expect(reads.get(r) ?? 0).toBeLessThanOrEqual(4 * commands.filter((c) => c instanceof Check).length);
  });
});

describe('in parts, as a run under a budget schedules it', () => {
  /** The commands each run ran, by their `toString`, in run order. */
  const sequencesOf = (ran: Map<number, object[]>) => [...ran.values()].map((commands) => commands.map(String).join(', '));
  /** A property that passes: adds, and a read after each. */
  const passingAdds = (ran: Map<number, object[]>): StateProperty<Total, Io> => ({ ...adding(ran), commands: [fc.integer({ min: 1, max: 2 }).map((n) => new Add(n))] });

  it('more(1) then more("all") runs the very sequences one run of all of them does, each once, in the same order', async () => {
    const whole = new Map<number, object[]>();
    await runStateProperty(passingAdds(whole), SHORT, 1106, answered);
    const parts = new Map<number, object[]>();
    const run = startStateProperty(passingAdds(parts), SHORT, 1106, answered);
    await run.more(1);
    expect(parts.size).toBe(1);
    await run.more('all');
    const outcome = await run.end();
    expect(outcome.verdict).toBeUndefined();
    expect(outcome.spend!.sequences).toBe(SHORT.sequences);
    expect(sequencesOf(parts)).toEqual(sequencesOf(whole));
  });

  it('no sequence runs after a failure: the failure found in the first part is the outcome, shrunk there', async () => {
    const ran = new Map<number, object[]>();
    const run = startStateProperty(adding(ran), { ...SHORT, sequences: 50 }, 1106, answered);
    let parts = 0;
    while (parts++ < 50) await run.more(1);
    const outcome = await run.end();
    expect(outcome.verdict?.title).toBe('too many');
    const found = outcome.spend!.sequences;
    expect(found).toBeLessThan(50);
    await run.more('all');
    expect(outcome.spend!.sequences).toBe(found);
  });
});

describe('a request with no answer to judge ends its run unjudged, never failed', () => {
  const throttledAfter = (answers: number): Send => {
    let n = 0;
    return async (probe) => (++n > answers ? { probe, throttled: 5, failure: { kind: 'throttled', message: 'throttled: HTTP 429 still, after 5 retries of this request', ms: 1 } } : answered(probe));
  };
  const spentAfter = (answers: number): Send => {
    let n = 0;
    return async (probe) => (++n > answers ? { probe, throttled: 0, failure: { kind: 'budget', message: 'not sent: --max-requests 40 reached', ms: 0 } } : answered(probe));
  };

  it.each([
    ['throttled from the start', throttledAfter(0), /^not judged: a request was throttled/],
    ['the run\'s budget spent from the start', spentAfter(0), /^not judged: --max-requests 40 reached$/],
  ])('%s: a skip saying why, no verdict', async (_, send, why) => {
    const ran = new Map<number, object[]>();
    const outcome = await runStateProperty(adding(ran), SHORT, 1106, send);
    expect(outcome.verdict).toBeUndefined();
    expect(outcome.skip).toMatch(why);
  });

  it('the budget spent midway: what ran before is judged, the rest said to be not judged in part, and no later run sends anything', async () => {
    const sentAfterStop: Probe[] = [];
    let n = 0;
    const send: Send = async (probe) => {
      if (++n > 60) {
        sentAfterStop.push(probe);
        return { probe, throttled: 0, failure: { kind: 'budget', message: 'not sent: --max-duration 5s reached', ms: 0 } };
      }
      return answered(probe);
    };
    const ran = new Map<number, object[]>();
    const outcome = await runStateProperty(passingAddsOnly(ran), SHORT, 1106, send);
    expect(outcome.verdict).toBeUndefined();
    expect(outcome.skip).toBeUndefined();
    expect(outcome.partly).toMatch(/not judged in part: \d+ sequences? of 10 not run \(--max-duration 5s reached\)/);
    expect(outcome.spend!.stopped).toBe('--max-duration 5s reached');
    // One refused request ends the run; no later run sends another.
    expect(sentAfterStop.length).toBe(1);
  });
});

function passingAddsOnly(ran: Map<number, object[]>): StateProperty<Total, Io> {
  return { ...adding(ran), commands: [fc.integer({ min: 1, max: 2 }).map((n) => new Add(n))] };
}
