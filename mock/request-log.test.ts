/**
 * The mock's request log passes the project's one sanitizer: a fixture secret a client puts in a
 * path, in any form the sanitizer knows, leaves only a marker naming the key (or a plain one for
 * a secret field's value). Log lines carry no header and no query; bodies appear as JSON with
 * secret fields' values redacted, in text or (`logFormat: 'json'`) one JSON object per line. A
 * refused request's line says why: the problems or the hint its answer gave.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { escapeRegex, fillPath, secretFieldNames } from '../spec/queries.ts';
import { keySecret, Sanitizer } from '../sanitize/sanitizer.ts';
import { refusalOf, RequestLog, requestEntry } from './request-log.ts';
import { startMock, type RunningMock } from './server.ts';

let mock: RunningMock;
let jsonMock: RunningMock;
const lines: string[] = [];
const jsonLines: string[] = [];
beforeAll(async () => {
  mock = await startMock({ port: 0, log: (line) => lines.push(line) });
  jsonMock = await startMock({ port: 0, log: (line) => jsonLines.push(line), logFormat: 'json' });
});
afterAll(() => Promise.all([mock.close(), jsonMock.close()]));

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

  it('holds no header and no query; a body shows with its secret field redacted', async () => {
    const logged = await logOf(`/validate?api_key=${mock.fixtures.apiKey}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.otherApiKey}`, 'x-extra': 'header-value', 'content-type': 'application/json' },
      body: JSON.stringify({ sftp_password: sftpPassword(), note: 'kept' }),
    });
    expect(logged).toHaveLength(1);
    // The refusal's words follow the body: a POST to /validate is no endpoint (the hint names GET).
    expect(logged[0]).toMatch(/^POST \/v2\/validate 404 [\d.]+ms body=\{.*"note":"kept".*\} hint: [^{}]*$/);
    for (const hidden of [sftpPassword(), mock.fixtures.apiKey, mock.fixtures.otherApiKey, 'header-value']) expect(logged[0]).not.toContain(hidden);
  });

  it('a body refused whole (no problem list) is logged with the reason its message gives', async () => {
    const env = mock.store.companies[0]!.sites[0]!.environments[0]!.id;
    const logged = await logOf(`/sites/environments/${env}/run-wp-cli-command`, { method: 'POST', headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'text/plain' }, body: '{"wp_command":"wp plugin list"}' });
    expect(logged[0]).toMatch(/ 400 [\d.]+ms body=.* problems: \(body\) the body must be application\/json$/);
  });

  it('a text body that is not JSON is logged by its size only', async () => {
    const logged = await logOf('/validate', { method: 'POST', headers: { authorization: `Bearer ${mock.fixtures.apiKey}` }, body: `key=${mock.fixtures.apiKey}` });
    expect(logged[0]).toMatch(/body="\[\d+ bytes, not JSON\]" hint: [^"]*$/);
    expect(logged[0]).not.toContain(mock.fixtures.apiKey);
  });
});

describe('values a client author names like secrets, beyond what the document marks', () => {
  it.each([
    ['a password field of their own', { email: 'a@example.test', password: 'hunter2hunter2' }, 'hunter2hunter2'],
    ['an API key field, nested', { options: { api_key: 'k-1234567890abcdef' } }, 'k-1234567890abcdef'],
    ['a client secret in an array', { items: [{ client_secret: 'cs-0987654321' }] }, 'cs-0987654321'],
    ['an option in a WP-CLI command', { command: 'user create bob bob@example.test --user_pass=TopSecretValue99 --role=editor' }, 'TopSecretValue99'],
    ['a quoted option value', { command: "config set --password 'quoted secret 42'" }, 'quoted secret 42'],
  ])('hides %s', async (_, body, secret) => {
    const logged = await logOf(`/sites/environments/${env().id}/wpa-create-user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('[redacted]');
    expect(logged[0]).not.toContain(secret);
  });

  it('keeps what is not named like a secret', async () => {
    const logged = await logOf(`/sites/environments/${env().id}/wpa-create-user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.test', author: 'Ada', command: 'plugin list --status=active' }),
    });
    expect(logged[0]).toContain('kept@example.test');
    expect(logged[0]).toContain('"author":"Ada"');
    expect(logged[0]).toContain('--status=active');
  });
});

const env = () => mock.store.companies[0]!.sites[0]!.environments[0]!;
const resetSite = api.endpoints.find((e) => e.name === 'resetSite')!;

describe('secret fields in request bodies', () => {
  it('no admin_password, SFTP password or key sent in any body field appears in either format', async () => {
    const secretArb = fc.stringMatching(/^[A-Za-z0-9]{12,24}$/).map((s) => `pw-${s}`);
    await fc.assert(
      fc.asyncProperty(secretArb, fc.constantFrom(...secretFieldNames), async (password, field) => {
        const path = fillPath(resetSite.path, { site_id: mock.fixtures.siteId });
        const body = JSON.stringify({ [field]: password, admin_password: password, nested: { [field]: password, key: mock.fixtures.apiKey } });
        for (const [target, log] of [[mock, lines], [jsonMock, jsonLines]] as const) {
          const from = log.length;
          const site = target === mock ? mock.fixtures.siteId : jsonMock.fixtures.siteId;
          await (await fetch(`${target.url}${fillPath(resetSite.path, { site_id: site })}`, {
            method: resetSite.method,
            headers: { authorization: `Bearer ${target.fixtures.apiKey}`, 'content-type': 'application/json' },
            body,
          })).arrayBuffer();
          const logged = log.slice(from).join('\n');
          expect(logged, path).toContain(resetSite.method);
          for (const hidden of [password, mock.fixtures.apiKey, jsonMock.fixtures.apiKey]) expect(logged).not.toContain(hidden);
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe('--log json', () => {
  it('writes one JSON object per request: method, path, status, duration, body and the warning', async () => {
    const target = jsonMock.store.companies[0]!.sites[0]!.environments[0]!;
    const from = jsonLines.length;
    await (await fetch(`${jsonMock.url}/sites/environments/${target.id}/backups/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jsonMock.fixtures.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ backup_id: target.backups[0]!.id }),
    })).arrayBuffer();
    const logged = jsonLines.slice(from);
    expect(logged).toHaveLength(1);
    const entry = JSON.parse(logged[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ method: 'POST', path: `/v2/sites/environments/${target.id}/backups/restore`, status: 202, body: { backup_id: target.backups[0]!.id } });
    expect(typeof entry.durationMs).toBe('number');
    expect(entry.warning).toMatch(/\bnotified_user_id\b/);
  });

  it('text: the warning of an omitted unmarked field is on the request line', async () => {
    const logged = await logOf(`/sites/environments/${env().id}/backups/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ backup_id: env().backups[0]!.id }),
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^POST \S+ 202 .* warning: omitted body field notified_user_id\b/);
  });
});

describe('parts sanitized once per value', () => {
  it('a key sent as a body field name is hidden, on every repeat of the request', async () => {
    for (let i = 0; i < 3; i++) {
      const logged = await logOf('/validate', {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ [mock.fixtures.otherApiKey]: 1 }),
      });
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('[redacted HSC_OTHER_API_KEY]');
      expect(logged[0]).not.toContain(mock.fixtures.otherApiKey);
    }
  });

  it('a part kept from before a secret was learned is sanitized again once it is', () => {
    const sanitizer = new Sanitizer();
    const log = new RequestLog(sanitizer, 'text');
    const secret = 'learned-later-0123456789';
    const entry = { method: 'GET', path: `/v2/sites/${secret}`, status: 404, request: { method: 'GET', url: `/v2/sites/${secret}`, headers: {}, body: Buffer.from(JSON.stringify({ note: secret })) } };
    expect(log.line(entry)).toContain(secret);
    sanitizer.add(keySecret(secret, 'HSC_LATER'));
    const line = log.line(entry);
    expect(line).not.toContain(secret);
    expect(line).toBe('GET /v2/sites/[redacted HSC_LATER] 404 body={"note":"[redacted HSC_LATER]"}');
  });

  it('a method the mock does not know is the client\'s text, sanitized like a path', () => {
    const secret = 'METHODSECRET0123456789';
    const log = new RequestLog(new Sanitizer([keySecret(secret, 'HSC_M')]), 'json');
    const line = log.line({ method: secret, path: '/v2/x', status: 404 });
    expect(JSON.parse(line)).toEqual({ method: '[redacted HSC_M]', path: '/v2/x', status: 404 });
  });
});

describe('why a request was refused', () => {
  const restorePath = () => `/sites/environments/${env().id}/backups/restore`;
  const answerOf = async (url: string, init: RequestInit) => {
    const response = await fetch(url, init);
    return (await response.json()) as { data?: { problems?: { path: string; problem: string }[]; hint?: string } };
  };
  const badRestore = (key: string): RequestInit => ({
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ backup_id: '1001', notified_user_id: 42 }),
  });

  it('text: a 400 is logged with the problems its answer listed', async () => {
    const from = lines.length;
    const answer = await answerOf(`${mock.url}${restorePath()}`, badRestore(mock.fixtures.apiKey));
    const logged = lines.slice(from);
    expect(logged).toHaveLength(1);
    expect(answer.data?.problems?.length).toBeGreaterThanOrEqual(2);
    expect(logged[0]).toMatch(/ 400 /);
    for (const p of answer.data!.problems!) expect(logged[0]).toContain(`${p.path} ${p.problem}`);
  });

  it('json: a 400 carries the problems its answer listed, as they were', async () => {
    const target = jsonMock.store.companies[0]!.sites[0]!.environments[0]!;
    const from = jsonLines.length;
    const answer = await answerOf(`${jsonMock.url}/sites/environments/${target.id}/backups/restore`, badRestore(jsonMock.fixtures.apiKey));
    const entry = JSON.parse(jsonLines.slice(from)[0]!) as Record<string, unknown>;
    expect(entry.status).toBe(400);
    expect(entry.problems).toEqual(answer.data!.problems);
  });

  it('an unknown endpoint is logged with the hint its answer gave, in both formats', async () => {
    const path = `/environments/${env().id}/sftp-password`;
    const init = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
    const [from, jsonFrom] = [lines.length, jsonLines.length];
    const answer = await answerOf(`${mock.url}${path}`, init(mock.fixtures.apiKey));
    const jsonAnswer = await answerOf(`${jsonMock.url}${path}`, init(jsonMock.fixtures.apiKey));
    expect(answer.data?.hint).toBeTruthy();
    expect(lines.slice(from)[0]).toContain(`404`);
    expect(lines.slice(from)[0]).toContain(answer.data!.hint!);
    expect((JSON.parse(jsonLines.slice(jsonFrom)[0]!) as { hint?: string }).hint).toBe(jsonAnswer.data!.hint);
  });

  it('a request answered with success has no such words', async () => {
    const logged = await logOf(`/sites/${mock.fixtures.siteId}`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } });
    expect(logged[0]).toMatch(/ 200 /);
    expect(logged[0]).not.toMatch(/problems|hint/);
  });

  it('the refusal words pass the sanitizer, and the JSON line stays JSON', () => {
    const secret = 'refusal-secret-0123456789';
    const sanitizer = new Sanitizer([keySecret(secret, 'HSC_R')]);
    const refusals = [{ problems: [{ path: `/${secret}`, problem: `is not ${secret}` }] }, { hint: `did you mean ${secret}?` }];
    for (const refusal of refusals) {
      const entry = { method: 'POST', path: '/v2/x', status: 400, refusal };
      const text = new RequestLog(sanitizer, 'text').line(entry);
      const json = new RequestLog(sanitizer, 'json').line(entry);
      for (const line of [text, json]) {
        expect(line).not.toContain(secret);
        expect(line).toContain('[redacted HSC_R]');
      }
      expect(() => JSON.parse(json)).not.toThrow();
    }
  });

  it('a long list is cut, saying how many more', () => {
    const problems = Array.from({ length: 25 }, (_, i) => ({ path: `/field_${i}`, problem: 'must be string' }));
    const line = new RequestLog(new Sanitizer(), 'text').line({ method: 'POST', path: '/v2/x', status: 400, refusal: { problems } });
    const named = problems.filter((p) => line.includes(`${p.path} `)).length;
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThan(problems.length);
    expect(line).toContain(`and ${problems.length - named} more`);
    const json = JSON.parse(new RequestLog(new Sanitizer(), 'json').line({ method: 'POST', path: '/v2/x', status: 400, refusal: { problems } })) as { problems: unknown[]; moreProblems: number };
    expect(json.problems.length + json.moreProblems).toBe(problems.length);
  });

  it('only a refusal pays for reading the answer: a success body is never looked into', () => {
    const request = { method: 'GET', url: '/v2/x', headers: {}, body: Buffer.alloc(0) };
    const looked = { count: 0 };
    const body = {
      get data() {
        looked.count++;
        return { problems: [{ path: '/a', problem: 'is wrong' }] };
      },
    };
    expect(requestEntry(request, { status: 200, body }, 1).refusal).toBeUndefined();
    expect(looked.count).toBe(0);
    expect(requestEntry(request, { status: 400, body }, 1).refusal).toEqual({ problems: [{ path: '/a', problem: 'is wrong' }] });
  });

  it.each([
    ['a text body', 'refused'],
    ['null', null],
    ['no data', { message: 'x', status: 400 }],
    ['problems that are not a list', { data: { problems: 'many' } }],
    ['problems of another shape', { data: { problems: [{ field: 'a', reason: 'b' }, 42] } }],
    ['a hint that is not text', { data: { hint: 42 } }],
  ])('an answer of another shape (a variant\'s) states no refusal: %s', (_, body) => {
    expect(refusalOf(body)).toBeUndefined();
  });
});
