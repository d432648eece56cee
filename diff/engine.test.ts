/**
 * The diff engine over single edits of the model. Each edit is made on a copy of the model (so
 * the snapshot's derived parts, e.g. the endpoints a rule covers, follow as the generator would
 * write them), and its expected classes are written here from the lists ("client-breaking:
 * ... a limit tightened") or, where the issue is silent, from its definitions and the choices
 * diff/classes.ts states — never read from the engine. Every edit must be reported exactly once,
 * in those classes, and the inverse edit as the inverse change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { contractOf, type ContractSnapshot } from '../spec/contract.ts';
import type { Api, Field, FieldType } from '../spec/model.ts';
import { CHANGE_CLASSES, type Change, type ChangeClass } from './change.ts';
import { diffContracts } from './engine.ts';

type Draft<T> = T extends readonly (infer U)[] ? Draft<U>[] : T extends object ? { -readonly [K in keyof T]: Draft<T[K]> } : T;
type Model = Draft<Api>;
type DraftField = Draft<Field>;

// JSON, not structuredClone: the model shares objects (Plugin's fields are Theme's), and one edit is one place.
const draft = (): Model => JSON.parse(JSON.stringify(api)) as Model;
const snapshot = (model: Model): ContractSnapshot => contractOf(model as unknown as Api);
const original = snapshot(draft());

/** An entry an edit must be reported as: how it names what changed, its classes, and those of its inverse. */
interface Expected {
  /** The inverse of a rename or move names the new name. */
  readonly subject: string;
  readonly forward: readonly ChangeClass[];
  readonly inverse: readonly ChangeClass[];
}

/** An edit of the model, what it must be reported as (one entry, or `others` too), and as what its inverse. */
interface Edit extends Expected {
  readonly what: string;
  readonly apply: (model: Model) => void;
  /** The other entries of an edit that changes two facts (two renames; a rename and a type). */
  readonly others?: readonly Expected[];
}

const CLIENT = 'client-breaking';
const SERVER = 'server-breaking';

// ---- Where fields sit, read from the model -------------------------------------------------

/** A place of a field: a resource's fields, or an endpoint's body or response, then names down nested objects. */
interface FieldPlace {
  readonly root: { readonly resource: string } | { readonly endpoint: string; readonly part: 'body' | 'response' };
  readonly path: readonly string[];
  /** How a report names the field (the `subject` of diff/change.ts). */
  readonly subject: string;
}

function fieldsAt(model: Model, place: FieldPlace): DraftField[] {
  let fields: DraftField[];
  if ('resource' in place.root) {
    const name = place.root.resource;
    fields = model.resources.find((r) => r.name === name)!.fields;
  } else {
    const e = model.endpoints.find((x) => x.name === (place.root as { endpoint: string }).endpoint)!;
    if (place.root.part === 'body') fields = e.body!;
    else fields = (e.success as { body: { fields: DraftField[] } }).body.fields;
  }
  for (const name of place.path.slice(0, -1)) fields = (fields.find((f) => f.name === name)!.type as { fields: DraftField[] }).fields;
  return fields;
}
const fieldAt = (model: Model, place: FieldPlace): DraftField => fieldsAt(model, place).find((f) => f.name === place.path.at(-1))!;

/** Resources a request carries (referenced from a body, at any depth): their fields travel both ways. */
function requestResources(): Set<string> {
  const found = new Set<string>();
  const visit = (t: FieldType) => {
    if (t.kind === 'array') visit(t.items);
    if (t.kind === 'object') t.fields.forEach((f) => visit(f.type));
    if (t.kind === 'ref' && !found.has(t.resource)) {
      found.add(t.resource);
      api.resources.find((r) => r.name === t.resource)!.fields.forEach((f) => visit(f.type));
    }
  };
  for (const e of api.endpoints) (e.body ?? []).forEach((f) => visit(f.type));
  return found;
}

/** Every field of a response (plain endpoints' bodies, resources no request carries), nested objects included. */
const responsePlaces: readonly FieldPlace[] = (() => {
  const places: FieldPlace[] = [];
  const walk = (fields: readonly Field[], root: FieldPlace['root'], path: readonly string[], label: string) => {
    for (const f of fields) {
      places.push({ root, path: [...path, f.name], subject: `${label}${[...path, f.name].join('.')}` });
      if (f.type.kind === 'object') walk(f.type.fields, root, [...path, f.name], label);
    }
  };
  const carried = requestResources();
  for (const r of api.resources) if (!carried.has(r.name)) walk(r.fields, { resource: r.name }, [], `${r.name}.`);
  for (const e of api.endpoints) {
    if (e.success.kind !== 'ack' && e.success.body.kind === 'object') walk(e.success.body.fields, { endpoint: e.name, part: 'response' }, [], `${e.method} ${e.path} response: `);
  }
  return places;
})();

const requestPlaces: readonly FieldPlace[] = api.endpoints.flatMap((e) =>
  (e.body ?? []).map((f) => ({ root: { endpoint: e.name, part: 'body' as const }, path: [f.name], subject: `${e.method} ${e.path} request body: ${f.name}` })),
);

/** The subject of a field of `place` once renamed: the same place, the last name replaced. */
const renamedSubject = (place: FieldPlace, name: string): string => `${place.subject.slice(0, place.subject.length - place.path.at(-1)!.length)}${name}`;

/** Every list of fields of a response (a resource's, a body's, a nested object's), with a place of each field. */
const responseParents: readonly (readonly FieldPlace[])[] = (() => {
  const byParent = new Map<string, FieldPlace[]>();
  for (const p of responsePlaces) {
    const key = `${JSON.stringify(p.root)} ${p.path.slice(0, -1).join('.')}`;
    byParent.set(key, [...(byParent.get(key) ?? []), p]);
  }
  return [...byParent.values()];
})();

const isContainerType = (t: FieldType) => t.kind === 'object' || t.kind === 'array';

const typeOf = (place: FieldPlace): FieldType => {
  const found = fieldAt(draft(), place);
  return found.type as FieldType;
};
const PRIMITIVES = ['string', 'integer', 'number', 'boolean'];

/** Endpoints no conflict, rule or assumption names: removing one changes nothing else. */
const unnamedEndpoints = api.endpoints.filter(
  (e) =>
    !api.conflicts.some((c) => c.endpoints.includes(e.name)) &&
    ![...api.rules, ...api.assumptions].some((r) => typeof r.scope === 'object' && r.scope.endpoints.includes(e.name)),
);

// ---- The edits -------------------------------------------------------------------------------

/** A string field among `places` given a lower maximum length; its inverse (loosening) is reported as `inverse`. */
const tightenLimit = (places: readonly FieldPlace[], inverse: readonly ChangeClass[]): fc.Arbitrary<Edit> =>
  fc.tuple(fc.constantFrom(...places.filter((p) => typeOf(p).kind === 'string')), fc.integer({ min: 1, max: 4000 })).map(([place, by]) => ({
    what: `tighten ${place.subject} by ${by}`,
    apply: (m: Model) => {
      const t = fieldAt(m, place).type as Draft<Extract<FieldType, { kind: 'string' }>>;
      t.maxLength = (t.maxLength ?? 10_000) - by;
    },
    forward: [CLIENT, SERVER],
    inverse,
    subject: place.subject,
  }));

const editArbs: Record<string, fc.Arbitrary<Edit>> = {
  // "an endpoint or response field removed" (client); its return: "a new required response field" (server).
  'remove a response field': fc.constantFrom(...responsePlaces.filter((p) => fieldAt(draft(), p).presence === 'documented')).map((place) => ({
    what: `remove ${place.subject}`,
    apply: (m: Model) => {
      const fields = fieldsAt(m, place);
      fields.splice(fields.findIndex((f) => f.name === place.path.at(-1)), 1);
    },
    forward: [CLIENT],
    inverse: [SERVER],
    subject: place.subject,
  })),
  // "renamed" (client) and "a new required response field" (server), both ways.
  'rename a response field': fc.constantFrom(...responsePlaces.filter((p) => fieldsAt(draft(), p).length > 0)).map((place) => ({
    what: `rename ${place.subject}`,
    apply: (m: Model) => {
      fieldAt(m, place).name = `${place.path.at(-1)}_renamed`;
    },
    forward: [CLIENT, SERVER],
    inverse: [CLIENT, SERVER],
    subject: place.subject,
  })),
  // "a type or format changed" (client); a server sending the old type fails RESPONSE-SCHEMA (server).
  'change a type': fc.constantFrom(...responsePlaces.filter((p) => PRIMITIVES.includes(typeOf(p).kind))).map((place) => ({
    what: `retype ${place.subject}`,
    apply: (m: Model) => {
      const f = fieldAt(m, place);
      f.type = f.type.kind === 'boolean' ? { kind: 'integer' } : { kind: 'boolean' };
    },
    forward: [CLIENT, SERVER],
    inverse: [CLIENT, SERVER],
    subject: place.subject,
  })),
  // "a tightened format" (server), "a type or format changed" (client); dropped: still a format changed (client).
  'add a format': fc.constantFrom(...responsePlaces.filter((p) => { const t = typeOf(p); return t.kind === 'string' && !t.format && !t.open && !t.enum; })).map((place) => ({
    what: `format ${place.subject}`,
    apply: (m: Model) => {
      fieldAt(m, place).type = { kind: 'string', format: 'uuid' };
    },
    forward: [CLIENT, SERVER],
    inverse: [CLIENT],
    subject: place.subject,
  })),
  // "an open value set closed" (client); a server sending another value now fails (server). Opened: a client may meet new values.
  'close an open set': fc.constantFrom(...responsePlaces.filter((p) => { const t = typeOf(p); return t.kind === 'string' && t.open !== undefined; })).map((place) => ({
    what: `close ${place.subject}`,
    apply: (m: Model) => {
      const t = fieldAt(m, place).type as Extract<FieldType, { kind: 'string' }>;
      fieldAt(m, place).type = { kind: 'string', enum: { shown: [...t.open!.occurs], size: t.open!.occurs.length + 1, unknown: t.open!.unknown } };
    },
    forward: [CLIENT, SERVER],
    inverse: [CLIENT],
    subject: place.subject,
  })),
  // "a request field newly required" (client); the suite asserts its 400 (server). Back to unmarked: the suite
  // still sends it (ASM-NOT-SHOWN-FIELDS-SENT), nothing to act on (compatible).
  'require a request field': fc.constantFrom(...requestPlaces.filter((p) => fieldAt(draft(), p).presence === 'not-shown')).map((place) => ({
    what: `require ${place.subject}`,
    apply: (m: Model) => {
      fieldAt(m, place).presence = 'required';
    },
    forward: [CLIENT, SERVER],
    inverse: ['compatible'],
    subject: place.subject,
  })),
  // "a limit tightened" (client); LIMIT probes expect the new refusal (server). Loosened: the suite sends
  // what the old limit refused as valid (server).
  'tighten a limit': tightenLimit(requestPlaces, [SERVER]),
  // "a limit tightened" (client, unconditionally); a response: a server sending longer values now fails (server).
  // Loosened: a client may meet longer values (client).
  'tighten a response limit': tightenLimit(responsePlaces, [CLIENT]),
  // A closed request set grown, no new value shown: wider for clients (no old client fails); the suite may
  // send what the old set refused (server). Shrunk: a client may send a value now refused (client), and the
  // suite expects the refusal (server).
  'grow a closed request set': fc.constantFrom(...requestPlaces.filter((p) => { const t = typeOf(p); return t.kind === 'string' && t.enum !== undefined; })).map((place) => ({
    what: `grow ${place.subject}`,
    apply: (m: Model) => {
      const t = fieldAt(m, place).type as Draft<Extract<FieldType, { kind: 'string' }>>;
      t.enum!.size += 1;
    },
    forward: [SERVER],
    inverse: [CLIENT, SERVER],
    subject: place.subject,
  })),
  // "a container path moved" (client); a server sending it where it was now fails RESPONSE-SCHEMA (server). Both
  // ways. A nested container goes to the top of its place; a top-level one is wrapped one level deeper.
  'move a container': fc.constantFrom(...responsePlaces.filter((p) => isContainerType(typeOf(p)) && (p.path.length === 1 || !fieldsAt(draft(), { ...p, path: [p.path.at(-1)!] }).some((f) => f.name === p.path.at(-1))))).map((place) => {
    const name = place.path.at(-1)!;
    const nested = place.path.length > 1;
    const wrapper = `${name}_wrapper`;
    return {
      what: `${nested ? 'hoist' : 'wrap'} ${place.subject}`,
      apply: (m: Model) => {
        const from = fieldsAt(m, place);
        const field = from.splice(from.findIndex((f) => f.name === name), 1)[0]!;
        const top = fieldsAt(m, { ...place, path: [name] });
        if (nested) top.push(field);
        else top.push({ name: wrapper, type: { kind: 'object', fields: [field] } as Draft<FieldType>, presence: field.presence, doc: 'A wrapper.' });
      },
      forward: [CLIENT, SERVER],
      inverse: [CLIENT, SERVER],
      subject: place.subject,
    };
  }),
  // Two renames under one parent, of fields that differ (so each pairing is the only one): two renames, both ways.
  'two renames at once': fc
    .constantFrom(...responseParents.filter((fields) => fields.length >= 2))
    .chain((fields) => fc.tuple(fc.constantFrom(...fields), fc.constantFrom(...fields)))
    .filter(([a, b]) => {
      const [x, y] = [fieldAt(draft(), a), fieldAt(draft(), b)];
      return a !== b && (x.type.kind !== y.type.kind || x.presence !== y.presence);
    })
    .map(([a, b]) => ({
      what: `rename ${a.subject} and ${b.subject}`,
      apply: (m: Model) => {
        for (const p of [a, b]) fieldAt(m, p).name = `${p.path.at(-1)}_renamed`;
      },
      forward: [CLIENT, SERVER],
      inverse: [CLIENT, SERVER],
      subject: a.subject,
      others: [{ subject: b.subject, forward: [CLIENT, SERVER], inverse: [CLIENT, SERVER] }],
    })),
  // A rename and a type change at once: the rename (client, server), then the type at the new name (client, server).
  'rename and retype a field': fc.constantFrom(...responsePlaces.filter((p) => PRIMITIVES.includes(typeOf(p).kind))).map((place) => {
    const renamed = `${place.path.at(-1)}_renamed`;
    return {
      what: `rename and retype ${place.subject}`,
      apply: (m: Model) => {
        const f = fieldAt(m, place);
        f.type = f.type.kind === 'boolean' ? { kind: 'integer' } : { kind: 'boolean' };
        f.name = renamed;
      },
      forward: [CLIENT, SERVER],
      inverse: [CLIENT, SERVER],
      subject: place.subject,
      others: [{ subject: renamedSubject(place, renamed), forward: [CLIENT, SERVER], inverse: [CLIENT, SERVER] }],
    };
  }),
  // Added: an addition no side must act on (compatible; no rule's scope turns on 401, 404 or 500).
  // Removed: "a listed error status removed" (server).
  'add an error status': fc
    .tuple(fc.constantFrom(...api.endpoints), fc.constantFrom(401, 404, 500))
    .filter(([e, status]) => !(e.errors as readonly number[]).includes(status))
    .map(([e, status]) => ({
      what: `list ${status} for ${e.name}`,
      apply: (m: Model) => {
        const target = m.endpoints.find((x) => x.name === e.name)!;
        target.errors = [...target.errors, status as 401 | 404 | 500].sort((a, b) => a - b);
      },
      forward: ['compatible'],
      inverse: [SERVER],
      subject: `${e.method} ${e.path}`,
    })),
  // "an operation-id kind changed" (client); OPID-KIND fails the old kind (server). Both ways.
  'rename a kind': fc.constantFrom(...api.endpoints.filter((e) => e.success.kind === 'ack')).map((e) => ({
    what: `rename the kind of ${e.name}`,
    apply: (m: Model) => {
      const s = m.endpoints.find((x) => x.name === e.name)!.success as { operationKind: string };
      s.operationKind = `${s.operationKind}-v2`;
    },
    forward: [CLIENT, SERVER],
    inverse: [CLIENT, SERVER],
    subject: `${e.method} ${e.path}`,
  })),
  // "an endpoint removed" (client); back: "a new endpoint" (server).
  'remove an endpoint': fc.constantFrom(...unnamedEndpoints).map((e) => ({
    what: `remove ${e.name}`,
    apply: (m: Model) => {
      m.endpoints.splice(m.endpoints.findIndex((x) => x.name === e.name), 1);
    },
    forward: [CLIENT],
    inverse: [SERVER],
    subject: `${e.method} ${e.path}`,
  })),
  // Deprecated (with the replacement named); undone: nothing to act on (compatible).
  'deprecate an endpoint': fc.tuple(fc.constantFrom(...api.endpoints.filter((e) => !e.deprecated)), fc.constantFrom(...api.endpoints)).map(([e, by]) => ({
    what: `deprecate ${e.name} for ${by.name}`,
    apply: (m: Model) => {
      m.endpoints.find((x) => x.name === e.name)!.deprecated = { cite: { section: 'Versioning' }, replacement: `${by.method} ${by.path}` as `GET /${string}` };
    },
    forward: ['deprecated'],
    inverse: ['compatible'],
    subject: `${e.method} ${e.path}`,
  })),
  // "an unknown resolved" / introduced: knowledge, both ways.
  'resolve an unknown': fc.constantFrom(...api.unknowns).map((u) => ({
    what: `resolve ${u.id}`,
    apply: (m: Model) => {
      m.unknowns.splice(m.unknowns.findIndex((x) => x.id === u.id), 1);
    },
    forward: ['knowledge'],
    inverse: ['knowledge'],
    subject: u.id,
  })),
  // "an assumption confirmed or contradicted": knowledge, both ways.
  'settle an assumption': fc.constantFrom(...api.assumptions).map((a) => ({
    what: `settle ${a.id}`,
    apply: (m: Model) => {
      m.assumptions.splice(m.assumptions.findIndex((x) => x.id === a.id), 1);
    },
    forward: ['knowledge'],
    inverse: ['knowledge'],
    subject: a.id,
  })),
  // "a conflict resolved" (knowledge); with the tables unchanged the letter won, and a server on the
  // reading's side now fails STATUS-SET (server). Introduced: knowledge.
  'resolve a conflict': fc.constantFrom(...api.conflicts.filter((c) => c.extraStatus !== undefined)).map((c) => ({
    what: `resolve ${c.id}`,
    apply: (m: Model) => {
      m.conflicts.splice(m.conflicts.findIndex((x) => x.id === c.id), 1);
      for (const r of m.rules) if (r.conflicts) r.conflicts = r.conflicts.filter((id) => id !== c.id);
    },
    forward: ['knowledge', SERVER],
    inverse: ['knowledge'],
    subject: c.id,
  })),
  // A rule withdrawn (client: a guarantee is gone); back: "a new rule" (server).
  'remove a rule': fc.constantFrom(...api.rules).map((r) => ({
    what: `remove ${r.id}`,
    apply: (m: Model) => {
      m.rules.splice(m.rules.findIndex((x) => x.id === r.id), 1);
    },
    forward: [CLIENT],
    inverse: [SERVER],
    subject: r.id,
  })),
};

const inOrder = (classes: readonly ChangeClass[]) => CHANGE_CLASSES.filter((c) => classes.includes(c));

function edited(edit: Edit): ContractSnapshot {
  const model = draft();
  edit.apply(model);
  return snapshot(model);
}

describe('diffContracts', () => {
  it('finds nothing between a snapshot and itself', () => {
    expect(diffContracts(original, original)).toEqual([]);
    expect(diffContracts(original, structuredClone(original))).toEqual([]);
  });

  it('finds nothing between an edited snapshot and itself', () => {
    fc.assert(
      fc.property(fc.oneof(...Object.values(editArbs)), (edit) => {
        const changed = edited(edit);
        expect(diffContracts(changed, changed)).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it.each(Object.entries(editArbs))('%s: reported once, in the expected classes; the inverse edit as the inverse change', (_, arb) => {
    fc.assert(
      fc.property(arb, (edit) => {
        const expected = [edit, ...(edit.others ?? [])];
        const changed = edited(edit);
        const forward = diffContracts(original, changed);
        const backward = diffContracts(changed, original);
        expect(forward.map((c) => c.subject).sort(), edit.what).toEqual(expected.map((e) => e.subject).sort());
        expect(backward, edit.what).toHaveLength(expected.length);
        for (const want of expected) {
          const change = forward.find((c) => c.subject === want.subject)!;
          expect(change.classes, `${edit.what}: ${want.subject}`).toEqual(inOrder(want.forward));
          // The inverse entry: the same fact with old and new swapped.
          const inverse = backward.filter((c) => c.before === change.after && c.after === change.before);
          expect(inverse, `${edit.what}: the inverse of ${want.subject}`).toHaveLength(1);
          expect(inverse[0]!.classes, edit.what).toEqual(inOrder(want.inverse));
          expect(inverse[0]!.operations, edit.what).toEqual(change.operations);
        }
        // A row whose old and new words are the same says nothing.
        for (const c of [...forward, ...backward]) expect(c.before, `${edit.what}: ${c.kind} ${c.subject}`).not.toBe(c.after);
      }),
      { numRuns: 40 },
    );
  });

  it('adds server-breaking where a new error status brings a rule to judge the endpoint (400 brings INPUT-400)', () => {
    const input400 = api.rules.find((r) => r.id === 'INPUT-400')!;
    expect(input400.scope).toBe('with-400-and-input'); // the model's word for which endpoints it judges
    const e = api.endpoints.find((x) => x.body && !x.errors.includes(400))!;
    const model = draft();
    const target = model.endpoints.find((x) => x.name === e.name)!;
    target.errors = [400, ...target.errors];
    const [change, ...rest] = diffContracts(original, snapshot(model));
    expect(rest).toEqual([]);
    expect(change!.kind).toBe('error-status-added');
    expect(change!.classes).toEqual([SERVER]);
    expect(change!.summary).toContain('INPUT-400');
    // The statuses are stated in the document's per-endpoint error table, not where the endpoint is.
    expect(change!.sections).toEqual({ before: api.errorTable.section, after: api.errorTable.section });
    expect(change!.sections.before).not.toBe(e.cite.section);
  });

  it('marks only the change that brought the rule, not the other changes of the endpoint (a deprecation stays deprecated)', () => {
    const e = api.endpoints.find((x) => x.body && !x.errors.includes(400) && !x.deprecated)!;
    const by = api.endpoints.find((x) => x !== e)!;
    const model = draft();
    const target = model.endpoints.find((x) => x.name === e.name)!;
    target.errors = [400, ...target.errors];
    target.deprecated = { cite: { section: 'Versioning' }, replacement: `${by.method} ${by.path}` as `GET /${string}` };
    const changes = diffContracts(original, snapshot(model));
    expect(changes.map((c) => [c.kind, c.classes])).toEqual([
      ['error-status-added', [SERVER]],
      ['endpoint-deprecated', ['deprecated']],
    ]);
    expect(changes[1]!.summary).not.toContain('INPUT-400');
  });

  it('reports a moved endpoint a conflict names once, as moved: the conflict follows it', () => {
    const conflict = api.conflicts[0]!;
    const model = draft();
    const target = model.endpoints.find((x) => x.name === conflict.endpoints[0])!;
    target.path = `${target.path}/moved`;
    const changes = diffContracts(original, snapshot(model));
    expect(changes.map((c) => c.kind)).toEqual(['endpoint-moved']);
  });

  it('a closed request set grown with a new value shown: server-breaking and knowledge', () => {
    const place = requestPlaces.find((p) => { const t = typeOf(p); return t.kind === 'string' && t.enum !== undefined; })!;
    const model = draft();
    const t = fieldAt(model, place).type as Draft<Extract<FieldType, { kind: 'string' }>>;
    t.enum!.size += 1;
    t.enum!.shown.push('a_new_value');
    const [change, ...rest] = diffContracts(original, snapshot(model));
    expect(rest).toEqual([]);
    expect([change!.kind, change!.classes]).toEqual(['value-set-grown', [SERVER, 'knowledge']]);
  });

  it.each([
    // The document now states what it left open: knowledge, not a requirement dropped.
    ['a request field now stated optional', requestPlaces, 'not-shown', 'may-be-absent', 'presence-stated', ['knowledge']],
    ['a response field no longer stated optional', responsePlaces, 'may-be-absent', 'not-shown', 'presence-unstated', ['knowledge']],
    // The letter now states what the suite already asserted (ASM-DOCUMENTED-FIELDS-PRESENT): no side fails anew.
    ['a documented response field now stated required', responsePlaces, 'documented', 'required', 'presence-stated', ['knowledge']],
    // "a field may now be absent" on a response reaches old clients.
    ['a documented response field now may be absent', responsePlaces, 'documented', 'may-be-absent', 'no-longer-required', [CLIENT]],
  ] as const)('%s', (_, places, from, to, kind, classes) => {
    const place = places.find((p) => fieldAt(draft(), p).presence === from)!;
    expect(place, `no ${from} field`).toBeDefined();
    const [start, end] = [draft(), draft()];
    fieldAt(start, place).presence = from;
    fieldAt(end, place).presence = to;
    const changes = diffContracts(snapshot(start), snapshot(end));
    expect(changes.map((c) => [c.kind, c.classes])).toEqual([[kind, classes]]);
  });

  describe('moves and renames: one entry where the pairing is unambiguous, removals and additions where not', () => {
    const backups = api.endpoints.find((e) => e.name === 'listBackups')!;
    const response = (m: Model, name: string) => (m.endpoints.find((e) => e.name === name)!.success as { body: { fields: DraftField[] } }).body.fields;
    const subject = (path: string) => `${backups.method} ${backups.path} response: ${path}`;
    const kinds = (changes: readonly Change[]) => changes.map((c) => [c.kind, c.subject, c.before, c.after, c.classes]);

    it('environment.backups moved to a top-level backups: one container-moved, both ways', () => {
      const model = draft();
      const [environment] = response(model, backups.name);
      const inner = (environment!.type as { fields: DraftField[] }).fields;
      const moved = inner.splice(inner.findIndex((f) => f.name === 'backups'), 1)[0]!;
      response(model, backups.name).push(moved);
      const after = snapshot(model);
      expect(kinds(diffContracts(original, after))).toEqual([['container-moved', subject('environment.backups'), 'environment.backups', 'backups', [CLIENT, SERVER]]]);
      expect(kinds(diffContracts(after, original))).toEqual([['container-moved', subject('backups'), 'backups', 'environment.backups', [CLIENT, SERVER]]]);
    });

    it('a response wrapped one level deeper (environment → data.environment): one container-moved, the wrapper no change of its own', () => {
      const model = draft();
      const fields = response(model, backups.name);
      const environment = fields.pop()!;
      fields.push({ name: 'data', type: { kind: 'object', fields: [environment] } as Draft<FieldType>, presence: 'documented', doc: 'A wrapper.' });
      const after = snapshot(model);
      expect(kinds(diffContracts(original, after))).toEqual([['container-moved', subject('environment'), 'environment', 'data.environment', [CLIENT, SERVER]]]);
      expect(kinds(diffContracts(after, original))).toEqual([['container-moved', subject('data.environment'), 'data.environment', 'environment', [CLIENT, SERVER]]]);
    });

    it('two fields alike renamed under one parent: ambiguous, so two removals and two additions', () => {
      const site = api.resources.find((r) => r.name === 'Site')!;
      const [a, b] = site.fields.filter((f) => f.type.kind === 'string' && !('format' in f.type && f.type.format) && !('open' in f.type && f.type.open));
      expect(JSON.stringify({ ...a, name: 0, doc: 0 })).toBe(JSON.stringify({ ...b, name: 0, doc: 0 })); // alike but for the name
      const model = draft();
      for (const f of model.resources.find((r) => r.name === 'Site')!.fields) if (f.name === a!.name || f.name === b!.name) f.name = `${f.name}_renamed`;
      expect(diffContracts(original, snapshot(model)).map((c) => c.kind).sort()).toEqual(['field-added', 'field-added', 'field-removed', 'field-removed']);
    });

    it('a field dropped while an unrelated one of another type arrives: a removal and an addition, not a rename', () => {
      const model = draft();
      const fields = model.resources.find((r) => r.name === 'Backup')!.fields;
      const note = fields.findIndex((f) => f.name === 'note');
      fields.splice(note, 1, { name: 'size_bytes', type: { kind: 'integer' }, presence: 'documented', doc: 'Size.' });
      expect(diffContracts(original, snapshot(model)).map((c) => [c.kind, c.subject])).toEqual([
        ['field-removed', 'Backup.note'],
        ['field-added', 'Backup.size_bytes'],
      ]);
    });
  });

  it('reports where the document lists the error statuses, when that moves: compatible (the statuses report themselves)', () => {
    const model = draft();
    model.errorTable = { section: 'Errors > By endpoint', quote: model.errorTable.quote };
    const changes = diffContracts(original, snapshot(model));
    expect(changes.map((c) => [c.kind, c.classes, c.sections])).toEqual([['error-table-cite-changed', ['compatible'], { before: api.errorTable.section, after: 'Errors > By endpoint' }]]);
    expect(changes[0]!.before).not.toBe(changes[0]!.after);
  });

  it('an endpoint removed from a conflict\'s coverage: the conflict row names the coverage, before and after differing', () => {
    const conflict = api.conflicts.find((c) => c.endpoints.length > 1)!;
    const gone = api.endpoints.find((e) => e.name === conflict.endpoints[0])!;
    const model = draft();
    model.endpoints = model.endpoints.filter((e) => e.name !== gone.name);
    for (const c of model.conflicts) c.endpoints = c.endpoints.filter((n) => n !== gone.name);
    for (const x of [...model.rules, ...model.assumptions]) if (typeof x.scope === 'object') x.scope = { endpoints: x.scope.endpoints.filter((n) => n !== gone.name) };
    const changes = diffContracts(original, snapshot(model));
    const row = changes.find((c) => c.kind === 'conflict-changed' && c.subject === conflict.id)!;
    expect(row, JSON.stringify(changes.map((c) => c.kind))).toBeDefined();
    expect(row.before).toContain(`${gone.method} ${gone.path}`);
    expect(row.after).not.toContain(`${gone.method} ${gone.path}`);
    for (const c of changes) expect(c.before, `${c.kind} ${c.subject}`).not.toBe(c.after);
  });

  it('a success between data (a read) and sync-action (another action): compatible, the body compared on its own', () => {
    const e = api.endpoints.find((x) => x.success.kind === 'sync-action')!;
    const model = draft();
    (model.endpoints.find((x) => x.name === e.name)!.success as { kind: string }).kind = 'data';
    const forward = diffContracts(original, snapshot(model));
    expect(forward.map((c) => [c.kind, c.subject, c.before, c.after, c.classes])).toEqual([['success-kind-changed', `${e.method} ${e.path}`, 'sync-action', 'data', ['compatible']]]);
    expect(diffContracts(snapshot(model), original).map((c) => [c.kind, c.before, c.after])).toEqual([['success-kind-changed', 'data', 'sync-action']]);
  });

  it('a stated limit changed: the row cites where the document states the limit (its LIMIT-* rule), not the endpoint', () => {
    const e = api.endpoints.find((x) => (x.body ?? []).some((f) => f.type.kind === 'string' && f.type.limit && f.type.maxLength !== undefined))!;
    const f = e.body!.find((x) => x.type.kind === 'string' && x.type.limit)!;
    const rule = api.rules.find((r) => r.id === (f.type as { limit: string }).limit)!;
    expect(rule.cite.section).not.toBe(e.cite.section); // otherwise the test could not tell them apart
    const model = draft();
    const t = model.endpoints.find((x) => x.name === e.name)!.body!.find((x) => x.name === f.name)!.type as { maxLength: number };
    t.maxLength -= 1;
    const [change, ...rest] = diffContracts(original, snapshot(model));
    expect(rest).toEqual([]);
    expect([change!.kind, change!.sections]).toEqual(['limit-tightened', { before: rule.cite.section, after: rule.cite.section }]);
  });

  it('tells a confirmed assumption from a contradicted one by the fields that rested on it', () => {
    const resting = api.endpoints.flatMap((e) => (e.body ?? []).filter((f) => f.assumption).map((f) => ({ e, f })));
    const { e, f } = resting[0]!;
    const confirmed = draft();
    confirmed.assumptions = confirmed.assumptions.filter((a) => a.id !== f.assumption);
    expect(diffContracts(original, snapshot(confirmed))[0]!.summary).toMatch(/confirmed/);
    const contradicted = draft();
    contradicted.assumptions = contradicted.assumptions.filter((a) => a.id !== f.assumption);
    for (const x of contradicted.endpoints) for (const g of x.body ?? []) if (g.assumption === f.assumption) g.type = { kind: 'string' };
    const changes = diffContracts(original, snapshot(contradicted));
    expect(changes.find((c) => c.kind === 'assumption-settled')!.summary).toMatch(new RegExp(`contradicted.*${e.method} ${e.path.replace(/[{}]/g, '\\$&')}`));
  });
});
