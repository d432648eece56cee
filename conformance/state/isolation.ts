/**
 * ISOLATION-WRITE where the action lists no refusal (it may acknowledge and fail later:
 * CONFLICT-ACTION-UNKNOWN-RESOURCE's letter) but a read shows its effect: an SFTP account
 * removal naming another company's account under this company's key. An acknowledgement proves
 * nothing by itself, so the other company's list is read with its own key before and, when the
 * removal was acknowledged, until the state window closes: the account must stay listed. Which
 * read shows the effect is the model's (the STATE rule that pairs the action with its read), what
 * it removes the action's effects.
 */
import { api } from '../../spec/api.ts';
import { endpoint as endpointNamed, operation } from '../../spec/queries.ts';
import { at } from '../checks/values.ts';
import { idOf, idsFor, pathOf } from '../probes/inputs.ts';
import { isolationActions, mustRefuse } from '../probes/isolation.ts';
import { bearer, makeProbe } from '../probes/request.ts';
import { notJudged, notJudgedReason, type Exchange, type Scenario, type ScenarioSource, type Skip } from '../types.ts';
import { answered, is2xx, seconds } from './answers.ts';
import { poll } from './poll.ts';
import { budgetFor, type StateBudget } from './property.ts';

const RULE = 'ISOLATION-WRITE';

/** The read that lists what an action removes: the one its STATE rule pairs it with. */
const readOf = (action: string) => {
  const pair = api.rules.find((r) => r.id.startsWith('STATE-') && typeof r.scope === 'object' && r.scope.endpoints[0] === action);
  return pair && typeof pair.scope === 'object' ? endpointNamed(pair.scope.endpoints[1]!) : undefined;
};

/** The ids an answer lists, case aside: every `id` anywhere in its body (ids are UUIDs: one cannot stand for another). */
function listedIds(exchange: Exchange): Set<string> | undefined {
  if (!is2xx(exchange)) return undefined;
  const ids = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const id = at(value, 'id');
      if (typeof id === 'string') ids.add(id.toLowerCase());
      Object.values(value).forEach(walk);
    }
  };
  walk(exchange.response?.json);
  return ids;
}

export interface IsolationRemovalOptions {
  readonly budget?: Partial<StateBudget>;
}

export const isolationRemovalScenarios = (options: IsolationRemovalOptions = {}): ScenarioSource => (context) => {
  const { target } = context;
  const scenarios: Scenario[] = [];
  const skipped: Skip[] = [];
  const allowLive = target.allowLive === true;
  for (const action of isolationActions().filter((e) => !mustRefuse(e) && e.effects?.removes)) {
    const skip = (reason: string) => skipped.push({ rule: RULE, endpoint: action, reason });
    const read = readOf(action.name);
    if (!target.other || !read) continue; // the probe source says why
    if (!target.allowDestructive) {
      skip('needs --allow-destructive');
      continue;
    }
    const theirs = idsFor(action, target.other.ids, allowLive);
    const account = theirs.ok ? idOf(action.effects!.names.referent, theirs.value) : theirs;
    const listPath = theirs.ok ? pathOf(read, theirs.value) : theirs;
    const removePath = theirs.ok ? pathOf(action, theirs.value) : theirs;
    if (!account.ok || !listPath.ok || !removePath.ok) {
      skip(`the other company: ${[account, listPath, removePath].find((f) => !f.ok)!.reason}`);
      continue;
    }
    const id = String(account.value);
    const budget = budgetFor(context, options.budget);
    const listing = makeProbe(target, RULE, 'observe', `the other company lists its own data (${operation(read)}, its key)`, { endpoint: read, credentials: bearer(target.other.apiKey), path: listPath.value });
    const removal = makeProbe(target, RULE, 'observe', `remove the other company's ${action.effects!.names.referent} ${id} under this company's key`, { endpoint: action, credentials: bearer(target.main.apiKey), path: removePath.value });
    scenarios.push({
      rule: RULE,
      endpoints: [action],
      title: `${operation(action)} naming another company's data under this company's key: its data read with its own key`,
      run: async (send, _earlier, deadline) => {
        const unjudged = (x: Exchange) => (notJudged(x.failure) ? { skip: notJudgedReason(x) } : undefined);
        const before = await send(listing);
        const beforeIds = listedIds(before);
        if (unjudged(before)) return unjudged(before)!;
        if (!beforeIds?.has(id.toLowerCase())) return { skip: `the other company's list does not show ${id} (${answered(before)}), so a removal of it cannot be observed` };
        const removed = await send(removal);
        if (unjudged(removed)) return unjudged(removed)!;
        const gone = (x: Exchange) => listedIds(x)?.has(id.toLowerCase()) === false;
        // Refused: one read, for a server that says no and acts anyway. Acknowledged: allowed by
        // the letter, if it does nothing: read until the window closes.
        const pause = async (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, Math.min(ms, (deadline?.('run') ?? Infinity) - performance.now()))));
        const window = is2xx(removed) ? budget.poll : { ...budget.poll, windowMs: 0 };
        const shown = await poll(() => send(listing), (x) => notJudged(x.failure) || gone(x), window, pause);
        if (unjudged(shown.last)) return unjudged(shown.last)!;
        if (!listedIds(shown.last)) return { skip: `the other company's list could not be read after the removal (${answered(shown.last)}), so its effect cannot be observed` };
        const said = `${operation(action)} of the other company's ${id} under this company's key was ${is2xx(removed) ? 'acknowledged' : 'refused'} (${answered(removed)})`;
        if (!shown.ok) return { notes: [`${RULE}: ${said}; it stayed listed${is2xx(removed) ? ` over ${seconds(budget.poll.windowMs)}` : ''}: no effect`] };
        return {
          verdict: {
            title: "an action removed another company's data",
            message: `Under this company's key, ${said}, and the other company's own list (${operation(read)}, read with its key) no longer shows it: \`<API_KEY>\` is an API key of the company (§Authentication 1); an action naming data the key's user may not use does nothing to it.`,
          },
          exchange: shown.last,
          sequence: [{ request: removal.request }, { request: shown.last.probe.request }],
        };
      },
    });
  }
  return { scenarios, skipped };
};
