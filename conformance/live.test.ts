/**
 * Safety on live environments, end to end: the whole suite (every probe, the STATE-* properties,
 * shrinking) run with --allow-destructive against the mock in each layout, as a live target is
 * run (not the embedded mock; discovery and the run without --allow-live). No request to a
 * destructive endpoint names the live environment, anything it holds or the whole site; no
 * destructive action the mock carried out acted on them; the live environment's SFTP accounts
 * and DNS records are as they were. With --allow-live, what staging cannot serve runs on live.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { layouts } from '../mock/layouts.ts';
import { startMock, type RunningMock } from '../mock/server.ts';
import { api } from '../spec/api.ts';
import { operation } from '../spec/queries.ts';
import { discover } from './discovery.ts';
import { createTransport } from './http.ts';
import { runConformance } from './runner.ts';
import { defaultSuite } from './suite.ts';
import type { Exchange, Report, Target } from './types.ts';

const send = createTransport({ timeoutMs: 10_000 });
afterAll(() => send.close());

/** The operation kinds of destructive actions, from the model: how the mock's operation log names them. */
const destructiveKinds = new Set(api.endpoints.flatMap((e) => (e.effect === 'destructive' && e.success.kind === 'ack' ? [e.success.operationKind] : [])));

/** The site's live environment as the mock holds it: every id it and its data carry, and the state a destructive action would change. */
function liveOf(mock: RunningMock) {
  const { companyId, siteId } = mock.fixtures;
  const site = mock.store.companies.find((c) => c.id === companyId)!.sites.find((s) => s.id === siteId)!;
  const env = site.environments.find((e) => e.name === 'live')!;
  const ids = [siteId, env.id, env.cdnCacheId, ...env.domains.map((d) => d.id), ...env.sftpAccounts.map((a) => a.id)].map((id) => id.toLowerCase());
  const state = () => structuredClone({ accounts: mock.store.environment(companyId, env.id)!.sftpAccounts, records: env.domains.map((d) => mock.store.domain(companyId, d.id)!.dnsRecords) });
  return { envId: env.id, ids, state };
}

/** Runs the whole suite against `mock` as a live target, recording every exchange. */
async function runAsLiveTarget(mock: RunningMock, allowLive: boolean): Promise<{ report: Report; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const recording = async (probe: Exchange['probe']) => {
    const x = await send(probe);
    exchanges.push(x);
    return x;
  };
  const { ids, notes } = await discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.siteId, send: recording, allowLive });
  const target: Target = { baseUrl: mock.url, main: { apiKey: mock.fixtures.apiKey, ids }, allowDestructive: true, allowLive, embedded: false };
  const report = await runConformance({ target, seed: 1106, runs: 3, options: { strict: false, stateWindowMs: 2000 }, send: recording, suite: defaultSuite, notes });
  return { report, exchanges };
}

describe('with --allow-destructive but not --allow-live, nothing destructive reaches the live environment', () => {
  // The layouts that arrange data (a timing-only one holds the reference data, and only takes longer).
  it.each(layouts.filter((l) => l.arrange).map((l) => [l.name]))('layout %s', async (layout) => {
    const mock = await startMock({ port: 0, layout });
    try {
      const live = liveOf(mock);
      const before = live.state();
      const { report, exchanges } = await runAsLiveTarget(mock, false);
      expect(report.failures).toEqual([]);
      const destructive = exchanges.filter((x) => x.probe.endpoint.effect === 'destructive');
      expect(destructive.length).toBeGreaterThan(0);
      for (const x of destructive) {
        const text = `${x.probe.request.url} ${x.probe.request.body ?? ''}`.toLowerCase();
        expect(live.ids.filter((id) => text.includes(id)), `${operation(x.probe.endpoint)} [${x.probe.rule}] ${x.probe.title}`).toEqual([]);
      }
      // What the mock carried out: no destructive action acted on live data (its log names each action's target).
      const acted = mock.store.operations.filter((op) => destructiveKinds.has(op.kind));
      expect(acted.filter((op) => op.target !== undefined && live.ids.includes(op.target.toLowerCase()))).toEqual([]);
      expect(live.state()).toEqual(before);
    } finally {
      await mock.close();
    }
  });
});

describe('with --allow-live, the destructive actions staging cannot serve run on live', () => {
  it('staging without SFTP accounts and backups: restores and removals act on the live environment', async () => {
    const mock = await startMock({ port: 0, layout: 'staging-without-sftp-and-backups' });
    try {
      const live = liveOf(mock);
      const { report } = await runAsLiveTarget(mock, true);
      expect(report.failures).toEqual([]);
      // Every row but those that need a second company, which this target is not given.
      const skipped = report.checks.filter((c) => c.outcome === 'skipped');
      expect(skipped.length).toBeGreaterThan(0);
      for (const c of skipped) expect([c.rule, c.reason]).toEqual(['ISOLATION-WRITE', 'needs a second company (--other-api-key, --other-site-id): a test company']);
      const targets = (kind: string) => mock.store.operations.filter((op) => op.kind === kind).map((op) => op.target?.toLowerCase());
      expect(targets('backups:restore')).toContain(live.envId.toLowerCase());
      expect(targets('sftp-accounts:remove-additional-sftp-account').every((id) => id !== undefined && live.ids.includes(id))).toBe(true);
      expect(targets('sftp-accounts:remove-additional-sftp-account').length).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
