/**
 * The job summary of `--reporter github`: Markdown for the file GITHUB_STEP_SUMMARY names, shown
 * on the workflow run's page. The verdict line first, the distinct failures and warnings as
 * tables, the skipped checks per reason, a curl line per failure to reproduce it, and what made
 * the report. GitHub takes at most 1 MiB per step: tables and curl lines are capped, the rest
 * counted and left to `--reporter json`. Every value is escaped, so nothing a target sent can end
 * a cell, a row or a code block, or become a link, a mention or markup.
 */
import { codeSpan } from '../../diff/describe.ts';
import { count } from '../checks/values.ts';
import type { Failure, Report } from '../types.ts';
import { curlShown, finalLine, printable } from './console.ts';
import { reportingTool } from './json.ts';

/** Rows per table, and failures given a curl line: enough to act on, far below GitHub's 1 MiB. */
const ROWS_SHOWN = 50;
const CURLS_SHOWN = 10;
const TITLE_SHOWN = 300;

/** Plain text: punctuation that could start markup backslash-escaped; one line; `|` cannot end a cell. */
export const markdownText = (text: string): string => printable(text).replace(/[\\`*_[\]<>#!|~@$&]/g, '\\$&');

const code = (text: string): string => codeSpan(printable(text));
/** A code span in a table cell (GFM ends a cell at `|` even there). */
const cellCode = (text: string): string => code(text).replace(/\|/g, '\\|');

/** A fenced block no backtick run inside can close. */
function fenced(text: string, info = ''): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, text, fence];
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** `column`: what a row is (a failure, a warning). */
function failureTable(heading: string, column: string, listed: readonly Failure[], total: number): string[] {
  if (total === 0) return [];
  const rows = listed.slice(0, ROWS_SHOWN).map((f) => `| ${markdownText(f.rules.join(' + '))} | ${cellCode(f.operation)} | ${markdownText(clip(f.title, TITLE_SHOWN))} | ${f.occurrences} |`);
  const more = total - rows.length;
  return [
    `#### ${heading}`,
    '',
    `| Rules | Operation | ${column} | Seen |`,
    '|---|---|---|--:|',
    ...rows,
    ...(more > 0 ? ['', `… and ${more} more, each in full in \`--reporter json\``] : []),
    '',
  ];
}

function skippedTable(report: Report): string[] {
  const { skipped } = report.coverage;
  if (!skipped.length) return [];
  return [
    `#### Skipped: ${report.summary.skipped} of ${count(report.coverage.total, 'check')}`,
    '',
    '| Reason | Checks |',
    '|---|--:|',
    ...skipped.slice(0, ROWS_SHOWN).map((g) => `| ${markdownText(g.reason)} | ${g.count} |`),
    ...(skipped.length > ROWS_SHOWN ? ['', `… and ${skipped.length - ROWS_SHOWN} more reasons, in \`coverage\` of \`--reporter json\``] : []),
    '',
  ];
}

function reproduce(failures: readonly Failure[]): string[] {
  if (!failures.length) return [];
  const shown = failures.slice(0, CURLS_SHOWN);
  return [
    `<details><summary>Reproduce ${shown.length < failures.length ? `${shown.length} of the ${failures.length} listed failures` : `the ${count(failures.length, 'failure')}`} (keys from the variables HSC_API_KEY, HSC_OTHER_API_KEY)</summary>`,
    '',
    ...shown.flatMap((f) => [`${markdownText(f.rules.join(' + '))} ${code(f.operation)}: ${markdownText(clip(f.title, TITLE_SHOWN))}`, '', ...fenced(curlShown(f.curl), 'sh'), '']),
    '</details>',
    '',
  ];
}

export function renderJobSummary(report: Report): string {
  const s = report.summary;
  const tool = reportingTool();
  return [
    `### ${markdownText(tool.name)} conform: ${code(report.target)}`,
    '',
    markdownText(finalLine(report)),
    '',
    ...failureTable('Failures', 'Failure', report.failures.filter((f) => f.known === undefined), Math.max(s.distinctFailures - (report.baseline?.known ?? 0), 0)),
    ...failureTable('Known (in the baseline)', 'Known finding', report.failures.filter((f) => f.known !== undefined), report.baseline?.known ?? 0),
    ...(report.baseline?.gone.length ? ['#### Fixed (baseline entries no longer met)', '', ...report.baseline.gone.map((g) => `- ${code(g)}`), ''] : []),
    ...failureTable('Warnings', 'Warning', report.warnings, Math.max(s.warnings, report.warnings.length)),
    ...skippedTable(report),
    ...reproduce(report.failures.filter((f) => f.known === undefined)),
    `<sub>${markdownText(`${tool.name} ${tool.version}, spec ${report.specVersion}, seed ${report.seed} (--seed ${report.seed} repeats the run)`)}</sub>`,
    '',
  ].join('\n');
}
