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
import { answered, is2xx, listAt, someOf } from './answers.ts';
import { NotObservable, Violation, type StateBudget, type StateCommand, type StateIo, type StateProperty } from './property.ts';
import { pathsOf, stateSource } from './source.ts';

/** How ids are compared: as UUIDs, case aside. */
export const idKey = (id: string): string => id.toLowerCase();

export interface ListedAccount {
  /** As the list gave it. */
  readonly id: string;
  readonly username: string;
}

/** The accounts a list answer shows, by `idKey`; undefined when it is not a list. */
export function accountsOf(exchange: Exchange): Map<string, ListedAccount> | undefined {
  const accounts = listAt(exchange, 'environment', 'additional_sftp_accounts');
  if (!accounts) return undefined;
  const found = new Map<string, ListedAccount>();
  for (const account of accounts) {
    const id = at(account, 'id');
    const username = at(account, 'username');
    if (typeof id === 'string') found.set(idKey(id), { id, username: typeof username === 'string' ? username : '' });
  }
  return found;
}

export interface SftpModel {
  /** The accounts of the environment the property may remove or must see remain, by id as listed. */
  accounts: string[];
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
    return sftpProperty(context, { remove, read, budget, envId: ids.envId!, listPath, removePath });
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
    const shown = await io.poll(listing, (e) => {
      const listed = accountsOf(e);
      return listed !== undefined && !listed.has(idKey(id)) && model.accounts.every((a) => listed.has(idKey(a)));
    });
    if (shown.ok) return;
    const listed = accountsOf(shown.last);
    const reads = `${count(shown.reads, 'read')} over ${io.window}`;
    const after = `The removal of additional SFTP account ${describe(id)} was acknowledged, yet ${reads}`;
    if (!listed) throw new Violation('the SFTP accounts could not be read after a removal', `${after} never gave the list (last: ${answered(shown.last)}).`, shown.last);
    // The model holds no account a request of the suite removed: these went by this removal.
    const gone = model.accounts.filter((a) => !listed.has(idKey(a)));
    if (gone.length) throw new Violation('removing an SFTP account removed others too', `${after} no longer listed ${gone.map(describe).join(', ')}, which no request removed${listed.has(idKey(id)) ? `, and still listed ${describe(id)}` : ''}.`, shown.last);
    const left = model.settling.filter((a) => !listed.has(idKey(a)));
    const meanwhile = left.length ? `; meanwhile ${left.map(describe).join(', ')} left the list (not compared: removed by an earlier request of the suite, whose effect may come late)` : '';
    throw new Violation('a removed SFTP account stayed listed', `${after} still listed it${meanwhile}.`, shown.last);
  };

  return {
    rule,
    endpoints: [setting.remove, setting.read],
    title: `removals of additional SFTP accounts of environment ${envId}, from the list as read (model-based)`,
    commands: sftpCommandArbs(),
    unrepeatable: 'a removed account cannot be removed again and shrinking replays on the accounts left',
    setup: async (io) => {
      const exchange = await io.send(listing);
      const listed = accountsOf(exchange);
      if (!listed) throw new NotObservable(`the environment's additional SFTP accounts could not be read (${answered(exchange)}), so no removal can be observed`, exchange);
      for (const [key, account] of listed) usernames.set(key, account.username);
      const settling = (key: string) => removed.has(key) || (excluded !== undefined && key === idKey(excluded));
      const all = [...listed.values()].map((account) => account.id);
      const model = { accounts: all.filter((id) => !settling(idKey(id))), settling: all.filter((id) => settling(idKey(id))), removalsLeft: setting.budget.irreversible - removed.size };
      return { model, real: { remove: (m, id) => remove(io, m, id), describe } };
    },
    finish: async () =>
      removed.size
        ? [`STATE-SFTP-REMOVE removed ${count(removed.size, 'additional SFTP account')} of environment ${envId} (the document shows no way to add one back): ${someOf([...removed.values()].map(describe))}`]
        : [],
  };
}
