/**
 * The DNS property's model and commands on their own: reading a list answer into a zone,
 * comparing zones, applying an update to the model, and which commands apply to which state.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../types.ts';
import { AddAndRemoveValues, AddValues, differences, DnsModel, leftovers, recordKey, RemoveValues, ttlMember, valuesOnly, zoneOf, type DnsReal, type Zone } from './dns.ts';

const listAnswer = (json: unknown, status = 200): Exchange => ({
  probe: {} as Exchange['probe'],
  response: { status, headers: {}, text: JSON.stringify(json), json, ms: 0 },
  throttled: 0,
});

const valueArb = fc.constantFrom('192.0.2.1', '192.0.2.2', '198.51.100.3', '203.0.113.4', 'v=spf1 -all');
const nameArb = fc.constantFrom('a.example.test', 'B.example.test', 'hsc-probe-0123456789.example.test', 'c.example.test.');
const typeArb = fc.constantFrom('A', 'txt', 'AAAA');
const recordArb = fc.record({ type: typeArb, name: nameArb, ttl: fc.nat(), resource_records: fc.array(valueArb.map((value) => ({ value })), { maxLength: 4 }) });

describe('zoneOf', () => {
  it('holds each value a list answer shows, under its record, whatever the order or the splitting into records', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 6 }), (records) => {
        const zone = zoneOf(listAnswer({ domain: { dns_records: records } }))!;
        for (const r of records) for (const { value } of r.resource_records) expect(zone.get(recordKey(r.type, r.name))?.has(value)).toBe(true);
        const shown = records.reduce((n, r) => n + new Set(r.resource_records.map((v) => `${recordKey(r.type, r.name)} ${v.value}`)).size, 0);
        expect([...zone.values()].reduce((n, v) => n + valuesOnly(v).length, 0)).toBeLessThanOrEqual(shown);
        // Each record's ttl, where it has values, is a member of its own.
        for (const r of records) if (r.resource_records.length && typeof r.ttl === 'number') expect(zone.get(recordKey(r.type, r.name))?.has(ttlMember(r.ttl))).toBe(true);
        // An empty record is no record: the document does not say whether one stays listed.
        for (const values of zone.values()) expect(values.size).toBeGreaterThan(0);
        expect(zoneOf(listAnswer({ domain: { dns_records: [...records].reverse() } }))).toEqual(zone);
      }),
    );
  });

  it('names records as DNS compares them: type and name case, and a final dot, aside', () => {
    expect(recordKey('a', 'WWW.Example.test.')).toBe(recordKey('A', 'www.example.test'));
    expect(recordKey('A', 'www.example.test')).not.toBe(recordKey('TXT', 'www.example.test'));
    expect(recordKey('A', 'www.example.test')).not.toBe(recordKey('A', 'www'));
  });

  it('knows a probe record by its label, whether a server lists it in full or relative to the zone', () => {
    const full = recordKey('A', 'hsc-probe-0123456789.staging.example.test');
    for (const listed of ['hsc-probe-0123456789', 'HSC-PROBE-0123456789.staging.example.test.', 'hsc-probe-0123456789.staging']) expect(recordKey('a', listed)).toBe(full);
    expect(recordKey('A', 'hsc-probe-9876543210.staging.example.test')).not.toBe(full);
  });

  it('is undefined for an answer that is no list', () => {
    for (const exchange of [listAnswer({ domain: {} }), listAnswer({ domain: { dns_records: [] } }, 500), listAnswer('text')]) expect(zoneOf(exchange)).toBeUndefined();
    expect(zoneOf(listAnswer({ domain: { dns_records: [] } }))).toEqual(new Map());
  });
});

const zoneArb: fc.Arbitrary<Zone> = fc
  .array(fc.tuple(fc.tuple(typeArb, nameArb).map(([t, n]) => recordKey(t, n)), fc.uniqueArray(valueArb, { minLength: 1, maxLength: 3 })), { maxLength: 5 })
  .map((entries) => new Map(entries.map(([k, v]) => [k, new Set(v)])));

describe('differences', () => {
  it('is empty exactly when the compared records hold the same values', () => {
    fc.assert(
      fc.property(zoneArb, zoneArb, fc.func(fc.boolean()), (a, b, compared) => {
        const found = differences(a, b, compared);
        const same = [...new Set([...a.keys(), ...b.keys()])]
          .filter((k) => compared(k))
          .every((k) => JSON.stringify([...(a.get(k) ?? [])].sort()) === JSON.stringify([...(b.get(k) ?? [])].sort()));
        expect(found.length === 0).toBe(same);
        expect(differences(a, a, compared)).toEqual([]);
        for (const d of found) {
          expect(compared(d.key)).toBe(true);
          for (const v of d.missing) expect([a.get(d.key)?.has(v), b.get(d.key)?.has(v) ?? false]).toEqual([true, false]);
          for (const v of d.extra) expect([a.get(d.key)?.has(v) ?? false, b.get(d.key)?.has(v)]).toEqual([false, true]);
        }
      }),
    );
  });
});

const POOL = ['192.0.2.1', '192.0.2.2', '198.51.100.3', '203.0.113.4', '203.0.113.5'];
const PROBES = [recordKey('A', 'hsc-probe-aaaaaaaaaa.z.test'), recordKey('A', 'hsc-probe-bbbbbbbbbb.z.test')];

/** A real side that applies each update to the model and records it, as a conformant target would show it. */
const recording = () => {
  const updates: { record: number; added: readonly string[]; removed: readonly string[] }[] = [];
  const real: DnsReal = {
    names: [],
    update: async (model, change) => {
      updates.push({ record: change.record, added: change.added, removed: change.removed });
      model.apply(change.record, change.added, change.removed);
    },
    read: async () => {},
  };
  return { real, updates };
};

describe('DnsModel and the update commands', () => {
  const startArb = fc.tuple(zoneArb, fc.subarray(POOL), fc.subarray(POOL)).map(([zone, r1, r2]) => {
    const m = new Map(zone);
    if (r1.length) m.set(PROBES[0]!, new Set(r1));
    if (r2.length) m.set(PROBES[1]!, new Set(r2));
    return m as Zone;
  });
  const commandArb = fc.oneof(
    fc.tuple(fc.nat(1), fc.integer({ min: 1, max: 3 }), fc.nat(4)).map(([r, n, o]) => new AddValues(r, n, o)),
    fc.tuple(fc.nat(1), fc.integer({ min: 1, max: 3 }), fc.nat(4)).map(([r, n, o]) => new RemoveValues(r, n, o)),
    fc.tuple(fc.nat(1), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.nat(4)).map(([r, a, d, o]) => new AddAndRemoveValues(r, a, d, o)),
  );

  it('an applicable update adds pool values the record lacks and removes values it holds; nothing else changes', async () => {
    await fc.assert(
      fc.asyncProperty(startArb, commandArb, async (start, command) => {
        const model = new DnsModel(start, PROBES, POOL);
        const before = model.valuesOf(command.record);
        const held = new Set(before);
        if (!command.check(model)) {
          // Not applicable only when there is nothing to add or nothing to remove.
          expect((command.add > 0 && POOL.every((v) => held.has(v))) || (command.remove > 0 && held.size === 0)).toBe(true);
          return;
        }
        const { real, updates } = recording();
        await command.run(model, real);
        const [update] = updates;
        expect(updates).toHaveLength(1);
        expect(update!.added.length).toBe(Math.min(command.add, POOL.filter((v) => !held.has(v)).length));
        expect(update!.removed.length).toBe(Math.min(command.remove, held.size));
        for (const v of update!.added) expect([POOL.includes(v), held.has(v)]).toEqual([true, false]);
        for (const v of update!.removed) expect(held.has(v)).toBe(true);
        expect(new Set(update!.added).size + new Set(update!.removed).size).toBe(update!.added.length + update!.removed.length);
        const want = new Set([...held].filter((v) => !update!.removed.includes(v)).concat(update!.added));
        expect(model.valuesOf(command.record)).toEqual(want);
        for (const [key, values] of start) if (key !== PROBES[command.record]) expect(model.zone.get(key)).toEqual(values);
        // Its text names the values it chose, once it ran.
        for (const v of [...update!.added, ...update!.removed]) expect(command.toString()).toContain(v);
      }),
    );
  });

  it('compares every record but the probe records of other runs and other probes', () => {
    const model = new DnsModel(new Map(), PROBES, POOL);
    expect(model.compared(PROBES[0]!)).toBe(true);
    expect(model.compared(recordKey('A', 'www.z.test'))).toBe(true);
    expect(model.compared(recordKey('TXT', '_dmarc.z.test'))).toBe(true);
    expect(model.compared(recordKey('A', 'hsc-probe-cccccccccc.z.test'))).toBe(false);
  });

  // ASM-DNS-OTHERS-UNCHANGED: what a DNS server rewrites by itself on any change is not the update's doing.
  it.each([
    ['SOA', false],
    ['soa', false],
    ['RRSIG', false],
    ['NSEC', false],
    ['NSEC3', false],
    ['A', true],
    ['MX', true],
    ['NS', true],
    ['CAA', true],
    ['NSEC3PARAM', true],
  ] as const)('a %s record of the zone is compared: %s', (type, compared) => {
    const model = new DnsModel(new Map(), PROBES, POOL);
    expect(model.compared(recordKey(type, 'z.test.'))).toBe(compared);
  });
});

describe('leftovers', () => {
  const ZONE = 'Z.example.test';
  const labelArb = fc.stringMatching(/^[0-9a-f]{10}$/);
  // Probe labels in any case and form; names that only look alike (not the first label, no dash) are the owner's.
  const probeNameArb = fc.tuple(labelArb, fc.constantFrom('hsc-probe-', 'HSC-Probe-'), fc.constantFrom('.z.example.test', '.Z.example.test.', '', '.www')).map(([hex, prefix, rest]) => `${prefix}${hex}${rest}`);
  const ownerNameArb = fc.tuple(labelArb, fc.constantFrom('www.hsc-probe-', 'hsc-probes', 'xhsc-probe-', 'hsc-probe.')).map(([hex, prefix]) => `${prefix}${hex}.z.example.test`);
  const entryArb = fc.record({
    type: fc.constantFrom('A', 'TXT', 'AAAA'),
    name: fc.oneof(probeNameArb, ownerNameArb),
    values: fc.uniqueArray(valueArb, { maxLength: 3 }),
  });

  it('are the values of every record whose first label is a probe label, named inside the zone, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 8 }), fc.boolean(), (entries, mineToo) => {
        const records = entries.map((e) => ({ type: e.type, name: e.name, ttl: 300, resource_records: e.values.map((value) => ({ value })) }));
        const mine = mineToo ? [`hsc-probe-aaaaaaaaaa.${ZONE}`] : [];
        if (mineToo) records.push({ type: 'A', name: 'hsc-probe-aaaaaaaaaa.z.example.test.', ttl: 300, resource_records: [{ value: '192.0.2.1' }] });
        const found = leftovers(listAnswer({ domain: { dns_records: records } }), mine, { zone: ZONE, probeType: 'A' })!;
        const isProbe = (name: string) => /^hsc-probe-/i.test(name);
        const expected = new Set(records.filter((r) => isProbe(r.name) && r.resource_records.length).map((r) => recordKey(r.type, r.name)));
        expect(new Set(found.map((l) => recordKey(l.type, l.name)))).toEqual(expected);
        for (const l of found) {
          expect(isProbe(l.name)).toBe(true);
          expect(l.name.toLowerCase().endsWith('.z.example.test')).toBe(true);
          const listed = records.filter((r) => recordKey(r.type, r.name) === recordKey(l.type, l.name)).flatMap((r) => r.resource_records.map((v) => v.value));
          expect(new Set(l.values)).toEqual(new Set(listed));
        }
        // The property's own come first, under the name it sent.
        if (mineToo) expect(found[0]).toMatchObject({ ours: true, name: mine[0], type: 'A' });
        expect(found.filter((l) => l.ours)).toHaveLength(mineToo ? 1 : 0);
      }),
    );
  });

  it('is undefined for an answer that is no list', () => {
    expect(leftovers(listAnswer({ domain: {} }), [], { zone: ZONE, probeType: 'A' })).toBeUndefined();
  });
});
