/**
 * Faults of ISOLATION-WRITE: an action that, under one company's key, acts on another company's
 * data its request names (OWASP API1:2023 on writes), one per action whose effect or refusal the
 * suite can observe. The handler is the reference's, given a store that forgets whose data it
 * holds: every lookup finds any company's, and any company's user may be named. (Clearing a CDN
 * cache or switching edge caching lists no refusal and changes nothing a read shows: a fault
 * there would be no different from the letter's acknowledgement, so none is listed.)
 */
import type { EndpointName } from '../../generated/types.ts';
import { handlers } from '../app.ts';
import { derivedContext, type Context } from '../handler.ts';
import type { Store } from '../store.ts';
import type { Variant } from '../variant.ts';
import { fault } from './build.ts';

/** Lookups that take a company and an id, answered from every company. */
const SCOPED = ['company', 'site', 'environment', 'domain', 'sftpAccountOwner'] as const;

/** The store with every company-scoped lookup answered from any company. */
function unscoped(store: Store): Store {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (!(SCOPED as readonly PropertyKey[]).includes(key) || typeof value !== 'function') return value;
      return (_companyId: string, id: string) => {
        for (const company of target.companies) {
          const found: unknown = value.call(target, company.id, id);
          if (found !== undefined) return found;
        }
        return undefined;
      };
    },
  });
}

/** The reference handler of `name`, with the store unscoped and every company's users the caller's. */
const acrossTenants = <N extends EndpointName>(name: N) => ({
  handlers: {
    [name]: (context: Context<N>) => {
      const everyUser = context.store.companies.flatMap((c) => c.users);
      return (handlers[name] as (c: Context<N>) => unknown)(derivedContext(context, { store: unscoped(context.store), company: { ...context.company, users: everyUser } }));
    },
  },
});

const across = (name: EndpointName, what: string): Variant =>
  fault(`writes-across-tenants-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, 'ISOLATION-WRITE', name, `${what} under another company's key, when its request names them.`, acrossTenants(name));

export const isolationFaults: readonly Variant[] = [
  across('updateDnsRecords', "Updates another company's DNS records"),
  across('searchAndReplace', "Searches and replaces in another company's environment"),
  across('changeWebrootSubfolder', "Changes another company's webroot"),
  across('restoreBackup', "Restores another company's backups, into another company's environment, notifying another company's users"),
  across('runWpCliCommand', "Runs commands in another company's environment"),
  across('resetSite', "Resets another company's site"),
  across('removeAdditionalSftpAccount', "Removes another company's SFTP accounts"),
  across('createWpAdminUser', "Creates site-admin users in another company's environment"),
  across('changeSshExpirationInterval', "Changes another company's SSH expiry"),
];
