/**
 * Concurrency of the mock (issue 3): 3000 mixed requests in flight at once over 64 connections —
 * reads, DNS updates that each add one value to the same record, admin users with unique
 * e-mails, removals racing for the same SFTP accounts, and requests with bad keys. Node runs one
 * handler at a time and every store mutation is synchronous, so afterwards nothing is lost or
 * doubled: each DNS value is on the record exactly once, each user exists exactly once, each
 * account was removed by exactly one request, and every answer is one the endpoint may give.
 */
import fc from 'fast-check';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseValidators, validateErrorBody } from '../generated/validators.js';
import type { Validator } from '../generated/validators.js';
import type { Endpoint } from '../spec/model.ts';
import { endpoint, fillPath, isAck, mockErrorStatuses, operation } from '../spec/queries.ts';
import { startMock, type RunningMock } from './server.ts';
import { sampleOne } from './test-kit.ts';

const CONNECTIONS = 64;
const COUNTS = { reads: 1000, dnsUpdates: 800, users: 600, removalsPerAccount: 50, badKeys: 400 };

interface Job {
  readonly kind: 'read' | 'dns' | 'user' | 'removal' | 'bad-key';
  readonly endpoint: Endpoint;
  readonly path: string;
  readonly apiKey: string;
  readonly body?: unknown;
  /** The account a removal names, the value a DNS update adds, the e-mail a user gets. */
  readonly subject?: string;
}

interface Outcome {
  readonly job: Job;
  readonly status: number;
  readonly body: unknown;
}

describe('the mock under 3000 concurrent mixed requests', () => {
  let mock: RunningMock;
  let pool: Pool;
  const outcomes: Outcome[] = [];

  // Fixtures of the first company, copied before the run removes SFTP accounts.
  let apiKey: string;
  let envId: string;
  let domainId: string;
  let recordName: string;
  let initialValues: readonly string[];
  let accountIds: readonly string[];

  const send = async (job: Pick<Job, 'endpoint' | 'path' | 'apiKey' | 'body'>): Promise<{ status: number; body: unknown }> => {
    const response = await pool.request({
      method: job.endpoint.method,
      path: `/v2${job.path}`,
      headers: { authorization: `Bearer ${job.apiKey}`, ...(job.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(job.body === undefined ? {} : { body: JSON.stringify(job.body) }),
    });
    return { status: response.statusCode, body: await response.body.json() };
  };

  function jobs(): Job[] {
    const company = mock.store.companies[0]!;
    const list: Job[] = [];
    const reads: [string, Record<string, string>][] = [
      ['getSite', { site_id: company.sites[0]!.id }],
      ['listEnvironments', { site_id: company.sites[0]!.id }],
      ['listDnsRecords', { domain_id: domainId }],
      ['listAdditionalSftpAccounts', { env_id: envId }],
      ['listBackups', { env_id: envId }],
      ['listCompanyUsers', { id: company.id }],
      ['validateApiKey', {}],
    ];
    for (let i = 0; i < COUNTS.reads; i++) {
      const [name, params] = reads[i % reads.length]!;
      const e = endpoint(name);
      list.push({ kind: 'read', endpoint: e, path: fillPath(e.path, params), apiKey });
    }
    const dns = endpoint('updateDnsRecords');
    for (let i = 0; i < COUNTS.dnsUpdates; i++) {
      const value = `10.${(i >> 8) & 255}.${i & 255}.7`;
      const body = { type: 'A', name: recordName, ttl: 3600, new_resource_records: [{ value }], removed_resource_records: [] };
      list.push({ kind: 'dns', endpoint: dns, path: fillPath(dns.path, { domain_id: domainId }), apiKey, body, subject: value });
    }
    const create = endpoint('createWpAdminUser');
    for (let i = 0; i < COUNTS.users; i++) {
      const email = `concurrent-${i}@alpha.example.test`;
      list.push({ kind: 'user', endpoint: create, path: fillPath(create.path, { env_id: envId }), apiKey, body: { email, first_name: 'Con', last_name: `Current${i}` }, subject: email });
    }
    const remove = endpoint('removeAdditionalSftpAccount');
    for (const id of accountIds) {
      for (let i = 0; i < COUNTS.removalsPerAccount; i++) {
        list.push({ kind: 'removal', endpoint: remove, path: fillPath(remove.path, { sftp_account_id: id }), apiKey, subject: id });
      }
    }
    // The same requests with keys no company has: one of each kind, in turn.
    const templates = (['read', 'dns', 'user', 'removal'] as const).map((kind) => list.find((job) => job.kind === kind)!);
    for (let i = 0; i < COUNTS.badKeys; i++) {
      const { subject: _, ...template } = templates[i % templates.length]!;
      list.push({ ...template, kind: 'bad-key', apiKey: `${apiKey}-${i}` });
    }
    return list;
  }

  beforeAll(async () => {
    mock = await startMock();
    const company = mock.store.companies[0]!;
    const env = company.sites[0]!.environments[0]!;
    const domain = env.domains[0]!;
    apiKey = company.apiKey;
    envId = env.id;
    domainId = domain.id;
    recordName = domain.dnsRecords[0]!.name;
    initialValues = domain.dnsRecords[0]!.resource_records.map((r) => r.value);
    accountIds = company.sites.flatMap((s) => s.environments.flatMap((e) => e.sftpAccounts.map((a) => a.id)));
    pool = new Pool(new URL(mock.url).origin, { connections: CONNECTIONS, pipelining: 1 });

    const all = jobs();
    // One fixed order (the global seed), so a failure replays the same interleaving of sends.
    const order = sampleOne(fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }));
    outcomes.push(...(await Promise.all(order.map(async (job) => ({ job, ...(await send(job)) })))));
  });
  afterAll(async () => {
    await pool?.close();
    await mock?.close();
  });

  it('sent every request and got an answer for each', () => {
    const total = COUNTS.reads + COUNTS.dnsUpdates + COUNTS.users + COUNTS.removalsPerAccount * accountIds.length + COUNTS.badKeys;
    expect(total).toBeGreaterThanOrEqual(3000);
    expect(outcomes).toHaveLength(total);
  });

  it("answers each request with its endpoint's success or one of its mock error statuses, in the document's shape", () => {
    const wrong = outcomes.flatMap(({ job, status, body }) => {
      const e = job.endpoint;
      const success = isAck(e) ? 202 : 200;
      const allowed = [success, ...mockErrorStatuses(e)];
      const validate: Validator = status === success ? (responseValidators as Record<string, Validator>)[e.name]! : validateErrorBody;
      return allowed.includes(status) && validate(body) ? [] : [`${job.kind} ${operation(e)}: ${status} ${JSON.stringify(body).slice(0, 200)}`];
    });
    expect(wrong).toEqual([]);
  });

  it('answers each kind of request as it must: reads 200, updates 202, new users created, bad keys 401', () => {
    const statusesOf = (kind: Job['kind']) => [...new Set(outcomes.filter((o) => o.job.kind === kind).map((o) => o.status))];
    expect(statusesOf('read')).toEqual([200]);
    expect(statusesOf('dns')).toEqual([202]);
    expect(statusesOf('user')).toEqual([200]);
    expect(statusesOf('bad-key')).toEqual([401]);
    expect(outcomes.filter((o) => o.job.kind === 'user').every((o) => (o.body as { create_wp_admin_user: boolean }).create_wp_admin_user)).toBe(true);
  });

  it('loses no DNS update: every added value is on the record exactly once, next to the values it had', async () => {
    const e = endpoint('listDnsRecords');
    const { status, body } = await send({ endpoint: e, path: fillPath(e.path, { domain_id: domainId }), apiKey });
    expect(status).toBe(200);
    const records = (body as { domain: { dns_records: { type: string; name: string; resource_records: { value: string }[] }[] } }).domain.dns_records;
    const values = records.find((r) => r.type === 'A' && r.name === recordName)!.resource_records.map((r) => r.value);
    const added = outcomes.filter((o) => o.job.kind === 'dns').map((o) => o.job.subject!);
    expect(new Set(values).size, 'no value twice').toBe(values.length);
    expect([...values].sort()).toEqual([...initialValues, ...added].sort());
  });

  it('loses no created user: each exists, exactly once', async () => {
    const emails = outcomes.filter((o) => o.job.kind === 'user').map((o) => o.job.subject!);
    const stored = mock.store.environment(mock.store.companies[0]!.id, envId)!.wpAdminEmails;
    expect(emails.filter((email) => stored.filter((s) => s === email).length !== 1)).toEqual([]);
    const exists = endpoint('checkWpAdminUserExists');
    const answers = await Promise.all(
      emails.map((email) => send({ endpoint: exists, path: `${fillPath(exists.path, { env_id: envId })}?email=${encodeURIComponent(email)}`, apiKey })),
    );
    expect(answers.filter((a) => a.status !== 200 || !(a.body as { has_wp_admin_user: boolean }).has_wp_admin_user)).toEqual([]);
  });

  it('removes each SFTP account exactly once: one 202 per account, 404 for every other request racing for it', async () => {
    for (const id of accountIds) {
      const statuses = outcomes.filter((o) => o.job.kind === 'removal' && o.job.subject === id).map((o) => o.status);
      expect(statuses.filter((s) => s === 202), id).toHaveLength(1);
      expect(statuses.filter((s) => s === 404), id).toHaveLength(COUNTS.removalsPerAccount - 1);
    }
    const e = endpoint('listAdditionalSftpAccounts');
    const { body } = await send({ endpoint: e, path: fillPath(e.path, { env_id: envId }), apiKey });
    expect((body as { environment: { additional_sftp_accounts: unknown[] } }).environment.additional_sftp_accounts).toEqual([]);
  });

  it('records one operation per acknowledgement, each with its own id', () => {
    const acknowledged = outcomes.filter((o) => o.status === 202).map((o) => (o.body as { operation_id: string }).operation_id);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    expect(mock.store.operations.map((op) => op.operation_id).sort()).toEqual([...acknowledged].sort());
  });
});
