/**
 * Changes of fields and their types at one place of the contract (a resource, or an endpoint's
 * path, query, request body or response), classified by the way the place's values travel.
 *
 * A field that left one path of a place and arrived at another is one change, not a removal and
 * an addition. The pairing is made only where it is unambiguous, in this order:
 *
 * 1. **Renamed**: under one parent, a field gone and a field come that are the same in all but
 *    the name (type, presence, markings), each the only one of that sameness among the fields gone
 *    and among the fields come there. Two renames at once pair this way when the two differ.
 * 2. **Moved**: anywhere in the place, a container (an object or an array) gone from one parent
 *    and the same container come under another, each the only one of that sameness among all
 *    containers gone and come in the place (nested ones included), at the same number of array
 *    levels (out of or into an array is another shape, not a move). Leaves do not move this way:
 *    a `string` found elsewhere is weak evidence; a container's whole subtree is strong. A wrapper
 *    gone or come whose every field is moved (an object wrapped one level deeper, or unwrapped) is
 *    part of the move, not a change of its own.
 * 3. **Renamed and changed**: under one parent, the one field gone and the one come that are left
 *    after 1 and 2, of the same presence and with related names (one holds the other, or they share
 *    a word of three letters or more): a rename, then the changes of its type at the new path.
 *    Unrelated names stay a removal and an addition: a field dropped while another is introduced.
 *
 * Anything else (two fields of the same sameness renamed under one parent) is ambiguous and stays
 * removals and additions.
 */
import type { ContractField, ContractType } from '../spec/contract.ts';
import { canonical, CHANGE_CLASSES, type Change, type ChangeClass } from './change.ts';
import { fieldClasses, fixedClasses, type Direction, type FieldKind } from './classes.ts';
import { codeSpan, describeLimits, describeType } from './describe.ts';

/** Where each side's rules are cited, by rule id: a stated limit's rows cite its LIMIT-* rule. */
export interface RuleSections {
  readonly before: ReadonlyMap<string, string>;
  readonly after: ReadonlyMap<string, string>;
}

/** Where fields sit: how to name one, which ways its values travel, what it touches. */
export interface FieldSite {
  /** The subject for a field path, e.g. `Backup.note` or `POST /x request body: wp_command`. */
  readonly subject: (path: string) => string;
  readonly directions: readonly Direction[];
  readonly operations: readonly string[];
  readonly sections: Change['sections'];
  readonly rules: RuleSections;
}

export const classesFor = (kind: FieldKind, directions: readonly Direction[]): ChangeClass[] => {
  const found = new Set<ChangeClass>(directions.flatMap((d) => fieldClasses[kind][d]));
  return CHANGE_CLASSES.filter((c) => found.has(c));
};

const entry = (kind: string, classes: readonly ChangeClass[], site: FieldSite, path: string, before: string | null, after: string | null, summary: string, sections = site.sections): Change => ({
  kind,
  classes,
  subject: site.subject(path),
  operations: site.operations,
  before,
  after,
  sections,
  summary,
});

const change = (kind: FieldKind, site: FieldSite, path: string, before: string | null, after: string | null, summary: string, sections = site.sections): Change =>
  entry(kind, classesFor(kind, site.directions), site, path, before, after, summary, sections);

/** A field a conformant message must carry: a documented response field, a required request field. */
const mustCarry = (f: Pick<ContractField, 'presence'>): boolean => f.presence === 'documented' || f.presence === 'required';

const join = (prefix: string, name: string) => (prefix ? `${prefix}.${name}` : name);

const isContainer = (type: ContractType): boolean => type.kind === 'object' || type.kind === 'array';

/** A field as it is, but for its name: two fields with the same key are the same field renamed or moved. */
const sameness = (f: ContractField): string => canonical({ ...f, name: undefined });

// ---- The walk: changes in order, with the fields gone and come left loose until the place is seen whole

/** A field only one side has, where the walk found it. */
interface Loose {
  readonly side: 'gone' | 'come';
  readonly field: ContractField;
  readonly path: string;
  readonly parent: string;
  /** How many array levels hold it. */
  readonly arrays: number;
}

type Step = Change | Loose;
const isLoose = (step: Step): step is Loose => 'side' in step;

interface Walk {
  readonly site: FieldSite;
  readonly steps: Step[];
}

/** The changes between two field lists, a place of their own. */
export function diffFields(before: readonly ContractField[], after: readonly ContractField[], site: FieldSite): Change[] {
  const walk: Walk = { site, steps: [] };
  walkFields(before, after, walk, '', 0);
  return resolve(walk);
}

/** The changes between two types, a place of its own (an endpoint's response); `path` names the root. */
export function diffType(before: ContractType, after: ContractType, site: FieldSite, path: string): Change[] {
  const walk: Walk = { site, steps: [] };
  walkType(before, after, walk, path, 0);
  return resolve(walk);
}

function walkFields(before: readonly ContractField[], after: readonly ContractField[], walk: Walk, prefix: string, arrays: number): void {
  const beforeNames = new Set(before.map((f) => f.name));
  const afterByName = new Map(after.map((f) => [f.name, f]));
  const gone = before.filter((f) => !afterByName.has(f.name));
  const come = after.filter((f) => !beforeNames.has(f.name));
  const renamed = uniquePairs(gone, come, sameness);
  for (const [was, now] of renamed) walk.steps.push(renameEntry(walk.site, join(prefix, was.name), join(prefix, now.name), now.type));
  const paired = new Set(renamed.flat());
  for (const f of gone.filter((x) => !paired.has(x))) walk.steps.push({ side: 'gone', field: f, path: join(prefix, f.name), parent: prefix, arrays });
  for (const f of come.filter((x) => !paired.has(x))) walk.steps.push({ side: 'come', field: f, path: join(prefix, f.name), parent: prefix, arrays });
  for (const f of before) {
    const next = afterByName.get(f.name);
    if (next) walkField(f, next, walk, join(prefix, f.name), arrays);
  }
}

/** Pairs of a gone and a come item with the same key, each the only one of its key on its side. */
function uniquePairs<T>(gone: readonly T[], come: readonly T[], keyOf: (item: T) => string): [T, T][] {
  const count = (items: readonly T[]) => {
    const found = new Map<string, T[]>();
    for (const item of items) found.set(keyOf(item), [...(found.get(keyOf(item)) ?? []), item]);
    return found;
  };
  const [was, now] = [count(gone), count(come)];
  return [...was].flatMap(([key, items]) => (items.length === 1 && now.get(key)?.length === 1 ? [[items[0]!, now.get(key)![0]!] as [T, T]] : []));
}

function renameEntry(site: FieldSite, from: string, to: string, type: ContractType): Change {
  const kind = isContainer(type) ? 'container-moved' : 'field-renamed';
  // Inferred from shapes alone (a field may have been dropped while an unrelated one of the same shape came): said so.
  const summary = isContainer(type) ? `container moved to ${codeSpan(to)} (inferred)` : `field renamed ${codeSpan(to.slice(to.lastIndexOf('.') + 1))} (inferred)`;
  return change(kind, site, from, from, to, summary);
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

const MARKS = ['secret', 'refersTo', 'identifies', 'describes', 'freeText'] as const;

function walkField(before: ContractField, after: ContractField, walk: Walk, path: string, arrays: number): void {
  const { site } = walk;
  if (before.presence !== after.presence) {
    const [kind, summary] = presenceChange(before, after);
    walk.steps.push(change(kind, site, path, before.presence, after.presence, summary));
  }
  const marks = MARKS.filter((m) => before[m] !== after[m]);
  if (marks.length) {
    const shown = (f: ContractField) => MARKS.filter((m) => f[m] !== undefined).map((m) => `${m}: ${String(f[m])}`).join(', ') || 'none';
    walk.steps.push(entry('field-marked', fixedClasses['field-marked'], site, path, shown(before), shown(after), `the model's reading changed (${marks.join(', ')})`));
  }
  walkType(before.type, after.type, walk, path, arrays);
}

function walkType(before: ContractType, after: ContractType, walk: Walk, path: string, arrays: number): void {
  const { site } = walk;
  if (before.kind !== after.kind) {
    walk.steps.push(change('type-changed', site, path, describeType(before), describeType(after), 'type changed'));
    return;
  }
  switch (before.kind) {
    case 'ref':
      if (before.resource !== (after as typeof before).resource) walk.steps.push(change('type-changed', site, path, describeType(before), describeType(after), 'type changed'));
      return;
    case 'array':
      return walkType(before.items, (after as typeof before).items, walk, `${path}[]`, arrays + 1);
    case 'object':
      return walkFields(before.fields, (after as typeof before).fields, walk, path, arrays);
    case 'number': {
      const next = after as typeof before;
      if (before.meaning === next.meaning) return;
      const kind = next.meaning ? 'format-changed' : 'format-dropped';
      walk.steps.push(change(kind, site, path, before.meaning ?? 'none', next.meaning ?? 'none', `number meaning ${next.meaning ? (before.meaning ? 'changed' : 'now stated') : 'no longer stated'}`));
      return;
    }
    case 'string':
      walk.steps.push(...diffString(before, after as typeof before, site, path));
      return;
    default:
      return;
  }
}

// ---- Seeing the place whole: moves, renames with changes, then what is left gone or come

/** A field gone or come, or one inside it, with the loose field that holds it. */
interface Candidate {
  readonly loose: Loose;
  readonly field: ContractField;
  readonly path: string;
  readonly parent: string;
  readonly arrays: number;
  readonly depth: number;
}

/** The loose field and every field inside it, outermost first. */
function candidatesOf(loose: Loose): Candidate[] {
  const found: Candidate[] = [];
  const visit = (field: ContractField, path: string, parent: string, arrays: number, depth: number) => {
    found.push({ loose, field, path, parent, arrays, depth });
    const inner = (type: ContractType, at: string, levels: number) => {
      if (type.kind === 'array') inner(type.items, `${at}[]`, levels + 1);
      if (type.kind === 'object') for (const f of type.fields) visit(f, join(at, f.name), at, levels, depth + 1);
    };
    inner(field.type, path, arrays);
  };
  visit(loose.field, loose.path, loose.parent, loose.arrays, 0);
  return found;
}

/** Whether `path` is `outer` or lies inside it. */
const within = (path: string, outer: string): boolean => path === outer || path.startsWith(`${outer}.`) || path.startsWith(`${outer}[]`);

const wordsOf = (name: string): string[] =>
  name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 3);

/** Names a rename may join: one holds the other, or they share a word of three letters or more. */
function related(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x.includes(y) || y.includes(x)) return true;
  const words = new Set(wordsOf(a));
  return wordsOf(b).some((w) => words.has(w));
}

function resolve(walk: Walk): Change[] {
  const { site } = walk;
  const loose = walk.steps.filter(isLoose);
  if (loose.length === 0) return walk.steps as Change[];

  // 2. Moves: containers, each the only one of its sameness gone and come in the place.
  const candidates = loose.flatMap(candidatesOf).filter((c) => isContainer(c.field.type));
  const moves: [Candidate, Candidate][] = [];
  const taken: Candidate[] = [];
  const inTaken = (c: Candidate) => taken.some((t) => t.loose.side === c.loose.side && within(c.path, t.path));
  const byDepth = (side: Loose['side']) => candidates.filter((c) => c.loose.side === side).sort((a, b) => a.depth - b.depth);
  for (const [was, now] of uniquePairs(byDepth('gone'), byDepth('come'), (c) => sameness(c.field))) {
    if (was.parent === now.parent || was.arrays !== now.arrays || inTaken(was) || inTaken(now)) continue;
    moves.push([was, now]);
    taken.push(was, now);
  }
  const moved = (side: Loose['side'], path: string) => taken.some((t) => t.loose.side === side && t.path === path);
  const touched = (l: Loose) => taken.some((t) => t.loose === l);

  /** A wrapper whose every field moved (or is such a wrapper itself): part of the moves. */
  const absorbed = (side: Loose['side'], field: ContractField, path: string): boolean =>
    field.type.kind === 'object' && field.type.fields.length > 0 && field.type.fields.every((f) => moved(side, join(path, f.name)) || absorbed(side, f, join(path, f.name)));

  // 3. Renamed and changed: the one gone and the one come left under a parent, untouched by moves.
  const renamedAndChanged = new Map<Loose, Loose>();
  const untouched = loose.filter((l) => !touched(l));
  for (const parent of new Set(untouched.map((l) => l.parent))) {
    const here = untouched.filter((l) => l.parent === parent);
    const was = here.filter((l) => l.side === 'gone');
    const now = here.filter((l) => l.side === 'come');
    const [g, c] = [was[0], now[0]];
    if (was.length === 1 && now.length === 1 && g && c && g.field.presence === c.field.presence && related(g.field.name, c.field.name)) renamedAndChanged.set(g, c);
  }
  const joined = new Set([...renamedAndChanged.values()]);

  const changes: Change[] = [];
  for (const step of walk.steps) {
    if (!isLoose(step)) {
      changes.push(step);
      continue;
    }
    if (step.side === 'gone') {
      for (const [was, now] of moves.filter(([w]) => w.loose === step)) changes.push(renameEntry(site, was.path, now.path, now.field.type));
      const partner = renamedAndChanged.get(step);
      if (partner) {
        changes.push(renameEntry(site, step.path, partner.path, partner.field.type));
        const inner: Walk = { site, steps: [] };
        walkField(step.field, partner.field, inner, partner.path, partner.arrays);
        changes.push(...resolve(inner));
        continue;
      }
      if (moved('gone', step.path) || absorbed('gone', step.field, step.path)) continue;
      changes.push(change('field-removed', site, step.path, describeType(step.field.type), null, 'field removed'));
    } else {
      if (joined.has(step) || moved('come', step.path) || absorbed('come', step.field, step.path)) continue;
      const f = step.field;
      const kind = mustCarry(f) ? 'field-added' : 'optional-field-added';
      changes.push(change(kind, site, step.path, null, describeType(f.type), `new ${mustCarry(f) ? 'required' : 'optional'} field (${f.presence})`));
    }
  }
  return changes;
}

// ---- Strings: formats, limits, value sets

type StringType = Extract<ContractType, { kind: 'string' }>;

/**
 * Where a string's stated limits (length, pattern, a closed set) are cited: the section of the
 * LIMIT-* rule the type names (§Limits for `wp_command`), else where the field is.
 */
function limitSections(before: StringType, after: StringType, site: FieldSite): Change['sections'] {
  const at = (limit: string | undefined, rules: ReadonlyMap<string, string>, fallback: string | null) => (limit !== undefined ? (rules.get(limit) ?? fallback) : fallback);
  return { before: at(before.limit, site.rules.before, site.sections.before), after: at(after.limit, site.rules.after, site.sections.after) };
}

function diffString(before: StringType, after: StringType, site: FieldSite, path: string): Change[] {
  const changes: Change[] = [];
  if (before.format !== after.format) {
    const kind = after.format ? 'format-changed' : 'format-dropped';
    changes.push(change(kind, site, path, before.format ?? 'none', after.format ?? 'none', `format ${after.format ? (before.format ? 'changed' : 'added') : 'dropped'}`));
  }
  const limits = limitChange(before, after);
  const sections = limitSections(before, after, site);
  if (limits) changes.push(change(limits, site, path, describeLimits(before), describeLimits(after), `limit ${limits.replace('limit-', '')}`, sections));
  changes.push(...valueSetChanges(before, after, site, path, before.enum || after.enum ? sections : site.sections));
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

function valueSetChanges(before: StringType, after: StringType, site: FieldSite, path: string, sections: Change['sections']): Change[] {
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
  const found = change(kind, site, path, describeValues(was), describeValues(now), summary, sections);
  // Values newly shown, or withdrawn, as the set grows or shrinks: also what the document now states.
  if ((kind === 'value-set-grown' || kind === 'value-set-shrunk') && (added.length || removed.length)) {
    return [{ ...found, classes: CHANGE_CLASSES.filter((c) => c === 'knowledge' || found.classes.includes(c)) }];
  }
  return [found];
}
