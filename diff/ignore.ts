/**
 * Changes accepted on purpose, as oasdiff's ignore file has them: `diff --ignore FILE` leaves the
 * listed changes out of `--fail-on`, shows them as ignored (never hidden), and names the lines
 * that match no change any more, so the file shrinks. One change per line, `KIND SUBJECT` as the
 * reports show them, then optionally `# why`; blank lines and lines starting with `#` are
 * comments. `--write-ignore FILE` writes the breaking changes found, each with its summary.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../bin/command.ts';
import { didYouMean } from '../bin/did-you-mean.ts';
import { changeKinds } from './classes.ts';
import { BREAKING, type Change } from './change.ts';
import type { DiffReport } from './report.ts';

export interface IgnoreEntry {
  readonly fingerprint: string;
  readonly reason: string;
  /** Its line in the file. */
  readonly line: number;
}

export interface IgnoreList {
  readonly file: string;
  readonly entries: readonly IgnoreEntry[];
}

/** A change as one line of an ignore file: `KIND SUBJECT`, white space as one space (as a line is read). */
export const changeFingerprint = (c: Pick<Change, 'kind' | 'subject'>): string => `${c.kind} ${c.subject}`.replace(/\s+/g, ' ');

export function readIgnore(file: string, cwdFile: string = file): IgnoreList {
  let text: string;
  try {
    text = readFileSync(cwdFile, 'utf8');
  } catch (error) {
    throw new UsageError(`--ignore: cannot read ${file} (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
  const entries = text.split(/\r?\n/).flatMap((raw, i): IgnoreEntry[] => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    const hash = line.indexOf(' #');
    const fingerprint = (hash < 0 ? line : line.slice(0, hash)).trim().replace(/\s+/g, ' ');
    if (!/^[a-z][a-z0-9-]* \S/.test(fingerprint)) throw new UsageError(`--ignore: ${file}:${i + 1} is not KIND SUBJECT (a change as the reports show it, e.g. from --write-ignore)`);
    // A mistyped kind would match nothing, ever: said now, not as a line that "no longer occurs".
    const kind = fingerprint.slice(0, fingerprint.indexOf(' '));
    if (!changeKinds.includes(kind)) throw new UsageError(`--ignore: ${file}:${i + 1}: '${kind}' is no kind of change${didYouMean(kind, changeKinds)}`);
    return [{ fingerprint, reason: hash < 0 ? '' : line.slice(hash + 2).trim(), line: i + 1 }];
  });
  return { file, entries };
}

/** The report with the listed changes marked ignored, and what the list did. */
export function applyIgnore(report: DiffReport, list: IgnoreList): DiffReport {
  const byPrint = new Map(list.entries.map((e) => [e.fingerprint, e]));
  const changes = report.changes.map((c) => {
    const entry = byPrint.get(changeFingerprint(c));
    return entry ? { ...c, ignored: entry.reason || 'in the ignore file' } : c;
  });
  const met = new Set(report.changes.map((c) => changeFingerprint(c)));
  return {
    ...report,
    changes,
    ignore: { file: list.file, ignored: changes.filter((c) => c.ignored !== undefined).length, gone: list.entries.filter((e) => !met.has(e.fingerprint)).map((e) => e.fingerprint) },
  };
}

/** The ignore file of a report's breaking changes, each with its summary as the reason. */
export function ignoreFileOf(report: DiffReport): string {
  const breaking = report.changes.filter((c) => c.classes.some((k) => BREAKING.includes(k)));
  return [
    `# Changes accepted on purpose (hosted-site-contract diff --ignore): one per line, KIND SUBJECT # why`,
    `# written for ${report.from.specVersion} (${report.from.source}) → ${report.to.specVersion} (${report.to.source})`,
    ...breaking.map((c) => `${changeFingerprint(c)}  # ${c.ignored ?? c.summary.replace(/\s+/g, ' ')}`),
    '',
  ].join('\n');
}
