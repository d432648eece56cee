/**
 * A snapshot whose parts agree with each other, as every snapshot the generator writes does: the
 * keys the engine pairs things by are unique (endpoints by operation and by model name, resources,
 * formats, fields within their parent, rule ids, gap ids), every operation is its method and path,
 * and every reference names something the snapshot holds (a rule's, assumption's or conflict's
 * endpoints, a scope's endpoint names, a rule's conflicts, a replacement, a type's resource or
 * format). A hand-edited snapshot that breaks one would be diffed into silence or nonsense (a
 * duplicate hides behind the first of its key); it is refused instead, naming where.
 */
import type { ContractField, ContractSnapshot, ContractType } from '../spec/contract.ts';

/** `at: what is wrong`, for the first part that does not agree; undefined when all do. */
export function firstBadReference(s: ContractSnapshot): string | undefined {
  try {
    check(s);
    return undefined;
  } catch (error) {
    if (error instanceof Disagreement) return error.message;
    throw error;
  }
}

class Disagreement extends Error {}

const fail = (at: string, what: string): never => {
  throw new Disagreement(`${at}: ${what}`);
};

/** Each key once: the second holder is named, with where the first is. */
function unique<T>(items: readonly T[], keyOf: (item: T) => string, at: (i: number) => string, what: string): Set<string> {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    const seen = first.get(key);
    if (seen !== undefined) fail(at(i), `${what} ${JSON.stringify(key)} is given twice (first at ${at(seen).replace(/\.[a-z]+$/i, '')})`);
    first.set(key, i);
  });
  return new Set(first.keys());
}

function check(s: ContractSnapshot): void {
  const resources = unique(s.resources, (r) => r.name, (i) => `resources[${i}].name`, 'resource');
  const formats = unique(s.formats, (f) => f.name, (i) => `formats[${i}].name`, 'format');
  const operations = unique(s.endpoints, (e) => e.operation, (i) => `endpoints[${i}].operation`, 'operation');
  const names = unique(s.endpoints, (e) => e.name, (i) => `endpoints[${i}].name`, 'endpoint name');
  unique(s.rules, (r) => r.id, (i) => `rules[${i}].id`, 'rule id');
  const gaps = [...s.unknowns.map((g, i) => [g.id, `unknowns[${i}].id`] as const), ...s.assumptions.map((g, i) => [g.id, `assumptions[${i}].id`] as const), ...s.conflicts.map((g, i) => [g.id, `conflicts[${i}].id`] as const)];
  unique(gaps, ([id]) => id, (i) => gaps[i]![1], 'gap id');
  const conflictIds = new Set(s.conflicts.map((c) => c.id));

  const known = (set: ReadonlySet<string>, value: string, at: string, what: string) => {
    if (!set.has(value)) fail(at, `${what} ${JSON.stringify(value)}, which the snapshot does not hold`);
  };
  const fieldsAgree = (list: readonly ContractField[], at: string) => {
    unique(list, (f) => f.name, (i) => `${at}[${i}].name`, 'field');
    list.forEach((f, i) => typeAgrees(f.type, `${at}[${i}].type`));
  };
  const typeAgrees = (t: ContractType, at: string): void => {
    if (t.kind === 'ref') known(resources, t.resource, `${at}.resource`, 'names the resource');
    if (t.kind === 'string' && t.format !== undefined) known(formats, t.format, `${at}.format`, 'names the format');
    if (t.kind === 'array') typeAgrees(t.items, `${at}.items`);
    if (t.kind === 'object') fieldsAgree(t.fields, `${at}.fields`);
  };
  const scopeAgrees = (scope: ContractSnapshot['rules'][number]['scope'], at: string) => {
    if (typeof scope === 'object') scope.endpoints.forEach((n, i) => known(names, n, `${at}.scope.endpoints[${i}]`, 'names the endpoint'));
  };
  const coverAgrees = (list: readonly string[], at: string) => list.forEach((o, i) => known(operations, o, `${at}.operations[${i}]`, 'names the endpoint'));

  s.resources.forEach((r, i) => fieldsAgree(r.fields, `resources[${i}].fields`));
  s.endpoints.forEach((e, i) => {
    const at = `endpoints[${i}]`;
    const own = `${e.method} ${e.path}`;
    if (e.operation !== own) fail(`${at}.operation`, `${JSON.stringify(e.operation)} is not its method and path (${JSON.stringify(own)})`);
    fieldsAgree(e.pathParams, `${at}.pathParams`);
    fieldsAgree(e.queryParams, `${at}.queryParams`);
    if (e.body) fieldsAgree(e.body, `${at}.body`);
    typeAgrees(e.success.body, `${at}.success.body`);
    const replacement = e.deprecated?.replacement;
    // An unknown says the document names no replacement; an operation must be one the snapshot holds.
    if (replacement !== undefined && !replacement.startsWith('UNK-')) known(operations, replacement, `${at}.deprecated.replacement`, 'names the endpoint');
  });
  s.rules.forEach((r, i) => {
    coverAgrees(r.operations, `rules[${i}]`);
    scopeAgrees(r.scope, `rules[${i}]`);
    (r.conflicts ?? []).forEach((c, j) => known(conflictIds, c, `rules[${i}].conflicts[${j}]`, 'names the conflict'));
  });
  s.assumptions.forEach((a, i) => {
    coverAgrees(a.operations, `assumptions[${i}]`);
    scopeAgrees(a.scope, `assumptions[${i}]`);
  });
  s.conflicts.forEach((c, i) => coverAgrees(c.operations, `conflicts[${i}]`));
}
