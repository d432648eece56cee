/**
 * Tag groups Backups, Site Themes & Plugins, Additional SFTP Users, Site Tools, Edge Caching
 * and CDN: everything that acts on one environment.
 */
import { notFound } from '../errors.ts';
import type { HandlerGroup } from '../handler.ts';
import { ownEnvironment } from './sites.ts';

type EnvEndpoint =
  | 'listBackups'
  | 'restoreBackup'
  | 'listPlugins'
  | 'listThemes'
  | 'listAdditionalSftpAccounts'
  | 'removeAdditionalSftpAccount'
  | 'checkWpAdminUserExists'
  | 'createWpAdminUser'
  | 'runWpCliCommand'
  | 'changeWebrootSubfolder'
  | 'searchAndReplace'
  | 'setEdgeCachingStatus'
  | 'clearCdnCache';

/** UUID text on input ignores case (RFC 9562 §4, as `clearCdnCache` compares its cache id). */
const sameIgnoringCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The environment an unmarked `environment_id` names; undefined when omitted (UNK-BODY-MARKING:
 * the mock acknowledges and acts on nothing, since the document states no refusal for it).
 */
const namedEnvironment = (context: Parameters<typeof ownEnvironment>[0], id: string | undefined) =>
  id === undefined ? undefined : ownEnvironment(context, id);

export const environmentHandlers: HandlerGroup<EnvEndpoint> = {
  listBackups: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    return { environment: { display_name: env.displayName, backups: env.backups } };
  },
  restoreBackup: (context) => {
    const env = ownEnvironment(context, context.params.target_env_id);
    // A backup of any environment of the same site may be restored into the target. Without
    // `backup_id` (unmarked: UNK-BODY-MARKING) the mock acknowledges and restores nothing.
    const backupId = context.body.backup_id;
    const known = backupId === undefined || context.store.environmentsOf(env.siteId).some((e) => e.backups.some((b) => b.id === backupId));
    if (!known) throw notFound('backup');
    // The user to notify is named by id like the rest: another company's user is not the caller's to name.
    const notified = context.body.notified_user_id;
    if (notified !== undefined && !context.company.users.some(({ user }) => sameIgnoringCase(user.id, notified))) throw notFound('user');
    return context.acknowledge(env.id, context.body);
  },
  listPlugins: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    return { environment: { id: env.id, container_info: { id: env.containerId, wp_plugins: { data: env.plugins } } } };
  },
  listThemes: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    const status = context.body.status;
    // `status` filters when it names a status the themes carry; its allowed values are not shown.
    const items = status && env.themes.some((t) => t.status === status) ? env.themes.filter((t) => t.status === status) : env.themes;
    return { environment: { themes: { items, last_updated_at: '2026-10-01T08:30:00.000Z' } } };
  },
  listAdditionalSftpAccounts: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    return { environment: { additional_sftp_accounts: env.sftpAccounts, container_info: { additional_sftp_accounts_port: env.sftpAccountsPort } } };
  },
  removeAdditionalSftpAccount: (context) => {
    const id = context.params.sftp_account_id;
    const env = context.store.sftpAccountOwner(context.company.id, id);
    if (!env) throw notFound('additional SFTP account');
    context.store.removeSftpAccount(env, id);
    return context.acknowledge(id);
  },
  checkWpAdminUserExists: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    return { has_wp_admin_user: context.store.hasWpAdmin(env, context.query.email) };
  },
  createWpAdminUser: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    const email = context.body.email;
    return { create_wp_admin_user: email !== undefined && context.store.addWpAdmin(env, email) };
  },
  runWpCliCommand: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    return context.acknowledge(env.id, context.body);
  },
  changeWebrootSubfolder: (context) => {
    const env = ownEnvironment(context, context.params.env_id);
    const subfolder = context.body.web_root_subfolder;
    if (subfolder !== undefined) env.webRootSubfolder = subfolder;
    return context.acknowledge(env.id, context.body, 'The webroot change is in progress; check its outcome in the customer dashboard.');
  },
  searchAndReplace: (context) => {
    const env = namedEnvironment(context, context.body.environment_id);
    return context.acknowledge(env?.id, context.body);
  },
  setEdgeCachingStatus: (context) => {
    const env = namedEnvironment(context, context.body.environment_id);
    if (env && context.body.enabled !== undefined) env.edgeCachingEnabled = context.body.enabled;
    return context.acknowledge(env?.id, context.body);
  },
  clearCdnCache: (context) => {
    const env = ownEnvironment(context, context.body.environment_id);
    if (env.cdnCacheId.toLowerCase() !== context.body.cdn_cache_id.toLowerCase()) throw notFound('CDN cache');
    return context.acknowledge(env.id, context.body);
  },
};
