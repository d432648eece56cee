/**
 * Placeholders round-trip: any request text holding the key, a key derived from it (every near
 * miss the suite draws) or its Basic and base64 forms becomes a template with no secret in it,
 * and filling the template from the environment gives the text back, byte for byte; bash agrees
 * with the evaluator on the expressions. Text that is no placeholder this module writes (a shell
 * command in a tampered file) is refused, never run.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keySecret, Sanitizer } from '../../sanitize/sanitizer.ts';
import { keyVariants } from '../../spec/operators/credentials.ts';
import { variantSecret } from '../probes/near-miss.ts';
import { fill, PlaceholderError, templateOf, variablesOf } from './placeholders.ts';

const keyArb = fc.stringMatching(/^[A-Za-z0-9]{20,40}$/);
const SEED = { seed: 2031, numRuns: 150 };

describe('templateOf, then fill', () => {
  it('the key and every key derived from it, in a header, Basic credentials or a query, come back exactly; the template holds none of them', () => {
    let templated = 0;
    fc.assert(
      fc.property(
        keyArb.chain((key) => fc.tuple(fc.constant(key), fc.oneof(...keyVariants(key, 'HSC_API_KEY').map((v) => v.arbitrary)))),
        fc.constantFrom('bearer', 'basic-user', 'basic-password', 'query', 'plain'),
        fc.string({ maxLength: 12 }),
        ([key, variant], form, around) => {
          const sanitizer = new Sanitizer();
          sanitizer.add(keySecret(key, 'HSC_API_KEY'));
          sanitizer.add(variantSecret(variant));
          const v = variant.value;
          const text = {
            bearer: `Bearer ${v}`,
            'basic-user': `Basic ${Buffer.from(`${v}:`).toString('base64')}`,
            'basic-password': `Basic ${Buffer.from(`:${v}`).toString('base64')}`,
            query: `/v2/validate?api_key=${encodeURIComponent(v)}&x=${encodeURIComponent(around)}`,
            plain: `${around}${v}${around}`,
          }[form];
          const template = templateOf(text, sanitizer);
          // Basic credentials of a derived key: the sanitizer at times finds the real key's base64 form
          // overlapping it, and no expression rebuilds the merged span (the curl line shows a marker
          // there too): not replayable, said so. Every other form always has its expression.
          if (template === undefined) {
            expect(form).toMatch(/^basic-/);
            return;
          }
          templated++;
          expect(template).not.toContain(v);
          expect(template).not.toContain(key);
          expect(fill(template, { HSC_API_KEY: key })).toBe(text);
        },
      ),
      SEED,
    );
    // A template left out is the exception.
    expect(templated).toBeGreaterThan(SEED.numRuns * 0.7);
  });

  it('text with no secret stays itself, a `$` written `$$`', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const template = templateOf(text, new Sanitizer())!;
        expect(template).toBe(text.replaceAll('$', () => '$$'));
        expect(fill(template, {})).toBe(text);
      }),
      SEED,
    );
  });

  it('bash agrees with the evaluator on every expression the near misses write (one bash run over 60 drawn keys)', () => {
    let bash = true;
    try {
      execFileSync('bash', ['-c', 'true']);
    } catch {
      bash = false;
    }
    if (!bash) return;
    const drawn = fc.sample(keyArb.chain((key) => fc.tuple(fc.constant(key), fc.oneof(...keyVariants(key, 'HSC_API_KEY').map((v) => v.arbitrary)))), { seed: 2031, numRuns: 60 });
    // Each key in its own variable: one script prints every expression, NUL between them.
    const env = Object.fromEntries(drawn.map(([key], i) => [`K${i}`, key]));
    const script = drawn.map(([, v], i) => `printf '%s\\0' ${v.shell.replaceAll('HSC_API_KEY', `K${i}`)}`).join('\n');
    const byBash = execFileSync('bash', ['-c', script], { env: { PATH: process.env.PATH, ...env } }).toString().split('\0').slice(0, -1);
    expect(byBash).toEqual(drawn.map(([, v]) => v.value));
    drawn.forEach(([key, variant], i) => {
      const sanitizer = new Sanitizer();
      sanitizer.add(keySecret(key, 'HSC_API_KEY'));
      sanitizer.add(variantSecret(variant));
      expect(fill(templateOf(variant.value, sanitizer)!, { HSC_API_KEY: key })).toBe(byBash[i]);
    });
  });
});

describe('fill refuses what it did not write', () => {
  it.each([
    ['a command', '$(rm -rf ~)', /a format other than|expected `\$\(printf `/],
    ['another stage', '$(printf %s "${HSC_K}" | sh)', /a stage other than/],
    ['an unset variable', '${HSC_NOT_SET}', /needs the variable HSC_NOT_SET, which is not set/],
    ['a variable this tool never writes (the rest of the environment stays unread)', 'Bearer ${HOME}', /reads HOME, which is no variable this tool writes/],
    ['one inside an expression', '${HSC_K:0:2}$(printf %s "$CI_TOKEN" | base64)', /reads CI_TOKEN, which is no variable/],
    ['a lone dollar', 'a $ b', /a `\$` that begins no placeholder/],
    ['an open quote', '$(printf %s "${HSC_K}', /a quote that does not close|expected/],
  ])('%s', (_, template, want) => {
    const env = { HSC_K: 'key', HOME: '/root', CI_TOKEN: 'secret' };
    expect(() => fill(template, env)).toThrow(PlaceholderError);
    expect(() => fill(template, env)).toThrow(want);
  });

  it('names the variables a template reads', () => {
    expect(variablesOf('Bearer ${HSC_API_KEY:0:3}x$(printf %s "${HSC_OTHER_API_KEY}" | tr a-zA-Z A-Za-z) $$HOME')).toEqual(['HSC_API_KEY', 'HSC_OTHER_API_KEY', 'HOME']);
  });
});
