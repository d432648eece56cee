/**
 * What a run used up on its target: every request to an endpoint the model marks `destructive`
 * that the target accepted (a 2xx answer), by operation and the path ids it named (e.g. the
 * additional SFTP account removed). The next run may find less to check; this says why.
 */
import { is2xx, operation } from '../spec/queries.ts';
import type { Consumption, Exchange } from './types.ts';

/** Distinct (operation, ids) entries kept; further ones are only counted (a target accepting random ids would make one per request). */
export const MAX_CONSUMPTIONS = 50;

/** The path parameters a URL fills in a template (`/a/{id}` and `/a/123` → `{ id: '123' }`); none when it does not fit. */
export function pathIds(template: string, url: string, baseUrl: string): Record<string, string> {
  let path: string;
  let base: string;
  try {
    path = new URL(url).pathname;
    base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  } catch {
    return {};
  }
  if (!path.startsWith(base)) return {};
  const want = template.split('/');
  const got = path.slice(base.length).split('/');
  if (want.length !== got.length) return {};
  const ids: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!name) continue;
    try {
      ids[name] = decodeURIComponent(got[i]!);
    } catch {
      ids[name] = got[i]!;
    }
  }
  return ids;
}

export class ConsumptionLog {
  readonly #baseUrl: string;
  readonly #entries = new Map<string, { operation: string; ids: Record<string, string>; requests: number }>();
  /** Accepted destructive requests whose ids found no room among the entries. */
  more = 0;

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  observe(exchange: Exchange): void {
    const { endpoint, request } = exchange.probe;
    if (endpoint.effect !== 'destructive' || !exchange.response || !is2xx(exchange.response.status)) return;
    const ids = pathIds(endpoint.path, request.url, this.#baseUrl);
    const op = operation(endpoint);
    const key = JSON.stringify([op, ids]);
    const entry = this.#entries.get(key);
    if (entry) entry.requests++;
    else if (this.#entries.size < MAX_CONSUMPTIONS) this.#entries.set(key, { operation: op, ids, requests: 1 });
    else this.more++;
  }

  entries(): Consumption[] {
    return [...this.#entries.values()].map((e) => ({ ...e }));
  }

  /** One note for the report, or none when nothing was consumed. */
  note(embedded: boolean): string | undefined {
    const list = this.entries();
    if (!list.length) return undefined;
    const items = list.map((e) => {
      const ids = Object.entries(e.ids).map(([name, value]) => `${name} ${value}`);
      return `${e.operation}${ids.length ? ` (${ids.join(', ')})` : ''} × ${e.requests}`;
    });
    const more = this.more ? `; and ${this.more} more with other ids` : '';
    const after = embedded ? 'the embedded mock starts afresh each run' : 'a later run against this target may find less to check';
    return `consumed: the target accepted these destructive requests: ${items.join('; ')}${more} (${after})`;
  }
}
