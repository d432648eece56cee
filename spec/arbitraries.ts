/**
 * fast-check arbitraries read from the model: values of every string format, of every field
 * type, success bodies, request bodies and queries. The mock server draws its fixtures from
 * them and the conformance suite its requests, so they follow two readings:
 *
 * - `response`: anything a conformant server may send. Edge forms the document admits are in
 *   (uppercase UUIDs, offsets, masked octets, compressed IPv6, underscore DNS labels per
 *   ASM-HOSTNAME-DNS), so is any value of an open set, an absent `may-be-absent` field, and now
 *   and then a property the document does not list (it never forbids one).
 * - `request`: what a client may send with certainty of being valid under every reasonable
 *   reading of the document: canonical forms only, every body field present
 *   (ASM-NOT-SHOWN-FIELDS-SENT), only values the document shows for its unshown sets.
 *
 * Every value also matches the lenient patterns of `formats.ts`; the tests check both.
 */
import fc from 'fast-check';
import type { Endpoint, Field, FieldType, OperationKind, StringFormat } from './model.ts';
import { mustBePresent, resource, type Direction } from './queries.ts';
import { WP_COMMAND_MAX_LENGTH } from './rules.ts';

export type { Direction };

/** An arbitrary that builds the one it stands for when it is first asked for a value. */
class BuiltOnFirstUse<T> extends fc.Arbitrary<T> {
  readonly #build: () => fc.Arbitrary<T>;
  #built: fc.Arbitrary<T> | undefined;
  constructor(build: () => fc.Arbitrary<T>) {
    super();
    this.#build = build;
  }
  get #arbitrary(): fc.Arbitrary<T> {
    return (this.#built ??= this.#build());
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.#arbitrary.generate(mrng, biasFactor);
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.#arbitrary.canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#arbitrary.shrink(value, context);
  }
}

/**
 * `fc.stringMatching`, built on first use: building one takes milliseconds (fast-check works out
 * the regex's edge cases up front), and a run may draw from only some of those declared here;
 * `generate`, which draws one request per endpoint, needs about half.
 */
const matching = (regex: RegExp): fc.Arbitrary<string> => new BuiltOnFirstUse(() => fc.stringMatching(regex));

// ---- string formats ---------------------------------------------------------------------------

const digits = (n: number, width: number): string => String(n).padStart(width, '0');

/** Either case, as RFC 9562 §4 reads UUID text on input; requests send the canonical lowercase. */
const uuidArb = (direction: Direction): fc.Arbitrary<string> =>
  direction === 'request'
    ? fc.uuid({ version: 4 })
    : fc.oneof(
        { weight: 3, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
        { weight: 1, arbitrary: fc.mixedCase(fc.uuid()) },
      );

// Calendar dates that exist, so no reading can object to a 31 April.
const instantArb = fc.date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true });

/** RFC 3339 offsets: the strictest reading of ISO 8601 offsets (extended form, `Z` or `±hh:mm`). */
const offsetArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant('Z') },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45)).map(([sign, h, m]) => `${sign}${digits(h, 2)}:${digits(m, 2)}`) },
);

/**
 * `YYYY-MM-DDThh:mm:ss`, a fraction of `fractionDigits` (`undefined`: none or 1–6 digits), an
 * offset. Only forms RFC 3339 and ISO 8601 both accept: uppercase `T`, seconds, `.` fraction.
 */
const dateTimeArb = (fractionDigits: number | undefined): fc.Arbitrary<string> =>
  fc
    .tuple(
      instantArb,
      fractionDigits === undefined ? fc.option(fc.integer({ min: 1, max: 6 }), { nil: 0 }) : fc.constant(fractionDigits),
      fc.nat({ max: 999_999 }),
      offsetArb,
    )
    .map(([instant, width, fraction, offset]) => {
      const seconds = instant.toISOString().slice(0, 19);
      return `${seconds}${width ? `.${digits(fraction, 6).slice(0, width)}` : ''}${offset}`;
    });

const epochMsArb = instantArb.map((d) => d.getTime());

const octetArb = fc.nat({ max: 255 });
const ipv4Arb = fc.tuple(octetArb, octetArb, octetArb, octetArb).map((octets) => octets.join('.'));

/** An octet with some or all of its digits masked (ASM-IPV4-MASK): `1xx`, `10x`, `x`, `***`, `2*5`. */
const maskedOctetArb = octetArb
  .chain((octet) => fc.tuple(fc.constant(String(octet)), fc.array(fc.boolean(), { minLength: String(octet).length, maxLength: String(octet).length })))
  .filter(([, masked]) => masked.includes(true))
  .chain(([digits, masked]) =>
    fc.tuple(...[...digits].map((digit, i) => (masked[i] ? fc.constantFrom('x', 'X', '*') : fc.constant(digit)))).map((chars) => chars.join('')),
  );

/** "partly masked": any mix of shown and masked octets (the vendor's reference shows `1xx.1xx.1xx.1xx`). */
const maskedIpv4Arb = fc
  .array(fc.oneof(octetArb.map(String), maskedOctetArb), { minLength: 4, maxLength: 4 })
  .filter((octets) => octets.some((o) => /[xX*]/.test(o)))
  .map((octets) => octets.join('.'));

/** IPv6 in RFC 4291 §2.2 text forms: full, `::`-compressed at any run of zeros, IPv4 tail, either case. */
const ipv6Arb: fc.Arbitrary<string> = fc
  .record({
    groups: fc.array(fc.oneof(fc.constant(0), fc.nat({ max: 0xffff })), { minLength: 8, maxLength: 8 }),
    compress: fc.option(fc.tuple(fc.nat({ max: 7 }), fc.integer({ min: 1, max: 8 }))),
    ipv4Tail: fc.option(ipv4Arb, { freq: 4 }),
    upper: fc.boolean(),
  })
  .map(({ groups, compress, ipv4Tail, upper }) => {
    const count = ipv4Tail === null ? 8 : 6;
    const hex = groups.slice(0, count).map((g) => (upper ? g.toString(16).toUpperCase() : g.toString(16)));
    const tail = ipv4Tail === null ? [] : [ipv4Tail];
    if (compress === null) return [...hex, ...tail].join(':');
    const start = Math.min(compress[0], count - 1);
    const end = Math.min(start + compress[1], count);
    const head = hex.slice(0, start).join(':');
    const rest = [...hex.slice(end), ...tail].join(':');
    return `${head}::${rest}`;
  });

// No `--`: labels with hyphens in the third and fourth place are reserved for IDNA (RFC 5891 §4.2.3.1).
const lowerLabelArb = matching(/^[a-z0-9]{1,10}(?:-[a-z0-9]{1,6})?$/);
const tldArb = fc.constantFrom('com', 'org', 'net', 'io', 'dev', 'co.uk');

/** An RFC 1123 host name: letters, digits, inner hyphens; the strictest reading. */
const strictHostnameArb = fc
  .tuple(fc.array(lowerLabelArb, { minLength: 1, maxLength: 3 }), tldArb)
  .map(([labels, tld]) => [...labels, tld].join('.'));

/** DNS names as zones hold them (ASM-HOSTNAME-DNS): underscore labels, a `*` label, a trailing dot, either case. */
const dnsNameArb = fc
  .record({
    name: strictHostnameArb,
    prefix: fc.constantFrom('', '', '', '_dmarc.', '_domainkey.', 'selector1._domainkey.', '*.'),
    trailingDot: fc.boolean(),
    upper: fc.boolean(),
  })
  .map(({ name, prefix, trailingDot, upper }) => {
    const full = `${prefix}${name}${trailingDot ? '.' : ''}`;
    return upper ? full.toUpperCase() : full;
  });

const pathSegmentArb = matching(/^[a-z0-9][a-z0-9_.-]{0,15}$/);
const safeSegmentArb = matching(/^[a-z0-9][a-z0-9_-]{0,15}$/);

/** File names as trees hold them: extensions, dotfiles, inner spaces, capitals; never `.` or `..`. */
const fileNameArb = fc.oneof(
  matching(/^[A-Za-z0-9_-]{1,12}(?: [A-Za-z0-9_-]{1,8})?(?:\.[a-z0-9]{1,4})?$/),
  matching(/^\.[a-z]{2,10}$/),
);

/** RFC 5322 dot-atoms of the usual characters: tags (`+`), dots, hyphens, underscores inside. */
const localPartArb = matching(/^[a-z0-9]{1,10}(?:[._+-][a-z0-9]{1,8}){0,2}$/);
/**
 * Plain addresses every validator accepts (lowercase letters and digits, one optional inner dot),
 * at the domains RFC 2606 reserves: a request that creates a user with one reaches no one.
 */
const plainEmailArb = fc
  .tuple(matching(/^[a-z][a-z0-9]{0,11}(?:\.[a-z0-9]{1,8})?$/), fc.constantFrom('example.com', 'example.org', 'example.net'))
  .map(([local, domain]) => `${local}@${domain}`);

/** Vendor names: words starting with a capital, e.g. `WordPress`, `WP Engine`. */
const vendorArb = fc.oneof(
  fc.constantFrom('WordPress', 'SiteGround', 'WP Engine', 'Kinsta'),
  matching(/^[A-Z][A-Za-z0-9]{1,12}(?: [A-Z][A-Za-z0-9]{1,12})?$/),
);

/**
 * Valid values of each format. `direction` picks the reading: `response` adds the edge forms the
 * document admits, `request` keeps to the canonical forms every reading accepts.
 */
export function formatArb(format: StringFormat, direction: Direction = 'response'): fc.Arbitrary<string> {
  const strict = direction === 'request';
  switch (format) {
    case 'uuid':
      return uuidArb(direction);
    case 'date-time':
      return strict ? instantArb.map((d) => d.toISOString()) : dateTimeArb(undefined);
    case 'date-time-ms':
      return strict ? instantArb.map((d) => d.toISOString()) : dateTimeArb(3);
    case 'epoch-ms-string':
      return epochMsArb.map(String);
    case 'ipv4-maskable':
      return strict ? ipv4Arb : fc.oneof(ipv4Arb, maskedIpv4Arb);
    case 'ip':
      return strict ? ipv4Arb : fc.oneof(ipv4Arb, ipv6Arb);
    case 'php-version':
      return fc.tuple(fc.integer({ min: 5, max: strict ? 8 : 12 }), fc.nat({ max: strict ? 4 : 20 })).map(([major, minor]) => `php${major}.${minor}`);
    case 'dotted-version':
      return fc.array(fc.nat({ max: strict ? 20 : 999 }), { minLength: 2, maxLength: strict ? 3 : 5 }).map((parts) => parts.join('.'));
    case 'absolute-path':
      return strict
        ? fc.array(safeSegmentArb, { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.join('/')}`)
        : fc.tuple(fc.array(pathSegmentArb, { maxLength: 4 }), fc.boolean()).map(([segments, slash]) => `/${segments.join('/')}${slash && segments.length ? '/' : ''}`);
    case 'relative-path':
      return fc.array(strict ? safeSegmentArb : fileNameArb, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
    case 'url':
      return fc
        .record({
          scheme: strict ? fc.constant('https') : fc.constantFrom('https', 'http'),
          host: strictHostnameArb,
          port: strict ? fc.constant('') : fc.constantFrom('', '', ':8443'),
          path: fc.array(safeSegmentArb, { maxLength: 3 }),
          query: strict ? fc.constant('') : fc.constantFrom('', '?s=96&d=mm', '?v=2'),
        })
        .map(({ scheme, host, port, path, query }) => `${scheme}://${host}${port}/${path.join('/')}${query}`);
    case 'email':
      return strict ? plainEmailArb : fc.tuple(fc.mixedCase(localPartArb), fc.mixedCase(strictHostnameArb)).map(([local, domain]) => `${local}@${domain}`);
    case 'hostname':
      return strict ? strictHostnameArb : fc.oneof({ weight: 2, arbitrary: strictHostnameArb }, { weight: 1, arbitrary: dnsNameArb });
    case 'slug':
      return strict ? safeSegmentArb : fc.oneof(safeSegmentArb, matching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,20}(?:\/[a-z0-9_.-]{1,20})?$/));
    case 'auto-update-label':
      return vendorArb.map((vendor) => `${vendor} Automatic Update`);
  }
}

/**
 * Per format, strings that look close to valid but that no reading of the document accepts;
 * each fails the format's pattern. (A space between date and time, braces around a UUID and the
 * like are left out: some readings accept them.)
 */
export const formatNearMisses: Readonly<Record<StringFormat, readonly string[]>> = {
  uuid: [
    '0f8fad5b-d9cb-469f-a165-70867728950', // last group one digit short
    '0f8fad5b-d9cb-469f-a165-70867728950e0',
    '0f8fad5bd-9cb-469f-a165-70867728950e',
    '0f8fad5b-d9cb-469f-a165-70867728950g',
    'not-a-uuid',
    '',
  ],
  'date-time': ['2024-05-01', '1714557600000', '2024-13-01T10:00:00Z', '2024-05-32T10:00:00Z', '2024-05-01T10:61:00Z', '2024-05-01T10:00:00+25:00', 'May 1, 2024 10:00', ''],
  'date-time-ms': ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00+02:00', '1714557600000', '2024-05-01', '2024-05-01T10:00Z', '2024-13-01T10:00:00.000Z', ''],
  'epoch-ms-string': ['1.7e12', '1714557600000.5', ' 1714557600000', '1714557600000 ', '2024-05-01T10:00:00.000Z', '0x18F3', ''],
  'ipv4-maskable': [
    '256.1.2.3',
    '1.2.3',
    '1.2.3.4.5',
    '1xx.1xx.1xx.1xx.1xx', // five octets, masked
    '1..2.3',
    '1xx..1xx.1xx', // an empty octet
    '1.2.3. 4',
    '1ab.1xx.1xx.1xx', // letters other than the mask
    'abc.def.ghi.jkl',
    '1yy.1xx.1xx.1xx',
    '1xxx.1xx.1xx.1xx', // wider than an octet
    '1-x.1xx.1xx.1xx',
    '1xx.1xx.1xx.1xx ',
    '::1',
    '',
  ],
  ip: ['256.1.2.3', '1.2.3', '1.2.3.4.5', '1:2:3:4:5:6:7:8:9', '1::2::3', 'gggg::1', '12345::1', 'example.com', ''],
  'php-version': ['8.1', 'php8', 'php 8.1', 'php8.1.2', 'php8.', 'php.1', 'phpx.y', ''],
  'dotted-version': ['6', 'v6.4.2', '6..4', '6.4.', '.6.4', '6.4 ', ''],
  'absolute-path': ['path', 'wp-content/uploads', './public', '~/public', ''],
  'relative-path': ['/path', '/', ''],
  url: ['example.com/avatar.png', '//cdn.example.com/avatar.png', '/avatar.png', 'avatar.png', 'https://exa mple.com/a.png', ''],
  email: ['user', 'user@', '@example.com', 'us er@example.com', 'user@@example.com', 'user@example.com ', ''],
  hostname: ['exa mple.com', '-example.com', 'example-.com', 'a..b', '.example.com', 'https://example.com', 'example.com/', `${'a'.repeat(64)}.com`, ''],
  slug: ['twenty twenty', ' akismet', 'akismet ', 'hello\tdolly', ''],
  'auto-update-label': ['Automatic Update', ' Automatic Update', 'WordPress Manual Update', 'WordPress Automatic Update (beta)', ''],
};

export const formatNearMissArb = (format: StringFormat): fc.Arbitrary<string> => fc.constantFrom(...formatNearMisses[format]);

// ---- wp_command (LIMIT-WP-COMMAND) ---------------------------------------------------------------

/** ASCII white space only: other Unicode spaces may or may not match `\s` (ASM-WP-WHITESPACE-ASCII). */
const wpSpaceArb = fc.oneof({ weight: 6, arbitrary: fc.constant(' ') }, { weight: 1, arbitrary: fc.constantFrom('\t', '\n', '\r', '  ') });

/**
 * Read-only commands only: the suite may run these on a real environment. Arguments after them
 * start with a letter or digit, so none is a global option such as `--exec`.
 */
const wpReadOnlyCommandArb = fc.constantFrom('cli version', 'core version', 'plugin list', 'theme list', 'user list', 'option get', 'cache type', 'cron event list');
const wpArgumentArb = fc.oneof(
  { weight: 4, arbitrary: matching(/^[a-zA-Z0-9][a-zA-Z0-9_\-./:=@]{0,19}$/) },
  { weight: 1, arbitrary: fc.constantFrom('--format=json', '--format=csv', '--fields=name', '--status=active') },
  // Quotes stay balanced: an odd quote is a shell error, however the pattern reads it.
  { weight: 1, arbitrary: matching(/^[a-zA-Z0-9_.:=@ -]{1,20}$/).map((text) => `'${text}'`) },
);

const shortWpCommandArb = fc
  .tuple(wpSpaceArb, wpReadOnlyCommandArb, fc.array(fc.tuple(wpSpaceArb, wpArgumentArb), { maxLength: 6 }))
  .map(([space, command, args]) => `wp${space}${command}${args.map(([s, a]) => `${s}${a}`).join('')}`);

/** Commands at the length limit: `wp option get` and one long option name, up to exactly 5000 characters. */
const longWpCommandArb = fc
  .integer({ min: WP_COMMAND_MAX_LENGTH - 100, max: WP_COMMAND_MAX_LENGTH })
  .map((length) => `wp option get ${'a'.repeat(length - 'wp option get '.length)}`);

export const wpCommandArb: fc.Arbitrary<string> = fc.oneof({ weight: 19, arbitrary: shortWpCommandArb }, { weight: 1, arbitrary: longWpCommandArb });

/**
 * Commands no reading accepts, with the schema keyword that rejects each (§Limits). Harmless
 * even if a faulty server ran them: the suite sends them to real environments expecting a 400.
 */
export const wpCommandNearMisses: readonly { readonly value: string; readonly keyword: 'pattern' | 'maxLength'; readonly why: string }[] = [
  { value: 'wp', keyword: 'pattern', why: '`wp` alone' },
  { value: 'wplist', keyword: 'pattern', why: 'no white space after `wp`' },
  { value: 'ls -la', keyword: 'pattern', why: 'does not begin with `wp`' },
  { value: 'wp plugin list; echo probe', keyword: 'pattern', why: '`;` is outside the allowed characters' },
  { value: 'wp plugin list | cat', keyword: 'pattern', why: '`|`' },
  { value: 'wp plugin list && true', keyword: 'pattern', why: '`&`' },
  { value: 'wp option get $HOME', keyword: 'pattern', why: '`$`' },
  { value: 'wp option get `true`', keyword: 'pattern', why: 'backtick' },
  { value: 'wp option get "blogname"', keyword: 'pattern', why: '`"`' },
  { value: `wp option get ${'a'.repeat(WP_COMMAND_MAX_LENGTH + 1 - 'wp option get '.length)}`, keyword: 'maxLength', why: '5001 characters' },
];

// ---- field types --------------------------------------------------------------------------------

export interface ValueArbOptions {
  /** Responses only: add properties the document does not list, now and then. Default true. */
  readonly extraProperties?: boolean;
  /** Resource nesting below which arrays are empty: bounds recursive trees (FileNode). Default 4. */
  readonly maxDepth?: number;
}

interface Context {
  readonly direction: Direction;
  readonly extraProperties: boolean;
  readonly maxDepth: number;
  readonly depth: number;
}

const contextOf = (direction: Direction, options: ValueArbOptions = {}): Context => ({
  direction,
  extraProperties: direction === 'response' && (options.extraProperties ?? true),
  maxDepth: options.maxDepth ?? 4,
  depth: 0,
});

/** A field the reading requires: documented response fields, required request fields. */

/** Free text a server might send: mostly ASCII, sometimes any printable Unicode. */
const responseTextArb = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 24 }) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) });
/** Free text for requests: non-empty, printable, trimmed; no reading refuses it for its form. */
const requestTextArb = matching(/^[A-Za-z0-9](?:[A-Za-z0-9 _.-]{0,22}[A-Za-z0-9])?$/);
/** Values outside the occurring ones, shaped like them, or any text. */
const otherSetValueArb = fc.oneof(matching(/^[a-z][a-z_-]{0,15}$/), responseTextArb);

function stringArb(type: Extract<FieldType, { kind: 'string' }>, direction: Direction): fc.Arbitrary<string> {
  if (type.limit === 'LIMIT-WP-COMMAND') return wpCommandArb;
  if (type.format) return formatArb(type.format, direction);
  // Only the shown members of a partly shown enum are certain (UNK-EXP-INTERVAL-VALUES).
  if (type.enum) return fc.constantFrom(...type.enum.shown);
  if (type.pattern) throw new Error(`no arbitrary for pattern ${type.pattern}; add one beside wpCommandArb`);
  if (type.open) {
    const occurs = fc.constantFrom(...type.open.occurs);
    // Requests send what the document shows; a server may send any value of the unshown set.
    return direction === 'request' ? occurs : fc.oneof({ weight: 3, arbitrary: occurs }, { weight: 1, arbitrary: otherSetValueArb });
  }
  return direction === 'request' ? requestTextArb : responseTextArb;
}

const extraKeyArb = matching(/^[a-z][a-z0-9_]{0,15}$/);

/** An object of the given fields; `overrides` replace the arbitrary of a field by name. */
function objectArb(fields: readonly Field[], ctx: Context, overrides: Readonly<Record<string, fc.Arbitrary<unknown>>> = {}): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(fields.map((f) => [f.name, overrides[f.name] ?? arbOf(f.type, ctx)]));
  // Requests carry every field, as any unmarked one may be required (ASM-NOT-SHOWN-FIELDS-SENT).
  const requiredKeys = ctx.direction === 'request' ? fields.map((f) => f.name) : fields.filter((f) => mustBePresent(f, 'response')).map((f) => f.name);
  const record = fc.record(model, { requiredKeys, noNullPrototype: true });
  if (!ctx.extraProperties) return record;
  const known = new Set(fields.map((f) => f.name));
  const extras = fc.dictionary(
    extraKeyArb.filter((key) => !known.has(key)),
    fc.jsonValue({ maxDepth: 1 }),
    { maxKeys: 2, noNullPrototype: true },
  );
  return fc.tuple(record, fc.option(extras, { freq: 4, nil: {} })).map(([value, extra]) => ({ ...value, ...extra }));
}

function arbOf(type: FieldType, ctx: Context): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'string':
      return stringArb(type, ctx.direction);
    case 'integer':
      // Ids, seconds and counts: nothing in the document is negative.
      return fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 100_000 }) }, { weight: 1, arbitrary: fc.maxSafeNat() });
    case 'number':
      if (type.meaning === 'epoch-ms') return epochMsArb;
      return fc.oneof(fc.nat({ max: 100_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'array':
      return ctx.depth >= ctx.maxDepth ? fc.constant([]) : fc.array(arbOf(type.items, ctx), { maxLength: 3 });
    case 'object':
      return objectArb(type.fields, ctx);
    case 'ref':
      return objectArb(resource(type.resource).fields, { ...ctx, depth: ctx.depth + 1 });
  }
}

/** Values of any model type, read in one direction. */
export const valueArb = (type: FieldType, direction: Direction, options?: ValueArbOptions): fc.Arbitrary<unknown> =>
  arbOf(type, contextOf(direction, options));

// ---- endpoints ----------------------------------------------------------------------------------

/** `<kind>-<UUID>` (§Endpoints > Conventions). */
export const operationIdArb = (kind: OperationKind): fc.Arbitrary<string> => uuidArb('response').map((uuid) => `${kind}-${uuid}`);

/** The success body of an endpoint; for acknowledged actions, an acknowledgement of its kind with status 202. */
export function responseArb(endpoint: Endpoint, options?: ValueArbOptions): fc.Arbitrary<unknown> {
  const ctx = contextOf('response', options);
  const success = endpoint.success;
  if (success.kind !== 'ack') return arbOf(success.body, ctx);
  return objectArb(resource('Acknowledgement').fields, ctx, {
    operation_id: operationIdArb(success.operationKind),
    status: fc.constant(202),
  });
}

/** An error body with the HTTP status it goes with (ERR-BODY). */
export const errorBodyArb = (status: number, options?: ValueArbOptions): fc.Arbitrary<Record<string, unknown>> =>
  objectArb(resource('ErrorBody').fields, contextOf('response', options), { status: fc.constant(status) });

const requestHostnameArb = formatArb('hostname', 'request');

/** RFC 5737 documentation addresses: valid IPv4 addresses no real record should hold. */
export const testNetAddressArb: fc.Arbitrary<string> = fc
  .noBias(fc.tuple(fc.constantFrom('192.0.2', '198.51.100', '203.0.113'), fc.integer({ min: 1, max: 254 })))
  .map(([net, host]) => `${net}.${host}`);

/**
 * Where the model says only "string" or "integer" but a value is valid under every reading only
 * within narrower bounds, per endpoint and field. Callers override any field with state they
 * know (a real backup id, an environment id, record values the record holds).
 */
const requestFieldArbs: Readonly<Record<string, Readonly<Record<string, fc.Arbitrary<unknown>>>>> = {
  listThemes: {
    // Allowed values: not shown (UNK-THEMES-BODY-VALUES); the choice is ASM-THEMES-BODY.
    status: fc.constant('active'),
    column: fc.constant('name'),
  },
  updateDnsRecords: {
    // Record types: not shown (UNK-DNS-TYPE-VALUES); `A` occurs, and A records hold IPv4 addresses.
    type: fc.constant('A'),
    name: requestHostnameArb,
    // Positive, and within the range every DNS provider accepts.
    ttl: fc.integer({ min: 300, max: 86_400 }),
    // Documentation addresses: a request that is acted on adds nothing any real host could be using.
    new_resource_records: fc.array(testNetAddressArb.map((value) => ({ value })), { minLength: 1, maxLength: 3 }),
    // Removing a value the record does not hold may be refused; callers that know one pass it.
    removed_resource_records: fc.constant([]),
  },
  searchAndReplace: {
    // A marker no real content holds: replacement, if performed, changes nothing.
    search: matching(/^[a-z0-9]{8}$/).map((id) => `hsc-conformance-probe-${id}`),
    replace: matching(/^[a-z0-9]{8}$/).map((id) => `hsc-conformance-replaced-${id}`),
  },
  restoreBackup: {
    backup_id: fc.integer({ min: 1, max: 2_147_483_647 }),
  },
  resetSite: {
    // Password rules: not shown; one of every character class and 16+ characters pass any common policy.
    admin_password: fc
      .tuple(matching(/^[A-Z]{2}$/), matching(/^[a-z]{8,12}$/), matching(/^[0-9]{3}$/), fc.constantFrom('!', '#', '%', '*', '+', '?'), matching(/^[A-Za-z0-9]{2,6}$/))
      .map((parts) => parts.join('')),
  },
  createWpAdminUser: {
    first_name: matching(/^[A-Z][a-z]{1,14}$/),
    last_name: matching(/^[A-Z][a-z]{1,14}$/),
  },
};

/** A request body valid under every reasonable reading of the document, every field present. */
export function requestBodyArb(endpoint: Endpoint, overrides: Readonly<Record<string, fc.Arbitrary<unknown>>> = {}): fc.Arbitrary<Record<string, unknown>> {
  if (!endpoint.body) throw new Error(`${endpoint.name} takes no request body`);
  return objectArb(endpoint.body, contextOf('request'), { ...requestFieldArbs[endpoint.name], ...overrides });
}

/** The arbitrary `requestBodyArb` draws one field of `endpoint`'s body from. */
export const requestFieldArb = (endpoint: Endpoint, field: Field): fc.Arbitrary<unknown> =>
  requestFieldArbs[endpoint.name]?.[field.name] ?? arbOf(field.type, contextOf('request'));

/** Query parameters as sent on the wire: every parameter present, each a string. */
export function queryArb(endpoint: Endpoint, overrides: Readonly<Record<string, fc.Arbitrary<string>>> = {}): fc.Arbitrary<Record<string, string>> {
  const model = Object.fromEntries(
    endpoint.queryParams.map((p) => {
      if (p.type.kind !== 'string') throw new Error(`query parameter ${p.name} of ${endpoint.name} is not a string`);
      return [p.name, overrides[p.name] ?? stringArb(p.type, 'request')];
    }),
  );
  return fc.record(model, { noNullPrototype: true });
}
