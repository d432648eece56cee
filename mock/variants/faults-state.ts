/**
 * Faults of state (the STATE-* rules): acknowledged changes that never happen, happen only in
 * part, or change more than they name; a creation that answers success but creates nothing.
 * Each is the reference handler with one thing changed.
 */
import type { UpdateDnsRecordsRequest } from '../../generated/types.ts';
import { handlers } from '../app.ts';
import { HttpError, notFound } from '../errors.ts';
import { derivedContext, type Context } from '../handler.ts';
import type { EnvironmentState, Store } from '../store.ts';
import type { Hooks, Variant } from '../variant.ts';
import { fault } from './build.ts';

/** The reference DNS update, on a body rewritten from the values the record holds now. */
const dnsUpdateRewritten =
  (rewrite: (body: UpdateDnsRecordsRequest, held: readonly string[]) => UpdateDnsRecordsRequest) => (context: Context<'updateDnsRecords'>) => {
    const { body } = context;
    const record = context.store.domain(context.company.id, context.params.domain_id)?.dnsRecords.find((r) => r.type === body.type && r.name === body.name);
    return handlers.updateDnsRecords(derivedContext(context, { body: rewrite(body, record?.resource_records.map((r) => r.value) ?? []) }));
  };

const values = (list: readonly { value: string }[] | undefined) => (list ?? []).map((r) => r.value);

/**
 * The reference SFTP removal, then `more` on the account's environment (the removed account as it
 * was): the faults of a removal that changes more than the account it names.
 */
function removalThen(more: (store: Store, env: EnvironmentState, removed: EnvironmentState['sftpAccounts'][number]) => void): Hooks {
  return {
    handlers: {
      removeAdditionalSftpAccount: (context) => {
        const env = context.store.sftpAccountOwner(context.company.id, context.params.sftp_account_id);
        const removed = env?.sftpAccounts.find((a) => a.id === context.params.sftp_account_id.toLowerCase());
        const answer = handlers.removeAdditionalSftpAccount(context);
        if (env && removed) more(context.store, env, removed);
        return answer;
      },
    },
  };
}

export const stateFaults: readonly Variant[] = [
  fault('dns-update-ttl-ignored', 'STATE-DNS-UPDATE', 'updateDnsRecords', 'The DNS update ignores the `ttl` it carries for a record the domain already holds (a new record takes it).', {
    handlers: {
      updateDnsRecords: dnsUpdateRewritten((body, held) => {
        if (!held.length) return body;
        const { ttl: _ignored, ...rest } = body;
        return rest;
      }),
    },
  }),
  fault('dns-update-not-applied', 'STATE-DNS-UPDATE', 'updateDnsRecords', 'The DNS update is acknowledged but never applied.', {
    handlers: { updateDnsRecords: (context) => context.acknowledge(context.params.domain_id, context.body) },
  }),
  fault('dns-removal-not-applied', 'STATE-DNS-UPDATE', 'updateDnsRecords', 'The DNS update adds values but never removes any.', {
    judgeInput: (endpoint, body, reference) => {
      if (endpoint.name === 'updateDnsRecords' && body && typeof body === 'object') (body as Record<string, unknown>).removed_resource_records = [];
      return reference;
    },
  }),
  fault('dns-update-drops-other-values', 'STATE-DNS-UPDATE', 'updateDnsRecords', "The DNS update replaces the record's values: values it does not name are dropped.", {
    handlers: {
      updateDnsRecords: dnsUpdateRewritten((body, held) => {
        const kept = new Set(values(body.new_resource_records));
        return { ...body, removed_resource_records: [...(body.removed_resource_records ?? []), ...held.filter((v) => !kept.has(v)).map((value) => ({ value }))] };
      }),
    },
  }),
  fault('dns-update-trims-other-records', 'STATE-DNS-UPDATE', 'updateDnsRecords', 'Every DNS update also trims each other record of the domain to its first value.', {
    handlers: {
      updateDnsRecords: (context) => {
        const answer = handlers.updateDnsRecords(context);
        const domain = context.store.domain(context.company.id, context.params.domain_id)!;
        const { type, name } = context.body;
        for (const other of domain.dnsRecords.filter((r) => (r.type !== type || r.name !== name) && r.resource_records.length > 1)) {
          context.store.updateDnsRecords(domain, { type: other.type, name: other.name, removed_resource_records: other.resource_records.slice(1) });
        }
        return answer;
      },
    },
  }),
  fault('dns-removal-only-first-value', 'STATE-DNS-UPDATE', 'updateDnsRecords', 'The DNS update removes only the first value of `removed_resource_records`; the others stay.', {
    handlers: { updateDnsRecords: dnsUpdateRewritten((body) => ({ ...body, removed_resource_records: (body.removed_resource_records ?? []).slice(0, 1) })) },
  }),
  fault('dns-removal-removes-all', 'STATE-DNS-UPDATE', 'updateDnsRecords', "Removing any value of a record removes all its values; the update's new values stay.", {
    handlers: {
      updateDnsRecords: dnsUpdateRewritten((body, held) =>
        values(body.removed_resource_records).length ? { ...body, removed_resource_records: held.map((value) => ({ value })) } : body,
      ),
    },
  }),
  fault('sftp-removal-not-applied', 'STATE-SFTP-REMOVE', 'removeAdditionalSftpAccount', 'The SFTP account removal is acknowledged but the account stays.', {
    handlers: {
      removeAdditionalSftpAccount: (context) => {
        if (!context.store.sftpAccountOwner(context.company.id, context.params.sftp_account_id)) throw new HttpError(404);
        return context.acknowledge(context.params.sftp_account_id);
      },
    },
  }),
  fault('sftp-removal-by-directory', 'STATE-SFTP-REMOVE', 'removeAdditionalSftpAccount', 'Removing an additional SFTP account removes every account of its environment with the same root directory (accounts keyed by directory).', removalThen((store, env, removed) => {
    for (const other of env.sftpAccounts.filter((a) => a.root_directory === removed.root_directory)) store.removeSftpAccount(env, other.id);
  })),
  fault('sftp-removal-removes-every-account', 'STATE-SFTP-REMOVE', 'removeAdditionalSftpAccount', 'Removing an additional SFTP account removes every account of its environment.', removalThen((store, env) => {
    for (const other of [...env.sftpAccounts]) store.removeSftpAccount(env, other.id);
  })),
  fault('sftp-removal-deactivates-others', 'STATE-SFTP-REMOVE', 'removeAdditionalSftpAccount', 'Removing an additional SFTP account also deactivates the other accounts of its environment (`is_active` false).', removalThen((_store, env) => {
    for (const other of env.sftpAccounts) other.is_active = false;
  })),
  fault('wpa-create-user-not-created', 'STATE-WPA-USER', 'createWpAdminUser', 'wpa-create-user answers `create_wp_admin_user: true` but creates no user.', {
    handlers: {
      createWpAdminUser: (context) => {
        if (!context.store.environment(context.company.id, context.params.env_id)) throw notFound('environment');
        return { create_wp_admin_user: true };
      },
    },
  }),
];
