/** Changes of the document's gaps: unknowns, assumptions and conflicts, keyed by id. */
import type { ContractField, ContractSnapshot, ContractType } from '../spec/contract.ts';
import { CHANGE_CLASSES, same, type Change, type ChangeClass } from './change.ts';
import { fixedClasses, type FixedKind } from './classes.ts';
import { describeCite, describeList, partsThatDiffer } from './describe.ts';

interface Keyed {
  readonly id: string;
  readonly cite: { readonly section: string };
}

function entry(kind: FixedKind, subject: string, operations: readonly string[], before: string | null, after: string | null, sections: Change['sections'], summary: string, extra: readonly ChangeClass[] = []): Change {
  const found = new Set<ChangeClass>([...fixedClasses[kind], ...extra]);
  const classes = CHANGE_CLASSES.filter((c) => found.has(c));
  return { kind, classes, subject, operations, before, after, sections, summary };
}

const sectionsOf = (before?: Keyed, after?: Keyed): Change['sections'] => ({ before: before?.cite.section ?? null, after: after?.cite.section ?? null });

/** Pairs items by id: those only before, those only after, those on both sides. */
function pair<T extends { readonly id: string }>(before: readonly T[], after: readonly T[]) {
  const afterById = new Map(after.map((x) => [x.id, x]));
  const beforeIds = new Set(before.map((x) => x.id));
  return {
    gone: before.filter((x) => !afterById.has(x.id)),
    come: after.filter((x) => !beforeIds.has(x.id)),
    both: before.flatMap((x) => (afterById.has(x.id) ? [[x, afterById.get(x.id)!] as const] : [])),
  };
}

export function diffUnknowns(before: ContractSnapshot['unknowns'], after: ContractSnapshot['unknowns']): Change[] {
  const { gone, come, both } = pair(before, after);
  return [
    ...gone.map((u) => entry('unknown-resolved', u.id, [], u.what, null, sectionsOf(u), `resolved: the document now states ${lowerFirst(u.what)}`)),
    ...both.flatMap(([u, v]) => {
      if (same(u, v)) return [];
      const [was, now] = partsThatDiffer([['what', u.what, v.what], ['cite', describeCite(u.cite), describeCite(v.cite)]]);
      return [entry('unknown-text-changed', u.id, [], was, now, sectionsOf(u, v), 'wording or citation changed')];
    }),
    ...come.map((u) => entry('unknown-introduced', u.id, [], null, u.what, sectionsOf(undefined, u), `introduced: not shown: ${lowerFirst(u.what)}`)),
  ];
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export function diffAssumptions(before: ContractSnapshot, after: ContractSnapshot): Change[] {
  const { gone, come, both } = pair(before.assumptions, after.assumptions);
  const changes: Change[] = [];
  for (const a of gone) {
    const verdict = settlement(a.id, before, after);
    changes.push(entry('assumption-settled', a.id, a.operations, a.choice, null, sectionsOf(a), verdict));
  }
  for (const [a, b] of both) {
    if (!same(a.choice, b.choice) || !same(a.scope, b.scope)) {
      const [was, now] = partsThatDiffer([
        ['choice', a.choice, b.choice],
        ['covers', describeList(a.operations), describeList(b.operations)],
        ['scope', JSON.stringify(a.scope), JSON.stringify(b.scope)],
      ]);
      changes.push(entry('assumption-changed', a.id, [...new Set([...b.operations, ...a.operations])], was, now, sectionsOf(a, b), `the choice ${same(a.choice, b.choice) ? 'now covers other endpoints' : 'changed'}`));
    } else if (!same(a.why, b.why) || !same(a.cite, b.cite)) {
      const [was, now] = partsThatDiffer([['why', a.why, b.why], ['cite', describeCite(a.cite), describeCite(b.cite)]]);
      changes.push(entry('assumption-text-changed', a.id, b.operations, was, now, sectionsOf(a, b), 'reasons or citation reworded'));
    }
  }
  for (const a of come) changes.push(entry('assumption-introduced', a.id, a.operations, null, a.choice, sectionsOf(undefined, a), 'introduced: the document leaves a choice open'));
  return changes;
}

/**
 * Whether the document, in deciding an assumption, confirmed or contradicted it: the fields and
 * formats that rested on it keep their type and pattern (confirmed) or not (contradicted). One
 * that shaped behaviour only cannot be told from two snapshots, and the words say so.
 */
function settlement(id: string, before: ContractSnapshot, after: ContractSnapshot): string {
  const was = restingOn(id, before);
  if (was.size === 0) return 'settled: the new document decides it (the snapshots cannot tell whether as chosen)';
  const now = new Map([...placesOf(after)].map(([key, value]) => [key, value]));
  const changed = [...was].filter(([key, value]) => !same(now.get(key), value)).map(([key]) => key);
  return changed.length === 0 ? 'confirmed: the new document states what it chose' : `contradicted: the new document decides otherwise (${changed.join('; ')})`;
}

/** Every field and format of a snapshot that rests on the assumption, by place, with its type or pattern. */
function restingOn(id: string, snapshot: ContractSnapshot): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [key, value, assumption] of placesOf(snapshot)) if (assumption === id) found.set(key, value);
  return found;
}

/** [place, type or pattern, assumption] for every field and format of a snapshot. */
function* placesOf(snapshot: ContractSnapshot): Generator<readonly [string, unknown, string | undefined]> {
  function* fields(list: readonly ContractField[], at: string): Generator<readonly [string, unknown, string | undefined]> {
    for (const f of list) {
      yield [`${at}.${f.name}`, f.type, f.assumption];
      yield* nested(f.type, `${at}.${f.name}`);
    }
  }
  function* nested(type: ContractType, at: string): Generator<readonly [string, unknown, string | undefined]> {
    if (type.kind === 'array') yield* nested(type.items, `${at}[]`);
    if (type.kind === 'object') yield* fields(type.fields, at);
  }
  for (const f of snapshot.formats) yield [`format ${f.name}`, f.pattern, f.assumption];
  for (const r of snapshot.resources) yield* fields(r.fields, r.name);
  for (const e of snapshot.endpoints) {
    yield* fields(e.pathParams, `${e.operation} path`);
    yield* fields(e.queryParams, `${e.operation} query`);
    yield* fields(e.body ?? [], `${e.operation} request body`);
    yield* nested(e.success.body, `${e.operation} response`);
  }
}

export function diffConflicts(before: ContractSnapshot, after: ContractSnapshot): Change[] {
  const { gone, come, both } = pair(before.conflicts, after.conflicts);
  const errorsAfter = new Map<string, readonly number[]>(after.endpoints.map((e) => [e.operation, e.errors]));
  const sections = (a?: (typeof before.conflicts)[number], b?: (typeof before.conflicts)[number]) => ({ before: a?.letter.cite.section ?? null, after: b?.letter.cite.section ?? null });
  const changes: Change[] = [];
  for (const c of gone) {
    // Resolved by the letter where an endpoint's table does not take up the status the reading allowed.
    const byLetter = c.extraStatus === undefined ? [] : c.operations.filter((o) => errorsAfter.has(o) && !errorsAfter.get(o)!.includes(c.extraStatus!));
    const how = byLetter.length ? `; ${c.extraStatus} is no longer accepted on ${byLetter.join(', ')} (the letter won)` : '';
    changes.push(entry('conflict-resolved', c.id, c.operations, `${c.letter.says} / ${c.reading.says}`, null, sections(c), `resolved${how}`, byLetter.length ? ['server-breaking'] : []));
  }
  // The endpoints a conflict covered, where they are now: one that moved (renamed; the same model
  // name under another operation, as diffEndpoints pairs them) is still covered, not a change.
  const operationsAfter = new Set(after.endpoints.map((e) => e.operation));
  const movedTo = new Map<string, string>(
    before.endpoints.filter((e) => !operationsAfter.has(e.operation)).flatMap((e) => {
      const now = after.endpoints.find((x) => x.name === e.name && !before.endpoints.some((y) => y.operation === x.operation));
      return now ? [[e.operation, now.operation] as const] : [];
    }),
  );
  const coveredNow = (c: (typeof before.conflicts)[number]) => c.operations.map((o) => movedTo.get(o) ?? o);
  for (const [a, b] of both) {
    const { mockWhy: _a, letter: la, reading: ra, operations: _oa, ...restA } = a;
    const { mockWhy: _b, letter: lb, reading: rb, operations: _ob, ...restB } = b;
    if (!same(restA, restB) || !same(coveredNow(a), b.operations) || la.says !== lb.says || ra.says !== rb.says) {
      const [was, now] = partsThatDiffer([
        ['statements', `${la.says} / ${ra.says}`, `${lb.says} / ${rb.says}`],
        ['covers', describeList(a.operations), describeList(b.operations)],
        ['other', JSON.stringify(restA), JSON.stringify(restB)],
      ]);
      changes.push(entry('conflict-changed', a.id, [...new Set([...b.operations, ...a.operations])], was, now, sections(a, b), 'changed'));
    } else if (!same(a.mockWhy, b.mockWhy) || !same(la.cite, lb.cite) || !same(ra.cite, rb.cite)) {
      const [was, now] = partsThatDiffer([
        ["the mock's reasons", a.mockWhy, b.mockWhy],
        ['letter', describeCite(la.cite), describeCite(lb.cite)],
        ['reading', describeCite(ra.cite), describeCite(rb.cite)],
      ]);
      changes.push(entry('conflict-text-changed', a.id, b.operations, was, now, sections(a, b), "citation or the mock's reasons reworded"));
    }
  }
  for (const c of come) changes.push(entry('conflict-introduced', c.id, c.operations, null, `${c.letter.says} / ${c.reading.says}`, sections(undefined, c), 'introduced: two statements of the document disagree'));
  return changes;
}
