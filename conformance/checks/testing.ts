/**
 * Hand-made exchanges for tests of checks (and of anything else that consumes exchanges): a
 * probe on any endpoint of the model, with the response or transport failure a test names, and
 * one way to say what a check should make of it.
 */
import { expect } from 'vitest';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { endpoint as endpointNamed, fillPath } from '../../spec/queries.ts';
import { readBody } from '../body.ts';
import type { Check, CheckContext, Exchange, Expectation, ProbeRequest, TransportFailure, Verdict } from '../types.ts';

export const BASE_URL = 'http://127.0.0.1:4010/v2';
export const TEST_API_KEY = 'hsc-test-key-0123456789abcdef';
export const TEST_UUID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

export interface ExchangeSpec {
  /** An endpoint or its model name; default `getSite`. */
  readonly endpoint?: string | Endpoint;
  readonly rule?: RuleId;
  readonly expect?: Expectation;
  readonly title?: string;
  /** Path parameter values; each defaults to TEST_UUID. */
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** Request headers; default a bearer header with TEST_API_KEY. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly requestBody?: string;
  /** The HTTP status; omit (with no `failure`) for a 200. */
  readonly status?: number;
  /** The response body as a value, serialized as JSON. */
  readonly json?: unknown;
  /** The response body as raw text (overrides `json`); parsed when it is JSON. */
  readonly text?: string;
  /** Content-Type of the response; `null` for none. Default `application/json; charset=utf-8`. */
  readonly contentType?: string | null;
  /** No answer: the transport failure instead of a response. */
  readonly failure?: TransportFailure['kind'] | TransportFailure;
  /** The probe names only unknown ids on purpose (Probe.idsUnknown). */
  readonly idsUnknown?: true;
}

const failureOf = (failure: TransportFailure['kind'] | TransportFailure): TransportFailure =>
  typeof failure === 'object'
    ? failure
    : {
        kind: failure,
        ms: failure === 'refused' ? 2 : 10_000,
        message: {
          timeout: 'no response within 10000 ms',
          reset: 'socket hang up',
          refused: 'connect ECONNREFUSED 127.0.0.1:4010',
          protocol: 'Parse Error: Invalid header value char',
          throttled: 'throttled: HTTP 429 asked to wait 100000 s (Retry-After: 100000), more than the 60 s left of the run\'s 60 s for waiting out 429s (--max-wait-s)',
          budget: 'not sent: --max-requests 100 reached',
          runner: 'this process itself could not run for 9000 of the 10000 ms it waited for an answer',
          other: 'fetch failed',
        }[failure],
      };

/** An exchange as the transport would return it. */
export function exchange(spec: ExchangeSpec = {}): Exchange {
  const endpoint = typeof spec.endpoint === 'object' ? spec.endpoint : endpointNamed(spec.endpoint ?? 'getSite');
  const pathValues = Object.fromEntries(endpoint.pathParams.map((p) => [p.name, spec.path?.[p.name] ?? TEST_UUID]));
  const query = spec.query && Object.keys(spec.query).length > 0 ? `?${new URLSearchParams(spec.query)}` : '';
  const request: ProbeRequest = {
    method: endpoint.method,
    url: `${BASE_URL}${fillPath(endpoint.path, pathValues)}${query}`,
    headers: spec.headers ?? { authorization: `Bearer ${TEST_API_KEY}`, ...(spec.requestBody ? { 'content-type': 'application/json' } : {}) },
    ...(spec.requestBody !== undefined ? { body: spec.requestBody } : {}),
  };
  const probe = {
    rule: spec.rule ?? 'INPUT-ACCEPT',
    endpoint,
    expect: spec.expect ?? 'valid',
    title: spec.title ?? 'a hand-made exchange',
    request,
    ...(spec.idsUnknown ? { idsUnknown: true as const } : {}),
  };
  if (spec.failure !== undefined) return { probe, failure: failureOf(spec.failure), throttled: 0 };
  const text = spec.text ?? (spec.json === undefined ? '' : JSON.stringify(spec.json));
  const contentType = spec.contentType === undefined ? 'application/json; charset=utf-8' : spec.contentType;
  const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
  // Read as the transport reads it, so the checks see the same named causes.
  const body = text.trim() === '' ? {} : readBody({ text, headers });
  return { probe, response: { status: spec.status ?? 200, headers, text, ...body, ms: 3 }, throttled: 0 };
}

export const lenient: CheckContext = { options: { strict: false } };
export const strict: CheckContext = { options: { strict: true } };

/** What a check made of an exchange: it did not apply, it passed, or its verdict. */
/** A check's judgement of one exchange; each call its own run (a fresh context), unless one is given. */
export function judge(check: Check, given: Exchange, context: CheckContext = { ...lenient }): 'skip' | 'pass' | Verdict {
  if (!check.applies(given)) return 'skip';
  return check.check(context, given) ?? 'pass';
}

/**
 * What a test wants: `skip`, `pass`, a pattern the verdict's `title` + newline + `message` must
 * match (an error), or a pattern with a severity.
 */
export type Want = 'skip' | 'pass' | RegExp | { readonly match: RegExp; readonly severity: 'error' | 'warning' };

export interface Case {
  readonly given: ExchangeSpec;
  readonly want: Want;
  readonly strict?: boolean;
}

/** Assert a check's judgement of one case. */
export function expectJudgement(check: Check, { given, want, strict: isStrict }: Case): void {
  const got = judge(check, exchange(given), { ...(isStrict ? strict : lenient) });
  if (want === 'skip' || want === 'pass') {
    expect(got).toBe(want);
    return;
  }
  const { match, severity } = want instanceof RegExp ? { match: want, severity: 'error' as const } : want;
  expect(got, `expected a verdict matching ${match}`).toBeTypeOf('object');
  const verdict = got as Verdict;
  expect(`${verdict.title}\n${verdict.message}`).toMatch(match);
  expect(verdict.severity ?? 'error').toBe(severity);
}
