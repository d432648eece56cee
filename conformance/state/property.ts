/**
 * The runner of the model-based state properties (fast-check's command pattern): a property
 * gives its commands (`check` reads the model, `run` acts on the target, asserts and updates the
 * model), how one run reads the target into a model, and how it cleans up. fast-check generates
 * command sequences, runs each against the target from the state read at its start (the target
 * is shared by every run, as a real one is), and shrinks a failing sequence to the shortest.
 *
 * Every request is counted against a budget, shrinking has its own share of it, and the
 * clean-up its own allowance: when a share is spent the remaining runs send nothing and pass
 * (fast-check then ends at once), and the report says where it stopped. A run cut short by the
 * budget proves nothing either way, so it is never a failure.
 *
 * Shrinking keeps to the failure first found: a shorter sequence that fails another way (the
 * target changed meanwhile, say) is a different finding, noted but not taken as the shorter
 * counterexample, so the report names the first symptom.
 */
import fc from 'fast-check';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import type { Exchange, Probe, ProbeContext, Scenario, Send } from '../types.ts';
import { count } from '../checks/values.ts';
import { seconds } from './answers.ts';
import { poll, type PollOptions, type Polled } from './poll.ts';

export interface StateBudget {
  /** Command sequences fast-check generates (its `numRuns`); never more than `--runs`. */
  readonly sequences: number;
  readonly maxCommands: number;
  /** Requests of the runs, searching and shrinking together. */
  readonly requests: number;
  /** Of which at most this many after the first failure, while shrinking it. */
  readonly shrinkRequests: number;
  /** Requests the final clean-up may send, besides the budget (it runs even when that is spent). */
  readonly cleanupRequests: number;
  /** Changes the document shows no way to undo (SFTP removals, site-admin users) one property may make. */
  readonly irreversible: number;
  readonly poll: PollOptions;
  /** How long effects of requests sent before the property (other probes' actions) may take to show: a clean-up waits that long from its start, unless its target showed every effect at once. */
  readonly settleMs: number;
}

/** Against the embedded mock: its effects show at once (in the delayed layout, after 250 ms: four times within the window). */
export const EMBEDDED_BUDGET: StateBudget = {
  sequences: 10,
  maxCommands: 10,
  requests: 1_500,
  shrinkRequests: 1_000,
  // The probes' DNS values too: a default run leaves `--runs` of them (see dns.ts).
  cleanupRequests: 250,
  irreversible: 20,
  poll: { windowMs: 1_000, intervalMs: 20, maxIntervalMs: 200 },
  // The delayed layout shows effects 250 ms after the answer.
  settleMs: 250,
};

/** Against any other target (only with --allow-destructive): few changes, a patient window. */
export const LIVE_BUDGET: StateBudget = {
  sequences: 5,
  maxCommands: 10,
  requests: 300,
  shrinkRequests: 150,
  cleanupRequests: 60,
  irreversible: 2,
  poll: { windowMs: 10_000, intervalMs: 250, maxIntervalMs: 2_000 },
  settleMs: 10_000,
};

/** The budget for a run's target: `--runs` caps the sequences, `--state-window-s` sets the window (and the settling wait); `overrides` for tests. */
export function budgetFor(context: ProbeContext, overrides: Partial<StateBudget> = {}): StateBudget {
  const base = context.target.embedded ? EMBEDDED_BUDGET : LIVE_BUDGET;
  const windowMs = context.options.stateWindowMs;
  const widened = windowMs === undefined ? base : { ...base, poll: { ...base.poll, windowMs }, settleMs: windowMs };
  const budget = { ...widened, ...overrides };
  return { ...budget, sequences: Math.max(1, Math.min(budget.sequences, context.runs)) };
}

/** The target broke the property: what the report shows, and the exchange that shows it. */
export class Violation extends Error {
  override readonly name = 'Violation';
  constructor(
    readonly title: string,
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** A run could not read the state it starts from: it proves nothing (a skip if no run could). */
export class NotObservable extends Error {
  override readonly name = 'NotObservable';
  constructor(
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** The budget is spent: the run ends, proving nothing. */
export class OutOfBudget extends Error {
  override readonly name = 'OutOfBudget';
}

/** How a property talks to the target: every request counted. */
export interface StateIo {
  send(probe: Probe): Promise<Exchange>;
  /** Sends `probe` until `until` holds or the window closes (every read counted). */
  poll(probe: Probe, until: (exchange: Exchange) => boolean): Promise<Polled>;
  /** The window, for messages: `2 s`. */
  readonly window: string;
}

export type StateCommand<M extends object, R> = fc.AsyncCommand<M, R>;

export interface StateProperty<M extends object, R> {
  readonly rule: RuleId;
  /** The action first (failures name it), then the read that observes it. */
  readonly endpoints: readonly Endpoint[];
  readonly title: string;
  readonly commands: readonly fc.Arbitrary<StateCommand<M, R>>[];
  /**
   * Commands every sequence begins with, made afresh for each run: a state worth starting from
   * every time. Not generated, so never shrunk away (fast-check shrinks commands only as the
   * one arbitrary of its property), and named in the sequence like any other.
   */
  readonly opening?: () => readonly StateCommand<M, R>[];
  /** Before the first run: a violation the state as found already shows (the failure when no run fails). */
  readonly before?: (io: StateIo) => Promise<Violation | undefined>;
  /** Reads the target into the model of run `run` (1, 2, ...); throws NotObservable when it cannot. */
  readonly setup: (io: StateIo, run: number) => Promise<{ readonly model: M; readonly real: R }>;
  /** After each run, passed or failed: undo what it changed, without waiting for it (best effort). */
  readonly afterRun?: (io: StateIo, model: M, real: R) => Promise<void>;
  /** After the last run, with the clean-up allowance: undo what is left; notes for the report. */
  readonly finish?: (io: StateIo) => Promise<readonly string[]>;
  /** What the symbolic names of a run's commands stand for (`r1 = A name`), for the failure message. */
  readonly legend?: (real: R) => string;
  /** Why a failing command may not fail again when replayed (it cannot be undone), for the failure message. */
  readonly unrepeatable?: string;
}

type Outcome = Awaited<ReturnType<Scenario['run']>>;

/** A failing run: the counterexample fast-check ends on is the last of them. */
interface Failed {
  readonly error: unknown;
  readonly commands: readonly string[];
  readonly legend: string;
}

/** Runs a property against the target through `send`; the outcome of its scenario. */
export async function runStateProperty<M extends object, R>(property: StateProperty<M, R>, budget: StateBudget, seed: number, send: Send): Promise<Outcome> {
  const spent = { runs: 0, shrinkRuns: 0, requests: 0, shrinkRequests: 0, cleanup: 0, commands: 0 };
  let shrinking = false;
  let stopped: string | undefined;
  let observed = 0;
  let notObserved: NotObservable | undefined;
  let last: Failed | undefined;
  let foundAt = 0;
  /** While shrinking: runs that failed otherwise than the failure first found. */
  const otherwise = new Set<string>();

  const makeIo = (count: () => void): StateIo => {
    const io: StateIo = {
      send: (probe) => {
        count();
        return send(probe);
      },
      poll: (probe, until) => poll(() => io.send(probe), until, budget.poll),
      window: seconds(budget.poll.windowMs),
    };
    return io;
  };
  const runIo = makeIo(() => {
    if (spent.requests >= budget.requests) stopped ??= `the budget of ${budget.requests} requests was spent`;
    else if (shrinking && spent.shrinkRequests >= budget.shrinkRequests) stopped ??= `shrinking spent its ${budget.shrinkRequests} requests`;
    if (stopped) throw new OutOfBudget(stopped);
    spent.requests++;
    if (shrinking) spent.shrinkRequests++;
  });
  const cleanupIo = makeIo(() => {
    if (spent.cleanup >= budget.cleanupRequests) throw new OutOfBudget(`the clean-up spent its ${budget.cleanupRequests} requests`);
    spent.cleanup++;
  });

  // Each command, as it runs, writes its `toString` to the log of the current run.
  let log: string[] = [];
  const logged = (command: StateCommand<M, R>): StateCommand<M, R> => ({
    check: (model) => command.check(model),
    run: async (model, real) => {
      try {
        await command.run(model, real);
      } finally {
        log.push(command.toString());
      }
    },
    toString: () => command.toString(),
  });
  const sequences = fc.commands(
    property.commands.map((arb) => arb.map(logged)),
    { maxCommands: budget.maxCommands, disableReplayLog: true },
  );

  let before: Violation | undefined;
  try {
    before = await property.before?.(runIo);
  } catch (error) {
    if (!(error instanceof OutOfBudget || error instanceof NotObservable)) throw error;
  }

  const check = fc.asyncProperty(sequences, async (commands) => {
    if (stopped) return; // nothing more is sent; fast-check ends its loop at once
    if (shrinking) spent.shrinkRuns++;
    else spent.runs++;
    let state: { readonly model: M; readonly real: R };
    try {
      state = await property.setup(runIo, spent.runs + spent.shrinkRuns);
    } catch (error) {
      if (error instanceof OutOfBudget) return;
      if (error instanceof NotObservable) return void (notObserved = error);
      throw error;
    }
    observed++;
    log = [];
    try {
      const opening = (property.opening?.() ?? []).map(logged);
      await fc.asyncModelRun(() => state, {
        *[Symbol.iterator]() {
          yield* opening;
          yield* commands;
        },
      });
    } catch (error) {
      if (error instanceof OutOfBudget) return;
      if (shrinking && !sameFailure(last?.error, error)) {
        otherwise.add((error as Violation).title);
        return;
      }
      last = { error, commands: log, legend: property.legend?.(state.real) ?? '' };
      if (!shrinking) foundAt = spent.runs;
      shrinking = true;
      throw error;
    } finally {
      spent.commands += log.length;
      await property.afterRun?.(runIo, state.model, state.real).catch(budgetOnly);
    }
  });
  const details = await fc.check(check, { seed, numRuns: budget.sequences, verbose: 0 });

  let cleanupNotes: readonly string[] = [];
  try {
    cleanupNotes = (await property.finish?.(cleanupIo)) ?? [];
  } catch (error) {
    if (!(error instanceof OutOfBudget)) throw error;
    cleanupNotes = [`${property.rule}: the clean-up stopped: ${error.message}; what it added may remain`];
  }
  const notes = [spending(property.rule, budget, spent, shrinking, stopped), ...cleanupNotes];
  if (otherwise.size) notes.push(`${property.rule}: while shrinking, ${count(otherwise.size, 'shorter sequence')} failed otherwise, not taken as shorter forms of the failure reported: ${[...otherwise].join('; ')}`);

  if (details.failed) {
    const error = last?.error ?? details.errorInstance;
    if (!(error instanceof Violation)) throw error; // a suite bug: the runner reports the crash
    const shrunk = details.numShrinks === 0 ? `no shorter one failed${property.unrepeatable ? `, as ${property.unrepeatable}` : ''}` : `shrunk ${count(details.numShrinks, 'time')}`;
    const cut = stopped ? `; shrinking stopped early (${stopped}), so a shorter one may exist` : '';
    const commands = last!.commands;
    const sequence = `Shortest failing sequence (${count(commands.length, 'command')}, found in sequence ${foundAt} of ${budget.sequences}, ${shrunk}${cut}): ${commands.join('; ')}${last!.legend ? ` — where ${last!.legend}` : ''}.`;
    return { verdict: { title: error.title, message: `${error.message} ${sequence}` }, ...(error.exchange ? { exchange: error.exchange } : {}), notes };
  }
  if (before) return { verdict: { title: before.title, message: before.message }, ...(before.exchange ? { exchange: before.exchange } : {}), notes };
  if (observed === 0) {
    const why = notObserved?.message ?? stopped ?? 'no run could read the state it starts from';
    return { skip: why, ...(notObserved?.exchange ? { exchange: notObserved.exchange } : {}), notes };
  }
  return { notes };
}

/** Whether a failure while shrinking is the one first found: a violation with the same title (a suite bug always counts, so it is reported). */
const sameFailure = (first: unknown, again: unknown): boolean =>
  !(again instanceof Violation) || !(first instanceof Violation) || again.title === first.title;

/** Clean-up after a run may stop at the budget; anything else is a bug worth seeing. */
function budgetOnly(error: unknown): void {
  if (!(error instanceof OutOfBudget)) throw error;
}


function spending(rule: RuleId, budget: StateBudget, spent: { runs: number; shrinkRuns: number; requests: number; shrinkRequests: number; cleanup: number; commands: number }, shrank: boolean, stopped: string | undefined): string {
  const runs = `${spent.runs} of at most ${count(budget.sequences, 'command sequence')} of up to ${budget.maxCommands} commands${shrank ? `, and ${spent.shrinkRuns} more while shrinking` : ''} (${count(spent.commands, 'command')} run)`;
  const requests = `${spent.requests} requests of a budget of ${budget.requests}${shrank ? ` (${spent.shrinkRequests} shrinking, at most ${budget.shrinkRequests})` : ''}, ${spent.cleanup} to clean up (at most ${budget.cleanupRequests})`;
  const window = `each effect awaited up to ${seconds(budget.poll.windowMs)} (--state-window-s)`;
  return `${rule} (model-based): ${runs}; ${requests}; ${window}${stopped ? `; stopped: ${stopped}` : ''}`;
}
