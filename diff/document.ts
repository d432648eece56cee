/** Changes of document-wide facts, the string formats and the resources. */
import type { ContractResource, ContractSnapshot, ContractType } from '../spec/contract.ts';
import { same, type Change } from './change.ts';
import { fixedClasses, type FixedKind } from './classes.ts';
import { describeCite, partsThatDiffer } from './describe.ts';
import { diffFields, type RuleSections } from './fields.ts';
import { resourceReach, usesOf } from './uses.ts';

const fixed = (kind: FixedKind, subject: string, operations: readonly string[], before: string | null, after: string | null, sections: Change['sections'], summary: string): Change => ({
  kind,
  classes: fixedClasses[kind],
  subject,
  operations,
  before,
  after,
  sections,
  summary,
});

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function diffDocument(before: ContractSnapshot, after: ContractSnapshot): Change[] {
  const changes: Change[] = [];
  const all = after.endpoints.map((e) => e.operation);
  if (before.basePath !== after.basePath) {
    changes.push(fixed('base-path-changed', 'base path', all, before.basePath, after.basePath, { before: null, after: null }, `base path changed from ${before.basePath} to ${after.basePath}`));
  }
  if (!same(before.auth, after.auth)) {
    changes.push(fixed('auth-changed', 'authentication', all, text(before.auth), text(after.auth), { before: before.auth.cite.section, after: after.auth.cite.section }, 'authentication changed'));
  }
  if (!same(before.errorTable, after.errorTable)) {
    changes.push(fixed('error-table-cite-changed', 'error-status table', [], describeCite(before.errorTable), describeCite(after.errorTable), { before: before.errorTable.section, after: after.errorTable.section }, 'where the document lists each endpoint\'s error statuses changed'));
  }
  for (const key of ['title', 'document', 'tagGroups', 'errorMeanings'] as const) {
    if (!same(before[key], after[key])) changes.push(fixed('document-changed', key, [], text(before[key]), text(after[key]), { before: null, after: null }, `${key} changed`));
  }
  return changes;
}

/** Operations whose fields use a format, in the order of the snapshot's endpoints. */
function usersOf(format: string, snapshot: ContractSnapshot): string[] {
  const usesFormat = (type: ContractType): boolean =>
    type.kind === 'string' ? type.format === format : type.kind === 'array' ? usesFormat(type.items) : type.kind === 'object' ? type.fields.some((f) => usesFormat(f.type)) : false;
  const resourcesUsing = new Set(snapshot.resources.filter((r) => r.fields.some((f) => usesFormat(f.type))).map((r) => r.name));
  const uses = usesOf(snapshot);
  const viaResources = new Set([...resourcesUsing].flatMap((r) => [...(uses.get(r)?.request ?? []), ...(uses.get(r)?.response ?? [])]));
  return snapshot.endpoints
    .filter((e) => viaResources.has(e.operation) || [...e.pathParams, ...e.queryParams, ...(e.body ?? [])].some((f) => usesFormat(f.type)) || usesFormat(e.success.body))
    .map((e) => e.operation);
}

export function diffFormats(before: ContractSnapshot, after: ContractSnapshot): Change[] {
  const afterByName = new Map(after.formats.map((f) => [f.name, f]));
  const beforeNames = new Set(before.formats.map((f) => f.name));
  const changes: Change[] = [];
  for (const f of before.formats) {
    const next = afterByName.get(f.name);
    const sections = { before: f.cite.section, after: next?.cite.section ?? null };
    if (!next) changes.push(fixed('format-entry-removed', `format ${f.name}`, [], f.pattern, null, sections, 'format no longer defined'));
    else if (f.pattern !== next.pattern) {
      changes.push(fixed('format-pattern-changed', `format ${f.name}`, usersOf(f.name, after), f.pattern, next.pattern, sections, 'pattern changed'));
    } else if (f.description !== next.description || !same(f.cite, next.cite)) {
      const [was, now] = partsThatDiffer([['description', f.description, next.description], ['cite', describeCite(f.cite), describeCite(next.cite)]]);
      changes.push(fixed('format-text-changed', `format ${f.name}`, [], was, now, sections, 'description or citation changed'));
    }
  }
  for (const f of after.formats.filter((x) => !beforeNames.has(x.name))) {
    changes.push(fixed('format-entry-added', `format ${f.name}`, [], null, f.pattern, { before: null, after: f.cite.section }, 'new format'));
  }
  return changes;
}

export function diffResources(before: ContractSnapshot, after: ContractSnapshot, rules: RuleSections): Change[] {
  const [usesBefore, usesAfter] = [usesOf(before), usesOf(after)];
  const order = [...new Set([...after.endpoints, ...before.endpoints].map((e) => e.operation))];
  const afterByName = new Map(after.resources.map((r) => [r.name, r]));
  const beforeNames = new Set(before.resources.map((r) => r.name));
  const changes: Change[] = [];
  const sectionsOf = (a?: ContractResource, b?: ContractResource) => ({ before: a?.cite.section ?? null, after: b?.cite.section ?? null });
  for (const r of before.resources) {
    const next = afterByName.get(r.name);
    const reach = resourceReach(r.name, usesBefore, usesAfter, order);
    if (!next) {
      changes.push(fixed('resource-removed', r.name, reach.operations, r.name, null, sectionsOf(r), 'resource removed'));
      continue;
    }
    if (!same(r.cite, next.cite)) changes.push(fixed('resource-cite-changed', r.name, reach.operations, text(r.cite), text(next.cite), sectionsOf(r, next), 'citation changed'));
    changes.push(...diffFields(r.fields, next.fields, { subject: (path) => `${r.name}.${path}`, directions: reach.directions, operations: reach.operations, sections: sectionsOf(r, next), rules }));
  }
  for (const r of after.resources.filter((x) => !beforeNames.has(x.name))) {
    changes.push(fixed('resource-added', r.name, resourceReach(r.name, usesBefore, usesAfter, order).operations, null, r.name, sectionsOf(undefined, r), 'new resource'));
  }
  return changes;
}
