/**
 * The store under a long run: the log of acknowledged operations keeps the newest records only
 * (oldest dropped first, counted), and data a client grows stays consistent with its indexes.
 * Behaviour through HTTP is in state.test.ts; these tests drive the store directly, where
 * thousands of records cost nothing.
 */
import { describe, expect, it } from 'vitest';
import { MAX_KEPT_OPERATIONS } from './policy.ts';
import { Store, type OperationRecord } from './store.ts';

const operation = (n: number): OperationRecord => ({
  operation_id: `environment:run-wp-cli-command-${n}`,
  kind: 'environment:run-wp-cli-command',
  companyId: 'company',
  target: 'env',
  details: { n },
});

/** Records operations 1..count and returns their numbers as the log keeps them. */
function recordMany(store: Store, count: number): number[] {
  for (let n = 1; n <= count; n++) store.record(operation(n));
  return store.operations.map((o) => o.details.n as number);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the operation log', () => {
  const cases: readonly [string, { given: { bound: number; recorded: number }; want: { kept: number[]; dropped: number } }][] = [
    ['below the bound', { given: { bound: 5, recorded: 3 }, want: { kept: [1, 2, 3], dropped: 0 } }],
    ['exactly at the bound', { given: { bound: 5, recorded: 5 }, want: { kept: range(1, 5), dropped: 0 } }],
    ['one past the bound', { given: { bound: 5, recorded: 6 }, want: { kept: range(2, 6), dropped: 1 } }],
    ['past the bound several times over', { given: { bound: 5, recorded: 23 }, want: { kept: range(19, 23), dropped: 18 } }],
    ['a bound of one', { given: { bound: 1, recorded: 4 }, want: { kept: [4], dropped: 3 } }],
    ['a bound of zero', { given: { bound: 0, recorded: 4 }, want: { kept: [], dropped: 4 } }],
  ];
  it.each(cases)('%s: keeps the newest, oldest first, and counts the dropped', (_, { given, want }) => {
    const store = new Store({ maxOperations: given.bound });
    expect(recordMany(store, given.recorded)).toEqual(want.kept);
    expect(store.droppedOperations).toBe(want.dropped);
    // What "nothing was acknowledged" is checked on keeps counting past the bound.
    expect(store.acknowledgedOperations).toBe(given.recorded);
  });

  it(`keeps ${MAX_KEPT_OPERATIONS} by default`, () => {
    const store = new Store();
    const kept = recordMany(store, MAX_KEPT_OPERATIONS + 7);
    expect(kept).toHaveLength(MAX_KEPT_OPERATIONS);
    expect(kept[0]).toBe(8);
    expect(kept.at(-1)).toBe(MAX_KEPT_OPERATIONS + 7);
    expect(store.droppedOperations).toBe(7);
  });

  it('serves the readers of the array: snapshot and JSON', () => {
    const store = new Store({ maxOperations: 2 });
    recordMany(store, 3);
    const { operations } = store.snapshot('company') as { operations: OperationRecord[] };
    expect(operations.map((o) => o.details.n)).toEqual([2, 3]);
    expect(JSON.parse(JSON.stringify(store.operations))).toEqual(operations);
  });

  it.each([-1, 1.5, Number.NaN])('refuses a bound of %s', (bound) => {
    expect(() => new Store({ maxOperations: bound })).toThrow(RangeError);
  });
});

describe('site-admin users', () => {
  const setup = () => {
    const store = new Store();
    const company = store.companies[0]!;
    return { store, env: store.environment(company.id, company.sites[0]!.environments[0]!.id)! };
  };

  it('are found in any letter case and kept as sent, each once', () => {
    const { store, env } = setup();
    const before = [...env.wpAdminEmails];
    expect(store.addWpAdmin(env, 'New.Admin@Example.TEST')).toBe(true);
    expect(store.addWpAdmin(env, 'new.admin@example.test')).toBe(false);
    expect(store.hasWpAdmin(env, 'NEW.ADMIN@EXAMPLE.TEST')).toBe(true);
    expect(env.wpAdminEmails).toEqual([...before, 'New.Admin@Example.TEST']);
  });

  it('of the fixtures are found too', () => {
    const { store, env } = setup();
    for (const email of env.wpAdminEmails) expect(store.hasWpAdmin(env, email.toUpperCase()), email).toBe(true);
  });
});
