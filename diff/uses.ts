/**
 * Where each resource of a snapshot travels: the endpoints whose requests (path, query, body) or
 * responses reach it, through references at any depth. A change to a resource's field touches
 * those endpoints, in those directions.
 */
import type { ContractEndpoint, ContractField, ContractSnapshot, ContractType } from '../spec/contract.ts';
import type { Direction } from './classes.ts';

export type Uses = ReadonlyMap<string, Readonly<Record<Direction, ReadonlySet<string>>>>;

export function usesOf(snapshot: ContractSnapshot): Uses {
  const fieldsOf = new Map(snapshot.resources.map((r) => [r.name, r.fields]));
  const uses = new Map<string, Record<Direction, Set<string>>>();
  const use = (resource: string) => {
    let found = uses.get(resource);
    if (!found) uses.set(resource, (found = { request: new Set(), response: new Set() }));
    return found;
  };
  const visit = (type: ContractType, direction: Direction, operation: string) => {
    if (type.kind === 'array') visit(type.items, direction, operation);
    else if (type.kind === 'object') visitFields(type.fields, direction, operation);
    else if (type.kind === 'ref') {
      const seen = use(type.resource)[direction];
      if (seen.has(operation)) return; // a resource that holds itself (FileNode) is walked once
      seen.add(operation);
      visitFields(fieldsOf.get(type.resource) ?? [], direction, operation);
    }
  };
  const visitFields = (fields: readonly ContractField[], direction: Direction, operation: string) => {
    for (const f of fields) visit(f.type, direction, operation);
  };
  for (const e of snapshot.endpoints) {
    visitFields(requestFields(e), 'request', e.operation);
    visit(e.success.body, 'response', e.operation);
  }
  return uses;
}

export const requestFields = (e: ContractEndpoint): readonly ContractField[] => [...e.pathParams, ...e.queryParams, ...(e.body ?? [])];

/** Where a resource travels in either snapshot: directions (response when unused) and endpoints in `order`. */
export function resourceReach(name: string, before: Uses, after: Uses, order: readonly string[]): { directions: Direction[]; operations: string[] } {
  const sides = [after.get(name), before.get(name)];
  const directions = (['request', 'response'] as const).filter((d) => sides.some((s) => s && s[d].size > 0));
  const reached = new Set(sides.flatMap((s) => (s ? [...s.request, ...s.response] : [])));
  return { directions: directions.length ? directions : ['response'], operations: order.filter((o) => reached.has(o)) };
}
