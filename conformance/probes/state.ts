/**
 * STATE-* scenarios: properties over several exchanges. Actions are acknowledged, not completed,
 * when the call returns ("Long-running actions are accepted, not completed"), so each scenario
 * polls the read that shows the effect until it shows or a window closes.
 *
 * - STATE-DNS-UPDATE: add a TEST-NET address (RFC 5737) to a fresh probe record inside the
 *   discovered record's zone, poll until listed, remove it, poll until gone (the domain is left
 *   as it was).
 * - STATE-SFTP-REMOVE: remove the first discovered additional SFTP account, poll until unlisted.
 *
 * Both change the target, so they need --allow-destructive.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { endpoint as endpointNamed, is2xx as isStatus2xx } from '../../spec/queries.ts';
import type { Exchange, Probe, Scenario, ScenarioSource, Send, Skip, Verdict } from '../types.ts';
import { probeLabelArb, probeRecordName, testNetAddressArb } from './inputs.ts';
import { bearer, drawOne, makeProbe, streamSeed, type RequestParts } from './request.ts';

export interface PollOptions {
  /** How long an effect may take to show, from the first read (default 10 s). */
  readonly windowMs?: number;
  /** Pause between reads (default 250 ms). */
  readonly intervalMs?: number;
}

export const DEFAULT_WINDOW_MS = 10_000;
export const DEFAULT_INTERVAL_MS = 250;

interface Polled {
  readonly ok: boolean;
  readonly last: Exchange;
  readonly reads: number;
}

/** Sends `probe` until `until` holds for an answer or the window closes; at least one read. */
async function poll(send: Send, probe: Probe, until: (exchange: Exchange) => boolean, options: PollOptions): Promise<Polled> {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const started = performance.now();
  let reads = 0;
  for (;;) {
    const last = await send(probe);
    reads++;
    if (until(last)) return { ok: true, last, reads };
    if (performance.now() - started + intervalMs > windowMs) return { ok: false, last, reads };
    await sleep(intervalMs);
  }
}

const is2xx = (exchange: Exchange): boolean => exchange.response !== undefined && isStatus2xx(exchange.response.status);

const answered = (exchange: Exchange): string =>
  exchange.failure ? `no answer (${exchange.failure.kind}: ${exchange.failure.message})` : `HTTP ${exchange.response!.status}`;

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined), value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;

/** Skips of both endpoints of a scenario rule. */
const skipAll = (rule: RuleId, endpoints: readonly Endpoint[], reason: string) => ({
  scenarios: [] as Scenario[],
  skipped: endpoints.map((endpoint): Skip => ({ rule, endpoint, reason })),
});

// ---- STATE-DNS-UPDATE -----------------------------------------------------------------------------

/** Whether a DNS list answer shows `value` on a record whose name holds the probe label. */
function holdsValue(exchange: Exchange, label: string, value: string): boolean {
  const records = list(at(exchange.response?.json, 'domain', 'dns_records'));
  return records.some((r) => {
    const name = at(r, 'name');
    return typeof name === 'string' && name.toLowerCase().includes(label) && list(at(r, 'resource_records')).some((v) => at(v, 'value') === value);
  });
}

export function dnsUpdateScenarios(options: PollOptions = {}): ScenarioSource {
  return function dnsUpdate(context) {
    const { target } = context;
    const rule: RuleId = 'STATE-DNS-UPDATE';
    const update = endpointNamed('updateDnsRecords');
    const read = endpointNamed('listDnsRecords');
    const endpoints = [update, read];
    if (!target.allowDestructive) return skipAll(rule, endpoints, 'needs --allow-destructive');
    const { domainId, dnsRecord } = target.main.ids;
    if (!domainId) return skipAll(rule, endpoints, 'no domain discovered');
    if (!dnsRecord) return skipAll(rule, endpoints, 'no DNS record discovered (the probe record is named inside its zone)');

    const seed = streamSeed(context.seed, 'state', rule);
    const label = drawOne(probeLabelArb, streamSeed(seed, 'label'));
    const value = drawOne(testNetAddressArb, streamSeed(seed, 'value'));
    const name = probeRecordName(dnsRecord.name, label);
    const credentials = bearer(target.main.apiKey);
    const path = { domain_id: domainId };
    const change = (title: string, added: readonly string[], removed: readonly string[]) => {
      const body = { type: 'A', name, ttl: 300, new_resource_records: added.map((v) => ({ value: v })), removed_resource_records: removed.map((v) => ({ value: v })) };
      const parts: RequestParts = { path, body: { json: body } };
      return makeProbe(target, rule, 'valid', title, { endpoint: update, credentials, ...parts });
    };
    const add = change(`add A ${value} to ${name}`, [value], []);
    const remove = change(`remove A ${value} from ${name}`, [], [value]);
    const listing = makeProbe(target, rule, 'valid', `list the DNS records of the domain`, { endpoint: read, credentials, path });
    const stated = 'The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records` (§Endpoints > Behaviours stated for endpoints)';
    const windowText = seconds(options.windowMs ?? DEFAULT_WINDOW_MS);

    const run: Scenario['run'] = async (send) => {
      const added = await send(add);
      if (!is2xx(added)) return notAccepted(added, `adding A ${value} to ${name}`);
      const shown = await poll(send, listing, (e) => is2xx(e) && holdsValue(e, label, value), options);
      if (!shown.ok) {
        return {
          verdict: { title: 'an added DNS value never appeared', message: `${stated}; A ${value} was added to ${name} (acknowledged), yet ${shown.reads} reads over ${windowText} never listed it (last: ${answered(shown.last)}).` },
          exchange: shown.last,
        };
      }
      const removed = await send(remove);
      if (!is2xx(removed)) return notAccepted(removed, `removing A ${value} from ${name}`);
      const gone = await poll(send, listing, (e) => is2xx(e) && !holdsValue(e, label, value), options);
      if (!gone.ok) {
        return {
          verdict: { title: 'a removed DNS value stayed', message: `${stated}; A ${value} was removed from ${name} (acknowledged), yet ${gone.reads} reads over ${windowText} still listed it or failed (last: ${answered(gone.last)}).` },
          exchange: gone.last,
        };
      }
      return { exchange: gone.last };
    };
    return { scenarios: [{ rule, endpoints, title: `A ${value} added to ${name}, then removed`, run }], skipped: [] };
  };
}

// ---- STATE-SFTP-REMOVE ----------------------------------------------------------------------------

function listsAccount(exchange: Exchange, id: string): boolean {
  const accounts = list(at(exchange.response?.json, 'environment', 'additional_sftp_accounts'));
  return accounts.some((a) => {
    const accountId = at(a, 'id');
    return typeof accountId === 'string' && accountId.toLowerCase() === id.toLowerCase();
  });
}

export function sftpRemoveScenarios(options: PollOptions = {}): ScenarioSource {
  return function sftpRemove(context) {
    const { target } = context;
    const rule: RuleId = 'STATE-SFTP-REMOVE';
    const remove = endpointNamed('removeAdditionalSftpAccount');
    const read = endpointNamed('listAdditionalSftpAccounts');
    const endpoints = [remove, read];
    if (!target.allowDestructive) return skipAll(rule, endpoints, 'needs --allow-destructive');
    const account = target.main.ids.sftpAccountIds[0];
    if (!account) return skipAll(rule, endpoints, 'no additional SFTP account discovered');

    const credentials = bearer(target.main.apiKey);
    const listing = makeProbe(target, rule, 'valid', 'list the additional SFTP accounts of the environment', {
      endpoint: read,
      credentials,
      path: { env_id: target.main.ids.envId },
    });
    const removal = makeProbe(target, rule, 'valid', `remove the additional SFTP account ${account}`, { endpoint: remove, credentials, path: { sftp_account_id: account } });
    const windowText = seconds(options.windowMs ?? DEFAULT_WINDOW_MS);

    const run: Scenario['run'] = async (send) => {
      const before = await send(listing);
      if (!is2xx(before) || !listsAccount(before, account)) {
        return { skip: `the discovered additional SFTP account ${account} is not in the environment's list (${answered(before)}), so its removal cannot be observed`, exchange: before };
      }
      const removed = await send(removal);
      if (!is2xx(removed)) return notAccepted(removed, `removing the additional SFTP account ${account}`);
      const gone = await poll(send, listing, (e) => is2xx(e) && !listsAccount(e, account), options);
      if (!gone.ok) {
        return {
          verdict: {
            title: 'a removed SFTP account stayed listed',
            message: `The removal of additional SFTP account ${account} was acknowledged, yet ${gone.reads} reads over ${windowText} still listed it or failed (last: ${answered(gone.last)}).`,
          },
          exchange: gone.last,
        };
      }
      return { exchange: gone.last };
    };
    return { scenarios: [{ rule, endpoints, title: `additional SFTP account ${account} removed, then unlisted`, run }], skipped: [] };
  };
}

/** An action the scenario needs was refused: the property cannot be observed, which fails it. */
function notAccepted(exchange: Exchange, what: string): { verdict: Verdict; exchange: Exchange } {
  return {
    verdict: { title: 'the action the scenario needs was not accepted', message: `${what} answered ${answered(exchange)}, so its effect cannot be observed.` },
    exchange,
  };
}
