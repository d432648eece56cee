/**
 * The arbitraries are honest: every value matches the model's lenient patterns, request values
 * also pass the strictest reading of each format, near misses fail, and the edge forms a server
 * may send do occur. (The generated validators judge the same values in
 * generator/validators.test.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from './api.ts';
import {
  errorBodyArb,
  formatArb,
  formatNearMissArb,
  formatNearMisses,
  queryArb,
  requestBodyArb,
  responseArb,
  valueArb,
  wpCommandArb,
} from './arbitraries.ts';
import { formats } from './formats.ts';
import type { Field, FieldType, StringFormat } from './model.ts';
import { endpoint, operationIdPattern, resource } from './queries.ts';
import { WP_COMMAND_MAX_LENGTH, WP_COMMAND_PATTERN } from './rules.ts';

const formatNames = Object.keys(formats) as StringFormat[];

/** Each pattern as ajv runs it (`u` flag) and as `formatRegex` does (none): both must agree. */
const matchesPattern = (format: StringFormat, value: string): boolean => {
  const withU = new RegExp(formats[format].pattern, 'u').test(value);
  const without = new RegExp(formats[format].pattern).test(value);
  expect(withU, `${format} ${JSON.stringify(value)}: u and non-u patterns disagree`).toBe(without);
  return withU;
};

const isCalendarDate = (date: string): boolean => new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;

/**
 * The strictest reading of each format, for request values: RFC 9562 lowercase UUIDs, RFC 3339
 * date-times, the WHATWG e-mail grammar, RFC 1123 host names with their length limits, URLs that
 * parse.
 */
const strictReadings: Record<StringFormat, (value: string) => boolean> = {
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(v),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) && new Date(v).toISOString() === v,
  'date-time-ms': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v) && new Date(v).toISOString() === v,
  'epoch-ms-string': (v) => /^(0|[1-9][0-9]*)$/.test(v) && Number.isSafeInteger(Number(v)),
  'ipv4-maskable': (v) => /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(v),
  ip: (v) => /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(v),
  'php-version': (v) => /^php[5-8]\.\d$/.test(v),
  'dotted-version': (v) => /^(0|[1-9]\d*)(\.(0|[1-9]\d*)){1,2}$/.test(v),
  'absolute-path': (v) => /^(\/[a-z0-9][a-z0-9_-]*)+$/.test(v),
  'relative-path': (v) => /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/.test(v),
  url: (v) => URL.canParse(v) && new URL(v).protocol === 'https:',
  email: (v) =>
    /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(v) &&
    !/^\.|\.\.|\.@/.test(v),
  hostname: (v) => v.length <= 253 && v.split('.').every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) && label.slice(2, 4) !== '--'),
  slug: (v) => /^[a-z0-9][a-z0-9_-]*$/.test(v),
  'auto-update-label': (v) => /^[A-Z][A-Za-z0-9]*(?: [A-Z][A-Za-z0-9]*)* Automatic Update$/.test(v),
};

describe('formatArb', () => {
  it.each(formatNames)('%s: every response value matches the pattern', (format) => {
    fc.assert(fc.property(formatArb(format, 'response'), (value) => matchesPattern(format, value)));
  });

  it.each(formatNames)('%s: every request value matches the pattern and the strictest reading', (format) => {
    fc.assert(fc.property(formatArb(format, 'request'), (value) => matchesPattern(format, value) && strictReadings[format](value)));
  });

  it.each(['date-time', 'date-time-ms'] as const)('%s: dates are real calendar dates', (format) => {
    fc.assert(fc.property(formatArb(format), (value) => isCalendarDate(value.slice(0, 10))));
  });

  it('url: every response value parses as a URL', () => {
    fc.assert(fc.property(formatArb('url'), (value) => URL.canParse(value)));
  });

  /** Edge forms the document admits do occur in responses, so the validators meet them. */
  it.each([
    ['uuid', 'uppercase hex digits', (v: string) => /[A-F]/.test(v)],
    ['date-time', 'a numeric offset', (v: string) => /[+-]\d{2}:\d{2}$/.test(v)],
    ['date-time', 'no fraction', (v: string) => /:\d{2}(Z|[+-]\d{2}:\d{2})$/.test(v)],
    ['date-time-ms', 'a numeric offset', (v: string) => /\.\d{3}[+-]\d{2}:\d{2}$/.test(v)],
    ['ipv4-maskable', 'a masked octet', (v: string) => /[^\d.]/.test(v)],
    ['ipv4-maskable', 'an octet of digits and mask characters', (v: string) => /\d[xX*]|[xX*]\d/.test(v)],
    ['ip', 'a compressed IPv6 address', (v: string) => v.includes('::')],
    ['ip', 'an IPv6 address with an IPv4 tail', (v: string) => v.includes(':') && v.includes('.')],
    ['hostname', 'an underscore label', (v: string) => v.includes('_')],
    ['hostname', 'a trailing dot', (v: string) => v.endsWith('.')],
    ['relative-path', 'a nested path', (v: string) => v.includes('/')],
    ['email', 'capitals', (v: string) => /[A-Z]/.test(v)],
  ] as const)('%s: some response values have %s', (format, _, has) => {
    expect(fc.sample(formatArb(format), 1000).some(has)).toBe(true);
  });
});

describe('formatNearMisses', () => {
  it.each(formatNames.flatMap((format) => formatNearMisses[format].map((miss) => [format, miss] as const)))('%s: %j fails the pattern', (format, miss) => {
    expect(matchesPattern(format, miss)).toBe(false);
  });

  it.each(formatNames)('%s: has near misses, and formatNearMissArb draws only them', (format) => {
    expect(formatNearMisses[format].length).toBeGreaterThan(0);
    fc.assert(fc.property(formatNearMissArb(format), (miss) => formatNearMisses[format].includes(miss)));
  });

  it.each([
    ['date-time-ms', '2024-05-01T10:00:00Z', 'a date-time without milliseconds'],
    ['date-time-ms', '1714557600000', 'epoch milliseconds where ISO 8601 is due'],
    ['php-version', '8.1', 'a version without `php`'],
    ['relative-path', '/path', 'a leading slash'],
    ['absolute-path', 'path', 'no leading slash'],
    ['uuid', '0f8fad5b-d9cb-469f-a165-70867728950', 'a group of the wrong length'],
  ] as const)('%s includes %j (%s)', (format, miss, _why) => {
    expect(formatNearMisses[format]).toContain(miss);
  });
});

/**
 * ASM-IPV4-MASK, stated independently of the pattern: an address is four octets, each a decimal
 * octet or one to three digits and mask characters (`x`, `X`, `*`) with at least one mask.
 */
describe('ipv4-maskable: masks in any mix, near misses refused', () => {
  const maskChar = fc.constantFrom('x', 'X', '*');
  const shownOctet = fc.nat({ max: 255 }).map(String);
  /** A mask at one of the (up to three) places, the others digits or masks. */
  const maskedOctet = fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.nat({ max: 2 }), maskChar, fc.array(fc.oneof(fc.constantFrom(...'0123456789'), maskChar), { minLength: 2, maxLength: 2 }))
    .map(([width, at, mask, others]) => {
      const chars = [...others.slice(0, width - 1)];
      chars.splice(Math.min(at, width - 1), 0, mask);
      return chars.join('');
    });
  const octet = fc.oneof(shownOctet, maskedOctet);
  const address = fc.array(octet, { minLength: 4, maxLength: 4 });
  const otherLetter = fc.constantFrom(...'abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ_-#?•');

  it('every address of four octets, each shown or masked in any mix, passes', () => {
    fc.assert(fc.property(address, (octets) => matchesPattern('ipv4-maskable', octets.join('.'))));
  });

  it('the vendor reference\'s form passes: 1xx.1xx.1xx.1xx', () => {
    expect(matchesPattern('ipv4-maskable', '1xx.1xx.1xx.1xx')).toBe(true);
  });

  it.each([
    ['three or five octets', address.chain((o) => fc.constantFrom(o.slice(0, 3), [...o, '1xx']))],
    ['an empty octet', fc.tuple(address, fc.nat({ max: 3 })).map(([o, i]) => o.map((x, j) => (j === i ? '' : x)))],
    ['a letter other than the mask in an octet', fc.tuple(address, fc.nat({ max: 3 }), otherLetter).map(([o, i, c]) => o.map((x, j) => (j === i ? `${x.slice(0, 2)}${c}` : x)))],
    ['an octet four wide', fc.tuple(address, fc.nat({ max: 3 }), maskChar).map(([o, i, c]) => o.map((x, j) => (j === i ? `${x}${c.repeat(4 - x.length)}` : x)))],
  ] as const)('%s fails', (_, broken) => {
    fc.assert(fc.property(broken, (octets) => !matchesPattern('ipv4-maskable', octets.join('.'))));
  });
});

describe('wpCommandArb', () => {
  const wpPattern = new RegExp(WP_COMMAND_PATTERN, 'u');
  it('matches the pattern, within the limit, with ASCII white space only (ASM-WP-WHITESPACE-ASCII)', () => {
    fc.assert(
      fc.property(wpCommandArb, (command) => {
        expect(command.length).toBeLessThanOrEqual(WP_COMMAND_MAX_LENGTH);
        expect(command).toMatch(wpPattern);
        expect(command).toMatch(/^[\x21-\x7e \t\n\r]+$/);
        // Quotes balanced: an odd one is a shell error whatever the pattern says.
        expect((command.match(/'/g) ?? []).length % 2).toBe(0);
      }),
    );
  });

  it('starts with a read-only command, so the suite may run it on a real environment', () => {
    const readOnly = /^wp\s+(cli version|core version|plugin list|theme list|user list|option get|cache type|cron event list)(\s|$)/;
    fc.assert(fc.property(wpCommandArb, (command) => readOnly.test(command)));
  });

  it('reaches the length limit now and then', () => {
    expect(fc.sample(wpCommandArb, 2000).some((command) => command.length > WP_COMMAND_MAX_LENGTH - 100)).toBe(true);
  });
});

const plainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Names of properties of `value` that the model does not list for `type`, at any depth. */
function unlistedProperties(type: FieldType, value: unknown, path = ''): string[] {
  if (type.kind === 'array' && Array.isArray(value)) return value.flatMap((item, i) => unlistedProperties(type.items, item, `${path}/${i}`));
  if ((type.kind === 'object' || type.kind === 'ref') && plainObject(value)) {
    const fields: readonly Field[] = type.kind === 'object' ? type.fields : resource(type.resource).fields;
    return Object.entries(value).flatMap(([key, inner]) => {
      const field = fields.find((f) => f.name === key);
      return field ? unlistedProperties(field.type, inner, `${path}/${key}`) : [`${path}/${key}`];
    });
  }
  return [];
}

const fileNodeDepth = (node: unknown): number =>
  plainObject(node) && Array.isArray(node.children) ? 1 + Math.max(0, ...node.children.map(fileNodeDepth)) : 1;

describe('valueArb and responseArb', () => {
  const fileNode: FieldType = { kind: 'ref', resource: 'FileNode' };

  it('FileNode trees are bounded, and `children` is sometimes absent, sometimes present', () => {
    const nodes = fc.sample(valueArb(fileNode, 'response', { maxDepth: 3 }), 300);
    expect(Math.max(...nodes.map(fileNodeDepth))).toBeLessThanOrEqual(3);
    expect(nodes.some((n) => plainObject(n) && !('children' in n))).toBe(true);
    expect(nodes.some((n) => fileNodeDepth(n) >= 2)).toBe(true);
  });

  it('responses carry unlisted properties now and then, never when told not to', () => {
    const e = endpoint('getSite');
    expect(fc.sample(responseArb(e), 300).some((body) => unlistedProperties(e.success.kind === 'data' ? e.success.body : fileNode, body).length > 0)).toBe(true);
    for (const candidate of api.endpoints) {
      if (candidate.success.kind === 'ack') continue;
      const type = candidate.success.body;
      fc.assert(fc.property(responseArb(candidate, { extraProperties: false }), (body) => unlistedProperties(type, body).length === 0));
    }
  });

  it('open sets: mostly the value that occurs, sometimes another (UNK-ENUM-SETS)', () => {
    const statuses = fc.sample(valueArb({ kind: 'ref', resource: 'Site' }, 'response'), 500).map((site) => (site as { status: string }).status);
    const live = statuses.filter((s) => s === 'live').length;
    expect(live).toBeGreaterThan(statuses.length / 2);
    expect(live).toBeLessThan(statuses.length);
  });

  it.each(api.endpoints.filter((e) => e.success.kind === 'ack').map((e) => [e.name, e] as const))('%s: acknowledgements carry its kind and status 202', (_, e) => {
    const kind = e.success.kind === 'ack' ? e.success.operationKind : undefined;
    const pattern = new RegExp(operationIdPattern(kind!), 'u');
    fc.assert(
      fc.property(responseArb(e), (ack) => {
        expect(ack).toMatchObject({ status: 202, message: expect.any(String) });
        expect((ack as { operation_id: string }).operation_id).toMatch(pattern);
      }),
    );
  });

  it('error bodies carry the status they go with (ERR-BODY)', () => {
    fc.assert(fc.property(errorBodyArb(404), (body) => body.status === 404 && typeof body.message === 'string'));
  });
});

const withBody = api.endpoints.filter((e) => e.body);
const isUuid = strictReadings.uuid;

describe('requestBodyArb', () => {
  it('e-mail addresses a request may create a user with reach no one: RFC 2606 domains only', () => {
    const reserved = /@example\.(?:com|org|net)$/;
    fc.assert(fc.property(formatArb('email', 'request'), (address) => void expect(address).toMatch(reserved)));
    for (const e of withBody) {
      const emails = e.body!.filter((f) => f.type.kind === 'string' && f.type.format === 'email');
      if (emails.length) fc.assert(fc.property(requestBodyArb(e), (body) => emails.forEach((f) => expect(body[f.name]).toMatch(reserved))));
    }
  });

  it.each(withBody.map((e) => [e.name, e] as const))('%s: every body field present (ASM-NOT-SHOWN-FIELDS-SENT), no others', (_, e) => {
    const names = e.body!.map((f) => f.name).sort();
    fc.assert(
      fc.property(requestBodyArb(e), (body) => {
        expect(Object.keys(body).sort()).toEqual(names);
      }),
    );
  });

  it.each(withBody.map((e) => [e.name, e] as const))('%s: formatted fields pass the strictest reading of their format', (_, e) => {
    const formatted = e.body!.flatMap((f) => (f.type.kind === 'string' && f.type.format ? [[f.name, f.type.format] as const] : []));
    fc.assert(
      fc.property(requestBodyArb(e), (body) => {
        for (const [name, format] of formatted) expect(strictReadings[format](body[name] as string), `${name}: ${String(body[name])}`).toBe(true);
      }),
    );
  });

  it.each([
    ['runWpCliCommand', (b: Record<string, unknown>) => typeof b.wp_command === 'string' && b.wp_command.length <= WP_COMMAND_MAX_LENGTH && /^wp[ \t\n\r]/.test(b.wp_command)],
    ['changeSshExpirationInterval', (b: Record<string, unknown>) => b.exp_interval === 'days_7'],
    ['changeWebrootSubfolder', (b: Record<string, unknown>) => typeof b.web_root_subfolder === 'string' && b.web_root_subfolder.startsWith('/')],
    ['clearCdnCache', (b: Record<string, unknown>) => isUuid(b.environment_id as string) && isUuid(b.cdn_cache_id as string)],
    ['setEdgeCachingStatus', (b: Record<string, unknown>) => isUuid(b.environment_id as string) && typeof b.enabled === 'boolean'],
    ['searchAndReplace', (b: Record<string, unknown>) => isUuid(b.environment_id as string) && typeof b.search === 'string' && b.search.length > 0],
    ['restoreBackup', (b: Record<string, unknown>) => Number.isInteger(b.backup_id) && (b.backup_id as number) >= 0 && isUuid(b.notified_user_id as string)],
    ['updateDnsRecords', (b: Record<string, unknown>) => Number.isInteger(b.ttl) && (b.ttl as number) > 0 && b.type === 'A' && strictReadings.hostname(b.name as string)],
    ['createWpAdminUser', (b: Record<string, unknown>) => strictReadings.email(b.email as string) && /^[A-Z][a-z]+$/.test(b.first_name as string)],
    ['resetSite', (b: Record<string, unknown>) => typeof b.admin_password === 'string' && b.admin_password.length >= 16 && /[A-Z]/.test(b.admin_password) && /[0-9]/.test(b.admin_password)],
  ] as const)('%s: the field values every reading accepts', (name, holds) => {
    fc.assert(fc.property(requestBodyArb(endpoint(name)), (body) => holds(body)));
  });

  it('updateDnsRecords: new values are IPv4 addresses, as A records hold', () => {
    fc.assert(
      fc.property(requestBodyArb(endpoint('updateDnsRecords')), (body) => {
        const values = (body.new_resource_records as { value: string }[]).map((r) => r.value);
        return values.length > 0 && values.every(strictReadings.ip);
      }),
    );
  });

  it('overrides replace a field with state the caller knows', () => {
    const envId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    fc.assert(fc.property(requestBodyArb(endpoint('clearCdnCache'), { environment_id: fc.constant(envId) }), (body) => body.environment_id === envId));
  });

  it('refuses endpoints without a body', () => {
    expect(() => requestBodyArb(endpoint('getSite'))).toThrow(/no request body/);
  });
});

describe('queryArb', () => {
  it('checkWpAdminUserExists: the e-mail parameter, a plain address (ASM-WPA-QUERY-EMAIL)', () => {
    fc.assert(fc.property(queryArb(endpoint('checkWpAdminUserExists')), (query) => Object.keys(query).join() === 'email' && strictReadings.email(query.email!)));
  });

  it('endpoints without query parameters get an empty query', () => {
    fc.assert(fc.property(queryArb(endpoint('getSite')), (query) => Object.keys(query).length === 0));
  });
});
