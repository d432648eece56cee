/**
 * State changes the mock makes through HTTP: DNS updates (STATE-DNS-UPDATE), SFTP account
 * removal (STATE-SFTP-REMOVE), site-admin users, the SSH expiration interval, and the log of
 * acknowledged operations. Each test starts on fresh fixtures and reads its expectations from
 * the state it found before acting, never from the mock's code.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, HostedSiteClient } from '../generated/client.ts';
import type { Acknowledgement, DnsRecord } from '../generated/types.ts';
import { api } from '../spec/api.ts';
import { formatArb } from '../spec/arbitraries.ts';
import type { Endpoint } from '../spec/model.ts';
import { isAck, operation, operationIdPattern } from '../spec/queries.ts';
import { MOCK_EXP_INTERVALS } from './policy.ts';
import { startMock, type RunningMock } from './server.ts';
import { callClient, rows, sampleOne, tenantOf, validRequest, type Tenant } from './test-kit.ts';

let mock: RunningMock;
let tenant: Tenant;
let client: HostedSiteClient;
beforeEach(async () => {
  mock = await startMock({ port: 0 });
  tenant = tenantOf(mock.store, mock.fixtures.companyId);
  client = new HostedSiteClient({ baseUrl: mock.url, apiKey: tenant.apiKey, validateResponses: true });
});
afterEach(() => mock.close());

const rejectsWith = async (call: Promise<unknown>, status: number) => {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(status);
};

// ---- DNS records (STATE-DNS-UPDATE) -----------------------------------------------------------------

describe('a DNS update', () => {
  const records = async () => (await client.listDnsRecords({ domain_id: tenant.domain.id })).domain.dns_records;
  const update = (body: { type: string; name: string; ttl: number; new?: string[]; removed?: string[] }) =>
    client.updateDnsRecords(
      { domain_id: tenant.domain.id },
      {
        type: body.type,
        name: body.name,
        ttl: body.ttl,
        new_resource_records: (body.new ?? []).map((value) => ({ value })),
        removed_resource_records: (body.removed ?? []).map((value) => ({ value })),
      },
    );
  /** The record's values, sorted: the document says nothing of their order. */
  const valuesOf = (record: DnsRecord | undefined) => record?.resource_records.map((r) => r.value).sort();
  const find = (list: DnsRecord[], like: Pick<DnsRecord, 'type' | 'name'>) => list.find((r) => r.type === like.type && r.name === like.name);
  /** An IPv4 address the record does not hold yet. */
  const freshValue = (taken: readonly string[]) => sampleOne(formatArb('ip', 'request').filter((v) => !taken.includes(v)));

  it('adds the new values to the record, then removes the removed ones (visible in GET dns-records)', async () => {
    const before = await records();
    const record = before[0]!;
    const added = freshValue(valuesOf(record)!);
    await update({ ...record, new: [added] });
    expect(valuesOf(find(await records(), record))).toEqual([...valuesOf(record)!, added].sort());

    await update({ ...record, removed: valuesOf(record) });
    const after = await records();
    expect(valuesOf(find(after, record))).toEqual([added]);
    // The other records are untouched.
    expect(after.filter((r) => r !== find(after, record))).toEqual(before.filter((r) => r !== record));
  });

  it('adds and removes in one update', async () => {
    const record = (await records())[0]!;
    const added = freshValue(valuesOf(record)!);
    await update({ ...record, new: [added], removed: valuesOf(record) });
    expect(valuesOf(find(await records(), record))).toEqual([added]);
  });

  it('does not add a value the record already holds a second time', async () => {
    const record = (await records())[0]!;
    await update({ ...record, new: valuesOf(record) });
    expect(valuesOf(find(await records(), record))).toEqual(valuesOf(record));
  });

  it('creates a record that does not exist yet, with the TTL sent', async () => {
    const before = await records();
    const created = { type: 'A', name: `hsc-created.${tenant.domain.name}`, ttl: 600 };
    expect(find(before, created), 'precondition: no such record').toBeUndefined();
    const value = freshValue([]);
    await update({ ...created, new: [value] });
    const after = await records();
    expect(find(after, created)).toEqual({ ...created, resource_records: [{ value }] });
    expect(after).toHaveLength(before.length + 1);
  });

  it('removes a record when its last value is removed', async () => {
    const before = await records();
    const record = before.find((r) => r.resource_records.length === 1);
    expect(record, 'precondition: a record with one value').toBeDefined();
    await update({ ...record!, removed: valuesOf(record) });
    const after = await records();
    expect(find(after, record!)).toBeUndefined();
    expect(after).toEqual(before.filter((r) => r !== record));
  });

  it('creates a removed record again, once, holding only the values sent', async () => {
    const record = (await records()).find((r) => r.resource_records.length === 1);
    expect(record, 'precondition: a record with one value').toBeDefined();
    await update({ ...record!, removed: valuesOf(record) });
    const value = freshValue(valuesOf(record)!);
    await update({ ...record!, new: [value, value] });
    const same = (await records()).filter((r) => r.type === record!.type && r.name === record!.name);
    expect(same).toEqual([{ ...record, resource_records: [{ value }] }]);
  });

  it("changes only the named domain's records", async () => {
    const other = mock.store.environment(tenant.companyId, tenant.env.id)!.domains.find((d) => d.id !== tenant.domain.id)!;
    const otherBefore = await client.listDnsRecords({ domain_id: other.id });
    const record = (await records())[0]!;
    await update({ ...record, new: [freshValue(valuesOf(record)!)] });
    expect(await client.listDnsRecords({ domain_id: other.id })).toEqual(otherBefore);
  });
});

// ---- additional SFTP accounts (STATE-SFTP-REMOVE) ----------------------------------------------------

describe('removing an additional SFTP account', () => {
  const accounts = async () => (await client.listAdditionalSftpAccounts({ env_id: tenant.env.id })).environment.additional_sftp_accounts;

  it('takes it out of the list and leaves the others', async () => {
    const before = await accounts();
    expect(before.length, 'precondition: two accounts or more').toBeGreaterThan(1);
    const [removed, ...kept] = before;
    await client.removeAdditionalSftpAccount({ sftp_account_id: removed!.id });
    expect(await accounts()).toEqual(kept);
  });

  it('answers 404 to a second removal of the same account', async () => {
    const [removed] = await accounts();
    await client.removeAdditionalSftpAccount({ sftp_account_id: removed!.id });
    const operations = mock.store.acknowledgedOperations;
    await rejectsWith(client.removeAdditionalSftpAccount({ sftp_account_id: removed!.id }), 404);
    expect(mock.store.acknowledgedOperations).toBe(operations);
  });

  it('can empty the list', async () => {
    for (const account of await accounts()) await client.removeAdditionalSftpAccount({ sftp_account_id: account.id });
    expect(await accounts()).toEqual([]);
  });
});

// ---- the operation log ------------------------------------------------------------------------------

/** The id an acknowledged action acts on: its path id, else the environment its body names. */
function targetOf(endpoint: Endpoint, params: Readonly<Record<string, string>>, body: Readonly<Record<string, unknown>> | undefined): string {
  const [param] = endpoint.pathParams;
  if (param) return params[param.name]!;
  const envId = body?.environment_id;
  if (typeof envId !== 'string') throw new Error(`${operation(endpoint)} names no target`);
  return envId;
}

describe.each(rows(api.endpoints.filter(isAck)))('%s', (_, endpoint) => {
  it('is recorded with the operation id of its 202 body, its kind, company and target, and no secret', async () => {
    if (!isAck(endpoint)) throw new Error('rows are acknowledged actions');
    const req = validRequest(endpoint, tenant);
    const ack = (await callClient(client, req)) as Acknowledgement;
    expect(ack.operation_id).toMatch(new RegExp(operationIdPattern(endpoint.success.operationKind)));
    const recorded = mock.store.operations.filter((o) => o.operation_id === ack.operation_id);
    expect(recorded).toHaveLength(1);
    const [record] = recorded;
    expect(record!.kind).toBe(endpoint.success.operationKind);
    expect(record!.companyId).toBe(tenant.companyId);
    expect(record!.target).toBe(targetOf(endpoint, req.params, req.body));
    const stored = JSON.stringify(mock.store.operations) + JSON.stringify(mock.store.snapshot(tenant.companyId));
    for (const field of endpoint.body ?? []) {
      const sent = req.body?.[field.name];
      if (field.secret) {
        expect(record!.details, field.name).not.toHaveProperty(field.name);
        expect(typeof sent).toBe('string');
        expect(stored, `${field.name} is stored`).not.toContain(sent as string);
      } else {
        expect(record!.details[field.name], field.name).toEqual(sent);
      }
    }
  });
});

describe('the operation log of a long run', () => {
  it('keeps the newest `maxOperations` records, oldest first, and counts those dropped', async () => {
    const bounded = await startMock({ port: 0, maxOperations: 3 });
    try {
      const own = tenantOf(bounded.store, bounded.fixtures.companyId);
      const boundedClient = new HostedSiteClient({ baseUrl: bounded.url, apiKey: own.apiKey });
      const acknowledged: string[] = [];
      for (let i = 0; i < 5; i++) acknowledged.push((await boundedClient.runWpCliCommand({ env_id: own.env.id }, { wp_command: `wp cache flush --n=${i}` })).operation_id);
      expect(bounded.store.operations.map((o) => o.operation_id)).toEqual(acknowledged.slice(-3));
      expect(bounded.store.droppedOperations).toBe(2);
    } finally {
      await bounded.close();
    }
  });
});

describe('edge caching', () => {
  it('is switched off and on as sent', async () => {
    const stored = () => mock.store.environment(tenant.companyId, tenant.env.id)!.edgeCachingEnabled;
    const initial = stored();
    for (const enabled of [!initial, initial, !initial]) {
      await client.setEdgeCachingStatus({ environment_id: tenant.env.id, enabled });
      expect(stored()).toBe(enabled);
    }
  });
});

describe('a webroot change', () => {
  it('stores the subfolder sent, in that environment only', async () => {
    const subfolder = sampleOne(formatArb('absolute-path', 'request'));
    const others = mock.store.environmentsOf(tenant.siteId).filter((e) => e.id !== tenant.env.id);
    const othersBefore = others.map((e) => e.webRootSubfolder);
    await client.changeWebrootSubfolder({ env_id: tenant.env.id }, { web_root_subfolder: subfolder, clear_all_cache: false, refresh_plugins_and_themes: false });
    expect(mock.store.environment(tenant.companyId, tenant.env.id)!.webRootSubfolder).toBe(subfolder);
    expect(others.map((e) => e.webRootSubfolder)).toEqual(othersBefore);
  });
});

// ---- backups ------------------------------------------------------------------------------------------

describe('a backup restore', () => {
  const restore = (backupId: number, envId = tenant.env.id) =>
    client.restoreBackup({ target_env_id: envId }, { backup_id: backupId, notified_user_id: tenant.userId });

  it('of a listed backup is acknowledged', async () => {
    const { backups } = (await client.listBackups({ env_id: tenant.env.id })).environment;
    for (const backup of backups) expect((await restore(backup.id)).status).toBe(202);
  });

  // CONFLICT-ACTION-UNKNOWN-RESOURCE: the mock takes the reading.
  it('of a backup id no environment of the site lists answers 404 and records nothing', async () => {
    const listed = await Promise.all(
      mock.store.environmentsOf(tenant.siteId).map(async (e) => (await client.listBackups({ env_id: e.id })).environment.backups.map((b) => b.id)),
    );
    const unknown = Math.max(...listed.flat()) + 1;
    const operations = mock.store.acknowledgedOperations;
    await rejectsWith(restore(unknown), 404);
    expect(mock.store.acknowledgedOperations).toBe(operations);
  });

  it('of a backup listed by a sibling environment of the site is acknowledged (the mock restores across environments)', async () => {
    const sibling = mock.store.environmentsOf(tenant.siteId).find((e) => e.id !== tenant.env.id)!;
    const own = (await client.listBackups({ env_id: tenant.env.id })).environment.backups.map((b) => b.id);
    const theirs = (await client.listBackups({ env_id: sibling.id })).environment.backups.map((b) => b.id);
    // Backup ids may coincide across environments; take one only the sibling lists, when there is one.
    const candidate = theirs.find((id) => !own.includes(id)) ?? theirs[0]!;
    expect((await restore(candidate)).status).toBe(202);
  });

  it("naming a user who is not one of the company's answers 404", async () => {
    const stranger = sampleOne(formatArb('uuid', 'request'));
    await rejectsWith(client.restoreBackup({ target_env_id: tenant.env.id }, { backup_id: tenant.backupId, notified_user_id: stranger }), 404);
  });
});

// ---- site-admin users ---------------------------------------------------------------------------------

describe('a site-admin user', () => {
  const exists = (email: string, envId = tenant.env.id) => client.checkWpAdminUserExists({ env_id: envId, email }).then((r) => r.has_wp_admin_user);
  const create = (email: string, envId = tenant.env.id) =>
    client.createWpAdminUser({ env_id: envId }, { email, first_name: 'Ada', last_name: 'Admin' }).then((r) => r.create_wp_admin_user);

  it('created through wpa-create-user then exists, whatever the case of the address', async () => {
    const email = sampleOne(formatArb('email', 'request'));
    expect(await exists(email), 'precondition: a new address').toBe(false);
    expect(await create(email)).toBe(true);
    for (const variant of [email, email.toUpperCase(), email.replace(/^./, (c) => c.toUpperCase())]) expect(await exists(variant), variant).toBe(true);
  });

  it('is not created twice: a second create answers false, also in another case', async () => {
    const email = sampleOne(formatArb('email', 'request'));
    expect(await create(email)).toBe(true);
    expect(await create(email)).toBe(false);
    expect(await create(email.toUpperCase())).toBe(false);
    expect(await exists(email)).toBe(true);
  });

  it('exists in the environment it was created in only', async () => {
    const sibling = mock.store.environmentsOf(tenant.siteId).find((e) => e.id !== tenant.env.id)!;
    const email = sampleOne(formatArb('email', 'request'));
    expect(await create(email)).toBe(true);
    expect(await exists(email, sibling.id)).toBe(false);
  });

  it('answers false for an address that differs by one character', async () => {
    const email = sampleOne(formatArb('email', 'request'));
    await create(email);
    expect(await exists(`x${email}`)).toBe(false);
  });
});

// ---- SSH expiration interval ----------------------------------------------------------------------------

describe('the SSH expiration interval', () => {
  it.each(MOCK_EXP_INTERVALS.map((v) => [v]))('%s is stored for that environment', async (interval) => {
    const result = await client.changeSshExpirationInterval({ env_id: tenant.env.id }, { exp_interval: interval });
    expect(result).toEqual({ result: null });
    expect(mock.store.environment(tenant.companyId, tenant.env.id)!.sshExpirationInterval).toBe(interval);
  });

  it('is replaced by the next change', async () => {
    const [first, second] = MOCK_EXP_INTERVALS;
    await client.changeSshExpirationInterval({ env_id: tenant.env.id }, { exp_interval: first! });
    await client.changeSshExpirationInterval({ env_id: tenant.env.id }, { exp_interval: second! });
    expect(mock.store.environment(tenant.companyId, tenant.env.id)!.sshExpirationInterval).toBe(second);
  });
});
