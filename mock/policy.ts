/**
 * Choices the mock makes where the document leaves the behaviour open. The conformance suite
 * never asserts any of them: they are the mock's, not the document's.
 */

/**
 * UNK-EXP-INTERVAL-VALUES: the document shows `days_7` and says there are five values. The
 * mock needs a full set to refuse the rest; these four others are its own invention.
 */
export const MOCK_EXP_INTERVALS: readonly string[] = ['days_1', 'days_3', 'days_7', 'days_14', 'days_30'];

/**
 * UNK-BODY-MARKING: how the mock treats body fields without required/optional marking.
 * `optional` (the default, for client authors): an action may omit them; the answer carries a
 * warning (`X-Contract-Warning`) naming each one, since a real server may require them
 * (ASM-NOT-SHOWN-FIELDS-SENT). `required`: actions refuse a body without them (an action missing
 * its input cannot run), as the mock did before. Reads (the themes-list filter) never require
 * them. A server doing either is conformant.
 */
export type UnmarkedFields = 'optional' | 'required';
export const UNMARKED_FIELDS_CHOICES: readonly UnmarkedFields[] = ['optional', 'required'];
export const DEFAULT_UNMARKED_FIELDS: UnmarkedFields = 'optional';

/** Whether the mock watches an endpoint's unmarked fields: refuses (required) or warns (optional) when omitted. */
export const watchesUnmarkedFields = (effect: 'read' | 'mutating' | 'destructive'): boolean => effect !== 'read';

/** Largest request body the mock reads (`wp_command` tops out at 5000 characters). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * How many acknowledged operations the mock keeps by default (the document shows no operation
 * record, so none is ever read back through the API): the newest, the oldest dropped first, so
 * a long run holds memory steady. Here rather than in store.ts so the CLI's help can quote it
 * without loading the mock.
 */
export const MAX_KEPT_OPERATIONS = 10_000;
