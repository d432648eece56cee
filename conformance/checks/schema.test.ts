import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { responseArb } from '../../spec/arbitraries.ts';
import { isAck } from '../../spec/queries.ts';
import { fieldPath, responseSchema, summarize } from './schema.ts';
import { exchange, expectJudgement, judge, strict as strictContext, TEST_UUID, type Case } from './testing.ts';

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
const validatedKey = { name: 'ci', expires_at: '1893456000000', company: UUID, status: 'active' };
const withExternalIp = (ip: string) => ({ ...environment, ssh_connection: { ssh_port: '22', ssh_ip: { external_ip: ip } } });

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
  ['missing documented field', { given: getSite({ site: siteWithoutStatus }), want: /^`site` lacks `status` \(documented, so a conformant server sends it: ASM-DOCUMENTED-FIELDS-PRESENT\)/ }],
  ['missing several fields', { given: getSite({ site: {} }), want: /`site` lacks `id`, `name`, `display_name`, `company_id` and 2 more \(documented, so a conformant server sends them: ASM-DOCUMENTED-FIELDS-PRESENT\)/ }],
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
  // ASM-IPV4-MASK: the vendor's reference masks as `1xx.1xx.1xx.1xx`.
  ['external_ip masked in every octet', { given: listEnvironments(withExternalIp('1xx.1xx.1xx.1xx')), want: 'pass' }],
  ['external_ip masked in any mix', { given: listEnvironments(withExternalIp('10x.*.XXX.7')), want: 'pass' }],
  ['external_ip with a letter that is no mask', { given: listEnvironments(withExternalIp('1ab.1xx.1xx.1xx')), want: /`site\.environments\[0\]\.ssh_connection\.ssh_ip\.external_ip` is "1ab\.1xx\.1xx\.1xx" \(string\); must be dotted IPv4 address/ }],
  ['external_ip of five octets', { given: listEnvironments(withExternalIp('1xx.1xx.1xx.1xx.1xx')), want: /external_ip` is "1xx\.1xx\.1xx\.1xx\.1xx"/ }],
  // ASM-EPOCH-MS-PLAUSIBLE: seconds where milliseconds are stated warn, and fail under --strict.
  [
    'created_at in epoch seconds: a warning',
    {
      given: listBackups({ ...backup, created_at: 1_700_000_000 }),
      want: { match: /^`environment\.backups\[0\]\.created_at` looks like epoch seconds, not milliseconds\n`environment\.backups\[0\]\.created_at` is 1700000000 \(number\): as epoch milliseconds 1970-01-20T[\d:.]+Z, before 1973-03-03T09:46:40Z, as epoch seconds 2023-11-14T22:13:20Z\. .*ASM-EPOCH-MS-PLAUSIBLE\), a warning unless --strict\.$/, severity: 'warning' },
    },
  ],
  ['created_at in epoch seconds under --strict: a failure', { given: listBackups({ ...backup, created_at: 1_700_000_000 }), strict: true, want: /created_at` looks like epoch seconds[\s\S]*ASM-EPOCH-MS-PLAUSIBLE\)\.$/ }],
  ['created_at in epoch milliseconds under --strict', { given: listBackups({ ...backup, created_at: 1_700_000_000_000 }), strict: true, want: 'pass' }],
  [
    'expires_at of the validated key in epoch seconds: a warning',
    { given: { endpoint: 'validateApiKey', status: 200, json: { ...validatedKey, expires_at: '1893456000' } }, want: { match: /^`expires_at` looks like epoch seconds[\s\S]*"1893456000" \(string\): [\s\S]*as epoch seconds 2030-01-01T00:00:00Z/, severity: 'warning' } },
  ],
  ['expires_at of the validated key in epoch seconds under --strict', { given: { endpoint: 'validateApiKey', status: 200, json: { ...validatedKey, expires_at: '1893456000' } }, strict: true, want: /^`expires_at` looks like epoch seconds/ }],
  ['expires_at of the validated key in epoch milliseconds', { given: { endpoint: 'validateApiKey', status: 200, json: validatedKey }, strict: true, want: 'pass' }],
  ['a type error is reported before any unit', { given: listBackups({ ...backup, id: 'x', created_at: 1_700_000_000 }), strict: true, want: /^`environment\.backups\[0\]\.id` is "x"/ }],
  [
    'several values in seconds: each counted',
    { given: { endpoint: 'listBackups', status: 200, json: { environment: { display_name: 'Live', backups: [1, 2, 3, 4].map((id) => ({ ...backup, id, created_at: 1_600_000_000 + id })) } } }, want: { match: /backups\[0\][\s\S]*backups\[2\][\s\S]*; and 1 more problem\./, severity: 'warning' } },
  ],
];

describe('RESPONSE-SCHEMA', () => {
  it.each(cases)('%s', (_, c) => expectJudgement(responseSchema, c));

  it.each(api.endpoints.filter((e) => !isAck(e)).map((e) => [e.name, e] as const))('%s: bodies a conformant server may send pass', (_, e) => {
    for (const body of fc.sample(responseArb(e), { seed: 11, numRuns: 20 })) expect(judge(responseSchema, exchange({ endpoint: e, status: 200, json: body })), JSON.stringify(body)).toBe('pass');
  });

  describe('epoch milliseconds against their unit (ASM-EPOCH-MS-PLAUSIBLE)', () => {
    // Times a backup or a key expiry could mean: from the day after the bound to the year 5000.
    const instantMs = fc.integer({ min: Date.UTC(1973, 2, 4), max: Date.UTC(5000, 0, 1) });
    const backupsAt = (createdAt: number) => exchange(listBackups({ ...backup, created_at: createdAt }));
    const keyExpiring = (expiresAt: string) => exchange({ endpoint: 'validateApiKey', status: 200, json: { ...validatedKey, expires_at: expiresAt } });

    it('any time written in milliseconds passes, even under --strict', () => {
      fc.assert(fc.property(instantMs, (ms) => judge(responseSchema, backupsAt(ms), strictContext) === 'pass' && judge(responseSchema, keyExpiring(String(ms)), strictContext) === 'pass'));
    });

    it('the same time written in whole seconds warns, and fails under --strict', () => {
      fc.assert(
        fc.property(instantMs, (ms) => {
          const seconds = Math.floor(ms / 1000);
          for (const given of [backupsAt(seconds), keyExpiring(String(seconds))]) {
            expect(judge(responseSchema, given)).toMatchObject({ severity: 'warning', title: expect.stringMatching(/looks like epoch seconds/) });
            expect(judge(responseSchema, given, strictContext)).toMatchObject({ severity: 'error' });
          }
        }),
      );
    });
  });

  it('writes JSON Pointers as field paths', () => {
    expect([fieldPath(''), fieldPath('/site'), fieldPath('/a/0/b~1c/1'), fieldPath('/0')]).toEqual(['the body', 'site', 'a[0].b/c[1]', '[0]']);
  });

  it('summarizes past the limit', () => {
    expect(summarize(['a', 'b'])).toBe('a; b');
    expect(summarize(['a', 'b', 'c', 'd'])).toBe('a; b; c; and 1 more problem');
  });
});
