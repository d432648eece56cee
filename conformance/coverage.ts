/**
 * What a run covered, from its rows: per rule, the operations judged of those in scope and why
 * the others were not; overall, the skipped rows counted per reason. A verdict that checked a
 * fraction must say so, so reasons are grouped (not listed row by row) for the headline.
 */
import { operation } from '../spec/queries.ts';
import type { CheckSummary, Coverage, RuleCoverage, Skip } from './types.ts';

export const pairKey = (rule: string, op: string): string => `${rule} ${op}`;

/**
 * The distinct skip reasons per (rule, operation), in the order the sources gave them; those of
 * requests that got no answer to judge ("not judged: …", in whatever order they came) last, sorted,
 * so rows they left alike read alike.
 */
export function reasonsByPair(skips: readonly Skip[]): Map<string, string[]> {
  const reasons = new Map<string, string[]>();
  for (const skip of skips) {
    const key = pairKey(skip.rule, operation(skip.endpoint));
    const list = reasons.get(key) ?? [];
    if (!list.includes(skip.reason)) list.push(skip.reason);
    reasons.set(key, list);
  }
  const unjudged = (r: string) => r.startsWith('not judged');
  for (const [key, list] of reasons) reasons.set(key, [...list.filter((r) => !unjudged(r)), ...list.filter(unjudged).sort()]);
  return reasons;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const OPERATION = /\b(?:GET|POST|PUT|PATCH|DELETE) \/[^\s;,()]*/g;
// Not the digits of a rule id (`INPUT-400`) or a flag (`--max-wait-s`).
const FIGURE = /(?<![\w-])\d+(?:\.\d+)?(?![\w-])/g;

/** A reason with what varies per row (ids, operations, figures) replaced by placeholders. */
export function normalizeReason(reason: string): string {
  return reason.replace(UUID, '<id>').replace(OPERATION, '<operation>').replace(FIGURE, 'N').replace(/\s+/g, ' ').trim();
}

/** Reasons that differ only in a figure's noun being plural (`1 exchange`, `12 exchanges`) are one group. */
const groupKey = (normalized: string) => normalized.replace(/\bN (\w+?)s\b/g, 'N $1');

/**
 * Reasons grouped, most members first (ties in order of first appearance), each with the indices
 * of its members. A group whose members are all the same text is labelled with it; otherwise
 * with the normalized text.
 */
export function reasonGroups(reasons: readonly string[]): { readonly reason: string; readonly members: readonly number[] }[] {
  const groups = new Map<string, { texts: Set<string>; normalized: string; members: number[] }>();
  reasons.forEach((reason, i) => {
    const normalized = normalizeReason(reason);
    const key = groupKey(normalized);
    const group = groups.get(key) ?? { texts: new Set<string>(), normalized, members: [] };
    group.texts.add(reason);
    // Of the plural and singular forms, the plural reads right for a group.
    if (normalized.length > group.normalized.length) group.normalized = normalized;
    group.members.push(i);
    groups.set(key, group);
  });
  return [...groups.values()]
    .sort((a, b) => b.members.length - a.members.length || a.members[0]! - b.members[0]!)
    .map((g) => ({ reason: g.texts.size === 1 ? [...g.texts][0]! : g.normalized, members: g.members }));
}

/** Reasons counted per group (see `reasonGroups`). */
export const groupReasons = (reasons: readonly string[]): { readonly reason: string; readonly count: number }[] =>
  reasonGroups(reasons).map((g) => ({ reason: g.reason, count: g.members.length }));

/** Coverage from the report's rows and the skip reasons of rows that were judged all the same (partly skipped). */
export function coverageOf(rows: readonly CheckSummary[], reasons: ReadonlyMap<string, readonly string[]>): Coverage {
  const rules: Record<string, { checked: number; inScope: number; skipped: RuleCoverage['skipped'][number][]; partly: RuleCoverage['partly'][number][] }> = {};
  for (const row of rows) {
    const rule = (rules[row.rule] ??= { checked: 0, inScope: 0, skipped: [], partly: [] });
    rule.inScope++;
    if (row.outcome === 'skipped') {
      rule.skipped.push({ operation: row.operation, reason: row.reason ?? 'no reason given' });
      continue;
    }
    rule.checked++;
    const partly = reasons.get(pairKey(row.rule, row.operation));
    if (partly?.length) rule.partly.push({ operation: row.operation, reason: partly.join('; ') });
  }
  const skipped = rows.filter((r) => r.outcome === 'skipped');
  return {
    checked: rows.length - skipped.length,
    total: rows.length,
    skipped: groupReasons(skipped.map((r) => r.reason ?? 'no reason given')),
    rules,
  };
}
