/**
 * Finds the ids the probes need, through the read endpoints, from a base URL, a key and a site
 * id: the same path for a live API and for the embedded mock. Odd or missing data leaves an
 * optional id undefined (the probes that need it skip with a reason); only what the suite cannot
 * start without (an answer at all, an accepted key, the site, one environment) is an error.
 * Its reads are built by the request kit, and the ids actions take (the STATE-* properties act on
 * them) follow the kit's safety rules: a destructive action keeps off a live environment unless
 * `allowLive` (--allow-live).
 */
import type { ResourceName } from '../spec/model.ts';
import { is2xx as isStatus2xx, operation, readOf, type Location } from '../spec/queries.ts';
import { at, count, isObject } from './checks/values.ts';
import { defined } from './defined.ts';
import { redirectTarget } from './body.ts';
import { isLive, placeOf, validRequests, type Found, type Ids } from './probes/inputs.ts';
import { bearer, makeProbe } from './probes/request.ts';
import type { DiscoveredIds, Exchange, Place, ProbeResponse, Send } from './types.ts';

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
  /**
   * Destructive requests may act on a live environment (`--allow-live`): the ids the STATE-*
   * properties act on may then be a live environment's. Default: never.
   */
  readonly allowLive?: boolean;
  /** Environments explored at most (default `MAX_EXPLORED_ENVIRONMENTS`): a run under a budget explores the second company's first only. */
  readonly maxEnvironments?: number;
}

export interface Discovery {
  readonly ids: DiscoveredIds;
  /** What was missing or odd, for the report's notes. */
  readonly notes: readonly string[];
  /** Requests discovery sent. */
  readonly requests: number;
  /** Every exchange it had, in order: the run judges them as it judges its own (every answer is judged). */
  readonly exchanges: readonly Exchange[];
}

type Json = Record<string, unknown>;

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


/** Bounds on exploring a site: each is stated in a note when it cuts (never a silent gap). */
export const MAX_EXPLORED_ENVIRONMENTS = 20;
export const MAX_EXPLORED_DOMAINS = 40;

export async function discover(input: DiscoveryInput): Promise<Discovery> {
  const label = input.label ?? '--site-id';
  const notes: string[] = [];
  const exchanges: Exchange[] = [];
  let requests = 0;
  /** One read of the model, its path ids named by what they refer to, built by the request kit. */
  const read = async (location: Location, ids: Ids = {}): Promise<Exchange> => {
    const e = location.endpoint;
    const built = validRequests(e, { ids }, 0, 1);
    // Discovery names every id its reads refer to: a reason here is a bug, not the target's doing.
    if (!built.ok) throw new Error(`discovery cannot build ${operation(e)}: ${built.reason}`);
    const { drawn: _, ...parts } = built.value[0]!;
    // Read before the run sends anything that could change the data: what it shows is comparable (FACTS-AGREE).
    const probe = { ...makeProbe(input, 'INPUT-ACCEPT', 'valid', `discovery: ${operation(e)}`, { endpoint: e, credentials: bearer(input.apiKey), ...parts }), snapshot: true as const };
    requests++;
    const exchange = await input.send(probe);
    requests += exchange.throttled;
    exchanges.push(exchange);
    return exchange;
  };
  /** The items a list read gives; undefined (and a note) when it gives none. */
  const listed = async (resource: ResourceName, ids: Ids, what: string): Promise<Json[] | undefined> => {
    const location = readOf(resource);
    const exchange = await read(location, ids);
    if (is2xx(exchange.response) && exchange.response.json !== undefined) return arrayAt(exchange.response.json, ...location.path).filter(isObject);
    notes.push(`discovery: ${operation(location.endpoint)} answered ${describe(exchange)}; ${what} unknown`);
    return undefined;
  };
  const list = async (...args: Parameters<typeof listed>): Promise<Json[]> => (await listed(...args)) ?? [];

  // 1. The key, and whether anything answers at all, and at the right place.
  const validate = await read(readOf('ValidatedKey'));
  if (validate.failure?.kind === 'throttled') throw new DiscoveryError(`GET /validate was ${validate.failure.message}`);
  if (validate.failure?.kind === 'runner') throw new DiscoveryError(`GET /validate judged nothing: ${validate.failure.message}; run it where the suite gets the CPU it needs, or give it a longer --timeout-ms`);
  if (validate.failure?.kind === 'budget') throw new DiscoveryError(`the run's budget was spent before any check (GET /validate ${validate.failure.message}); give --max-requests or --max-duration room for discovery too`);
  if (validate.failure) {
    // It was reached when the connection was taken and the answer broke off or made no sense; a
    // deadline passed says nothing of whether the connection was taken.
    const kind = validate.failure.kind;
    const what = kind === 'timeout' ? 'no answer from' : kind === 'reset' || kind === 'protocol' ? 'no usable answer from' : 'cannot reach';
    throw new DiscoveryError(`${what} ${input.baseUrl}: ${validate.failure.message}`);
  }
  const validated = validate.response!;
  if (validated.status === 401) throw new DiscoveryError(`the API key was refused: GET /validate answered ${describe(validate)}`);
  if (validated.status === 404) {
    // A document error body (a `message`) means the API is there and refused this key's data (the
    // reading side of CONFLICT-VALIDATE-404); anything else, that the path names no endpoint.
    const errorBody = typeof at(validated.json, 'message') === 'string';
    throw new DiscoveryError(
      errorBody
        ? `GET /validate answered ${describe(validate)}: an error body of the document's shape, so the base URL looks right but the key's data was not found (CONFLICT-VALIDATE-404); check the key, and --base-url`
        : `GET /validate answered ${describe(validate)}: nothing answers at ${input.baseUrl}/validate; check --base-url (the API's base, the path before /validate, ending in /v2)`,
    );
  }
  if (validated.status >= 300 && validated.status < 400) throw new DiscoveryError(`GET /validate answered ${describe(validate)}`);
  let companyId = is2xx(validated) ? str(at(validated.json, 'company')) : undefined;
  if (!companyId) notes.push(`discovery: GET /validate answered ${describe(validate)}; the company id is read from the site instead`);

  // 2. The site.
  const siteRead = readOf('Site');
  const site = await read(siteRead, { siteId: input.siteId });
  if (site.failure) throw new DiscoveryError(`cannot read the site of ${label}: GET /sites/${input.siteId}: ${describe(site)}`);
  if (!is2xx(site.response) || site.response.json === undefined) {
    throw new DiscoveryError(`cannot read the site of ${label} ${input.siteId}: GET /sites/{site_id} answered ${describe(site)}`);
  }
  const siteBody = at(site.response.json, ...siteRead.path);
  companyId ??= str(at(siteBody, 'company_id'));
  if (!companyId) {
    throw new DiscoveryError(
      `cannot tell the company id: GET /validate answered ${describe(validate)}${is2xx(validated) && validated.json !== undefined ? ' without `company`' : ''}, and GET /sites/{site_id} names no \`company_id\``,
    );
  }

  // 3. Environments: the full list, else the site's summaries; the order actions prefer them.
  const summaries = arrayAt(siteBody, 'environments').filter(isObject);
  let envs = await list('Environment', { siteId: input.siteId }, 'environment details');
  if (!envs.some((e) => str(e.id))) envs = summaries;
  envs = envs.filter((e) => str(e.id));
  if (!envs.length) throw new DiscoveryError(`the site ${input.siteId} has no environment the suite can use (no environment with an id)`);
  // The site's summary of an environment lists its domains too: a list that leaves them out loses none.
  const summaryOf = (env: Json) => summaries.find((e) => e !== env && str(e.id) === str(env.id));
  const domainsOf = (env: Json) => {
    const summary = summaryOf(env);
    return uniqueById([env, ...(summary ? [summary] : [])].flatMap((e) => [at(e, 'primaryDomain'), ...arrayAt(e, 'domains')]).filter(isObject));
  };
  const preferred = preferenceOrder(envs);
  const explored = Math.max(1, Math.min(input.maxEnvironments ?? MAX_EXPLORED_ENVIRONMENTS, MAX_EXPLORED_ENVIRONMENTS));
  if (preferred.length > explored) {
    notes.push(`discovery: explored the first ${explored} of ${preferred.length} environments (in the order actions prefer them)${explored < MAX_EXPLORED_ENVIRONMENTS ? ' (the run has a budget)' : ''}`);
  }

  // 4. Every environment: its domains and their records, its backups and additional SFTP accounts.
  const places: Place[] = [];
  let domainBudget = MAX_EXPLORED_DOMAINS;
  const seen = { domains: 0, records: 0, backups: 0, accounts: 0, skippedDomains: 0 };
  /** Each place's chosen domain's records as listed: the DNS state property's first baseline. */
  const recordsOf = new Map<Place, unknown[]>();
  /** Each place's additional SFTP accounts as discovery listed them (STATE-SFTP-REMOVE compares). */
  const accountsOf = new Map<Place, unknown[]>();
  for (const env of preferred.slice(0, explored)) {
    const envId = str(env.id)!;
    const domains = domainsOf(env);
    let chosen: { id: string; name?: string; record?: { type: string; name: string }; records?: unknown[] } | undefined;
    for (const domain of domains) {
      if (domainBudget <= 0) {
        seen.skippedDomains++;
        continue;
      }
      domainBudget--;
      seen.domains++;
      const recordsRead = await listed('DnsRecord', { domainId: str(domain.id)! }, `the DNS records of domain ${str(domain.id)}`);
      const records = recordsRead ?? [];
      seen.records += records.length;
      const named = records.filter((r) => str(r.type) && str(r.name));
      const record = named.find((r) => r.type === 'A') ?? named[0];
      const candidate = { id: str(domain.id)!, ...defined({ name: str(domain.name), record: record && { type: str(record.type)!, name: str(record.name)! }, records: recordsRead }) };
      // The probe zone is the domain's own name; a domain known only by a record's name comes second.
      if (!chosen || (!chosen.name && candidate.name) || (!chosen.name && !chosen.record && candidate.record)) chosen = candidate;
    }
    const backups = await list('Backup', { envId }, `the backups of environment ${envId}`);
    seen.backups += backups.length;
    const backupIds = backups.map((b) => b.id).filter((id): id is number => Number.isInteger(id));
    const accounts = await list('AdditionalSftpAccount', { envId }, `the additional SFTP accounts of environment ${envId}`);
    const sftpAccountIds = accounts.map((a) => str(a.id)).filter((id): id is string => id !== undefined);
    seen.accounts += sftpAccountIds.length;
    const place: Place = {
      envId,
      sftpAccountIds,
      ...(looksLive(env) ? { live: true as const } : {}),
      ...defined({
        envName: str(env.name),
        cdnCacheId: str(env.cdn_cache_id),
        domainId: chosen?.id,
        domainName: chosen?.name,
        dnsRecord: chosen?.record,
      }),
      ...(backupIds.length ? { backupId: backupIds[0], backupIds } : {}),
    };
    places.push(place);
    if (chosen?.records) recordsOf.set(place, chosen.records);
    accountsOf.set(place, accounts);
  }
  if (seen.skippedDomains) notes.push(`discovery: explored the DNS records of ${seen.domains} domains; ${seen.skippedDomains} more not read (at most ${MAX_EXPLORED_DOMAINS})`);

  // 5. A company user.
  const users = await list('CompanyUser', { companyId }, 'user ids');
  const userId = users.map((u) => str(at(u, 'user', 'id'))).find((id) => id !== undefined);

  notes.push(
    `discovery: explored ${count(places.length, 'environment')}, ${count(seen.domains, 'domain')} (${count(seen.records, 'DNS record')}), ` +
      `${count(seen.backups, 'backup')}, ${count(seen.accounts, 'additional SFTP account')}, ${count(users.length, 'company user')}`,
  );
  const main = places[0]!;
  const allowLive = input.allowLive === true;
  if (isLive(main)) {
    notes.push(
      `discovery: the site has no non-live environment; reads and mutating actions aim at the live one (${main.envId}), ` +
        (allowLive ? 'destructive ones too (--allow-live)' : 'destructive ones skip without --allow-live'),
    );
  }
  else notes.push(`discovery: actions aim at environment ${main.envId}${main.envName ? ` (${main.envName})` : ''}: the first that does not look live (ASM-LIVE-ENVIRONMENT)${preferred[0]?.is_blocked === true ? '' : ' and is not blocked'}`);
  // Where the actions naming each kind of data take it from: the request kit's rule, so the STATE-*
  // properties (which act on these ids) keep to the same safety rules as every probe.
  const families: Family[] = [
    { found: placeOf('dns-record', places, allowLive), actions: 'DNS updates', act: 'act on a domain', none: 'no domain with a name or a DNS record; probes that need a domain skip' },
    { found: placeOf('backup', places, allowLive), actions: 'backup restores', act: 'use a backup', none: 'no backup with an integer id; backup restores skip' },
    { found: placeOf('additional-sftp-account', places, allowLive), actions: 'SFTP removals', act: 'act on an additional SFTP account', none: 'no additional SFTP account; probes that remove one skip' },
  ];
  notes.push(...elsewhere(main, families));
  const [dns, backup, sftp] = families.map((f) => (f.found.ok ? f.found.value : undefined));

  const ids: DiscoveredIds = {
    companyId,
    siteId: input.siteId,
    envIds: envs.map((e) => str(e.id)!),
    envId: main.envId,
    sftpEnvId: (sftp ?? main).envId,
    sftpAccountIds: sftp?.sftpAccountIds ?? [],
    places,
    ...defined({
      cdnCacheId: main.cdnCacheId,
      domainId: dns?.domainId,
      domainName: dns?.domainName,
      dnsRecord: dns?.dnsRecord,
      dnsRecordsAtStart: dns && recordsOf.get(dns),
      sftpAccountsAtStart: sftp && accountsOf.get(sftp),
      backupId: backup?.backupId,
      userId,
    }),
  };
  return { ids, notes, requests, exchanges };
}

/** A kind of data actions name, where they take it from (or why nowhere), and how notes name them. */
interface Family {
  readonly found: Found<Place | undefined>;
  readonly actions: string;
  readonly act: string;
  readonly none: string;
}

/**
 * Notes for kinds of data the actions take outside the preferred environment, or nowhere: none
 * held, or only a live environment holds it and destructive actions keep off it (the kit's reason).
 */
function elsewhere(main: Place, families: readonly Family[]): string[] {
  return families.flatMap(({ found, actions, act, none }) => {
    if (!found.ok) return [`discovery: ${found.live ? `${actions} skip: ${found.reason}` : none}`];
    const place = found.value;
    if (!place || place === main) return [];
    const live = isLive(place) ? ', with --allow-live' : '';
    return [`discovery: ${actions} ${act} of environment ${place.envId}${place.envName ? ` (${place.envName})` : ''}, as the preferred one (${main.envId}) has none${live}`];
  });
}

const uniqueById = (items: readonly Json[]): Json[] => {
  const seen = new Set<string>();
  return items.filter((d) => {
    const id = str(d.id);
    if (!id || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
};

/**
 * Whether an environment serves the site its visitors see (ASM-LIVE-ENVIRONMENT): named `live`,
 * the value the document shows, or as production environments commonly are (`production`,
 * `prod`: a convention, on the safe side). A domain's `type` `live` is no sign: the document does
 * not say what it means, and a staging environment's domains may carry it too.
 */
export function looksLive(env: Json): boolean {
  const name = str(env.name)?.trim().toLowerCase();
  return name === 'live' || name === 'production' || name === 'prod';
}

/** Actions aim at a non-live, unblocked environment when there is one (the least harm on a real site). */
export function chooseEnvironment(envs: readonly Json[]): Json {
  return preferenceOrder(envs)[0]!;
}

/** Non-live before live, unblocked before blocked; otherwise as the site lists them. */
export function preferenceOrder(envs: readonly Json[]): Json[] {
  const rank = (e: Json) => (looksLive(e) ? 2 : 0) + (e.is_blocked === true ? 1 : 0);
  return envs.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i).map(({ e }) => e);
}
