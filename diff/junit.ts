/**
 * The diff as JUnit XML for CI, in the Jenkins schema's shape (as the conformance reporter):
 * one testsuite, one failed testcase per breaking change (a change both client- and
 * server-breaking is one testcase naming both), reasons as element content. With no breaking
 * change, one passing testcase says so: CI tools refuse a report without any result.
 */
import { xmlEscape } from '../conformance/report/junit.ts';
import { BREAKING, type Change, type ChangeClass } from './change.ts';
import { countsLine, sidesLine, type DiffReport } from './report.ts';

const attr = (text: string): string => xmlEscape(text).replace(/\n/g, '&#10;');

function details(c: Change): string {
  return [
    c.summary,
    `classes: ${c.classes.join(', ')}`,
    `before: ${c.before ?? '(absent)'}`,
    `after: ${c.after ?? '(absent)'}`,
    ...(c.operations.length ? [`endpoints: ${c.operations.join(', ')}`] : []),
    `section: ${c.sections.before ?? '(none)'} → ${c.sections.after ?? '(none)'}`,
  ].join('\n');
}

/**
 * `failing`: the classes `--fail-on` names (default: both breaking classes). A breaking change
 * of another class is a passing testcase: listed, but not what this CI step fails on.
 */
export function renderJunit(report: DiffReport, failing: readonly ChangeClass[] = BREAKING): string {
  const breaking = report.changes.filter((c) => c.classes.some((k) => BREAKING.includes(k)));
  const fails = (c: Change) => c.classes.some((k) => failing.includes(k));
  const failures = breaking.filter((c) => fails(c) && c.ignored === undefined).length;
  const skipped = breaking.filter((c) => c.ignored !== undefined).length;
  const name = `hosted-site-contract diff ${sidesLine(report)}`;
  const cases = breaking.length
    ? breaking.map((c) => {
        const classes = c.classes.filter((k) => BREAKING.includes(k)).join(', ');
        const open = `    <testcase classname="${attr(classes)}" name="${attr(`${c.subject}: ${c.kind}`)}" time="0">`;
        const body = c.ignored !== undefined
          ? `      <skipped message="${attr(`ignored: ${c.ignored}`)}">${xmlEscape(details(c))}</skipped>`
          : fails(c)
          ? `      <failure message="${attr(c.summary)}" type="${attr(c.kind)}">${xmlEscape(details(c))}</failure>`
          : `      <system-out>${xmlEscape(`not a failure under --fail-on ${failing.join(', ')}\n${details(c)}`)}</system-out>`;
        return [open, body, '    </testcase>'].join('\n');
      })
    : [`    <testcase classname="contract" name="no client-breaking or server-breaking change" time="0"></testcase>`];
  const properties = [
    ['from', `${report.from.specVersion} (${report.from.source})`],
    ['to', `${report.to.specVersion} (${report.to.source})`],
    ['changes', countsLine(report)],
    ...(report.ignore ? [['ignore', report.ignore.file], ['ignored', String(report.ignore.ignored)], ...report.ignore.gone.map((g) => ['ignore: no longer occurs', g])] : []),
  ]
    .map(([k, v]) => `      <property name="${attr(k!)}" value="${attr(v!)}"/>`)
    .join('\n');
  const tests = Math.max(1, breaking.length);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(name)}" tests="${tests}" failures="${failures}" errors="0" time="0">`,
    `  <testsuite name="breaking changes" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="0">`,
    `    <properties>\n${properties}\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
