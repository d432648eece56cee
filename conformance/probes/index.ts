/**
 * The probe and scenario sources of the suite, one module per rule family. Each source is
 * deterministic for a given context (seed); each names what it cannot exercise in `skipped`.
 */
import type { RuleId } from '../../spec/model.ts';
import { endpoint as endpointNamed, isRead, rule as ruleNamed } from '../../spec/queries.ts';
import type { ProbeContext, ProbeSource, Scenario, ScenarioSource, Skip } from '../types.ts';
import { idsFor } from './inputs.ts';
import { acceptProbes } from './accept.ts';
import { authProbes } from './auth.ts';
import { conflictProbes } from './conflicts.ts';
import { inputProbes } from './input.ts';
import { limitProbes } from './limits.ts';
import { notFoundProbes } from './not-found.ts';
import { dnsUpdateScenarios } from '../state/dns.ts';
import { sftpRemoveScenarios } from '../state/sftp.ts';
import { wpaUserScenarios } from '../state/wpa.ts';

export { acceptProbes, authProbes, conflictProbes, dnsUpdateScenarios, inputProbes, limitProbes, notFoundProbes, sftpRemoveScenarios, wpaUserScenarios };
export { EMBEDDED_BUDGET, LIVE_BUDGET, type StateBudget } from '../state/property.ts';
export { buildRequest, makeProbe, type Credentials, type RequestSpec } from './request.ts';

export const probeSources: readonly ProbeSource[] = [authProbes, notFoundProbes, inputProbes, limitProbes, acceptProbes, conflictProbes];

/**
 * Why a STATE-* rule's action may not act where the site holds what it needs: only a live
 * environment holds it and the action is destructive (the kit's `needs --allow-live (...)`).
 */
function liveOnly(rule: RuleId, context: ProbeContext): string | undefined {
  const { scope } = ruleNamed(rule);
  if (typeof scope !== 'object') return undefined;
  for (const action of scope.endpoints.map(endpointNamed).filter((e) => !isRead(e))) {
    const placed = idsFor(action, context.target.main.ids, context.target.allowLive === true);
    if (!placed.ok && placed.live) return placed.reason;
  }
  return undefined;
}

/**
 * A STATE-* property keeps to the request kit's safety rules: where only a live environment holds
 * what its destructive action needs (without --allow-live), it skips with the kit's reason rather
 * than "none discovered" (discovery leaves such ids out of those the properties act on), and is
 * never run.
 */
function keptOffLive(source: ScenarioSource): ScenarioSource {
  const kept: ScenarioSource = (context) => {
    const result = source(context);
    if (!context.target.allowDestructive) return result;
    const scenarios: Scenario[] = [];
    const skipped: Skip[] = [];
    for (const s of result.scenarios) {
      const reason = liveOnly(s.rule, context);
      if (reason) skipped.push(...s.endpoints.map((endpoint) => ({ rule: s.rule, endpoint, reason })));
      else scenarios.push(s);
    }
    for (const s of result.skipped) {
      const reason = liveOnly(s.rule, context);
      skipped.push(reason ? { ...s, reason } : s);
    }
    return { scenarios, skipped };
  };
  // The runner names a source that throws by its function name.
  return Object.defineProperty(kept, 'name', { value: source.name });
}

export const scenarioSources: readonly ScenarioSource[] = [dnsUpdateScenarios(), sftpRemoveScenarios(), wpaUserScenarios()].map(keptOffLive);
