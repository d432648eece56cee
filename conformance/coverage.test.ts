/**
 * Coverage: skip reasons that differ only in what varies per row (ids, operations, figures and
 * the plural they bring) count as one group; different reasons stay apart; per rule, rows
 * checked of rows in scope, and why the others were not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { operation } from '../spec/queries.ts';
import { coverageOf, groupReasons, normalizeReason, pairKey } from './coverage.ts';
import type { CheckSummary } from './types.ts';

const operationArb = fc.constantFrom(...api.endpoints.map(operation));
const figureArb = fc.nat({ max: 100_000 });
/** Reason templates as the probe sources word them, with a hole for what varies per row. */
const templates: readonly ((value: string) => string)[] = [
  (v) => `no answer this rule judges among the ${v} exchanges of this operation`,
  (v) => `not sent: the operation timed out ${v} times in a row`,
  (v) => `--strict: ${v} lists no 404 (CONFLICT-ACTION-UNKNOWN-RESOURCE); its unknown-id probes only observe`,
  (v) => `the record ${v} is not listed`,
];
const holeArb = [
  figureArb.map(String),
  figureArb.map(String),
  operationArb,
  fc.uuid(),
] as const;

describe('groupReasons', () => {
  it('merges the reasons of one template whatever fills its hole, keeps templates apart, and counts every row', () => {
    const rowArb = fc.nat({ max: templates.length - 1 }).chain((t) => holeArb[t]!.map((value) => ({ t, text: templates[t]!(value) })));
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 40 }), (rows) => {
        const groups = groupReasons(rows.map((r) => r.text));
        expect(groups).toHaveLength(new Set(rows.map((r) => r.t)).size);
        expect(groups.reduce((n, g) => n + g.count, 0)).toBe(rows.length);
        for (const [t] of templates.entries()) {
          const mine = rows.filter((r) => r.t === t);
          if (!mine.length) continue;
          const texts = new Set(mine.map((r) => r.text));
          // Labelled with the text itself when every row says the same, else with placeholders.
          const label = texts.size === 1 ? mine[0]!.text : normalizeReason(mine[0]!.text);
          expect(groups).toContainEqual({ reason: label, count: mine.length });
        }
        // Most rows first.
        expect(groups.map((g) => g.count)).toEqual([...groups.map((g) => g.count)].sort((a, b) => b - a));
      }),
    );
  });

  it.each([
    ['a figure and its plural', ['among the 1 exchange of this operation', 'among the 12 exchanges of this operation'], [{ reason: 'among the N exchanges of this operation', count: 2 }]],
    ['the same text twice', ['needs --allow-destructive', 'needs --allow-destructive'], [{ reason: 'needs --allow-destructive', count: 2 }]],
    ['rule ids and flags are not figures', ['INPUT-400 needs --max-wait-s 0', 'INPUT-401 needs --max-wait-s 0'], [{ reason: 'INPUT-400 needs --max-wait-s 0', count: 1 }, { reason: 'INPUT-401 needs --max-wait-s 0', count: 1 }]],
    ['different words stay apart', ['no additional SFTP account discovered', 'no backup discovered', 'no backup discovered'], [{ reason: 'no backup discovered', count: 2 }, { reason: 'no additional SFTP account discovered', count: 1 }]],
    ['ids in any letter case', ['account 3BED17DC-49E4-47F4-BB1F-9BBB5C59083D is gone', 'account 2cbc56a6-7a96-4c99-aaad-7163c354e454 is gone'], [{ reason: 'account <id> is gone', count: 2 }]],
  ])('%s', (_, reasons, want) => {
    expect(groupReasons(reasons)).toEqual(want);
  });
});

describe('coverageOf', () => {
  it('counts per rule the rows checked of the rows in scope, names the skipped and the partly skipped', () => {
    const rows: CheckSummary[] = [
      { rule: 'ACK-202', operation: 'POST /sites/cdn/clear-cache', outcome: 'passed', exchanges: 3 },
      { rule: 'ACK-202', operation: 'POST /sites/{site_id}/reset-site', outcome: 'skipped', exchanges: 0, reason: 'needs --allow-destructive' },
      { rule: 'ACK-202', operation: 'PUT /sites/edge-caching/status', outcome: 'failed', exchanges: 2 },
      { rule: 'LIMIT-WP-COMMAND', operation: 'POST /sites/environments/{env_id}/run-wp-cli-command', outcome: 'passed', exchanges: 4 },
      { rule: 'BASE-PATH', operation: '*', outcome: 'skipped', exchanges: 0, reason: 'needs --allow-destructive' },
    ];
    const partly = new Map([[pairKey('LIMIT-WP-COMMAND', 'POST /sites/environments/{env_id}/run-wp-cli-command'), ['valid cases need --allow-destructive']]]);
    expect(coverageOf(rows, partly)).toEqual({
      checked: 3,
      total: 5,
      skipped: [{ reason: 'needs --allow-destructive', count: 2 }],
      rules: {
        'ACK-202': { checked: 2, inScope: 3, skipped: [{ operation: 'POST /sites/{site_id}/reset-site', reason: 'needs --allow-destructive' }], partly: [] },
        'LIMIT-WP-COMMAND': { checked: 1, inScope: 1, skipped: [], partly: [{ operation: 'POST /sites/environments/{env_id}/run-wp-cli-command', reason: 'valid cases need --allow-destructive' }] },
        'BASE-PATH': { checked: 0, inScope: 1, skipped: [{ operation: '*', reason: 'needs --allow-destructive' }], partly: [] },
      },
    });
  });
});
