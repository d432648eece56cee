/**
 * INPUT-ACCEPT: requests valid under every reasonable reading of the document get the endpoint's
 * success. Bodies come from `requestBodyArb` (every field present: ASM-NOT-SHOWN-FIELDS-SENT)
 * with the discovered ids, `runs` of them per action, with full-Unicode text in the free-text
 * fields (search and replace, first and last names) for NO-SERVER-ERROR to judge. Reads name
 * every discovered environment (as many as `runs` allows), and the other company's data under
 * its own key. Reads whose only input is an id get one request per id: repeating it adds nothing.
 * Actions take their ids where the kit's safety rules let them (destructive ones stay off live
 * environments without --allow-live); a removal (DELETE) sends one request, for a spare id.
 */
import { api } from '../../spec/api.ts';
import type { Endpoint } from '../../spec/model.ts';
import { validRequest } from '../../spec/operators/index.ts';
import { isRead } from '../../spec/queries.ts';
import type { Probe, ProbeContext, ProbeSource, Skip, Tenant } from '../types.ts';
import { removalPath, removedBy, spareOf, validRequests } from './inputs.ts';
import { bearer, makeProbe, probeFromParts, streamSeed } from './request.ts';

/** Path overrides that spread reads over every discovered environment. */
function pathVariants(endpoint: Endpoint, tenant: Tenant): readonly Readonly<Record<string, string>>[] {
  const env = endpoint.pathParams.find((p) => p.refersTo === 'environment');
  return env && tenant.ids.envIds.length ? tenant.ids.envIds.map((id) => ({ [env.name]: id })) : [{}];
}

/**
 * The additional SFTP account INPUT-ACCEPT removes (`spareOf`), as the STATE-SFTP-REMOVE property
 * reads it to leave that one out of its model: from the flat ids, which discovery takes from the
 * place `removalPath` takes them from (the kit's `placeOf`, under the same --allow-live).
 */
export function sftpAccountToRemove(tenant: Tenant): { readonly id?: string; readonly reason?: string } {
  const spare = spareOf('additional-sftp-account', tenant.ids);
  return spare.ok ? { id: String(spare.value) } : { reason: spare.reason };
}

export const acceptProbes: ProbeSource = (context: ProbeContext) => {
  const { target } = context;
  const runs = Math.max(1, context.runs);
  const probes: Probe[] = [];
  const skipped: Skip[] = [];
  const skip = (endpoint: Endpoint, reason: string) => skipped.push({ rule: 'INPUT-ACCEPT', endpoint, reason });

  const reads = (endpoint: Endpoint, tenant: Tenant, whose: string): string | undefined => {
    const variants = pathVariants(endpoint, tenant);
    const n = endpoint.queryParams.length ? runs : Math.min(runs, variants.length);
    const valid = validRequests(endpoint, tenant, streamSeed(context.seed, 'accept', endpoint.name, whose), n);
    if (!valid.ok) return valid.reason;
    valid.value.forEach((parts, i) => {
      const variant = variants[i % variants.length]!;
      const which = variants.length > 1 ? `, environment ${(i % variants.length) + 1} of ${variants.length}` : '';
      // The main company's first read of each environment goes before anything that could change the data (FACTS-AGREE compares them).
      const snapshot = tenant === target.main && i < variants.length;
      probes.push(
        probeFromParts(parts, (p) => {
          const made = makeProbe(target, 'INPUT-ACCEPT', 'valid', `valid read of ${whose}${which}`, {
            endpoint,
            credentials: bearer(tenant.apiKey),
            ...p,
            path: { ...p.path, ...variant },
          });
          const tagged = { ...made, operator: { id: validRequest.id, rank: validRequest.rank, drawn: i > 0 } };
          return snapshot ? { ...tagged, snapshot } : tagged;
        }),
      );
    });
    return undefined;
  };

  for (const endpoint of api.endpoints) {
    if (isRead(endpoint)) {
      const reason = reads(endpoint, target.main, "the main company's data");
      if (reason) skip(endpoint, reason);
      if (target.other) {
        const otherReason = reads(endpoint, target.other, "the other company's data, under its own key");
        if (otherReason) skip(endpoint, `the other company: ${otherReason}`);
      }
      continue;
    }
    if (!target.allowDestructive) {
      skip(endpoint, 'needs --allow-destructive');
      continue;
    }
    const allowLive = target.allowLive === true;
    let path: Record<string, string> | undefined;
    let n = runs;
    if (removedBy(endpoint)) {
      const removal = removalPath(endpoint, target.main.ids, allowLive);
      if (!removal.ok) {
        skip(endpoint, removal.reason);
        continue;
      }
      path = removal.value;
      n = 1; // what it removes goes only once
    }
    const valid = validRequests(endpoint, target.main, streamSeed(context.seed, 'accept', endpoint.name), n, { freeText: true, allowLive, ...(path ? { path } : {}) });
    if (!valid.ok) {
      skip(endpoint, valid.reason);
      continue;
    }
    valid.value.forEach((parts, i) =>
      probes.push(
        probeFromParts(parts, (p) => ({
          ...makeProbe(target, 'INPUT-ACCEPT', 'valid', `valid request ${i + 1} of ${n}`, { endpoint, credentials: bearer(target.main.apiKey), ...p }),
          operator: { id: validRequest.id, rank: validRequest.rank, drawn: i > 0 },
        })),
      ),
    );
  }
  return { probes, skipped };
};
