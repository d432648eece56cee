/**
 * Finds the ids the probes need, through the read endpoints, from a base URL, a key and a site
 * id: the same path for a live API and for the embedded mock. Odd or missing data leaves an
 * optional id undefined (the probes that need it skip with a reason); only what the suite cannot
 * start without (an answer at all, an accepted key, the site, one environment) is an error.
 */
import { endpoint, fillPath, is2xx as isStatus2xx, operation } from '../spec/queries.ts';
import { redirectTarget } from './body.ts';
import type { DiscoveredIds, Exchange, Probe, ProbeResponse, Send } from './types.ts';

/** The target cannot be used: unreachable, key refused, site not found. The CLI exits 2. */
export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
}

export interface DiscoveryInput {
  /** Ends in `/v2`, no trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly siteId: string;
  readonly send: Send;
  /** How the tenant is named in messages (`--site-id`, `--other-site-id`). */
  readonly label?: string;
}

export interface Discovery {
  readonly ids: DiscoveredIds;
  /** What was missing or odd, for the report's notes. */
  readonly notes: readonly string[];
  /** Requests discovery sent. */
  readonly requests: number;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), v);
const arrayAt = (v: unknown, ...path: string[]): unknown[] => {
  const found = at(v, ...path);
  return Array.isArray(found) ? found : [];
};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const is2xx = (r: ProbeResponse | undefined): r is ProbeResponse => !!r && isStatus2xx(r.status);

/** A short account of an answer the suite cannot use, naming the cause, for messages. */
export function describe(exchange: Exchange): string {
  if (exchange.failure) return exchange.failure.message;
  const r = exchange.response!;
  if (r.status >= 300 && r.status < 400) {
    return `HTTP ${r.status}, a redirect (Location: ${redirectTarget(r.headers)}); the suite does not follow redirects: give the final URL as --base-url`;
  }
  if (is2xx(r) && r.json === undefined) return `HTTP ${r.status}, but ${r.jsonError ?? 'the body is not JSON'}`;
  const message = str(at(r.json, 'message'));
  return `HTTP ${r.status}${message ? ` (${message.slice(0, 200)}${message.length > 200 ? '…' : ''})` : ''}`;
}


export async function discover(input: DiscoveryInput): Promise<Discovery> {
  const label = input.label ?? '--site-id';
  const notes: string[] = [];
  let requests = 0;
  const get = async (name: string, params: Record<string, string> = {}): Promise<Exchange> => {
    const e = endpoint(name);
    const probe: Probe = {
      rule: 'INPUT-ACCEPT',
      endpoint: e,
      expect: 'valid',
      title: `discovery: ${operation(e)}`,
      request: {
        method: e.method,
        url: `${input.baseUrl}${fillPath(e.path, params)}`,
        headers: { authorization: `Bearer ${input.apiKey}`, accept: 'application/json' },
      },
    };
    requests++;
    const exchange = await input.send(probe);
    requests += exchange.throttled;
    return exchange;
  };
  const optional = async (name: string, params: Record<string, string>, what: string): Promise<unknown> => {
    const exchange = await get(name, params);
    if (is2xx(exchange.response)) return exchange.response.json;
    notes.push(`discovery: ${operation(endpoint(name))} answered ${describe(exchange)}; ${what} unknown`);
    return undefined;
  };

  // 1. The key, and whether anything answers at all, and at the right place.
  const validate = await get('validateApiKey');
  if (validate.failure?.kind === 'throttled') throw new DiscoveryError(`GET /validate was ${validate.failure.message}`);
  if (validate.failure) {
    // It was reached when the connection was taken and the answer broke off or made no sense.
    const reached = validate.failure.kind === 'reset' || validate.failure.kind === 'protocol';
    throw new DiscoveryError(`${reached ? 'no usable answer from' : 'cannot reach'} ${input.baseUrl}: ${validate.failure.message}`);
  }
  const validated = validate.response!;
  if (validated.status === 401) throw new DiscoveryError(`the API key was refused: GET /validate answered ${describe(validate)}`);
  if (validated.status === 404) {
    throw new DiscoveryError(`GET /validate answered ${describe(validate)}: nothing answers at ${input.baseUrl}/validate; check --base-url (the API's base, the path before /validate, ending in /v2)`);
  }
  if (validated.status >= 300 && validated.status < 400) throw new DiscoveryError(`GET /validate answered ${describe(validate)}`);
  let companyId = is2xx(validated) ? str(at(validated.json, 'company')) : undefined;
  if (!companyId) notes.push(`discovery: GET /validate answered ${describe(validate)}; the company id is read from the site instead`);

  // 2. The site.
  const site = await get('getSite', { site_id: input.siteId });
  if (site.failure) throw new DiscoveryError(`cannot read the site of ${label}: GET /sites/${input.siteId}: ${describe(site)}`);
  if (!is2xx(site.response) || site.response.json === undefined) {
    throw new DiscoveryError(`cannot read the site of ${label} ${input.siteId}: GET /sites/{site_id} answered ${describe(site)}`);
  }
  const siteBody = at(site.response.json, 'site');
  companyId ??= str(at(siteBody, 'company_id'));
  if (!companyId) {
    throw new DiscoveryError(
      `cannot tell the company id: GET /validate answered ${describe(validate)}${is2xx(validated) && validated.json !== undefined ? ' without `company`' : ''}, and GET /sites/{site_id} names no \`company_id\``,
    );
  }

  // 3. Environments: the full list, else the site's summaries.
  const envsBody = await optional('listEnvironments', { site_id: input.siteId }, 'environment details');
  let envs = arrayAt(envsBody, 'site', 'environments').filter(isObject);
  if (!envs.some((e) => str(e.id))) envs = arrayAt(siteBody, 'environments').filter(isObject);
  envs = envs.filter((e) => str(e.id));
  if (!envs.length) throw new DiscoveryError(`the site ${input.siteId} has no environment the suite can use (no environment with an id)`);
  const chosen = chooseEnvironment(envs);
  const envId = str(chosen.id)!;
  if (str(chosen.name) === 'live') notes.push(`discovery: the site has only a live environment; actions aim at it (${envId})`);

  // 4. Domain and one of its DNS records: the chosen environment's first, else any environment's.
  const domains = [chosen, ...envs.filter((e) => e !== chosen)].flatMap((e) => [at(e, 'primaryDomain'), ...arrayAt(e, 'domains')]).filter(isObject);
  const domainId = domains.map((d) => str(d.id)).find((id) => id !== undefined);
  if (!domainId) notes.push('discovery: no domain with an id; probes that need a domain skip');
  let dnsRecord: DiscoveredIds['dnsRecord'];
  if (domainId) {
    const records = arrayAt(await optional('listDnsRecords', { domain_id: domainId }, 'DNS records'), 'domain', 'dns_records').filter(isObject);
    const named = records.filter((r) => str(r.type) && str(r.name));
    const record = named.find((r) => r.type === 'A') ?? named[0];
    if (record) dnsRecord = { type: str(record.type)!, name: str(record.name)! };
    else notes.push('discovery: the domain has no DNS record with a type and a name');
  }

  // 5. Backups and additional SFTP accounts of the chosen environment; a company user.
  const backups = arrayAt(await optional('listBackups', { env_id: envId }, 'backup ids'), 'environment', 'backups');
  const backupId = backups.map((b) => at(b, 'id')).find((id): id is number => Number.isInteger(id));
  if (backupId === undefined) notes.push('discovery: the environment has no backup with an integer id; backup restores skip');
  const accounts = arrayAt(await optional('listAdditionalSftpAccounts', { env_id: envId }, 'SFTP account ids'), 'environment', 'additional_sftp_accounts');
  const sftpAccountIds = accounts.map((a) => str(at(a, 'id'))).filter((id): id is string => id !== undefined);
  const users = arrayAt(await optional('listCompanyUsers', { id: companyId }, 'user ids'), 'company', 'users');
  const userId = users.map((u) => str(at(u, 'user', 'id'))).find((id) => id !== undefined);

  const ids: DiscoveredIds = {
    companyId,
    siteId: input.siteId,
    envIds: envs.map((e) => str(e.id)!),
    envId,
    sftpAccountIds,
    ...defined({ cdnCacheId: str(chosen.cdn_cache_id), domainId, dnsRecord, backupId, userId }),
  };
  return { ids, notes, requests };
}

/** Actions aim at a non-live, unblocked environment when there is one (the least harm on a real site). */
export function chooseEnvironment(envs: readonly Json[]): Json {
  const nonLive = envs.filter((e) => e.name !== 'live');
  return nonLive.find((e) => e.is_blocked !== true) ?? nonLive[0] ?? envs.find((e) => e.is_blocked !== true) ?? envs[0]!;
}

/** The entries whose value is not undefined (for `exactOptionalPropertyTypes`-safe spreading). */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
