/**
 * Markdown cells: values inside code spans render as written (no HTML entity, no backtick ending
 * the span early); `|` never ends a cell; `<` outside a span never opens HTML.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { contractOf } from '../spec/contract.ts';
import type { Api } from '../spec/model.ts';
import { diffContracts } from './engine.ts';
import { renderMarkdown } from './markdown.ts';
import { reportOf } from './report.ts';

const VALUE = 'a`b|<kind>';

/** Code spans of a Markdown line per CommonMark: a run of n backticks up to the next run of exactly n. */
function codeSpans(line: string): string[] {
  const spans: string[] = [];
  const re = /`+/g;
  let open: RegExpExecArray | null;
  while ((open = re.exec(line))) {
    const n = open[0].length;
    const close = new RegExp(`(?<!\`)\`{${n}}(?!\`)`, 'g');
    close.lastIndex = re.lastIndex;
    const end = close.exec(line);
    if (!end) continue;
    spans.push(line.slice(re.lastIndex, end.index).replace(/^ (.*) $/, '$1'));
    re.lastIndex = end.index + n;
  }
  return spans;
}

describe('renderMarkdown', () => {
  it('renders a value with backticks, | and < inside code spans as written (| escaped for the table)', () => {
    const model = JSON.parse(JSON.stringify(api)) as any;
    const e = model.endpoints.find((x: any) => (x.body ?? []).some((f: any) => f.type.kind === 'string' && f.type.enum));
    const f = e.body.find((x: any) => x.type.kind === 'string' && x.type.enum);
    f.type.enum.shown.push(VALUE);
    f.type.enum.size += 1;
    const changes = diffContracts(contractOf(api), contractOf(model as Api));
    const md = renderMarkdown(reportOf({ source: 'a', specVersion: '1' }, { source: 'b', specVersion: '2' }, changes));
    const row = md.split('\n').find((l) => l.includes('b\\|'))!;
    expect(row, md).toBeDefined();
    expect(row).not.toContain('&lt;');
    const [, , summary] = row.split(/(?<!\\)\|/).map((c) => c.trim());
    expect(codeSpans(summary!)).toContain('a`b\\|<kind>');
  });

  it('escapes < outside code spans', () => {
    const md = renderMarkdown(reportOf({ source: '<x>', specVersion: '1' }, { source: 'b', specVersion: '2' }, []));
    expect(md).toContain('&lt;x>');
  });
});
