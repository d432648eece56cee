/**
 * Every endpoint of the model, called with valid inputs from the fixtures: through the generated
 * client (which validates each success body) and raw, for the status and content type. One
 * test body serves all 27 endpoints; the table is the model's endpoint list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HostedSiteClient } from '../generated/client.ts';
import { responseValidators } from '../generated/validators.js';
import type { Validator } from '../generated/validators.js';
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { isAck, operationIdPattern } from '../spec/queries.ts';
import { startMock, type RunningMock } from './server.ts';
import { callClient, rows, send, tenantOf, validRequest } from './test-kit.ts';

const running: RunningMock[] = [];
/** A mock with fresh state, so that each call meets the fixtures as seeded (removals included). */
async function freshMock(): Promise<RunningMock> {
  const mock = await startMock({ port: 0 });
  running.push(mock);
  return mock;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.close()));
});

const validatorOf = (e: Endpoint): Validator => (responseValidators as unknown as Record<string, Validator>)[e.name]!;

describe('the model', () => {
  // §Endpoints: 16 read endpoints, 9 acknowledged actions, 2 other actions.
  it('has the 27 endpoints of the document, each with a response validator', () => {
    const kinds = api.endpoints.map((e) => e.success.kind);
    expect([kinds.filter((k) => k === 'data').length, kinds.filter((k) => k === 'ack').length, kinds.filter((k) => k === 'sync-action').length]).toEqual([16, 9, 2]);
    for (const e of api.endpoints) expect(typeof validatorOf(e), e.name).toBe('function');
  });
});

describe.each(rows(api.endpoints))('%s with valid inputs', (_, endpoint) => {
  it('succeeds through the generated client, and the body passes the response validator', async () => {
    const mock = await freshMock();
    const req = validRequest(endpoint, tenantOf(mock.store, mock.fixtures.companyId));
    const client = new HostedSiteClient({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, validateResponses: true });
    const result = await callClient(client, req);
    const validate = validatorOf(endpoint);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
  });

  it('answers 202 with an acknowledgement of its kind, or 200 with its data, as application/json', async () => {
    const mock = await freshMock();
    const req = validRequest(endpoint, tenantOf(mock.store, mock.fixtures.companyId));
    const answer = await send(mock.url, req, { apiKey: mock.fixtures.apiKey });
    expect(answer.contentType).toMatch(/^application\/json\b/);
    const validate = validatorOf(endpoint);
    expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
    if (isAck(endpoint)) {
      expect(answer.status).toBe(202);
      const ack = answer.body as { operation_id: string; status: number; message: string };
      expect(ack.operation_id).toMatch(new RegExp(operationIdPattern(endpoint.success.operationKind)));
      expect(ack.status).toBe(202);
      expect(ack.message).not.toBe('');
    } else {
      expect(answer.status).toBe(200);
    }
  });
});

describe.each(rows(api.endpoints.filter((e) => !isAck(e))))('%s', (_, endpoint) => {
  it('gives the client and a raw request the same data on the same state', async () => {
    const [viaClientMock, rawMock] = [await freshMock(), await freshMock()];
    const req = validRequest(endpoint, tenantOf(viaClientMock.store, viaClientMock.fixtures.companyId));
    const client = new HostedSiteClient({ baseUrl: viaClientMock.url, apiKey: viaClientMock.fixtures.apiKey, validateResponses: true });
    const viaClient = await callClient(client, req);
    const raw = await send(rawMock.url, req, { apiKey: rawMock.fixtures.apiKey });
    expect(viaClient).toEqual(raw.body);
  });
});

describe('acknowledgements', () => {
  it('carry a new operation id on every call', async () => {
    const mock = await freshMock();
    const tenant = tenantOf(mock.store, mock.fixtures.companyId);
    // Endpoints that can be repeated on the same state (the SFTP removal cannot).
    const repeatable = api.endpoints.filter((e) => isAck(e) && e.pathParams.every((p) => p.name !== 'sftp_account_id'));
    expect(repeatable.length).toBeGreaterThan(0);
    for (const endpoint of repeatable) {
      const req = validRequest(endpoint, tenant);
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await send(mock.url, req, { apiKey: tenant.apiKey })).body);
      const operationIds = ids.map((b) => (b as { operation_id: string }).operation_id);
      expect(new Set(operationIds).size, endpoint.name).toBe(3);
    }
  });
});
