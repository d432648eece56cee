/** Changes of the rules, keyed by rule id. */
import type { ContractRule } from '../spec/contract.ts';
import { CHANGE_CLASSES, same, type Change, type ChangeClass } from './change.ts';
import { fixedClasses } from './classes.ts';

const describeScope = (scope: ContractRule['scope']): string =>
  typeof scope === 'object' ? `endpoints: ${scope.endpoints.join(', ') || 'none'}` : scope;

/**
 * `common`: the operations present on both sides. A scope grown over an endpoint both sides hold
 * is server-breaking, shrunk client-breaking; the endpoints that came or went report themselves.
 */
export function diffRules(before: readonly ContractRule[], after: readonly ContractRule[], common: ReadonlySet<string>): Change[] {
  const afterById = new Map(after.map((r) => [r.id, r]));
  const beforeById = new Map(before.map((r) => [r.id, r]));
  const changes: Change[] = [];
  for (const r of before) {
    const next = afterById.get(r.id);
    const sections = { before: r.cite.section, after: next?.cite.section ?? null };
    if (!next) {
      changes.push({ kind: 'rule-removed', classes: fixedClasses['rule-removed'], subject: r.id, operations: r.operations, before: r.title, after: null, sections, summary: 'rule withdrawn' });
      continue;
    }
    if (!same(r.scope, next.scope)) {
      const grew = next.operations.filter((o) => common.has(o) && !r.operations.includes(o));
      const shrank = r.operations.filter((o) => common.has(o) && !next.operations.includes(o));
      const found = new Set<ChangeClass>([...(grew.length ? ['server-breaking' as const] : []), ...(shrank.length ? ['client-breaking' as const] : [])]);
      const classes = found.size ? CHANGE_CLASSES.filter((c) => found.has(c)) : (['compatible'] as const);
      const words = [grew.length ? `now covers ${grew.join(', ')}` : '', shrank.length ? `no longer covers ${shrank.join(', ')}` : ''].filter(Boolean).join('; ');
      changes.push({
        kind: 'rule-scope-changed',
        classes,
        subject: r.id,
        operations: [...grew, ...shrank],
        before: describeScope(r.scope),
        after: describeScope(next.scope),
        sections,
        summary: `scope changed${words ? `: ${words}` : ''}`,
      });
    }
    const wording = (['title', 'statement', 'cite'] as const).filter((k) => !same(r[k], next[k]));
    if (wording.length) {
      const [shown] = wording.filter((k) => k !== 'cite');
      changes.push({
        kind: 'rule-text-changed',
        classes: fixedClasses['rule-text-changed'],
        subject: r.id,
        operations: next.operations,
        before: shown ? r[shown] : JSON.stringify(r.cite),
        after: shown ? next[shown] : JSON.stringify(next.cite),
        sections,
        summary: `${wording.join(', ')} reworded`,
      });
    }
  }
  for (const r of after.filter((a) => !beforeById.has(a.id))) {
    changes.push({
      kind: 'rule-added',
      classes: fixedClasses['rule-added'],
      subject: r.id,
      operations: r.operations,
      before: null,
      after: r.title,
      sections: { before: null, after: r.cite.section },
      summary: `new rule: ${r.title}`,
    });
  }
  return changes;
}
