/**
 * INPUT-400 (§Errors: "400 | Bad request format | Malformed or invalid request"), on the
 * endpoints whose table lists 400, to the letter. Each probe breaks one thing the document makes
 * invalid, in a request otherwise valid and naming the tenant's real data (so the break is the
 * only reason to refuse it), drawn from the mutation operators (spec/operators): a body that is
 * not JSON or not an object (cut at any length, followed by more, JSON-like syntax), every JSON
 * type but the right one at every place of the body (top level, array items first and last, the
 * fields of the objects they hold), a stated-required field missing or `null`, a stated UUID
 * broken along its pattern, a stated query parameter missing. Never a break the document leaves
 * open: a missing or `null` unmarked field, a non-UUID `environment_id` (ASM-ENVIRONMENT-ID-UUID),
 * a malformed e-mail (ASM-EMAIL-FORMAT). Fields under a stated limit (`wp_command`,
 * `exp_interval`, `web_root_subfolder`) are broken by `limits.ts`, under their rule.
 */
import fc from 'fast-check';
import { api } from '../../spec/api.ts';
import { formats } from '../../spec/formats.ts';
import type { Endpoint, Field } from '../../spec/model.ts';
import { describeTextBreak, isNoJsonObject, malformedBodies, textOf, type TextBreak } from '../../spec/operators/json.ts';
import type { Applied, Operator } from '../../spec/operators/index.ts';
import { patternBreaks } from '../../spec/operators/patterns.ts';
import { bodyPlaces, placeName, putAt, typeOperators, validAt, wrongValues, type BodyPlace } from '../../spec/operators/types.ts';
import { inScope, rule } from '../../spec/queries.ts';
import type { Probe, ProbeContext, ProbeSource, Skip } from '../types.ts';
import { idsForInvalid, show, standInBody, validRequests } from './inputs.ts';
import { depthOf, operatorProbes } from './operated.ts';
import { bearer, makeProbe, probeFromParts, streamSeed, type Body, type RequestParts } from './request.ts';

/**
 * A break of a body, as data (what fast-check draws and shrinks): a wrong value at one of the
 * body's places (by index into `bodyPlaces`), a stated-required field left out, or a malformed text.
 */
export type BodyBreak =
  | { readonly at: number; readonly value: unknown }
  | { readonly without: string }
  | { readonly text: TextBreak };

/** The top-level field a break concerns; undefined when it breaks the whole body. */
const fieldOf = (b: BodyBreak, places: readonly BodyPlace[]): string | undefined =>
  'at' in b ? places[b.at]!.field : 'without' in b ? b.without : undefined;

/** The broken body made from a (stand-in) valid one, and its title; undefined where this body cannot carry the break. */
function broken(operator: Operator, b: BodyBreak, body: Record<string, unknown>, places: readonly BodyPlace[]): { readonly title: string; readonly body: Body } | undefined {
  if ('at' in b) {
    const place = places[b.at]!;
    const json = putAt(body, place, b.value);
    const uuid = place.type.kind === 'string' && place.type.format === 'uuid' && typeof b.value === 'string' ? '; not a UUID' : '';
    return json && { title: `${placeName(place.path)}: ${operator.title} (${show(b.value)}${uuid})`, body: { json } };
  }
  if ('without' in b) {
    const { [b.without]: _, ...rest } = body;
    return { title: `without ${b.without} (stated required)`, body: { json: rest } };
  }
  const raw = textOf(b.text, JSON.stringify(body));
  // A rewriting with nothing to rewrite in this body leaves a JSON object: no probe.
  return isNoJsonObject(raw) ? { title: `${operator.title}: ${describeTextBreak(b.text)}`, body: { raw } } : undefined;
}

type Breaks = Applied<BodyBreak>;

/** A field whose values only its own limit rule judges (limits.ts). */
const limited = (field: Field): boolean => field.type.kind === 'string' && field.type.limit !== undefined;

/** A UUID the document states (not one of our readings: ASM-ENVIRONMENT-ID-UUID): a malformed one is invalid under every reading. */
const statedUuid = (field: Field): boolean => field.type.kind === 'string' && field.type.format === 'uuid' && !field.assumption;

/** Every break of a body of `endpoint`'s, as data, from the operators: wrong types at each place, stated-required fields left out or broken, malformed texts. */
export function bodyBreaks(endpoint: Endpoint, body: Record<string, unknown>, places: readonly BodyPlace[]): Breaks[] {
  const fields = endpoint.body ?? [];
  const at = (a: Applied<unknown>, i: number): Breaks => ({ ...a, first: { at: i, value: a.first }, arbitrary: a.arbitrary.map((value): BodyBreak => ({ at: i, value })) });
  const types = places.flatMap((place, i) => (limited(fields.find((f) => f.name === place.field)!) ? [] : wrongValues(place, validAt(body, place)).map((a) => at(a, i))));
  const uuids = places.flatMap((place, i) => {
    const field = fields.find((f) => f.name === place.field)!;
    return place.path.length === 1 && statedUuid(field) ? patternBreaks({ pattern: formats.uuid.pattern }).map((a) => at(a, i)) : [];
  });
  const missing = fields.filter((f) => f.presence === 'required' && !limited(f)).map((f): Breaks => ({ operator: typeOperators.missingRequired, what: f.name, first: { without: f.name }, arbitrary: fc.constant({ without: f.name }) }));
  const nullIsInvalid = fields.some((f) => f.presence === 'required');
  const texts = malformedBodies(nullIsInvalid).map((a): Breaks => ({ ...a, first: { text: a.first }, arbitrary: a.arbitrary.map((text): BodyBreak => ({ text })) }));
  return [...texts, ...missing, ...types, ...uuids];
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
        return { ...make(`without the query parameter ${param.name}`, { path: path.value, query: others }), operator: { id: typeOperators.missingRequired.id, rank: 0, drawn: false } };
      };
      // Shrinkable only where drawn parameters are left to send.
      probes.push(endpoint.queryParams.length > 1 ? probeFromParts(valid.value[0]!, without) : without(valid.value[0]!));
    }
    if (endpoint.body) {
      const { body, madeUp, drawn } = standInBody(endpoint, ids, seed);
      // A stand-in id may be refused as unknown before the body is read: break only the stand-in itself then
      // (unless every id is unknown on purpose, where a 404 counts as a refusal).
      const places = bodyPlaces(endpoint.body);
      const breaks = bodyBreaks(endpoint, body, places).filter((b) => {
        const field = fieldOf(b.first, places);
        return idsUnknown || madeUp.length === 0 || field === undefined || madeUp.includes(field);
      });
      probes.push(
        ...operatorProbes(breaks, (operator, b, stand: Record<string, unknown>) => {
          const made = broken(operator, b, stand, places);
          return made && make(made.title, { path: path.value, body: made.body });
        }, { seed: streamSeed(seed, 'drawn'), depth: depthOf(context.runs), base: drawn }),
      );
      if (madeUp.length && !idsUnknown) {
        skipped.push({ rule: 'INPUT-400', endpoint, reason: `${madeUp.join(', ')} not discovered, so only breaks of the whole body or of ${madeUp.join(', ')} are sent` });
      }
    }
  }
  return { probes, skipped };
};
