/**
 * The proxy's baseline of known problems (`proxy --baseline FILE`, `--write-baseline FILE`), in
 * the file format conform's baseline has (conformance/baseline.ts): a problem's fingerprint is
 * its side, rule, operation and place (`client AUTH-BEARER GET /validate at Authorization`),
 * nothing an exchange draws. Known problems are listed as known, not hidden; the exit code counts
 * only the others (a problem past the report's cap is never known: it fails closed); entries the
 * traffic's operations no longer show are named fixed, so the file shrinks, and entries for
 * operations no traffic touched are not judged, and kept.
 */
import { baselineFileOf, type Baseline, type BaselineFile } from '../conformance/baseline.ts';
import type { RuleId } from '../spec/model.ts';
import type { ProxyReport, ReportedProblem } from './report.ts';

export const problemFingerprint = (p: Pick<ReportedProblem, 'side' | 'rule' | 'operation' | 'at'>): string => `${p.side} ${p.rule} ${p.operation}${p.at ? ` at ${p.at}` : ''}`;

export const proxyBaselineOf = (report: ProxyReport, previous?: Baseline): BaselineFile =>
  baselineFileOf(
    report.problems.filter((p) => p.severity === 'error'),
    problemFingerprint,
    (p, print) => ({ fingerprint: print, rules: [p.rule as RuleId], operation: p.operation, answer: p.side, title: p.reason, reason: p.reason }),
    previous,
    report.baseline?.notJudged,
  );

/** The report with its known problems marked, `ok` from the others, and what the baseline did. */
export function applyProxyBaseline(report: ProxyReport, baseline: Baseline, touched: ReadonlySet<string>): ProxyReport {
  const entries = new Map(baseline.findings.map((e) => [e.fingerprint, e]));
  const problems = report.problems.map((p) => {
    const entry = entries.get(problemFingerprint(p));
    return entry ? { ...p, known: entry.reason } : p;
  });
  const knownErrors = (side: 'client' | 'server') => problems.filter((p) => p.side === side && p.severity === 'error' && p.known !== undefined).reduce((n, p) => n + p.occurrences, 0);
  const fresh = { client: report.counts.client.errors - knownErrors('client'), server: report.counts.server.errors - knownErrors('server') };
  const ok = report.failOn === 'none' || (report.failOn === 'any' ? fresh.client + fresh.server === 0 : fresh[report.failOn] === 0);
  const met = new Set(problems.map(problemFingerprint));
  return {
    ...report,
    problems,
    ok,
    baseline: {
      file: baseline.file,
      known: problems.filter((p) => p.known !== undefined).length,
      gone: baseline.findings.filter((e) => !met.has(e.fingerprint) && touched.has(e.operation)).map((e) => e.fingerprint),
      notJudged: baseline.findings.filter((e) => !met.has(e.fingerprint) && !touched.has(e.operation)).map((e) => e.fingerprint),
    },
  };
}
