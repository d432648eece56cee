/**
 * READ-404 (§Authentication 4: "Data that does not exist, or that the key's user may not read,
 * yields 404 on read endpoints"): each read that names data by a path id, asked for ids drawn from
 * the reference operators (spec/operators/references.ts): unknown UUIDs of any version, the real
 * id with one digit changed at any position, ids the company holds of other kinds of thing, ids
 * that are not UUIDs (the real one padded, or no UUID at all), and — with a second tenant — the
 * other company's ids under the main key.
 *
 * Every probe expects 'not-found' where the endpoint may answer 404; the READ-404 check reads
 * a non-UUID id as "400 or 404" where 400 is allowed too (CONFLICT-READ-MALFORMED-ID). The DNS
 * read lists no 404 by the letter (CONFLICT-DNS-READ-404): with --strict its probes only observe.
 */
import fc from 'fast-check';
import { api } from '../../spec/api.ts';
import type { Endpoint, Referent } from '../../spec/model.ts';
import type { Applied } from '../../spec/operators/index.ts';
import { nearMissIds, paddedIdArb, referenceOperators as ops, unknownUuidArb } from '../../spec/operators/references.ts';
import { allowedErrorStatuses, conflictsOf, inScope, operation, rule } from '../../spec/queries.ts';
import type { DiscoveredIds, Expectation, Probe, ProbeContext, ProbeSource, Skip } from '../types.ts';
import { idOf, unknownUuids, validRequests } from './inputs.ts';
import { depthOf, operatorProbes } from './operated.ts';
import { bearer, makeProbe, streamSeed } from './request.ts';

/** Ids no reading takes for a UUID: a word, a UUID one digit short, one with a non-hex digit. */
const nonUuids = ['not-a-uuid', '0f8fad5b-d9cb-469f-a165-70867728950', '0f8fad5b-d9cb-469f-a165-70867728950g'];

/** Every id the ids hold of a referent (every environment, every domain), as strings. */
function allOf(referent: Referent | undefined, ids: DiscoveredIds): readonly string[] {
  if (referent === 'environment') return ids.envIds;
  if (referent === 'domain') return [...new Set((ids.places ?? []).flatMap((p) => (p.domainId ? [p.domainId] : [])).concat(ids.domainId ?? []))];
  if (referent === 'additional-sftp-account') return [...new Set((ids.places ?? []).flatMap((p) => p.sftpAccountIds).concat(ids.sftpAccountIds))];
  if (!referent) return [];
  const id = idOf(referent, ids);
  return id.ok ? [String(id.value)] : [];
}

/**
 * Ids the company holds of every other kind of thing than `referent` (a UUID-typed one only: a
 * backup's integer id is no UUID), the things an answer about it holds beside it first (a site for
 * an environment, an environment for a domain): a lookup in one table of every object takes those.
 */
function otherKinds(referent: Referent | undefined, ids: DiscoveredIds): string[] {
  const kinds: Referent[] = ['site', 'environment', 'domain', 'additional-sftp-account', 'company', 'cdn-cache', 'company-user'];
  return [...new Set(kinds.filter((k) => k !== referent).flatMap((k) => allOf(k, ids)))];
}

/** 404 where the endpoint may answer it (the check widens it to 400 for non-UUID ids where allowed). */
const expectation = (endpoint: Endpoint, context: ProbeContext): Expectation =>
  allowedErrorStatuses(endpoint, context.options).includes(404) ? 'not-found' : 'observe';

/** An id to put in a path parameter, and what it is. */
interface Named {
  readonly id: string;
  readonly title: string;
}

const named = (title: (id: string) => string) => (id: string): Named => ({ id, title: title(id) });

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
    const expect = expectation(endpoint, context);
    for (const param of endpoint.pathParams) {
      const real = allOf(param.refersTo, target.main.ids)[0];
      const [u1, u2] = unknownUuids(streamSeed(seed, param.name), 2);
      const unknown = named(() => `unknown ${param.name} (a random UUID)`);
      const applied: Applied<Named>[] = [
        { operator: ops.unknown, what: param.name, first: unknown(u1!), arbitrary: fc.oneof(fc.constant(unknown(u2!)), unknownUuidArb.map(unknown)) },
        ...nonUuids.map((v): Applied<Named> => {
          const malformed = named((id) => `${param.name} that is not a UUID (${JSON.stringify(id)})`);
          return { operator: ops.malformed, what: param.name, first: malformed(v), arbitrary: real === undefined ? fc.constant(malformed(v)) : paddedIdArb(real).map(malformed) };
        }),
      ];
      if (real !== undefined) {
        const near = nearMissIds(real);
        const nearMiss = named(() => `${param.name} one digit from the real one`);
        applied.push({ operator: ops.nearMiss, what: param.name, first: nearMiss(near.first), arbitrary: near.arbitrary.map(nearMiss) });
      }
      const others = otherKinds(param.refersTo, target.main.ids);
      if (others.length) {
        const wrong = named(() => `${param.name} naming another kind of thing the company holds`);
        applied.push({ operator: ops.wrongKind, what: param.name, first: wrong(others[0]!), arbitrary: fc.constantFrom(...others).map(wrong) });
      }
      if (target.other) {
        const foreign = named(() => `${param.name} of the other company, under the main key`);
        // Every one the other company holds, each once, first: a server that checks only that an id exists shows itself there alone.
        applied.unshift(...allOf(param.refersTo, target.other.ids).map((id): Applied<Named> => ({ operator: ops.foreign, what: param.name, first: foreign(id), arbitrary: fc.constant(foreign(id)) })));
      }
      probes.push(
        ...operatorProbes(applied, (_op, n) => makeProbe(target, 'READ-404', expect, n.title, { endpoint, credentials: bearer(target.main.apiKey), ...template, path: { ...template.path, [param.name]: n.id } }), {
          seed: streamSeed(seed, param.name, 'drawn'),
          depth: depthOf(context.runs, 0.05),
        }),
      );
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
