/**
 * Changes of fields and their types at one place of the contract (a resource, or an endpoint's
 * path, query, request body or response), classified by the way the place's values travel.
 */
import type { ContractField, ContractType } from '../spec/contract.ts';
import { CHANGE_CLASSES, same, type Change, type ChangeClass } from './change.ts';
import { fieldClasses, fixedClasses, type Direction, type FieldKind } from './classes.ts';
import { codeSpan, describeLimits, describeType } from './describe.ts';

/** Where fields sit: how to name one, which ways its values travel, what it touches. */
export interface FieldSite {
  /** The subject for a field path, e.g. `Backup.note` or `POST /x request body: wp_command`. */
  readonly subject: (path: string) => string;
  readonly directions: readonly Direction[];
  readonly operations: readonly string[];
  readonly sections: Change['sections'];
}

export const classesFor = (kind: FieldKind, directions: readonly Direction[]): ChangeClass[] => {
  const found = new Set<ChangeClass>(directions.flatMap((d) => fieldClasses[kind][d]));
  return CHANGE_CLASSES.filter((c) => found.has(c));
};

const entry = (kind: string, classes: readonly ChangeClass[], site: FieldSite, path: string, before: string | null, after: string | null, summary: string): Change => ({
  kind,
  classes,
  subject: site.subject(path),
  operations: site.operations,
  before,
  after,
  sections: site.sections,
  summary,
});

const change = (kind: FieldKind, site: FieldSite, path: string, before: string | null, after: string | null, summary: string): Change =>
  entry(kind, classesFor(kind, site.directions), site, path, before, after, summary);

/** A field a conformant message must carry: a documented response field, a required request field. */
const mustCarry = (f: Pick<ContractField, 'presence'>): boolean => f.presence === 'documented' || f.presence === 'required';

const join = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

export function diffFields(before: readonly ContractField[], after: readonly ContractField[], site: FieldSite, prefix = ''): Change[] {
  const beforeByName = new Map(before.map((f) => [f.name, f]));
  const afterByName = new Map(after.map((f) => [f.name, f]));
  const removed = before.filter((f) => !afterByName.has(f.name));
  const added = after.filter((f) => !beforeByName.has(f.name));
  const changes: Change[] = [];
  const [gone] = removed;
  const [come] = added;
  // One field out and one of the same type and presence in: the same field under a new name.
  if (removed.length === 1 && added.length === 1 && gone && come && same(gone.type, come.type) && gone.presence === come.presence) {
    const kind = gone.type.kind === 'object' ? 'container-moved' : 'field-renamed';
    const what = kind === 'container-moved' ? 'container' : 'field';
    changes.push(change(kind, site, join(prefix, gone.name), join(prefix, gone.name), join(prefix, come.name), `${what} renamed ${codeSpan(come.name)}`));
  } else {
    for (const f of removed) changes.push(change('field-removed', site, join(prefix, f.name), describeType(f.type), null, 'field removed'));
    for (const f of added) {
      const kind = mustCarry(f) ? 'field-added' : 'optional-field-added';
      changes.push(change(kind, site, join(prefix, f.name), null, describeType(f.type), `new ${mustCarry(f) ? 'required' : 'optional'} field (${f.presence})`));
    }
  }
  for (const f of before) {
    const next = afterByName.get(f.name);
    if (next) changes.push(...diffField(f, next, site, join(prefix, f.name)));
  }
  return changes;
}

/** Presences the document's letter states (a marking), as opposed to leaves open (`not-shown`) or we read (`documented`). */
const isStated = (f: Pick<ContractField, 'presence'>): boolean => f.presence === 'required' || f.presence === 'may-be-absent';

/** A presence transition by what it is: a field that must now (or no longer) be carried, or a marking the document now states (or no longer). */
function presenceChange(before: ContractField, after: ContractField): [FieldKind, string] {
  if (mustCarry(after) && !mustCarry(before)) return ['now-required', 'now required'];
  if (mustCarry(before) && !mustCarry(after)) {
    const summary = before.presence === 'required' ? 'no longer required' : after.presence === 'may-be-absent' ? 'may now be absent' : 'no longer stated present';
    return ['no-longer-required', summary];
  }
  return isStated(after) ? ['presence-stated', `the document now states it ${after.presence}`] : ['presence-unstated', `the document no longer states it ${before.presence}`];
}

const MARKS = ['secret', 'refersTo', 'freeText'] as const;

function diffField(before: ContractField, after: ContractField, site: FieldSite, path: string): Change[] {
  const changes: Change[] = [];
  if (before.presence !== after.presence) {
    const [kind, summary] = presenceChange(before, after);
    changes.push(change(kind, site, path, before.presence, after.presence, summary));
  }
  const marks = MARKS.filter((m) => before[m] !== after[m]);
  if (marks.length) {
    const shown = (f: ContractField) => MARKS.filter((m) => f[m] !== undefined).map((m) => `${m}: ${String(f[m])}`).join(', ') || 'none';
    changes.push(entry('field-marked', fixedClasses['field-marked'], site, path, shown(before), shown(after), `the model's reading changed (${marks.join(', ')})`));
  }
  changes.push(...diffType(before.type, after.type, site, path));
  return changes;
}

export function diffType(before: ContractType, after: ContractType, site: FieldSite, path: string): Change[] {
  const typeChanged = () => [change('type-changed', site, path, describeType(before), describeType(after), 'type changed')];
  if (before.kind !== after.kind) return typeChanged();
  switch (before.kind) {
    case 'ref':
      return before.resource === (after as typeof before).resource ? [] : typeChanged();
    case 'array':
      return diffType(before.items, (after as typeof before).items, site, `${path}[]`);
    case 'object':
      return diffFields(before.fields, (after as typeof before).fields, site, path);
    case 'number': {
      const next = after as typeof before;
      if (before.meaning === next.meaning) return [];
      const kind = next.meaning ? 'format-changed' : 'format-dropped';
      return [change(kind, site, path, before.meaning ?? 'none', next.meaning ?? 'none', `number meaning ${next.meaning ? (before.meaning ? 'changed' : 'now stated') : 'no longer stated'}`)];
    }
    case 'string':
      return diffString(before, after as typeof before, site, path);
    default:
      return [];
  }
}

type StringType = Extract<ContractType, { kind: 'string' }>;

function diffString(before: StringType, after: StringType, site: FieldSite, path: string): Change[] {
  const changes: Change[] = [];
  if (before.format !== after.format) {
    const kind = after.format ? 'format-changed' : 'format-dropped';
    changes.push(change(kind, site, path, before.format ?? 'none', after.format ?? 'none', `format ${after.format ? (before.format ? 'changed' : 'added') : 'dropped'}`));
  }
  const limits = limitChange(before, after);
  if (limits) changes.push(change(limits, site, path, describeLimits(before), describeLimits(after), `limit ${limits.replace('limit-', '')}`));
  changes.push(...valueSetChanges(before, after, site, path));
  return changes;
}

/** How the stated length and pattern moved together: tighter, looser, or neither (changed). */
function limitChange(before: StringType, after: StringType): FieldKind | undefined {
  const moves: ('tighter' | 'looser' | 'changed')[] = [];
  if (before.maxLength !== after.maxLength) {
    const tighter = after.maxLength !== undefined && (before.maxLength === undefined || after.maxLength < before.maxLength);
    moves.push(tighter ? 'tighter' : 'looser');
  }
  if (before.pattern !== after.pattern) moves.push(before.pattern === undefined ? 'tighter' : after.pattern === undefined ? 'looser' : 'changed');
  if (moves.length === 0) return undefined;
  if (moves.every((m) => m === 'tighter')) return 'limit-tightened';
  if (moves.every((m) => m === 'looser')) return 'limit-loosened';
  return 'limit-changed';
}

/** The values a string may take as the snapshot states them: a closed set (partly shown) or an open one. */
interface Values {
  readonly closed: boolean;
  readonly values: readonly string[];
  readonly size?: number;
}

const valuesOf = (type: StringType): Values =>
  type.enum ? { closed: true, values: type.enum.shown, size: type.enum.size } : { closed: false, values: type.open?.occurs ?? [] };

const codes = (values: readonly string[]) => values.map(codeSpan).join(', ');

const describeValues = (v: Values): string =>
  v.closed ? `one of ${v.size} (shown: ${v.values.join(', ')})` : v.values.length ? `any string; values that occur: ${v.values.join(', ')}` : 'any string';

function valueSetChanges(before: StringType, after: StringType, site: FieldSite, path: string): Change[] {
  const [was, now] = [valuesOf(before), valuesOf(after)];
  const added = now.values.filter((v) => !was.values.includes(v));
  const removed = was.values.filter((v) => !now.values.includes(v));
  let kind: FieldKind | undefined;
  let summary = '';
  if (was.closed !== now.closed) {
    kind = now.closed ? 'value-set-closed' : 'value-set-opened';
    summary = `value set ${now.closed ? 'closed' : 'opened'}`;
  } else if (added.length && removed.length) {
    kind = 'value-set-changed';
    summary = 'value set changed';
  } else if (was.size !== now.size && !(now.size! > was.size! ? removed.length : added.length)) {
    kind = now.size! > was.size! ? 'value-set-grown' : 'value-set-shrunk';
    summary = `value set ${now.size! > was.size! ? 'grown' : 'shrunk'} from ${was.size} to ${now.size}${added.length ? ` (${codes(added)} now shown)` : ''}${removed.length ? ` (${codes(removed)} no longer shown)` : ''}`;
  } else if (was.size !== now.size) {
    kind = 'value-set-changed';
    summary = 'value set changed';
  } else if (added.length) {
    kind = 'values-added';
    const whole = now.closed && now.values.length === now.size ? `; all ${now.size} now shown` : '';
    summary = `${added.length} more value${added.length === 1 ? '' : 's'} shown (${codes(added)})${whole}`;
  } else if (removed.length) {
    kind = 'values-removed';
    summary = `${removed.length} value${removed.length === 1 ? '' : 's'} no longer shown (${codes(removed)})`;
  }
  if (!kind) return [];
  const found = change(kind, site, path, describeValues(was), describeValues(now), summary);
  // Values newly shown, or withdrawn, as the set grows or shrinks: also what the document now states.
  if ((kind === 'value-set-grown' || kind === 'value-set-shrunk') && (added.length || removed.length)) {
    return [{ ...found, classes: CHANGE_CLASSES.filter((c) => c === 'knowledge' || found.classes.includes(c)) }];
  }
  return [found];
}
