/**
 * STATE-WPA-USER as a model-based property (reading ASM-WPA-CREATE-EXISTS): after
 * `wpa-create-user` answers `create_wp_admin_user: true` for an address, `wpa-user-exists` for
 * that address answers `has_wp_admin_user: true`, and keeps doing so.
 *
 * Each run has its own probe addresses (`hsc-probe-…` at a domain RFC 2606 reserves: no real
 * user has one), whose existence it reads first: that is the model. Commands create one or check
 * one. The document
 * shows no way to remove a site-admin user, so a property creates at most `irreversible` of
 * them, and the report names each.
 *
 * Requests come from the request kit: the environment the model's `refersTo` finds, the
 * existence check's parameter that names the user (ASM-WPA-QUERY-EMAIL), and the kit's valid
 * creation body with the probe address in its e-mail field.
 */
import fc from 'fast-check';
import { requestBodyArb } from '../../spec/arbitraries.ts';
import type { Endpoint } from '../../spec/model.ts';
import { probeLabelArb } from '../probes/inputs.ts';
import { bearer, draw, drawOne, makeProbe, streamSeed } from '../probes/request.ts';
import { at, count } from '../checks/values.ts';
import type { Exchange, Probe, ProbeContext, ScenarioSource } from '../types.ts';
import { answered, is2xx, someOf } from './answers.ts';
import { NotObservable, Violation, type StateBudget, type StateCommand, type StateIo, type StateProperty } from './property.ts';
import { pathsOf, stateSource } from './source.ts';

const READING = 'After `wpa-create-user` answers `create_wp_admin_user: true`, `wpa-user-exists` for the same address answers `has_wp_admin_user: true` (ASM-WPA-CREATE-EXISTS, our reading of §Endpoints).';
/** Probe addresses per run. */
const SLOTS = 2;
/**
 * Probe addresses across the space of plain e-mail addresses (RFC 5321 §4.1.2, ASM-EMAIL-FORMAT),
 * each marked as the suite's (`hsc-probe-…`) at a domain RFC 2606 reserves: letters in either case,
 * a `+tag`, dots and digits, up to the longest a site-admin user is commonly allowed (60
 * characters). What was created must read back as it was written, this very string.
 */
interface AddressParts {
  readonly label: string;
  readonly upper: boolean;
  readonly tag: string | undefined;
  readonly dotted: string | undefined;
  readonly long: boolean;
  readonly domain: string;
}

const addressOf = ({ label, upper, tag, dotted, long, domain }: AddressParts): string => {
  let local = `${upper ? label.replace(/^hsc-probe/, 'HSC-Probe') : label}${dotted ? `.${dotted}` : ''}${tag ? `+${tag}` : ''}`;
  if (long) local = `${local}${'x'.repeat(Math.max(0, 60 - local.length - domain.length - 1))}`;
  return `${local}@${domain}`;
};

export const probeAddressArb: fc.Arbitrary<string> = fc
  .record({
    label: probeLabelArb,
    upper: fc.boolean(),
    tag: fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/), { nil: undefined }),
    dotted: fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/), { nil: undefined }),
    long: fc.boolean(),
    domain: fc.constantFrom('example.com', 'example.org', 'example.net'),
  })
  .map(addressOf);

/** A probe address of every shape at once (upper case, a dot, a `+tag`, the longest): each run's first, as a pattern's every-member value. */
export const everyShapeAddressArb: fc.Arbitrary<string> = probeLabelArb.map((label) => addressOf({ label, upper: true, tag: 'hsc', dotted: 'p1', long: true, domain: 'example.com' }));

/**
 * What is known of an address: it exists, it does not, or nothing (a create answered `false`,
 * which claims nothing the suite can hold the server to).
 */
export type AdminState = 'present' | 'absent' | 'unknown';

export interface WpaModel {
  readonly admins: AdminState[];
  createsLeft: number;
}

export interface WpaReal {
  readonly addresses: readonly string[];
  create(model: WpaModel, slot: number): Promise<void>;
  check(model: WpaModel, slot: number): Promise<void>;
}

const slotLabel = (slot: number) => `a${slot + 1}`;

export class CreateAdmin implements StateCommand<WpaModel, WpaReal> {
  constructor(readonly slot: number) {}
  check(model: Readonly<WpaModel>): boolean {
    return model.admins[this.slot] === 'absent' && model.createsLeft > 0;
  }
  run(model: WpaModel, real: WpaReal): Promise<void> {
    return real.create(model, this.slot);
  }
  toString(): string {
    return `create the site-admin user ${slotLabel(this.slot)}`;
  }
}

export class CheckAdmin implements StateCommand<WpaModel, WpaReal> {
  constructor(readonly slot: number) {}
  check(): boolean {
    return true;
  }
  run(model: WpaModel, real: WpaReal): Promise<void> {
    return real.check(model, this.slot);
  }
  toString(): string {
    return `check that ${slotLabel(this.slot)} exists`;
  }
}

export const wpaCommandArbs = (): fc.Arbitrary<StateCommand<WpaModel, WpaReal>>[] => {
  const slot = fc.integer({ min: 0, max: SLOTS - 1 });
  return [slot.map((s) => new CreateAdmin(s)), slot.map((s) => new CheckAdmin(s))];
};

/** What an existence check says: true, false (a 404 is "no such user" as well), or nothing usable. */
export function existsIn(exchange: Exchange): boolean | undefined {
  if (exchange.response?.status === 404) return false;
  if (!is2xx(exchange)) return undefined;
  const answer = at(exchange.response!.json, 'has_wp_admin_user');
  return typeof answer === 'boolean' ? answer : undefined;
}

export interface WpaPropertyOptions {
  readonly budget?: Partial<StateBudget>;
}

export const wpaUserScenarios = (options: WpaPropertyOptions = {}): ScenarioSource =>
  stateSource('wpaUser', 'STATE-WPA-USER', ['createWpAdminUser', 'checkWpAdminUserExists'], options.budget, ({ context, endpoints: [create, exists], ids, budget, seed }) => {
    const paths = pathsOf([create, exists], ids);
    if (!paths.ok) return paths.reason;
    const [path, existsPath] = paths.value;
    // The parameter that names the user (its name is our choice: ASM-WPA-QUERY-EMAIL), and the field that gives a new one its address.
    const user = exists.queryParams.find((p) => p.refersTo === 'site-admin-user');
    const address = create.body?.find((f) => f.type.kind === 'string' && f.type.format === 'email');
    if (!user || !address) throw new Error(`the model names no parameter of ${exists.name} that names the user, or no e-mail field of ${create.name}`);
    return wpaProperty(context, { create, exists, budget, seed, envId: ids.envId!, path, existsPath, userParam: user.name, addressField: address.name });
  });

interface WpaSetting {
  readonly create: Endpoint;
  readonly exists: Endpoint;
  readonly budget: StateBudget;
  readonly seed: number;
  readonly envId: string;
  readonly path: Readonly<Record<string, string>>;
  readonly existsPath: Readonly<Record<string, string>>;
  /** The existence check's query parameter naming the user. */
  readonly userParam: string;
  /** The creation body's e-mail field. */
  readonly addressField: string;
}

function wpaProperty(context: ProbeContext, setting: WpaSetting): StateProperty<WpaModel, WpaReal> {
  const { target } = context;
  const rule = 'STATE-WPA-USER';
  const { envId } = setting;
  const credentials = bearer(target.main.apiKey);
  const existence = (email: string): Probe =>
    makeProbe(target, rule, 'observe', `does the site-admin user ${email} exist`, { endpoint: setting.exists, credentials, path: setting.existsPath, query: { [setting.userParam]: email } });
  const created: string[] = [];

  const create = async (io: StateIo, model: WpaModel, email: string, slot: number) => {
    // The kit's valid body (names a person could have), with the probe address.
    const body = drawOne(requestBodyArb(setting.create, { [setting.addressField]: fc.constant(email) }), streamSeed(setting.seed, 'body', email));
    const answer = await io.send(makeProbe(target, rule, 'valid', `create the site-admin user ${email}`, { endpoint: setting.create, credentials, path: setting.path, body: { json: body } }));
    if (!is2xx(answer)) {
      throw new Violation('a site-admin user creation the property needs was not accepted', `${READING} Creating ${email} answered ${answered(answer)}, so the link cannot be observed.`, answer);
    }
    model.createsLeft--;
    if (at(answer.response!.json, 'create_wp_admin_user') !== true) return void (model.admins[slot] = 'unknown');
    created.push(email);
    model.admins[slot] = 'present';
    const shown = await io.poll(existence(email), (e) => existsIn(e) === true);
    if (!shown.ok) {
      const reads = `${count(shown.reads, 'read')} over ${io.window}`;
      throw new Violation('a site-admin user created with success does not exist', `${READING} Creating ${email} answered \`create_wp_admin_user: true\`, yet ${reads} of wpa-user-exists never said it exists (last: ${said(shown.last)}).`, shown.last);
    }
  };

  // A user found once must be found again; read until it is (an answer that fails once is no verdict).
  const check = async (io: StateIo, model: WpaModel, email: string, slot: number) => {
    if (model.admins[slot] !== 'present') return void (await io.send(existence(email)));
    const shown = await io.poll(existence(email), (e) => existsIn(e) === true);
    if (shown.ok) return;
    throw new Violation('a site-admin user created with success no longer exists', `${READING} ${email} was created and found, yet ${count(shown.reads, 'later read')} over ${io.window} said ${said(shown.last)}.`, shown.last);
  };

  return {
    rule,
    endpoints: [setting.create, setting.exists],
    title: `site-admin users created on environment ${envId} with probe addresses, then checked (model-based)`,
    commands: wpaCommandArbs(),
    setup: async (io, run) => {
      const seed = streamSeed(setting.seed, 'addresses', String(run));
      const addresses = [...draw(everyShapeAddressArb, streamSeed(seed, 'every'), 1), ...draw(probeAddressArb, seed, SLOTS - 1)];
      const admins: AdminState[] = [];
      for (const email of addresses) {
        const answer = await io.send(existence(email));
        const now = existsIn(answer);
        if (now === undefined) throw new NotObservable(`wpa-user-exists for a probe address answered ${said(answer)}, so no creation can be observed`, answer);
        admins.push(now ? 'present' : 'absent');
      }
      const model: WpaModel = { admins, createsLeft: setting.budget.irreversible - created.length };
      const real: WpaReal = { addresses, create: (m, slot) => create(io, m, addresses[slot]!, slot), check: (m, slot) => check(io, m, addresses[slot]!, slot) };
      return { model, real };
    },
    finish: async () =>
      created.length
        ? [`STATE-WPA-USER created ${count(created.length, 'site-admin user')} on environment ${envId} (the document shows no way to remove one): ${someOf(created)}`]
        : [],
    legend: (real) => real.addresses.map((email, i) => `${slotLabel(i)} = ${email}`).join(', '),
  };
}

/** What an existence answer said, for messages. */
function said(exchange: Exchange): string {
  const now = existsIn(exchange);
  if (exchange.response?.status === 404) return 'HTTP 404 (no such user)';
  return now === undefined ? `${answered(exchange)} without a \`has_wp_admin_user\` boolean` : `\`has_wp_admin_user: ${now}\``;
}
