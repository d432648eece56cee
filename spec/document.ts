/**
 * Reads the API document's Markdown: sections by heading path and the rows of their tables.
 * Used by the model's tests to walk the document against the model.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The copy of the document the model is written against. */
export const documentPath = fileURLToPath(new URL('./document/hosted-site-api.md', import.meta.url));

export interface Section {
  /** Headings below the title, joined by ` > `, as the model's `Cite.section`. */
  readonly path: string;
  readonly body: string;
}

export function readSections(text: string = readFileSync(documentPath, 'utf8')): readonly Section[] {
  const sections: { path: string; lines: string[] }[] = [];
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const depth = heading[1]!.length;
      stack.length = Math.max(0, depth - 2);
      // The level-1 title stands alone; level 2 starts a path.
      if (depth === 1) sections.push({ path: heading[2]!, lines: [] });
      else {
        stack.push(heading[2]!);
        sections.push({ path: stack.join(' > '), lines: [] });
      }
      continue;
    }
    sections.at(-1)?.lines.push(line);
  }
  return sections.map((s) => ({ path: s.path, body: s.lines.join('\n') }));
}

/** Data rows of the Markdown tables in a section body, cells trimmed; header and rule rows dropped. */
export function tableRows(body: string): readonly (readonly string[])[] {
  const rows: string[][] = [];
  let inTable = false;
  for (const line of body.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
    if (!inTable) {
      inTable = true; // header row
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    rows.push(cells);
  }
  return rows;
}

/** Backticked spans of a text, in order. */
export const codeSpans = (text: string): readonly string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
