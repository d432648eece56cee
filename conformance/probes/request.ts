/**
 * The one request builder of the probe sources: endpoint, path values, query, body and
 * credentials in, the exact `ProbeRequest` out (absolute URL, headers, body text). Also the
 * seeding every source shares, so the same seed always sends the same requests.
 */
import fc from 'fast-check';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { fillPath } from '../../spec/queries.ts';
import type { Expectation, Generated, Probe, ProbeRequest, Target } from '../types.ts';

/** How a request presents (or fails to present) an API key. */
export type Credentials =
  /** `Authorization: <scheme> <key>`; the scheme defaults to the document's `Bearer`. */
  | { readonly kind: 'bearer'; readonly key: string; readonly scheme?: string }
  /** No credentials at all. */
  | { readonly kind: 'none' }
  /** An `Authorization` header sent verbatim (`Basic …`, `Token …`, `Bearer` alone). */
  | { readonly kind: 'authorization'; readonly value: string }
  /** The key in a query parameter, e.g. `?api_key=`. */
  | { readonly kind: 'query'; readonly name: string; readonly key: string }
  /** The key in a header of its own, e.g. `X-API-Key`. */
  | { readonly kind: 'header'; readonly name: string; readonly key: string }
  /** The key in a cookie, e.g. `Cookie: access_token=<key>`. */
  | { readonly kind: 'cookie'; readonly name: string; readonly key: string }
  /** Several of the above at once (no `Authorization` header): the key in every conventional place but the one. */
  | { readonly kind: 'many'; readonly each: readonly Extract<Credentials, { kind: 'query' | 'header' | 'cookie' }>[] };

export const bearer = (key: string, scheme?: string): Credentials => (scheme === undefined ? { kind: 'bearer', key } : { kind: 'bearer', key, scheme });

/** A JSON value to serialise, or exact text (malformed JSON). */
export type Body = { readonly json: unknown } | { readonly raw: string };

/** What varies between requests to one endpoint. */
export interface RequestParts {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: Body;
}

/**
 * How request parts were drawn: `parts` gives the parts from another value of `arbitrary`, so a
 * probe built on them can be shrunk (`generatedProbe`).
 */
export interface Drawn<T = unknown> extends Pick<Generated<T>, 'arbitrary' | 'value'> {
  parts(value: T): RequestParts;
}

export interface RequestSpec extends RequestParts {
  readonly endpoint: Endpoint;
  readonly credentials: Credentials;
  /** Header shapes of other clients: each replaces the suite's own, undefined removes it. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

/** `Basic` credentials for a key: RFC 7617 user-id `key`, empty password. */
export const basicAuthorization = (key: string): string => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export function buildRequest(target: Pick<Target, 'baseUrl'>, spec: RequestSpec): ProbeRequest {
  const headers: Record<string, string> = { accept: 'application/json' };
  const query: Record<string, string> = { ...spec.query };
  for (const credentials of spec.credentials.kind === 'many' ? spec.credentials.each : [spec.credentials]) carry(credentials, headers, query);
  const search = new URLSearchParams(query).toString();
  const url = `${target.baseUrl}${fillPath(spec.endpoint.path, spec.path ?? {})}${search ? `?${search}` : ''}`;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  if (spec.body === undefined) return { method: spec.endpoint.method, url, headers };
  const body = 'raw' in spec.body ? spec.body.raw : JSON.stringify(spec.body.json);
  return { method: spec.endpoint.method, url, headers, body };
}

/** Puts one credential where it goes: a header, the query, a cookie (several cookies share the header). */
function carry(credentials: Credentials, headers: Record<string, string>, query: Record<string, string>): void {
  switch (credentials.kind) {
    case 'bearer':
      headers.authorization = `${credentials.scheme ?? 'Bearer'} ${credentials.key}`;
      break;
    case 'authorization':
      headers.authorization = credentials.value;
      break;
    case 'header':
      headers[credentials.name.toLowerCase()] = credentials.key;
      break;
    case 'query':
      query[credentials.name] = credentials.key;
      break;
    case 'cookie':
      headers.cookie = `${headers.cookie ? `${headers.cookie}; ` : ''}${credentials.name}=${credentials.key}`;
      break;
    case 'none':
    case 'many':
      break;
  }
}

/** Request parts without their draw, for probes that are not shrunk (what they vary is not the values). */
export const withoutDraw = ({ path, query, body }: RequestParts & { readonly drawn?: unknown }): RequestParts => ({ ...(path ? { path } : {}), ...(query ? { query } : {}), ...(body ? { body } : {}) });

export function makeProbe(target: Pick<Target, 'baseUrl'>, rule: RuleId, expect: Expectation, title: string, spec: RequestSpec): Probe {
  return { rule, endpoint: spec.endpoint, expect, title, request: buildRequest(target, spec) };
}

// ---- seeding ------------------------------------------------------------------------------------

/**
 * A seed for one stream of values, from the run's seed and a stable name (FNV-1a, 32 bits):
 * sources and endpoints draw independently, so adding a probe somewhere changes nothing elsewhere.
 */
export function streamSeed(seed: number, ...stream: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}\u0000${stream.join('\u0000')}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** `n` values of an arbitrary, fixed by the seed. */
export const draw = <T>(arb: fc.Arbitrary<T>, seed: number, n: number): T[] => (n <= 0 ? [] : fc.sample(arb, { seed, numRuns: n }));

/** One value of an arbitrary, fixed by the seed. */
export const drawOne = <T>(arb: fc.Arbitrary<T>, seed: number): T => draw(arb, seed, 1)[0]!;

/** Keeps fast-check's `Value` of each draw: the value with the context its arbitrary's `shrink` needs. */
class Keeping<T> extends fc.Arbitrary<fc.Value<T>> {
  constructor(private readonly arb: fc.Arbitrary<T>) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<fc.Value<T>> {
    return new fc.Value(this.arb.generate(mrng, biasFactor), undefined);
  }
  canShrinkWithoutContext(_value: unknown): _value is fc.Value<T> {
    return false;
  }
  shrink(): fc.Stream<fc.Value<fc.Value<T>>> {
    return fc.Stream.nil();
  }
}

/** The values `draw` gives for the same arguments, as fast-check holds them (shrinkable). */
export const drawValues = <T>(arb: fc.Arbitrary<T>, seed: number, n: number): fc.Value<T>[] => (n <= 0 ? [] : fc.sample(new Keeping(arb), { seed, numRuns: n }));

/** A probe built from a value drawn from `arbitrary`, carrying how to build it from a smaller one. */
export function generatedProbe<T>(arbitrary: fc.Arbitrary<T>, value: fc.Value<T>, build: (value: T) => Probe | undefined): Probe {
  const probe = build(value.value_);
  if (!probe) throw new Error('a drawn value that builds no probe');
  const generated: Generated<T> = { arbitrary, value, build };
  return { ...probe, generated };
}

/** `make`'s probe from request parts: shrinkable when the parts were drawn, plain when fixed. */
export function probeFromParts(parts: RequestParts & { readonly drawn?: Drawn }, make: (parts: RequestParts) => Probe | undefined): Probe {
  const { drawn, ...fixed } = parts;
  if (drawn) return generatedProbe(drawn.arbitrary, drawn.value, (value) => make(drawn.parts(value)));
  const probe = make(fixed);
  if (!probe) throw new Error('request parts that build no probe');
  return probe;
}
