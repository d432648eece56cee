/**
 * A STATE-* rule as the runner sees it: one scenario, the property over the action and the read
 * that observes it, or a skip of both rows with the reason (destructive requests not allowed, or
 * the site lacks what the property acts on).
 */
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { endpoint as endpointNamed } from '../../spec/queries.ts';
import { idsFor, pathOf, type Found, type Ids } from '../probes/inputs.ts';
import { streamSeed } from '../probes/request.ts';
import type { ProbeContext, Scenario, ScenarioSource, Skip } from '../types.ts';
import { budgetFor, runStateProperty, startStateProperty, type StateBudget, type StateProperty } from './property.ts';

/** What a property is built from; `build` answers a reason instead when the site lacks what it needs. */
export interface StateSetup {
  readonly context: ProbeContext;
  /** The action, then the read that observes it. */
  readonly endpoints: readonly [Endpoint, Endpoint];
  /** The tenant's ids at the action's place (the request kit's choice, the live rule applied). */
  readonly ids: Ids;
  readonly budget: StateBudget;
  readonly seed: number;
}

/** The path values of the action and of its read for `ids`, or why the site has none. */
export function pathsOf([action, read]: readonly [Endpoint, Endpoint], ids: Ids): Found<readonly [Record<string, string>, Record<string, string>]> {
  const actionPath = pathOf(action, ids);
  if (!actionPath.ok) return actionPath;
  const readPath = pathOf(read, ids);
  if (!readPath.ok) return readPath;
  return { ok: true, value: [actionPath.value, readPath.value] };
}

/** A property that cannot run skips every row of its rule, with the reason. */
const skipAll = (rule: RuleId, endpoints: readonly Endpoint[], reason: string): { scenarios: Scenario[]; skipped: Skip[] } => ({
  scenarios: [],
  skipped: endpoints.map((endpoint) => ({ rule, endpoint, reason })),
});

export function stateSource<M extends object, R>(
  name: string,
  rule: RuleId,
  endpointNames: readonly [action: string, read: string],
  budgetOverrides: Partial<StateBudget> | undefined,
  build: (setup: StateSetup) => StateProperty<M, R> | string,
): ScenarioSource {
  const source: ScenarioSource = (context) => {
    const endpoints = [endpointNamed(endpointNames[0]), endpointNamed(endpointNames[1])] as const;
    if (!context.target.allowDestructive) return skipAll(rule, endpoints, 'needs --allow-destructive');
    const budget = budgetFor(context, budgetOverrides);
    const seed = streamSeed(context.seed, 'state', rule);
    const placed = idsFor(endpoints[0], context.target.main.ids, context.target.allowLive === true);
    if (!placed.ok) return skipAll(rule, endpoints, placed.reason);
    const property = build({ context, endpoints, ids: placed.value, budget, seed });
    if (typeof property === 'string') return skipAll(rule, endpoints, property);
    return {
      scenarios: [
        {
          rule,
          endpoints,
          title: property.title,
          run: (send, earlier, deadline) => runStateProperty(property, budget, seed, send, earlier, deadline),
          start: (send, earlier, deadline) => startStateProperty(property, budget, seed, send, earlier, deadline),
          spend: { sequences: budget.sequences, requests: budget.requests },
        },
      ],
      skipped: [],
    };
  };
  // The runner names a source that throws by its function name.
  return Object.defineProperty(source, 'name', { value: name });
}
