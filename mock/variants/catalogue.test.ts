/** The catalogue is well formed: enough faults over every rule family, each naming where it shows. */
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { endpoint, inScope, rule } from '../../spec/queries.ts';
import { catalogue, variantNamed } from './index.ts';

const faults = catalogue.filter((v) => v.kind === 'fault');
const conformant = catalogue.filter((v) => v.kind === 'conformant');

/** Rules a fault can break: every rule the suite checks (BASE-PATH concerns the URL a user passes). */
const checkedRules = api.rules.map((r) => r.id).filter((id) => id !== 'BASE-PATH');

describe('the catalogue of mock variants', () => {
  it('has at least 50 faults and 10 conformant variants, with unique kebab-case names', () => {
    expect(faults.length).toBeGreaterThanOrEqual(50);
    expect(conformant.length).toBeGreaterThanOrEqual(10);
    const names = catalogue.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(faults.map((f) => [f.name, f] as const))('%s names a rule of the model and an endpoint in its scope', (_, f) => {
    expect(f.rule, 'a fault names the rule it breaks').toBeDefined();
    const r = rule(f.rule!);
    expect(f.endpoint, 'a fault names the endpoint where it shows').toBeDefined();
    expect(inScope(r, endpoint(f.endpoint!)), `${f.rule} applies to ${f.endpoint}`).toBe(true);
    expect(Object.keys(f.hooks).length).toBeGreaterThan(0);
  });

  it('covers every checked rule with a fault, and the big families on several endpoints', () => {
    const rulesHit = new Set(faults.map((f) => f.rule));
    expect(checkedRules.filter((id) => !rulesHit.has(id))).toEqual([]);
    const endpointsPerRule = (id: string) => new Set(faults.filter((f) => f.rule === id).map((f) => f.endpoint)).size;
    for (const id of ['AUTH-401', 'AUTH-BEARER', 'ERR-BODY', 'CONTENT-TYPE', 'ACK-202', 'OPID-SHAPE', 'OPID-KIND', 'RESPONSE-SCHEMA', 'READ-404', 'INPUT-400']) {
      expect([id, endpointsPerRule(id)]).toEqual([id, expect.any(Number)]);
      expect(endpointsPerRule(id), id).toBeGreaterThanOrEqual(3);
    }
  });

  it('conformant variants name no rule: they must pass', () => {
    for (const v of conformant) expect([v.name, v.rule, v.endpoint]).toEqual([v.name, undefined, undefined]);
  });

  it('finds variants by name and refuses unknown names', () => {
    expect(variantNamed(catalogue[0]!.name)).toBe(catalogue[0]);
    expect(() => variantNamed('no-such-variant')).toThrow(/no variant named 'no-such-variant'/);
  });
});
