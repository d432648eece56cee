/** A property that cannot run skips every row of its rule, with the reason. */
import type { Endpoint, RuleId } from '../../spec/model.ts';
import type { Scenario, Skip } from '../types.ts';

export const skipAll = (rule: RuleId, endpoints: readonly Endpoint[], reason: string): { scenarios: Scenario[]; skipped: Skip[] } => ({
  scenarios: [],
  skipped: endpoints.map((endpoint) => ({ rule, endpoint, reason })),
});
