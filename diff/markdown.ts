/**
 * The diff as Markdown for a pull-request comment: a heading, one summary line, then one table
 * per class that has changes (a change in two classes is listed in both: each table answers
 * one reader). Cells are escaped so no value can end a cell, a row or a code span.
 */
import { CHANGE_CLASSES, type Change, type ChangeClass } from './change.ts';
import { countsLine, sidesLine, type DiffReport } from './report.ts';
import { codeSpan } from './describe.ts';

const TITLES: Record<ChangeClass, string> = {
  'client-breaking': 'Client-breaking: existing client code may fail',
  'server-breaking': 'Server-breaking: a server that conformed may now fail the suite',
  deprecated: 'Deprecated',
  knowledge: 'Knowledge: what the document now states that it did not, and the readings made where it is silent',
  compatible: 'Compatible',
};

/** Inside a table cell `|` ends the cell even in a code span (GFM): escaped everywhere; a line break would end the row. */
const inCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/**
 * Text safe in a table cell, its code spans kept (summaries hold them): outside a span, no HTML
 * and no backslash escape of ours undone; inside, the text as written (CommonMark shows a span's
 * content literally, so an entity there would show as `&lt;`). A span is a run of n backticks up
 * to the next run of exactly n; a run without its match is literal.
 */
function cell(text: string): string {
  const plain = (t: string) => inCell(t.replace(/\\/g, '\\\\').replace(/</g, '&lt;'));
  let out = '';
  let at = 0;
  for (const run of text.matchAll(/`+/g)) {
    if (run.index < at) continue;
    const n = run[0].length;
    const close = [...text.slice(run.index + n).matchAll(/`+/g)].find((r) => r[0].length === n);
    if (!close) continue;
    const end = run.index + n + close.index;
    out += plain(text.slice(at, run.index)) + inCell(text.slice(run.index, end + n));
    at = end + n;
  }
  return out + plain(text.slice(at));
}

/** A code span that no backtick inside can end. */
const code = (text: string): string => inCell(codeSpan(text));

const value = (text: string | null): string => (text === null ? '—' : code(text));

function where(change: Change): string {
  const others = change.operations.filter((o) => !change.subject.startsWith(o));
  return [code(change.subject), ...(others.length ? [`via ${others.map(code).join(', ')}`] : [])].join('<br>');
}

function section(change: Change): string {
  const { before, after } = change.sections;
  if (before === after) return cell(before ?? '—');
  return `${cell(before ?? '—')} → ${cell(after ?? '—')}`;
}

function table(changes: readonly Change[]): string[] {
  return [
    '| Where | Change | Before | After | Section (old → new) |',
    '|---|---|---|---|---|',
    ...changes.map((c) => `| ${where(c)} | ${cell(`${c.ignored !== undefined ? `(ignored: ${c.ignored}) ` : ''}${c.summary}`)} | ${value(c.before)} | ${value(c.after)} | ${section(c)} |`),
  ];
}

export function renderMarkdown(report: DiffReport): string {
  const lines = [`## Contract diff: ${cell(sidesLine(report))}`, '', `**${countsLine(report)}**`];
  for (const c of CHANGE_CLASSES) {
    const changes = report.changes.filter((x) => x.classes.includes(c));
    if (changes.length) lines.push('', `### ${TITLES[c]} (${changes.length})`, '', ...table(changes));
  }
  if (report.ignore) {
    const { file, ignored, gone } = report.ignore;
    lines.push('', `${ignored} change${ignored === 1 ? '' : 's'} ignored (${cell(file)}); they fail no --fail-on.`);
    if (gone.length) lines.push('', `Lines of ${cell(file)} that match no change any more (remove them):`, '', ...gone.map((g) => `- \`${g}\``));
  }
  return `${lines.join('\n')}\n`;
}
