/**
 * Requests at the document's conflicts (spec/gaps.ts), sent to observe which side a server takes:
 * each has no expectation of its own ('observe'), so only the universal checks judge it and
 * STATUS-SET reports a status outside both sides (with --strict, outside the letter). Requests to
 * actions name random unknown ids, so they change nothing whichever side the server takes.
 *
 * Exercised elsewhere: CONFLICT-DNS-READ-404 and CONFLICT-READ-MALFORMED-ID by READ-404 probes
 * (not-found.ts). Not provoked by any request: CONFLICT-VALIDATE-404 (GET /validate names no
 * data) and CONFLICT-SSH-PASSWORD-500 (a server-side failure).
 */
import { api } from '../../spec/api.ts';
import type { Conflict } from '../../spec/model.ts';
import { jsonOperators, referenceOperators, typeOperators, type Operator } from '../../spec/operators/index.ts';
import { endpoint as endpointNamed } from '../../spec/queries.ts';
import type { Probe, ProbeContext, ProbeSource } from '../types.ts';
import { pathOf, show, standInBody, unknownPath } from './inputs.ts';
import { bearer, makeProbe, streamSeed, type RequestParts } from './request.ts';

interface ConflictProbe {
  readonly endpoint: string;
  readonly title: string;
  readonly parts: RequestParts;
  /** The kind of wrong value it sends (spec/operators), for the plan and the report. */
  readonly operator: Operator;
}

/** Bodies with every id unknown: `standInBody` with nothing discovered. */
const unknownBody = (name: string, seed: number) => standInBody(endpointNamed(name), {}, seed).body;

function probesAt(context: ProbeContext, conflict: Conflict): ConflictProbe[] {
  const seed = streamSeed(context.seed, 'conflicts', conflict.id);
  switch (conflict.id) {
    case 'CONFLICT-CDN-CLEAR-400': {
      const body = unknownBody('clearCdnCache', seed);
      const { environment_id: _e, ...withoutEnv } = body;
      const { cdn_cache_id: _c, ...withoutCache } = body;
      return [
        { endpoint: 'clearCdnCache', title: 'without environment_id (stated required), unknown cdn_cache_id', parts: { body: { json: withoutEnv } }, operator: typeOperators.missingRequired },
        { endpoint: 'clearCdnCache', title: 'without cdn_cache_id (stated required), unknown environment_id', parts: { body: { json: withoutCache } }, operator: typeOperators.missingRequired },
        { endpoint: 'clearCdnCache', title: 'cdn_cache_id 42 (not a string), unknown environment_id', parts: { body: { json: { ...body, cdn_cache_id: 42 } } }, operator: typeOperators.numberForString },
        { endpoint: 'clearCdnCache', title: 'malformed JSON (closing brace missing)', parts: { body: { raw: JSON.stringify(body).slice(0, -1) } }, operator: jsonOperators.cut },
      ];
    }
    case 'CONFLICT-EDGE-CACHE-400': {
      const body = unknownBody('setEdgeCachingStatus', seed);
      return [
        ...['true', 'yes'].map((enabled) => ({ endpoint: 'setEdgeCachingStatus', title: `enabled ${show(enabled)} (not a boolean), unknown environment_id`, parts: { body: { json: { ...body, enabled } } }, operator: typeOperators.booleanString })),
        { endpoint: 'setEdgeCachingStatus', title: 'malformed JSON (closing brace missing)', parts: { body: { raw: JSON.stringify(body).slice(0, -1) } }, operator: jsonOperators.cut },
        { endpoint: 'setEdgeCachingStatus', title: 'a JSON array instead of an object', parts: { body: { json: [] } }, operator: jsonOperators.notObject },
      ];
    }
    case 'CONFLICT-THEMES-BODY-400': {
      // A read: the real environment, so only the body can be refused.
      const e = endpointNamed('listThemes');
      const path = pathOf(e, context.target.main.ids);
      const real = path.ok ? path.value : unknownPath(e, seed);
      const body = { status: 'active', column: 'name' };
      return [
        { endpoint: 'listThemes', title: 'malformed JSON body (closing brace missing)', parts: { path: real, body: { raw: JSON.stringify(body).slice(0, -1) } }, operator: jsonOperators.cut },
        { endpoint: 'listThemes', title: 'status 42 (not a string)', parts: { path: real, body: { json: { ...body, status: 42 } } }, operator: typeOperators.numberForString },
        { endpoint: 'listThemes', title: 'column true (not a string)', parts: { path: real, body: { json: { ...body, column: true } } }, operator: typeOperators.booleanForOther },
        { endpoint: 'listThemes', title: 'a JSON array instead of an object', parts: { path: real, body: { json: [] } }, operator: jsonOperators.notObject },
      ];
    }
    case 'CONFLICT-ACTION-UNKNOWN-RESOURCE':
      // Valid bodies naming nothing: 400 where listed, 404 by the reading, or an acknowledgement.
      return conflict.endpoints.map((name) => {
        const { path, body } = unknownIds(name, streamSeed(seed, name));
        return { endpoint: name, title: 'valid request naming unknown ids (random UUIDs)', parts: { path, ...(body ? { body: { json: body } } : {}) }, operator: referenceOperators.unknown };
      });
    default:
      return [];
  }
}

/** Random unknown path ids and a valid body whose ids are random unknowns too. */
function unknownIds(name: string, seed: number): { readonly path: Record<string, string>; readonly body?: Record<string, unknown> } {
  const e = endpointNamed(name);
  const path = unknownPath(e, streamSeed(seed, 'path'));
  return e.body ? { path, body: unknownBody(name, streamSeed(seed, 'body')) } : { path };
}

export const conflictProbes: ProbeSource = (context) => {
  const probes: Probe[] = [];
  for (const conflict of api.conflicts) {
    for (const p of probesAt(context, conflict)) {
      const spec = { endpoint: endpointNamed(p.endpoint), credentials: bearer(context.target.main.apiKey), ...p.parts };
      probes.push({ ...makeProbe(context.target, 'STATUS-SET', 'observe', `${conflict.id}: ${p.title}`, spec), operator: { id: p.operator.id, rank: p.operator.rank, drawn: false } });
    }
  }
  return { probes, skipped: [] };
};
