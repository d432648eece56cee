/**
 * The diff of two contract snapshots: every changed fact, classified (classes.ts says how and
 * why). Pure and deterministic: document-wide facts, formats, resources, endpoints, rules, then
 * the gaps, each in the order of the snapshots.
 */
import type { ContractSnapshot } from '../spec/contract.ts';
import { CHANGE_CLASSES, same, type Change, type ChangeClass } from './change.ts';
import { diffDocument, diffFormats, diffResources } from './document.ts';
import { diffEndpoints } from './endpoints.ts';
import type { RuleSections } from './fields.ts';
import { diffAssumptions, diffConflicts, diffUnknowns } from './gaps.ts';
import { diffRules } from './rules.ts';

export function diffContracts(before: ContractSnapshot, after: ContractSnapshot): Change[] {
  const beforeOps = new Set(before.endpoints.map((e) => e.operation));
  const common = new Set(after.endpoints.map((e) => e.operation).filter((o) => beforeOps.has(o)));
  const rules: RuleSections = { before: sectionsByRule(before), after: sectionsByRule(after) };
  const changes = [
    ...diffDocument(before, after),
    ...diffFormats(before, after),
    ...diffResources(before, after, rules),
    ...diffEndpoints(before.endpoints, after.endpoints, { before: before.errorTable.section, after: after.errorTable.section }, rules),
    ...diffRules(before.rules, after.rules, common),
    ...diffUnknowns(before.unknowns, after.unknowns),
    ...diffAssumptions(before, after),
    ...diffConflicts(before, after),
  ];
  return withNewlyJudged(changes, before, after, common);
}

const sectionsByRule = (s: ContractSnapshot): Map<string, string> => new Map(s.rules.map((r) => [r.id, r.cite.section]));

/** Kinds that change what an endpoint is, as opposed to how it is described. */
const isWording = (kind: string) => kind.endsWith('-cite-changed') || kind.endsWith('-text-changed') || kind === 'tag-changed';

/**
 * Kinds that change what a rule's scope reads of an endpoint (spec/queries.ts `inScope`: its
 * listed statuses, effect, success kind, path ids, request body or query, response body).
 */
const SCOPE_INPUTS: ReadonlySet<string> = new Set([
  'error-status-added',
  'error-status-removed',
  'effect-changed',
  'success-changed',
  'endpoint-moved',
  'field-added',
  'optional-field-added',
  'field-removed',
]);

/**
 * A rule whose scope reads as before may judge an endpoint it did not (a 400 now listed brings
 * INPUT-400; an endpoint now read brings READ-404): a server may now fail it. The endpoint's own
 * changes that brought it in (those of a kind the scope reads) become server-breaking and name
 * the rule; its other changes keep their classes.
 */
function withNewlyJudged(changes: Change[], before: ContractSnapshot, after: ContractSnapshot, common: ReadonlySet<string>): Change[] {
  const beforeRules = new Map(before.rules.map((r) => [r.id, r]));
  const judged = new Map<string, string[]>();
  for (const r of after.rules) {
    const was = beforeRules.get(r.id);
    if (!was || !same(was.scope, r.scope)) continue; // a new or rescoped rule reports itself
    for (const op of r.operations) if (common.has(op) && !was.operations.includes(op)) judged.set(op, [...(judged.get(op) ?? []), r.id]);
  }
  if (judged.size === 0) return changes;
  const ownOp = (c: Change) => (c.operations.length === 1 && c.subject.startsWith(c.operations[0]!) ? c.operations[0] : undefined);
  const bringers = new Set<Change>();
  for (const op of judged.keys()) {
    const own = changes.filter((c) => ownOp(c) === op && !isWording(c.kind));
    const scoped = own.filter((c) => SCOPE_INPUTS.has(c.kind));
    // Never lose the judgement: where no change is of a kind the scope reads, the first one carries it.
    for (const c of scoped.length ? scoped : own.slice(0, 1)) bringers.add(c);
  }
  return changes.map((c) => {
    if (!bringers.has(c)) return c;
    const rules = judged.get(ownOp(c)!)!;
    const found = new Set<ChangeClass>([...c.classes.filter((k) => k !== 'compatible'), 'server-breaking']);
    return { ...c, classes: CHANGE_CLASSES.filter((k) => found.has(k)), summary: `${c.summary}; ${rules.join(', ')} now judge${rules.length === 1 ? 's' : ''} it` };
  });
}

/** How many changes fall in each class (a change in two classes counts in both). */
export const countByClass = (changes: readonly Change[]): Record<ChangeClass, number> =>
  Object.fromEntries(CHANGE_CLASSES.map((c) => [c, changes.filter((x) => x.classes.includes(c)).length])) as Record<ChangeClass, number>;
