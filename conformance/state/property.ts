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
 *
 * Shrinking spends its share where it tells: fast-check offers the same shorter sequence again
 * after each reduction (dropping every command but the last, say), and a sequence that already
 * ran and passed is not sent again; and a candidate is read fewer times within the same window
 * (its start, a quarter, three quarters, the end), since while shrinking most candidates fail and
 * the reads between the first and the last only end a wait early. The window, and so what counts
 * as an effect that never showed, is the same as the search's.
 *
 * A failure carries the requests that led to it (`sequence`): the actions of the failing run, and
 * the read that showed the violation, with the pauses the property made between them. A failure
 * or skip names the assumptions the property's requests rest on, from the model (a parameter's
 * name, a DNS update naming a record not held yet), so a reader can tell the letter from our reading.
 */
import fc from 'fast-check';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { NO_DEADLINE, notJudged, notJudgedReason, type Deadline, type Exchange, type Probe, type ProbeContext, type ScenarioOutcome, type ScenarioRun, type ScenarioStep, type Send, type StateSpend } from '../types.ts';
import { restingOn } from '../checks/assumptions.ts';
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
  // Each shrinking candidate replays the opening its sequences begin with (dns.ts: three updates).
  shrinkRequests: 200,
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

/**
 * The target broke the property: what the report shows, and the exchange that shows it. A run's
 * violation gets its sequence from the run; `steps` give it where no run made it (`before`): the
 * exchanges that reproduce it, in order.
 */
export class Violation extends Error {
  override readonly name = 'Violation';
  constructor(
    readonly title: string,
    message: string,
    readonly exchange?: Exchange,
    readonly steps?: readonly Exchange[],
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
  override readonly name: string = 'OutOfBudget';
}

/**
 * A request got no answer to judge: the target throttled it until it was given up, the run's
 * budget (`--max-requests`, `--max-duration`) was spent, or the suite's own process could not run
 * while it waited. The run ends there, proving nothing.
 */
export class NotJudged extends OutOfBudget {
  override readonly name = 'NotJudged';
  constructor(
    message: string,
    readonly kind: 'throttled' | 'budget' | 'runner',
  ) {
    super(message);
  }
}

/** How a property talks to the target: every request counted. */
export interface StateIo {
  send(probe: Probe): Promise<Exchange>;
  /** Sends `probe` until `until` holds or the window closes (every read counted). */
  poll(probe: Probe, until: (exchange: Exchange) => boolean): Promise<Polled>;
  /** Waits `ms`, or until the run's deadline if that comes first (then the next request is not sent, and the run ends unjudged). */
  pause(ms: number): Promise<void>;
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
  /**
   * Before the first run: a violation the state as found already shows (the failure when no run
   * fails). `earlier`: the exchanges of the probes sent to the property's action before it.
   */
  readonly before?: (io: StateIo, earlier: readonly Exchange[]) => Promise<Violation | undefined>;
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

type Outcome = ScenarioOutcome;

/** A failing run: the counterexample fast-check ends on is the last of them. */
interface Failed {
  readonly error: unknown;
  readonly commands: readonly string[];
  readonly legend: string;
  /** What the run sent, in order. */
  readonly trail: readonly Sent[];
}

/** A request of a run, and when it was sent. */
export interface Sent {
  readonly exchange: Exchange;
  readonly at: number;
}

/** A pause shorter than this is no wait for an effect: a sequence's steps do not show it. */
const WAITED_MS = 100;

/** Where a candidate is read while shrinking: at its start, after a quarter and three quarters of the window, and at its end. */
const shrinkPoll = (poll: PollOptions): PollOptions => ({
  windowMs: poll.windowMs,
  intervalMs: Math.max(poll.intervalMs, poll.windowMs / 4),
  maxIntervalMs: Math.max(poll.maxIntervalMs, poll.windowMs / 2),
});

/** The spend of a property so far. */
interface Spent {
  runs: number;
  shrinkRuns: number;
  repeatsSkipped: number;
  requests: number;
  shrinkRequests: number;
  cleanup: number;
  commands: number;
}

/** Runs a property against the target through `send`, every sequence at once; `earlier`, the probes' exchanges with its action before it. */
export async function runStateProperty<M extends object, R>(property: StateProperty<M, R>, budget: StateBudget, seed: number, send: Send, earlier: readonly Exchange[] = [], deadline: Deadline = NO_DEADLINE): Promise<Outcome> {
  const run = startStateProperty(property, budget, seed, send, earlier, deadline);
  await run.more('all');
  return run.end();
}

/**
 * A property run in parts, as a run under a budget schedules it: `more(1)` runs its first
 * sequence, a later `more('all')` the others (the same ones fast-check would have generated in
 * one go: the same seed, those already run passed over unsent), then `end()` cleans up and gives
 * the outcome. A failure found is shrunk at once, against the state it was found on; no
 * sequence runs after it.
 */
export function startStateProperty<M extends object, R>(property: StateProperty<M, R>, budget: StateBudget, seed: number, send: Send, earlier: readonly Exchange[] = [], deadline: Deadline = NO_DEADLINE): ScenarioRun {
  const spent: Spent = { runs: 0, shrinkRuns: 0, repeatsSkipped: 0, requests: 0, shrinkRequests: 0, cleanup: 0, commands: 0 };
  /** Runs that ran every command to the end (and passed), and runs a request without an answer to judge cut short. */
  let completed = 0;
  let cutRuns = 0;
  let cut: string | undefined;
  /** Why the run's budget (`--max-requests`, `--max-duration`) stopped the property, once it did. */
  let runSpent: string | undefined;
  let shrinking = false;
  /** The runs are over: the clean-up reads as the search did. */
  let ended = false;
  let stopped: string | undefined;
  let observed = 0;
  let notObserved: NotObservable | undefined;
  let last: Failed | undefined;
  let foundAt = 0;
  let foundCommands = 0;
  /** What the current run (or the check before the runs) has sent. */
  let trail: Sent[] = [];
  /** While shrinking: the candidates already run (by their commands' identities), none of which failed as first found. */
  const tried = new Set<string>();
  /** While shrinking: runs that failed otherwise than the failure first found. */
  const otherwise = new Set<string>();

  /** A run a throttled request ended: it proves nothing, and the outcome says how many. */
  const noteCut = (error: unknown) => {
    // The budget's end stops every later run too (runSpent); a throttled request or a runner that could not run cuts this one.
    if (!(error instanceof NotJudged && error.kind !== 'budget')) return;
    cutRuns++;
    cut ??= error.message;
  };
  const fewerReads = shrinkPoll(budget.poll);
  const makeIo = (count: () => void, cleanup = false): StateIo => {
    const io: StateIo = {
      send: async (probe) => {
        count();
        const at = performance.now();
        const exchange = await send(cleanup ? { ...probe, cleanup: true } : probe);
        trail.push({ exchange, at });
        if (notJudged(exchange.failure)) {
          const kind = exchange.failure!.kind as 'throttled' | 'budget' | 'runner';
          const why = kind === 'throttled' ? 'a request was throttled (the target kept answering Too Many Requests)' : notJudgedReason(exchange).replace(/^not judged: /, '');
          // The run's budget is spent for good: no later run sends anything either.
          if (kind === 'budget' && !cleanup) {
            runSpent ??= why;
            stopped ??= why;
          }
          throw new NotJudged(why, kind);
        }
        return exchange;
      },
      poll: (probe, until) => poll(() => io.send(probe), until, shrinking && !ended ? fewerReads : budget.poll, io.pause),
      pause: async (ms) => {
        const left = deadline(cleanup ? 'cleanup' : 'run') - performance.now();
        await sleep(Math.max(0, Math.min(ms, left)));
      },
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
  }, true);

  // Each command, as it runs, writes its `toString` to the log of the current run. Each
  // generated or shrunk command gets an identity: a candidate is its commands' identities.
  let log: string[] = [];
  let made = 0;
  const identity = new WeakMap<object, number>();
  const logged = (command: StateCommand<M, R>): StateCommand<M, R> => {
    const wrapped: StateCommand<M, R> = {
      check: (model) => command.check(model),
      run: async (model, real) => {
        try {
          await command.run(model, real);
        } finally {
          log.push(command.toString());
        }
      },
      toString: () => command.toString(),
    };
    identity.set(wrapped, ++made);
    return wrapped;
  };
  const candidateKey = (commands: Iterable<StateCommand<M, R>>): string =>
    [...commands].map((c) => identity.get(unwrapped(c)) ?? `new ${++made}`).join(' ');
  const sequences = fc.commands(
    property.commands.map((arb) => arb.map(logged)),
    { maxCommands: budget.maxCommands, disableReplayLog: true },
  );

  let before: Violation | undefined;
  let beforeTrail: readonly Sent[] = [];
  let began = false;
  /** Sequences fast-check has generated and run (not while shrinking) over every `more`. */
  let ran = 0;
  let details: fc.RunDetails<[Iterable<StateCommand<M, R>>]> | undefined;

  /** The property over fast-check's sequences `from` (exclusive) to `upTo`: the ones before were run by an earlier `more`. */
  const checkOf = (from: number, upTo: number) => {
    let index = 0;
    return fc.asyncProperty(sequences, async (commands) => {
      if (stopped) return; // nothing more is sent; fast-check ends its loop at once
      if (!shrinking && (++index <= from || index > upTo)) return; // another part's sequence
      if (shrinking) {
        // Already run, and it did not fail as first found: it passes again, unsent.
        const key = candidateKey(commands);
        if (tried.has(key)) return void spent.repeatsSkipped++;
        tried.add(key);
        spent.shrinkRuns++;
      } else spent.runs++;
      trail = [];
      let state: { readonly model: M; readonly real: R };
      try {
        state = await property.setup(runIo, spent.runs + spent.shrinkRuns);
      } catch (error) {
        noteCut(error);
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
        noteCut(error);
        if (error instanceof OutOfBudget) return;
        if (shrinking && !sameFailure(last?.error, error)) {
          otherwise.add((error as Violation).title);
          return;
        }
        // Copies: the clean-up after the run still sends.
        last = { error, commands: [...log], legend: property.legend?.(state.real) ?? '', trail: [...trail] };
        if (!shrinking) {
          foundAt = spent.runs;
          foundCommands = log.length;
        }
        shrinking = true;
        throw error;
      } finally {
        spent.commands += log.length;
        await property.afterRun?.(runIo, state.model, state.real).catch(budgetOnly);
      }
      if (!shrinking) completed++;
    });
  };

  const more = async (wanted: number | 'all'): Promise<void> => {
    if (!began) {
      began = true;
      try {
        before = await property.before?.(runIo, earlier);
      } catch (error) {
        if (!(error instanceof OutOfBudget || error instanceof NotObservable)) throw error;
      } finally {
        beforeTrail = trail;
      }
    }
    if (details?.failed || ended) return;
    const upTo = wanted === 'all' ? budget.sequences : Math.min(budget.sequences, ran + wanted);
    if (upTo <= ran) return;
    details = await fc.check(checkOf(ran, upTo), { seed, numRuns: upTo, verbose: 0 });
    ran = upTo;
  };

  const end = async (): Promise<Outcome> => {
    if (!began) await more(0);
    ended = true;

    let cleanupNotes: readonly string[] = [];
    try {
      cleanupNotes = (await property.finish?.(cleanupIo)) ?? [];
    } catch (error) {
      if (!(error instanceof OutOfBudget)) throw error;
      cleanupNotes = [`${property.rule}: the clean-up stopped: ${error.message}; what it added may remain`];
    }
    const notes = [spending(property.rule, budget, spent, shrinking, stopped), ...cleanupNotes];
    const spend: StateSpend = {
      rule: property.rule,
      budget: { sequences: budget.sequences, maxCommands: budget.maxCommands, requests: budget.requests, shrinkRequests: budget.shrinkRequests, cleanupRequests: budget.cleanupRequests },
      sequences: spent.runs,
      shrinkSequences: spent.shrinkRuns,
      shrinkRepeatsSkipped: spent.repeatsSkipped,
      requests: spent.requests,
      shrinkRequests: spent.shrinkRequests,
      cleanupRequests: spent.cleanup,
      ...(details?.failed && last ? { shrunk: { fromCommands: foundCommands, toCommands: last.commands.length, steps: details.numShrinks } } : {}),
      ...(stopped ? { stopped } : {}),
    };
    if (otherwise.size) notes.push(`${property.rule}: while shrinking, ${count(otherwise.size, 'shorter sequence')} failed otherwise, not taken as shorter forms of the failure reported: ${[...otherwise].join('; ')}`);

    const rests = restingOn(...property.endpoints);
    const resting = rests ? ` The property's requests rest on ${rests}.` : '';
    if (details?.failed) {
      const error = last?.error ?? details.errorInstance;
      if (!(error instanceof Violation)) throw error; // a suite bug: the runner reports the crash
      const shrunk = details.numShrinks === 0 ? `no shorter one failed${property.unrepeatable ? `, as ${property.unrepeatable}` : ''}` : `shrunk ${count(details.numShrinks, 'time')} from ${count(foundCommands, 'command')}`;
      const early = stopped ? `; shrinking stopped early (${stopped}), so a shorter one may exist` : '';
      const commands = last!.commands;
      const sequence = `Shortest failing sequence (${count(commands.length, 'command')}, found in sequence ${foundAt} of ${budget.sequences}, ${shrunk}${early}): ${commands.join('; ')}${last!.legend ? ` — where ${last!.legend}` : ''}.`;
      const steps = timed(error.steps ?? stepsOf(last!.trail, error.exchange), last!.trail, budget.settleMs);
      return { verdict: { title: error.title, message: `${error.message}${resting} ${sequence}` }, ...(error.exchange ? { exchange: error.exchange } : {}), sequence: steps, notes, spend };
    }
    if (before) {
      const steps = timed(before.steps ?? stepsOf(beforeTrail, before.exchange), beforeTrail, budget.settleMs);
      return { verdict: { title: before.title, message: `${before.message}${resting}` }, ...(before.exchange ? { exchange: before.exchange } : {}), sequence: steps, notes, spend };
    }
    if (observed === 0 || completed === 0) {
      // No run read its start, or none ran to its end: nothing was observed, and nothing passed.
      // A request without an answer to judge says why in the run's own words (they group across rows).
      const unjudged = cut ?? runSpent;
      const why =
        observed === 0 && notObserved
          ? `${notObserved.message}${rests ? ` (the property's requests rest on ${rests})` : ''}`
          : unjudged !== undefined
            ? `not judged: ${unjudged}`
            : `${stopped ?? (observed === 0 ? 'no run could read the state it starts from' : 'no run ran to its end')}${rests ? ` (the property's requests rest on ${rests})` : ''}`;
      return { skip: why, ...(notObserved?.exchange ? { exchange: notObserved.exchange } : {}), notes, spend };
    }
    // Sequences cut short, or never run because the run's budget was spent: judged, in part.
    const unrun = budget.sequences - spent.runs;
    const partly = [
      ...(cutRuns ? [`not judged in part: ${count(cutRuns, 'sequence')} of ${spent.runs} cut short (${cut})`] : []),
      ...(unrun > 0 && stopped ? [`not judged in part: ${count(unrun, 'sequence')} of ${budget.sequences} not run (${stopped})`] : []),
    ];
    return { notes, spend, ...(partly.length ? { partly: partly.join('; ') } : {}) };
  };

  return { more, end };
}

/**
 * The exchanges that reproduce a violation from what its run sent: every action (what the model
 * says changes something), up to the exchange that showed the violation, which ends it. The reads
 * between are the property's waiting, shown as the pause before the next step.
 */
export function stepsOf(trail: readonly Sent[], shown: Exchange | undefined): Exchange[] {
  const end = shown ? trail.findIndex((s) => s.exchange === shown) : -1;
  const upTo = end >= 0 ? trail.slice(0, end + 1) : trail;
  return upTo.filter((s, i) => s.exchange.probe.endpoint.effect !== 'read' || (end >= 0 && i === end)).map((s) => s.exchange);
}

/**
 * Steps with the pauses between them: as sent, where both were sent by the property; after
 * requests sent before it (another probe's), `settleMs`, how long their effects may take to show.
 */
export function timed(steps: readonly Exchange[], trail: readonly Sent[], settleMs: number): ScenarioStep[] {
  const sentAt = new Map(trail.map((s) => [s.exchange, s.at]));
  return steps.map((exchange, i) => {
    const at = sentAt.get(exchange);
    const previous = i > 0 ? sentAt.get(steps[i - 1]!) : undefined;
    const pause = i === 0 || at === undefined ? 0 : previous === undefined ? settleMs : at - previous;
    return { request: exchange.probe.request, ...(pause >= WAITED_MS ? { afterMs: Math.round(pause) } : {}) };
  });
}

/** The command fast-check wraps (its CommandWrapper keeps it as `cmd`), or the command itself. */
const unwrapped = (command: object): object => {
  const inner = (command as { readonly cmd?: unknown }).cmd;
  return typeof inner === 'object' && inner !== null ? inner : command;
};

/** Whether a failure while shrinking is the one first found: a violation with the same title (a suite bug always counts, so it is reported). */
const sameFailure = (first: unknown, again: unknown): boolean =>
  !(again instanceof Violation) || !(first instanceof Violation) || again.title === first.title;

/** Clean-up after a run may stop at the budget; anything else is a bug worth seeing. */
function budgetOnly(error: unknown): void {
  if (!(error instanceof OutOfBudget)) throw error;
}


function spending(rule: RuleId, budget: StateBudget, spent: Spent, shrank: boolean, stopped: string | undefined): string {
  const repeats = spent.repeatsSkipped ? `, ${spent.repeatsSkipped} already run not sent again` : '';
  const runs = `${spent.runs} of at most ${count(budget.sequences, 'command sequence')} of up to ${budget.maxCommands} commands${shrank ? `, and ${spent.shrinkRuns} more while shrinking${repeats}` : ''} (${count(spent.commands, 'command')} run)`;
  const requests = `${spent.requests} requests of a budget of ${budget.requests}${shrank ? ` (${spent.shrinkRequests} shrinking, at most ${budget.shrinkRequests})` : ''}, ${spent.cleanup} to clean up (at most ${budget.cleanupRequests})`;
  const window = `each effect awaited up to ${seconds(budget.poll.windowMs)} (--state-window-s)`;
  return `${rule} (model-based): ${runs}; ${requests}; ${window}${stopped ? `; stopped: ${stopped}` : ''}`;
}
