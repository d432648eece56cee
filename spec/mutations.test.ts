/**
 * The mutation engine itself: each break changes one place of a copy and names it. (That the
 * validators reject each break for its reason is checked in generator/validators.test.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from './api.ts';
import { requestBodyArb, responseArb } from './arbitraries.ts';
import { endpoint } from './queries.ts';
import { jsonPointer, requestMutations, responseMutations } from './mutations.ts';

describe('mutations', () => {
  it.each(api.endpoints.map((e) => [e.name, e] as const))('%s: each break leaves the original alone and changes the value', (_, e) => {
    fc.assert(
      fc.property(responseArb(e), (body) => {
        const before = structuredClone(body);
        for (const mutation of responseMutations(e, body)) expect(mutation.apply(body), mutation.description).not.toEqual(body);
        expect(body).toEqual(before);
      }),
      { numRuns: 20 },
    );
  });

  it('names every documented field of a site as a possible missing property', () => {
    const e = endpoint('getSite');
    const [body] = fc.sample(responseArb(e, { extraProperties: false }), 1);
    const missing = responseMutations(e, body)
      .filter((m) => m.keyword === 'required' && m.instancePath === '/site')
      .map((m) => m.missingProperty);
    expect(missing).toEqual(['id', 'name', 'display_name', 'company_id', 'status', 'environments']);
  });

  it('in requests, only fields the document marks required may go missing', () => {
    const e = endpoint('searchAndReplace');
    const [body] = fc.sample(requestBodyArb(e), 1);
    expect(requestMutations(e, body!).filter((m) => m.keyword === 'required')).toEqual([]);
    const cdn = endpoint('clearCdnCache');
    const [cdnBody] = fc.sample(requestBodyArb(cdn), 1);
    expect(requestMutations(cdn, cdnBody!).filter((m) => m.keyword === 'required').map((m) => m.missingProperty)).toEqual(['environment_id', 'cdn_cache_id']);
  });

  it('escapes JSON Pointer steps (RFC 6901)', () => {
    expect(jsonPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(jsonPointer([])).toBe('');
  });
});
