/**
 * LIMIT-* (§Limits; §Endpoints): the stated limits of `wp_command`, `exp_interval` and
 * `web_root_subfolder`, broken (expect 400) and met at their boundaries (expect success), each
 * in a request otherwise valid and naming the tenant's real environment. A limit stated as a
 * pattern (a format's, or the field's own) gets the edges its structure gives; no list is kept
 * by hand. Invalid commands are harmless even if a faulty server ran them; valid ones do
 * nothing. Valid cases change the target, so they need --allow-destructive (and, for a
 * destructive endpoint whose data only a live environment holds, --allow-live).
 */
import { api } from '../../spec/api.ts';
import type { Endpoint, Field, PartlyShownEnum, RuleId } from '../../spec/model.ts';
import { endpoint as endpointNamed, rule } from '../../spec/queries.ts';
import { formats } from '../../spec/formats.ts';
import { patternEdges, type Edge } from '../../spec/pattern-edges.ts';
import type { Probe, ProbeSource, Skip } from '../types.ts';
import { idsForInvalid, show, standInBody, wrongTypes } from './inputs.ts';
import { bearer, generatedProbe, makeProbe, streamSeed } from './request.ts';

/** One value of the limited field (`absent`: the field left out), and what it shows. */
interface Case {
  readonly value?: unknown;
  readonly absent?: true;
  readonly title: string;
}

interface Limit {
  readonly invalid: readonly Case[];
  readonly valid: readonly Case[];
}

const of = (value: unknown, title: string): Case => ({ value, title: `${show(value)}: ${title}` });
const nonStrings: readonly Case[] = [...wrongTypes({ kind: 'string' }), []].map((v) => of(v, 'not a string'));

/** The pattern a limited field's values must match: its own (`wp_command`), or its format's (`web_root_subfolder`: a path beginning with `/`). */
const patternOf = (field: Field): string | undefined =>
  field.type.kind === 'string' ? (field.type.pattern ?? (field.type.format ? formats[field.type.format].pattern : undefined)) : undefined;

/**
 * A field limited by a pattern (and a length): its edges, derived from the pattern's structure
 * (spec/pattern-edges.ts): each quantifier at its minimum and one below, each class's members and
 * nearest non-members, the anchors, the longest value and one longer ending in each kind of
 * member. They are built on the shortest value the pattern takes (`wp a`), so an invalid command
 * stays harmless if a faulty server ran it, and a valid one does nothing (`wp` has no `a`).
 */
const patterned = (field: Field): Limit | undefined => {
  const pattern = patternOf(field);
  if (pattern === undefined) return undefined;
  const maxLength = field.type.kind === 'string' ? field.type.maxLength : undefined;
  const edges = patternEdges(pattern, maxLength === undefined ? {} : { maxLength });
  const caseOf = (e: Edge): Case => ({ value: e.value, title: `${show(e.value)}: ${e.why}` });
  return { invalid: [...edges.filter((e) => !e.inside).map(caseOf), ...nonStrings], valid: edges.filter((e) => e.inside).map(caseOf) };
};

/**
 * A closed set partly shown: required; the values shown (`days_7`, the field's `enum.shown`) are
 * valid; strings outside `[a-z0-9_]` are outside all five (ASM-EXP-INTERVAL-OUTSIDE).
 */
const partlyShown = ({ shown }: PartlyShownEnum): Limit => ({
  invalid: [
    { absent: true, title: 'left out (stated required)' },
    ...nonStrings,
    of(null, 'null for a required field'),
    of('', 'the empty string'),
    of('days 7', 'a space'),
    of('days-7', 'a hyphen'),
    of('DAYS_7', 'uppercase letters'),
  ],
  valid: shown.map((value) => of(value, shown.length === 1 ? 'the value the document shows' : 'a value the document shows')),
});

/** The cases of a limit, from the limited field's type in the model: its pattern's edges, else its partly shown values. */
const limitOf = (field: Field): Limit | undefined => patterned(field) ?? (field.type.kind === 'string' && field.type.enum ? partlyShown(field.type.enum) : undefined);

/** The endpoint and body field a limit rule constrains, read from the model. */
function limitedField(id: RuleId): { readonly endpoint: Endpoint; readonly field: Field } {
  const scope = rule(id).scope;
  if (typeof scope !== 'object') throw new Error(`${id} is not scoped to endpoints`);
  for (const name of scope.endpoints) {
    const e = endpointNamed(name);
    const field = e.body?.find((f) => f.type.kind === 'string' && f.type.limit === id);
    if (field) return { endpoint: e, field };
  }
  throw new Error(`no body field carries ${id}`);
}

export const limitProbes: ProbeSource = (context) => {
  const { target } = context;
  const probes: Probe[] = [];
  const skipped: Skip[] = [];
  for (const r of api.rules) {
    if (!r.id.startsWith('LIMIT-')) continue;
    const { endpoint, field } = limitedField(r.id);
    const limit = limitOf(field);
    if (!limit) throw new Error(`${r.id}: ${field.name} states no pattern, format or values to derive cases from`);
    const seed = streamSeed(context.seed, 'limits', r.id);
    // Valid cases are sent only where the ids are real (valid requests allowed there), so they serve both.
    const { path, ids, idsUnknown, because } = idsForInvalid(endpoint, target, seed);
    if (!path.ok) {
      skipped.push({ rule: r.id, endpoint, reason: path.reason });
      continue;
    }
    const { drawn } = standInBody(endpoint, ids, seed);
    // The case's value in a stand-in body: shrinking varies the other fields, never the case.
    const probe = (expect: 'invalid' | 'valid', c: Case) => {
      const build = (body: Record<string, unknown>) => {
        const { [field.name]: _, ...rest } = body;
        const json = c.absent ? rest : { ...body, [field.name]: c.value };
        const made = makeProbe(target, r.id, expect, c.absent ? c.title : `${field.name} ${c.title}`, { endpoint, credentials: bearer(target.main.apiKey), path: path.value, body: { json } });
        return idsUnknown ? { ...made, idsUnknown } : made;
      };
      probes.push(generatedProbe(drawn.arbitrary, drawn.value, build));
    };
    for (const c of limit.invalid) probe('invalid', c);
    if (!idsUnknown) for (const c of limit.valid) probe('valid', c);
    else skipped.push({ rule: r.id, endpoint, reason: `its valid boundary cases need ${because!.flag} (${because!.why ? `${because!.why}; ` : ''}the invalid ones were sent)` });
  }
  return { probes, skipped };
};
