/**
 * LIMIT-* (§Limits; §Endpoints): the stated limits of `wp_command`, `exp_interval` and
 * `web_root_subfolder`, broken (expect 400) and met at their boundaries (expect success), each
 * in a request otherwise valid and naming the tenant's real environment. A limit stated as a
 * pattern (a format's, or the field's own) gets the edges its structure gives
 * (spec/pattern-edges.ts) and the values the pattern operators draw along it (spec/operators:
 * a character it does not take at any position, after a valid prefix of any length, at the end of
 * the longest value, after a line break, around it; lengths past the limit); a partly shown set,
 * the values certain to be outside it (ASM-EXP-INTERVAL-OUTSIDE) drawn around the value shown;
 * every limited field, values of every other JSON type. No list is kept by hand. Invalid commands
 * are harmless even if a faulty server ran them; valid ones do nothing. Valid cases change the
 * target, so they need --allow-destructive (and, for a destructive endpoint whose data only a live
 * environment holds, --allow-live).
 */
import fc from 'fast-check';
import { api } from '../../spec/api.ts';
import { formats } from '../../spec/formats.ts';
import { PARTLY_SHOWN_VALUE_PATTERN } from '../../spec/gaps.ts';
import type { Endpoint, Field, RuleId } from '../../spec/model.ts';
import type { Applied } from '../../spec/operators/index.ts';
import { edgeOperator, everyMember, patternBreaks, patternOperators } from '../../spec/operators/patterns.ts';
import { bodyPlaces, typeOperators, wrongValues } from '../../spec/operators/types.ts';
import { patternEdges } from '../../spec/pattern-edges.ts';
import { endpoint as endpointNamed, rule } from '../../spec/queries.ts';
import type { Probe, ProbeSource, Skip } from '../types.ts';
import { idsForInvalid, show, standInBody } from './inputs.ts';
import { depthOf, operatorProbes } from './operated.ts';
import { bearer, makeProbe, streamSeed } from './request.ts';

/** One value of the limited field (`absent`: the field left out), and what it shows. */
interface Case {
  readonly value?: unknown;
  readonly absent?: true;
  readonly title: string;
}

const of = (value: unknown, title: string): Case => ({ value, title: `${show(value)}: ${title}` });
const fixed = (operator: Applied<Case>['operator'], c: Case): Applied<Case> => ({ operator, what: c.title, first: c, arbitrary: fc.constant(c) });

/** The pattern a limited field's values must match: its own (`wp_command`), its format's (`web_root_subfolder`), or the reading of a partly shown set's. */
const patternOf = (field: Field): { pattern: string; valid?: string } | undefined => {
  if (field.type.kind !== 'string') return undefined;
  if (field.type.pattern ?? field.type.format) return { pattern: field.type.pattern ?? formats[field.type.format!].pattern };
  // ASM-EXP-INTERVAL-OUTSIDE: values shaped unlike the one shown are outside the set; broken around it.
  if (field.type.enum) return { pattern: PARTLY_SHOWN_VALUE_PATTERN, valid: field.type.enum.shown[0]! };
  return undefined;
};

interface Limit {
  /** Fixed cases (the pattern's edges, the field absent): sent once each. */
  readonly fixed: readonly Applied<Case>[];
  /** Operators whose values are drawn as well. */
  readonly drawn: readonly Applied<Case>[];
  readonly valid: readonly Applied<Case>[];
}

/**
 * The cases of a limit, from the limited field's type in the model: its pattern's edges (a
 * partly shown set: the values it shows are valid, the field is stated required), the pattern's
 * drawn breaks, and every other JSON type.
 */
function limitOf(field: Field): Limit {
  const stated = patternOf(field);
  if (!stated) throw new Error(`${field.name} states no pattern, format or values to derive cases from`);
  const maxLength = field.type.kind === 'string' ? field.type.maxLength : undefined;
  const shown = field.type.kind === 'string' ? field.type.enum?.shown : undefined;
  // A partly shown set's pattern is only a reading of what is certainly outside it: its values are
  // broken around the value shown (the pattern's breaks), not along every edge of the reading.
  const edges = patternEdges(stated.pattern, maxLength === undefined ? {} : { maxLength }).filter((e) => !shown || (e.kind === 'quantifier' && !e.inside));
  const caseOf = (e: { value: string; why: string }): Case => ({ value: e.value, title: `${show(e.value)}: ${e.why}` });
  const place = bodyPlaces([field])[0]!;
  const types = wrongValues(place, shown?.[0] ?? 'x').map((a) => ({ operator: a.operator, what: a.what, first: of(a.first, a.operator.title), arbitrary: a.arbitrary.map((v) => of(v, a.operator.title)) }));
  const breaks = patternBreaks({ ...stated, ...(maxLength === undefined ? {} : { maxLength }) }).map((a) => ({
    operator: a.operator,
    what: a.what,
    first: of(a.first, a.operator.title),
    arbitrary: a.arbitrary.map((v) => of(v, a.operator.title)),
  }));
  const required = field.presence === 'required' ? [fixed(typeOperators.missingRequired, { absent: true, title: 'left out (stated required)' })] : [];
  const every = shown ? undefined : everyMember({ ...stated, ...(maxLength === undefined ? {} : { maxLength }) });
  const valid = shown
    ? shown.map((value) => fixed(patternOperators.shownValue, of(value, shown.length === 1 ? 'the value the document shows' : 'a value the document shows')))
    : [
        ...(every !== undefined && !edges.some((e) => e.value === every) ? [fixed(patternOperators.everyMember, { value: every, title: `${show(every)}: ${patternOperators.everyMember.title}` })] : []),
        ...edges.filter((e) => e.inside).map((e) => fixed(patternOperators.edgeInside, caseOf(e))),
      ];
  return {
    fixed: [...required, ...edges.filter((e) => !e.inside).map((e) => fixed(edgeOperator(e.kind), caseOf(e)))],
    drawn: [...breaks, ...types],
    valid,
  };
}

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
    const seed = streamSeed(context.seed, 'limits', r.id);
    // Valid cases are sent only where the ids are real (valid requests allowed there), so they serve both.
    const { path, ids, idsUnknown, because } = idsForInvalid(endpoint, target, seed);
    if (!path.ok) {
      skipped.push({ rule: r.id, endpoint, reason: path.reason });
      continue;
    }
    const { drawn } = standInBody(endpoint, ids, seed);
    // The case's value in a stand-in body: shrinking varies the other fields (and a drawn value), never the case's kind.
    const build = (expect: 'invalid' | 'valid', c: Case, body: Record<string, unknown>) => {
      const { [field.name]: _, ...rest } = body;
      const json = c.absent ? rest : { ...body, [field.name]: c.value };
      const made = makeProbe(target, r.id, expect, c.absent ? c.title : `${field.name} ${c.title}`, { endpoint, credentials: bearer(target.main.apiKey), path: path.value, body: { json } });
      return idsUnknown ? { ...made, idsUnknown } : made;
    };
    const invalid = (_op: unknown, c: Case, body: Record<string, unknown>) => build('invalid', c, body);
    probes.push(...operatorProbes(limit.fixed, invalid, { seed, depth: 0, base: drawn }));
    probes.push(...operatorProbes(limit.drawn, invalid, { seed: streamSeed(seed, 'drawn'), depth: depthOf(context.runs, 0.3), base: drawn }));
    if (!idsUnknown) probes.push(...operatorProbes(limit.valid, (_op, c, body) => build('valid', c, body), { seed, depth: 0, base: drawn }));
    else skipped.push({ rule: r.id, endpoint, reason: `its valid boundary cases need ${because!.flag} (${because!.why ? `${because!.why}; ` : ''}the invalid ones were sent)` });
  }
  return { probes, skipped };
};
