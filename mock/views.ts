/** Store state → the document's resource shapes. */
import type { Domain, Environment, Site, SiteEnvironmentSummary } from '../generated/types.ts';
import type { DomainState, EnvironmentState, Store } from './store.ts';

export const domainView = (d: DomainState): Domain => ({ id: d.id, name: d.name, type: d.type, site_id: d.siteId });

function domainsOf(store: Store, env: EnvironmentState): { domains: Domain[]; primaryDomain: Domain } {
  const domains = env.domains.map((d) => domainView(store.domain(env.companyId, d.id)!));
  return { domains, primaryDomain: domains[0]! };
}

export function environmentSummaryView(store: Store, env: EnvironmentState): SiteEnvironmentSummary {
  return {
    id: env.id,
    name: env.name,
    display_name: env.displayName,
    is_premium: env.isPremium,
    is_blocked: env.isBlocked,
    ...domainsOf(store, env),
  };
}

export function environmentView(store: Store, env: EnvironmentState): Environment {
  return {
    id: env.id,
    name: env.name,
    display_name: env.displayName,
    is_blocked: env.isBlocked,
    id_edge_cache: env.idEdgeCache,
    cdn_cache_id: env.cdnCacheId,
    is_opt_out_from_automatic_php_update: false,
    web_root: env.webRoot,
    image_optimization_type: 'lossy',
    is_additional_sftp_accounts_enabled: env.sftpAccounts.length > 0,
    is_premium: env.isPremium,
    cms_version: env.cmsVersion,
    ...domainsOf(store, env),
    ssh_connection: { ssh_port: env.sshPort, ssh_ip: { external_ip: env.externalIp } },
    container_info: { id: env.containerId, php_engine_version: env.phpVersion },
  };
}

export function siteView(store: Store, site: NonNullable<ReturnType<Store['site']>>): Site {
  return {
    id: site.id,
    name: site.name,
    display_name: site.displayName,
    company_id: site.companyId,
    status: site.status,
    environments: store.environmentsOf(site.id).map((env) => environmentSummaryView(store, env)),
  };
}
