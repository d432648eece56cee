/**
 * Mutation operators over the model: for each kind of fact the model knows (a field's JSON type,
 * a stated pattern or length, a credential and where it may travel, an id and what it names, the
 * JSON a body is written in), the whole family of wrong values, as fast-check arbitraries that
 * shrink. Probes are drawn from them (conformance/probes), the self-test names the operator whose
 * probe killed each fault, and the report lists per rule and operation which ones were exercised.
 *
 * Every operator says which reading of the document it rests on; one that would rest on nothing
 * the document says is listed with `unused`, the reason, and never drawn from.
 */
import type fc from 'fast-check';

/** The kinds of fact an operator breaks. */
export type OperatorFamily = 'valid' | 'json' | 'type' | 'pattern' | 'length' | 'credential' | 'carrier' | 'spelling' | 'reference' | 'round-trip';

export interface Operator {
  /** Stable id, `family:what` (`type:numeric-string`), used in reports and the self-test. */
  readonly id: string;
  readonly family: OperatorFamily;
  /** What its values are, for titles and reports. */
  readonly title: string;
  /** The document's words (or the RFC, or the assumption) its values are wrong (or right) by. */
  readonly reading: string;
  /** Its values must be refused (`invalid`) or accepted (`valid`: a spelling the document's words allow). */
  readonly expect: 'invalid' | 'valid';
  /**
   * Order among a row's operators when a budget allows only some: the ones a fault one step
   * beside a valid request meets first (0) before the deeper ones.
   */
  readonly rank: number;
  /** Never drawn from: why the document does not decide its values. */
  readonly unused?: string;
}

/**
 * One operator applied at one place: its canonical value (the one nearest a valid request, sent
 * first) and the arbitrary its generated values come from (shrinking toward the canonical
 * ones). `what` says where, for titles: `new_resource_records[2].value`.
 */
export interface Applied<T> {
  readonly operator: Operator;
  readonly what: string;
  readonly first: T;
  readonly arbitrary: fc.Arbitrary<T>;
  /** Its values are only drawn: another probe sends what its canonical one would (all of them at once). */
  readonly drawnOnly?: true;
}

/** Declares an operator: one object per kind of wrong value, listed once (`operators.ts`). */
export const operator = (op: Operator): Operator => Object.freeze(op);

/** Requests valid under every reading, values drawn across their space (INPUT-ACCEPT, NO-SERVER-ERROR): the first canonical, the rest drawn. */
export const validRequest = operator({
  id: 'valid:request',
  family: 'valid',
  title: 'a request valid under every reading of the document, its values drawn across their space',
  reading: '§What the service does: "Long-running actions are accepted ... Read calls answer with the data directly"',
  expect: 'valid',
  rank: 0,
});

/** Requests written as other clients write them (no body where the document gives one; `Accept: *\/*`; a charset): each as valid, judged on what it gets. */
export const clientShape = operator({
  id: 'valid:client-shape',
  family: 'valid',
  title: 'a request as other clients write it (no body, `Accept: */*`, a charset parameter)',
  reading: 'RFC 9110 §8.3.1, §12.5.1: the same media type and the same request for the document',
  expect: 'valid',
  rank: 2,
});
