/** The memos' map: never more than its limit, full means starting over, a key set again is no new entry. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.ts';

describe('BoundedMap', () => {
  it('holds at most its limit, and always the entry just set', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }), (limit, keys) => {
        const map = new BoundedMap<number, number>(limit);
        for (const key of keys) {
          map.set(key, key * 2);
          expect(map.size).toBeLessThanOrEqual(limit);
          expect(map.get(key)).toBe(key * 2);
        }
      }),
    );
  });

  it('setting a key it holds changes the value and keeps the rest, even when full', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([...map]).toEqual([['a', 3], ['b', 2]]);
    map.set('c', 4);
    expect([...map]).toEqual([['c', 4]]);
  });
});

describe('BoundedMap.getOrAdd', () => {
  it('makes a value once per key, keeps undefined as a value, and stays within its limit', () => {
    const map = new BoundedMap<string, number | undefined>(2);
    const made: string[] = [];
    const make = (key: string) => (made.push(key), key === 'none' ? undefined : key.length);
    expect(map.getOrAdd('abc', make)).toBe(3);
    expect(map.getOrAdd('abc', make)).toBe(3);
    expect(map.getOrAdd('none', make)).toBeUndefined();
    expect(map.getOrAdd('none', make)).toBeUndefined();
    expect(made).toEqual(['abc', 'none']);
    expect(map.getOrAdd('x', make)).toBe(1);
    expect(map.size).toBeLessThanOrEqual(2);
  });
});
