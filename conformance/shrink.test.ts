/**
 * Shrinking: drawn values keep what fast-check needs to shrink them; every candidate stays in the
 * original probe's safety class and keeps its markers; the greedy descent ends at a value none of
 * whose smaller candidates fails with the same symptom, within its budgets, and says when a budget
 * stopped it; the runner shrinks one failure per symptom and reports the smallest request, the
 * first found, and what shrinking spent. End to end: against the mock's fault with 500 on
 * non-ASCII search text, the report shows one failure, with the shrunk request.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { queryArb, requestBodyArb } from '../spec/arbitraries.ts';
import { endpoint, operation } from '../spec/queries.ts';
import { checks } from './checks/index.ts';
import { createTransport } from './http.ts';
import { acceptProbes, inputProbes, limitProbes } from './probes/index.ts';
import { draw, drawValues } from './probes/request.ts';
import { contextOf, mockTarget } from './probes/test-target.ts';
import { renderConsole } from './report/console.ts';
import { runConformance, type Progress, type Suite } from './runner.ts';
import { requestSize, sameSafetyClass, shrinkFailures, type FailureFound, type ShrinkBudget } from './shrink.ts';
import { defaultSuite } from './suite.ts';
import type { Exchange, Probe, ProbeResponse, Send } from './types.ts';

const MARKERS = { search: 'hsc-conformance-probe-', replace: 'hsc-conformance-replaced-' };
const TEST_NET = /^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$/;
const nonAscii = (text: string) => [...text].filter((c) => !/[\x20-\x7e]/.test(c)).length;
const bodyOf = (probe: Probe): Record<string, unknown> => JSON.parse(probe.request.body ?? 'null') as Record<string, unknown>;
/** The body when it is a JSON object (a break may send malformed JSON, or another type). */
function jsonBody(probe: Probe): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(probe.request.body ?? 'null');
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The generated probes of the input sources, against the mock's fixtures. */
function generatedProbes(allowDestructive: boolean, seed: number): Probe[] {
  const context = contextOf(mockTarget({ allowDestructive }), seed, 3);
  return [acceptProbes, inputProbes, limitProbes].flatMap((source) => source(context).probes).filter((p) => p.generated);
}

describe('drawValues', () => {
  it.each([
    ['a request body with mapped fields', requestBodyArb(endpoint('searchAndReplace'))],
    ['a DNS update body', requestBodyArb(endpoint('updateDnsRecords'))],
    ['a query', queryArb(endpoint('checkWpAdminUserExists'))],
  ])('gives the values draw gives, with their shrink context: %s', (_, arb) => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 4 }), (seed, n) => {
        const values = drawValues(arb as fc.Arbitrary<unknown>, seed, n);
        expect(values.map((v) => v.value_)).toEqual(draw(arb as fc.Arbitrary<unknown>, seed, n));
        expect(values.every((v) => v.context !== undefined)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});

describe('shrink candidates', () => {
  const pools = new Map<string, Probe[]>();
  const pool = (allowDestructive: boolean, seed: number) => {
    const key = `${allowDestructive} ${seed}`;
    if (!pools.has(key)) pools.set(key, generatedProbes(allowDestructive, seed));
    return pools.get(key)!;
  };

  it('every source of generated input is shrinkable', () => {
    const names = new Set(pool(true, 1).map((p) => p.rule));
    for (const rule of ['INPUT-ACCEPT', 'INPUT-400', 'LIMIT-WP-COMMAND']) expect(names).toContain(rule);
  });

  it('stay in the original safety class, test the same thing and keep the markers, on any shrink path', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: 1, max: 3 }), fc.nat(), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), (destructive, seed, pick, path) => {
        const probes = pool(destructive, seed);
        // Half the picks among the probes that carry markers, so the markers are exercised often.
        const marked = probes.filter((p) => p.endpoint.name === 'searchAndReplace' || p.endpoint.name === 'updateDnsRecords');
        const chosen = pick % 2 === 0 && marked.length ? marked[pick % marked.length]! : probes[pick % probes.length]!;
        const generated = chosen.generated!;
        const zone = (probe: Probe) => String(bodyOf(probe).name).split('.').slice(1).join('.');
        let value = generated.value;
        for (const step of path) {
          const candidates = [...generated.arbitrary.shrink(value.value_, value.context).take(40)];
          if (candidates.length === 0) break;
          for (const candidate of candidates) {
            const probe = generated.build(candidate.value_);
            // Only a break of an item that may vanish (an array's first) may have no probe left.
            if (!probe) {
              expect(chosen.rule).toBe('INPUT-400');
              continue;
            }
            expect(sameSafetyClass(chosen, probe)).toBe(true);
            expect(probe.title).toBe(chosen.title);
            const body = jsonBody(probe);
            if (!body) continue;
            if (probe.endpoint.name === 'searchAndReplace') {
              for (const [field, marker] of Object.entries(MARKERS)) if (typeof body[field] === 'string') expect(body[field]).toMatch(new RegExp(`^${marker}`));
            }
            if (probe.endpoint.name === 'updateDnsRecords') {
              if (typeof body.name === 'string') {
                expect(body.name).toMatch(/^hsc-probe-[0-9a-f]+\./);
                expect(zone(probe)).toBe(zone(chosen));
              }
              for (const list of [body.new_resource_records, body.removed_resource_records]) {
                if (Array.isArray(list)) for (const item of list) if (typeof item?.value === 'string') expect(item.value).toMatch(TEST_NET);
              }
            }
          }
          value = candidates[step % candidates.length]!;
        }
      }),
      { numRuns: 60 },
    );
  });
});

// ---- the shrinker against a fake server ---------------------------------------------------------

const answer = (status: number): ProbeResponse => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ message: 'x', status }), json: { message: 'x', status }, ms: 0 });

/** A server with one bug: 500 when the search text holds a non-ASCII character; it records every request. */
function fakeServer(fails: (probe: Probe) => boolean = (p) => nonAscii(String(bodyOf(p).search ?? '')) > 0) {
  const sent: Probe[] = [];
  const send: Send = async (probe) => {
    sent.push(probe);
    return { probe, response: answer(fails(probe) ? 500 : 202), throttled: 0 };
  };
  return { sent, send, fails };
}

const searchProbes = (): Probe[] => {
  const context = contextOf(mockTarget({ allowDestructive: true }), 42, 4);
  return acceptProbes(context).probes.filter((p) => p.endpoint.name === 'searchAndReplace');
};

const found = async (send: Send, probe: Probe, rule: FailureFound['rule'] = 'NO-SERVER-ERROR'): Promise<FailureFound> => ({ rule, operation: operation(probe.endpoint), exchange: await send(probe) });

function shrinkWith(send: Send, budget: ShrinkBudget = { perFailure: 100, perRun: 400 }) {
  return (failures: readonly FailureFound[]) =>
    shrinkFailures(failures, { send, checks, context: { options: { strict: false } }, budget, received: () => {}, keep: (e: Exchange) => e, halted: () => false });
}

describe('shrinkFailures', () => {
  it('descends to a value none of whose smaller candidates still fails the rule', async () => {
    const server = fakeServer();
    const [probe] = searchProbes();
    const failure = await found(server.send, probe!);
    server.sent.length = 0;
    const { results, summary } = await shrinkWith(server.send)([failure]);
    const shrunk = results[0]!;
    const minimal = shrunk.exchange.probe;
    expect(shrunk.steps).toBeGreaterThan(0);
    expect(server.fails(minimal)).toBe(true);
    expect(shrunk.verdict?.title).toMatch(/500/);
    expect(shrunk.note).toMatchObject({ requests: server.sent.length, fromSize: requestSize(probe!.request), toSize: requestSize(minimal.request) });
    expect(shrunk.note.toSize).toBeLessThan(shrunk.note.fromSize);
    expect(shrunk.note.stopped).toBeUndefined();
    expect(bodyOf(minimal).search).toMatch(/^hsc-conformance-probe-/);
    expect(nonAscii(String(bodyOf(minimal).search))).toBe(1);
    // A local minimum: no one-step-smaller candidate (other than an identical request) fails.
    const generated = probe!.generated!;
    for (const c of generated.arbitrary.shrink(shrunk.value.value_, shrunk.value.context)) {
      const next = generated.build(c.value_);
      if (next && next.request.body !== minimal.request.body) expect(server.fails(next)).toBe(false);
    }
    expect(summary).toEqual({ perFailure: 100, perRun: 400, requests: server.sent.length, failures: 1, reduced: 1, stopped: 0 });
  });

  it('stops at the budget per failure and says so', async () => {
    const server = fakeServer();
    const failure = await found(server.send, searchProbes()[0]!);
    server.sent.length = 0;
    const { results, summary } = await shrinkWith(server.send, { perFailure: 2, perRun: 400 })([failure]);
    expect(server.sent).toHaveLength(2);
    expect(results[0]!.note.stopped).toMatch(/^stopped: its budget of 2 requests per failure/);
    expect(summary.stopped).toBe(1);
  });

  it('sends nothing for an answer it could not read (cut, too deep, encoded), and says why', async () => {
    const server = fakeServer();
    for (const unread of ['cut', 'deep', 'encoded'] as const) {
      const failure = await found(server.send, searchProbes()[0]!);
      const exchange = { ...failure.exchange!, response: { ...failure.exchange!.response!, json: undefined, jsonError: 'not read', unread } };
      server.sent.length = 0;
      const { results } = await shrinkWith(server.send)([{ ...failure, exchange }]);
      expect(server.sent).toHaveLength(0);
      expect(results[0]!.note.stopped).toMatch(/^not shrunk: the answer was not read for what it is/);
    }
  });

  it("stops at the run's budget, says so on every failure it cut, and takes each kind of failure before a second of any", async () => {
    const server = fakeServer();
    const [a1, a2, b1] = searchProbes();
    const failures = [await found(server.send, a1!), await found(server.send, a2!), await found(server.send, b1!, 'INPUT-ACCEPT')];
    server.sent.length = 0;
    // Unbounded first: the order, and how much each needs.
    const full = await shrinkWith(server.send)(failures);
    const order = server.sent.map((p) => [a1, a2, b1].findIndex((o) => o!.title === p.title));
    expect(order).toEqual([...order].sort((x, y) => [0, 2, 1].indexOf(x) - [0, 2, 1].indexOf(y)));
    const needA1 = full.results[0]!.note.requests;
    server.sent.length = 0;
    const cut = await shrinkWith(server.send, { perFailure: 100, perRun: needA1 })(failures);
    expect(server.sent).toHaveLength(needA1);
    expect(cut.results[0]!.note.stopped).toBeUndefined();
    for (const i of [1, 2]) expect(cut.results[i]!.note.stopped).toMatch(new RegExp(`^not shrunk: the run's shrinking budget of ${needA1} requests`));
    expect(cut.summary).toMatchObject({ requests: needA1, failures: 3, reduced: 1, stopped: 2 });
  });

  it('keeps to the symptom first found: a smaller candidate failing the rule with another status is not taken', async () => {
    // 500 for two or more non-ASCII characters in the search text, 503 for one: both break NO-SERVER-ERROR.
    const count = (p: Probe) => nonAscii(String(bodyOf(p).search ?? ''));
    const sent: Probe[] = [];
    const send: Send = async (p) => (sent.push(p), { probe: p, response: answer(count(p) >= 2 ? 500 : count(p) === 1 ? 503 : 202), throttled: 0 });
    const probe = searchProbes().find((p) => count(p) >= 3)!;
    expect(probe).toBeDefined();
    const { results } = await shrinkWith(send)([await found(send, probe)]);
    expect(results[0]!.steps).toBeGreaterThan(0);
    expect(results[0]!.exchange.response?.status).toBe(500);
    expect(count(results[0]!.exchange.probe)).toBe(2);
    // It met the other symptom on the way, and passed it by.
    expect(sent.some((p) => count(p) === 1)).toBe(true);
  });

  it('a failure of several rules shrinks to a candidate that breaks them all, with their verdicts merged', async () => {
    const server = fakeServer();
    const [probe] = searchProbes();
    const failure: FailureFound = { ...(await found(server.send, probe!)), rules: ['INPUT-ACCEPT', 'NO-SERVER-ERROR'] };
    const { results } = await shrinkWith(server.send)([failure]);
    expect(results[0]!.steps).toBeGreaterThan(0);
    expect(results[0]!.verdict?.message.split('\n').map((line) => line.split(':')[0])).toEqual(['INPUT-ACCEPT', 'NO-SERVER-ERROR']);
  });

  it('sends a request once, however many rules its failure broke', async () => {
    const server = fakeServer();
    const [probe] = searchProbes();
    const failures = [await found(server.send, probe!, 'NO-SERVER-ERROR'), await found(server.send, probe!, 'INPUT-ACCEPT')];
    server.sent.length = 0;
    const { results } = await shrinkWith(server.send)(failures);
    expect(new Set(server.sent.map((p) => p.request.body)).size).toBe(server.sent.length);
    expect(results[1]!.note.requests).toBe(0);
    expect(results[1]!.exchange.probe.request).toEqual(results[0]!.exchange.probe.request);
  });

  it('sends nothing when no failure has a generated input, or there is no failure', async () => {
    const server = fakeServer();
    const { generated: _, ...plain } = searchProbes()[0]!;
    const failure = await found(server.send, plain);
    server.sent.length = 0;
    const some = await shrinkWith(server.send)([failure, { rule: 'BASE-PATH', operation: '*' }]);
    const none = await shrinkWith(server.send)([]);
    expect(server.sent).toHaveLength(0);
    expect(some.results).toEqual([undefined, undefined]);
    expect(some.summary).toMatchObject({ requests: 0, failures: 0 });
    expect(none.summary).toMatchObject({ requests: 0, failures: 0 });
  });

  it('never sends a candidate outside the original safety class', async () => {
    const server = fakeServer(() => true);
    const original = searchProbes()[0]!;
    const generated = original.generated!;
    // A builder gone wrong: its candidates name another environment.
    const elsewhere: Probe = {
      ...original,
      generated: {
        ...generated,
        build: (v) => {
          const p = generated.build(v);
          return p && { ...p, request: { ...p.request, url: p.request.url.replace('/tools/', '/other/') } };
        },
      },
    };
    const failure = await found(server.send, elsewhere);
    server.sent.length = 0;
    const { results } = await shrinkWith(server.send)([failure]);
    expect(server.sent).toHaveLength(0);
    expect(results[0]).toMatchObject({ steps: 0, note: { requests: 0 } });
  });

  it('shrinks a failure to answer by the same kind of transport failure', async () => {
    const [probe] = searchProbes();
    const sent: Probe[] = [];
    const send: Send = async (p) => {
      sent.push(p);
      return nonAscii(String(bodyOf(p).search)) ? { probe: p, failure: { kind: 'reset', message: 'socket hang up', ms: 0 }, throttled: 0 } : { probe: p, response: answer(202), throttled: 0 };
    };
    const failure = await found(send, probe!);
    const { results } = await shrinkWith(send)([failure]);
    expect(results[0]!.steps).toBeGreaterThan(0);
    expect(results[0]!.exchange.failure?.kind).toBe('reset');
  });
});

// ---- the runner ---------------------------------------------------------------------------------

describe('the runner with shrinking', () => {
  const target = mockTarget({ allowDestructive: true });
  const run = (suite: Suite, send: Send, shrinkBudget?: ShrinkBudget) =>
    runConformance({ target, seed: 42, runs: 4, options: { strict: false }, send, suite, concurrency: 2, only: ['NO-SERVER-ERROR'], ...(shrinkBudget ? { shrinkBudget } : {}) });
  const suiteOf = (probes: Probe[]): Suite => ({ checks, probeSources: [() => ({ probes, skipped: [] })], scenarioSources: [] });

  it('shrinks one failure per symptom, and reports the smallest request, the first found, a curl line of the smallest, and what it spent', async () => {
    const server = fakeServer();
    const probes = searchProbes().slice(0, 3);
    const report = await run(suiteOf(probes), server.send);
    // Three exchanges, one symptom (500 on the same operation): one failure, shrunk once.
    expect(report.failures).toHaveLength(1);
    const f = report.failures[0]!;
    expect(f.occurrences).toBe(probes.length);
    expect(f.examples?.map((e) => e.request)).toEqual(probes.slice(1).map((p) => sanitized(p.request, target.main.apiKey)));
    expect(f.original).toEqual(sanitized(probes[0]!.request, target.main.apiKey));
    expect(f.shrinkSteps).toBeGreaterThan(0);
    expect(f.request.body!.length).toBeLessThan(f.original!.body!.length);
    expect(f.curl).toContain(f.request.body!.replace(/'/g, `'\\''`));
    expect(f.curl).not.toContain(String(bodyOf(probes[0]!).search));
    expect(f.shrink?.toSize).toBe(requestSize(f.request));
    const spent = server.sent.length - probes.length;
    expect(spent).toBe(f.shrink!.requests);
    expect(report.shrinking).toEqual({ perFailure: 100, perRun: 400, requests: spent, failures: 1, reduced: 1, stopped: 0 });
    expect(report.requests).toBe(server.sent.length);
    const text = renderConsole(report);
    expect(text).toContain(`shrunk:   from ${f.shrink!.fromSize} to ${f.shrink!.toSize} characters`);
    expect(text).toContain(`in ${f.shrinkSteps} steps`);
    expect(text).toMatch(/shrinking: 1 of 1 failure with a generated input made smaller, \d+ extra requests \(budget 100 per failure, 400 per run\)/);
  });

  it('reports shrinking\'s progress as it goes, and its final figure', async () => {
    const server = fakeServer();
    const seen: Progress[] = [];
    const report = await runConformance({
      target, seed: 42, runs: 4, options: { strict: false }, send: server.send, suite: suiteOf(searchProbes().slice(0, 1)), concurrency: 2, only: ['NO-SERVER-ERROR'], onProgress: (p) => seen.push(p),
    });
    const shrinking = seen.filter((p) => p.phase === 'shrinking');
    expect(shrinking[0]).toMatchObject({ done: 0, total: 400 });
    expect(shrinking.at(-1)).toMatchObject({ done: report.shrinking!.requests, total: 400, ended: true });
    expect(shrinking.filter((p) => p.ended)).toHaveLength(1);
    expect(shrinking.map((p) => p.done)).toEqual([...shrinking.map((p) => p.done)].sort((a, b) => a - b));
  });

  it("counts the candidates the target accepted in what the run changed (consumed)", async () => {
    // Fails while the search holds more than two non-ASCII characters: smaller candidates are accepted.
    const server = fakeServer((p) => nonAscii(String(bodyOf(p).search ?? '')) > 2);
    const probes = searchProbes().filter((p) => server.fails(p)).slice(0, 1);
    expect(probes).toHaveLength(1);
    const report = await run(suiteOf(probes), server.send);
    const accepted = server.sent.filter((p) => !server.fails(p)).length;
    expect(accepted).toBeGreaterThan(0);
    const e = endpoint('searchAndReplace');
    expect(report.consumed).toEqual([{ operation: operation(e), effect: e.effect, ids: { environment_id: bodyOf(probes[0]!).environment_id }, requests: accepted }]);
  });

  it('sends nothing more when nothing fails, and states the budgets all the same', async () => {
    const server = fakeServer(() => false);
    const probes = searchProbes();
    const report = await run(suiteOf(probes), server.send);
    expect(report.ok).toBe(true);
    expect(server.sent).toHaveLength(probes.length);
    expect(report.shrinking).toEqual({ perFailure: 100, perRun: 400, requests: 0, failures: 0, reduced: 0, stopped: 0 });
    expect(renderConsole(report)).not.toMatch(/shrinking|shrunk/);
  });

  it('says on the failure when a budget cut its shrinking', async () => {
    const server = fakeServer();
    const report = await run(suiteOf(searchProbes().slice(0, 1)), server.send, { perFailure: 1, perRun: 400 });
    expect(report.failures[0]).toMatchObject({ shrinkSteps: 1, shrink: { requests: 1, stopped: expect.stringMatching(/budget of 1 request per failure/) } });
    expect(renderConsole(report)).toMatch(/shrunk: .*; stopped: its budget of 1 request per failure/);
  });
});

// ---- end to end: the mock's fault with 500 on non-ASCII search text -------------------------------

describe('against the mock answering 500 to non-ASCII search text', () => {
  let mock: RunningMock;
  const send = createTransport({ timeoutMs: 10_000 });
  beforeAll(async () => {
    mock = await startMock({ port: 0, variant: 'search-replace-unicode-500' });
  });
  afterAll(async () => {
    await send.close();
    await mock.close();
  });

  it('reports the shrunk request, and the first found as the original', async () => {
    const target = mockTarget({ baseUrl: mock.url, allowDestructive: true });
    const [seed, runs] = [1106, 10];
    const report = await runConformance({ target, seed, runs, options: { strict: false }, send, suite: defaultSuite });
    const op = operation(endpoint('searchAndReplace'));
    const failures = report.failures.filter((f) => f.rules.includes('NO-SERVER-ERROR') && f.operation === op);
    // One server bug, one failure: every valid search with non-ASCII text shows the same symptom.
    expect(failures).toHaveLength(1);
    expect(failures[0]!.occurrences).toBeGreaterThan(1);
    expect(report.summary).toMatchObject({ distinctFailures: 1, failingExchanges: failures[0]!.occurrences });
    // The first found: the first search-and-replace request the accept probes send, rebuilt independently.
    const first = acceptProbes(contextOf(target, seed, runs)).probes.find((p) => p.endpoint.name === 'searchAndReplace')!;
    expect(failures[0]!.original).toEqual(sanitized(first.request, target.main.apiKey));
    for (const f of failures) {
      const minimal = JSON.parse(f.request.body!) as Record<string, string>;
      const original = JSON.parse(f.original!.body!) as Record<string, string>;
      expect(f.shrinkSteps).toBeGreaterThan(0);
      expect(minimal.search).toMatch(/^hsc-conformance-probe-/);
      expect(minimal.replace).toMatch(/^hsc-conformance-replaced-/);
      // The fault answers 500 to non-ASCII in either field: the minimal request keeps it in one only.
      expect([minimal.search!, minimal.replace!].filter((text) => nonAscii(text) > 0)).toHaveLength(1);
      expect(minimal.search!.length + minimal.replace!.length).toBeLessThan(original.search!.length + original.replace!.length);
      expect(f.curl).toContain(`"search":"${minimal.search}"`);
    }
    // The minimal request still fails on the mock, as sent by hand.
    const again = await send({ ...first, request: { ...first.request, body: failures[0]!.request.body! } });
    expect(again.response?.status).toBe(500);
    expect(report.shrinking!.requests).toBeGreaterThan(0);
    expect(report.shrinking!.requests).toBeLessThanOrEqual(report.shrinking!.perRun);
  });
});

/** A request as the report shows it: the key redacted. */
const sanitized = (request: Probe['request'], key: string) => JSON.parse(JSON.stringify(request).replaceAll(key, '[redacted HSC_API_KEY]')) as Probe['request'];
