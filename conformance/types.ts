/**
 * The conformance suite's vocabulary, shared by probes (which build requests), the transport
 * (which sends them), checks (which judge exchanges), the runner and the reporters.
 */
import type { RequestTemplate } from './replay/placeholders.ts';
import type fc from 'fast-check';
import type { Endpoint, RuleId } from '../spec/model.ts';
import type { Secret } from '../sanitize/sanitizer.ts';
import type { Echo } from './checks/credentials.ts';

/** A request as the suite means to send it; `url` is absolute, `body` the exact bytes as text. */
export interface ProbeRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What came back, or why nothing usable did. */
export interface ProbeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body as text (UTF-8, lossy), capped in length; for a body that serves or names a secret,
   * its description instead (`withheld`: body.ts). What reports show, never the secret.
   */
  readonly text: string;
  /** The body was not kept as text: it serves or names a secret (`text` describes it). */
  readonly withheld?: true;
  /** The parsed JSON body, every secret value replaced by one of its type; undefined when the body is empty or not JSON (see `jsonError`). */
  readonly json?: unknown;
  readonly jsonError?: string;
  /** The body was not read for what it is: cut at the size cap, nested too deep, or content-encoded. */
  readonly unread?: 'cut' | 'deep' | 'encoded';
  /** Where the answer carries back a credential its request was sent with, found in its raw bytes (NO-KEY-ECHO); never the value. */
  readonly echoes?: readonly Echo[];
  readonly ms: number;
}

/**
 * A transport failure: no complete HTTP answer (timeout, reset, refused, malformed), still
 * throttled when its retries or the run's budget for waiting out 429s ran out, or not sent at all
 * because the run's budget (`--max-requests`, `--max-duration`) was spent, or waited for while
 * the suite's own process could not run (`runner`: its event loop held, its machine busy). These
 * three judge nothing (`notJudged`): only an answer can fail a rule, and a slow runner is no
 * failing target.
 */
export interface TransportFailure {
  readonly kind: 'timeout' | 'reset' | 'refused' | 'protocol' | 'throttled' | 'budget' | 'runner' | 'other';
  readonly message: string;
  readonly ms: number;
}

/**
 * What a probe asserts about its request, beyond the checks that judge every exchange:
 * - `unauthorized`: credentials missing or wrong → 401 (AUTH-401, AUTH-BEARER);
 * - `not-found`: names data that does not exist or belongs to another company → 404 (READ-404);
 * - `invalid`: breaks a stated constraint → 400 (INPUT-400 or the LIMIT-* rule it breaks);
 * - `valid`: valid under every reasonable reading → the endpoint's success (INPUT-ACCEPT).
 * - `foreign-key`: another company's valid key on this company's data → 401 (not a key of this
 *   company) or 404 (data the key's user may not read) (AUTH-401);
 * - `foreign-write`: this company's key on an action naming another company's data, where the
 *   action lists 400 → a refusal: 400, or 404 where allowed (ISOLATION-WRITE);
 * - `observe`: no expectation of its own (e.g. a conflict's either-side request); only the
 *   universal checks judge it.
 */
export type Expectation = 'unauthorized' | 'foreign-key' | 'foreign-write' | 'not-found' | 'invalid' | 'valid' | 'observe';

export interface Probe {
  /** The rule whose expectation this probe tests; failures of the expectation carry it. */
  readonly rule: RuleId;
  readonly endpoint: Endpoint;
  readonly expect: Expectation;
  /** What the probe does, for reports: e.g. "wp_command of 5001 characters". */
  readonly title: string;
  readonly request: ProbeRequest;
  /**
   * The request names only unknown ids (an invalid request to a destructive endpoint of a live
   * target without --allow-destructive): a 404 refuses it as well as a 400, where 404 is allowed.
   */
  readonly idsUnknown?: true;
  /** How the probe was drawn from an arbitrary, so a failure it shows can be shrunk (`shrink.ts`). */
  readonly generated?: Generated;
  /** It undoes what the run added (a state property's clean-up): it may spend the share of the run's budget kept for that. */
  readonly cleanup?: true;
  /**
   * The mutation operator (spec/operators) its input comes from: `drawn` when fast-check drew it,
   * not when it is the operator's canonical value. A budget sends canonical values first, by rank.
   */
  readonly operator?: ProbeOperator;
  /** Keys derived from the real one that the request carries: the sanitizer learns them before it is sent. */
  readonly secrets?: readonly Secret[];
  /** A read taken before anything that could change the data is sent (discovery's and the snapshot's): FACTS-AGREE compares these. */
  readonly snapshot?: true;
}

/** Which operator a probe's input comes from. */
export interface ProbeOperator {
  readonly id: string;
  readonly rank: number;
  readonly drawn: boolean;
}

/**
 * A probe's values drawn from a fast-check arbitrary: fast-check's own `shrink` on `value` gives
 * smaller values, and `build` makes the probe its source would have made from one of them.
 */
export interface Generated<T = unknown> {
  readonly arbitrary: fc.Arbitrary<T>;
  /** The drawn value, with the context `arbitrary.shrink` needs. */
  readonly value: fc.Value<T>;
  /**
   * The probe from another value of `arbitrary` (same rule, expectation, endpoint, path and
   * credentials); undefined when that value cannot carry what the probe tests (a break of an
   * array's first item, once the array is empty).
   */
  build(value: T): Probe | undefined;
}

/** Failures that say nothing about the target's conformance: what they would have judged is not judged. */
export const notJudged = (failure: TransportFailure | undefined): boolean => failure?.kind === 'throttled' || failure?.kind === 'budget' || failure?.kind === 'runner';

/** Whether the request went out at all (a budget may refuse it before it is sent, or cut it short after). */
export const wasSent = (exchange: Exchange): boolean =>
  exchange.attempts !== undefined ? exchange.attempts > 0 : !(exchange.failure?.kind === 'budget' && exchange.failure.message.startsWith('not sent'));

/** Requests an exchange cost, retries included. */
export const attemptsOf = (exchange: Exchange): number => exchange.attempts ?? (wasSent(exchange) ? 1 : 0) + exchange.throttled;

/** Why the rows of an exchange the suite gave up on are not judged, in words that group across rows. */
export function notJudgedReason(exchange: Exchange): string {
  const failure = exchange.failure!;
  if (failure.kind === 'budget') return `not judged: ${failure.message.replace(/^(not sent|cut short): /, '').replace(/ while it waited for an answer$/, '')}`;
  if (failure.kind === 'runner') return 'not judged: the suite itself could not run while it waited for the answer (its event loop held, or its machine busy)';
  return 'not judged: throttled (the target kept answering Too Many Requests)';
}

export interface Exchange {
  readonly probe: Probe;
  readonly response?: ProbeResponse;
  readonly failure?: TransportFailure;
  /** How many answers of 429 came on the way (the last one too, when the request was given up). */
  readonly throttled: number;
  /** Requests sent for it, retries included; default 1 plus `throttled` (the transport says it). */
  readonly attempts?: number;
}

/** Options that change what the checks accept. */
export interface CheckOptions {
  /**
   * Resolve the document's conflicts by the letter of the per-endpoint tables, and fail what is
   * otherwise a warning on a reading (values implausible for their unit: ASM-EPOCH-MS-PLAUSIBLE).
   */
  readonly strict: boolean;
  /** How long the STATE-* properties wait for an effect to show (`--state-window-s`); unset, their target's default. */
  readonly stateWindowMs?: number;
}

export interface CheckContext {
  readonly options: CheckOptions;
  /**
   * The keys the run knows to be valid (the companies' own): a request's credential is the
   * caller's valid key when it is one of them. Absent (the proxy, which is given no key): a
   * credential is taken as valid where the answer is not 401.
   */
  readonly validKeys?: readonly string[];
}

/** A check's judgement of one exchange; undefined means it passed. */
export interface Verdict {
  readonly title: string;
  readonly message: string;
  /** Warnings are reported but do not fail the run (e.g. a 401 message whose meaning differs). */
  readonly severity?: 'error' | 'warning';
  /**
   * Earlier exchanges the verdict is as much about (two answers that disagree: which one is wrong,
   * no answer tells): the rule fails on their operations too, with the same words.
   */
  readonly alsoOn?: readonly Exchange[];
}

/**
 * One rule = one named check. `applies` says whether the check judges an exchange at all (a
 * skip is not a pass); `check` returns a verdict when the exchange breaks the rule.
 */
export interface Check {
  readonly rule: RuleId;
  /**
   * The check judges only exchanges of probes carrying its own rule, so `--only` need send no
   * other probe for it. Without it, every probe is material (ERR-BODY, STATUS-SET, ...).
   */
  readonly ownProbesOnly?: true;
  readonly applies: (exchange: Exchange) => boolean;
  readonly check: (context: CheckContext, exchange: Exchange) => Verdict | undefined;
}

/**
 * A distinct failed check, with everything needed to reproduce it; secrets already redacted. One
 * exchange that breaks several rules is one failure listing them all (`rules`); `rule` is the
 * first. Failures with the same symptom (operation, rules broken together, the answer's status or
 * kind of transport failure) are one failure: its first occurrence, with `occurrences` counting all.
 */
export interface Failure {
  readonly rule: RuleId;
  /** Every rule the exchange broke, in the model's rule order; `rules[0] === rule`. */
  readonly rules: readonly RuleId[];
  /** `METHOD /path/template`, exactly as the document writes it. */
  readonly operation: string;
  readonly title: string;
  readonly message: string;
  readonly severity: 'error' | 'warning';
  readonly probe: string;
  /** The mutation operator the probe's input came from (spec/operators), where it came from one. */
  readonly operator?: string;
  readonly request: ProbeRequest;
  readonly response?: ProbeResponse;
  readonly transport?: TransportFailure;
  readonly seed: number;
  readonly curl: string;
  /** The request first found to fail, when the probe's input was generated (`request` is then the shrunk one). */
  readonly original?: ProbeRequest;
  /** Reductions from `original` to `request`: 0 when no smaller input failed the same rule (or a budget allowed none). */
  readonly shrinkSteps?: number;
  readonly shrink?: ShrinkNote;
  /** Failures with this symptom (this one included): the exchanges, or scenario runs, that showed it. */
  readonly occurrences: number;
  /** The next few occurrences in probe order, when there were more than one. */
  readonly examples?: readonly FailureExample[];
  /**
   * A STATE-* failure: the requests that led to it, in the order sent (the actions, then the read
   * that showed the violation), of the shrunk sequence where the property shrank it. `curl` then
   * runs them all, in order, waiting where the property waited.
   */
  readonly sequence?: readonly SequenceStep[];
  /** A finding the run's --baseline lists: the reason it gives. Known findings do not fail the run. */
  readonly known?: string;
  /**
   * What `replay` needs to send the request again and judge the answer as the run did: the
   * request with its secrets as `${NAME}` placeholders, and what its probe expected. Absent where
   * a secret in it has no placeholder (and for a sequence: see each step's `template`).
   */
  readonly replay?: { readonly request: RequestTemplate; readonly expect: Expectation; readonly idsUnknown?: true };
}

/** Another occurrence of a failure: what was sent and what the check said, not the answer (it had the same status). */
export interface FailureExample {
  readonly probe: string;
  readonly title: string;
  readonly request: ProbeRequest;
}

/** One request of a STATE-* failure's sequence (`failures[].sequence`). */
export interface SequenceStep {
  readonly method: string;
  /** The URL after the base URL: path and query. */
  readonly path: string;
  readonly body?: string;
  /** How long after the previous step it was sent, when the property waited for an effect to show (ms). */
  readonly afterMs?: number;
  /** This request alone. */
  readonly curl: string;
  /** The request with its secrets as placeholders (`replay` sends it); absent where one has none. */
  readonly template?: RequestTemplate;
}

/** How a failure's input was shrunk. */
export interface ShrinkNote {
  /** Extra requests sent to shrink it. */
  readonly requests: number;
  /** Characters of the request's body and query string, first found and shrunk. */
  readonly fromSize: number;
  readonly toSize: number;
  /** Why shrinking stopped before no smaller candidate failed: a budget; absent when it ran to the end. */
  readonly stopped?: string;
}

/**
 * What one model-based property (a STATE-* scenario) spent searching and shrinking, against its
 * budget (`state/property.ts`): the sibling of `ShrinkSummary`, which covers single generated requests.
 */
export interface StateSpend {
  readonly rule: RuleId;
  readonly budget: {
    readonly sequences: number;
    readonly maxCommands: number;
    /** Requests of the runs, searching and shrinking together. */
    readonly requests: number;
    /** Of which at most this many while shrinking. */
    readonly shrinkRequests: number;
    readonly cleanupRequests: number;
  };
  /** Command sequences run while searching, and while shrinking. */
  readonly sequences: number;
  readonly shrinkSequences: number;
  /** Shorter sequences not sent again while shrinking: each had already run and passed. */
  readonly shrinkRepeatsSkipped: number;
  readonly requests: number;
  readonly shrinkRequests: number;
  readonly cleanupRequests: number;
  /** On a failure found by a run: the commands of the sequence first found, of the one reported, and the reductions between. */
  readonly shrunk?: { readonly fromCommands: number; readonly toCommands: number; readonly steps: number };
  /** Why a budget ended the property early. */
  readonly stopped?: string;
}

/** The shrinking budgets of a run and what was spent (`shrink.ts`). */
export interface ShrinkSummary {
  readonly perFailure: number;
  readonly perRun: number;
  /** Extra requests sent to shrink, over the run (counted in `requests` too). */
  readonly requests: number;
  /** Failures whose input was generated, so shrinking applied. */
  readonly failures: number;
  /** Of those, the ones made smaller. */
  readonly reduced: number;
  /** Of those, the ones a budget stopped (they say so). */
  readonly stopped: number;
}

export type Outcome = 'passed' | 'failed' | 'skipped';

/** One (rule, operation) pair of the report. */
export interface CheckSummary {
  readonly rule: RuleId;
  /** `METHOD /path/template`, or `*` for rules checked once against the target. */
  readonly operation: string;
  readonly outcome: Outcome;
  /** Exchanges the check judged. */
  readonly exchanges: number;
  /** Time spent on the answers it judged, in ms, concurrent ones added up (a STATE row: its property's whole run); absent when nothing was judged. */
  readonly ms?: number;
  /** When, from the run's start, the first exchange it judged was sent and the last one answered (ms): its wall time, which concurrency does not add up. */
  readonly wall?: { readonly fromMs: number; readonly toMs: number };
  /**
   * On a failed row: the distinct failures that broke this rule here, listed in `failures` or not
   * (at most a few are kept). Summed over the rows: the report's `summary.ruleViolations`.
   */
  readonly failures?: number;
  /** On a failed row: the occurrences of those failures (failing exchanges, or scenario runs). */
  readonly occurrences?: number;
  /** Why it was skipped, or notes such as the conflicts it accepted either side of. */
  readonly reason?: string;
  /**
   * The mutation operators whose probes this row's own rule judged, with how many (canonical and
   * drawn): how deep a passing row looked. Absent where its probes came from none (or it judges
   * other rules' probes).
   */
  readonly operators?: readonly { readonly id: string; readonly probes: number }[];
  /** A failed row whose every failure the run's --baseline lists: it does not fail the run. */
  readonly known?: true;
}

/** How much of one rule the run judged: its rows (in-scope operations) checked, and why the others were not. */
export interface RuleCoverage {
  /** Rows of the rule a check judged (passed or failed). */
  readonly checked: number;
  /** Rows of the rule: its in-scope operations (plus any it judged outside them). */
  readonly inScope: number;
  readonly skipped: readonly { readonly operation: string; readonly reason: string }[];
  /** Rows judged, but with some of their probes not sent (e.g. valid boundary cases without --allow-destructive). */
  readonly partly: readonly { readonly operation: string; readonly reason: string }[];
}

/** What the run covered: rows checked of all rows, skipped rows grouped by reason, and per rule. */
export interface Coverage {
  readonly checked: number;
  readonly total: number;
  /** Skipped rows counted per reason group (ids and figures that vary per row stripped), most first. */
  readonly skipped: readonly { readonly reason: string; readonly count: number }[];
  /** Keyed by rule id, in the model's order. */
  readonly rules: Readonly<Record<string, RuleCoverage>>;
}

/**
 * What a mutating or destructive endpoint's successful answers changed on the target (e.g. an
 * additional SFTP account removed, a site-admin user created): the next run may find less to
 * check, and this says why.
 */
export interface Consumption {
  /** `METHOD /path/template` of an endpoint whose model `effect` is `mutating` or `destructive`. */
  readonly operation: string;
  /** The endpoint's `effect` in the model. */
  readonly effect: 'mutating' | 'destructive';
  /**
   * The ids the accepted requests named, by name: path parameters (e.g. `sftp_account_id`) and
   * body fields the model says refer to something (`refersTo`, e.g. `environment_id`, `backup_id`).
   */
  readonly ids: Readonly<Record<string, string>>;
  /** Requests with these ids the target accepted (a 2xx answer). */
  readonly requests: number;
  /** The requests of this operation whose ids found no room among its entries (a bounded number are kept); `ids` is then empty. */
  readonly otherIds?: true;
}

/** What a baseline did to a run: how many findings it knew, and its entries the run no longer met. */
export interface BaselineUse {
  readonly file: string;
  /** Distinct failures the baseline lists: reported as known, not failing the run. */
  readonly known: number;
  /** Distinct failures it does not list: these fail the run. */
  readonly new: number;
  /** Entries whose rows were judged and showed no such finding: fixed, to remove from the file. */
  readonly gone: readonly string[];
  /** Entries whose rows this run did not judge (skipped, or left out by --only): neither met nor fixed. */
  readonly notJudged: readonly string[];
}

export interface Report {
  readonly ok: boolean;
  readonly seed: number;
  readonly target: string;
  readonly specVersion: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: number;
  readonly options: Readonly<Record<string, unknown>>;
  readonly summary: {
    readonly passed: number;
    readonly failed: number;
    readonly skipped: number;
    readonly warnings: number;
    /** Distinct failures found (one per symptom; see `Failure`), including any beyond `failures`' cap. */
    readonly distinctFailures: number;
    /** The rules those failures broke, counted once per distinct failure: the sum of their `rules`' lengths, and of the rows' `failures`. */
    readonly ruleViolations: number;
    /** The occurrences of those failures: failing exchanges (or scenario runs, or target rows); the sum of their `occurrences`. */
    readonly failingExchanges: number;
  };
  readonly checks: readonly CheckSummary[];
  readonly coverage: Coverage;
  readonly failures: readonly Failure[];
  readonly warnings: readonly Failure[];
  /** The document's conflicts the run met, and how they were resolved (either side, or the letter with --strict). */
  readonly notes: readonly string[];
  /** What the target accepted of mutating and destructive requests, per operation and the ids they named. */
  readonly consumed: readonly Consumption[];
  /** Shrinking's budgets and what it spent; the runner always states it. */
  readonly shrinking?: ShrinkSummary;
  /** What each model-based property that ran spent, searching and shrinking its command sequences. */
  readonly stateShrinking?: readonly StateSpend[];
  /** How the run was paced, what the target's throttling and the run's budget left unjudged, and what the budget bought. */
  readonly schedule?: Schedule;
  /** With --baseline: the file, the findings it knew and the new ones, and its entries that no longer occur. */
  readonly baseline?: BaselineUse;
}

/**
 * The run's schedule as it went: 429s met, requests that judged nothing (given up while
 * throttled, or not sent because the budget was spent), the rate the pacer kept to and where it
 * learned it, and, under `--max-requests` / `--max-duration`, the budget, its spend and why it stopped.
 */
export interface Schedule {
  /** Answers of 429 (waited out or given up on). */
  readonly throttled: number;
  readonly notJudged: { readonly throttled: number; readonly budget: number; readonly runner?: number };
  /** Time the run spent paused by 429s, each moment once (ms). */
  readonly pausedMs?: number;
  /** Time requests spent waiting for their slot, all together (ms). */
  readonly pacedMs?: number;
  /** The rate the run kept to at its end (requests per second), and where that came from. */
  readonly allowedRate?: number;
  readonly rateFrom?: 'fixed' | 'policy' | 'remaining' | 'backoff';
  /** The target's counts showed a limit per endpoint: each operation was paced to its own. */
  readonly perOperation?: true;
  /** How long the suite's own process could not run while requests waited for their answers (its event loop held, its machine busy): each deadline it set counted only the time it ran. */
  readonly runner?: { readonly delayedMs: number; readonly longestMs: number; readonly stalls: number };
  readonly budget?: {
    readonly maxRequests?: number;
    readonly maxDurationMs?: number;
    /** Requests the budget covered (discovery included). */
    readonly requests: number;
    /** Why the run stopped sending before it was done, when it did. */
    readonly stopped?: string;
    /** Command sequences each state property ran, of those it would have run. */
    readonly sequences: readonly { readonly rule: RuleId; readonly run: number; readonly of: number }[];
  };
}

/** Ids found through the read endpoints, starting from `--site-id` (or the mock's fixtures). */
export interface DiscoveredIds {
  readonly companyId: string;
  readonly siteId: string;
  /** Every environment of the site. */
  readonly envIds: readonly string[];
  /** The environment actions are aimed at: a non-live one when the site has one. */
  readonly envId: string;
  readonly cdnCacheId?: string;
  /**
   * The domain DNS updates act on: one of a non-live environment when there is one; never a live
   * environment's without --allow-live (discovery's `allowLive`).
   */
  readonly domainId?: string;
  /** The `name` of `domainId`: the zone probe DNS records are named inside. */
  readonly domainName?: string;
  /** A DNS record of `domainId`, when it has one (its zone is used when the domain has no name). */
  readonly dnsRecord?: { readonly type: string; readonly name: string };
  /** A backup restores take: never a live environment's without --allow-live. */
  readonly backupId?: number;
  /** The environment whose additional SFTP accounts are listed in `sftpAccountIds` (defaults to `envId`). */
  readonly sftpEnvId?: string;
  /** Additional SFTP accounts of `sftpEnvId` (else `envId`): removals take them; never a live environment's without --allow-live. */
  readonly sftpAccountIds: readonly string[];
  /** A company user, for `notified_user_id`. */
  readonly userId?: string;
  /** The DNS records of `domainId` as discovery listed them, before any request could change them (STATE-DNS-UPDATE compares). */
  readonly dnsRecordsAtStart?: readonly unknown[];
  /** The additional SFTP accounts of `sftpEnvId` as discovery listed them, before any request could change them (STATE-SFTP-REMOVE compares). */
  readonly sftpAccountsAtStart?: readonly unknown[];
  /**
   * Every environment of the site with what it holds, in the order actions prefer them (non-live
   * and unblocked first): a request takes all it names from the first place that holds it all and
   * that it may act on (a destructive request: no live environment without --allow-live).
   */
  readonly places?: readonly Place[];
}

/** One environment and the data of it requests can name. */
export interface Place {
  readonly envId: string;
  /** The environment's `name` (`live` occurs), when given. */
  readonly envName?: string;
  /** Discovery took it for the environment visitors see (ASM-LIVE-ENVIRONMENT: `looksLive`). */
  readonly live?: true;
  readonly cdnCacheId?: string;
  readonly domainId?: string;
  /** The `name` of `domainId`: the zone probe DNS records are named inside. */
  readonly domainName?: string;
  readonly dnsRecord?: { readonly type: string; readonly name: string };
  readonly backupId?: number;
  /** Every backup discovery listed there (backup ids are integers: another company's may be the same number). */
  readonly backupIds?: readonly number[];
  readonly sftpAccountIds: readonly string[];
}

export interface Tenant {
  readonly apiKey: string;
  readonly ids: DiscoveredIds;
}

export interface Target {
  /** Ends in `/v2`, no trailing slash. */
  readonly baseUrl: string;
  readonly main: Tenant;
  /** A second company, for isolation checks (`--other-api-key`, `--other-site-id`). */
  readonly other?: Tenant;
  /** Positive requests to mutating and destructive endpoints are allowed. */
  readonly allowDestructive: boolean;
  /**
   * Destructive requests may name a live environment's data, or a whole site that has one
   * (`--allow-live`; on for the embedded mock). Absent or false: they stay off live environments.
   */
  readonly allowLive?: boolean;
  /** The target is the embedded mock (destructive requests allowed by default). */
  readonly embedded: boolean;
  /**
   * The real key may be sent in a URL (query carriers of AUTH-BEARER): on for a loopback target
   * (whose logs are the user's own) and the mock, or with --allow-key-in-url. Absent: never.
   */
  readonly keyInUrl?: boolean;
}

export interface ProbeContext {
  readonly target: Target;
  readonly seed: number;
  /** Examples per property. */
  readonly runs: number;
  readonly options: CheckOptions;
}

/** A (rule, endpoint) pair a probe source could not exercise, and why. */
export interface Skip {
  readonly rule: RuleId;
  readonly endpoint: Endpoint;
  readonly reason: string;
}

/** Builds the probes of one rule family; deterministic for a given context (seed). */
export type ProbeSource = (context: ProbeContext) => { readonly probes: readonly Probe[]; readonly skipped: readonly Skip[] };

/** When the run's budget ends (monotonic ms, Infinity without one): for requests, or for the clean-up that may spend the reserve. */
export type Deadline = (spending: 'run' | 'cleanup') => number;
export const NO_DEADLINE: Deadline = () => Infinity;

/** Sends a probe, waits out throttling; never throws. The runner judges every exchange it returns. */
export type Send = (probe: Probe) => Promise<Exchange>;

/** A property over several exchanges (fast-check's command pattern): STATE-* rules. */
export interface Scenario {
  readonly rule: RuleId;
  /** The endpoints the scenario exercises, the action first (each gets a report row for `rule`; failures name the action). */
  readonly endpoints: readonly Endpoint[];
  readonly title: string;
  /**
   * Runs the scenario; a verdict means the rule failed, `exchange` is the one to show, and
   * `sequence` the requests that led to it. `skip` says why the property could not be observed
   * (a precondition no longer held): never a pass. `notes` go to the report's notes (what the
   * property spent and consumed), whatever the outcome, and `spend` to `stateShrinking`.
   * `earlier`: the exchanges of probes sent before the scenarios to its action (its first
   * endpoint), in probe order: effects the state shows when it starts are theirs.
   */
  readonly run: (send: Send, earlier?: readonly Exchange[], deadline?: Deadline) => Promise<ScenarioOutcome>;
  /** The same, in parts (a run under a budget gives each property one sequence before any gets more); without it, `run` is the whole. */
  readonly start?: (send: Send, earlier?: readonly Exchange[], deadline?: Deadline) => ScenarioRun;
  /** What it may spend, for the run's plan: command sequences, and requests at most (clean-up aside). */
  readonly spend?: { readonly sequences: number; readonly requests: number };
}

/**
 * What a scenario found. `partly` says what of it was not judged (sequences cut short by a
 * throttled request, or never run because the run's budget was spent) when the rest was.
 */
export interface ScenarioOutcome {
  readonly verdict?: Verdict;
  readonly exchange?: Exchange;
  readonly sequence?: readonly ScenarioStep[];
  readonly skip?: string;
  readonly partly?: string;
  readonly notes?: readonly string[];
  readonly spend?: StateSpend;
}

/** A scenario in parts: `more(n)` runs up to n more sequences (`all`: the rest), `end()` cleans up and gives the outcome. */
export interface ScenarioRun {
  more(sequences: number | 'all'): Promise<void>;
  end(): Promise<ScenarioOutcome>;
}

/** A request of the sequence that led to a scenario's failure, as sent. */
export interface ScenarioStep {
  readonly request: ProbeRequest;
  /** How long after the previous step it was sent, when the scenario waited for an effect to show (ms). */
  readonly afterMs?: number;
}

export type ScenarioSource = (context: ProbeContext) => { readonly scenarios: readonly Scenario[]; readonly skipped: readonly Skip[] };
