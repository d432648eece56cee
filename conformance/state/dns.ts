/**
 * STATE-DNS-UPDATE as a model-based property: "The DNS update adds the records named in
 * `new_resource_records` and removes those in `removed_resource_records`". The model is the
 * whole domain (each record's values and `ttl`), read at the start of every run; the commands add several
 * values to a probe record, remove some of those present, do both at once, or read. After each
 * acknowledged update the domain is read until it shows exactly the model: the named values
 * changed, the record's `ttl` the one the update carried (the model's effects: ASM-DNS-TTL-SET;
 * updates carry a few in turn), every other value of that record and every other record, `ttl`
 * included, unchanged.
 *
 * Probe records are fresh per run (`hsc-probe-…` labels inside the zone of the domain's own
 * name, so a domain without records gets the property too) and hold RFC 5737 TEST-NET values
 * only. Records of other probes (other runs, other rules' probes) may still be settling, so they
 * are not compared; nor is the zone metadata a DNS server rewrites by itself on every change
 * (the SOA serial: ASM-DNS-OTHERS-UNCHANGED).
 *
 * The owner's records are compared from discovery on: every update the suite sends names a probe
 * record, so a change to any other record before the property's first run (INPUT-ACCEPT's
 * updates came first) is the updates' doing too, and fails the rule when no run fails. That
 * failure names the updates acknowledged before, and sends the smallest of them again, alone,
 * to find one that shows the change by itself: its sequence is then that update and the read.
 *
 * Requests come from the request kit: the path names the domain the model's `refersTo` finds,
 * and each update is the kit's valid body for the endpoint naming a probe record and the values
 * a command adds and removes.
 *
 * Each run removes what it added without waiting. The end waits for other probes' updates to
 * settle, then removes every value left on a `hsc-probe-…` record of the domain (this
 * property's and the other probes') and reads until they are gone, so the domain is left as found.
 */
import fc from 'fast-check';
import { requestBodyArb, requestFieldArb } from '../../spec/arbitraries.ts';
import type { Endpoint } from '../../spec/model.ts';
import { idOf, probeLabelArb, probeRecordName, testNetAddressArb } from '../probes/inputs.ts';
import { bearer, draw, drawOne, makeProbe, streamSeed } from '../probes/request.ts';
import { at, count } from '../checks/values.ts';
import type { Exchange, Probe, ProbeContext, ScenarioSource } from '../types.ts';
import { answered, is2xx, listAt, seconds, showSet, someOf } from './answers.ts';
import { NotObservable, OutOfBudget, Violation, type StateBudget, type StateCommand, type StateIo, type StateProperty } from './property.ts';
import { pathsOf, stateSource } from './source.ts';

const STATED = 'The DNS update adds the records named in `new_resource_records` and removes those in `removed_resource_records` (§Endpoints > Behaviours stated for endpoints).';
/** Probe records per run, the TEST-NET values their commands draw on, and the `ttl`s they carry. */
const RECORDS = 2;
const POOL = 5;
const TTLS = 3;
/** Updates acknowledged before the property that it sends again, alone, when the owner's records changed before it began. */
const REPLAYS = 2;
/** What a comparison of records an update does not name rests on. */
const OTHERS_UNCHANGED = 'records an update does not name stay as they were: ASM-DNS-OTHERS-UNCHANGED';
/** What a comparison of `ttl`s rests on. */
const TTL_SET = 'an update sets the `ttl` of the record it names to the one it carries, and every other `ttl` stays: ASM-DNS-TTL-SET';

// ---- the domain as data ------------------------------------------------------------------------

/** Each record's values by `TYPE name` (names compared as DNS does: case and final dot aside). */
export type Zone = ReadonlyMap<string, ReadonlySet<string>>;

/** A probe record's first label (`probeLabelArb`): scratch of the suite, not the owner's data. */
const PROBE_LABEL = /^hsc-probe-/;

/**
 * The key of a record: its type and name as DNS compares them (case and a final dot aside). A
 * probe record is known by its type and probe label alone, so a server that lists names relative
 * to the zone still shows the record the update named.
 */
export function recordKey(type: string, name: string): string {
  const host = name.toLowerCase().replace(/\.$/, '');
  const label = host.split('.')[0]!;
  return `${type.toUpperCase()} ${PROBE_LABEL.test(label) ? label : host}`;
}

const isProbeKey = (key: string): boolean => PROBE_LABEL.test(key.slice(key.indexOf(' ') + 1));

/**
 * Record types a DNS server rewrites by itself whenever the zone changes (ASM-DNS-OTHERS-UNCHANGED):
 * the SOA serial (RFC 2136 §3.6, which NOTIFY in RFC 1996 relies on) and, in a signed zone, the signatures and
 * denial-of-existence chain over the changed names (RFC 4035 §2).
 */
const SERVER_MAINTAINED: ReadonlySet<string> = new Set(['SOA', 'RRSIG', 'NSEC', 'NSEC3']);

export const isServerMaintained = (key: string): boolean => SERVER_MAINTAINED.has(key.slice(0, key.indexOf(' ')));

/** The owner's records: neither the suite's scratch nor what the server maintains. */
const isOwners = (key: string): boolean => !isProbeKey(key) && !isServerMaintained(key);

/** A listed record with its values, as the list names it. */
export interface ListedRecord {
  readonly type: string;
  readonly name: string;
  readonly values: readonly string[];
  /** Its `ttl`, where the list gives a number. */
  readonly ttl?: number;
}

/** The records of a list's items that have a type, a name and string values. */
export function listedRecords(records: readonly unknown[]): ListedRecord[] {
  return records.flatMap((record) => {
    const type = at(record, 'type');
    const name = at(record, 'name');
    if (typeof type !== 'string' || typeof name !== 'string') return [];
    const values = at(record, 'resource_records');
    const strings = (Array.isArray(values) ? values.map((v) => at(v, 'value')) : []).filter((v): v is string => typeof v === 'string');
    const ttl = at(record, 'ttl');
    return [{ type, name, values: strings, ...(typeof ttl === 'number' ? { ttl } : {}) }];
  });
}

/**
 * A record's `ttl` as a member of its set of values (`ttl=300`), so the one comparison that
 * finds a value changed finds a `ttl` changed too. No value of a record looks like it.
 */
const TTL = 'ttl=';
export const ttlMember = (ttl: number): string => `${TTL}${ttl}`;
const isTtl = (member: string): boolean => member.startsWith(TTL);
/** A record's values without its `ttl`. */
export const valuesOnly = (members: Iterable<string>): string[] => [...members].filter((m) => !isTtl(m));

/**
 * A list's records as a zone: each record's values and its `ttl` (a member `ttl=…`). Records
 * of the same type and name are one; a record without values is no record (whether an emptied
 * record stays listed is not shown).
 */
export function zoneFrom(records: readonly unknown[]): Zone {
  const zone = new Map<string, Set<string>>();
  for (const { type, name, values, ttl } of listedRecords(records)) {
    if (!values.length) continue;
    const key = recordKey(type, name);
    const members = zone.get(key) ?? new Set();
    for (const value of values) members.add(value);
    if (ttl !== undefined) members.add(ttlMember(ttl));
    zone.set(key, members);
  }
  return zone;
}

/** The domain as a DNS list answer shows it; undefined when the answer is not a list. */
export function zoneOf(exchange: Exchange): Zone | undefined {
  const records = listAt(exchange, 'domain', 'dns_records');
  return records && zoneFrom(records);
}

/** Where a listed record differs from the model. */
export interface Difference {
  readonly key: string;
  /** In the model, not listed. */
  readonly missing: readonly string[];
  /** Listed, not in the model. */
  readonly extra: readonly string[];
}

/** The records where `listed` differs from `expected`, among those `compared` keeps. */
export function differences(expected: Zone, listed: Zone, compared: (key: string) => boolean): Difference[] {
  const keys = [...new Set([...expected.keys(), ...listed.keys()])].filter((key) => compared(key)).sort();
  return keys.flatMap((key) => {
    const got = listed.get(key) ?? new Set<string>();
    // A list that gives no `ttl` for a record is RESPONSE-SCHEMA's to judge: its `ttl` is not compared here.
    const shown = (members: ReadonlySet<string>) => ([...got].some(isTtl) ? members : new Set(valuesOnly(members)));
    const want = shown(expected.get(key) ?? new Set<string>());
    const missing = [...want].filter((v) => !got.has(v)).sort();
    const extra = [...got].filter((v) => !want.has(v)).sort();
    return missing.length || extra.length ? [{ key, missing, extra }] : [];
  });
}

// ---- model and commands ------------------------------------------------------------------------

export class DnsModel {
  readonly zone: Map<string, Set<string>>;
  constructor(
    zone: Zone,
    /** The keys of this run's probe records, `r1`, `r2`, ... */
    readonly records: readonly string[],
    /** The TEST-NET values updates add. */
    readonly pool: readonly string[],
    /** The `ttl`s updates carry, in turn. */
    readonly ttls: readonly number[] = [],
  ) {
    this.zone = new Map([...zone].map(([k, v]) => [k, new Set(v)]));
  }

  /** The values a probe record holds (its `ttl` aside). */
  valuesOf(record: number): ReadonlySet<string> {
    return new Set(valuesOnly(this.zone.get(this.records[record]!) ?? []));
  }

  /** An update of a probe record: its values changed, and its `ttl` the update's (ASM-DNS-TTL-SET) while it keeps values. */
  apply(record: number, added: readonly string[], removed: readonly string[], ttl?: number): void {
    const key = this.records[record]!;
    const values = new Set(this.valuesOf(record));
    for (const v of removed) values.delete(v);
    for (const v of added) values.add(v);
    if (!values.size) return void this.zone.delete(key);
    const previous = [...(this.zone.get(key) ?? [])].find(isTtl);
    this.zone.set(key, new Set([...values, ...(ttl !== undefined ? [ttlMember(ttl)] : previous ? [previous] : [])]));
  }

  /** Compared: every record but other runs' and other probes' scratch records, and what the server maintains. */
  readonly compared = (key: string): boolean => isOwners(key) || this.records.includes(key);
}

/** The target side of one run: its probe record names and how to change and read them. */
export interface DnsReal {
  readonly names: readonly string[];
  update(model: DnsModel, change: DnsChange): Promise<void>;
  read(model: DnsModel): Promise<void>;
}

const recordLabel = (record: number) => `r${record + 1}`;

/**
 * One DNS update of one probe record: `add` values of the pool it does not hold and `remove`
 * of those it holds, counted from `offset` (so every command applies to whatever the record
 * holds when it runs, and shrinks towards fewer values). The values are chosen when it runs,
 * and its `toString` names them from then on.
 */
export abstract class DnsChange implements StateCommand<DnsModel, DnsReal> {
  added: readonly string[] = [];
  removed: readonly string[] = [];
  /** The `ttl` it carries, chosen when it runs from the model's (the `ttlPick`-th, counting round). */
  ttl: number | undefined;
  constructor(
    readonly record: number,
    readonly add: number,
    readonly remove: number,
    readonly offset: number,
    readonly ttlPick = 0,
  ) {}

  check(model: Readonly<DnsModel>): boolean {
    const held = model.valuesOf(this.record);
    return (this.add === 0 || model.pool.some((v) => !held.has(v))) && (this.remove === 0 || held.size > 0);
  }

  run(model: DnsModel, real: DnsReal): Promise<void> {
    const held = model.valuesOf(this.record);
    this.added = pickFrom(model.pool.filter((v) => !held.has(v)), this.add, this.offset);
    this.removed = pickFrom([...held].sort(), this.remove, this.offset);
    this.ttl = model.ttls.length ? model.ttls[this.ttlPick % model.ttls.length] : undefined;
    return real.update(model, this);
  }

  /** ` (ttl 600)`, once it ran with one. */
  protected get withTtl(): string {
    return this.ttl === undefined ? '' : ` (ttl ${this.ttl})`;
  }

  abstract toString(): string;
}

/** `count` values of `values` from `offset` on, wrapping round; all of them at most. */
const pickFrom = (values: readonly string[], count: number, offset: number): string[] =>
  Array.from({ length: Math.min(count, values.length) }, (_, i) => values[(offset + i) % values.length]!);

const named = (values: readonly string[], n: number) => (values.length ? values.join(', ') : count(n, 'value'));

export class AddValues extends DnsChange {
  constructor(record: number, count: number, offset: number, ttlPick = 0) {
    super(record, count, 0, offset, ttlPick);
  }
  toString(): string {
    return `add ${named(this.added, this.add)} to ${recordLabel(this.record)}${this.withTtl}`;
  }
}

export class RemoveValues extends DnsChange {
  constructor(record: number, count: number, offset: number, ttlPick = 0) {
    super(record, 0, count, offset, ttlPick);
  }
  toString(): string {
    return `remove ${named(this.removed, this.remove)} from ${recordLabel(this.record)}${this.withTtl}`;
  }
}

export class AddAndRemoveValues extends DnsChange {
  toString(): string {
    return `add ${named(this.added, this.add)} and remove ${named(this.removed, this.remove)} on ${recordLabel(this.record)}${this.withTtl}`;
  }
}

export class ReadRecords implements StateCommand<DnsModel, DnsReal> {
  check(): boolean {
    return true;
  }
  run(model: DnsModel, real: DnsReal): Promise<void> {
    return real.read(model);
  }
  toString(): string {
    return 'read the records';
  }
}

/**
 * Every run begins at the edges of an update, as a pattern's values begin at its edges: r2 is
 * given two values and then loses both in one update (several values removed at once, and a
 * record's last), then r1 is given two, and most later updates name r2: each then shows whether
 * an update touches a record it does not name (`dns-update-trims-other-records`), a shape
 * sequences left to chance reach in only about half the runs. Commands shrink towards r1, where
 * the values are.
 */
export const dnsOpening = (): StateCommand<DnsModel, DnsReal>[] => [new AddValues(1, 2, 0), new RemoveValues(1, 2, 0), new AddValues(0, 2, 0)];

/** The commands for `records` probe records. */
export function dnsCommandArbs(records = RECORDS): fc.Arbitrary<StateCommand<DnsModel, DnsReal>>[] {
  // Beside r1 (which the opening fills, and towards which a command shrinks) the others weigh most: see dnsOpening.
  const record = records < 2 ? fc.constant(0) : fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: records - 1 }) });
  const count = fc.integer({ min: 1, max: 3 });
  const offset = fc.nat({ max: POOL - 1 });
  // Which of the model's ttls an update carries: the opening's (0) or another, so a later update of r1 sets a new one.
  const ttl = fc.nat({ max: TTLS - 1 });
  // Adds weigh most: a run starts with one probe record filled, and nothing can be removed from the others.
  return [
    fc.oneof(
      { weight: 3, arbitrary: fc.tuple(record, count, offset, ttl).map(([r, n, o, t]): StateCommand<DnsModel, DnsReal> => new AddValues(r, n, o, t)) },
      { weight: 2, arbitrary: fc.tuple(record, count, offset, ttl).map(([r, n, o, t]) => new RemoveValues(r, n, o, t)) },
      { weight: 2, arbitrary: fc.tuple(record, count, count, offset, ttl).map(([r, a, d, o, t]) => new AddAndRemoveValues(r, a, d, o, t)) },
      { weight: 1, arbitrary: fc.constant(new ReadRecords()) },
    ),
  ];
}

// ---- the property --------------------------------------------------------------------------------

export interface DnsPropertyOptions {
  readonly budget?: Partial<StateBudget>;
}

export const dnsUpdateScenarios = (options: DnsPropertyOptions = {}): ScenarioSource =>
  stateSource('dnsUpdate', 'STATE-DNS-UPDATE', ['updateDnsRecords', 'listDnsRecords'], options.budget, ({ context, endpoints: [update, read], ids, seed, budget }) => {
    // The domain, and the zone probe records are named inside, as the model's `refersTo` finds them.
    const paths = pathsOf([update, read], ids);
    if (!paths.ok) return paths.reason;
    const [path, listPath] = paths.value;
    const named = update.body?.find((f) => f.refersTo === 'dns-record');
    if (!named) throw new Error(`the model names no field of ${update.name} that names its record`);
    const zone = idOf(named.refersTo!, ids);
    if (!zone.ok) return zone.reason;
    return dnsProperty(context, { update, read, path, listPath, nameField: named.name, zone: String(zone.value), seed, budget });
  });

interface DnsSetting {
  readonly update: Endpoint;
  readonly read: Endpoint;
  /** The path values of the update and of the list: the same domain. */
  readonly path: Readonly<Record<string, string>>;
  readonly listPath: Readonly<Record<string, string>>;
  /** The update's field naming the record (`refersTo: 'dns-record'`). */
  readonly nameField: string;
  readonly zone: string;
  readonly seed: number;
  readonly budget: StateBudget;
}

function dnsProperty(context: ProbeContext, setting: DnsSetting): StateProperty<DnsModel, DnsReal> {
  const { target } = context;
  const rule = 'STATE-DNS-UPDATE';
  const credentials = bearer(target.main.apiKey);
  const pool = draw(fc.uniqueArray(testNetAddressArb, { minLength: POOL, maxLength: POOL }), streamSeed(setting.seed, 'pool'), 1)[0]!;
  // The kit's valid body gives the record's type (one TEST-NET addresses fit) and a valid ttl; each update names its record and values.
  const template = drawOne(requestBodyArb(setting.update), streamSeed(setting.seed, 'body'));
  const probeType = String(template.type);
  const preface = `${STATED} Each update names a \`hsc-probe-…\` record the domain may not hold yet.`;
  const listing = makeProbe(target, rule, 'valid', 'list the DNS records of the domain', { endpoint: setting.read, credentials, path: setting.listPath });
  // What the update sets of the record it names (ASM-DNS-TTL-SET: its `ttl`), from the model's effects; each update carries one of a few, in turn.
  const ttlField = setting.update.effects?.sets?.find((f) => f.to === 'ttl')?.from;
  const ttls = ttlField ? draw(fc.uniqueArray(requestFieldArb(setting.update, setting.update.body!.find((f) => f.name === ttlField)!) as fc.Arbitrary<number>, { minLength: TTLS, maxLength: TTLS }), streamSeed(setting.seed, 'ttls'), 1)[0]! : [];
  const change = (name: string, added: readonly string[], removed: readonly string[], title: string, type = probeType, ttl?: number): Probe => {
    const body = {
      ...template,
      type,
      [setting.nameField]: name,
      ...(ttlField && ttl !== undefined ? { [ttlField]: ttl } : {}),
      new_resource_records: added.map((value) => ({ value })),
      removed_resource_records: removed.map((value) => ({ value })),
    };
    return makeProbe(target, rule, 'valid', title, { endpoint: setting.update, credentials, path: setting.path, body: { json: body } });
  };
  /** Every probe record an update was sent for: the end cleans them all. */
  const touched = new Map<string, string>();
  /** When the property began: other probes' updates were all acknowledged before. */
  let startedAt = performance.now();
  /** Whether every effect the property awaited showed at the first read: then the target applies updates as it acknowledges them. */
  const effects = { seen: 0, late: false };

  return {
    rule,
    endpoints: [setting.update, setting.read],
    title: `DNS updates of several values on probe records inside ${setting.zone}, from the domain as read (model-based)`,
    commands: dnsCommandArbs(),
    opening: dnsOpening,
    before: async (io, earlier) => {
      startedAt = performance.now();
      const atStart = target.main.ids.dnsRecordsAtStart;
      if (!atStart) return undefined;
      const exchange = await io.send(listing);
      const zone = zoneOf(exchange);
      if (!zone || !differences(zoneFrom(atStart), zone, isOwners).length) return undefined;
      // The updates sent to this domain before that it acknowledged: any of them may have done it.
      const updates = earlier.filter((x) => is2xx(x) && pathOfUrl(x.probe.request.url) === pathOfUrl(listing.request.url));
      const again = await sendAgain(io, updates, zone, listing, rule);
      return changedSinceDiscovery(preface, { atStart: zoneFrom(atStart), now: zone, read: exchange }, updates, again);
    },
    setup: async (io, run) => {
      const exchange = await io.send(listing);
      const zone = zoneOf(exchange);
      if (!zone) throw new NotObservable(`the domain's DNS records could not be read (${answered(exchange)}), so no update can be observed`, exchange);
      const labels = draw(probeLabelArb, streamSeed(setting.seed, 'labels', String(run)), RECORDS);
      const names = labels.map((label) => probeRecordName(setting.zone, label));
      const model = new DnsModel(zone, names.map((n) => recordKey(probeType, n)), pool, ttls);
      const real: DnsReal = {
        names,
        update: async (m, command) => {
          const name = names[command.record]!;
          touched.set(recordKey(probeType, name), name);
          const acknowledged = await io.send(change(name, command.added, command.removed, `${command} (${recordLabel(command.record)} = ${name})`, probeType, command.ttl));
          if (!is2xx(acknowledged)) {
            throw new Violation('a DNS update the property needs was not accepted', `${preface} \`${command}\` answered ${answered(acknowledged)}, so its effect cannot be observed.`, acknowledged);
          }
          m.apply(command.record, command.added, command.removed, command.ttl);
          const shown = await io.poll(listing, (e) => matches(m, e));
          effects.seen++;
          effects.late ||= !shown.ok || shown.reads > 1;
          if (!shown.ok) throw mismatch(preface, m, command, shown.last, `${count(shown.reads, 'read')} over ${io.window}`);
        },
        // Read until it matches: an answer that fails once (a 500) is not yet a changed domain.
        read: async (m) => {
          const shown = await io.poll(listing, (e) => matches(m, e));
          if (!shown.ok) throw mismatch(preface, m, undefined, shown.last, `${count(shown.reads, 'read')} over ${io.window}`);
        },
      };
      return { model, real };
    },
    afterRun: async (io, model, real) => {
      for (const [i, name] of real.names.entries()) {
        const values = [...model.valuesOf(i)];
        if (values.length) await io.send(change(name, [], values, `clean up: remove ${values.join(', ')} from ${name}`));
      }
    },
    finish: async (io) => {
      // Other probes' updates may still be settling (what shows later could not be removed),
      // unless every effect of this property showed at once: then theirs have shown too.
      const settled = effects.seen > 0 && !effects.late;
      const wait = settled ? 0 : Math.max(0, setting.budget.settleMs - (performance.now() - startedAt));
      await io.pause(wait);
      const waited = wait > 0 ? [`STATE-DNS-UPDATE waited ${seconds(wait)} for other probes' DNS updates to settle before cleaning up (effects here take time to show)`] : [];
      return [...waited, ...(await cleanUp(io, [...touched.values()], { zone: setting.zone, probeType }, listing, change))];
    },
    legend: (real) => real.names.map((name, i) => `${recordLabel(i)} = ${probeType} ${name}`).join(', '),
  };
}

const matches = (model: DnsModel, exchange: Exchange): boolean => {
  const zone = zoneOf(exchange);
  return zone !== undefined && differences(model.zone, zone, model.compared).length === 0;
};

/** The violation a read shows: what the update changed that it did not name, or what it named that never changed. */
function mismatch(preface: string, model: DnsModel, command: DnsChange | undefined, exchange: Exchange, reads: string): Violation {
  const zone = zoneOf(exchange);
  const after = command ? `After \`${command}\` was acknowledged` : 'With no update since the last read';
  if (!zone) return new Violation('the DNS records could not be read after an update', `${preface} ${after}, ${reads} never gave the list (last: ${answered(exchange)}).`, exchange);
  const label = (key: string) => {
    const i = model.records.indexOf(key);
    return i >= 0 ? recordLabel(i) : key;
  };
  const found = differences(model.zone, zone, model.compared);
  const isNamed = (d: Difference) => command !== undefined && d.key === model.records[command.record];
  const named = (d: Difference) => isNamed(d) && [...d.missing, ...d.extra].every((v) => command!.added.includes(v) || command!.removed.includes(v) || isTtl(v));
  const unnamed = found.filter((d) => !named(d));
  // The named record's values as the update said, but not the `ttl` it carried.
  const ttlOnly = found.length > 0 && found.every((d) => isNamed(d) && [...d.missing, ...d.extra].every(isTtl));
  const text = found
    .map((d) => `${label(d.key)} lists ${showSet(zone.get(d.key) ?? [])}, expected ${showSet(model.zone.get(d.key) ?? [])}`)
    .join('; ');
  const title = !command
    ? 'DNS values changed with no update'
    : unnamed.length
      ? 'a DNS update changed values it did not name'
      : ttlOnly
        ? 'a DNS update did not set the ttl it carried'
        : 'a DNS update did not change the values it named';
  // A change to a record the update did not name holds it to our reading of the rest of the zone; a ttl not set, to ours of `ttl`.
  const others = found.some((d) => !command || d.key !== model.records[command.record]) ? ` (${OTHERS_UNCHANGED})` : '';
  const ttl = found.some((d) => [...d.missing, ...d.extra].some(isTtl)) ? ` (${TTL_SET})` : '';
  return new Violation(title, `${preface} ${after}, ${reads} never listed exactly that change: ${text}${others}${ttl}.`, exchange);
}

/** The URL's path, for telling which domain a request names. */
const pathOfUrl = (url: string): string => url.split('?')[0]!;

/** An update sent again, alone, and what it showed: the owner's records changed again, or not. */
interface SentAgain {
  readonly tried: readonly Exchange[];
  /** The first that changed them again (`of` the update as sent before), the read that shows it, and the records as they were just before. */
  readonly shown?: { readonly of: Exchange; readonly update: Exchange; readonly read: Exchange; readonly before: Zone };
}

/**
 * Sends again, one at a time and smallest first, up to REPLAYS of the updates acknowledged before
 * the property, until one changes the owner's records again (read within the window). A change
 * made once (trimming each record to one value) does not repeat: then none shows it.
 */
async function sendAgain(io: StateIo, updates: readonly Exchange[], now: Zone, listing: Probe, rule: Probe['rule']): Promise<SentAgain> {
  const bySize = [...updates].sort((a, b) => (a.probe.request.body?.length ?? 0) - (b.probe.request.body?.length ?? 0));
  const tried: Exchange[] = [];
  let before = now;
  try {
    for (const earlier of bySize.slice(0, REPLAYS)) {
      // As sent before (it named a probe record), judged as what it is: a request whose answer the property only observes.
      const { generated: _, ...probe } = earlier.probe;
      const update = await io.send({ ...probe, rule, expect: 'observe', title: `send again: ${earlier.probe.title} (${earlier.probe.rule})` });
      tried.push(update);
      if (!is2xx(update)) continue;
      const shown = await io.poll(listing, (e) => {
        const zone = zoneOf(e);
        return zone !== undefined && differences(before, zone, isOwners).length > 0;
      });
      if (shown.ok) return { tried, shown: { of: earlier, update, read: shown.last, before } };
      before = zoneOf(shown.last) ?? before;
    }
  } catch (error) {
    if (!(error instanceof OutOfBudget)) throw error;
  }
  return { tried };
}

/** `A example.org lists {…}, before {…}`: where two zones differ in the owner's records. */
const changes = (from: Zone, to: Zone, since: string): string =>
  differences(from, to, isOwners)
    .map((d) => `${d.key} lists ${showSet(to.get(d.key) ?? [])}, ${since} ${showSet(from.get(d.key) ?? [])}`)
    .join('; ');

/**
 * The owner's records changed between discovery's read and the property's first: only the
 * suite's probe updates came between. The failure names those acknowledged; its sequence is the
 * one update that showed the change again alone, else all of them and the read.
 */
function changedSinceDiscovery(preface: string, found: { readonly atStart: Zone; readonly now: Zone; readonly read: Exchange }, updates: readonly Exchange[], again: SentAgain): Violation {
  const title = 'DNS values changed that no update named';
  const named = updates.length
    ? `The ${count(updates.length, 'DNS update')} acknowledged before it (${someOf(updates.map((x) => `${x.probe.rule} ${x.probe.title}`), 3)}) named only such records, so one of them changed values it did not name (ASM-DNS-OTHERS-UNCHANGED: records an update does not name stay as they were, and nothing besides the suite changes the zone meanwhile).`
    : `No DNS update of the suite to this domain was acknowledged before it, so something besides the suite changed the zone meanwhile (ASM-DNS-OTHERS-UNCHANGED).`;
  const base = `${preface} Every DNS update the suite sent before this property named a \`hsc-probe-…\` record, yet records it never named changed since discovery read the domain: ${changes(found.atStart, found.now, 'discovery listed')}. ${named}`;
  if (again.shown) {
    const { of, update, read, before } = again.shown;
    const zone = zoneOf(read)!;
    const n = again.tried.length;
    const which = `the ${n === 1 ? '' : `${['second', 'third'][n - 2] ?? `${n}th`} `}smallest of them`;
    return new Violation(title, `${base} Sent again alone, ${which} (${of.probe.rule} ${of.probe.title}) changed them again: ${changes(before, zone, 'just before')}. The failure's sequence is that update and the read that shows it.`, read, [update, read]);
  }
  const tried = again.tried.length ? ` Sent again alone, the smallest ${again.tried.length === 1 ? 'of them' : `${again.tried.length} of them`} changed nothing more (a change made once, such as trimming each record to one value, need not repeat), so the failure's sequence is every update acknowledged before, then the read.` : '';
  return new Violation(title, `${base}${tried}`, found.read, [...updates, found.read]);
}

type Change = (name: string, added: readonly string[], removed: readonly string[], title: string, type?: string) => Probe;

/** A probe record left in the domain: its type and the name an update gives it, its values, and whether this property made it. */
interface Leftover {
  readonly type: string;
  readonly name: string;
  readonly values: readonly string[];
  readonly ours: boolean;
}

/**
 * What is left on probe records: this property's (by the names it sent) and every other
 * `hsc-probe-…` record of the domain (named as listed, inside `zone` when listed relative to it).
 * Never any other record.
 */
export function leftovers(exchange: Exchange, ours: readonly string[], { zone, probeType }: { readonly zone: string; readonly probeType: string }): Leftover[] | undefined {
  const records = listAt(exchange, 'domain', 'dns_records');
  if (!records) return undefined;
  const mine = new Map(ours.map((name) => [recordKey(probeType, name), name]));
  const apex = zone.toLowerCase().replace(/\.$/, '');
  const found = new Map<string, Leftover>();
  for (const { type, name, values } of listedRecords(records)) {
    const key = recordKey(type, name);
    if (!isProbeKey(key) || !values.length) continue;
    const ourName = mine.get(key);
    const host = name.replace(/\.$/, '');
    const inside = host.toLowerCase().endsWith(`.${apex}`);
    const earlier = found.get(key);
    found.set(key, {
      type: ourName ? probeType : type,
      name: ourName ?? (inside ? host : probeRecordName(zone, host)),
      values: [...new Set([...(earlier?.values ?? []), ...values])],
      ours: ourName !== undefined,
    });
  }
  // This property's first: they are its own to undo.
  return [...found.values()].sort((a, b) => Number(b.ours) - Number(a.ours));
}

const shown = (l: Leftover) => `${l.type} ${l.name}`;

/**
 * Removes every value left on probe records of the domain (one update per record, then what
 * stays one value at a time, once) and reads until they are gone. Notes say what it removed of
 * other probes' records and what it could not remove.
 */
async function cleanUp(io: StateIo, ours: readonly string[], where: { readonly zone: string; readonly probeType: string }, listing: Probe, change: Change): Promise<string[]> {
  const rule = 'STATE-DNS-UPDATE';
  const first = await io.send(listing);
  let left = leftovers(first, ours, where);
  if (!left) return [`${rule}: the domain could not be read to clean up (${answered(first)}); values on ${ours.length ? ours.join(', ') : 'its probe records'} and other \`hsc-probe-…\` records may remain`];
  const others = left.filter((l) => !l.ours);
  let stopped: string | undefined;
  try {
    for (const oneByOne of [false, true]) {
      if (!left.length) break;
      const removals = oneByOne ? left.flatMap((l) => l.values.map((value) => ({ ...l, values: [value] }))) : left;
      for (const l of removals) await io.send(change(l.name, [], l.values, `clean up: remove ${l.values.join(', ')} from ${l.name}`, l.type));
      const gone = await io.poll(listing, (e) => leftovers(e, ours, where)?.length === 0);
      left = leftovers(gone.last, ours, where) ?? left;
    }
  } catch (error) {
    if (!(error instanceof OutOfBudget)) throw error;
    stopped = error.message;
  }
  const notes: string[] = [];
  const stay = new Set(left.map(shown));
  const removed = others.filter((l) => !stay.has(shown(l)));
  if (removed.length) notes.push(`${rule} removed the values other probes left on ${removed.length} \`hsc-probe-…\` record${removed.length === 1 ? '' : 's'} of the domain: ${someOf(removed.map(shown))}`);
  const listed = someOf(left.map((l) => `${shown(l)} ${l.values.join(', ')}`));
  if (stopped && left.length) notes.push(`${rule}: the clean-up stopped (${stopped}); these probe records may keep values: ${listed}`);
  else if (left.length) notes.push(`${rule} could not remove the values of ${count(left.length, 'probe record')} (still listed after ${io.window}): ${listed}`);
  return notes;
}
