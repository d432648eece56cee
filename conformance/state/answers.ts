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

/** One formatter for every call (`toLocaleString` builds one each time), built when first asked for: building it takes ICU ~10 ms at start-up. */
let oneDecimal: Intl.NumberFormat | undefined;
export const seconds = (ms: number): string => `${(oneDecimal ??= new Intl.NumberFormat('en', { maximumFractionDigits: 1 })).format(ms / 1000)} s`;

/** `{a, b}`: a set of values for messages, sorted so two runs read alike. */
export const showSet = (values: Iterable<string>): string => `{${[...values].sort().join(', ')}}`;

/** `a, b, c and 4 more`: a list for notes, the first `shown` named. */
export const someOf = (items: readonly string[], shown = 5): string =>
  items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
