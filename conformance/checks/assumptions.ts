/**
 * What a request valid under our reading rests on, from the model: the path and query parameters
 * and body fields whose name, type or value the document leaves to a choice of ours (their
 * `assumption`). A failure that a refused valid request shows names them, so a reader can tell a
 * break of the document from a disagreement with our reading (e.g. ASM-WPA-QUERY-EMAIL, a
 * parameter's name; ASM-DNS-NEW-RECORD, a DNS update naming a record the domain does not hold yet).
 */
import type { AssumptionId, Endpoint } from '../../spec/model.ts';

/** The assumptions `endpoint`'s requests rest on, each with the parameter or field that carries it. */
export const assumptionsOf = (endpoint: Endpoint): { readonly id: AssumptionId; readonly name: string }[] =>
  [...endpoint.pathParams, ...endpoint.queryParams, ...(endpoint.body ?? [])].flatMap((p) => (p.assumption ? [{ id: p.assumption, name: p.name }] : []));

/** `ASM-WPA-QUERY-EMAIL for \`email\``: the assumptions requests to `endpoints` rest on, for messages; '' when none. */
export function restingOn(...endpoints: readonly Endpoint[]): string {
  const named = [...new Set(endpoints.flatMap(assumptionsOf).map((a) => `${a.id} for \`${a.name}\``))];
  return named.join(', ');
}
