/**
 * INPUT-ACCEPT: requests valid under every reasonable reading of the document get the endpoint's
 * success. Bodies come from `requestBodyArb` (every field present: ASM-NOT-SHOWN-FIELDS-SENT)
 * with the discovered ids, `runs` of them per action, with full-Unicode text in the free-text
 * fields (search and replace, first and last names) for NO-SERVER-ERROR to judge. Reads name
 * every discovered environment (as many as `runs` allows), and the other company's data under
 * its own key. Reads whose only input is an id get one request per id: repeating it adds nothing.
 */
import { api } from '../../spec/api.ts';
import type { Endpoint } from '../../spec/model.ts';
import { isRead } from '../../spec/queries.ts';
import type { Probe, ProbeContext, ProbeSource, Skip, Tenant } from '../types.ts';
import { validRequests } from './inputs.ts';
import { bearer, makeProbe, probeFromParts, streamSeed } from './request.ts';

/** Path overrides that spread reads over every discovered environment. */
function pathVariants(endpoint: Endpoint, tenant: Tenant): readonly Readonly<Record<string, string>>[] {
  const env = endpoint.pathParams.find((p) => p.name === 'env_id');
  return env && tenant.ids.envIds.length ? tenant.ids.envIds.map((id) => ({ env_id: id })) : [{}];
}

/**
 * The account INPUT-ACCEPT removes: the last discovered, when another is left for the
 * STATE-SFTP-REMOVE property (which leaves this one out of its model, as its removal may still
 * be settling when the property starts).
 */
export function sftpAccountToRemove(tenant: Tenant): { readonly id?: string; readonly reason?: string } {
  const ids = tenant.ids.sftpAccountIds;
  if (ids.length === 0) return { reason: 'no additional SFTP account discovered' };
  if (ids.length === 1) return { reason: 'only one additional SFTP account discovered, and STATE-SFTP-REMOVE removes it' };
  return { id: ids[ids.length - 1]! };
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
      probes.push(
        probeFromParts(parts, (p) =>
          makeProbe(target, 'INPUT-ACCEPT', 'valid', `valid read of ${whose}${which}`, {
            endpoint,
            credentials: bearer(tenant.apiKey),
            ...p,
            path: { ...p.path, ...variant },
          }),
        ),
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
    let path: Record<string, string> | undefined;
    let n = runs;
    if (endpoint.name === 'removeAdditionalSftpAccount') {
      const account = sftpAccountToRemove(target.main);
      if (!account.id) {
        skip(endpoint, account.reason!);
        continue;
      }
      path = { sftp_account_id: account.id };
      n = 1; // an account goes only once
    }
    const valid = validRequests(endpoint, target.main, streamSeed(context.seed, 'accept', endpoint.name), n, { freeText: true, ...(path ? { path } : {}) });
    if (!valid.ok) {
      skip(endpoint, valid.reason);
      continue;
    }
    valid.value.forEach((parts, i) =>
      probes.push(probeFromParts(parts, (p) => makeProbe(target, 'INPUT-ACCEPT', 'valid', `valid request ${i + 1} of ${n}`, { endpoint, credentials: bearer(target.main.apiKey), ...p }))),
    );
  }
  return { probes, skipped };
};
