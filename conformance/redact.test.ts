/**
 * Secrets never reach a report: a run whose requests and responses are full of both tenants' keys
 * (raw, in HTTP Basic, in the query string) and of secret field values goes through the runner
 * and all three reporters, and the output is searched for every form of every secret.
 */
import { describe, expect, it } from 'vitest';
import { endpoint } from '../spec/queries.ts';
import { createRedactor, REDACTED, secretForms } from './redact.ts';
import { renderConsole } from './report/console.ts';
import { renderJson } from './report/json.ts';
import { renderJunit } from './report/junit.ts';
import { runConformance } from './runner.ts';
import type { Check, Probe, Send, Target } from './types.ts';

const KEY = 'hsc_main_0123456789abcdef';
const OTHER = 'hsc_other/with+odd=chars&x';
const SFTP = 'sftp-secret-abc123def456';
const ADMIN = 'Adm1n-P@ss "quoted"';

describe('createRedactor', () => {
  const r = createRedactor([
    { value: KEY, name: 'HSC_API_KEY' },
    { value: OTHER, name: 'HSC_OTHER_API_KEY' },
  ]);

  it.each([
    ['a bearer header', `Bearer ${KEY}`, 'Bearer [redacted HSC_API_KEY]'],
    ['HTTP Basic', `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, 'Basic [redacted HSC_API_KEY]'],
    ['a URL-encoded key in a query string', `/validate?api_key=${encodeURIComponent(OTHER)}`, '/validate?api_key=[redacted HSC_OTHER_API_KEY]'],
    ['a secret JSON field', '{"environment":{"id":"e","sftp_password":"x\\"y"}}', `{"environment":{"id":"e","sftp_password":"${REDACTED}"}}`],
    ['a non-string secret field', '{"admin_password": 12345, "a": 1}', `{"admin_password": "${REDACTED}", "a": 1}`],
  ])('%s', (_, input, want) => {
    expect(r.text(input)).toBe(want);
  });

  it.each([
    ['cut inside the value', '{"environment":{"sftp_password":"s3cr3t-pa'],
    ['cut after an escape', '{"environment":{"sftp_password":"s3cr3t\\'],
    ['whole, with an escaped quote', '{"sftp_password":"s3cr3t\\"x","n":1}'],
  ])('redacts a secret field of text cut short by a cap: %s', (_, text) => {
    const out = createRedactor([]).text(text);
    expect(out).not.toContain('s3cr3t');
    expect(out).toContain(`"sftp_password":"${REDACTED}"`);
  });

  it('redacts secret fields in parsed values and learned values anywhere', () => {
    const learner = createRedactor([]);
    learner.learn({ environment: { sftp_password: SFTP } });
    expect(learner.value({ environment: { sftp_password: SFTP }, message: `the password is ${SFTP}` })).toEqual({
      environment: { sftp_password: REDACTED },
      message: `the password is ${REDACTED}`,
    });
  });
});

/** A target whose two keys are the secrets; ids are not needed by the stub probes. */
const target: Target = {
  baseUrl: 'http://127.0.0.1:9/v2',
  main: { apiKey: KEY, ids: { companyId: 'c', siteId: 's', envIds: ['e'], envId: 'e', sftpAccountIds: [] } },
  other: { apiKey: OTHER, ids: { companyId: 'c2', siteId: 's2', envIds: ['e2'], envId: 'e2', sftpAccountIds: [] } },
  allowDestructive: true,
  embedded: false,
};

const probe = (name: string, title: string, headers: Record<string, string>, body?: string, query = ''): Probe => ({
  rule: 'AUTH-401',
  endpoint: endpoint(name),
  expect: 'unauthorized',
  title,
  request: { method: endpoint(name).method, url: `${target.baseUrl}${endpoint(name).path}${query}`, headers, ...(body === undefined ? {} : { body }) },
});

const probes: Probe[] = [
  probe('getSftpPassword', 'bearer', { authorization: `Bearer ${KEY}` }),
  probe('getSite', 'basic', { authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}` }),
  probe('validateApiKey', 'query', {}, undefined, `?api_key=${encodeURIComponent(OTHER)}`),
  probe('getSite', 'x-api-key', { 'x-api-key': OTHER }),
  probe('resetSite', 'reset', { authorization: `Bearer ${OTHER}`, 'content-type': 'application/json' }, JSON.stringify({ admin_password: ADMIN })),
];

/** Echoes everything back, and hands out the SFTP password. */
const leakySend: Send = async (p) => {
  const body = { echo: p.request, key: KEY, environment: { id: 'e', sftp_password: SFTP }, note: `password ${SFTP}, admin ${ADMIN}` };
  const text = JSON.stringify(body);
  return { probe: p, response: { status: 200, headers: { 'content-type': 'application/json', 'x-echo-key': OTHER }, text, json: body, ms: 1 }, throttled: 0 };
};

/** Fails everything, quoting the response in its message as a careless check might. */
const quoting: Check = {
  rule: 'AUTH-401',
  applies: (e) => e.response !== undefined,
  check: (_, e) => ({ title: `served ${e.probe.title} with ${KEY}`, message: `body: ${e.response!.text}` }),
};

describe('no secret in any report format', () => {
  it('console, json and junit output carry no key and no secret field value', async () => {
    const report = await runConformance({
      target,
      seed: 1,
      runs: 1,
      options: { strict: false },
      send: leakySend,
      suite: { checks: [quoting], probeSources: [() => ({ probes, skipped: [] })], scenarioSources: [] },
    });
    expect(report.failures).toHaveLength(probes.length);
    const outputs = { console: renderConsole(report), json: renderJson(report), junit: renderJunit(report) };
    const forbidden = [...secretForms(KEY), ...secretForms(OTHER), SFTP, ADMIN, JSON.stringify(ADMIN).slice(1, -1)];
    for (const [format, text] of Object.entries(outputs)) {
      for (const secret of forbidden) expect(text.includes(secret), `${format} holds ${secret}`).toBe(false);
      expect(text).toContain('[redacted');
    }
    // The curl lines name the keys by variable.
    expect(report.failures.map((f) => f.curl).join('\n')).toMatch(/"\$HSC_API_KEY"[\s\S]*"\$HSC_OTHER_API_KEY"/);
  });
});
