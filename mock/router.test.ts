/**
 * Routing by the tree of path segments (router.ts) against the plainest reading of the templates:
 * one regular expression per template, parameters as `[^/]+`, the template with the most literal
 * segments first. Paths are built from the templates' own segments, ids, empty and encoded
 * segments, so near misses and ambiguous fits come up as often as exact ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { escapeRegex } from '../spec/queries.ts';
import { closestEndpoints } from './closest-endpoints.ts';
import { matchRoute, missedRoute } from './router.ts';

interface Reference {
  readonly endpoint: Endpoint;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly literals: number;
}

const references: Reference[] = api.endpoints
  .map((endpoint) => {
    const segments = endpoint.path.split('/').slice(1);
    const names = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
    const source = segments.map((s) => (s.startsWith('{') ? '([^/]+)' : escapeRegex(s))).join('/');
    return { endpoint, regex: new RegExp(`^/${source}$`), names, literals: segments.length - names.length };
  })
  .sort((a, b) => b.literals - a.literals);

function referenceMatch(method: string, path: string) {
  for (const ref of references) {
    if (ref.endpoint.method !== method) continue;
    const match = ref.regex.exec(path);
    if (!match) continue;
    try {
      return { endpoint: ref.endpoint.name, params: Object.fromEntries(ref.names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)])) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const literalSegments = [...new Set(api.endpoints.flatMap((e) => e.path.split('/').filter((s) => s !== '' && !s.startsWith('{'))))];
const segment = fc.oneof(
  fc.constantFrom(...literalSegments),
  fc.uuid(),
  fc.constantFrom('', '%41', '%zz', 'a%2Fb', 'environments', 'sites', 'x'),
  fc.string({ maxLength: 6 }).map((s) => s.replace(/[/?#]/g, '')),
);
const method = fc.constantFrom(...new Set(api.endpoints.map((e) => e.method)), 'PUT', 'HEAD');

describe('the router', () => {
  it('routes every template filled with ids to its own endpoint', () => {
    for (const endpoint of api.endpoints) {
      const path = endpoint.path.replace(/\{[a-z_]+\}/g, '8f0c1a52-3f4e-4c7d-9a61-2b5e0d9c7a10');
      expect(matchRoute(endpoint.method, path)?.endpoint.name, `${endpoint.method} ${path}`).toBe(endpoint.name);
    }
  });

  it('routes a path it has routed before the same, by its own method, and no request can change what the next one gets', () => {
    const id = '8f0c1a52-3f4e-4c7d-9a61-2b5e0d9c7a10';
    for (const endpoint of api.endpoints) {
      const path = endpoint.path.replace(/\{[a-z_]+\}/g, id);
      const first = matchRoute(endpoint.method, path)!;
      const again = matchRoute(endpoint.method, path)!;
      expect({ endpoint: again.endpoint.name, params: again.params }).toEqual(referenceMatch(endpoint.method, path));
      expect(() => Object.assign(first.params, { injected: 'x' })).toThrow(TypeError);
      expect(again.params).not.toHaveProperty('injected');
      for (const other of ['GET', 'POST', 'PUT', 'DELETE']) {
        if (other === endpoint.method) continue;
        const found = matchRoute(other, path);
        expect(found && { endpoint: found.endpoint.name, params: found.params }, `${other} ${path}`).toEqual(referenceMatch(other, path));
      }
    }
  });

  it('routes paths too long to be kept as it routes short ones', () => {
    const long = 'a'.repeat(600);
    const path = `/sites/${long}`;
    expect(referenceMatch('GET', path)).toEqual({ endpoint: 'getSite', params: { site_id: long } });
    expect(matchRoute('GET', path)?.params).toEqual({ site_id: long });
    expect(matchRoute('GET', path)?.endpoint.name).toBe('getSite');
  });

  it('finds what the templates read one by one find, for every template with one segment changed', () => {
    const probes = [...literalSegments, '', '%41', '%zz', 'a%2Fb', '8f0c1a52-3f4e-4c7d-9a61-2b5e0d9c7a10'];
    for (const endpoint of api.endpoints) {
      const filled = endpoint.path.split('/').slice(1).map((s) => (s.startsWith('{') ? '8f0c1a52-3f4e-4c7d-9a61-2b5e0d9c7a10' : s));
      for (let at = 0; at <= filled.length; at++) {
        for (const probe of probes) {
          for (const path of [[...filled.slice(0, at), probe, ...filled.slice(at + 1)], [...filled.slice(0, at), probe, ...filled.slice(at)]]) {
            const text = `/${path.join('/')}`;
            const found = matchRoute(endpoint.method, text);
            expect(found && { endpoint: found.endpoint.name, params: found.params }, `${endpoint.method} ${text}`).toEqual(referenceMatch(endpoint.method, text));
          }
        }
      }
    }
  });

  it('finds what the templates read one by one find, for any path', () => {
    // A template filled, then some of its segments replaced, one dropped or one added: near misses.
    const nearTemplate = fc
      .record({
        endpoint: fc.constantFrom(...api.endpoints),
        swaps: fc.array(fc.tuple(fc.nat(6), segment), { maxLength: 2 }),
        cut: fc.option(fc.nat(6)),
        extra: fc.option(segment),
      })
      .map(({ endpoint, swaps, cut, extra }) => {
        const segments = endpoint.path.split('/').slice(1).map((s) => (s.startsWith('{') ? '8f0c1a52-3f4e-4c7d-9a61-2b5e0d9c7a10' : s));
        for (const [at, replacement] of swaps) segments[at % segments.length] = replacement;
        if (cut !== null) segments.splice(cut % segments.length, 1);
        if (extra !== null) segments.push(extra);
        return segments;
      });
    fc.assert(
      fc.property(method, fc.oneof(nearTemplate, fc.array(segment, { maxLength: 7 })), (m, segments) => {
        const path = `/${segments.join('/')}`;
        const found = matchRoute(m, path);
        expect(found && { endpoint: found.endpoint.name, params: found.params }, `${m} ${path}`).toEqual(referenceMatch(m, path));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a request no endpoint matched (missedRoute)', () => {
  it('names the methods its path takes under other methods, and the ranking of closestEndpoints', () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    fc.assert(
      fc.property(fc.constantFrom(...methods), fc.oneof(fc.constantFrom(...api.endpoints).map((e) => e.path.replace(/\{[a-z_]+\}/g, '8f0c1a52-3f4e-4c7d-9a61-2b5e0d9c7a10').split('/').slice(1)), fc.array(segment, { maxLength: 5 })), (m, segments) => {
        const path = `/${segments.join('/')}`;
        const miss = missedRoute(m, path);
        const takes = new Set(methods.filter((other) => other !== m && referenceMatch(other, path)));
        expect(new Set(miss.allowed), `${m} ${path}`).toEqual(takes);
        expect(miss.closest).toEqual(closestEndpoints(m, path));
      }),
      { numRuns: 300 },
    );
  });
});
