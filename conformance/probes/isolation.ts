/**
 * ISOLATION-WRITE (OWASP API1:2023, object-level authorisation, on writes): with a second company
 * (`--other-api-key`, `--other-site-id`), every action is sent requests naming the other
 * company's data under this company's key, one id role at a time (each path parameter and body
 * field the model says refers to something: environment, domain, site, backup, SFTP account,
 * notified user), the rest this company's own, and one naming only the other company's.
 *
 * Where the action lists 400, the table lets the server refuse, so a refusal is required (400, or
 * 404 by CONFLICT-ACTION-UNKNOWN-RESOURCE's reading). Where it lists none (it may acknowledge and
 * fail later), an acknowledgement proves nothing by itself: the effect is looked for in the other
 * company's data instead (state/isolation.ts), where a read shows it (the rule's scope holds no
 * action whose outcome no answer shows).
 *
 * Safety: these requests are valid but for the foreign id, and carry the suite's probe names where
 * it chooses values. They go only where the user named a second company, which must be a test
 * company: a faulty server acts on it. Destructive actions need --allow-destructive, and they
 * name this company's data beside the foreign id; without it, mutating actions are sent naming
 * only the other company's data. The live rule holds for both companies' places.
 */
import { api } from '../../spec/api.ts';
import type { Endpoint, Field, Param, Referent } from '../../spec/model.ts';
import { inScope, rule } from '../../spec/queries.ts';
import type { DiscoveredIds, Probe, ProbeSource, Skip } from '../types.ts';
import { idOf, idsFor, validRequests } from './inputs.ts';
import { bearer, makeProbe, streamSeed, withoutDraw, type RequestParts } from './request.ts';

const RULE = 'ISOLATION-WRITE';

/** What a request names by id and can be another company's: not a record name or an e-mail address the suite makes up. */
const FOREIGN_REFERENTS: ReadonlySet<Referent> = new Set(['company', 'site', 'environment', 'domain', 'backup', 'additional-sftp-account', 'cdn-cache', 'company-user']);

/** The parameters and body fields of an action that name data another company may own. */
export const idRoles = (endpoint: Endpoint): (Param | Field)[] =>
  [...endpoint.pathParams, ...(endpoint.body ?? [])].filter((p) => p.refersTo !== undefined && FOREIGN_REFERENTS.has(p.refersTo));

/** Whether the action lists a refusal: then naming another company's data must be refused. */
export const mustRefuse = (endpoint: Endpoint): boolean => endpoint.errors.includes(400);

/** The actions of the rule's scope. */
export const isolationActions = (): Endpoint[] => api.endpoints.filter((e) => inScope(rule(RULE), e));

/** `parts` with the role's value replaced: a path parameter or a body field. */
function withValue(parts: RequestParts, role: Param | Field, value: string | number, endpoint: Endpoint): RequestParts {
  if (endpoint.pathParams.includes(role as Param)) return { ...parts, path: { ...parts.path, [role.name]: String(value) } };
  const json = parts.body && 'json' in parts.body ? (parts.body.json as Record<string, unknown>) : {};
  return { ...parts, body: { json: { ...json, [role.name]: value } } };
}

export const isolationProbes: ProbeSource = (context) => {
  const { target } = context;
  const probes: Probe[] = [];
  const skipped: Skip[] = [];
  const skip = (endpoint: Endpoint, reason: string) => skipped.push({ rule: RULE, endpoint, reason });
  const allowLive = target.allowLive === true;
  for (const endpoint of isolationActions()) {
    if (!target.other) {
      skip(endpoint, 'needs a second company (--other-api-key, --other-site-id): a test company');
      continue;
    }
    // Without a refusal listed, its effect on the other company's data is looked for where a read shows it (state/isolation.ts).
    if (!mustRefuse(endpoint)) continue;
    if (endpoint.effect === 'destructive' && !target.allowDestructive) {
      skip(endpoint, 'needs --allow-destructive');
      continue;
    }
    const seed = streamSeed(context.seed, 'isolation', endpoint.name);
    const send = (title: string, parts: RequestParts) =>
      probes.push(makeProbe(target, RULE, 'foreign-write', title, { endpoint, credentials: bearer(target.main.apiKey), ...parts }));
    // Only the other company's data: a faulty server can act on nothing but it.
    const foreign = validRequests(endpoint, target.other, streamSeed(seed, 'all'), 1, { allowLive });
    if (foreign.ok) send("every id the other company's", withoutDraw(foreign.value[0]!));
    else skip(endpoint, `the other company: ${foreign.reason}`);
    // One role at a time, the rest this company's: each id checked, not only the first. Beside this
    // company's data, only where valid requests may act on it.
    if (!target.allowDestructive) continue;
    const own = validRequests(endpoint, target.main, streamSeed(seed, 'own'), 1, { allowLive });
    const theirs = idsFor(endpoint, target.other.ids, allowLive);
    if (!own.ok || !theirs.ok) {
      skip(endpoint, `one id at a time: ${own.ok ? `the other company: ${(theirs as { reason: string }).reason}` : own.reason}`);
      continue;
    }
    const roles = idRoles(endpoint);
    if (roles.length < 2) continue; // the request naming only the other company's data covers its one role
    for (const role of roles) {
      const id = idOf(role.refersTo!, theirs.value);
      if (!id.ok) {
        skip(endpoint, `${role.name} of the other company: ${id.reason}`);
        continue;
      }
      // An id this company holds too names its own data: not a foreign one (integer backup ids need not be unique across companies).
      if (heldBy(role.refersTo!, target.main.ids).includes(id.value)) {
        skip(endpoint, `${role.name} of the other company is also one of this company's (${role.refersTo} ids are not unique across companies), so it names no foreign data`);
        continue;
      }
      send(`${role.name} the other company's, the rest this company's`, withValue(withoutDraw(own.value[0]!), role, id.value, endpoint));
    }
  }
  return { probes, skipped };
};

/** Every value the tenant's discovered ids hold for a referent (a backup: each environment's). */
function heldBy(referent: Referent, ids: DiscoveredIds): (string | number)[] {
  if (referent === 'backup') return (ids.places ?? []).flatMap((p) => p.backupIds ?? (p.backupId === undefined ? [] : [p.backupId])).concat(ids.backupId ?? []);
  const one = idOf(referent, ids);
  return one.ok ? [one.value] : [];
}
