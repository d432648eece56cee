/**
 * FACTS-AGREE on hand-made answers: what one answer shows of what the request names, what a
 * reference in it names, what every answer to one key says its company is, and, among reads taken
 * before the run changed anything, what two answers show of the same thing and of the key in use.
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext, Exchange, Verdict } from '../types.ts';
import { factsAgree } from './facts.ts';
import { exchange, lenient, TEST_UUID, type ExchangeSpec } from './testing.ts';

const SITE = '11111111-1111-4111-8111-111111111111';
const ENV = '22222222-2222-4222-8222-222222222222';
const DOMAIN = '33333333-3333-4333-8333-333333333333';
const COMPANY = '44444444-4444-4444-8444-444444444444';
const OTHER_COMPANY = '55555555-5555-4555-8555-555555555555';
const KEY_ID = '66666666-6666-4666-8666-666666666666';

const domain = (over: Record<string, unknown> = {}) => ({ id: DOMAIN, name: 'alpha.example.com', type: 'live', site_id: SITE, ...over });
const summary = (over: Record<string, unknown> = {}) => ({ id: ENV, name: 'staging', display_name: 'Staging', is_premium: false, is_blocked: false, domains: [domain()], primaryDomain: domain(), ...over });
const site = (over: Record<string, unknown> = {}, env: Record<string, unknown> = {}) => ({ site: { id: SITE, name: 'alpha', display_name: 'Alpha', company_id: COMPANY, status: 'live', environments: [summary(env)], ...over } });
const environment = (over: Record<string, unknown> = {}) => ({
  ...summary(),
  id_edge_cache: TEST_UUID,
  cdn_cache_id: TEST_UUID,
  is_opt_out_from_automatic_php_update: false,
  web_root: '/public',
  image_optimization_type: 'lossy',
  is_additional_sftp_accounts_enabled: true,
  cms_version: '6.4.2',
  ssh_connection: { ssh_port: '22', ssh_ip: { external_ip: '34.1.2.3' } },
  container_info: { id: '77777777-7777-4777-8777-777777777777', php_engine_version: 'php8.2' },
  ...over,
});

/** A read as discovery takes it (before anything could change), or as a later probe does. */
const read = (spec: ExchangeSpec, snapshot = true): Exchange => {
  const x = exchange(spec);
  return snapshot ? { ...x, probe: { ...x.probe, snapshot: true } } : x;
};
const siteRead = (over?: Record<string, unknown>, env?: Record<string, unknown>, snapshot = true) => read({ endpoint: 'getSite', path: { site_id: SITE }, json: site(over, env) }, snapshot);
const envList = (env: Record<string, unknown> = {}, snapshot = true) => read({ endpoint: 'listEnvironments', path: { site_id: SITE }, json: { site: { environments: [environment(env)] } } }, snapshot);

/** Judges each exchange in order in one run (one context); the verdicts, `pass` or `skip` for each. */
function run(...exchanges: Exchange[]): ('pass' | 'skip' | Verdict)[] {
  const context: CheckContext = { ...lenient };
  return exchanges.map((x) => (factsAgree.applies(x) ? (factsAgree.check(context, x) ?? 'pass') : 'skip'));
}
const verdict = (got: 'pass' | 'skip' | Verdict): Verdict => {
  expect(got, 'a verdict').toBeTypeOf('object');
  return got as Verdict;
};

describe('FACTS-AGREE within one answer', () => {
  it('an answer about what the request names carries that id', () => {
    const wrong = read({ endpoint: 'getFileList', path: { env_id: ENV }, json: { environment: { id: TEST_UUID, file_list: [] } } });
    expect(verdict(run(wrong)[0]!).message).toMatch(/environment\.id.*the request names environment 22222222/);
    const right = read({ endpoint: 'getFileList', path: { env_id: ENV }, json: { environment: { id: ENV.toUpperCase(), file_list: [] } } });
    expect(run(right)).toEqual(['pass']);
  });

  it("a reference to what the answer is about names it: a domain's site_id in its site's answer", () => {
    expect(verdict(run(siteRead({}, { domains: [domain({ site_id: ENV })], primaryDomain: domain({ site_id: ENV }) }))[0]!).message).toMatch(/site_id.*answer about site 11111111/);
    expect(run(siteRead({}, { domains: [domain({ site_id: SITE.toUpperCase() })] }))).toEqual(['pass']);
  });

  it('judges only successful answers of reads in its scope', () => {
    expect(run(read({ endpoint: 'getSite', status: 404, json: { message: 'x', status: 404 } }), read({ endpoint: 'listAvailableRegions', json: { company: { available_regions: [] } } }))).toEqual(['skip', 'skip']);
  });
});

describe('FACTS-AGREE across answers', () => {
  it("a site's environment summary and the environments list agree, field by field; the disagreement fails both", () => {
    const first = siteRead();
    const [, second] = run(first, envList({ is_premium: true }));
    const v = verdict(second!);
    expect(v.message).toMatch(/environment 22222222.*is_premium.*true.*GET \/sites\/\{site_id\} showed.*false/);
    expect(v.alsoOn).toEqual([first]);
  });

  it('compares lists of things as sets of ids (order aside), and ids as UUIDs (case aside)', () => {
    const two = [domain(), domain({ id: TEST_UUID, name: 'beta.example.com' })];
    expect(run(siteRead({}, { domains: two }), envList({ domains: [...two].reverse().map((d) => ({ ...d, id: String(d.id).toUpperCase() })) }))).toEqual(['pass', 'pass']);
    const [, missing] = run(siteRead({}, { domains: two }), envList({ domains: [two[0]] }));
    expect(verdict(missing!).message).toMatch(/domains/);
  });

  it('compares only reads taken before the run changed anything; a later read may differ (an action may have changed it)', () => {
    expect(run(siteRead(), envList({ display_name: 'Renamed' }, false))).toEqual(['pass', 'pass']);
  });

  it("the company of a key: every company a key's answers name is one, in any answer", () => {
    const validate = read({ endpoint: 'validateApiKey', json: { name: 'ci', expires_at: '1893499200123', company: COMPANY, status: 'active' } });
    const [, ok, , wrong] = run(validate, siteRead(), validate, siteRead({ company_id: OTHER_COMPANY }, {}, false));
    expect(ok).toBe('pass');
    expect(verdict(wrong!).message).toMatch(/company_id.*55555555.*GET \/validate showed.*44444444/);
  });

  it("the key GET /validate describes is among its company's keys: the same name and status, `expires_at` the same instant in both forms", () => {
    const validate = read({ endpoint: 'validateApiKey', json: { name: 'ci', expires_at: '1893499200123', company: COMPANY, status: 'active' } });
    const keys = (expires: string) => read({ endpoint: 'listApiKeys', path: { id: COMPANY }, json: { api_keys: [{ id: KEY_ID, name: 'ci', status: 'active', expires_at: expires }] } });
    expect(run(validate, keys('2030-01-01T12:00:00.123Z'))).toEqual(['pass', 'pass']);
    const [, lost] = run(validate, keys('2030-01-01T12:00:00.000Z'));
    expect(verdict(lost!).message).toMatch(/the key in use.*expires_at.*is not among its company's keys/);
  });
});
