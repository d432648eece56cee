import type { AssumptionId, Cite, StringFormat } from './model.ts';

/**
 * Each string format the document states, as an ECMAScript pattern that JSON Schema, OpenAPI
 * and the suite all use. Patterns accept every reasonable reading of the document's words
 * (a false alarm costs a user more than a missed edge case) and are anchored.
 */
export interface FormatSpec {
  readonly description: string;
  readonly pattern: string;
  /** The OpenAPI/JSON Schema `format` name, where a standard one fits; documentation only. */
  readonly openapiFormat?: string;
  readonly cite: Cite;
  readonly assumption?: AssumptionId;
}

const octet = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
/** The mask characters of ASM-IPV4-MASK. */
const mask = '[xX*]';
// An octet shows at most three digits, so a mask standing in for some or all of them keeps that
// width: one to three digits and mask characters, at least one of them a mask (`1xx`, `10x`, `*`).
// Spelled without lookahead, so every regex dialect an OpenAPI tool uses reads it alike.
const maskedOctet = `(?:${octet}|${mask}[0-9xX*]{0,2}|[0-9]${mask}[0-9xX*]?|[0-9]{2}${mask})`;
const date = '[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])';
const zone = '(?:[Zz]|[+-](?:[01][0-9]|2[0-3])(?::?[0-5][0-9])?)';
const hex = '[0-9a-fA-F]';
const h16 = `${hex}{1,4}`;
const ipv4 = `${octet}(?:\\.${octet}){3}`;
const ls32 = `(?:${h16}:${h16}|${ipv4})`;
// RFC 3986 §3.2.2 `IPv6address`, i.e. every RFC 4291 §2.2 text form: `::` compression, with an
// embedded IPv4 tail wherever it may stand (`64:ff9b::192.0.2.33` too, not only `::ffff:`).
const ipv6 = [
  `(?:${h16}:){6}${ls32}`,
  `::(?:${h16}:){5}${ls32}`,
  `(?:${h16})?::(?:${h16}:){4}${ls32}`,
  `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
  `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
  `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
  `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
  `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
  `(?:(?:${h16}:){0,6}${h16})?::`,
].join('|');
const label = '(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)';

export const formats: Record<StringFormat, FormatSpec> = {
  uuid: {
    description: 'UUID (RFC 9562 text form, any version, either case)',
    pattern: `^${hex}{8}-${hex}{4}-${hex}{4}-${hex}{4}-${hex}{12}$`,
    openapiFormat: 'uuid',
    cite: { section: 'Resources and fields', quote: 'are strings in UUID format' },
  },
  'date-time': {
    description: 'ISO 8601 extended date-time; seconds, fraction and offset optional',
    pattern: `^${date}[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9](?::(?:[0-5][0-9]|60)(?:[.,][0-9]+)?)?${zone}?$`,
    openapiFormat: 'date-time',
    cite: { section: 'Endpoints > Read endpoints', quote: 'string, ISO 8601 date-time' },
  },
  'date-time-ms': {
    description: 'ISO 8601 extended date-time with seconds and exactly three fraction digits (milliseconds)',
    pattern: `^${date}[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)[.,][0-9]{3}${zone}?$`,
    openapiFormat: 'date-time',
    cite: { section: 'Resources and fields > API key (list item)', quote: 'ISO 8601 date-time with milliseconds' },
  },
  'epoch-ms-string': {
    description: 'epoch milliseconds written as decimal digits in a string',
    pattern: '^[0-9]+$',
    cite: { section: 'Resources and fields > Validated key (result of validation)', quote: 'string holding epoch milliseconds as decimal digits' },
  },
  'ipv4-maskable': {
    description: 'dotted IPv4 address; any octet may be masked in part or whole by `x`, `X` or `*` (e.g. `1xx.1xx.1xx.1xx`)',
    pattern: `^${maskedOctet}(?:\\.${maskedOctet}){3}$`,
    cite: { section: "Resources and fields > Environment (returned by the list of a site's environments)", quote: 'an IPv4 address, possibly partly masked' },
    assumption: 'ASM-IPV4-MASK',
  },
  ip: {
    description: 'IPv4 or IPv6 address',
    pattern: `^(?:${ipv4}|${ipv6})$`,
    cite: { section: 'Endpoints > Read endpoints', quote: 'strings, IP addresses' },
  },
  'php-version': {
    description: '`php<major>.<minor>`',
    pattern: '^php[0-9]+\\.[0-9]+$',
    cite: { section: "Resources and fields > Environment (returned by the list of a site's environments)", quote: 'form `php<major>.<minor>`' },
  },
  'dotted-version': {
    description: 'dotted version number, e.g. 6.4.2',
    pattern: '^[0-9]+(?:\\.[0-9]+)+$',
    cite: { section: "Resources and fields > Environment (returned by the list of a site's environments)", quote: 'dotted version number' },
  },
  'absolute-path': {
    description: 'path beginning with `/`',
    pattern: '^/',
    cite: { section: "Resources and fields > Environment (returned by the list of a site's environments)", quote: 'a path beginning with `/`' },
  },
  'relative-path': {
    description: 'relative path, no leading slash',
    pattern: '^[^/]',
    cite: { section: 'Resources and fields > File node', quote: 'relative, no leading slash' },
  },
  url: {
    description: 'absolute URL with a scheme',
    pattern: '^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]+$',
    openapiFormat: 'uri',
    cite: { section: 'Resources and fields > Company user', quote: 'image: string URL' },
  },
  email: {
    description: 'e-mail address (local@domain)',
    pattern: '^[^\\s@]+@[^\\s@]+$',
    openapiFormat: 'email',
    cite: { section: 'Resources and fields > Company user', quote: 'email: string' },
    assumption: 'ASM-EMAIL-FORMAT',
  },
  hostname: {
    description: 'DNS host name; underscore labels, a leading `*` label and a trailing dot allowed',
    pattern: `^(?:\\*\\.)?${label}(?:\\.${label})*\\.?$`,
    cite: { section: 'Resources and fields > Domain', quote: 'string (host name)' },
    assumption: 'ASM-HOSTNAME-DNS',
  },
  slug: {
    description: 'a slug: a non-empty name without white space',
    pattern: '^\\S+$',
    cite: { section: 'Resources and fields > Theme (item of themes list)', quote: 'string (slug)' },
    assumption: 'ASM-SLUG-SHAPE',
  },
  'auto-update-label': {
    description: "the platform vendor's name followed by `Automatic Update`",
    pattern: '^\\S(?:.*\\S)?\\s+Automatic Update$',
    cite: {
      section: 'Resources and fields > Theme (item of themes list)',
      quote: "a label made of the platform vendor's name followed by `Automatic Update`",
    },
  },
};

/** A compiled copy of each pattern, for code that tests values outside the validators. */
export const formatRegex: Record<StringFormat, RegExp> = Object.fromEntries(
  Object.entries(formats).map(([name, spec]) => [name, new RegExp(spec.pattern)]),
) as Record<StringFormat, RegExp>;
