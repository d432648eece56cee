/**
 * The model's codes: rule ids (`AUTH-401`), unknowns (`UNK-*`), assumptions (`ASM-*`) and
 * conflicts (`CONFLICT-*`). Each has a one-line meaning made from its own entry's words, so a
 * message that cites a code says what it means (`withMeaning`) without restating the document,
 * and `explanation` shows an entry whole, with what the model records of its use: never more.
 */
import { api } from './api.ts';
import { formats } from './formats.ts';
import type { Assumption, Cite, Conflict, Field, FieldType, Param, Rule, Unknown } from './model.ts';
import { inScope, operation } from './queries.ts';

export type Code = Rule['id'] | Unknown['id'] | Assumption['id'] | Conflict['id'];

export type CodeEntry =
  | { readonly kind: 'rule'; readonly id: Rule['id']; readonly entry: Rule }
  | { readonly kind: 'unknown'; readonly id: Unknown['id']; readonly entry: Unknown }
  | { readonly kind: 'assumption'; readonly id: Assumption['id']; readonly entry: Assumption }
  | { readonly kind: 'conflict'; readonly id: Conflict['id']; readonly entry: Conflict };

/** Every code of the model: rules, then unknowns, assumptions and conflicts, each in the model's order. */
export const codes: readonly CodeEntry[] = [
  ...api.rules.map((entry) => ({ kind: 'rule' as const, id: entry.id, entry })),
  ...api.unknowns.map((entry) => ({ kind: 'unknown' as const, id: entry.id, entry })),
  ...api.assumptions.map((entry) => ({ kind: 'assumption' as const, id: entry.id, entry })),
  ...api.conflicts.map((entry) => ({ kind: 'conflict' as const, id: entry.id, entry })),
];

const byId = new Map<string, CodeEntry>(codes.map((c) => [c.id, c]));

/** The entry of a code, written in any case; undefined when the model has none. */
export const codeEntry = (code: string): CodeEntry | undefined => byId.get(code.toUpperCase());

/** `Word` → `word`, leaving names in capitals (`GET`, `HTTP`) and code (`` `x` ``) as they are. */
const lowerFirst = (text: string) => (/^[A-Z](?![A-Z])/.test(text) ? `${text[0]!.toLowerCase()}${text.slice(1)}` : text);
const withoutPeriod = (text: string) => text.replace(/\.$/, '');

/** A text up to the first of `ends` followed by white space outside code spans (`` `a.b` `` is no sentence end). */
function upTo(ends: RegExp, text: string): string {
  let code = false;
  for (let i = 0; i < text.length - 1; i++) {
    if (text[i] === '`') code = !code;
    else if (!code && ends.test(text[i]!) && /\s/.test(text[i + 1]!)) return text.slice(0, i);
  }
  return withoutPeriod(text);
}
/** An assumption's choice before its details. */
const firstClause = (text: string) => upTo(/[;:.]/, text);
const firstSentence = (text: string) => upTo(/\./, text);

function meaningOfEntry(code: CodeEntry): string {
  switch (code.kind) {
    case 'rule':
      return code.entry.title;
    case 'unknown':
      return `the document does not show ${lowerFirst(withoutPeriod(code.entry.what))}`;
    case 'assumption':
      return `assumed: ${lowerFirst(firstClause(code.entry.choice))}`;
    case 'conflict':
      return `${firstSentence(code.entry.letter.says)}; yet ${lowerFirst(firstSentence(code.entry.reading.says))}`;
  }
}

/** A code's one-line meaning, from its entry in the model. Throws for a code the model lacks: a caller's bug. */
export function meaningOf(code: Code): string {
  const found = codeEntry(code);
  if (!found) throw new Error(`no code ${code} in the model`);
  return meaningOfEntry(found);
}

/** `UNK-BODY-MARKING (the document does not show required or optional marking of body fields …)`. */
export const withMeaning = (code: Code): string => `${code} (${meaningOf(code)})`;

/** One line per code, grouped by kind: what `explain` with no code prints. */
export function codeList(): string {
  const groups: [CodeEntry['kind'], string][] = [
    ['rule', 'rules (checked by the suite)'],
    ['unknown', 'unknowns (what the document does not show)'],
    ['assumption', 'assumptions (choices made where the document is silent)'],
    ['conflict', 'conflicts (statements of the document that disagree)'],
  ];
  const width = Math.max(...codes.map((c) => c.id.length));
  return groups
    .map(([kind, title]) => [`${title}:`, ...codes.filter((c) => c.kind === kind).map((c) => `  ${c.id.padEnd(width)}  ${meaningOfEntry(c)}`)].join('\n'))
    .join('\n\n');
}

const cited = (cite: Cite) => `§${cite.section}${cite.quote ? `: "${cite.quote}"` : ''}`;
const sameWords = (a: Cite, b: Cite) => a.section === b.section && a.quote !== undefined && a.quote === b.quote;
const indented = (items: readonly string[]) => items.map((item) => `    ${item}`);

/** Where the model's data names a code: fields, parameters, formats, effects, deprecations. */
const uses = new Map<string, string[]>();
const use = (id: string | undefined, where: string) => {
  if (id === undefined) return;
  const list = uses.get(id) ?? [];
  if (!list.includes(where)) list.push(where);
  uses.set(id, list);
};
function walk(type: FieldType, where: string): void {
  if (type.kind === 'array') return walk(type.items, where);
  if (type.kind === 'object') for (const f of type.fields) visit(f, `${where}.${f.name}`);
  if (type.kind !== 'string') return;
  use(type.open?.unknown, where);
  use(type.enum?.unknown, where);
  use(type.limit, where);
  if (type.format) use(formats[type.format].assumption, `${where} (format ${type.format})`);
}
function visit(field: Field | Param, where: string): void {
  use(field.assumption, where);
  walk(field.type, where);
}
for (const r of api.resources) for (const f of r.fields) visit(f, `resource ${r.name}: field ${f.name}`);
for (const e of api.endpoints) {
  const op = operation(e);
  for (const p of e.pathParams) visit(p, `${op}: path parameter ${p.name}`);
  for (const p of e.queryParams) visit(p, `${op}: query parameter ${p.name}`);
  for (const f of e.body ?? []) visit(f, `${op}: body field ${f.name}`);
  if (e.success.kind !== 'ack') walk(e.success.body, `${op}: response`);
  for (const flow of [e.effects?.adds, e.effects?.takesAway, ...(e.effects?.sets ?? [])]) use(flow?.assumption, `${op}: effect ${flow?.from} → ${flow?.to}`);
  if (e.deprecated) use(e.deprecated.replacement, `${op}: deprecated in favour of it`);
}

/** The endpoints a scope covers, as a line or a list. */
function scopeLines(scope: Rule['scope'], what: string): string[] {
  if (scope === 'target') return [`${what}: once against the target, not per endpoint`];
  const covered = api.endpoints.filter((e) => inScope({ scope }, e));
  if (covered.length === api.endpoints.length) return [`${what}: every endpoint (${covered.length})`];
  if (covered.length === 0) return [`${what}: no endpoint`];
  return [`${what} (${covered.length}):`, ...indented(covered.map(operation))];
}

const related = (label: string, ids: readonly Code[]) => (ids.length ? [`${label}:`, ...indented(ids.map(withMeaning))] : []);
const usedBy = (id: string) => {
  const found = uses.get(id) ?? [];
  return found.length ? ['named in the model by:', ...indented(found)] : [];
};

/** Everything the model holds about one code, for `hosted-site-contract explain CODE`. */
export function explanation(code: CodeEntry): string {
  const lines = [`${code.id}: ${meaningOfEntry(code)}`];
  switch (code.kind) {
    case 'rule': {
      const rule = code.entry;
      lines.push('a rule of the document, checked by the suite', `statement: ${rule.statement}`, `cited: ${cited(rule.cite)}`);
      lines.push(...scopeLines(rule.scope, 'checked on'));
      lines.push(...related('conflicts that loosen or tighten it', rule.conflicts ?? []), ...usedBy(rule.id));
      break;
    }
    case 'unknown': {
      const unknown = code.entry;
      lines.push('an unknown: the document says it is not shown, and no consumer of the model may assert it', `not shown: ${unknown.what}`, `cited: ${cited(unknown.cite)}`);
      lines.push(...related('assumptions on the same words of the document', api.assumptions.filter((a) => sameWords(a.cite, unknown.cite)).map((a) => a.id)), ...usedBy(unknown.id));
      break;
    }
    case 'assumption': {
      const assumption = code.entry;
      lines.push('an assumption: a choice made where the document is silent, named in reports', `choice: ${assumption.choice}`, `why: ${assumption.why}`, `cited: ${cited(assumption.cite)}`);
      lines.push(...scopeLines(assumption.scope, 'shapes requests or answers of'));
      lines.push(...related('unknowns on the same words of the document', api.unknowns.filter((u) => sameWords(u.cite, assumption.cite)).map((u) => u.id)), ...usedBy(assumption.id));
      break;
    }
    case 'conflict': {
      const conflict = code.entry;
      const extra = conflict.extraStatus;
      lines.push(
        'a conflict: two statements of the document disagree',
        `the letter: ${conflict.letter.says}`,
        `  cited: ${cited(conflict.letter.cite)}`,
        `the reading: ${conflict.reading.says}`,
        `  cited: ${cited(conflict.reading.cite)}`,
        `endpoints (${conflict.endpoints.length}):`,
        ...indented(conflict.endpoints.map((name) => operation(api.endpoints.find((e) => e.name === name)!))),
        `the mock: ${conflict.mock === 'reading' ? `takes the reading${extra === undefined ? '' : ` (answers ${extra} too)`}` : 'keeps to the letter'}: ${conflict.mockWhy}`,
        `the suite: accepts either side${extra === undefined ? '' : ` (${extra} as well as the letter's statuses)`}; with --strict, the letter only`,
      );
      lines.push(...related('rules it loosens or tightens', api.rules.filter((r) => r.conflicts?.includes(conflict.id)).map((r) => r.id)));
      break;
    }
  }
  return lines.join('\n');
}
