/**
 * What a run changed on its target: every request to an endpoint the model marks `mutating` or
 * `destructive` that the target accepted (a 2xx answer), by operation and the ids it named, in
 * its path and in the body fields the model says refer to something (`refersTo`): the SFTP
 * account removed, the environment searched and replaced in, the backup restored. A run must
 * say everything it changed; the next run may find less to check, and this says why.
 */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { is2xx, operation } from '../spec/queries.ts';
import type { Consumption, Exchange } from './types.ts';

/** Distinct id sets kept per operation; further ones are only counted (a target accepting random ids would make one per request). */
export const MAX_IDS_PER_OPERATION = 10;
/** Characters kept of an id read from a body (an accepted invalid request may carry anything there). */
export const ID_SHOWN = 100;

/** The path parameters a URL fills in a template (`/a/{id}` and `/a/123` → `{ id: '123' }`); none when it does not fit. */
export function pathIds(template: string, url: string, baseUrl: string): Record<string, string> {
  let base: string;
  try {
    base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return {};
  }
  return idsUnder(base, template, url);
}

/** A template's segments, each the name of the id it holds or undefined: read once per template. */
const templateParts = new Map<string, readonly (string | undefined)[]>();

/** `pathIds` under a base path already read (each answer of a run asks). */
function idsUnder(base: string, template: string, url: string): Record<string, string> {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return {};
  }
  if (!path.startsWith(base)) return {};
  let want = templateParts.get(template);
  if (!want) templateParts.set(template, (want = template.split('/').map((part) => /^\{(\w+)\}$/.exec(part)?.[1])));
  const got = path.slice(base.length).split('/');
  if (want.length !== got.length) return {};
  const ids: Record<string, string> = {};
  want.forEach((name, i) => {
    if (!name) return;
    try {
      ids[name] = decodeURIComponent(got[i]!);
    } catch {
      ids[name] = got[i]!;
    }
  });
  return ids;
}

/** The values of the body fields the model says refer to something (`refersTo`), as text; none when the body is not a JSON object. */
export function bodyIds(endpoint: Endpoint, body: string | undefined): Record<string, string> {
  const fields = (endpoint.body ?? []).filter((f) => f.refersTo !== undefined);
  if (!fields.length || body === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const ids: Record<string, string> = {};
  for (const f of fields) {
    if (!Object.hasOwn(parsed, f.name)) continue;
    const value = (parsed as Record<string, unknown>)[f.name];
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    ids[f.name] = text.length > ID_SHOWN ? `${text.slice(0, ID_SHOWN)}…` : text;
  }
  return ids;
}

interface OperationLog {
  readonly effect: Consumption['effect'];
  /** Accepted requests, kept or not. */
  requests: number;
  readonly kept: Map<string, { ids: Record<string, string>; requests: number }>;
  /** Accepted requests whose ids found no room among the kept. */
  more: number;
}

/** The model's order of endpoints: the report reads the same whatever order the answers came in. */
const endpointOrder = new Map(api.endpoints.map((e, i) => [operation(e), i]));

export class ConsumptionLog {
  /** The base URL's path, without a trailing slash; undefined when it is no URL (nothing is then read from paths). */
  readonly #basePath: string | undefined;
  readonly #operations = new Map<string, OperationLog>();

  constructor(baseUrl: string) {
    try {
      this.#basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
    } catch {
      this.#basePath = undefined;
    }
  }

  /** Accepted requests whose ids found no room among the entries. */
  get more(): number {
    return [...this.#operations.values()].reduce((n, o) => n + o.more, 0);
  }

  observe(exchange: Exchange): void {
    const { endpoint, request } = exchange.probe;
    if (endpoint.effect === 'read' || !exchange.response || !is2xx(exchange.response.status)) return;
    const op = operation(endpoint);
    let log = this.#operations.get(op);
    if (!log) this.#operations.set(op, (log = { effect: endpoint.effect, requests: 0, kept: new Map(), more: 0 }));
    log.requests++;
    const ids = { ...(this.#basePath === undefined ? {} : idsUnder(this.#basePath, endpoint.path, request.url)), ...bodyIds(endpoint, request.body) };
    const key = JSON.stringify(ids);
    const entry = log.kept.get(key);
    if (entry) entry.requests++;
    else if (log.kept.size < MAX_IDS_PER_OPERATION) log.kept.set(key, { ids, requests: 1 });
    else log.more++;
  }

  #byOperation(): [string, OperationLog][] {
    return [...this.#operations.entries()].sort(([a], [b]) => (endpointOrder.get(a) ?? Infinity) - (endpointOrder.get(b) ?? Infinity));
  }

  /** Per operation in the model's order, its id sets in the order first accepted, then the requests of other ids counted together. */
  entries(): Consumption[] {
    return this.#byOperation().flatMap(([op, log]) => [
      ...[...log.kept.values()].map((e): Consumption => ({ operation: op, effect: log.effect, ids: { ...e.ids }, requests: e.requests })),
      ...(log.more ? [{ operation: op, effect: log.effect, ids: {}, requests: log.more, otherIds: true } as const] : []),
    ]);
  }

  /**
   * One short note for the report, or none when nothing was changed: accepted requests counted
   * per operation with its effect (the ids are in the report's `consumed`).
   */
  note(embedded: boolean): string | undefined {
    const ops = this.#byOperation();
    if (!ops.length) return undefined;
    const items = ops.map(([op, log]) => {
      const sets = log.more ? `more than ${MAX_IDS_PER_OPERATION} id sets` : log.kept.size > 1 ? `${log.kept.size} id sets` : '';
      return `${log.requests} × ${op} (${log.effect}${sets ? `, ${sets}` : ''})`;
    });
    const after = embedded ? 'the embedded mock starts afresh each run' : 'a later run against this target may find less to check';
    return `consumed: the target accepted these changes: ${items.join(', ')}; the ids named are in the JSON report's \`consumed\` (${after})`;
  }
}
