/**
 * STATE-SFTP-REMOVE as a model-based property: removing an additional SFTP account makes it
 * leave the list of its environment, and every other account remains. The model is the list as
 * read at the start of every run, less the accounts whose removal may still be settling (the
 * one INPUT-ACCEPT removes, and those earlier runs removed); each removal is followed by reads
 * until the list shows exactly that. Ids are sent exactly as the list gave them and compared
 * as UUIDs are, case aside (RFC 9562).
 *
 * The document shows no way to add an account back, so removals are spent for good: a property
 * makes at most `irreversible` of them, and the report names each. A failing sequence shrinks
 * only as far as accounts are left to remove again.
 *
 * Paths come from the request kit: the place that holds the accounts, as the model's `refersTo`
 * finds it, names the environment listed and each account removed.
 */
import fc from 'fast-check';
import type { Endpoint } from '../../spec/model.ts';
import { sftpAccountToRemove } from '../probes/accept.ts';
import { pathOf, type Found } from '../probes/inputs.ts';
import { bearer, makeProbe } from '../probes/request.ts';
import { at, count } from '../checks/values.ts';
import type { Exchange, ProbeContext, ScenarioSource } from '../types.ts';
import { pathParamsOf } from '../checks/expectations.ts';
import { answered, is2xx, listAt, someOf } from './answers.ts';
import { NotObservable, Violation, type StateBudget, type StateCommand, type StateIo, type StateProperty } from './property.ts';
import { pathsOf, stateSource } from './source.ts';

/** How ids are compared: as UUIDs, case aside. */
export const idKey = (id: string): string => id.toLowerCase();

export interface ListedAccount {
  /** As the list gave it. */
  readonly id: string;
  readonly username: string;
  /** Every field of it as listed, in one comparable form (keys sorted). */
  readonly fields: string;
}

/** An account's fields in one form two reads compare: JSON with its keys sorted. */
const fieldsOf = (account: unknown): string =>
  JSON.stringify(account, (_key, value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value));

/** The accounts a list answer shows, by `idKey`; undefined when it is not a list. */
export function accountsOf(exchange: Exchange): Map<string, ListedAccount> | undefined {
  const accounts = listAt(exchange, 'environment', 'additional_sftp_accounts');
  return accounts && accountsFrom(accounts);
}

/** A list's accounts, by `idKey`. */
function accountsFrom(accounts: readonly unknown[]): Map<string, ListedAccount> {
  const found = new Map<string, ListedAccount>();
  for (const account of accounts) {
    const id = at(account, 'id');
    const username = at(account, 'username');
    if (typeof id === 'string') found.set(idKey(id), { id, username: typeof username === 'string' ? username : '', fields: fieldsOf(account) });
  }
  return found;
}

/** The fields of `before`'s accounts that `after` lists otherwise, for messages; none when all are as they were. */
function changedFields(before: ReadonlyMap<string, ListedAccount>, after: ReadonlyMap<string, ListedAccount>, keys: readonly string[]): string[] {
  return keys.flatMap((key) => {
    const was = before.get(key);
    const now = after.get(key);
    return was && now && was.fields !== now.fields ? [`${was.username || was.id}: ${now.fields}, was ${was.fields}`] : [];
  });
}

export interface SftpModel {
  /** The accounts of the environment the property may remove or must see remain, by id as listed. */
  accounts: string[];
  /** Each account as the run's first read listed it: what a removal of another must leave as it was. */
  readonly listed: ReadonlyMap<string, ListedAccount>;
  /** Listed but not compared: their removal by an earlier request of the suite may still be settling. */
  readonly settling: readonly string[];
  /** Removals the property may still make. */
  removalsLeft: number;
}

export interface SftpReal {
  remove(model: SftpModel, id: string): Promise<void>;
  /** `editor (id)`, for sequences. */
  describe(id: string): string;
}

/** Removes one account of the model: the `pick`-th, counting round. */
export class RemoveAccount implements StateCommand<SftpModel, SftpReal> {
  private removed: string | undefined;
  constructor(readonly pick: number) {}

  check(model: Readonly<SftpModel>): boolean {
    return model.accounts.length > 0 && model.removalsLeft > 0;
  }

  run(model: SftpModel, real: SftpReal): Promise<void> {
    const id = model.accounts[this.pick % model.accounts.length]!;
    this.removed = real.describe(id);
    return real.remove(model, id);
  }

  toString(): string {
    return `remove account ${this.removed ?? `#${this.pick + 1}`}`;
  }
}

export const sftpCommandArbs = (): fc.Arbitrary<StateCommand<SftpModel, SftpReal>>[] => [fc.nat({ max: 7 }).map((pick) => new RemoveAccount(pick))];

export interface SftpPropertyOptions {
  readonly budget?: Partial<StateBudget>;
}

export const sftpRemoveScenarios = (options: SftpPropertyOptions = {}): ScenarioSource =>
  stateSource('sftpRemove', 'STATE-SFTP-REMOVE', ['removeAdditionalSftpAccount', 'listAdditionalSftpAccounts'], options.budget, ({ context, endpoints: [remove, read], ids: placed, budget }) => {
    // The place that holds the accounts; without places, the accounts are `sftpEnvId`'s.
    const ids = { ...placed, envId: placed.sftpEnvId ?? placed.envId };
    const paths = pathsOf([remove, read], ids);
    if (!paths.ok) return paths.reason;
    const [, listPath] = paths.value;
    const removePath = (id: string) => mustHave(pathOf(remove, { ...ids, sftpAccountIds: [id] }));
    const atStart = context.target.main.ids.sftpAccountsAtStart;
    // Every other environment discovery found accounts in: a removal names one account, so theirs stay.
    const elsewhere = (placed.places ?? [])
      .filter((p) => p.envId !== ids.envId && p.sftpAccountIds.length > 0)
      .flatMap((p) => {
        const path = pathOf(read, { ...ids, envId: p.envId });
        return path.ok ? [{ envId: p.envId, listPath: path.value, discovered: p.sftpAccountIds }] : [];
      });
    return sftpProperty(context, { remove, read, budget, envId: ids.envId!, listPath, removePath, discovered: ids.sftpAccountIds ?? [], elsewhere, ...(atStart ? { atStart } : {}) });
  });

/** Path values for an id the list gave: every other parameter was found already. */
const mustHave = <T>(found: Found<T>): T => {
  if (!found.ok) throw new Error(found.reason);
  return found.value;
};

interface SftpSetting {
  readonly remove: Endpoint;
  readonly read: Endpoint;
  readonly budget: StateBudget;
  readonly envId: string;
  readonly listPath: Readonly<Record<string, string>>;
  /** The path values that remove account `id`. */
  readonly removePath: (id: string) => Readonly<Record<string, string>>;
  /** The accounts discovery listed in the environment, before any request of the suite, and the list as it read it. */
  readonly discovered: readonly string[];
  readonly atStart?: readonly unknown[];
  /** The site's other environments with accounts, as discovery listed them: read after each removal, they hold all of them still. */
  readonly elsewhere: readonly { readonly envId: string; readonly listPath: Readonly<Record<string, string>>; readonly discovered: readonly string[] }[];
}

function sftpProperty(context: ProbeContext, setting: SftpSetting): StateProperty<SftpModel, SftpReal> {
  const { target } = context;
  const rule = 'STATE-SFTP-REMOVE';
  const { envId } = setting;
  const credentials = bearer(target.main.apiKey);
  const listing = makeProbe(target, rule, 'valid', 'list the additional SFTP accounts of the environment', { endpoint: setting.read, credentials, path: setting.listPath });
  const excluded = sftpAccountToRemove(target.main).id;
  const usernames = new Map<string, string>();
  /** The accounts this property removed, by `idKey`: each named once, and left out of later runs (their removal may still be settling). */
  const removed = new Map<string, string>();
  const describe = (id: string) => {
    const username = usernames.get(idKey(id));
    return username ? `${username} (${id})` : id;
  };

  const remove = async (io: StateIo, model: SftpModel, id: string) => {
    const probe = makeProbe(target, rule, 'valid', `remove the additional SFTP account ${id}`, { endpoint: setting.remove, credentials, path: setting.removePath(id) });
    const acknowledged = await io.send(probe);
    if (!is2xx(acknowledged)) {
      throw new Violation('an SFTP account removal the property needs was not accepted', `Removing the additional SFTP account ${describe(id)} answered ${answered(acknowledged)}, so its effect cannot be observed.`, acknowledged);
    }
    removed.set(idKey(id), id);
    model.accounts = model.accounts.filter((a) => a !== id);
    model.removalsLeft--;
    const others = model.accounts.map(idKey);
    const shown = await io.poll(listing, (e) => {
      const listed = accountsOf(e);
      return listed !== undefined && !listed.has(idKey(id)) && others.every((a) => listed.has(a)) && changedFields(model.listed, listed, others).length === 0;
    });
    if (shown.ok) return untouchedElsewhere(io, id);
    const listed = accountsOf(shown.last);
    const reads = `${count(shown.reads, 'read')} over ${io.window}`;
    const after = `The removal of additional SFTP account ${describe(id)} was acknowledged, yet ${reads}`;
    if (!listed) throw new Violation('the SFTP accounts could not be read after a removal', `${after} never gave the list (last: ${answered(shown.last)}).`, shown.last);
    // The model holds no account a request of the suite removed: these went by this removal.
    const gone = model.accounts.filter((a) => !listed.has(idKey(a)));
    if (gone.length) throw new Violation('removing an SFTP account removed others too', `${after} no longer listed ${gone.map(describe).join(', ')}, which no request removed${listed.has(idKey(id)) ? `, and still listed ${describe(id)}` : ''}.`, shown.last);
    const changed = changedFields(model.listed, listed, others);
    if (changed.length && !listed.has(idKey(id))) {
      throw new Violation('removing an SFTP account changed another', `${after} listed other accounts otherwise than before it, though the removal names only ${describe(id)} (the model's effects): ${changed.join('; ')}.`, shown.last);
    }
    const left = model.settling.filter((a) => !listed.has(idKey(a)));
    const meanwhile = left.length ? `; meanwhile ${left.map(describe).join(', ')} left the list (not compared: removed by an earlier request of the suite, whose effect may come late)` : '';
    throw new Violation('a removed SFTP account stayed listed', `${after} still listed it${meanwhile}.`, shown.last);
  };

  /** Once a removal showed: the accounts of the site's other environments are all still listed (nothing of the suite removes any there). */
  const untouchedElsewhere = async (io: StateIo, id: string) => {
    for (const other of setting.elsewhere) {
      const probe = makeProbe(target, rule, 'valid', `list the additional SFTP accounts of environment ${other.envId}`, { endpoint: setting.read, credentials, path: other.listPath });
      const exchange = await io.send(probe);
      const listed = accountsOf(exchange);
      const gone = listed ? other.discovered.filter((a) => !listed.has(idKey(a))) : [];
      if (gone.length) {
        throw new Violation(
          'removing an SFTP account removed others too',
          `The removal of additional SFTP account ${describe(id)} of environment ${envId} was acknowledged and showed; environment ${other.envId} no longer lists ${gone.map(describe).join(', ')}, which discovery listed there and no request removed (the removal names only the account in its path: the model's effects; ASM-SFTP-REMOVE-READING).`,
          exchange,
        );
      }
    }
  };

  /**
   * Before the first run: every account discovery listed is still listed, but those the suite's
   * removals before the property named (INPUT-ACCEPT's, acknowledged). One that is gone went by
   * one of those removals, which named only another (a removal that takes every account shows
   * here, where its first removal leaves the property nothing to remove).
   */
  const before = async (io: StateIo, earlier: readonly Exchange[]): Promise<Violation | undefined> => {
    if (!setting.discovered.length) return undefined;
    const exchange = await io.send(listing);
    const listed = accountsOf(exchange);
    if (!listed) return undefined;
    for (const [key, account] of listed) usernames.set(key, account.username);
    const removals = earlier.filter(is2xx);
    // The account a single removal of the suite takes (INPUT-ACCEPT's) may be gone by it, told here or not.
    const named = new Set([...removals.flatMap((x) => Object.values(pathParamsOf(setting.remove, x.probe.request.url) ?? {}).map(idKey)), ...(excluded ? [idKey(excluded)] : [])]);
    const gone = setting.discovered.filter((id) => !listed.has(idKey(id)) && !named.has(idKey(id)));
    // What stayed, as discovery listed it: a removal changes nothing of the accounts it does not name.
    const atStart = setting.atStart && accountsFrom(setting.atStart);
    const changed = atStart ? changedFields(atStart, listed, [...atStart.keys()].filter((key) => listed.has(key) && !named.has(key))) : [];
    if (!gone.length && !changed.length) return undefined;
    const by = removals.length
      ? `The suite's ${count(removals.length, 'removal')} acknowledged before it named only ${removals.map((x) => describe(Object.values(pathParamsOf(setting.remove, x.probe.request.url) ?? {})[0] ?? '?')).join(', ')}`
      : 'No removal of the suite was acknowledged before it';
    const found = gone.length
      ? `now ${gone.map(describe).join(', ')} ${gone.length === 1 ? 'is' : 'are'} gone`
      : `the accounts still listed read otherwise than discovery listed them: ${changed.join('; ')}`;
    return new Violation(
      gone.length ? 'removing an SFTP account removed others too' : 'removing an SFTP account changed another',
      `Discovery listed the additional SFTP accounts ${setting.discovered.map(describe).join(', ')} of environment ${envId}; ${found}. ${by}, and nothing else of the suite removes or changes an account (the removal names only the account in its path: the model's effects).`,
      exchange,
      [...removals, exchange],
    );
  };

  return {
    rule,
    endpoints: [setting.remove, setting.read],
    title: `removals of additional SFTP accounts of environment ${envId}, from the list as read (model-based)`,
    before,
    commands: sftpCommandArbs(),
    unrepeatable: 'a removed account cannot be removed again and shrinking replays on the accounts left',
    setup: async (io) => {
      const exchange = await io.send(listing);
      const listed = accountsOf(exchange);
      if (!listed) throw new NotObservable(`the environment's additional SFTP accounts could not be read (${answered(exchange)}), so no removal can be observed`, exchange);
      for (const [key, account] of listed) usernames.set(key, account.username);
      const settling = (key: string) => removed.has(key) || (excluded !== undefined && key === idKey(excluded));
      const all = [...listed.values()].map((account) => account.id);
      const model = { accounts: all.filter((id) => !settling(idKey(id))), listed, settling: all.filter((id) => settling(idKey(id))), removalsLeft: setting.budget.irreversible - removed.size };
      return { model, real: { remove: (m, id) => remove(io, m, id), describe } };
    },
    finish: async () =>
      removed.size
        ? [`STATE-SFTP-REMOVE removed ${count(removed.size, 'additional SFTP account')} of environment ${envId} (the document shows no way to add one back): ${someOf([...removed.values()].map(describe))}`]
        : [],
  };
}
