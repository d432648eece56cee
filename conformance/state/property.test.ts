/**
 * The property runner on its own, with a stand-in property (no server): shrinking keeps to the
 * failure first found, a violation the state as found shows is the verdict when no run fails,
 * and the budget follows the target and `--state-window-s`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conformFlags } from '../flags.ts';
import { contextOf, mockTarget } from '../probes/test-target.ts';
import type { Exchange, Send } from '../types.ts';
import { budgetFor, EMBEDDED_BUDGET, LIVE_BUDGET, runStateProperty, Violation, type StateCommand, type StateProperty } from './property.ts';

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
