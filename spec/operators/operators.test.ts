/**
 * The mutation operators give what they say: every wrong value is refused by the reading it rests
 * on (the generated request validators, the stated pattern and length, JSON itself), every valid
 * one is taken, every key variant differs from the key and is rebuilt by its shell expression, and
 * every operator names its reading, or why it is never used.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestValidators, type Validator } from '../../generated/validators.js';
import { api } from '../api.ts';
import { requestBodyArb } from '../arbitraries.ts';
import { formats } from '../formats.ts';
import { parsePattern, structuralDecider } from '../pattern-edges.ts';
import { WP_COMMAND_MAX_LENGTH, WP_COMMAND_PATTERN } from '../rules.ts';
import { bearerHeaderArb, carrierHeaderArb, carrierNameArb, keyVariants, namesKeyCarrier, sameShapeArb } from './credentials.ts';
import { operators } from './index.ts';
import { isNoJsonObject, malformedBodies, textOf } from './json.ts';
import { everyMember, patternBreaks } from './patterns.ts';
import { changedDigit, nearMissIds, paddedIdArb, unknownUuidArb } from './references.ts';
import { bodyPlaces, putAt, validAt, wrongValues } from './types.ts';

const SEED = { seed: 1106 };
const uuid = new RegExp(formats.uuid.pattern);

describe('the registry', () => {
  it('names every operator once, `family:what`, each with a reading and a rank; the unused ones say why', () => {
    const ids = operators.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operators) {
      expect(o.id, o.id).toMatch(/^[a-z-]+:[a-z-]+$/);
      expect(o.id.startsWith(`${o.family}:`) || o.family === 'length' || o.family === 'spelling' || o.family === 'carrier', o.id).toBe(true);
      expect(o.reading.length, o.id).toBeGreaterThan(5);
      expect(o.rank, o.id).toBeGreaterThanOrEqual(0);
    }
    const unused = operators.filter((o) => o.unused);
    expect(unused.length).toBeGreaterThan(0);
    for (const o of unused) expect(o.unused!.length, o.id).toBeGreaterThan(20);
  });
});

describe('wrong JSON types at every place', () => {
  const withBody = api.endpoints.filter((e) => e.body?.length);
  it.each(withBody.map((e) => [e.name, e] as const))('%s: each wrong value at each place, canonical or drawn, is refused by the request schema', (_, e) => {
    const validate = (requestValidators as Record<string, Validator>)[e.name]!;
    fc.assert(
      fc.property(requestBodyArb(e), fc.nat(), (body, pick) => {
        for (const place of bodyPlaces(e.body!)) {
          const applied = wrongValues(place, validAt(body, place));
          for (const a of applied) {
            const drawn = fc.sample(a.arbitrary, { seed: pick, numRuns: 1 })[0];
            for (const value of [a.first, drawn]) {
              const broken = putAt(body, place, value);
              if (!broken) continue;
              expect(validate(broken), `${a.operator.id} at ${a.what}: ${JSON.stringify(value)}`).toBe(false);
            }
          }
        }
        expect(validate(body)).toBe(true);
      }),
      { ...SEED, numRuns: 15 },
    );
  });

  it('puts a later item after valid copies of the first: the array grows to two, the first stays valid', () => {
    const e = api.endpoints.find((x) => x.name === 'updateDnsRecords')!;
    const place = bodyPlaces(e.body!).find((p) => p.path.join('.') === 'new_resource_records.last.value')!;
    const body = { type: 'A', name: 'a.example.com', ttl: 300, new_resource_records: [{ value: '192.0.2.1' }], removed_resource_records: [] };
    expect(putAt(body, place, 42)).toEqual({ ...body, new_resource_records: [{ value: '192.0.2.1' }, { value: 42 }] });
    expect(body.new_resource_records).toHaveLength(1);
  });

  it('never sends `null` for a field the document does not mark, nor a number written `300.0`', () => {
    for (const e of api.endpoints.filter((x) => x.body)) {
      for (const place of bodyPlaces(e.body!).filter((p) => !p.required)) {
        expect(wrongValues(place, undefined).filter((a) => a.first === null).map((a) => a.operator.id), `${e.name} ${place.path.join('.')}`).toEqual([]);
      }
    }
    expect(operators.find((o) => o.id === 'type:integer-written-with-fraction')?.unused).toBeDefined();
  });
});

describe('malformed JSON', () => {
  it('every text made from a valid body is not JSON, or JSON that is not an object', () => {
    fc.assert(
      fc.property(fc.constantFrom(...api.endpoints.filter((e) => e.body)).chain((e) => requestBodyArb(e)), fc.nat(), (body, pick) => {
        const json = JSON.stringify(body);
        for (const a of malformedBodies(true)) {
          for (const t of [a.first, fc.sample(a.arbitrary, { seed: pick, numRuns: 1 })[0]!]) {
            const text = textOf(t, json);
            // A syntax rewriting with nothing to rewrite leaves the text as it was: the probe source sends none then.
            if ('rewrite' in t && text === json) continue;
            expect(isNoJsonObject(text), `${a.operator.id}: ${text}`).toBe(true);
          }
        }
      }),
      { ...SEED, numRuns: 40 },
    );
  });
});

describe('pattern breaks', () => {
  const cases = [
    { name: 'wp_command', pattern: WP_COMMAND_PATTERN, maxLength: WP_COMMAND_MAX_LENGTH },
    { name: 'a UUID', pattern: formats.uuid.pattern },
    { name: 'a path beginning with /', pattern: formats['absolute-path'].pattern },
    { name: 'a partly shown value (ASM-EXP-INTERVAL-OUTSIDE)', pattern: '^[a-z0-9_]+$', valid: 'days_7' },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s: every value, canonical and drawn, is refused by the pattern (or the limit) under ECMAScript and the structure alike, and none ends in a line feed', (_, c) => {
    const regex = new RegExp(c.pattern, 'u');
    const structural = structuralDecider(parsePattern(c.pattern));
    const refused = (v: string) => !regex.test(v) || (c.maxLength !== undefined && [...v].length > c.maxLength);
    const breaks = patternBreaks(c);
    expect(breaks.length).toBeGreaterThan(2);
    for (const b of breaks) {
      const values = [b.first, ...fc.sample(b.arbitrary, { ...SEED, numRuns: 25 })];
      for (const v of values) {
        expect(refused(v), `${b.operator.id}: ${JSON.stringify(v.slice(0, 80))}`).toBe(true);
        if (c.maxLength === undefined || [...v].length <= c.maxLength) expect(structural(v), `${b.operator.id} (structure): ${JSON.stringify(v.slice(0, 80))}`).toBe(false);
        if (b.operator.id !== 'length:over-limit') expect(v.endsWith('\n'), b.operator.id).toBe(false);
      }
    }
  });

  it('breaks a shown value around it: the canonical forbidden character is in `days_7`\'s place', () => {
    const forbidden = patternBreaks({ pattern: '^[a-z0-9_]+$', valid: 'days_7' }).find((b) => b.operator.id === 'pattern:forbidden-char')!;
    expect(forbidden.first.slice(0, 5)).toBe('days_');
    expect(forbidden.first).toHaveLength(6);
  });

  it('wp_command: a prefix of any length up to the limit, then a character the pattern refuses, and the longest value ending in one', () => {
    const breaks = patternBreaks({ pattern: WP_COMMAND_PATTERN, maxLength: WP_COMMAND_MAX_LENGTH });
    const prefix = breaks.find((b) => b.operator.id === 'pattern:after-prefix')!;
    const lengths = fc.sample(prefix.arbitrary, { ...SEED, numRuns: 200 }).map((v) => v.length);
    expect(Math.max(...lengths)).toBeGreaterThan(1000);
    expect(Math.min(...lengths)).toBeLessThan(200);
    const atLimit = breaks.find((b) => b.operator.id === 'pattern:at-limit')!;
    expect([...atLimit.first]).toHaveLength(WP_COMMAND_MAX_LENGTH);
    expect(new RegExp(WP_COMMAND_PATTERN, 'u').test(atLimit.first.slice(0, -1))).toBe(true);
  });

  it('every member at once is a valid value: wp_command at its limit holding every character class, a path as short as it gets', () => {
    const wp = everyMember({ pattern: WP_COMMAND_PATTERN, maxLength: WP_COMMAND_MAX_LENGTH })!;
    expect([...wp]).toHaveLength(WP_COMMAND_MAX_LENGTH);
    expect(new RegExp(WP_COMMAND_PATTERN, 'u').test(wp)).toBe(true);
    for (const ch of "azAZ09_-./:=@' \t\n\r") expect(wp.includes(ch), JSON.stringify(ch)).toBe(true);
    expect(everyMember({ pattern: formats['absolute-path'].pattern })).toBe('/');
  });
});

describe('keys one step from the real one', () => {
  const keyArb = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/);

  it('are never the key, each is what it says, and the canonical ones sit at its end', () => {
    fc.assert(
      fc.property(keyArb, fc.nat(), (key, pick) => {
        for (const a of keyVariants(key, 'HSC_API_KEY')) {
          for (const v of [a.first, fc.sample(a.arbitrary, { seed: pick, numRuns: 1 })[0]!]) {
            expect(v.value, `${a.operator.id} ${v.how}`).not.toBe(key);
            expect(v.value.length).toBeGreaterThan(0);
          }
        }
        const [change, cut] = keyVariants(key, 'K');
        expect(change!.first.value.slice(0, -1)).toBe(key.slice(0, -1));
        expect(cut!.first.value).toBe(key.slice(0, -1));
        for (const other of fc.sample(sameShapeArb(key), { seed: pick, numRuns: 3 })) {
          expect(other).not.toBe(key);
          expect(other).toHaveLength(key.length);
        }
      }),
      { ...SEED, numRuns: 100 },
    );
  });

  it('each is rebuilt exactly by its shell expression from the key\'s variable (bash), so curl lines never print it', () => {
    const key = 'hsc_93d14cBA782545aca9b4d5418bc6048c';
    const variants = keyVariants(key, 'HSC_API_KEY').flatMap((a) => [a.first, ...fc.sample(a.arbitrary, { ...SEED, numRuns: 8 })]);
    const script = variants.map((v) => `printf '%s\\n' ${v.shell}`).join('\n');
    const out = execFileSync('bash', ['-c', script], { env: { ...process.env, HSC_API_KEY: key }, encoding: 'utf8' }).split('\n').slice(0, -1);
    expect(out).toEqual(variants.map((v) => v.value));
  });
});

describe('names keys are carried under', () => {
  it('every name the carrier arbitraries draw is one, in any joining and case; everyday names are not', () => {
    fc.assert(
      fc.property(fc.oneof(carrierNameArb, carrierHeaderArb, bearerHeaderArb), (name) => {
        expect(namesKeyCarrier(name)).toBe(true);
        expect(namesKeyCarrier(name.toUpperCase())).toBe(true);
      }),
      { ...SEED, numRuns: 200 },
    );
    for (const name of ['Content-Type', 'Accept', 'theme', 'X-Request-Id', 'keys', 'api']) expect(namesKeyCarrier(name), name).toBe(false);
  });
});

describe('ids that name nothing the key may read', () => {
  it('a near miss changes one hex digit of the real id and stays a UUID; padding makes it none; unknown ones are UUIDs', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(), (id, pick) => {
        const { first, arbitrary } = nearMissIds(id);
        for (const v of [first, fc.sample(arbitrary, { seed: pick, numRuns: 1 })[0]!]) {
          expect(uuid.test(v)).toBe(true);
          expect([...v].filter((c, i) => c !== id[i])).toHaveLength(1);
        }
        for (const padded of fc.sample(paddedIdArb(id), { seed: pick, numRuns: 3 })) expect(uuid.test(padded)).toBe(false);
        for (const u of fc.sample(unknownUuidArb, { seed: pick, numRuns: 3 })) expect(uuid.test(u)).toBe(true);
      }),
      { ...SEED, numRuns: 100 },
    );
    expect(changedDigit('0f8fad5b-d9cb-469f-a165-70867728950E', 35, 0)).toMatch(/[0-9A-F]$/);
  });
});
