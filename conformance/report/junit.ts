/**
 * The JUnit XML reporter: one testsuite per rule, one testcase per operation (the report's rows),
 * one `<failure>` per failed row naming each distinct failure of the row once, with how often it
 * occurred (a failure that broke several rules shows under each of their rows; a scenario's under
 * the row of the action it is about), `<skipped message>` with the reason. With `--fail-on-skip`,
 * one more testcase is the coverage gate: it fails, naming the skipped rows per reason, when any
 * was skipped, so a CI that reads only JUnit sees the gate's verdict. What made the report and its
 * counts travel as properties, once (on the first suite): the tool and its version, distinct
 * failures, rule violations and failing exchanges, coverage, skipped rows per reason group,
 * accepted changes per operation. Times are wall times (rows run side by side are not added up).
 * Every value is escaped, and characters XML 1.0 cannot carry (most control characters, lone
 * surrogates) are replaced. The output is valid under the Jenkins xUnit plugin's JUnit schema
 * (`junit-10.xsd` beside this file, checked by `junit-xsd.test.ts`), which CI tools hold JUnit
 * files to.
 */
import { count } from '../checks/values.ts';
import { alsoIn, rulesTogether } from '../failures.ts';
import type { CheckSummary, Failure, Report } from '../types.ts';
import { reportingTool } from './json.ts';

/** Text safe in XML 1.0 content and attribute values. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** Attribute values: line breaks as references too, so parsers do not fold them into spaces. */
export const attr = (text: string): string => xmlEscape(text).replace(/\n/g, '&#10;');

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The wall time of rows run side by side: from the first one's first request to the last answer of any (not their sum). */
export const wallOf = (rows: readonly CheckSummary[]): number => {
  const spans = rows.flatMap((r) => (r.wall ? [r.wall] : []));
  return spans.length ? Math.max(...spans.map((s) => s.toMs)) - Math.min(...spans.map((s) => s.fromMs)) : 0;
};

const firstLine = (text: string) => text.split('\n')[0]!;

/** A known row's message: its findings are in the baseline, the first one's title. */
export const knownMessage = (own: readonly Failure[]): string => `known finding${own.length > 1 ? 's' : ''} (in the baseline): ${firstLine(own[0]?.title ?? '')}`;

/** A failure whole, as text: what was sent and answered, the seed and the curl line (JUnit's and CTRF's trace). */
export function details(f: Failure): string {
  const lines = [
    `${f.known !== undefined ? '(known: in the baseline) ' : ''}${f.title}`,
    ...(f.rules.length > 1 ? [`rules: ${f.rules.join(', ')} (${rulesTogether(f)})`] : []),
    `probe: ${f.probe}`,
    ...(f.occurrences > 1 ? [`seen ${f.occurrences} times, the same symptom; also in: ${alsoIn(f, (f.examples ?? []).map((e) => e.probe))}`] : []),
    f.message,
    `request: ${f.request.method} ${f.request.url}`,
    ...Object.entries(f.request.headers).map(([k, v]) => `  ${k}: ${v}`),
    ...(f.request.body !== undefined ? [`  body: ${clip(f.request.body, 2000)}`] : []),
    f.response ? `response: ${f.response.status} (${f.response.ms} ms) ${clip(f.response.text, 2000)}` : `transport: ${f.transport?.message ?? 'no response'}`,
    `seed: ${f.seed}`,
    `curl: ${f.curl}`,
  ];
  return lines.join('\n');
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text);

/**
 * A failed row's `<failure>`: its first distinct failure's title with the true count of the others
 * (not only of those listed) and of their occurrences, every listed one in full, once.
 */
/** The failures of a row: those that broke its rule at its operation, the new ones before those a baseline knows (the row is named by its first). */
export const rowFailures = (list: readonly Failure[], row: CheckSummary): Failure[] => {
  const own = list.filter((f) => f.rules.includes(row.rule) && f.operation === row.operation);
  return [...own.filter((f) => f.known === undefined), ...own.filter((f) => f.known !== undefined)];
};

function failureElement(row: CheckSummary, own: readonly Failure[]): string {
  const total = Math.max(row.failures ?? 0, own.length);
  const occurrences = Math.max(row.occurrences ?? 0, own.reduce((n, f) => n + f.occurrences, 0));
  let message: string;
  let text: string;
  if (own[0]) {
    const unlisted = total - own.length;
    const seen = occurrences > total ? `, from ${count(occurrences, 'failing exchange')}` : '';
    message = `${own[0].title}${total > 1 ? ` (and ${count(total - 1, 'more distinct failure')})` : ''}${seen}`;
    text = [own.map(details).join('\n\n---\n\n'), ...(unlisted > 0 ? [`… and ${count(unlisted, 'more distinct failure')} not listed (see the report's notes)`] : [])].join('\n\n');
  } else {
    message = row.reason ?? 'failed';
    text = row.reason ?? '';
  }
  return `      <failure message="${attr(message)}" type="${attr(row.rule)}">${xmlEscape(text)}</failure>`;
}

function testcase(row: CheckSummary, own: readonly Failure[], warnings: readonly Failure[]): string {
  // No `assertions` (the exchanges judged): the Jenkins JUnit schema rejects it; the JSON report has them.
  const open = `    <testcase classname="${attr(row.rule)}" name="${attr(row.operation)}" time="${seconds(wallOf([row]))}">`;
  const body: string[] = [];
  // A row whose every failure the baseline knows is not a failure of the run: skipped, saying so.
  if (row.known) body.push(`      <skipped message="${attr(knownMessage(own))}">${xmlEscape(own.map((f) => `reason in the baseline: ${f.known}\n${details(f)}`).join('\n\n---\n\n'))}</skipped>`);
  else if (row.outcome === 'failed') body.push(failureElement(row, own));
  // The reason as the message CI tools show, and whole as content, line breaks kept.
  else if (row.outcome === 'skipped') body.push(`      <skipped message="${attr(firstLine(row.reason ?? 'skipped'))}">${xmlEscape(row.reason ?? 'skipped')}</skipped>`);
  const out = [...(row.outcome !== 'skipped' && row.reason ? [`note: ${row.reason}`] : []), ...warnings.map((w) => `warning: ${details(w)}`)];
  if (out.length) body.push(`      <system-out>${xmlEscape(out.join('\n\n'))}</system-out>`);
  return body.length ? `${open}\n${body.join('\n')}\n    </testcase>` : `${open}</testcase>`;
}

/** Accepted changes counted per operation, as the console's note counts them (the ids are in the JSON report). */
function consumedByOperation(report: Report): { operation: string; effect: string; requests: number }[] {
  const ops = new Map<string, { operation: string; effect: string; requests: number }>();
  for (const c of report.consumed) {
    const op = ops.get(c.operation);
    if (op) op.requests += c.requests;
    else ops.set(c.operation, { operation: c.operation, effect: c.effect, requests: c.requests });
  }
  return [...ops.values()];
}

/** The name of the coverage gate's testsuite and testcase (no rule id has a space). */
export const GATE = { suite: 'coverage gate', name: '--fail-on-skip: every check judged' } as const;

/**
 * With `--fail-on-skip`, the gate as a testcase of its own: failed when any row was skipped, its
 * message the count, its text the skipped rows per reason group. Undefined without the flag.
 */
function gateSuite(report: Report): { xml: string; failed: boolean } | undefined {
  if (report.options.failOnSkip !== true) return undefined;
  const skipped = report.summary.skipped;
  const open = `    <testcase classname="${attr(GATE.suite)}" name="${attr(GATE.name)}" time="0.000">`;
  const testcase = skipped
    ? [
        open,
        `      <failure message="${attr(`${skipped} of ${count(report.coverage.total, 'check')} skipped (--fail-on-skip)`)}" type="fail-on-skip">${xmlEscape(
          ['Skipped rows (rule × operation), per reason; the JSON report\'s `coverage` names each:', ...report.coverage.skipped.map((g) => `- ${g.reason} (${g.count})`)].join('\n'),
        )}</failure>`,
        '    </testcase>',
      ].join('\n')
    : `${open}</testcase>`;
  const xml = [
    `  <testsuite name="${attr(GATE.suite)}" tests="1" failures="${skipped ? 1 : 0}" errors="0" skipped="0" time="0.000" timestamp="${attr(report.startedAt.replace(/Z$/, ''))}">`,
    testcase,
    '  </testsuite>',
  ].join('\n');
  return { xml, failed: skipped > 0 };
}

export function renderJunit(report: Report): string {
  const rules = [...new Set(report.checks.map((c) => c.rule))];
  const tool = reportingTool();
  const properties = [
    ['tool', tool.name],
    ['toolVersion', tool.version],
    ['seed', String(report.seed)],
    ['target', report.target],
    ['specVersion', report.specVersion],
    ['requests', String(report.requests)],
    ['distinctFailures', String(report.summary.distinctFailures)],
    ['ruleViolations', String(report.summary.ruleViolations)],
    ['failingExchanges', String(report.summary.failingExchanges)],
    ['coverage.checked', String(report.coverage.checked)],
    ['coverage.total', String(report.coverage.total)],
    ...report.coverage.skipped.map((g) => [`skipped: ${g.reason}`, String(g.count)]),
    ...consumedByOperation(report).map((c) => [`consumed (${c.effect}): ${c.operation}`, String(c.requests)]),
    ...(report.baseline ? [['baseline', report.baseline.file], ['baseline.known', String(report.baseline.known)], ['baseline.new', String(report.baseline.new)], ...report.baseline.gone.map((g) => ['baseline: no longer occurs', g])] : []),
  ]
    .map(([name, value]) => `      <property name="${attr(name!)}" value="${attr(value!)}"/>`)
    .join('\n');
  // The run's properties once, on the first suite (the Jenkins schema has them on suites only).
  const suites = rules.map((rule, i) => {
    const rows = report.checks.filter((c) => c.rule === rule);
    const failed = rows.filter((c) => c.outcome === 'failed' && !c.known).length;
    const skipped = rows.filter((c) => c.outcome === 'skipped' || c.known).length;
    return [
      `  <testsuite name="${attr(rule)}" tests="${rows.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${seconds(wallOf(rows))}" timestamp="${attr(report.startedAt.replace(/Z$/, ''))}">`,
      ...(i === 0 ? [`    <properties>\n${properties}\n    </properties>`] : []),
      ...rows.map((c) => testcase(c, rowFailures(report.failures, c), rowFailures(report.warnings, c))),
      '  </testsuite>',
    ].join('\n');
  });
  const gate = gateSuite(report);
  const total = report.checks.length + (gate ? 1 : 0);
  const failed = report.checks.filter((c) => c.outcome === 'failed' && !c.known).length + (gate?.failed ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // No `skipped` here: the Jenkins JUnit schema has it on each testsuite only.
    `<testsuites name="hosted-site-contract conformance (spec ${attr(report.specVersion)})" tests="${total}" failures="${failed}" errors="0" time="${seconds(report.durationMs)}">`,
    ...suites,
    ...(gate ? [gate.xml] : []),
    '</testsuites>',
    '',
  ].join('\n');
}
