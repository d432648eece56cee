/**
 * AUTH-401, AUTH-BEARER and AUTH-SCHEME-CASE on every endpoint (§Authentication 1–2: "Every
 * endpoint requires the header `Authorization: Bearer <API_KEY>`"; "A missing or invalid key
 * yields HTTP 401"), drawn from the credential operators (spec/operators/credentials.ts):
 * - AUTH-401: keys one step from the real one (a character changed at any position, cut at any
 *   length, extended, neighbours swapped, letters in the other case, another key of the same
 *   shape), no key, an unknown key, the scheme alone, and with a second company its key on this
 *   company's data (401, or 404: data it may not read);
 * - AUTH-BEARER: the real key anywhere but `Authorization: Bearer`: a header of its own, a cookie,
 *   the whole `Authorization` value, another scheme, a second token after it, and query parameters
 *   (only on a target whose URLs the user's own logs record: loopback, or --allow-key-in-url);
 * - AUTH-SCHEME-CASE: the scheme's valid spellings (RFC 9110 §11.1 case, §11.4 `1*SP`), which
 *   must not be answered 401.
 * Each operator's canonical value is sent first, then values drawn from it. Reads name the
 * tenant's real data; requests to mutating and destructive endpoints name only unknown ids, so a
 * server that ignores credentials still changes nothing, and are otherwise well formed, so a
 * server that validates before authenticating still says 401. With --allow-destructive, the
 * scheme-spelling probes send valid requests instead (a stronger proof the key was accepted)
 * where the request kit's safety rules allow one, except removals, whose ids INPUT-ACCEPT and the
 * STATE-* properties consume.
 */
import fc from 'fast-check';
import type { Secret } from '../../sanitize/sanitizer.ts';
import { api } from '../../spec/api.ts';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import {
  BEARER_HEADERS,
  bearerHeaderArb,
  carrierHeaderArb,
  carrierNameArb,
  credentialOperators as ops,
  keyVariants,
  otherSchemeArb,
  sameShapeArb,
  schemeCaseArb,
  schemeSpacesArb,
  secondTokenArb,
} from '../../spec/operators/credentials.ts';
import type { Applied } from '../../spec/operators/index.ts';
import { isRead } from '../../spec/queries.ts';
import type { Expectation, Probe, ProbeContext, ProbeSource, Skip } from '../types.ts';
import { refusal, removedBy, unknownPath, validRequests } from './inputs.ts';
import { variantSecret } from './near-miss.ts';
import { depthOf, operatorProbes, tagged } from './operated.ts';
import { basicAuthorization, bearer, drawOne, generatedProbe, makeProbe, streamSeed, type Credentials, type RequestParts } from './request.ts';

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
 * With --allow-destructive, a valid request for the scheme-spelling probes, where the kit's safety
 * rules let one be built; never a removal, whose ids INPUT-ACCEPT and the STATE-* properties consume.
 */
function schemeCaseRequest(context: ProbeContext, endpoint: Endpoint, base: Described): Described {
  const { target } = context;
  if (isRead(endpoint) || !target.allowDestructive || removedBy(endpoint)) return base;
  const valid = validRequests(endpoint, target.main, streamSeed(context.seed, 'auth-scheme', endpoint.name), 1, { allowLive: target.allowLive === true });
  return valid.ok ? { ...valid.value[0]!, why: 'a valid request' } : base;
}

/** Credentials to send, what they are, and the keys derived from the real one they carry. */
interface Sent {
  readonly title: string;
  readonly credentials: Credentials;
  readonly secrets?: readonly Secret[];
}

const invalidKeyArb = fc.noBias(fc.stringMatching(/^[0-9a-f]{32}$/)).map((hex) => `hsc-invalid-${hex}`);

/** Canonical and drawn at once, as an operator applied to the credentials. */
const applied = (operator: Applied<Sent>['operator'], first: Sent, arbitrary: fc.Arbitrary<Sent> = fc.constant(first)): Applied<Sent> => ({ operator, what: 'the credentials', first, arbitrary });

/** AUTH-401: keys that are invalid here. */
function invalidKeys(context: ProbeContext, key: string, foreign: boolean): Applied<Sent>[] {
  const seed = streamSeed(context.seed, 'auth', 'invalid-key');
  const random = drawOne(invalidKeyArb, seed);
  const variants = keyVariants(key, 'HSC_API_KEY').map((a) => {
    const sent = (v: (typeof a)['first']): Sent => ({ title: `the real key with ${v.how}`, credentials: bearer(v.value), secrets: [variantSecret(v)] });
    return applied(a.operator, sent(a.first), a.arbitrary.map(sent));
  });
  const sameShape = (k: string): Sent => ({ title: 'another key of the same length and alphabet', credentials: bearer(k) });
  return [
    ...variants,
    applied(ops.sameShape, sameShape(drawOne(sameShapeArb(key), streamSeed(seed, 'same-shape'))), sameShapeArb(key).map(sameShape)),
    applied(ops.random, { title: 'an invalid API key', credentials: bearer(random) }),
    applied(ops.none, { title: 'no Authorization header', credentials: { kind: 'none' } }),
    applied(ops.empty, { title: 'empty bearer credentials (`Bearer `)', credentials: { kind: 'authorization', value: 'Bearer ' } }, fc.constantFrom<Sent>(
      { title: 'empty bearer credentials (`Bearer `)', credentials: { kind: 'authorization', value: 'Bearer ' } },
      { title: 'the scheme alone (`Bearer`)', credentials: { kind: 'authorization', value: 'Bearer' } },
    )),
    ...(foreign && context.target.other ? [applied(ops.foreign, { title: "the other company's key on this company's data", credentials: bearer(context.target.other.apiKey) })] : []),
  ];
}

/**
 * The names keys are most often carried under, sent on every endpoint before drawn ones: RFC
 * 6750 §2.3's `access_token`, and the spellings API gateways and frameworks default to.
 */
const CONVENTIONAL = { names: ['access_token', 'api_key', 'apiKey', 'token'], headers: ['X-API-Key', 'X-Auth-Token', 'Api-Key'] } as const;

/** AUTH-BEARER: the real key anywhere but `Authorization: Bearer <key>`. */
function elsewhere(context: ProbeContext, key: string): Applied<Sent>[] {
  const inHeader = (name: string): Sent => ({ title: `the real key in a \`${name}\` header`, credentials: { kind: 'header', name, key } });
  const bearerIn = (name: string): Sent => ({ title: `\`Bearer <key>\` in a \`${name}\` header`, credentials: { kind: 'header', name, key: `Bearer ${key}` } });
  const inCookie = (name: string): Sent => ({ title: `the real key in a \`${name}\` cookie`, credentials: { kind: 'cookie', name, key } });
  const inQuery = (name: string): Sent => ({ title: `the real key in \`?${name}=\``, credentials: { kind: 'query', name, key } });
  const under = (scheme: string): Sent => ({ title: `the real key under the \`${scheme}\` scheme`, credentials: { kind: 'authorization', value: `${scheme} ${key}` } });
  const second = (token: string): Sent => ({ title: `the real key followed by a second token (\`${token}\`)`, credentials: { kind: 'authorization', value: `Bearer ${key} ${token}` } });
  const basic: Sent = { title: 'the real key as `Basic` credentials', credentials: { kind: 'authorization', value: basicAuthorization(key) } };
  // The conventional headers, cookies and query parameters go all at once first (`everywhereElse`);
  // one at a time they are drawn, names beyond the conventional ones included.
  const drawnOnly = (op: Applied<Sent>['operator'], drawn: fc.Arbitrary<Sent>): Applied<Sent> => ({ ...applied(op, drawOne(drawn, 0), drawn), drawnOnly: true });
  return [
    applied(ops.noScheme, { title: 'the real key as the whole `Authorization` value', credentials: { kind: 'authorization', value: key } }),
    applied(ops.otherScheme, basic, fc.oneof(fc.constant(basic), otherSchemeArb.map(under))),
    applied(ops.otherScheme, under('Token'), otherSchemeArb.map(under)),
    applied(ops.secondToken, second('extra'), secondTokenArb.map(second)),
    drawnOnly(ops.header, fc.oneof(carrierHeaderArb.map(inHeader), bearerHeaderArb.map(bearerIn))),
    // A URL lands in access logs: the real key goes into one only where those are the user's own.
    ...(context.target.keyInUrl ? [drawnOnly(ops.query, carrierNameArb.map(inQuery))] : []),
    drawnOnly(ops.cookie, carrierNameArb.map(inCookie)),
  ];
}

/** AUTH-SCHEME-CASE: the scheme's valid spellings. */
function spellings(key: string): Applied<Sent>[] {
  const cased = (scheme: string): Sent => ({ title: `the real key under the scheme \`${scheme}\`: not 401`, credentials: bearer(key, scheme) });
  const spaced = (n: number): Sent => ({ title: `the real key after ${n} spaces: not 401`, credentials: { kind: 'authorization', value: `Bearer${' '.repeat(n)}${key}` } });
  return [
    // Mixed case first: a server that knows only some spellings (`Bearer`, `bearer`) refuses it.
    applied(ops.schemeCase, cased('bEARER'), fc.oneof(fc.constantFrom(cased('bearer'), cased('BEARER')), schemeCaseArb.map(cased))),
    applied(ops.schemeSpaces, spaced(2), schemeSpacesArb.map(spaced)),
  ];
}

/**
 * AUTH-BEARER's most decisive probe: the key in every conventional place but `Authorization` at
 * once (query parameters only where a URL may hold it). None is the document's, so a conformant
 * server answers 401; one that takes any answers otherwise, and shrinking (the places are a
 * subarray that shrinks) names the place it took.
 */
function everywhereElse(context: ProbeContext, key: string): { readonly all: Carrier[]; readonly title: (carriers: readonly Carrier[]) => string } {
  const all: Carrier[] = [
    ...CONVENTIONAL.headers.map((name): Carrier => ({ kind: 'header', name, key })),
    ...BEARER_HEADERS.map((name): Carrier => ({ kind: 'header', name, key: `Bearer ${key}` })),
    ...CONVENTIONAL.names.map((name): Carrier => ({ kind: 'cookie', name, key })),
    ...(context.target.keyInUrl ? CONVENTIONAL.names.map((name): Carrier => ({ kind: 'query', name, key })) : []),
  ];
  const where = (c: Carrier) => (c.kind === 'query' ? `?${c.name}=` : c.kind === 'cookie' ? `cookie ${c.name}` : c.name);
  return { all, title: (carriers) => `the real key in ${carriers.length === 1 ? where(carriers[0]!) : `${carriers.length} places at once (${carriers.map(where).join(', ')})`}, no Authorization header` };
}

type Carrier = Extract<Credentials, { kind: 'query' | 'header' | 'cookie' }>;

/** Why the key in a query parameter is not sent to a target of someone else's (its access logs keep URLs). */
export const KEY_NOT_IN_URL = 'the key in a query parameter not sent: a URL lands in access logs (--allow-key-in-url sends it)';

export const authProbes: ProbeSource = (context) => {
  const { target } = context;
  const key = target.main.apiKey;
  const probes: Probe[] = [];
  // Every endpoint can be probed (reads fall back to unknown ids); only the key in a URL may be held back.
  const skipped: Skip[] = [];
  const depth = depthOf(context.runs, 0.04);
  for (const endpoint of api.endpoints) {
    const base = baseRequest(context, endpoint);
    const seed = streamSeed(context.seed, 'auth', endpoint.name);
    const send = (rule: RuleId, expect: Expectation, list: readonly Applied<Sent>[], parts: Described, stream: string, drawn = depth) => {
      const { why, ...request } = parts;
      probes.push(
        ...operatorProbes(list, (_op, sent) => {
          const made = makeProbe(target, rule, expect, why ? `${sent.title} (${why})` : sent.title, { endpoint, credentials: sent.credentials, ...request });
          return sent.secrets ? { ...made, secrets: sent.secrets } : made;
        }, { seed: streamSeed(seed, stream), depth: drawn }),
      );
    };
    // Another company's key is a key, but not this company's: 401, or 404 for data it may not read.
    const foreign = isRead(endpoint) && endpoint.pathParams.length > 0 && !base.why;
    const keys = invalidKeys(context, key, foreign);
    send('AUTH-401', 'unauthorized', keys.filter((a) => a.operator !== ops.foreign), base, '401');
    const other = keys.find((a) => a.operator === ops.foreign);
    if (other) send('AUTH-401', 'foreign-key', [other], base, 'foreign');
    send('AUTH-BEARER', 'unauthorized', elsewhere(context, key), base, 'bearer');
    {
      const { all, title } = everywhereElse(context, key);
      const { why, ...request } = base;
      const build = (carriers: readonly Carrier[]) =>
        tagged(makeProbe(target, 'AUTH-BEARER', 'unauthorized', why ? `${title(carriers)} (${why})` : title(carriers), { endpoint, credentials: { kind: 'many', each: carriers }, ...request }), ops.many, false);
      probes.push(generatedProbe(fc.subarray(all, { minLength: 1 }), new fc.Value(all, undefined), build));
    }
    // RFC 9110 §11.1, §11.4: anything but 401 shows the key was taken.
    send('AUTH-SCHEME-CASE', 'observe', spellings(key), schemeCaseRequest(context, endpoint, base), 'scheme', 1);
  }
  // A verdict says what it rests on: without the key in a query parameter, AUTH-BEARER is judged in part.
  if (!target.keyInUrl) for (const endpoint of api.endpoints) skipped.push({ rule: 'AUTH-BEARER', endpoint, reason: KEY_NOT_IN_URL });
  return { probes, skipped };
};
