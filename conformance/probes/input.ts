/**
 * INPUT-400 (§Errors: "400 | Bad request format | Malformed or invalid request"), on the
 * endpoints whose table lists 400, to the letter. Each probe breaks one thing the document makes
 * invalid, in a request otherwise valid and naming the tenant's real data (so the break is the
 * only reason to refuse it): malformed JSON, a body that is not an object, a field of another
 * JSON type, a stated-required field missing, a non-UUID where the document states a UUID, a
 * missing stated query parameter. Never a break the document leaves open: a missing unmarked
 * field, a non-UUID `environment_id` (ASM-ENVIRONMENT-ID-UUID). Fields under a stated limit
 * (`wp_command`, `exp_interval`, `web_root_subfolder`) are broken by `limits.ts`, under their rule.
 */
import { api } from '../../spec/api.ts';
import { formatNearMisses } from '../../spec/arbitraries.ts';
import type { Endpoint, Field, FieldType } from '../../spec/model.ts';
import { requestMutations, type Mutation } from '../../spec/mutations.ts';
import { inScope, rule } from '../../spec/queries.ts';
import type { Probe, ProbeContext, ProbeSource, Skip } from '../types.ts';
import { idsForInvalid, standInBody, validRequests } from './inputs.ts';
import { bearer, generatedProbe, makeProbe, probeFromParts, streamSeed, type Body, type RequestParts } from './request.ts';

/** One broken request body, and what was broken. */
interface Break {
  /** The top-level field it concerns; undefined when it breaks the whole body. */
  readonly field?: string;
  readonly title: string;
  readonly body: Body;
  /** The same whatever the stand-in body (nothing of it is sent): nothing to shrink. */
  readonly fixed?: true;
}

/** UUID near misses no reading accepts (the empty string is left out: it may read as absent). */
const uuidMisses = new Set(formatNearMisses.uuid.filter((v) => v !== '').slice(0, 3));

/**
 * Whether a one-field break of the model (spec/mutations.ts) is one every reading of the document
 * refuses: a wrong JSON type, a stated-required field missing, a UUID near miss where the document
 * states the UUID. Not: a format it leaves to meaning or to an assumption (an e-mail, a non-UUID
 * `environment_id`: ASM-ENVIRONMENT-ID-UUID), nor a field under a stated limit (limits.ts breaks
 * those, under the limit's rule).
 */
function refusedByEveryReading(mutation: Mutation, field: Field | undefined): boolean {
  if (!field || (field.type.kind === 'string' && field.type.limit)) return false;
  if (mutation.keyword === 'type' || mutation.keyword === 'required') return true;
  const stated = mutation.type.kind === 'string' && mutation.type.format === 'uuid' && !field.assumption;
  return mutation.keyword === 'pattern' && stated && uuidMisses.has(mutation.value as string);
}

/** The top-level field a mutation breaks (the one it removes, for `required` at the root). */
const topField = (mutation: Mutation): string | undefined => (mutation.instancePath === '' ? mutation.missingProperty : mutation.instancePath.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~'));

function fieldBreaks(endpoint: Endpoint, body: Record<string, unknown>): Break[] {
  return requestMutations(endpoint, body).flatMap((mutation) => {
    const name = topField(mutation);
    const field = endpoint.body?.find((f) => f.name === name);
    if (!refusedByEveryReading(mutation, field)) return [];
    const why = mutation.keyword === 'required' ? ' (stated required)' : mutation.keyword === 'type' ? ` (not ${typeName(mutation.type)})` : ' (not a UUID)';
    return [{ field: name!, title: `${mutation.description}${why}`, body: { json: mutation.apply(body) } }];
  });
}

const typeName = (type: FieldType): string => (type.kind === 'ref' ? 'an object' : type.kind === 'integer' || type.kind === 'array' || type.kind === 'object' ? `an ${type.kind}` : `a ${type.kind}`);

/**
 * Bodies that are not JSON, or not a JSON object (§Errors: "Malformed ... request"). A JSON `null`
 * may read as no body at all, which is valid where no field is stated required: sent only where one is.
 */
function wholeBodyBreaks(endpoint: Endpoint, body: Record<string, unknown>): Break[] {
  const json = JSON.stringify(body);
  const nullIsInvalid = (endpoint.body ?? []).some((f) => f.presence === 'required');
  return [
    { title: 'malformed JSON (closing brace missing)', body: { raw: json.slice(0, -1) } },
    { title: 'malformed JSON (not JSON at all)', body: { raw: 'not json' }, fixed: true },
    ...[[], 'text', 42, ...(nullIsInvalid ? [null] : [])].map((value) => ({ title: `a JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value} instead of an object`, body: { json: value }, fixed: true as const })),
  ];
}

function bodyBreaks(endpoint: Endpoint, body: Record<string, unknown>): Break[] {
  return [...wholeBodyBreaks(endpoint, body), ...fieldBreaks(endpoint, body)];
}

export const inputProbes: ProbeSource = (context: ProbeContext) => {
  const { target } = context;
  const input400 = rule('INPUT-400');
  const probes: Probe[] = [];
  const skipped: Skip[] = [];
  const credentials = bearer(target.main.apiKey);
  for (const endpoint of api.endpoints.filter((e) => inScope(input400, e))) {
    const seed = streamSeed(context.seed, 'input-400', endpoint.name);
    // The real ids, so the break is the only reason to refuse (an unknown id may answer 404 first);
    // unknown ones where acting on a misread break would be destructive (idsForInvalid).
    const { path, ids, idsUnknown } = idsForInvalid(endpoint, target, seed);
    const make = (title: string, parts: RequestParts): Probe => {
      const made = makeProbe(target, 'INPUT-400', 'invalid', title, { endpoint, credentials, ...parts });
      return idsUnknown ? { ...made, idsUnknown } : made;
    };
    if (!path.ok) {
      skipped.push({ rule: 'INPUT-400', endpoint, reason: path.reason });
      continue;
    }
    for (const param of endpoint.queryParams.filter((p) => p.presence === 'required')) {
      const valid = validRequests(endpoint, target.main, seed, 1);
      if (!valid.ok) throw new Error(`no request for ${endpoint.name}: ${valid.reason}`);
      const without = (parts: RequestParts) => {
        const { [param.name]: _, ...others } = parts.query ?? {};
        return make(`without the query parameter ${param.name}`, { path: path.value, query: others });
      };
      // Shrinkable only where drawn parameters are left to send.
      probes.push(endpoint.queryParams.length > 1 ? probeFromParts(valid.value[0]!, without) : without(valid.value[0]!));
    }
    if (endpoint.body) {
      const { body, madeUp, drawn } = standInBody(endpoint, ids, seed);
      // A stand-in id may be refused as unknown before the body is read: break only the stand-in itself then
      // (unless every id is unknown on purpose, where a 404 counts as a refusal).
      const breaks = bodyBreaks(endpoint, body).filter((b) => idsUnknown || madeUp.length === 0 || b.field === undefined || madeUp.includes(b.field));
      // Shrinking breaks a smaller stand-in the same way (the break of the same title), or skips it where it has none.
      const breakOf = (title: string) => (stand: Record<string, unknown>) => {
        const again = bodyBreaks(endpoint, stand).find((b) => b.title === title);
        return again && make(title, { path: path.value, body: again.body });
      };
      for (const b of breaks) probes.push(b.fixed ? make(b.title, { path: path.value, body: b.body }) : generatedProbe(drawn.arbitrary, drawn.value, breakOf(b.title)));
      if (madeUp.length && !idsUnknown) {
        skipped.push({ rule: 'INPUT-400', endpoint, reason: `${madeUp.join(', ')} not discovered, so only breaks of the whole body or of ${madeUp.join(', ')} are sent` });
      }
    }
  }
  return { probes, skipped };
};
