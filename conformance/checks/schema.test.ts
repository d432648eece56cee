import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { responseArb } from '../../spec/arbitraries.ts';
import { isAck } from '../../spec/queries.ts';
import { fieldPath, responseSchema, summarize } from './schema.ts';
import { exchange, expectJudgement, judge, TEST_UUID, type Case } from './testing.ts';

const UUID = TEST_UUID;
const domain = { id: UUID, name: 'www.example.com', type: 'live', site_id: UUID };
const environment = {
  id: UUID,
  name: 'live',
  display_name: 'Live',
  is_blocked: false,
  id_edge_cache: UUID,
  cdn_cache_id: UUID,
  is_opt_out_from_automatic_php_update: false,
  web_root: '/',
  image_optimization_type: 'lossy',
  is_additional_sftp_accounts_enabled: true,
  is_premium: false,
  cms_version: '6.4.2',
  domains: [domain],
  primaryDomain: domain,
  ssh_connection: { ssh_port: '22', ssh_ip: { external_ip: '203.0.xxx.7' } },
  container_info: { id: UUID, php_engine_version: 'php8.1' },
};
const site = {
  id: UUID,
  name: 'shop',
  display_name: 'Shop',
  company_id: UUID,
  status: 'live',
  environments: [{ id: UUID, name: 'live', display_name: 'Live', is_premium: false, is_blocked: false, domains: [domain], primaryDomain: domain }],
};
const apiKey = { id: UUID, name: 'ci', status: 'active', expires_at: '2026-01-31T12:00:00.000Z' };
const backup = { id: 17, name: 'before update', note: '', type: 'manual', created_at: 1_700_000_000_000 };

const { environments: _, ...siteWithoutEnvironments } = site;
const { status: __, ...siteWithoutStatus } = site;
const { container_info, ...environmentWithoutContainer } = environment;

const getSite = (body: unknown) => ({ endpoint: 'getSite', status: 200, json: body }) as const;
const listEnvironments = (env: unknown) => ({ endpoint: 'listEnvironments', status: 200, json: { site: { environments: [env] } } }) as const;
const listApiKeys = (key: unknown) => ({ endpoint: 'listApiKeys', status: 200, json: { api_keys: [key] } }) as const;
const listBackups = (b: unknown) => ({ endpoint: 'listBackups', status: 200, json: { environment: { display_name: 'Live', backups: [b] } } }) as const;

const cases: [string, Case][] = [
  ['a site', { given: getSite({ site }), want: 'pass' }],
  ['201 is judged as a success too', { given: { ...getSite({ site }), status: 201 }, want: 'pass' }],
  ['an environment', { given: listEnvironments(environment), want: 'pass' }],
  ['API key with milliseconds', { given: listApiKeys(apiKey), want: 'pass' }],
  ['API key with milliseconds and an offset', { given: listApiKeys({ ...apiKey, expires_at: '2026-01-31T12:00:00.000+02:00' }), want: 'pass' }],
  ['a backup', { given: listBackups(backup), want: 'pass' }],
  ['empty lists', { given: { endpoint: 'listApiKeys', status: 200, json: { api_keys: [] } }, want: 'pass' }],
  ['extra fields anywhere', { given: getSite({ site: { ...site, region: 'eu', environments: [{ ...site.environments[0], extra: [1] }] }, meta: {} }), want: 'pass' }],
  ['unknown open-set values', { given: getSite({ site: { ...site, status: 'suspended' } }), want: 'pass' }],
  ['unknown backup type (scheduled, system-generated)', { given: listBackups({ ...backup, type: 'system' }), want: 'pass' }],
  ['uppercase UUID', { given: getSite({ site: { ...site, id: UUID.toUpperCase() } }), want: 'pass' }],
  ['result null on the expiration change', { given: { endpoint: 'changeSshExpirationInterval', status: 200, json: { result: null } }, want: 'pass' }],
  [
    'expires_at without milliseconds',
    {
      given: listApiKeys({ ...apiKey, expires_at: '2026-01-31T12:00:00Z' }),
      want: /^`api_keys\[0\]\.expires_at` is "2026-01-31T12:00:00Z" \(string\); must be ISO 8601 extended date-time with seconds and exactly three fraction digits \(milliseconds\)\n/,
    },
  ],
  ['expires_at as epoch milliseconds', { given: listApiKeys({ ...apiKey, expires_at: 1_769_860_800_000 }), want: /`api_keys\[0\]\.expires_at` is 1769860800000 \(number\); must be a string/ }],
  ['created_at as a string', { given: listBackups({ ...backup, created_at: '1700000000000' }), want: /`environment\.backups\[0\]\.created_at` is "1700000000000" \(string\); must be a number/ }],
  ['backup id as a string', { given: listBackups({ ...backup, id: '17' }), want: /`environment\.backups\[0\]\.id` is "17" \(string\); must be an integer/ }],
  ['backup id not an integer', { given: listBackups({ ...backup, id: 1.5 }), want: /`environment\.backups\[0\]\.id` is 1\.5 \(number\); must be an integer/ }],
  ['php version `8.1`', { given: listEnvironments({ ...environment, container_info: { id: UUID, php_engine_version: '8.1' } }), want: /`site\.environments\[0\]\.container_info\.php_engine_version` is "8\.1" \(string\); must be `php<major>\.<minor>`/ }],
  ['malformed UUID', { given: getSite({ site: { ...site, company_id: UUID.slice(1) } }), want: /`site\.company_id` is "f2b8c1e-[^"]*" \(string\); must be UUID/ }],
  ['web_root without a leading slash', { given: listEnvironments({ ...environment, web_root: 'public' }), want: /`site\.environments\[0\]\.web_root` is "public" \(string\); must be path beginning with `\/`/ }],
  ['missing documented field', { given: getSite({ site: siteWithoutStatus }), want: /^`site` lacks `status` \(documented, so a conformant server sends it\)/ }],
  ['missing several fields', { given: getSite({ site: {} }), want: /`site` lacks `id`, `name`, `display_name`, `company_id` and 2 more \(documented, so a conformant server sends them\)/ }],
  ['missing list', { given: getSite({ site: siteWithoutEnvironments }), want: /`site` lacks `environments`/ }],
  ['renamed top-level container', { given: getSite({ data: site }), want: /^the body lacks `site`/ }],
  ['renamed nested container', { given: listEnvironments({ ...environmentWithoutContainer, containerInfo: container_info }), want: /`site\.environments\[0\]` lacks `container_info`/ }],
  ['list where an object belongs', { given: getSite({ site: [site] }), want: /`site` is \[.* \(array\); must be an object/ }],
  ['null where an object belongs', { given: getSite({ site: null }), want: /`site` is null \(null\); must be an object/ }],
  ['body an array', { given: getSite([site]), want: /the body is \[.* \(array\); must be an object/ }],
  [
    'several problems: the first few, then a count',
    { given: listBackups({ id: 'a', name: 1, note: 2, type: 3, created_at: '4' }), want: /; and 2 more problems\.$/ },
  ],
  ['a secret is never echoed', { given: { endpoint: 'getSftpPassword', status: 200, json: { environment: { id: UUID, sftp_password: 123456789 } } }, want: /`environment\.sftp_password` is a number \(secret, not shown\); must be a string/ }],
  ['not JSON', { given: { endpoint: 'getSite', status: 200, text: '<html>site</html>', contentType: 'text/html' }, want: /^200 success body is not JSON\nThe body is not JSON/ }],
  ['empty', { given: { endpoint: 'getSite', status: 200, text: '' }, want: /The body is empty/ }],
  ['error answers are ERR-BODY business', { given: { endpoint: 'getSite', status: 404, json: { message: 'x', status: 404 } }, want: 'skip' }],
  ['acknowledgements are ACK-202 business', { given: { endpoint: 'clearCdnCache', status: 202, json: {} }, want: 'skip' }],
  ['an acknowledged action answered 200 is still ACK-202 business', { given: { endpoint: 'clearCdnCache', status: 200, json: {} }, want: 'skip' }],
  ['no answer', { given: { endpoint: 'getSite', failure: 'timeout' }, want: 'skip' }],
];

describe('RESPONSE-SCHEMA', () => {
  it.each(cases)('%s', (_, c) => expectJudgement(responseSchema, c));

  it.each(api.endpoints.filter((e) => !isAck(e)).map((e) => [e.name, e] as const))('%s: bodies a conformant server may send pass', (_, e) => {
    for (const body of fc.sample(responseArb(e), { seed: 11, numRuns: 20 })) expect(judge(responseSchema, exchange({ endpoint: e, status: 200, json: body })), JSON.stringify(body)).toBe('pass');
  });

  it('writes JSON Pointers as field paths', () => {
    expect([fieldPath(''), fieldPath('/site'), fieldPath('/a/0/b~1c/1'), fieldPath('/0')]).toEqual(['the body', 'site', 'a[0].b/c[1]', '[0]']);
  });

  it('summarizes past the limit', () => {
    expect(summarize(['a', 'b'])).toBe('a; b');
    expect(summarize(['a', 'b', 'c', 'd'])).toBe('a; b; c; and 1 more problem');
  });
});
