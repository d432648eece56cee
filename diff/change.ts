/** What the diff reports: one entry per changed fact of the contract, in one or more classes. */

/** The classes, in report order. */
export const CHANGE_CLASSES = ['client-breaking', 'server-breaking', 'deprecated', 'knowledge', 'compatible'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/** The classes that make a change breaking (junit testcases; `--fail-on any` counts them all). */
export const BREAKING: readonly ChangeClass[] = ['client-breaking', 'server-breaking'];

export interface Change {
  /** What kind of change (see classes.ts): stable, for machines. */
  readonly kind: string;
  /** Never empty; in `CHANGE_CLASSES` order. */
  readonly classes: readonly ChangeClass[];
  /**
   * The fact that changed: `METHOD /path` as the document writes it, optionally followed by where
   * in it (`request body: wp_command`, `response: environment.backups[]`); a resource and field
   * (`Backup.note`); a rule or gap id; or a document-wide fact.
   */
  readonly subject: string;
  /** The endpoints the change touches, as the document writes them; empty for document-wide facts. */
  readonly operations: readonly string[];
  /** The old and new value in words; null where the fact does not exist on that side. */
  readonly before: string | null;
  readonly after: string | null;
  /** The section of the old and of the new document the fact is cited from; null where it has none there. */
  readonly sections: { readonly before: string | null; readonly after: string | null };
  /** One sentence: what changed and, where a class needs it, why. */
  readonly summary: string;
  /** Listed in the `--ignore` file: its reason there. An ignored change fails no `--fail-on`. */
  readonly ignored?: string;
}

/** JSON with sorted keys: equality of snapshot values whatever order a file wrote them in. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
