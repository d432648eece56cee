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
 * UNK-BODY-MARKING: body fields without required/optional marking are required by the mock on
 * action endpoints (an action missing its input cannot run) and optional on the themes-list
 * GET body (a filter). A server making them optional is conformant too.
 */
export const requiresUnmarkedFields = (effect: 'read' | 'mutating' | 'destructive'): boolean => effect !== 'read';

/** Largest request body the mock reads (`wp_command` tops out at 5000 characters). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * How many acknowledged operations the mock keeps by default (the document shows no operation
 * record, so none is ever read back through the API): the newest, the oldest dropped first, so
 * a long run holds memory steady. Here rather than in store.ts so the CLI's help can quote it
 * without loading the mock.
 */
export const MAX_KEPT_OPERATIONS = 10_000;
