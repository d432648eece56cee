/**
 * `--reporter github`: GitHub Actions workflow commands that annotate the run, one `::error` per
 * distinct failure and one `::warning` per warning, titled with the rules and the operation, the
 * message saying what the console says of it (why, the request, the answer, the seed, a curl
 * line). With `--fail-on-skip`, a run failed by its skips alone gets the coverage gate's
 * `::error`, as JUnit gets its testcase. GitHub shows 10 annotations of each kind per step and
 * drops the rest (actions/toolkit, docs/problem-matchers.md): past that, the tenth says how many
 * more there are and where to read them. The job summary is job-summary.ts.
 *
 * Escaped as GitHub's runner reads commands (actions/toolkit `escapeData`, `escapeProperty`):
 * `%`, CR and LF in the message, and `:` and `,` too in a property; control characters a target
 * sent are shown escaped first, so nothing in a value can end a command or begin another.
 */
import { count } from '../checks/values.ts';
import { rulesTogether } from '../failures.ts';
import type { Failure, Report } from '../types.ts';
import { curlShown, printable } from './console.ts';

/** Annotations of one kind GitHub shows per step. */
export const ANNOTATIONS_SHOWN = 10;

export const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One workflow command; each line of `lines` shown as written, its control characters escaped. */
const command = (kind: 'error' | 'warning' | 'notice', title: string, lines: readonly string[]): string =>
  `::${kind} title=${escapeProperty(printable(title))}::${escapeData(lines.map(printable).join('\n'))}`;

function annotation(f: Failure, kind: 'error' | 'warning' | 'notice' = f.severity): string {
  const response = f.response
    ? `response: ${f.response.status} in ${f.response.ms} ms`
    : `response: none (${f.transport ? `${f.transport.kind}: ${f.transport.message}` : 'not sent'})`;
  return command(kind, `${kind === 'notice' ? 'known (baseline): ' : ''}${f.rules.join(' + ')} on ${f.operation}`, [
    f.title,
    ...(f.known !== undefined ? [`in the baseline: ${f.known}`] : []),
    ...(f.rules.length > 1 ? [`rules: ${f.rules.join(', ')} (${rulesTogether(f)})`] : []),
    // A failure of several rules gives one reason per line (see mergeVerdicts).
    ...f.message.split('\n'),
    `probe: ${f.probe}${f.occurrences > 1 ? `; seen ${f.occurrences} times, the same symptom` : ''}`,
    `request: ${f.request.method} ${f.request.url}`,
    response,
    `seed: ${f.seed}`,
    `curl: ${curlShown(f.curl)}`,
  ]);
}

/** The listed failures of one kind, up to what GitHub shows, the last slot naming how many more of `total` there are. */
function annotations(kind: 'error' | 'warning' | 'notice', listed: readonly Failure[], total: number, slots: number): string[] {
  const shown = listed.slice(0, total > slots ? slots - 1 : slots);
  const more = total - shown.length;
  // A known finding is a notice whatever its severity: it does not fail the run.
  const annotate = (f: Failure) => annotation(f, kind === 'notice' ? 'notice' : f.severity);
  if (more <= 0) return shown.map(annotate);
  const what = count(more, { error: 'more distinct failure', warning: 'more warning', notice: 'more known finding' }[kind]);
  return [...shown.map(annotate), command(kind, what, [`${what} than GitHub annotates in one step: the job summary lists them, and --reporter json has each in full.`])];
}

export function renderGithub(report: Report): string {
  const s = report.summary;
  const gate =
    report.options.failOnSkip === true && s.skipped > 0
      ? [
          command('error', 'coverage gate (--fail-on-skip)', [
            `${s.skipped} of ${count(report.coverage.total, 'check')} skipped (--fail-on-skip):`,
            ...report.coverage.skipped.map((g) => `- ${g.reason} (${g.count})`),
          ]),
        ]
      : [];
  const gone = report.baseline?.gone ?? [];
  const fixed = gone.length ? [command('notice', `baseline: ${gone.length} ${gone.length === 1 ? 'entry no longer occurs' : 'entries no longer occur'}`, [`Remove them from ${report.baseline!.file}, or rewrite it with --write-baseline:`, ...gone.map((g) => `- ${g}`)])] : [];
  const lines = [
    ...gate,
    ...annotations('error', report.failures.filter((f) => f.known === undefined), Math.max(s.distinctFailures - (report.baseline?.known ?? 0), 0), ANNOTATIONS_SHOWN - gate.length),
    // Known findings are said, as notices (a gate that passes over them never hides them), within
    // GitHub's ten, one kept for the entries the run no longer met (the console's FIXED).
    ...annotations('notice', report.failures.filter((f) => f.known !== undefined), report.baseline?.known ?? 0, ANNOTATIONS_SHOWN - fixed.length),
    ...fixed,
    ...annotations('warning', report.warnings, Math.max(s.warnings, report.warnings.length), ANNOTATIONS_SHOWN),
  ];
  return lines.map((line) => `${line}\n`).join('');
}
