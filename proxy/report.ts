/**
 * What the proxy saw, kept bounded whatever the traffic: counts of exchanges, and each distinct
 * problem (side, rule, operation, where, reason) once with how often it occurred and the first
 * exchange that showed it. Rendered as the suite's formats are: console, JSON, JUnit.
 */
import { attr, xmlEscape } from '../conformance/report/junit.ts';
import { apiIdentity } from '../spec/identity.ts';
import type { ExchangeProblem, JudgedExchange, NotJudged, Side } from './judge.ts';

/** Distinct problems kept; past it, only counted (and the report says how many were not kept). */
export const MAX_DISTINCT = 1000;

export const FAIL_ON = ['client', 'server', 'any', 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export interface ReportedProblem extends ExchangeProblem {
  /** `METHOD /path/template` as the document writes it, or the method and path sent when it lists none. */
  readonly operation: string;
  readonly occurrences: number;
  /** The first exchange that showed it: what was sent and what came back. */
  readonly first: { readonly method: string; readonly path: string; readonly status?: number; readonly failure?: string };
  /** A problem the proxy's --baseline lists: the reason it gives. Known problems do not set the exit code. */
  readonly known?: string;
}

/** Names the report's shape, for readers that check it. */
export const PROXY_REPORT_FORMAT = 'hosted-site-contract/proxy-report@1';

export interface ProxyReport {
  readonly format: typeof PROXY_REPORT_FORMAT;
  readonly tool: { readonly name: string; readonly version: string };
  /** The version of the document judged against. */
  readonly specVersion: string;
  readonly startedAt: string;
  readonly target: string;
  readonly exchanges: number;
  /** Exchanges with no answer from the target (refused, reset, timed out, or the client left), by what happened. */
  readonly unanswered: number;
  readonly failures: Readonly<Record<string, number>>;
  /** Exchanges a side of which was not judged, by why: a body past `--max-body-kb`, a 429, a HEAD, … */
  readonly notJudged: Partial<Readonly<Record<NotJudged, number>>>;
  readonly problems: readonly ReportedProblem[];
  /** Problems of each side and severity, every occurrence counted (kept or not). */
  readonly counts: Readonly<Record<Side, { readonly errors: number; readonly warnings: number }>>;
  /** Distinct problems past MAX_DISTINCT, counted but not kept. */
  readonly notKept: number;
  /**
   * Why, from some exchange on, what the traffic would have shown is withheld (the sanitizer could
   * no longer vouch for it), and of how many exchanges: their rules, operations and statuses kept.
   */
  readonly withheld?: { readonly reason: string; readonly exchanges: number };
  readonly failOn: FailOn;
  /** No error of a side `failOn` names (but for those --baseline knows). */
  readonly ok: boolean;
  /** With --baseline: the file, the problems it knew, and its entries no exchange showed. */
  readonly baseline?: { readonly file: string; readonly known: number; readonly gone: readonly string[]; readonly notJudged: readonly string[] };
}

/** Distinct failure words kept; past them, counted under one. */
const MAX_FAILURE_KINDS = 50;

export class ProxyLog {
  readonly #startedAt = new Date().toISOString();
  #exchanges = 0;
  #unanswered = 0;
  readonly #failures = new Map<string, number>();
  readonly #notJudged = new Map<NotJudged, number>();
  #notKept = 0;
  #withheld: { reason: string; exchanges: number } | undefined;
  readonly #distinct = new Map<string, ReportedProblem>();
  readonly #counts = { client: { errors: 0, warnings: 0 }, server: { errors: 0, warnings: 0 } };
  /** Operations the traffic touched (at most MAX_DISTINCT): a baseline entry is fixed only on one of them. */
  readonly operations = new Set<string>();

  get exchanges(): number {
    return this.#exchanges;
  }

  /** From now on, exchanges are added with their details withheld, for `reason`. */
  withhold(reason: string): void {
    this.#withheld ??= { reason, exchanges: 0 };
  }

  get withheld(): string | undefined {
    return this.#withheld?.reason;
  }

  add(judged: JudgedExchange, seen: { readonly method: string; readonly path: string; readonly status?: number; readonly failure?: string }, withheld = false): void {
    this.#exchanges++;
    if (withheld && this.#withheld) this.#withheld.exchanges++;
    if (seen.failure !== undefined) {
      this.#unanswered++;
      const words = this.#failures.has(seen.failure) || this.#failures.size < MAX_FAILURE_KINDS ? seen.failure : 'other failures';
      this.#failures.set(words, (this.#failures.get(words) ?? 0) + 1);
    }
    for (const kind of new Set(judged.unjudged.map((u) => u.kind))) this.#notJudged.set(kind, (this.#notJudged.get(kind) ?? 0) + 1);
    const operation = judged.endpoint ? `${judged.endpoint.method} ${judged.endpoint.path}` : `${seen.method} ${seen.path}`;
    if (this.operations.size < MAX_DISTINCT) this.operations.add(operation);
    for (const problem of judged.problems) {
      const count = this.#counts[problem.side];
      if (problem.severity === 'error') count.errors++;
      else count.warnings++;
      const key = JSON.stringify([problem.side, problem.rule, operation, problem.at, problem.reason]);
      const kept = this.#distinct.get(key);
      if (kept) this.#distinct.set(key, { ...kept, occurrences: kept.occurrences + 1 });
      else if (this.#distinct.size < MAX_DISTINCT) this.#distinct.set(key, { ...problem, operation, occurrences: 1, first: seen });
      else this.#notKept++;
    }
  }

  report(tool: ProxyReport['tool'], target: string, failOn: FailOn): ProxyReport {
    const counts = { client: { ...this.#counts.client }, server: { ...this.#counts.server } };
    return {
      format: PROXY_REPORT_FORMAT,
      tool,
      specVersion: apiIdentity.specVersion,
      startedAt: this.#startedAt,
      target,
      exchanges: this.#exchanges,
      unanswered: this.#unanswered,
      failures: Object.fromEntries(this.#failures),
      notJudged: Object.fromEntries(this.#notJudged),
      problems: [...this.#distinct.values()],
      counts,
      notKept: this.#notKept,
      ...(this.#withheld ? { withheld: { ...this.#withheld } } : {}),
      failOn,
      ok: !failsOn(counts, failOn),
    };
  }
}

function failsOn(counts: ProxyReport['counts'], failOn: FailOn): boolean {
  switch (failOn) {
    case 'none':
      return false;
    case 'any':
      return counts.client.errors + counts.server.errors > 0;
    default:
      return counts[failOn].errors > 0;
  }
}

/** Where a problem is, before its reason: `at /wp_command: `. */
const where = (p: ExchangeProblem): string => (p.at ? `at ${p.at}: ` : '');

/** One problem on one line: side, rule, where, why. */
export const problemLine = (p: ExchangeProblem): string => `${p.side} ${p.rule}${p.severity === 'warning' ? ' (warning)' : ''}: ${where(p)}${p.reason}`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const NOT_JUDGED_WORDS: Readonly<Record<NotJudged, string>> = {
  'too-large': 'too large to judge',
  unread: 'a body the target did not read',
  throttled: 'throttled (429)',
  encoded: 'in a coding not decoded',
  method: 'HEAD or OPTIONS',
  'not-modified': '304 to a conditional request',
  target: 'a request target not in normal form',
};

/**
 * The closing line: the verdict, by the sides `--fail-on` names, and what it rests on: a run
 * whose exchanges went unanswered or unjudged says so, and one that judged none says that.
 */
export function verdictLine(report: ProxyReport): string {
  const { client, server } = report.counts;
  const tally = `${plural(client.errors, 'client problem')}, ${plural(server.errors, 'server problem')}, ${plural(client.warnings + server.warnings, 'warning')} in ${plural(report.exchanges, 'exchange')}`;
  const unjudged = Object.entries(report.notJudged).map(([kind, n]) => `${n} ${NOT_JUDGED_WORDS[kind as NotJudged]}`);
  const extra = [report.unanswered ? `${report.unanswered} unanswered by the target` : '', ...unjudged].filter(Boolean).join(', ');
  const head = !report.ok ? '✗ problems' : report.exchanges === 0 ? '✓ no problem, but no exchange seen' : report.unanswered === report.exchanges ? '✓ no problem, but the target answered none' : '✓ no problem';
  const known = report.baseline?.known ? `; ${plural(report.baseline.known, 'known problem')} (baseline ${report.baseline.file}) do not count` : '';
  return `${head} (--fail-on ${report.failOn}): ${tally}${known}${extra ? ` (not judged: ${extra})` : ''}`;
}

export function renderConsole(report: ProxyReport): string {
  const lines = [`${report.tool.name} proxy ${report.tool.version}: ${report.target}`];
  for (const side of ['client', 'server'] as const) {
    const mine = report.problems.filter((p) => p.side === side);
    if (mine.length === 0) continue;
    lines.push('', side === 'client' ? 'CLIENT (the requests)' : 'SERVER (the answers)');
    for (const p of mine) {
      lines.push(`  ${p.known !== undefined ? '~' : p.severity === 'error' ? '✗' : '!'} ${p.rule} ${p.operation}${p.occurrences > 1 ? ` (×${p.occurrences})` : ''}${p.known !== undefined ? ` — known (baseline): ${p.known}` : ''}`);
      lines.push(`      ${where(p)}${p.reason}`);
      lines.push(`      first: ${p.first.method} ${p.first.path} → ${p.first.status ?? p.first.failure ?? 'no answer'}`);
    }
  }
  const failures = Object.entries(report.failures);
  if (failures.length) lines.push('', 'UNANSWERED (the target did not answer; nothing judged)', ...failures.map(([why, n]) => `  ${why} (×${n})`));
  if (report.notKept) lines.push('', `${report.notKept} more distinct problems were counted but not kept (at most ${MAX_DISTINCT} are)`);
  if (report.baseline?.gone.length) lines.push('', `FIXED (${report.baseline.gone.length} baseline entries no exchange showed: remove them, or rewrite the file with --write-baseline)`, ...report.baseline.gone.map((g) => `  - ${g}`));
  if (report.withheld) lines.push('', `WITHHELD: ${report.withheld.exchanges} exchanges are shown by rule, operation and status only: ${report.withheld.reason}`);
  lines.push('', verdictLine(report));
  return `${lines.join('\n')}\n`;
}

export const renderJson = (report: ProxyReport): string => `${JSON.stringify(report, null, 2)}\n`;

/** One testsuite per side, one testcase per distinct problem (a failure, or a pass with its warning in system-out), and one for the exchanges seen. */
export function renderJunit(report: ProxyReport): string {
  const suites = (['client', 'server'] as const).map((side) => {
    const mine = report.problems.filter((p) => p.side === side);
    const failures = mine.filter((p) => p.severity === 'error' && p.known === undefined).length;
    const skipped = mine.filter((p) => p.known !== undefined).length;
    const cases = mine.map((p) => {
      const name = xmlEscape(`${p.rule} ${p.operation}${p.at ? ` at ${p.at}` : ''}: ${p.reason}`);
      const why = `${where(p)}${p.reason}`;
      const text = xmlEscape(`${why}\noccurrences: ${p.occurrences}\nfirst: ${p.first.method} ${p.first.path} → ${p.first.status ?? p.first.failure ?? 'no answer'}`);
      if (p.known !== undefined) return `    <testcase classname="${side}" name="${name}"><skipped message="${attr(`known (baseline): ${p.known}`)}">${text}</skipped></testcase>`;
      return p.severity === 'error'
        ? `    <testcase classname="${side}" name="${name}"><failure message="${attr(why)}" type="${attr(p.rule)}">${text}</failure></testcase>`
        : `    <testcase classname="${side}" name="${name}"><system-out>warning: ${text}</system-out></testcase>`;
    });
    const seen = `    <testcase classname="${side}" name="${xmlEscape(`${plural(report.exchanges, 'exchange')} judged on the ${side}'s side`)}"/>`;
    const withheld = report.withheld ? `\n      <property name="withheld" value="${xmlEscape(`${report.withheld.exchanges} exchanges shown by rule, operation and status only: ${report.withheld.reason}`)}"/>` : '';
    const properties = `    <properties>\n      <property name="tool.version" value="${xmlEscape(report.tool.version)}"/>${withheld}\n    </properties>`;
    return `  <testsuite name="${side}" tests="${cases.length + 1}" failures="${failures}" errors="0" skipped="${skipped}">\n${[properties, seen, ...cases].join('\n')}\n  </testsuite>`;
  });
  const failures = report.problems.filter((p) => p.severity === 'error' && p.known === undefined).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlEscape(`${report.tool.name} proxy`)}" tests="${report.problems.length + 2}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}
