/**
 * Changes of endpoints, keyed by `METHOD /path` as the document writes it. An endpoint that
 * left one operation and arrived at another under the same model name has moved (renamed).
 */
import type { ContractEndpoint } from '../spec/contract.ts';
import { same, type Change } from './change.ts';
import { fixedClasses, type Direction, type FixedKind } from './classes.ts';
import { codeSpan, describeStatuses, describeSuccess } from './describe.ts';
import { diffFields, diffType, type FieldSite, type RuleSections } from './fields.ts';

const sectionsOf = (before: ContractEndpoint | undefined, after: ContractEndpoint | undefined): Change['sections'] => ({
  before: before?.cite.section ?? null,
  after: after?.cite.section ?? null,
});

function fixed(kind: FixedKind, subject: string, operations: readonly string[], before: string | null, after: string | null, sections: Change['sections'], summary: string): Change {
  return { kind, classes: fixedClasses[kind], subject, operations, before, after, sections, summary };
}

const describeDeprecation = (d: ContractEndpoint['deprecated']): string =>
  d === undefined ? 'not deprecated' : d.replacement.startsWith('UNK-') ? `deprecated; replacement not shown (${d.replacement})` : `deprecated; replaced by ${d.replacement}`;

/** `errorTable`: the sections where each document lists the endpoints' error statuses (their rows cite it). */
export function diffEndpoints(before: readonly ContractEndpoint[], after: readonly ContractEndpoint[], errorTable: Change['sections'], rules: RuleSections): Change[] {
  const afterByOperation = new Map(after.map((e) => [e.operation, e]));
  const beforeByOperation = new Map(before.map((e) => [e.operation, e]));
  const added = after.filter((e) => !beforeByOperation.has(e.operation));
  const removed = before.filter((e) => !afterByOperation.has(e.operation));
  const movedTo = new Map<ContractEndpoint, ContractEndpoint>();
  for (const gone of removed) {
    const come = added.find((e) => e.name === gone.name);
    if (come) movedTo.set(gone, come);
  }
  const arrived = new Set(movedTo.values());
  const changes: Change[] = [];
  for (const e of before) {
    const next = afterByOperation.get(e.operation) ?? movedTo.get(e);
    if (next) changes.push(...diffEndpoint(e, next, errorTable, rules));
    else {
      changes.push(fixed('endpoint-removed', e.operation, [e.operation], describeSuccess(e.success), null, sectionsOf(e, undefined), 'endpoint removed'));
    }
  }
  for (const e of added.filter((a) => !arrived.has(a))) {
    const deprecation = e.deprecated ? `; deprecated on arrival (${describeDeprecation(e.deprecated)})` : '';
    changes.push(fixed('endpoint-added', e.operation, [e.operation], null, describeSuccess(e.success), sectionsOf(undefined, e), `new endpoint${deprecation}`));
  }
  return changes;
}

/** The changes of one endpoint present on both sides (perhaps moved). */
function diffEndpoint(before: ContractEndpoint, after: ContractEndpoint, errorTable: Change['sections'], rules: RuleSections): Change[] {
  const op = after.operation;
  const operations = before.operation === op ? [op] : [before.operation, op];
  const sections = sectionsOf(before, after);
  const one = (kind: FixedKind, was: string | null, now: string | null, summary: string) => fixed(kind, op, operations, was, now, sections, summary);
  const changes: Change[] = [];
  if (before.operation !== op) changes.push(one('endpoint-moved', before.operation, op, `endpoint moved (renamed) from ${before.operation}`));

  const [was, now] = [before.success, after.success];
  if ((was.kind === 'acknowledged') !== (now.kind === 'acknowledged') || was.status !== now.status) {
    changes.push(one('success-changed', describeSuccess(was), describeSuccess(now), `success changed from ${was.kind} to ${now.kind}`));
  } else {
    if (was.kind === 'acknowledged' && now.kind === 'acknowledged' && was.operationKind !== now.operationKind) {
      changes.push(one('operation-kind-changed', was.operationKind, now.operationKind, `operation-id kind changed from ${codeSpan(was.operationKind)} to ${codeSpan(now.operationKind)}`));
    }
    if (was.kind !== now.kind) {
      changes.push(one('success-kind-changed', was.kind, now.kind, `now listed as ${now.kind === 'data' ? 'a read (answers with the data)' : 'an action answering with a body'}; the body is compared on its own`));
    }
    changes.push(...diffType(was.body, now.body, site(before, after, 'response', 'response', rules), ''));
  }

  const statusesBefore = describeStatuses(before.errors);
  const statusesAfter = describeStatuses(after.errors);
  const status = (kind: FixedKind, summary: string) => fixed(kind, op, operations, statusesBefore, statusesAfter, errorTable, summary);
  for (const s of before.errors.filter((s) => !after.errors.includes(s))) changes.push(status('error-status-removed', `error status ${s} no longer listed`));
  for (const s of after.errors.filter((s) => !before.errors.includes(s))) changes.push(status('error-status-added', `error status ${s} now listed`));

  if (before.effect !== after.effect) changes.push(one('effect-changed', before.effect, after.effect, `effect changed from ${before.effect} to ${after.effect}`));
  if (before.tag !== after.tag) changes.push(one('tag-changed', before.tag, after.tag, `tag group changed from ${before.tag} to ${after.tag}`));

  const [dBefore, dAfter] = [before.deprecated, after.deprecated];
  if (!dBefore && dAfter) {
    changes.push(fixed('endpoint-deprecated', op, operations, describeDeprecation(dBefore), describeDeprecation(dAfter), { before: null, after: dAfter.cite.section }, `deprecated; ${replacementWords(dAfter.replacement)}`));
  } else if (dBefore && !dAfter) {
    changes.push(fixed('endpoint-undeprecated', op, operations, describeDeprecation(dBefore), describeDeprecation(dAfter), { before: dBefore.cite.section, after: null }, 'no longer deprecated'));
  } else if (dBefore && dAfter && dBefore.replacement !== dAfter.replacement) {
    changes.push(fixed('replacement-changed', op, operations, describeDeprecation(dBefore), describeDeprecation(dAfter), { before: dBefore.cite.section, after: dAfter.cite.section }, `replacement changed: ${replacementWords(dAfter.replacement)}`));
  }
  if (!same(before.cite, after.cite) || (dBefore && dAfter && !same(dBefore.cite, dAfter.cite))) {
    changes.push(one('endpoint-cite-changed', citeText(before), citeText(after), 'citation changed (the section, or the words the model quotes)'));
  }

  changes.push(
    ...diffFields(before.pathParams, after.pathParams, site(before, after, 'path', 'request', rules)),
    ...diffFields(before.queryParams, after.queryParams, site(before, after, 'query', 'request', rules)),
    ...diffFields(before.body ?? [], after.body ?? [], site(before, after, 'request body', 'request', rules)),
  );
  return changes;
}

const replacementWords = (replacement: string): string =>
  replacement.startsWith('UNK-') ? `the replacement is not shown (${replacement})` : `use ${replacement} instead`;

const citeText = (e: ContractEndpoint): string =>
  [e.cite.section, e.cite.quote, e.deprecated && `deprecation: ${e.deprecated.cite.section}${e.deprecated.cite.quote ? ` “${e.deprecated.cite.quote}”` : ''}`].filter(Boolean).join('; ');

/** A part of an endpoint (its response, path, query or request body) as a place fields sit. */
function site(before: ContractEndpoint, after: ContractEndpoint, part: string, direction: Direction, rules: RuleSections): FieldSite {
  const op = after.operation;
  return {
    subject: (path) => (path ? `${op} ${part}: ${path}` : `${op} ${part}`),
    directions: [direction],
    operations: before.operation === op ? [op] : [before.operation, op],
    sections: sectionsOf(before, after),
    rules,
  };
}
