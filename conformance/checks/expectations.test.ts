import { describe, expect, it } from 'vitest';
import type { RuleId } from '../../spec/model.ts';
import { endpoint } from '../../spec/queries.ts';
import { validRequest } from '../../spec/operators/operator.ts';
import { expectationCheck, hasMalformedPathId, input400, inputAccept, limitExpInterval, limitWebRootSubfolder, limitWpCommand, pathParamsOf, read404 } from './expectations.ts';
import { exchange, expectJudgement, TEST_UUID, type Case } from './testing.ts';

const err = (status: number, message = 'error') => ({ message, status });
const notFound = { rule: 'READ-404', expect: 'not-found' } as const;

describe('READ-404', () => {
  const cases: [string, Case][] = [
    ['random UUID answered 404', { given: { ...notFound, endpoint: 'getSite', status: 404, json: err(404) }, want: 'pass' }],
    ['random UUID served', { given: { ...notFound, endpoint: 'getSite', status: 200, json: { site: {} } }, want: /answered 200, expected 404[\s\S]*as if the data existed/ }],
    ['random UUID answered 400', { given: { ...notFound, endpoint: 'listCompanyUsers', status: 400, json: err(400) }, want: /answered 400, expected 404/ }],
    ['random UUID answered 401', { given: { ...notFound, endpoint: 'listBackups', status: 401, json: err(401, 'No or invalid API key provided') }, want: /answered 401, expected 404[\s\S]*"No or invalid API key provided"/ }],
    // Reads whose table lists 400: a non-UUID id may be either.
    ['non-UUID id, table lists 400: 400', { given: { ...notFound, endpoint: 'getSshStatus', path: { env_id: 'not-a-uuid' }, status: 400, json: err(400) }, want: 'pass' }],
    ['non-UUID id, table lists 400: 404', { given: { ...notFound, endpoint: 'getSshStatus', path: { env_id: 'not-a-uuid' }, status: 404, json: err(404) }, want: 'pass' }],
    ['non-UUID id, table lists 400, --strict: 400', { given: { ...notFound, endpoint: 'getSftpPassword', path: { env_id: '12345' }, status: 400, json: err(400) }, strict: true, want: 'pass' }],
    ['non-UUID id, table lists 400: 200', { given: { ...notFound, endpoint: 'getSshStatus', path: { env_id: 'not-a-uuid' }, status: 200, json: {} }, want: /expected 400 or 404[\s\S]*the endpoint's table lists 400/ }],
    // CONFLICT-READ-MALFORMED-ID: 400 accepted either side unless --strict.
    ['non-UUID id, CONFLICT-READ-MALFORMED-ID: 400', { given: { ...notFound, endpoint: 'getSite', path: { site_id: 'x'.repeat(36) }, status: 400, json: err(400) }, want: 'pass' }],
    [
      'non-UUID id, CONFLICT-READ-MALFORMED-ID, --strict: 400',
      { given: { ...notFound, endpoint: 'getSite', path: { site_id: 'x'.repeat(36) }, status: 400, json: err(400) }, strict: true, want: /expected 404[\s\S]*with --strict the 400 of CONFLICT-READ-MALFORMED-ID is not accepted/ },
    ],
    ['non-UUID id, CONFLICT-READ-MALFORMED-ID, --strict: 404', { given: { ...notFound, endpoint: 'getSite', path: { site_id: '0' }, status: 404, json: err(404) }, strict: true, want: 'pass' }],
    // CONFLICT-DNS-READ-404 lets 404 through; CONFLICT-READ-MALFORMED-ID lets 400 through for non-UUID ids.
    ['DNS records, non-UUID domain: 404', { given: { ...notFound, endpoint: 'listDnsRecords', path: { domain_id: 'example.com' }, status: 404, json: err(404) }, want: 'pass' }],
    ['DNS records, non-UUID domain: 400', { given: { ...notFound, endpoint: 'listDnsRecords', path: { domain_id: 'example.com' }, status: 400, json: err(400) }, want: 'pass' }],
    ['DNS records, non-UUID domain: 400, --strict', { given: { ...notFound, endpoint: 'listDnsRecords', path: { domain_id: 'example.com' }, status: 400, json: err(400) }, strict: true, want: /answered 400, expected 404/ }],
    // The letter of CONFLICT-DNS-READ-404 lists no 404: a success that reveals nothing holds, one with data does not.
    ['DNS records, unknown domain: 200 with no records', { given: { ...notFound, endpoint: 'listDnsRecords', path: { domain_id: TEST_UUID }, status: 200, json: { domain: { dns_records: [] } } }, want: 'pass' }],
    ['DNS records, unknown domain: 200 with records', { given: { ...notFound, endpoint: 'listDnsRecords', path: { domain_id: TEST_UUID }, status: 200, json: { domain: { dns_records: [{ type: 'A', name: 'x.example', ttl: 60, resource_records: [] }] } } }, want: /expected 404, or a success that reveals no data/ }],
    ['a hollow 200 does not hold where the table lists 404', { given: { ...notFound, endpoint: 'getSite', path: { site_id: TEST_UUID }, status: 200, json: { site: {} } }, want: /expected 404/ }],
    ['uppercase UUID is a UUID', { given: { ...notFound, endpoint: 'getSite', path: { site_id: TEST_UUID.toUpperCase() }, status: 400, json: err(400) }, want: /expected 404/ }],
    ['no answer', { given: { ...notFound, failure: 'timeout' }, want: /^no answer: timeout after 10000 ms\n.*the probe expected 404\.$/ }],
    ['observe probe (e.g. --strict on a conflict)', { given: { rule: 'READ-404', expect: 'observe', status: 200, json: {} }, want: 'skip' }],
    ["another rule's probe", { given: { rule: 'INPUT-400', expect: 'invalid', status: 200, json: {} }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(read404, c));
});

describe('AUTH-401: another company\'s key on this company\'s data', () => {
  const foreign = { rule: 'AUTH-401', expect: 'foreign-key' } as const;
  const cases: [string, Case][] = [
    ['401', { given: { ...foreign, endpoint: 'getSite', status: 401, json: err(401) }, want: 'pass' }],
    ['404 (its user may not read it)', { given: { ...foreign, endpoint: 'listBackups', status: 404, json: err(404) }, want: 'pass' }],
    ['served', { given: { ...foreign, endpoint: 'getSite', status: 200, json: { site: { id: TEST_UUID } } }, want: /answered 200, expected 401 or 404[\s\S]*another company's/ }],
    ['400', { given: { ...foreign, endpoint: 'getSite', status: 400, json: err(400) }, want: /answered 400, expected 401 or 404/ }],
    // Where the table lists no 404 (the DNS read, CONFLICT-DNS-READ-404's letter), a success that shows nothing holds; data does not.
    ['DNS read: a success showing no records', { given: { ...foreign, endpoint: 'listDnsRecords', path: { domain_id: TEST_UUID }, status: 200, json: { domain: { dns_records: [] } } }, want: 'pass' }],
    ['DNS read: the records served', { given: { ...foreign, endpoint: 'listDnsRecords', path: { domain_id: TEST_UUID }, status: 200, json: { domain: { dns_records: [{ type: 'A', name: 'x.example', ttl: 60, resource_records: [] }] } } }, want: /expected 401 or 404, or a success that reveals no data/ }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(expectationCheck('AUTH-401'), c));
});

describe('ISOLATION-WRITE: an action naming another company\'s data', () => {
  const foreignWrite = { rule: 'ISOLATION-WRITE', expect: 'foreign-write', endpoint: 'restoreBackup', requestBody: '{"backup_id":2001,"notified_user_id":"' + TEST_UUID + '"}' } as const;
  const cases: [string, Case][] = [
    ['400', { given: { ...foreignWrite, status: 400, json: err(400) }, want: 'pass' }],
    ['404 (CONFLICT-ACTION-UNKNOWN-RESOURCE, reading side)', { given: { ...foreignWrite, status: 404, json: err(404) }, want: 'pass' }],
    ['404 under --strict: the table lists 400 only', { given: { ...foreignWrite, status: 404, json: err(404) }, strict: true, want: /answered 404, expected 400\b/ }],
    ['acknowledged', { given: { ...foreignWrite, status: 202, json: { operation_id: 'backups:restore-x', message: 'ok', status: 202 } }, want: /answered 202, expected 400 or 404[\s\S]*accepted to act on another company's data/ }],
    ['401 (the key is this company\'s and valid)', { given: { ...foreignWrite, status: 401, json: err(401) }, want: /answered 401, expected 400 or 404/ }],
    ["another rule's probe", { given: { rule: 'INPUT-400', expect: 'invalid', endpoint: 'restoreBackup', status: 202, json: {} }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(expectationCheck('ISOLATION-WRITE'), c));
});

describe('INPUT-400', () => {
  const invalid = { rule: 'INPUT-400', expect: 'invalid', endpoint: 'restoreBackup', requestBody: '{"backup_id":1.5}' } as const;
  const cases: [string, Case][] = [
    ['400', { given: { ...invalid, status: 400, json: err(400) }, want: 'pass' }],
    ['acknowledged', { given: { ...invalid, status: 202, json: {} }, want: /answered 202, expected 400[\s\S]*accepted a request that breaks a stated constraint/ }],
    ['500', { given: { ...invalid, status: 500, json: err(500, 'boom') }, want: /answered 500, expected 400[\s\S]*\(the server said "boom"\)/ }],
    ['404', { given: { ...invalid, status: 404, json: err(404) }, want: /answered 404, expected 400/ }],
    ['no answer', { given: { ...invalid, failure: 'protocol' }, want: /^no answer: malformed HTTP answer after 10000 ms/ }],
    ['valid probe of another rule', { given: { rule: 'INPUT-ACCEPT', expect: 'valid', status: 400, json: err(400) }, want: 'skip' }],
    // Unknown ids on purpose (live target, no --allow-destructive): CONFLICT-ACTION-UNKNOWN-RESOURCE lets 404 refuse too.
    ['unknown ids on purpose: 404', { given: { ...invalid, idsUnknown: true, status: 404, json: err(404) }, want: 'pass' }],
    ['unknown ids on purpose: 400', { given: { ...invalid, idsUnknown: true, status: 400, json: err(400) }, want: 'pass' }],
    ['unknown ids on purpose: 404, --strict', { given: { ...invalid, idsUnknown: true, status: 404, json: err(404) }, strict: true, want: /answered 404, expected 400/ }],
    ['unknown ids on purpose: acknowledged', { given: { ...invalid, idsUnknown: true, status: 202, json: {} }, want: /answered 202, expected 400 or 404/ }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(input400, c));
});

describe('INPUT-ACCEPT', () => {
  const valid = { rule: 'INPUT-ACCEPT', expect: 'valid' } as const;
  const cases: [string, Case][] = [
    ['read 200', { given: { ...valid, endpoint: 'getSite', status: 200, json: {} }, want: 'pass' }],
    ['read 203', { given: { ...valid, endpoint: 'getSite', status: 203, json: {} }, want: 'pass' }],
    ['read 204', { given: { ...valid, endpoint: 'getSite', status: 204 }, want: /answered 204, expected 2xx other than 202 and 204/ }],
    ['other action 201', { given: { ...valid, endpoint: 'createWpAdminUser', status: 201, json: {} }, want: 'pass' }],
    ['other action 202', { given: { ...valid, endpoint: 'changeSshExpirationInterval', status: 202, json: {} }, want: /answered 202/ }],
    ['acknowledged action 202', { given: { ...valid, endpoint: 'clearCdnCache', status: 202, json: {} }, want: 'pass' }],
    ['acknowledged action 200 instead of 202', { given: { ...valid, endpoint: 'clearCdnCache', status: 200, json: {} }, want: /answered 200, expected 202/ }],
    ['refused with the reason', { given: { ...valid, endpoint: 'runWpCliCommand', status: 400, json: err(400, 'wp_command is invalid') }, want: /answered 400, expected 202[\s\S]*valid under every reasonable reading[\s\S]*"wp_command is invalid"/ }],
    ['5xx', { given: { ...valid, endpoint: 'searchAndReplace', status: 503, text: 'upstream down', contentType: 'text/plain' }, want: /answered 503, expected 202/ }],
    ['no answer', { given: { ...valid, failure: 'other' }, want: /^no answer: transport error after 10000 ms[\s\S]*expected 2xx other than 202 and 204/ }],
    // A read about data no read lists (a site-admin user by address): "data that does not exist ... yields 404".
    ['read of unlisted data: 404 holds', { given: { ...valid, endpoint: 'checkWpAdminUserExists', status: 404, json: err(404) }, want: 'pass' }],
    ['read of listed data: 404 fails', { given: { ...valid, endpoint: 'getSite', status: 404, json: err(404) }, want: /answered 404, expected 2xx/ }],
    ['refusal of a request resting on an assumption names it', { given: { ...valid, endpoint: 'checkWpAdminUserExists', status: 400, json: err(400) }, want: /answered 400[\s\S]*rests on ASM-WPA-QUERY-EMAIL for `email`/ }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(inputAccept, c));
});

describe('LIMIT-*: the probe decides which way', () => {
  const limits: [RuleId, string][] = [
    ['LIMIT-WP-COMMAND', 'runWpCliCommand'],
    ['LIMIT-EXP-INTERVAL', 'changeSshExpirationInterval'],
    ['LIMIT-WEB-ROOT-SUBFOLDER', 'changeWebrootSubfolder'],
  ];
  const cases = limits.flatMap(([rule, name]): [string, Case][] => {
    const e = endpoint(name);
    const ok = e.success.kind === 'ack' ? 202 : 200;
    return [
      [`${rule} invalid → 400`, { given: { rule, endpoint: name, expect: 'invalid', status: 400, json: err(400) }, want: 'pass' }],
      [`${rule} invalid accepted`, { given: { rule, endpoint: name, expect: 'invalid', status: ok, json: {} }, want: new RegExp(`answered ${ok}, expected 400`) }],
      [`${rule} valid → success`, { given: { rule, endpoint: name, expect: 'valid', status: ok, json: {} }, want: 'pass' }],
      [`${rule} valid refused`, { given: { rule, endpoint: name, expect: 'valid', status: 400, json: err(400) }, want: /answered 400, expected/ }],
      [`${rule} no answer`, { given: { rule, endpoint: name, expect: 'invalid', failure: 'timeout' }, want: /^no answer: timeout/ }],
      [`${rule} observe`, { given: { rule, endpoint: name, expect: 'observe', status: 500, json: err(500) }, want: 'skip' }],
    ];
  });
  it.each(cases)('%s', (name, c) => expectJudgement(expectationCheck(limits.find(([rule]) => name.startsWith(`${rule} `))![0]), c));
});

describe('LIMIT-*: every valid request that holds the limited field alone', () => {
  const limited = { 'LIMIT-EXP-INTERVAL': limitExpInterval, 'LIMIT-WP-COMMAND': limitWpCommand, 'LIMIT-WEB-ROOT-SUBFOLDER': limitWebRootSubfolder } as const;
  const valid = (name: string, body: Record<string, unknown>, status: number) => exchange({ endpoint: name, rule: 'INPUT-ACCEPT', expect: 'valid', requestBody: JSON.stringify(body), status, json: err(status) });
  const withOperator = (x: ReturnType<typeof valid>, id: string) => ({ ...x, probe: { ...x.probe, operator: { id, rank: 0, drawn: false } } });
  const judge = (rule: keyof typeof limited, x: ReturnType<typeof valid>) => (limited[rule].applies(x) ? limited[rule].check({ options: { strict: false } }, x) : 'skip');

  it('a refusal of such a request fails the limit too, saying which field', () => {
    const refused = judge('LIMIT-EXP-INTERVAL', withOperator(valid('changeSshExpirationInterval', { exp_interval: 'days_7' }, 400), validRequest.id));
    expect(refused).toMatchObject({ title: expect.stringMatching(/answered 400, expected/), message: expect.stringMatching(/holds `exp_interval` alone, a value the limit allows, was refused/) });
    expect(judge('LIMIT-WP-COMMAND', withOperator(valid('runWpCliCommand', { wp_command: 'wp plugin list' }, 422), validRequest.id))).toMatchObject({ title: expect.stringMatching(/answered 422/) });
  });

  it('not its business: a success, a server error, another field beside it, another operator, another rule\'s field', () => {
    expect(judge('LIMIT-EXP-INTERVAL', withOperator(valid('changeSshExpirationInterval', { exp_interval: 'days_7' }, 200), validRequest.id))).toBe('skip');
    expect(judge('LIMIT-EXP-INTERVAL', withOperator(valid('changeSshExpirationInterval', { exp_interval: 'days_7' }, 500), validRequest.id))).toBe('skip');
    expect(judge('LIMIT-EXP-INTERVAL', withOperator(valid('changeSshExpirationInterval', { exp_interval: 'days_7', extra: 1 }, 400), validRequest.id))).toBe('skip');
    expect(judge('LIMIT-EXP-INTERVAL', withOperator(valid('changeSshExpirationInterval', { exp_interval: 'days_7' }, 400), 'valid:client-shape'))).toBe('skip');
    expect(judge('LIMIT-EXP-INTERVAL', valid('changeSshExpirationInterval', { exp_interval: 'days_7' }, 400))).toBe('skip');
    expect(judge('LIMIT-WP-COMMAND', withOperator(valid('changeSshExpirationInterval', { exp_interval: 'days_7' }, 400), validRequest.id))).toBe('skip');
  });
});

describe('path ids read back from the URL', () => {
  it('reads each parameter under any base path, decoded', () => {
    const e = endpoint('restoreBackup');
    expect(pathParamsOf(e, `https://api.example.com/prefix/v2/sites/environments/${TEST_UUID}/backups/restore`)).toEqual({ target_env_id: TEST_UUID });
    expect(pathParamsOf(endpoint('getSite'), 'http://h/v2/sites/a%20b%2Fc?x=1')).toEqual({ site_id: 'a b/c' });
    expect(pathParamsOf(endpoint('getSite'), 'http://h/v2/other')).toBeUndefined();
    expect(pathParamsOf(endpoint('validateApiKey'), 'http://h/v2/validate')).toEqual({});
  });

  it('tells malformed ids from UUIDs of either case', () => {
    const at = (site_id: string) => hasMalformedPathId(exchange({ endpoint: 'getSite', path: { site_id } }));
    expect([TEST_UUID, TEST_UUID.toUpperCase(), 'nope', '', `${TEST_UUID}x`].map(at)).toEqual([false, false, true, true, true]);
  });
});
