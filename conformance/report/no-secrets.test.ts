/**
 * Secrets never reach a report: a run whose requests and responses are full of both tenants' keys
 * (raw, in HTTP Basic, in the query string, echoed JSON-escaped the PHP way, upper-cased, cut
 * short) and of secret field values goes through the runner and every reporter (GitHub's job
 * summary too), and the output is searched for every form of every secret, computed here, not by
 * the sanitizer.
 */
import { describe, expect, it } from 'vitest';
import { phpJsonEncode } from '../../sanitize/echo-forms.ts';
import { endpoint } from '../../spec/queries.ts';
import { runConformance } from '../runner.ts';
import type { Check, Probe, Send, Target } from '../types.ts';
import { renderConsole } from './console.ts';
import { renderGithub } from './github.ts';
import { renderJobSummary } from './job-summary.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';

const KEY = 'hsc_main_0123456789abcdef';
const OTHER = 'hsc_other/with+odd=chars&x';
const SFTP = 'sftp-secret-abc123def456';
const ADMIN = 'Adm1n-P@ss "quoted"';

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

/** Echoes everything back, in several encodings, and hands out the SFTP password. */
const leakySend: Send = async (p) => {
  const body = { echo: p.request, key: KEY, environment: { id: 'e', sftp_password: SFTP }, note: `password ${SFTP}, admin ${ADMIN}`, shout: OTHER.toUpperCase(), cut: `${KEY.slice(0, 14)}…` };
  const text = phpJsonEncode(body);
  return { probe: p, response: { status: 200, headers: { 'content-type': 'application/json', 'x-echo-key': OTHER }, text, json: body, ms: 1 }, throttled: 0 };
};

/** Fails everything, quoting the response in its message as a careless check might. */
const quoting: Check = {
  rule: 'AUTH-401',
  applies: (e) => e.response !== undefined,
  check: (_, e) => ({ title: `served ${e.probe.title} with ${KEY}`, message: `body: ${e.response!.text}` }),
};

describe('no secret in any report format', () => {
  it('console, json, junit and github output, and the job summary, carry no key and no secret field value', async () => {
    const report = await runConformance({
      target,
      seed: 1,
      runs: 1,
      options: { strict: false },
      send: leakySend,
      suite: { checks: [quoting], probeSources: [() => ({ probes, skipped: [] })], scenarioSources: [] },
    });
    // The two on GET /sites/{site_id} are one symptom: the second is an example, its request in the reports too.
    expect(report.failures).toHaveLength(probes.length - 1);
    expect(report.failures.find((f) => f.operation === 'GET /sites/{site_id}')?.examples?.map((e) => e.probe)).toEqual(['x-api-key']);
    const outputs = { console: renderConsole(report), json: renderJson(report), junit: renderJunit(report), github: renderGithub(report), 'job summary': renderJobSummary(report) };
    const forms = (v: string) => [v, encodeURIComponent(v), Buffer.from(`${v}:`).toString('base64'), Buffer.from(v).toString('base64'), JSON.stringify(v).slice(1, -1), v.toUpperCase(), v.slice(0, 12)];
    const forbidden = [...forms(KEY), ...forms(OTHER), ...forms(SFTP), ...forms(ADMIN)];
    for (const [format, text] of Object.entries(outputs)) {
      for (const secret of forbidden) expect(text.includes(secret), `${format} holds ${secret}`).toBe(false);
      expect(text).toContain('[redacted');
    }
    // The curl lines name the keys by variable.
    expect(report.failures.map((f) => f.curl).join('\n')).toMatch(/"\$HSC_API_KEY"[\s\S]*"\$HSC_OTHER_API_KEY"/);
  });
});
