/**
 * Requests the way common clients send them, beside the suite's own shape:
 * - a read the document gives body fields (the themes list) sent with no body at all, as
 *   fetch-based clients must (a GET cannot carry one there) with fetch's `Accept: *\/*`: nothing
 *   is expected of it beyond what every answer owes, so STATUS-SET judges its status (under
 *   --strict, the letter of the table: a 400 fails);
 * - a valid body labelled `application/json; charset=utf-8`, as many HTTP libraries label JSON:
 *   the same media type (RFC 9110 §8.3.1: parameters qualify it; RFC 8259 §11: `charset` has no
 *   effect on JSON), so it gets the endpoint's success (INPUT-ACCEPT). Actions need
 *   --allow-destructive, as every valid action does.
 * GETs without a body never carry a Content-Type (request.ts), as clients send them.
 */
import { api } from '../../spec/api.ts';
import { clientShape } from '../../spec/operators/index.ts';
import { isRead } from '../../spec/queries.ts';
import type { Probe, ProbeSource } from '../types.ts';
import { validRequests } from './inputs.ts';
import { bearer, makeProbe, streamSeed, withoutDraw, type RequestParts } from './request.ts';

export const JSON_WITH_CHARSET = 'application/json; charset=utf-8';

export const clientShapeProbes: ProbeSource = (context) => {
  const { target } = context;
  const probes: Probe[] = [];
  const allowLive = target.allowLive === true;
  for (const endpoint of api.endpoints.filter((e) => e.body !== undefined)) {
    const read = isRead(endpoint);
    const send = (rule: 'STATUS-SET' | 'INPUT-ACCEPT', title: string, parts: RequestParts, headers: Readonly<Record<string, string | undefined>>) =>
      probes.push({ ...makeProbe(target, rule, rule === 'STATUS-SET' ? 'observe' : 'valid', title, { endpoint, credentials: bearer(target.main.apiKey), ...parts, headers }), operator: { id: clientShape.id, rank: clientShape.rank, drawn: false } });
    // Where no valid request can be placed (or actions are not allowed), INPUT-ACCEPT's own skip of
    // the endpoint says why: these take the same ids under the same safety rules.
    if (!read && !target.allowDestructive) continue;
    const valid = validRequests(endpoint, target.main, streamSeed(context.seed, 'client-shapes', endpoint.name), 1, { allowLive });
    if (!valid.ok) continue;
    const parts = withoutDraw(valid.value[0]!);
    if (read) send('STATUS-SET', 'no body, as fetch-based clients send a GET (the document lists body fields)', { ...(parts.path ? { path: parts.path } : {}) }, { accept: '*/*' });
    send('INPUT-ACCEPT', `valid request labelled Content-Type: ${JSON_WITH_CHARSET} (as many clients label JSON)`, parts, { 'content-type': JSON_WITH_CHARSET });
  }
  return { probes, skipped: [] };
};
