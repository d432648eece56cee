/**
 * The WPA property's probe addresses: valid e-mail addresses in the model's format, every one
 * marked as the suite's and at a domain RFC 2606 reserves, and across the shapes addresses take.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestValidators } from '../../generated/validators.js';
import { formatRegex } from '../../spec/formats.ts';
import { probeAddressArb } from './wpa.ts';

const SEED = { seed: 1106 };

describe('probe addresses', () => {
  it('are valid e-mail addresses of the creation body, the suite\'s mark first, at a reserved example domain, at most 60 characters', () => {
    fc.assert(
      fc.property(probeAddressArb, (email) => {
        expect(email).toMatch(formatRegex.email);
        const valid = requestValidators.createWpAdminUser;
        expect(valid({ email, first_name: 'Ada', last_name: 'Lovelace' }), JSON.stringify(valid.errors)).toBe(true);
        expect(email.toLowerCase()).toMatch(/^hsc-probe-[0-9a-f]{10}[^@]*@example\.(com|org|net)$/);
        expect(email.length).toBeLessThanOrEqual(60);
      }),
      { ...SEED, numRuns: 300 },
    );
  });

  it('take the shapes addresses take: upper case, a `+tag`, a dot, the longest, and each domain', () => {
    const drawn = fc.sample(probeAddressArb, { ...SEED, numRuns: 300 });
    expect(drawn.some((e) => /[A-Z]/.test(e))).toBe(true);
    expect(drawn.some((e) => /\+[a-z0-9]+@/.test(e))).toBe(true);
    expect(drawn.some((e) => /^[^@]*\.[^@]*@/.test(e))).toBe(true);
    expect(drawn.some((e) => e.length === 60)).toBe(true);
    expect(new Set(drawn.map((e) => e.split('@')[1]))).toEqual(new Set(['example.com', 'example.org', 'example.net']));
  });
});
