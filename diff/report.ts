/** The diff as one value: both sides, the counts per class, the changes. What every format renders. */
import { CHANGE_CLASSES, type Change, type ChangeClass } from './change.ts';
import { countByClass } from './engine.ts';

export const DIFF_FORMAT = 'hosted-site-contract/contract-diff@1';

export interface Side {
  /** The ref, the file as given, or `working tree`. */
  readonly source: string;
  readonly specVersion: string;
}

export interface DiffReport {
  readonly format: typeof DIFF_FORMAT;
  readonly from: Side;
  readonly to: Side;
  /** Changes in all, and per class (a change in two classes counts in both). */
  readonly counts: { readonly total: number } & Readonly<Record<ChangeClass, number>>;
  readonly changes: readonly Change[];
  /** With `--ignore`: the file, how many changes it ignored, and its lines that match no change any more. */
  readonly ignore?: { readonly file: string; readonly ignored: number; readonly gone: readonly string[] };
}

export const reportOf = (from: Side, to: Side, changes: readonly Change[]): DiffReport => ({
  format: DIFF_FORMAT,
  from,
  to,
  counts: { total: changes.length, ...countByClass(changes) },
  changes,
});

/**
 * `3 changes: 1 client-breaking, 2 server-breaking` (classes with none left out). A change in
 * several classes is a row of each class's table: the line then counts the rows the tables list
 * first, so its figures add up to what a reader counts below it.
 */
export function countsLine(report: DiffReport): string {
  const { total } = report.counts;
  if (total === 0) return 'no contract changes';
  const parts = CHANGE_CLASSES.filter((c) => report.counts[c] > 0).map((c) => `${report.counts[c]} ${c}`);
  const rows = CHANGE_CLASSES.reduce((sum, c) => sum + report.counts[c], 0);
  if (rows > total) return `${rows} rows: ${parts.join(', ')}, for ${total} distinct changes (a change is a row of each class it is in)`;
  return `${total} change${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** `1.106.0 (HEAD~1) → 1.107.0 (working tree)`. */
export const sidesLine = (report: DiffReport): string =>
  `${report.from.specVersion} (${report.from.source}) → ${report.to.specVersion} (${report.to.source})`;
