/**
 * What the mock tells a client author about a body it accepted though a real server might not:
 * fields the document does not mark that the body omits, and fields the endpoint does not have
 * (a misspelling such as `backupId`, with the field meant). The document decides neither, so the
 * mock accepts and warns (the `X-Contract-Warning` header and the request log); it never refuses.
 */
import { withMeaning } from '../spec/codes.ts';
import { textDistance } from './name-similarity.ts';

/** Unknown fields named in one warning, and characters of each name shown. */
const SHOWN_FIELDS = 10;
const SHOWN_NAME_CHARS = 64;

/** The warnings join into one header line. */
export const joinWarnings = (warnings: readonly string[]): string => warnings.join(' | ');

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** Text as a header can carry it: printable ASCII, anything else escaped as JSON would. */
const ascii = (text: string): string => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Why an omitted unmarked field is accepted, and why to send it anyway: the model's codes with their meanings. */
const UNMARKED_WHY = ascii(`${withMeaning('UNK-BODY-MARKING')}; ${withMeaning('ASM-NOT-SHOWN-FIELDS-SENT')}`);

export const omittedFieldsWarning = (omitted: readonly string[]): string =>
  `omitted body ${plural(omitted.length, 'field', 'fields')} ${omitted.join(', ')}: not marked required or optional, but a server may require ${plural(omitted.length, 'it', 'them')}, so send every field: ${UNMARKED_WHY}`;

/** A client's field name as a header can carry it: ASCII, escaped like JSON, cut. */
const shown = (name: string): string => ascii(JSON.stringify(name.length > SHOWN_NAME_CHARS ? `${name.slice(0, SHOWN_NAME_CHARS)}…` : name));

/** Letters and digits only, lower case: `backupId`, `backup-id` and `backup_id` are one name. */
const folded = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The endpoint's field `name` most likely meant, if any is close (half of it or more the same). */
export function meantField(name: string, fields: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 0.5;
  for (const field of fields) {
    const d = textDistance(folded(name.slice(0, SHOWN_NAME_CHARS)), folded(field));
    if (d <= bestDistance) [best, bestDistance] = [field, d];
  }
  return best;
}

/** The warning for body fields the endpoint does not have, or undefined when there are none. */
export function unknownFieldsWarning(sent: readonly string[], fields: readonly string[]): string | undefined {
  const unknown = sent.filter((name) => !fields.includes(name));
  if (unknown.length === 0) return undefined;
  const named = unknown.slice(0, SHOWN_FIELDS).map((name) => {
    const guess = meantField(name, fields);
    return guess ? `${shown(name)} (did you mean ${guess}?)` : shown(name);
  });
  const more = unknown.length > SHOWN_FIELDS ? ` and ${unknown.length - SHOWN_FIELDS} more` : '';
  return `unknown body ${plural(unknown.length, 'field', 'fields')} ${named.join(', ')}${more}: ignored, as this endpoint has no such field (${fields.length ? `it takes ${fields.join(', ')}` : 'it takes none'}); the document does not say whether a server refuses ${plural(unknown.length, 'it', 'them')}`;
}
