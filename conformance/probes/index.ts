/**
 * The probe and scenario sources of the suite, one module per rule family. Each source is
 * deterministic for a given context (seed); each names what it cannot exercise in `skipped`.
 */
import type { ProbeSource, ScenarioSource } from '../types.ts';
import { acceptProbes } from './accept.ts';
import { authProbes } from './auth.ts';
import { clientShapeProbes } from './client-shapes.ts';
import { conflictProbes } from './conflicts.ts';
import { inputProbes } from './input.ts';
import { isolationProbes } from './isolation.ts';
import { limitProbes } from './limits.ts';
import { notFoundProbes } from './not-found.ts';
import { dnsUpdateScenarios } from '../state/dns.ts';
import { sftpRemoveScenarios } from '../state/sftp.ts';
import { wpaUserScenarios } from '../state/wpa.ts';
import { isolationRemovalScenarios } from '../state/isolation.ts';

export { acceptProbes, authProbes, clientShapeProbes, conflictProbes, dnsUpdateScenarios, inputProbes, isolationProbes, isolationRemovalScenarios, limitProbes, notFoundProbes, sftpRemoveScenarios, wpaUserScenarios };
export { EMBEDDED_BUDGET, LIVE_BUDGET, type StateBudget } from '../state/property.ts';
export { buildRequest, makeProbe, type Credentials, type RequestSpec } from './request.ts';

export const probeSources: readonly ProbeSource[] = [authProbes, notFoundProbes, isolationProbes, inputProbes, limitProbes, acceptProbes, clientShapeProbes, conflictProbes];

// Each STATE-* source finds its action's place through the request kit (state/source.ts), so it
// keeps to the same safety rules: off a live environment without --allow-live, with the kit's reason.
export const scenarioSources: readonly ScenarioSource[] = [dnsUpdateScenarios(), sftpRemoveScenarios(), wpaUserScenarios(), isolationRemovalScenarios()];
