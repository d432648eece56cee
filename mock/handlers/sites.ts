/** Tag groups Site management and Site Environments (site, environments, SFTP/SSH settings, file tree). */
import { notFound } from '../errors.ts';
import type { Context, HandlerGroup } from '../handler.ts';
import type { EnvironmentState } from '../store.ts';
import { environmentView, siteView } from '../views.ts';

type EnvRead = 'getFileList' | 'getSshAllowedIps' | 'getSshStatus' | 'getSftpPassword' | 'changeSshExpirationInterval';

/** The caller's environment named by `{env_id}`, else 404 (§Authentication 4). */
export function ownEnvironment(context: { store: Context<'getSshStatus'>['store']; company: { id: string } }, envId: string): EnvironmentState {
  const env = context.store.environment(context.company.id, envId);
  if (!env) throw notFound('environment');
  return env;
}

function ownSite(context: Context<'getSite' | 'listEnvironments' | 'resetSite'>) {
  const site = context.store.site(context.company.id, context.params.site_id);
  if (!site) throw notFound('site');
  return site;
}

const env = (context: Context<EnvRead>) => ownEnvironment(context, context.params.env_id);

export const siteHandlers: HandlerGroup<'getSite' | 'listEnvironments' | 'resetSite' | EnvRead> = {
  getSite: (context) => ({ site: siteView(context.store, ownSite(context)) }),
  listEnvironments: (context) => ({
    site: { environments: context.store.environmentsOf(ownSite(context).id).map((e) => environmentView(context.store, e)) },
  }),
  resetSite: (context) => context.acknowledge(ownSite(context).id, { admin_password_set: context.body.admin_password !== undefined }),
  getFileList: (context) => ({ environment: { id: env(context).id, file_list: env(context).fileList } }),
  getSshAllowedIps: (context) => ({ environment: { active_container: { sftp_ip_allowlist: env(context).allowedIps } } }),
  getSshStatus: (context) => ({ environment: { active_container: { is_ssh_enabled: env(context).sshEnabled } } }),
  getSftpPassword: (context) => ({ environment: { id: env(context).id, sftp_password: env(context).sftpPassword } }),
  changeSshExpirationInterval: (context) => {
    env(context).sshExpirationInterval = context.body.exp_interval;
    return { result: null };
  },
};
