/**
 * The mock's request log passes the project's one sanitizer: a fixture secret a client puts in a
 * path, in any form the sanitizer knows, leaves only a marker naming the key (or a plain one for
 * a secret field's value). Log lines carry no header, query or body at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeRegex } from '../spec/queries.ts';
import { startMock, type RunningMock } from './server.ts';

let mock: RunningMock;
const lines: string[] = [];
beforeAll(async () => {
  mock = await startMock({ port: 0, log: (line) => lines.push(line) });
});
afterAll(() => mock.close());

/** The log lines one request left. */
async function logOf(path: string, init: RequestInit = {}): Promise<string[]> {
  const from = lines.length;
  await (await fetch(`${mock.url}${path}`, init)).arrayBuffer();
  return lines.slice(from);
}

const sftpPassword = () => mock.store.companies[0]!.sites[0]!.environments[0]!.sftpPassword;
const base64 = (text: string) => Buffer.from(text).toString('base64url');

describe('the request log', () => {
  const cases: readonly [string, { given: () => { path: string; secret: string }; want: string }][] = [
    ['the first key in a path', { given: () => ({ path: `/sites/${mock.fixtures.apiKey}`, secret: mock.fixtures.apiKey }), want: '/v2/sites/[redacted HSC_API_KEY] 404' }],
    ['the other key in a path', { given: () => ({ path: `/sites/${mock.fixtures.otherApiKey}`, secret: mock.fixtures.otherApiKey }), want: '/v2/sites/[redacted HSC_OTHER_API_KEY] 404' }],
    ['a key in upper case', { given: () => ({ path: `/sites/${mock.fixtures.apiKey.toUpperCase()}`, secret: mock.fixtures.apiKey.toUpperCase() }), want: '/v2/sites/[redacted HSC_API_KEY] 404' }],
    ['a key in base64', { given: () => ({ path: `/sites/${base64(mock.fixtures.apiKey)}`, secret: base64(mock.fixtures.apiKey) }), want: '/v2/sites/[redacted HSC_API_KEY] 404' }],
    ['an SFTP password in a path', { given: () => ({ path: `/sites/${sftpPassword()}`, secret: sftpPassword() }), want: '/v2/sites/[redacted] 404' }],
  ];
  it.each(cases)('hides %s', async (_, { given, want }) => {
    const { path, secret } = given();
    const logged = await logOf(path, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(new RegExp(`^GET ${escapeRegex(want)} `));
    expect(logged[0]).not.toContain(secret);
  });

  it('holds no header, query or body', async () => {
    const logged = await logOf(`/validate?api_key=${mock.fixtures.apiKey}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.otherApiKey}`, 'x-extra': 'header-value' },
      body: JSON.stringify({ sftp_password: sftpPassword() }),
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^POST \/v2\/validate \d{3} [\d.]+ms$/);
  });
});
