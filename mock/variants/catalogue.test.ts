/** The catalogue is well formed: enough faults over every rule family, each naming where it shows. */
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { endpoint, inScope, rule } from '../../spec/queries.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogue, loadVariants, variantNamed } from './index.ts';

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

  it('loads variants of a module of ones own, and refuses in one line a fault it could not judge or a module that does not load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsc-load-'));
    const build = new URL('./build.ts', import.meta.url).href;
    const module = async (name: string, body: string) => {
      const file = join(dir, `${name}.mts`);
      await writeFile(file, `import { conformant, fault } from ${JSON.stringify(build)};\nexport const variants = [${body}];\n`);
      return file;
    };
    try {
      const good = await loadVariants(await module('good', "fault('own-fault', 'ERR-BODY', 'getSite', 'x', { respond: (_e, _r, a) => a }), conformant('own-ok', 'y', {})"));
      expect(good.map((v) => v.name)).toEqual(['own-fault', 'own-ok']);
      expect(variantNamed('own-fault')).toBe(good[0]);
      const refusals: [string, string, RegExp][] = [
        ['unknown-rule', "fault('own-a', 'AUTH-402', 'getSite', 'x', {})", /the fault 'own-a' names 'AUTH-402', no rule of the model/],
        ['no-rule', "{ name: 'own-b', kind: 'fault', endpoint: 'getSite', description: 'x', hooks: {} }", /the fault 'own-b' names no rule/],
        ['unknown-endpoint', "fault('own-c', 'AUTH-401', 'getSites', 'x', {})", /names the endpoint 'getSites', none of the model's/],
        ['out-of-scope', "fault('own-d', 'ACK-202', 'getSite', 'x', {})", /names ACK-202 on getSite, which the rule does not cover/],
        ['taken', "conformant('own-ok', 'again', {})", /the variant name 'own-ok' is taken/],
        ['syntax', "{ name: ;", /does not load: .*ERROR/],
      ];
      for (const [name, body, want] of refusals) {
        const error = await loadVariants(await module(name, body)).then(() => undefined, (e: Error) => e);
        expect(error?.message, name).toMatch(want);
        expect(error?.message.split('\n'), name).toHaveLength(1);
      }
      await expect(loadVariants(join(dir, 'none.mts'))).rejects.toThrow(/does not load/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
