/**
 * End to end against the reference mock: every probe of every source, sent with the suite's
 * transport, gets the answer its expectation names (401, 404, 400, the success; an observation
 * gets a status the mock may answer on that endpoint); the scenarios hold; and without
 * --allow-destructive the probes leave both companies' data exactly as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { isAck, mockErrorStatuses, operation } from '../../spec/queries.ts';
import { createTransport } from '../http.ts';
import type { Exchange, Probe } from '../types.ts';
import { probeSources, scenarioSources } from './index.ts';
import { contextOf, mockTarget } from './test-target.ts';

/** The suite's own transport, so these exchanges are the ones a run judges. */
const send = createTransport({ timeoutMs: 10_000 });
afterAll(() => send.close());

/** The statuses the mock should answer a probe with, by its expectation. */
function wanted(probe: Probe): readonly number[] {
  const success = isAck(probe.endpoint) ? 202 : 200;
  switch (probe.expect) {
    case 'unauthorized':
      return [401];
    case 'not-found':
      return [404];
    case 'foreign-key':
      // The mock knows the key, and that its company may not read this data.
      return [404];
    case 'foreign-write':
      // Another company's data is unknown to this company's key: 404 (the reading of CONFLICT-ACTION-UNKNOWN-RESOURCE).
      return [404];
    case 'invalid':
      return probe.idsUnknown ? [400, 404] : [400];
    case 'valid':
      return [success];
    case 'observe':
      // Any status the mock may answer here; the scheme-case probes never 401 (the mock reads the scheme case-insensitively).
      return [success, ...mockErrorStatuses(probe.endpoint)].filter((s) => probe.rule !== 'AUTH-SCHEME-CASE' || s !== 401);
  }
}

async function sendAll(probes: readonly Probe[]): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (let i = 0; i < probes.length; i += 16) exchanges.push(...(await Promise.all(probes.slice(i, i + 16).map(send))));
  return exchanges;
}

const mismatches = (exchanges: readonly Exchange[]) =>
  exchanges
    .filter((x) => !wanted(x.probe).includes(x.response?.status ?? -1))
    .map((x) => `${x.probe.rule} ${operation(x.probe.endpoint)} "${x.probe.title}": ${x.response?.status ?? x.failure?.message}, wanted ${wanted(x.probe).join('|')} ${x.response?.text.slice(0, 200) ?? ''}`);

describe('the probes against the mock', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('every probe of a full target gets the answer its expectation names', async () => {
    const context = contextOf(mockTarget({ baseUrl: mock.url }), 42, 10);
    const probes = probeSources.flatMap((source) => source(context).probes);
    const exchanges = await sendAll(probes);
    expect(mismatches(exchanges)).toEqual([]);
    // Every 4xx the mock sent is the document's error body.
    for (const x of exchanges) {
      if (x.response!.status >= 400) expect((x.response!.json as { status?: unknown }).status, x.probe.title).toBe(x.response!.status);
      expect(x.response!.headers['content-type'], x.probe.title).toMatch(/^application\/json/);
    }
  });

  it('the state properties hold on the mock', async () => {
    const context = contextOf({ ...mockTarget({ baseUrl: mock.url }), embedded: true }, 43, 3);
    for (const source of scenarioSources) {
      const { scenarios, skipped } = source(context);
      expect(skipped).toEqual([]);
      for (const scenario of scenarios) {
        const exchanges: Exchange[] = [];
        const outcome = await scenario.run(async (probe) => {
          const x = await send(probe);
          exchanges.push(x);
          return x;
        });
        expect(outcome.verdict, scenario.title).toBeUndefined();
        expect(outcome.skip, scenario.title).toBeUndefined();
        expect(mismatches(exchanges), scenario.title).toEqual([]);
      }
    }
  });
});

describe('without --allow-destructive, against the mock', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('every probe gets its answer, and no company changes', async () => {
    const target = mockTarget({ baseUrl: mock.url, allowDestructive: false });
    const before = [mock.store.snapshot(target.main.ids.companyId), mock.store.snapshot(target.other!.ids.companyId)];
    const probes = probeSources.flatMap((source) => source(contextOf(target, 99, 10)).probes);
    const exchanges = await sendAll(probes);
    expect(mismatches(exchanges)).toEqual([]);
    expect(exchanges.filter((x) => !x.probe.endpoint.effect.startsWith('read') && x.response!.status < 300)).toEqual([]);
    expect(mock.store.operations).toEqual([]);
    expect([mock.store.snapshot(target.main.ids.companyId), mock.store.snapshot(target.other!.ids.companyId)]).toEqual(before);
  });
});
