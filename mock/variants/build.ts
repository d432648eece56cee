/** Small combinators that keep catalogue entries to a line or two each. */
import type { EndpointName } from '../../generated/types.ts';
import { is2xx } from '../../spec/queries.ts';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import type { MockResponse } from '../app.ts';
import type { Hooks, Variant } from '../variant.ts';
import type { RateLimit } from '../rate-limit.ts';

type Edit = (body: Record<string, unknown>) => unknown;

/** A fault: breaks `rule`, visibly on `endpoint`. */
export const fault = (name: string, rule: RuleId, endpoint: EndpointName | undefined, description: string, hooks: Hooks): Variant => ({
  name,
  kind: 'fault',
  rule,
  ...(endpoint ? { endpoint } : {}),
  description,
  hooks,
});

export const conformant = (name: string, description: string, hooks: Hooks): Variant => ({ name, kind: 'conformant', description, hooks });

/** A conformant server that throttles: the reference behind a rate limit (mock/rate-limit.ts). */
export const throttling = (name: string, description: string, rateLimit: RateLimit): Variant => ({ name, kind: 'conformant', description, hooks: {}, rateLimit });

const named = (endpoint: Endpoint | undefined, name: EndpointName | undefined) => name === undefined || endpoint?.name === name;

/** Rewrites the JSON body of successful answers of one endpoint (or all, without a name). */
export const editSuccess = (name: EndpointName | undefined, edit: Edit): Hooks => ({
  respond: (endpoint, _request, response) =>
    named(endpoint, name) && is2xx(response.status) ? { ...response, body: edit(structuredClone(response.body) as Record<string, unknown>) } : response,
});

/** Rewrites the error body of failed answers of one endpoint (or all). */
export const editError = (name: EndpointName | undefined, edit: Edit, when: (status: number) => boolean = () => true): Hooks => ({
  respond: (endpoint, _request, response) =>
    named(endpoint, name) && response.status >= 400 && when(response.status)
      ? { ...response, body: edit(structuredClone(response.body) as Record<string, unknown>) }
      : response,
});

/** Replaces the answer of one endpoint when `when` holds. */
export const replaceAnswer = (name: EndpointName | undefined, when: (response: MockResponse) => boolean, answer: (response: MockResponse) => MockResponse): Hooks => ({
  respond: (endpoint, _request, response) => (named(endpoint, name) && when(response) ? answer(response) : response),
});

/** Sets a header on answers of one endpoint (or all) that match `when`. */
export const withHeaders = (name: EndpointName | undefined, headers: Readonly<Record<string, string | undefined>>, when: (status: number) => boolean = () => true): Hooks => ({
  respond: (endpoint, _request, response) =>
    named(endpoint, name) && when(response.status) ? { ...response, headers: { ...response.headers, ...headers } } : response,
});

/** One variant's hooks made of several: each hook runs in order, the first `wire` that writes wins. */
export function combine(...parts: readonly Hooks[]): Hooks {
  const all = <K extends keyof Hooks>(key: K) => parts.map((p) => p[key]).filter((h): h is NonNullable<Hooks[K]> => h !== undefined);
  const authenticate = all('authenticate');
  const judgeInput = all('judgeInput');
  const respond = all('respond');
  const wire = all('wire');
  return {
    ...(authenticate.length ? { authenticate: (e, r, reference) => authenticate.reduce((ok, h) => h(e, r, ok), reference) } : {}),
    ...(judgeInput.length ? { judgeInput: (e, b, reference) => judgeInput.reduce((verdict, h) => h(e, b, verdict), reference) } : {}),
    ...(parts.some((p) => p.handlers) ? { handlers: Object.assign({}, ...parts.map((p) => p.handlers ?? {})) } : {}),
    ...(respond.length ? { respond: (e, r, response) => respond.reduce((res, h) => h(e, r, res), response) } : {}),
    ...(wire.length ? { wire: (res, response, request) => wire.some((h) => h(res, response, request)) } : {}),
  };
}

/** Walks a JSON value and edits every object in it (depth first). */
export function everyObject(value: unknown, edit: (object: Record<string, unknown>) => void): unknown {
  if (Array.isArray(value)) value.forEach((item) => everyObject(item, edit));
  else if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) everyObject(inner, edit);
    edit(value as Record<string, unknown>);
  }
  return value;
}

/** The value at a dotted path of a body (arrays: first item), for edits of nested fields. */
export function at(body: unknown, path: string): Record<string, unknown> {
  let current: unknown = body;
  for (const key of path.split('.')) {
    current = (current as Record<string, unknown>)[key];
    if (Array.isArray(current)) current = current[0];
  }
  return current as Record<string, unknown>;
}
