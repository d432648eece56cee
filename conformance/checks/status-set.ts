/**
 * STATUS-SET (§Errors, "Statuses each endpoint can return besides its success"): every status is
 * the endpoint's success or one of its errors. Without --strict the statuses the document's
 * conflicts add are accepted too (either side); with it, the per-endpoint table to the letter.
 * 429 never arrives here: the transport waits throttling out (ASM-THROTTLE-429).
 */
import type { Conflict, Endpoint } from '../../spec/model.ts';
import { allowedErrorStatuses, conflictsOf } from '../../spec/queries.ts';
import type { Check, CheckOptions, Exchange } from '../types.ts';
import { describeSuccess, isSuccess } from './success.ts';
import { serverSaid } from './values.ts';

/** The allowed set in words: success, the table's errors, and each conflict's status with its id. */
export function describeAllowed(endpoint: Endpoint, options: CheckOptions): string {
  const letter = [...endpoint.errors].sort((a, b) => a - b).join(', ');
  const parts = [`its success, ${describeSuccess(endpoint)}`, `the errors its table lists, ${letter}`];
  if (!options.strict) {
    const added = new Map<number, string[]>();
    for (const c of conflictsOf(endpoint))
      if (c.extraStatus !== undefined && !endpoint.errors.includes(c.extraStatus)) added.set(c.extraStatus, [...(added.get(c.extraStatus) ?? []), c.id]);
    const byStatus = [...added].sort(([a], [b]) => a - b).map(([status, ids]) => `${status} by ${ids.join(' or ')}`);
    if (byStatus.length > 0) parts.push(`${byStatus.join(', ')} (either side accepted)`);
  }
  return parts.join('; ');
}

/**
 * The conflicts whose reading side let an exchange's status through (none with --strict, none
 * when the table lists the status): what the report's notes list as accepted either side.
 */
export function conflictsAccepting(exchange: Exchange, options: CheckOptions): readonly Conflict[] {
  const status = exchange.response?.status;
  const { endpoint } = exchange.probe;
  if (options.strict || status === undefined || endpoint.errors.some((s) => s === status)) return [];
  return conflictsOf(endpoint).filter((c) => c.extraStatus === status);
}

export const statusSet: Check = {
  rule: 'STATUS-SET',
  applies: (exchange) => exchange.response !== undefined,
  check: ({ options }, exchange) => {
    const { endpoint } = exchange.probe;
    const status = exchange.response!.status;
    if (isSuccess(endpoint, status) || allowedErrorStatuses(endpoint, options).some((s) => s === status)) return undefined;
    const loosening = conflictsOf(endpoint).filter((c) => c.extraStatus === status);
    const strictNote =
      options.strict && loosening.length > 0
        ? ` ${loosening.map((c) => c.id).join(', ')} would accept ${status} on the reading side; --strict holds to the letter of the table.`
        : '';
    return {
      title: `status ${status} is not in the endpoint's status set`,
      message: `The server answered ${status}${serverSaid(exchange)}; the document allows ${describeAllowed(endpoint, options)}.${strictNote}`,
    };
  },
};
