/**
 * A baseline of known findings, so a live API with a known deviation can be gated: each distinct
 * failure has a fingerprint made of what was observed and nothing that varies between runs (the
 * rules broken together, the operation and what the answer showed: its status, or the kind of
 * transport failure; not the seed, ids, timings or drawn values). `--write-baseline FILE` writes
 * a run's findings with their reasons; `--baseline FILE` makes the gate fail only on findings not
 * in it, lists the known ones as known (never silently), and names the entries that no longer
 * occur where their rows were judged, so the file shrinks as the API is fixed.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../bin/command.ts';
import type { RuleId } from '../spec/model.ts';
import { reportingTool, type Tool } from './report/json.ts';
import type { CheckSummary, Failure, Report } from './types.ts';

export const BASELINE_FORMAT = 'hosted-site-contract/baseline@1';

/** One known finding: its fingerprint, what it is, and why it is accepted (the file's owner edits it). */
export interface BaselineEntry {
  readonly fingerprint: string;
  readonly rules: readonly RuleId[];
  readonly operation: string;
  /** What the answer showed: `status 200`, `no answer: timeout`. */
  readonly answer: string;
  /** The failure's title when it was written. */
  readonly title: string;
  /** Why it is accepted: the failure's message when written, for the owner to replace. */
  readonly reason: string;
}

export interface BaselineFile {
  readonly format: typeof BASELINE_FORMAT;
  readonly tool: Tool;
  readonly findings: readonly BaselineEntry[];
}

/** A baseline as a run uses it: the file as given, and its entries. */
export interface Baseline {
  readonly file: string;
  readonly findings: readonly BaselineEntry[];
}

/** What the answer of a failure showed. */
export const answerOf = (f: Pick<Failure, 'response' | 'transport'>): string =>
  f.response ? `status ${f.response.status}` : f.transport ? `no answer: ${f.transport.kind}` : 'no answer';

/** A failure's fingerprint: `RULE[+RULE] METHOD /path → status 200`. */
export const fingerprint = (f: Pick<Failure, 'rules' | 'operation' | 'response' | 'transport'>): string => `${f.rules.join('+')} ${f.operation} → ${answerOf(f)}`;

/**
 * A baseline file of `found` (conform's failures, the proxy's problems), each once by its
 * fingerprint, reasons kept from `previous` where it had the entry; and the entries of `previous`
 * the run did not judge (`notJudged`: --only, a budget, traffic that never came), which it cannot
 * call fixed.
 */
export function baselineFileOf<T>(found: readonly T[], print: (t: T) => string, entryOf: (t: T, fingerprint: string) => BaselineEntry, previous: Baseline | undefined, notJudged: readonly string[] = []): BaselineFile {
  const kept = new Map(previous?.findings.map((e) => [e.fingerprint, e]));
  const seen = new Set<string>();
  const findings = found.flatMap((t): BaselineEntry[] => {
    const p = print(t);
    if (seen.has(p)) return [];
    seen.add(p);
    return [kept.get(p) ?? entryOf(t, p)];
  });
  const unjudged = new Set(notJudged);
  const stay = (previous?.findings ?? []).filter((e) => unjudged.has(e.fingerprint) && !seen.has(e.fingerprint));
  return { format: BASELINE_FORMAT, tool: reportingTool(), findings: [...findings, ...stay] };
}

/** The baseline file of a run's findings (error severity), in the report's order. */
export const baselineOf = (report: Report, previous?: Baseline): BaselineFile =>
  baselineFileOf(
    report.failures,
    fingerprint,
    (f, print) => ({ fingerprint: print, rules: f.rules, operation: f.operation, answer: answerOf(f), title: f.title, reason: f.message.split('\n')[0]!.slice(0, 300) }),
    previous,
    report.baseline?.notJudged,
  );

export const renderBaseline = (file: BaselineFile): string => `${JSON.stringify(file, null, 2)}\n`;

/** Reads a baseline file; anything else is one line naming the file (exit 2). */
export function readBaseline(file: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new UsageError(code ? `--baseline: cannot read ${file} (${code})` : `--baseline: ${file} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const doc = parsed as Partial<BaselineFile> | null;
  if (typeof doc !== 'object' || doc === null || doc.format !== BASELINE_FORMAT || !Array.isArray(doc.findings)) {
    throw new UsageError(`--baseline: ${file} is not a baseline (format ${BASELINE_FORMAT}; --write-baseline writes one)`);
  }
  doc.findings.forEach((e, i) => {
    const ok = typeof e === 'object' && e !== null && typeof e.fingerprint === 'string' && Array.isArray(e.rules) && typeof e.operation === 'string' && typeof e.reason === 'string';
    if (!ok) throw new UsageError(`--baseline: ${file}: findings[${i}] needs fingerprint, rules, operation and reason`);
  });
  return { file, findings: doc.findings };
}

const rowKey = (rule: string, operation: string) => `${rule} ${operation}`;

/**
 * The report judged against the baseline: its failures marked `known` (with the entry's
 * reason), rows whose every failure is known marked so, `ok` from the new findings alone (and
 * the skip gate, as before), and what the baseline did under `baseline`.
 */
export function applyBaseline(report: Report, baseline: Baseline): Report {
  const entries = new Map(baseline.findings.map((e) => [e.fingerprint, e]));
  const failures = report.failures.map((f) => {
    const entry = entries.get(fingerprint(f));
    return entry ? { ...f, known: entry.reason } : f;
  });
  const met = new Set(failures.map(fingerprint));
  const judged = new Set(report.checks.filter((c) => c.outcome !== 'skipped').map((c) => rowKey(c.rule, c.operation)));
  const stale = baseline.findings.filter((e) => !met.has(e.fingerprint));
  const checks = report.checks.map((row): CheckSummary => {
    if (row.outcome !== 'failed') return row;
    const own = failures.filter((f) => f.rules.includes(row.rule) && f.operation === row.operation);
    // Every failure of the row listed and known: a row with failures beyond the list may hold a new one.
    return own.length && own.length >= (row.failures ?? 0) && own.every((f) => f.known !== undefined) ? { ...row, known: true } : row;
  });
  const fresh = failures.filter((f) => f.known === undefined).length;
  const failOnSkip = report.options.failOnSkip === true && report.summary.skipped > 0;
  return {
    ...report,
    ok: fresh === 0 && checks.every((c) => c.outcome !== 'failed' || c.known === true) && !failOnSkip,
    failures,
    checks,
    baseline: {
      file: baseline.file,
      known: failures.length - fresh,
      new: fresh,
      gone: stale.filter((e) => e.rules.every((r) => judged.has(rowKey(r, e.operation)))).map((e) => e.fingerprint),
      notJudged: stale.filter((e) => !e.rules.every((r) => judged.has(rowKey(r, e.operation)))).map((e) => e.fingerprint),
    },
  };
}
