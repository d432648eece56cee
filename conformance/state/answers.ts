/** Reading the answers the state properties observe: success, a JSON path, a short account. */
import { is2xx as isStatus2xx } from '../../spec/queries.ts';
import { at } from '../checks/values.ts';
import type { Exchange } from '../types.ts';

export const is2xx = (exchange: Exchange): boolean => exchange.response !== undefined && isStatus2xx(exchange.response.status);

/** `HTTP 500`, or why there was no answer: for messages. */
export const answered = (exchange: Exchange): string =>
  exchange.failure ? `no answer (${exchange.failure.kind}: ${exchange.failure.message})` : `HTTP ${exchange.response!.status}`;


/** The array at a path of a successful answer's body, or undefined when there is none. */
export function listAt(exchange: Exchange, ...path: string[]): unknown[] | undefined {
  if (!is2xx(exchange)) return undefined;
  const found = at(exchange.response!.json, ...path);
  return Array.isArray(found) ? found : undefined;
}

/**
 * `0.3 s`, `12 s`, `1,234.5 s`: one decimal at most, thousands grouped, as English writes it.
 * By hand: `Intl.NumberFormat` costs ICU ~10 ms to build, in every run that says how long it waited.
 */
export function seconds(ms: number): string {
  const tenths = Math.round(Math.abs(ms) / 100);
  const whole = String(Math.floor(tenths / 10)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${ms < 0 && tenths > 0 ? '-' : ''}${whole}${tenths % 10 ? `.${tenths % 10}` : ''} s`;
}

/** `{a, b}`: a set of values for messages, sorted so two runs read alike. */
export const showSet = (values: Iterable<string>): string => `{${[...values].sort().join(', ')}}`;

/** `a, b, c and 4 more`: a list for notes, the first `shown` named. */
export const someOf = (items: readonly string[], shown = 5): string =>
  items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
