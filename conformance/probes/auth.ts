/**
 * AUTH-401, AUTH-BEARER and AUTH-SCHEME-CASE on every endpoint (§Authentication 1–2: "Every
 * endpoint requires the header `Authorization: Bearer <API_KEY>`"; "A missing or invalid key
 * yields HTTP 401"). Invalid keys include near misses of the real one (near-miss.ts) and, with a
 * second company, its key on this company's data (401, or 404: data it may not read). Reads name the tenant's real data; requests to mutating and destructive
 * endpoints name only unknown ids, so a server that ignores credentials still changes nothing,
 * and are otherwise well formed, so a server that validates before authenticating still says 401. With --allow-destructive, the
 * scheme-case probes send valid requests instead (a stronger proof the key was accepted) where
 * the request kit's safety rules allow one, except removals, whose ids INPUT-ACCEPT and the
 * STATE-* properties consume.
 */
import fc from 'fast-check';
import { api } from '../../spec/api.ts';
import type { Endpoint } from '../../spec/model.ts';
import { isRead } from '../../spec/queries.ts';
import type { Probe, ProbeContext, ProbeSource, Skip } from '../types.ts';
import { refusal, removedBy, unknownPath, validRequests } from './inputs.ts';
import { nearMissKeys } from './near-miss.ts';
import { basicAuthorization, bearer, drawOne, makeProbe, streamSeed, type Credentials, type RequestParts } from './request.ts';

/** A request to `endpoint` whose only fault may be its credentials (reads), or a refused one. */
type Described = RequestParts & { readonly why?: string };

function baseRequest(context: ProbeContext, endpoint: Endpoint): Described {
  const seed = streamSeed(context.seed, 'auth', endpoint.name);
  if (!isRead(endpoint)) return refusal(endpoint, seed);
  const valid = validRequests(endpoint, context.target.main, seed, 1);
  if (valid.ok) return valid.value[0]!;
  // A read whose id was not discovered: an unknown id still tests the credentials.
  const path = unknownPath(endpoint, streamSeed(seed, 'unknown'));
  const fallback = validRequests(endpoint, context.target.main, seed, 1, { path });
  if (!fallback.ok) throw new Error(`no request for ${endpoint.name}: ${fallback.reason}`);
  return { ...fallback.value[0]!, why: 'unknown path id' };
}

/**
 * With --allow-destructive, a valid request for the scheme-case probes, where the kit's safety
 * rules let one be built; never a removal, whose ids INPUT-ACCEPT and the STATE-* properties consume.
 */
function schemeCaseRequest(context: ProbeContext, endpoint: Endpoint, base: Described): Described {
  const { target } = context;
  if (isRead(endpoint) || !target.allowDestructive || removedBy(endpoint)) return base;
  const valid = validRequests(endpoint, target.main, streamSeed(context.seed, 'auth-scheme', endpoint.name), 1, { allowLive: target.allowLive === true });
  return valid.ok ? { ...valid.value[0]!, why: 'a valid request' } : base;
}

const invalidKeyArb = fc.noBias(fc.stringMatching(/^[0-9a-f]{32}$/)).map((hex) => `hsc-invalid-${hex}`);

export const authProbes: ProbeSource = (context) => {
  const { target } = context;
  const key = target.main.apiKey;
  const invalidKey = drawOne(invalidKeyArb, streamSeed(context.seed, 'auth', 'invalid-key'));
  const nearMisses = nearMissKeys(key);
  const probes: Probe[] = [];
  const skipped: Skip[] = []; // every endpoint can be probed: reads fall back to unknown ids
  for (const endpoint of api.endpoints) {
    const base = baseRequest(context, endpoint);
    const probe = (rule: Probe['rule'], expect: Probe['expect'], title: string, credentials: Credentials, parts: Described = base) => {
      const { why, ...request } = parts;
      probes.push(makeProbe(target, rule, expect, why ? `${title} (${why})` : title, { endpoint, credentials, ...request }));
    };

    probe('AUTH-401', 'unauthorized', 'no Authorization header', { kind: 'none' });
    probe('AUTH-401', 'unauthorized', 'an invalid API key', bearer(invalidKey));
    probe('AUTH-401', 'unauthorized', 'empty bearer credentials (`Bearer `)', { kind: 'authorization', value: 'Bearer ' });
    probe('AUTH-401', 'unauthorized', 'the scheme alone (`Bearer`)', { kind: 'authorization', value: 'Bearer' });
    // Keys that are almost right: a server comparing a prefix, the first characters or without case takes them.
    for (const miss of nearMisses) probe('AUTH-401', 'unauthorized', `the real key with ${miss.how}`, bearer(miss.value));
    // Another company's key is a key, but not this company's: 401, or 404 for data it may not read.
    if (target.other && isRead(endpoint) && endpoint.pathParams.length && !base.why) {
      probe('AUTH-401', 'foreign-key', "the other company's key on this company's data", bearer(target.other.apiKey));
    }

    probe('AUTH-BEARER', 'unauthorized', 'the real key as `Basic` credentials', { kind: 'authorization', value: basicAuthorization(key) });
    probe('AUTH-BEARER', 'unauthorized', 'the real key under the `Token` scheme', { kind: 'authorization', value: `Token ${key}` });
    probe('AUTH-BEARER', 'unauthorized', 'the real key in `?api_key=`', { kind: 'query', name: 'api_key', key });
    probe('AUTH-BEARER', 'unauthorized', 'the real key in `?apiKey=`', { kind: 'query', name: 'apiKey', key });
    probe('AUTH-BEARER', 'unauthorized', 'the real key in an `X-API-Key` header', { kind: 'header', name: 'X-API-Key', key });

    // RFC 7235 §2.1: the scheme is case-insensitive; anything but 401 shows the key was taken.
    const schemeCase = schemeCaseRequest(context, endpoint, base);
    for (const scheme of ['bearer', 'BEARER']) {
      probe('AUTH-SCHEME-CASE', 'observe', `the real key under the scheme \`${scheme}\`: not 401`, bearer(key, scheme), schemeCase);
    }
  }
  return { probes, skipped };
};
