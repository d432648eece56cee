/**
 * READ-404 (§Authentication 4: "Data that does not exist, or that the key's user may not read,
 * yields 404 on read endpoints"): each read that names data by a path id, asked for random
 * UUIDs, for ids that are not UUIDs, and — with a second tenant — for the other company's ids
 * under the main key.
 *
 * Every probe expects 'not-found' where the endpoint may answer 404; the READ-404 check reads
 * a non-UUID id as "400 or 404" where 400 is allowed too (CONFLICT-READ-MALFORMED-ID). The DNS
 * read lists no 404 by the letter (CONFLICT-DNS-READ-404): with --strict its probes only observe.
 */
import { api } from '../../spec/api.ts';
import type { Endpoint, Referent } from '../../spec/model.ts';
import { allowedErrorStatuses, conflictsOf, inScope, operation, rule } from '../../spec/queries.ts';
import type { DiscoveredIds, Expectation, Probe, ProbeContext, ProbeSource, Skip } from '../types.ts';
import { idOf, unknownUuids, validRequests } from './inputs.ts';
import { bearer, makeProbe, streamSeed } from './request.ts';

/** Ids no reading takes for a UUID: a word, a UUID one digit short, one with a non-hex digit. */
const nonUuids = ['not-a-uuid', '0f8fad5b-d9cb-469f-a165-70867728950', '0f8fad5b-d9cb-469f-a165-70867728950g'];

/** The other company's ids that name what a path parameter refers to (every environment, every domain). */
function foreignIds(referent: Referent | undefined, ids: DiscoveredIds): readonly string[] {
  if (referent === 'environment') return ids.envIds;
  if (referent === 'domain') return [...new Set((ids.places ?? []).flatMap((p) => (p.domainId ? [p.domainId] : [])).concat(ids.domainId ?? []))];
  if (!referent) return [];
  const id = idOf(referent, ids);
  return id.ok ? [String(id.value)] : [];
}

/** 404 where the endpoint may answer it (the check widens it to 400 for non-UUID ids where allowed). */
const expectation = (endpoint: Endpoint, context: ProbeContext): Expectation =>
  allowedErrorStatuses(endpoint, context.options).includes(404) ? 'not-found' : 'observe';

export const notFoundProbes: ProbeSource = (context) => {
  const { target } = context;
  const read404 = rule('READ-404');
  const probes: Probe[] = [];
  const skipped: Skip[] = [];
  for (const endpoint of api.endpoints.filter((e) => inScope(read404, e))) {
    const seed = streamSeed(context.seed, 'read-404', endpoint.name);
    // Everything but the one id is valid: the query (`email`) and the themes body.
    const placeholders = Object.fromEntries(endpoint.pathParams.map((p) => [p.name, 'placeholder']));
    const valid = validRequests(endpoint, target.main, seed, 1, { path: placeholders });
    if (!valid.ok) throw new Error(`no request for ${endpoint.name}: ${valid.reason}`);
    const template = valid.value[0]!;
    const probe = (name: string, value: string, title: string) =>
      probes.push(
        makeProbe(target, 'READ-404', expectation(endpoint, context), title, {
          endpoint,
          credentials: bearer(target.main.apiKey),
          ...template,
          path: { ...template.path, [name]: value },
        }),
      );
    for (const param of endpoint.pathParams) {
      for (const uuid of unknownUuids(streamSeed(seed, param.name), 2)) probe(param.name, uuid, `unknown ${param.name} (a random UUID)`);
      for (const value of nonUuids) probe(param.name, value, `${param.name} that is not a UUID (${JSON.stringify(value)})`);
      if (target.other) {
        for (const id of foreignIds(param.refersTo, target.other.ids)) probe(param.name, id, `${param.name} of the other company, under the main key`);
      }
    }
    if (!allowedErrorStatuses(endpoint, context.options).includes(404)) {
      const conflicts = conflictsOf(endpoint).filter((c) => c.extraStatus === 404).map((c) => c.id);
      skipped.push({
        rule: 'READ-404',
        endpoint,
        reason: `--strict: ${operation(endpoint)} lists no 404 (${conflicts.join(', ')}); its unknown-id probes only observe`,
      });
    }
  }
  return { probes, skipped };
};
