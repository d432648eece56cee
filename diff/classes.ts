/**
 * Which classes each kind of change falls in. The issue defines them:
 *
 * - **client-breaking**: existing client code may fail — an endpoint or response field removed
 *   or renamed, a type or format changed, a success status or acknowledgement kind changed, an
 *   operation-id kind changed, an open value set closed, a container path moved, a request field
 *   newly required, a limit tightened;
 * - **server-breaking**: a server that conformed to the old contract may now fail the suite — a
 *   new endpoint, a new required response field, a new rule, a listed error status removed, a
 *   tightened format;
 * - **compatible**: additions that neither side must act on;
 * - **deprecated**: an endpoint deprecated, with the replacement named where the document names one;
 * - **knowledge**: what the document now states that it did not — an unknown resolved, an
 *   assumption confirmed or contradicted, a conflict resolved or introduced — and the readings
 *   the model makes where it is silent (an assumption introduced or changed: not the document's
 *   words, so the heading says so).
 *
 * Every case the issue lists is in the table as listed (a limit tightened is client-breaking in
 * both directions). Where it is silent we applied its two definitions ("may fail") by the
 * direction a value travels, and say so here:
 *
 * - A value a **server** produces (response) that the contract **narrows** (a type, format or
 *   value set replaced, a field now required) fails old servers: server-breaking too. One it
 *   **widens** (a field may now be absent, a set opened) reaches old clients: client-breaking.
 * - A value a **client** produces (request) that the contract **narrows** fails old clients, and
 *   the suite's probes now expect the narrower refusal (LIMIT-*, INPUT-400, a required field's
 *   400): server-breaking too. One it **widens** (a limit loosened, a field removed) the suite now
 *   sends as valid (INPUT-ACCEPT; ASM-NOT-SHOWN-FIELDS-SENT sends every field): server-breaking.
 * - A closed set that grows (its size, no value withdrawn) widens: on a request server-breaking
 *   only, since no old client can fail; on a response client-breaking. One that shrinks narrows:
 *   on a request client- and server-breaking, on a response server-breaking. A set whose values
 *   are replaced is both, both ways.
 * - So a type change, a renamed field and a moved container are both client- and server-breaking;
 *   a changed success or operation-id kind too (ACK-202 and OPID-KIND judge them). A rename or a
 *   move is one change only where the pairing of what left and what arrived is unambiguous
 *   (fields.ts states the rule: the same field under one parent, the same container anywhere in
 *   the place, or the one field left on each side with related names); otherwise a removal and an
 *   addition, each in its own classes.
 * - A success that moves between `data` (the document's read table) and `sync-action` (its other
 *   actions, answering with a body) is compatible: the wire is the same on both sides (a body,
 *   status not shown), the body's own changes report themselves, and no check reads the kind
 *   (the suite reads the endpoint's effect; a rule that effect brings, e.g. READ-404, makes the
 *   change that brought it server-breaking). It is reported because it is a fact of the document:
 *   whether a call reads or acts.
 * - A new request field, even unmarked, is server-breaking: the suite sends it and, where the
 *   endpoint lists 400, breaks it. A new optional response field (may be absent) is compatible.
 * - An added error status is compatible: no client is told to rely on the absence of a status,
 *   and the suite accepts any listed one. Where it makes a rule newly judge the endpoint (a 400
 *   brings INPUT-400) the engine adds server-breaking and names the rule.
 * - A removed rule is client-breaking (a guarantee clients could rely on is withdrawn); a rule's
 *   scope grown is server-breaking, shrunk client-breaking.
 * - A field's presence marking newly stated or withdrawn where whether it must be carried does not
 *   change (not shown ↔ may be absent; documented ↔ required) is knowledge: the suite already
 *   treated it so.
 * - Values that occur, or members of a partly shown set, newly shown are knowledge; on a request
 *   field also server-breaking, since the suite sends the shown values as valid. Shown values
 *   withdrawn are knowledge; on a request field also client-breaking (a client may send one).
 * - An unknown resolved or introduced, an assumption settled, introduced or changed, a conflict
 *   resolved, introduced or changed: knowledge. A conflict resolved where the endpoint's table
 *   does not take up the status the reading allowed is also server-breaking: a server on the
 *   reading's side now fails STATUS-SET.
 * - A changed base path or auth scheme breaks both sides. A removed resource (a generated type
 *   name) is client-breaking; an added one compatible (its uses report themselves).
 * - Wording (a rule's title or statement, a gap's explanation, a citation, a format's
 *   description, where the document lists the error statuses) and the model's own readings (effect, tag group, `secret`, `refersTo`,
 *   `freeText`) are compatible: the facts they describe report their own changes.
 * - References to gaps and rules from elsewhere (a field's `assumption`, a set's `unknown`, a
 *   field's `limit`, a rule's `conflicts`) are reported once, at the gap or rule they name.
 */
import type { Direction } from '../spec/queries.ts';
import type { ChangeClass } from './change.ts';

export type { Direction };

/** Classes of a change that does not depend on which way a value travels. */
export const fixedClasses = {
  'base-path-changed': ['client-breaking', 'server-breaking'],
  'auth-changed': ['client-breaking', 'server-breaking'],
  'document-changed': ['compatible'],
  /** The statuses are compared endpoint by endpoint; this is only where the document lists them. */
  'error-table-cite-changed': ['compatible'],
  'format-pattern-changed': ['client-breaking', 'server-breaking'],
  'format-entry-added': ['compatible'],
  'format-entry-removed': ['compatible'],
  'format-text-changed': ['compatible'],
  'resource-added': ['compatible'],
  'resource-removed': ['client-breaking'],
  'resource-cite-changed': ['compatible'],
  'endpoint-added': ['server-breaking'],
  'endpoint-removed': ['client-breaking'],
  'endpoint-moved': ['client-breaking', 'server-breaking'],
  'success-changed': ['client-breaking', 'server-breaking'],
  'success-kind-changed': ['compatible'],
  'operation-kind-changed': ['client-breaking', 'server-breaking'],
  'error-status-added': ['compatible'],
  'error-status-removed': ['server-breaking'],
  'effect-changed': ['compatible'],
  'tag-changed': ['compatible'],
  'endpoint-cite-changed': ['compatible'],
  'endpoint-deprecated': ['deprecated'],
  'endpoint-undeprecated': ['compatible'],
  'replacement-changed': ['deprecated'],
  'field-marked': ['compatible'],
  'rule-added': ['server-breaking'],
  'rule-removed': ['client-breaking'],
  'rule-text-changed': ['compatible'],
  'unknown-resolved': ['knowledge'],
  'unknown-introduced': ['knowledge'],
  'unknown-text-changed': ['compatible'],
  'assumption-settled': ['knowledge'],
  'assumption-introduced': ['knowledge'],
  'assumption-changed': ['knowledge'],
  'assumption-text-changed': ['compatible'],
  'conflict-resolved': ['knowledge'],
  'conflict-introduced': ['knowledge'],
  'conflict-changed': ['knowledge'],
  'conflict-text-changed': ['compatible'],
} as const satisfies Record<string, readonly ChangeClass[]>;

/** Classes of a change to a field, by the way its value travels; a field used both ways gets both. */
export const fieldClasses = {
  /** A field a conformant message must carry: a documented response field, a required request field. */
  'field-added': { request: ['client-breaking', 'server-breaking'], response: ['server-breaking'] },
  'optional-field-added': { request: ['server-breaking'], response: ['compatible'] },
  'field-removed': { request: ['server-breaking'], response: ['client-breaking'] },
  'field-renamed': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  'container-moved': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  'type-changed': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  /** A format added or replaced: "a type or format changed", "a tightened format". */
  'format-changed': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  /** A format dropped: still "a format changed" for clients; a request wider for servers. */
  'format-dropped': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking'] },
  /** "a limit tightened" is client-breaking as the issue lists it; on a response a server sending the old lengths fails too. */
  'limit-tightened': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  'limit-loosened': { request: ['server-breaking'], response: ['client-breaking'] },
  'limit-changed': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  'now-required': { request: ['client-breaking', 'server-breaking'], response: ['server-breaking'] },
  /** Request: the suite still sends every field (ASM-NOT-SHOWN-FIELDS-SENT), so nothing to act on. */
  'no-longer-required': { request: ['compatible'], response: ['client-breaking'] },
  /**
   * Neither side must act: `not-shown` → `may-be-absent` (the document now states what it left
   * open), `documented` → `required` (the letter now states what the suite already asserted,
   * ASM-DOCUMENTED-FIELDS-PRESENT), and back.
   */
  'presence-stated': { request: ['knowledge'], response: ['knowledge'] },
  'presence-unstated': { request: ['knowledge'], response: ['knowledge'] },
  'value-set-closed': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
  'value-set-opened': { request: ['server-breaking'], response: ['client-breaking'] },
  'values-added': { request: ['knowledge', 'server-breaking'], response: ['knowledge'] },
  'values-removed': { request: ['knowledge', 'client-breaking'], response: ['knowledge'] },
  /** A closed set's size grown with no value withdrawn: wider. */
  'value-set-grown': { request: ['server-breaking'], response: ['client-breaking'] },
  /** A closed set's size shrunk with no value added: narrower. */
  'value-set-shrunk': { request: ['client-breaking', 'server-breaking'], response: ['server-breaking'] },
  'value-set-changed': { request: ['client-breaking', 'server-breaking'], response: ['client-breaking', 'server-breaking'] },
} as const satisfies Record<string, Readonly<Record<Direction, readonly ChangeClass[]>>>;

/** Kinds whose classes the engine works out case by case (rules.ts says how). */
export const computedKinds = ['rule-scope-changed'] as const;

export type FixedKind = keyof typeof fixedClasses;
export type FieldKind = keyof typeof fieldClasses;

/** Every kind a change may have, for the JSON report's schema. */
export const changeKinds: readonly string[] = [...Object.keys(fixedClasses), ...Object.keys(fieldClasses), ...computedKinds];
