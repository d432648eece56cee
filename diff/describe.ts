/** Snapshot values in words, for the before/after columns of a report. */
import type { ContractSuccess, ContractType } from '../spec/contract.ts';

/** `string (uuid)`, `array of Backup`, `object {id, name}`, `string, one of 5 (shown: days_7)`. */
export function describeType(type: ContractType): string {
  switch (type.kind) {
    case 'string': {
      const parts = [type.format ? `string (${type.format})` : 'string'];
      if (type.enum) parts.push(`one of ${type.enum.size} (shown: ${type.enum.shown.join(', ')})`);
      if (type.open) parts.push(`values that occur: ${type.open.occurs.join(', ')}`);
      const limits = describeLimits(type);
      if (limits !== 'none') parts.push(limits);
      return parts.join(', ');
    }
    case 'number':
      return type.meaning ? `number (${type.meaning})` : 'number';
    case 'array':
      return `array of ${describeType(type.items)}`;
    case 'object':
      return `object {${type.fields.map((f) => f.name).join(', ')}}`;
    case 'ref':
      return type.resource;
    default:
      return type.kind;
  }
}

/** The stated limits of a string: `max length 5000, pattern ^wp\s+…$`, or `none`. */
export function describeLimits(type: Extract<ContractType, { kind: 'string' }>): string {
  const parts = [
    ...(type.maxLength !== undefined ? [`max length ${type.maxLength}`] : []),
    ...(type.pattern !== undefined ? [`pattern ${type.pattern}`] : []),
  ];
  return parts.length ? parts.join(', ') : 'none';
}

export function describeSuccess(success: ContractSuccess): string {
  return success.kind === 'acknowledged'
    ? `acknowledged: ${success.status}, operation kind ${success.operationKind}`
    : `${success.kind}: status not shown, ${describeType(success.body)}`;
}

export const describeStatuses = (statuses: readonly number[]): string => (statuses.length ? statuses.join(', ') : 'none');

export const describeList = (values: readonly string[]): string => (values.length ? values.join(', ') : 'none');

/**
 * `text` as a Markdown code span (summaries are read as Markdown): fenced by one backtick more
 * than its longest run, padded where it starts or ends with one (CommonMark, "Code spans").
 */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A citation in words: its section, then the words the model quotes. */
export const describeCite = (cite: { readonly section: string; readonly quote?: string }): string => (cite.quote ? `${cite.section}: “${cite.quote}”` : cite.section);

/**
 * The before and after words of a fact made of parts, naming only the parts that differ, so a
 * row never shows the same text on both sides. The first part is the fact's main one: where only
 * it differs, its words stand alone; otherwise each differing part is labelled.
 */
export function partsThatDiffer(parts: readonly (readonly [label: string, before: string, after: string])[]): [string, string] {
  const differing = parts.filter(([, a, b]) => a !== b);
  const [only] = differing;
  if (only && differing.length === 1 && only === parts[0]) return [only[1], only[2]];
  return [differing.map(([label, a]) => `${label}: ${a}`).join('; '), differing.map(([label, , b]) => `${label}: ${b}`).join('; ')];
}
