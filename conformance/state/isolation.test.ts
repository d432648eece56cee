/**
 * ISOLATION-WRITE where an action lists no refusal (the SFTP account removal): against loopback
 * mocks, the reference (404) and a server that acknowledges and does nothing pass with a note
 * saying which; a server that removes the other company's account fails with the two requests
 * that show it; a server that refuses and removes anyway fails too; what cannot be observed is a
 * skip with its reason, never a pass. One mock per case, closed after it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../../mock/server.ts';
import type { Variant } from '../../mock/variant.ts';
import { variantNamed } from '../../mock/variants/index.ts';
import { createTransport } from '../http.ts';
import { contextOf, mockTarget, recording } from '../probes/test-target.ts';
import type { Scenario, Target } from '../types.ts';
import { isolationRemovalScenarios } from './isolation.ts';

const transport = createTransport({ timeoutMs: 10_000 });
afterAll(() => transport.close());

const FAST = { poll: { windowMs: 150, intervalMs: 10, maxIntervalMs: 40 } };

async function runOn(variant: Variant | undefined, change: (t: Target) => Target = (t) => t) {
  const mock = await startMock({ port: 0, ...(variant ? { variant } : {}) });
  try {
    const target = change({ ...mockTarget({ baseUrl: mock.url }), embedded: true });
    const { scenarios, skipped } = isolationRemovalScenarios({ budget: FAST })(contextOf(target, 1106, 10));
    expect(skipped).toEqual([]);
    expect(scenarios).toHaveLength(1);
    const { send, exchanges } = recording(transport);
    const outcome = await scenarios[0]!.run(send);
    return { outcome, exchanges, target };
  } finally {
    await mock.close();
  }
}

/** A server that refuses the removal (404) yet removes the account: the reference handler's effect, a refusal's answer. */
const refusesAndRemoves: Variant = {
  ...variantNamed('writes-across-tenants-remove-additional-sftp-account'),
  hooks: {
    ...variantNamed('writes-across-tenants-remove-additional-sftp-account').hooks,
    respond: (endpoint, _request, response) => (endpoint?.name === 'removeAdditionalSftpAccount' && response.status < 300 ? { status: 404, body: { message: 'Unknown resource', status: 404 } } : response),
  },
};

describe('ISOLATION-WRITE on a removal that lists no refusal', () => {
  it('the reference refuses (404): reads before and once after with the other key, a note, no verdict', async () => {
    const { outcome, exchanges, target } = await runOn(undefined);
    expect(outcome).toEqual({ notes: [expect.stringMatching(/was refused \(HTTP 404\); it stayed listed: no effect$/)] });
    expect(exchanges.map((x) => [x.probe.endpoint.name, x.response?.status])).toEqual([
      ['listAdditionalSftpAccounts', 200],
      ['removeAdditionalSftpAccount', 404],
      ['listAdditionalSftpAccounts', 200],
    ]);
    // The reads carry the other company's key, the removal this company's.
    expect(exchanges.map((x) => x.probe.request.headers.authorization)).toEqual([`Bearer ${target.other!.apiKey}`, `Bearer ${target.main.apiKey}`, `Bearer ${target.other!.apiKey}`]);
  });

  it('a server that acknowledges and does nothing (the letter): read over the window, a note, no verdict', async () => {
    const { outcome, exchanges } = await runOn(variantNamed('letter-actions-unknown-ids'));
    expect(outcome).toEqual({ notes: [expect.stringMatching(/was acknowledged \(HTTP 202\); it stayed listed over 0\.2 s: no effect$/)] });
    expect(exchanges.filter((x) => x.probe.endpoint.name === 'listAdditionalSftpAccounts').length).toBeGreaterThan(2);
  });

  it.each([
    ['acknowledges and removes', variantNamed('writes-across-tenants-remove-additional-sftp-account'), 'acknowledged (HTTP 202)'],
    ['refuses and removes anyway', refusesAndRemoves, 'refused (HTTP 404)'],
  ])('a server that %s fails, with the removal and the read that shows it', async (_, variant, said) => {
    const { outcome, target } = await runOn(variant);
    const failed = outcome as Exclude<Awaited<ReturnType<Scenario['run']>>, { skip: string } | { notes: readonly string[] }> & { verdict: { title: string; message: string } };
    expect(failed.verdict.title).toBe("an action removed another company's data");
    expect(failed.verdict.message).toContain(said);
    expect(failed.verdict.message).toContain(target.other!.ids.sftpAccountIds[0]!);
    expect(failed.sequence?.map((s) => s.request.method)).toEqual(['DELETE', 'GET']);
  });

  it("an account the other company's list does not show is a skip, never a pass", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const { outcome, exchanges } = await runOn(undefined, (t) => ({ ...t, other: { ...t.other!, ids: { ...t.other!.ids, sftpAccountIds: [unknown] } } }));
    expect(outcome).toEqual({ skip: `the other company's list does not show ${unknown} (HTTP 200), so a removal of it cannot be observed` });
    expect(exchanges).toHaveLength(1);
  });

  it('needs a second company and --allow-destructive: without them, nothing is sent', () => {
    const without = isolationRemovalScenarios()(contextOf(mockTarget({ other: false })));
    expect([without.scenarios, without.skipped]).toEqual([[], []]); // the probe source names the missing second company
    const undestructive = isolationRemovalScenarios()(contextOf(mockTarget({ allowDestructive: false })));
    expect(undestructive.scenarios).toEqual([]);
    expect(undestructive.skipped.map((s) => [s.rule, s.endpoint.name, s.reason])).toEqual([['ISOLATION-WRITE', 'removeAdditionalSftpAccount', 'needs --allow-destructive']]);
  });
});
