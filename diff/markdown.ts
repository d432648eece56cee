/**
 * The diff as Markdown for a pull-request comment: a heading, one summary line, then one table
 * per class that has changes (a change in two classes is listed in both: each table answers
 * one reader). Cells are escaped so no value can end a cell, a row or a code span.
 */
import { CHANGE_CLASSES, type Change, type ChangeClass } from './change.ts';
import { countsLine, sidesLine, type DiffReport } from './report.ts';

const TITLES: Record<ChangeClass, string> = {
  'client-breaking': 'Client-breaking: existing client code may fail',
  'server-breaking': 'Server-breaking: a server that conformed may now fail the suite',
  deprecated: 'Deprecated',
  knowledge: 'Knowledge: what the document now states that it did not',
  compatible: 'Compatible',
};

/** Text safe in a table cell: no pipes, no line breaks, no HTML. */
const cell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');

/** A code span that no backtick inside can end. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')}${pad}${fence}`;
}

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
    ...changes.map((c) => `| ${where(c)} | ${cell(c.summary)} | ${value(c.before)} | ${value(c.after)} | ${section(c)} |`),
  ];
}

export function renderMarkdown(report: DiffReport): string {
  const lines = [`## Contract diff: ${cell(sidesLine(report))}`, '', `**${countsLine(report)}**`];
  for (const c of CHANGE_CLASSES) {
    const changes = report.changes.filter((x) => x.classes.includes(c));
    if (changes.length) lines.push('', `### ${TITLES[c]} (${changes.length})`, '', ...table(changes));
  }
  return `${lines.join('\n')}\n`;
}
