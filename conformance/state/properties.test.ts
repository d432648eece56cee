/**
 * The state properties against loopback mocks: the reference passes and is left as found (what
 * cannot be undone is named in the notes); every state fault of the catalogue fails on its rule
 * with the shortest failing sequence in the message; a layout whose effects show only later
 * passes; the budgets bound what is sent and say where they stopped; and what cannot run skips
 * with a reason. One mock per case, closed after it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../mock/server.ts';
import type { Variant } from '../../mock/variant.ts';
import type { DomainState, Store } from '../../mock/store.ts';
import type { UpdateDnsRecordsRequest } from '../../generated/types.ts';
import { HttpError } from '../../mock/errors.ts';
import { layoutNamed, type Layout } from '../../mock/layouts.ts';
import { stateFaults } from '../../mock/variants/faults-state.ts';
import { api } from '../../spec/api.ts';
import type { RuleId } from '../../spec/model.ts';
import { operation } from '../../spec/queries.ts';
import { catalogue } from '../../mock/variants/index.ts';
import { checks } from '../checks/index.ts';
import { discover } from '../discovery.ts';
import { acceptProbes } from '../probes/accept.ts';
import { createTransport } from '../http.ts';
import { contextOf, mockTarget, recording } from '../probes/test-target.ts';
import { runConformance } from '../runner.ts';
import type { Exchange, ProbeContext, ScenarioSource, Target } from '../types.ts';
import { dnsOpening, dnsUpdateScenarios } from './dns.ts';
import { EMBEDDED_BUDGET, LIVE_BUDGET, type StateBudget } from './property.ts';
import { sftpRemoveScenarios } from './sftp.ts';
import { wpaUserScenarios } from './wpa.ts';

const transport = createTransport({ timeoutMs: 10_000 });
afterAll(() => transport.close());

/** Faults show within this window: the mock answers at once, so a short one only speeds up the failures. */
const FAST: Partial<StateBudget> = { poll: { windowMs: 150, intervalMs: 10, maxIntervalMs: 40 } };

const sources: Readonly<Record<string, (budget: Partial<StateBudget>) => ScenarioSource>> = {
  'STATE-DNS-UPDATE': (budget) => dnsUpdateScenarios({ budget }),
  'STATE-SFTP-REMOVE': (budget) => sftpRemoveScenarios({ budget }),
  'STATE-WPA-USER': (budget) => wpaUserScenarios({ budget }),
};

interface Ran {
  readonly outcome: Awaited<ReturnType<import('../types.ts').Scenario['run']>>;
  readonly exchanges: readonly Exchange[];
  readonly mock: RunningMock;
  readonly target: Target;
}

/** Runs the property of `rule` against a fresh mock (closed afterwards); `before` may change the mock first. */
async function runOn(rule: RuleId, options: { variant?: Variant; layout?: Layout; budget?: Partial<StateBudget>; target?: (t: Target) => Target; seed?: number; before?: (mock: RunningMock) => unknown } = {}, then?: (ran: Ran) => void | Promise<void>): Promise<Ran> {
  const mock = await startMock({ port: 0, ...(options.variant ? { variant: options.variant } : {}), ...(options.layout ? { layout: options.layout } : {}) });
  try {
    await options.before?.(mock);
    const base: Target = { ...mockTarget({ baseUrl: mock.url }), embedded: true };
    const target = options.target ? options.target(base) : base;
    const context: ProbeContext = contextOf(target, options.seed ?? 1106, 100);
    const { scenarios, skipped } = sources[rule]!({ ...FAST, ...options.budget })(context);
    expect(skipped).toEqual([]);
    expect(scenarios).toHaveLength(1);
    const { send, exchanges } = recording(transport);
    const outcome = await scenarios[0]!.run(send);
    const ran = { outcome, exchanges, mock, target };
    await then?.(ran);
    return ran;
  } finally {
    await mock.close();
  }
}

const stateRules = api.rules.map((r) => r.id).filter((id) => id.startsWith('STATE-'));

describe('against the reference mock', () => {
  it('covers every STATE rule of the model', () => {
    expect(Object.keys(sources).sort()).toEqual([...stateRules].sort());
  });

  it.each(stateRules)('%s holds, and every exchange is one the property meant', async (rule) => {
    await runOn(rule, {}, ({ outcome, exchanges }) => {
      expect(outcome.verdict).toBeUndefined();
      expect(outcome.skip).toBeUndefined();
      expect(exchanges.length).toBeGreaterThan(0);
      for (const x of exchanges) {
        expect(x.probe.rule).toBe(rule);
        expect(x.response?.status, `${x.probe.title}: ${x.response?.text}`).toBeLessThan(300);
      }
      expect(outcome.notes?.[0]).toMatch(new RegExp(`^${rule} \\(model-based\\): \\d+ of at most \\d+ command sequences`));
    });
  });

  it('DNS: the domain is left as found, every update named only probe records inside its zone with TEST-NET values', async () => {
    let before: unknown;
    await runOn(
      'STATE-DNS-UPDATE',
      { before: (mock) => (before = structuredClone(domainOf(mock).dnsRecords)) },
      ({ exchanges, mock, target }) => {
        expect(domainOf(mock).dnsRecords).toEqual(before);
        const updates = exchanges.filter((x) => x.probe.endpoint.name === 'updateDnsRecords').map((x) => JSON.parse(x.probe.request.body!) as Record<string, unknown>);
        expect(updates.length).toBeGreaterThan(5);
        const zone = target.main.ids.dnsRecord!.name;
        const values = (list: unknown) => (list as { value: string }[]).map((v) => v.value);
        for (const body of updates) {
          expect(body.name).toMatch(new RegExp(`^hsc-probe-[0-9a-f]{10}\\.${zone.replaceAll('.', '\\.')}$`));
          for (const v of [...values(body.new_resource_records), ...values(body.removed_resource_records)]) expect(v).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$/);
        }
        // Several values per record: some update adds more than one, some removes more than one while others stay.
        expect(updates.some((b) => values(b.new_resource_records).length > 1)).toBe(true);
        expect(updates.some((b) => values(b.removed_resource_records).length > 1)).toBe(true);
      },
    );
  });

  it('DNS: a domain without any record, named in `domainName`, still gets the property, its probe records inside that name', async () => {
    await runOn(
      'STATE-DNS-UPDATE',
      {
        before: (mock) => {
          const domain = domainOf(mock);
          for (const r of [...domain.dnsRecords]) mock.store.updateDnsRecords(domain, { type: r.type, name: r.name, removed_resource_records: r.resource_records });
          expect(domain.dnsRecords).toEqual([]);
        },
        target: (t) => {
          const { dnsRecord: _, ...ids } = t.main.ids;
          return { ...t, main: { ...t.main, ids: { ...ids, domainName: 'bare.example.test' } } };
        },
      },
      ({ outcome, exchanges, mock }) => {
        expect(outcome.verdict).toBeUndefined();
        const names = exchanges.filter((x) => x.probe.endpoint.name === 'updateDnsRecords').map((x) => (JSON.parse(x.probe.request.body!) as { name: string }).name);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) expect(name).toMatch(/^hsc-probe-[0-9a-f]{10}\.bare\.example\.test$/);
        expect(domainOf(mock).dnsRecords).toEqual([]);
      },
    );
  });

  it('SFTP: a removal that also takes an account of another environment fails, naming that environment and the account', async () => {
    // Written from the document alone: removal by user name takes the same name in the site's other environment.
    const fault = catalogue.find((v) => v.name === 'blind-sftp-removal-by-username')!;
    const mock = await startMock({ port: 0, variant: fault });
    try {
      const { ids } = await discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.siteId, send: transport });
      const other = ids.places!.find((p) => p.envId !== ids.envId && p.sftpAccountIds.length > 0)!;
      expect(other).toBeDefined();
      const target: Target = { baseUrl: mock.url, main: { apiKey: mock.fixtures.apiKey, ids }, allowDestructive: true, embedded: true };
      const { scenarios } = sources['STATE-SFTP-REMOVE']!(FAST)(contextOf(target, 1106, 100));
      const outcome = await scenarios[0]!.run(transport);
      expect(outcome.verdict?.title).toBe('removing an SFTP account removed others too');
      expect(outcome.verdict?.message).toContain(`environment ${other.envId} no longer lists`);
      expect(other.sftpAccountIds.some((id) => outcome.verdict!.message.includes(id))).toBe(true);
    } finally {
      await mock.close();
    }
  });

  it('SFTP: removes only accounts of the environment, never the one INPUT-ACCEPT takes, and names each in the notes', async () => {
    await runOn('STATE-SFTP-REMOVE', {}, ({ exchanges, mock, target, outcome }) => {
      const ids = target.main.ids.sftpAccountIds.map((id) => id.toLowerCase());
      const removed = exchanges.filter((x) => x.probe.endpoint.name === 'removeAdditionalSftpAccount').map((x) => decodeURIComponent(x.probe.request.url.split('/').pop()!));
      expect(removed.length).toBeGreaterThan(0);
      for (const id of removed) expect(ids.slice(0, -1)).toContain(id);
      const left = envOf(mock).sftpAccounts.map((a) => a.id);
      expect(left).toContain(ids.at(-1));
      expect(left.filter((id) => removed.includes(id))).toEqual([]);
      const note = outcome.notes!.find((n) => n.includes('removed'))!;
      for (const id of removed) expect(note).toContain(id);
    });
  });

  it('WPA: creates only probe addresses at the example domains, each one the notes name, and the mock now knows them', async () => {
    await runOn('STATE-WPA-USER', {}, ({ exchanges, mock, outcome }) => {
      const created = exchanges.filter((x) => x.probe.endpoint.name === 'createWpAdminUser').map((x) => (JSON.parse(x.probe.request.body!) as { email: string }).email);
      expect(created.length).toBeGreaterThan(0);
      expect(created.length).toBeLessThanOrEqual(EMBEDDED_BUDGET.irreversible);
      for (const email of created) {
        // Probe labels in the shapes addresses take (case, tag, dots, length), only at the reserved example domains (RFC 2606).
        expect(email).toMatch(/^hsc-probe-[0-9a-f]{10}(\.[a-z0-9]{1,8})?(\+[a-z0-9]{1,8})?x*@example\.(com|org|net)$/i);
        expect(mock.store.hasWpAdmin(envOf(mock), email)).toBe(true);
      }
      const note = outcome.notes!.find((n) => n.includes('created'))!;
      expect(note).toContain(`created ${created.length} site-admin users`);
      const named = created.filter((email) => note.includes(email));
      expect(named).toEqual(created.slice(0, named.length));
      expect(named.length).toBeGreaterThan(0);
    });
  });
});

/**
 * What each fault's shortest failing sequence must be, from what the fault does and the opening
 * every sequence begins with (never shrunk away: r2 given two values, r2 losing both, r1 given
 * two): a change that never happens shows at the first update, a removal of several values at the
 * second; a change that touches what it should not needs a record to hold something first, so
 * one command after the opening.
 */
const OPENING = dnsOpening().length;
const shortest: Readonly<Record<string, { readonly commands: number; readonly last: RegExp; readonly title: RegExp }>> = {
  'dns-update-not-applied': { commands: 1, last: /^add [\d., ]+ to r2 \(ttl \d+\)$/, title: /did not change the values it named/ },
  'dns-removal-not-applied': { commands: 2, last: /^remove [\d.]+, [\d.]+ from r2/, title: /did not change the values it named/ },
  'dns-update-drops-other-values': { commands: OPENING + 1, last: /^add [\d., ]+ to r1 \(ttl \d+\)$/, title: /changed values it did not name/ },
  'dns-update-trims-other-records': { commands: OPENING + 1, last: /^add [\d., ]+ to r2 \(ttl \d+\)$/, title: /changed values it did not name/ },
  'dns-removal-only-first-value': { commands: 2, last: /remove [\d.]+, [\d.]+/, title: /did not change the values it named/ },
  'dns-removal-removes-all': { commands: OPENING + 1, last: /^remove [\d.]+ from r1 \(ttl \d+\)$/, title: /changed values it did not name/ },
  'dns-update-ttl-ignored': { commands: OPENING + 1, last: /r1 \(ttl \d+\)$/, title: /did not set the ttl it carried/ },
  'sftp-removal-not-applied': { commands: 1, last: /^remove account /, title: /stayed listed/ },
  'sftp-removal-removes-every-account': { commands: 1, last: /^remove account /, title: /removed others too/ },
  'sftp-removal-deactivates-others': { commands: 1, last: /^remove account /, title: /changed another/ },
  'sftp-removal-by-directory': { commands: 1, last: /^remove account /, title: /removed others too/ },
  'wpa-create-user-not-created': { commands: 1, last: /^create the site-admin user a1$/, title: /does not exist/ },
};

describe('against each state fault of the catalogue', () => {
  it('every state fault has its expected shortest sequence here', () => {
    expect(stateFaults.map((f) => f.name).sort()).toEqual(Object.keys(shortest).sort());
  });

  it.each(stateFaults.map((f) => [f.name, f] as const))('%s fails its rule, with the shortest failing sequence', async (name, fault) => {
    const want = shortest[name]!;
    await runOn(fault.rule!, { variant: fault }, ({ outcome }) => {
      expect(outcome.verdict?.title).toMatch(want.title);
      const message = outcome.verdict!.message;
      const sequence = /Shortest failing sequence \((\d+) commands?, found in sequence \d+ of \d+, [^)]*\): (.*?)(?: — where (.*))?\.$/.exec(message);
      expect(sequence, message).not.toBeNull();
      const commands = sequence![2]!.split('; ');
      expect(Number(sequence![1])).toBe(commands.length);
      expect(commands, message).toHaveLength(want.commands);
      expect(commands.at(-1)).toMatch(want.last);
      // The exchange shown is one of the property's operations, and the failure is the action's.
      expect(outcome.exchange?.probe.rule).toBe(fault.rule);
      // Its sequence: one action per command (none of these is a read), then the read that showed it, if a read did.
      const steps = outcome.sequence!;
      const shownByRead = outcome.exchange!.probe.endpoint.effect === 'read';
      expect(steps).toHaveLength(want.commands + (shownByRead ? 1 : 0));
      expect(steps.at(-1)!.request).toBe(outcome.exchange!.probe.request);
      const action = api.endpoints.find((e) => e.name === fault.endpoint)!;
      for (const step of steps.slice(0, want.commands)) expect(step.request.method).toBe(action.method);
    });
  });

  it('DNS: the domain is left as found after a failure too', async () => {
    let before: unknown;
    const fault = stateFaults.find((f) => f.name === 'dns-update-drops-other-values')!;
    await runOn('STATE-DNS-UPDATE', { variant: fault, before: (mock) => (before = structuredClone(domainOf(mock).dnsRecords)) }, ({ outcome, mock }) => {
      expect(outcome.verdict).toBeDefined();
      expect(domainOf(mock).dnsRecords).toEqual(before);
    });
  });

  it('through the runner: the failure is on the action, its message carries the sequence, the notes what the property spent', async () => {
    for (const fault of stateFaults.filter((f) => f.name === 'dns-removal-only-first-value' || f.name === 'wpa-create-user-not-created')) {
      const mock = await startMock({ port: 0, variant: fault });
      try {
        const target: Target = { ...mockTarget({ baseUrl: mock.url }), embedded: true };
        const report = await runConformance({
          target,
          seed: 1106,
          runs: 100,
          options: { strict: false },
          send: transport,
          suite: { checks, probeSources: [], scenarioSources: Object.values(sources).map((s) => s(FAST)) },
        });
        const failures = report.failures.filter((f) => f.rule === fault.rule);
        // The same failure on each row the property relates (the action and the read that shows it), the action's first.
        const action = operation(api.endpoints.find((e) => e.name === fault.endpoint)!);
        expect(failures[0]!.operation).toBe(action);
        expect(new Set(failures.map((f) => f.operation)).size).toBe(failures.length);
        for (const f of failures) expect(f.message).toBe(failures[0]!.message);
        expect(failures[0]!.message).toMatch(/Shortest failing sequence \(\d+ commands?/);
        // The sequence, structured: each step a request relative to the base URL with its own curl line, the key as its variable.
        const { sequence, curl } = failures[0]!;
        expect(sequence!.length).toBeGreaterThan(0);
        for (const step of sequence!) {
          expect(step.path.startsWith('/')).toBe(true);
          expect(step.curl).toContain(`${target.baseUrl}${step.path}`);
          expect(step.curl).toContain('"$HSC_API_KEY"');
          if (step.body !== undefined) expect(JSON.parse(step.body)).toBeTypeOf('object');
        }
        // The failure's curl line runs them all, in order.
        const at = sequence!.map((step) => curl.indexOf(step.curl));
        expect(at.every((i) => i >= 0)).toBe(true);
        expect([...at].sort((a, b) => a - b)).toEqual(at);
        expect(JSON.stringify(report)).not.toContain(target.main.apiKey);
        // What each property spent, shrinking included, beside the generated inputs' shrinking.
        expect(report.stateShrinking!.map((s) => s.rule).sort()).toEqual([...stateRules].sort());
        const spent = report.stateShrinking!.find((s) => s.rule === fault.rule)!;
        expect(spent.shrunk!.toCommands).toBeLessThanOrEqual(spent.shrunk!.fromCommands);
        expect(spent.shrinkRequests).toBeLessThanOrEqual(spent.budget.shrinkRequests);
        for (const rule of stateRules) expect(report.notes.some((n) => n.startsWith(`${rule} (model-based)`))).toBe(true);
        expect(report.checks.filter((c) => stateRules.includes(c.rule) && c.rule !== fault.rule).every((c) => c.outcome === 'passed')).toBe(true);
      } finally {
        await mock.close();
      }
    }
  });
});

describe('when effects show only later (accepted, not completed)', () => {
  // The catalogue's delayed layout, its delay cut to 40 ms to keep the test short.
  const delayed: Layout = { ...layoutNamed('delayed-effects'), effectDelayMs: 40 };
  const patient: Partial<StateBudget> = { poll: { windowMs: 10_000, intervalMs: 5, maxIntervalMs: 50 } };

  it.each(stateRules)('%s holds, reading again until each effect shows', async (rule) => {
    await runOn(rule, { layout: delayed, budget: patient }, ({ outcome, exchanges }) => {
      expect(outcome.verdict).toBeUndefined();
      // The delay mattered: some action was followed by more than one read before the next action.
      const actions = exchanges.map((x, i) => (x.probe.endpoint.effect !== 'read' ? i : -1)).filter((i) => i >= 0);
      const readsAfter = actions.map((i) => exchanges.slice(i + 1).findIndex((x) => x.probe.endpoint.effect !== 'read'));
      expect(readsAfter.some((n) => n === -1 || n > 1)).toBe(true);
    });
  });
});

describe('budgets', () => {
  it('with the live shares, and its poll scaled to a short window, removing all values on any removal shrinks to the opening and the command that shows it', async () => {
    // The live budget read as often, relative to its window, as against a live API.
    const window = 200;
    const live: Partial<StateBudget> = { ...LIVE_BUDGET, settleMs: window, poll: { windowMs: window, intervalMs: (window * LIVE_BUDGET.poll.intervalMs) / LIVE_BUDGET.poll.windowMs, maxIntervalMs: (window * LIVE_BUDGET.poll.maxIntervalMs) / LIVE_BUDGET.poll.windowMs } };
    const fault = stateFaults.find((f) => f.name === 'dns-removal-removes-all')!;
    await runOn('STATE-DNS-UPDATE', { variant: fault, budget: live }, ({ outcome }) => {
      expect(outcome.verdict!.message).toMatch(new RegExp(`Shortest failing sequence \\(${OPENING + 1} commands, `));
      expect(outcome.verdict!.message).not.toMatch(/stopped early/);
      expect(outcome.spend!.shrinkRequests).toBeLessThanOrEqual(LIVE_BUDGET.shrinkRequests);
    });
  });

  it('a spent budget ends the property: the requests stay within it, the notes say where it stopped, and no failure is made up', async () => {
    const budget: Partial<StateBudget> = { requests: 7, cleanupRequests: 4 };
    await runOn('STATE-DNS-UPDATE', { budget }, ({ outcome, exchanges }) => {
      expect(outcome.verdict).toBeUndefined();
      expect(exchanges.length).toBeLessThanOrEqual(budget.requests! + budget.cleanupRequests!);
      expect(outcome.notes![0]).toMatch(/stopped: the budget of 7 requests was spent/);
    });
  });

  it('shrinking stops at its share of the budget, and the message says the sequence may not be the shortest', async () => {
    // A fault shown after the opening: its sequences have commands to shrink away.
    const fault = stateFaults.find((f) => f.name === 'dns-update-drops-other-values')!;
    const all = await runOn('STATE-DNS-UPDATE', { variant: fault });
    const shrinking = Number(/\((\d+) shrinking/.exec(all.outcome.notes![0]!)![1]);
    expect(shrinking).toBeGreaterThan(2);
    const budget: Partial<StateBudget> = { shrinkRequests: 2 };
    await runOn('STATE-DNS-UPDATE', { variant: fault, budget }, ({ outcome }) => {
      expect(outcome.verdict?.message).toMatch(/shrinking stopped early \(shrinking spent its 2 requests\), so a shorter one may exist/);
      expect(outcome.notes![0]).toMatch(/\(2 shrinking, at most 2\)/);
    });
  });

  it('irreversible changes stop at their bound', async () => {
    await runOn('STATE-WPA-USER', { budget: { irreversible: 2 } }, ({ exchanges, outcome }) => {
      expect(outcome.verdict).toBeUndefined();
      expect(exchanges.filter((x) => x.probe.endpoint.name === 'createWpAdminUser')).toHaveLength(2);
    });
    await runOn('STATE-SFTP-REMOVE', { budget: { irreversible: 1 } }, ({ exchanges }) => {
      expect(exchanges.filter((x) => x.probe.endpoint.name === 'removeAdditionalSftpAccount')).toHaveLength(1);
    });
  });

  it('the same seed sends the same requests to the same state', async () => {
    const urls = async () => (await runOn('STATE-DNS-UPDATE')).exchanges.map((x) => `${x.probe.request.method} ${x.probe.request.url} ${x.probe.request.body ?? ''}`.replace(/127\.0\.0\.1:\d+/, 'mock'));
    expect(await urls()).toEqual(await urls());
  });
});

describe('what cannot run skips with a reason', () => {
  const cases: [string, RuleId, (t: Target) => Target, RegExp][] = [
    ['no --allow-destructive (DNS)', 'STATE-DNS-UPDATE', (t) => ({ ...t, allowDestructive: false }), /needs --allow-destructive/],
    ['no --allow-destructive (SFTP)', 'STATE-SFTP-REMOVE', (t) => ({ ...t, allowDestructive: false }), /needs --allow-destructive/],
    ['no --allow-destructive (WPA)', 'STATE-WPA-USER', (t) => ({ ...t, allowDestructive: false }), /needs --allow-destructive/],
    ['no domain', 'STATE-DNS-UPDATE', (t) => ({ ...t, main: { ...t.main, ids: { ...t.main.ids, domainId: undefined } } }) as Target, /no domain discovered/],
    ['no zone name', 'STATE-DNS-UPDATE', (t) => ({ ...t, main: { ...t.main, ids: { ...t.main.ids, dnsRecord: undefined } } }) as Target, /no domain with a name discovered/],
    ['no SFTP account', 'STATE-SFTP-REMOVE', (t) => ({ ...t, main: { ...t.main, ids: { ...t.main.ids, sftpAccountIds: [] } } }), /no additional SFTP account discovered/],
  ];
  it.each(cases)('%s', (_, rule, change, reason) => {
    const context = contextOf(change(mockTarget()));
    const { scenarios, skipped } = sources[rule]!({})(context);
    expect(scenarios).toEqual([]);
    const endpoints = api.rules.find((r) => r.id === rule)!.scope as { endpoints: readonly string[] };
    expect(skipped.map((s) => s.endpoint.name).sort()).toEqual([...endpoints.endpoints].sort());
    for (const s of skipped) expect(s.reason).toMatch(reason);
  });

  it('a state that cannot be read is a skip, never a pass', async () => {
    const unreadable: Variant = { name: 'dns-list-500', kind: 'fault', description: '', hooks: { respond: (e, _r, res) => (e?.name === 'listDnsRecords' ? { ...res, status: 500, body: { message: 'x', status: 500 } } : res) } };
    await runOn('STATE-DNS-UPDATE', { variant: unreadable }, ({ outcome }) => {
      expect(outcome.verdict).toBeUndefined();
      expect(outcome.skip).toMatch(/could not be read \(HTTP 500\)/);
    });
  });
});

describe('DNS: records the suite never named, and what probes leave behind', () => {
  it('a server that bumps its SOA serial on every change holds (ASM-DNS-OTHERS-UNCHANGED)', async () => {
    const variant = catalogue.find((v) => v.name === 'dns-soa-serial')!;
    await runOn('STATE-DNS-UPDATE', { variant }, ({ outcome, exchanges }) => {
      expect(outcome.verdict).toBeUndefined();
      // The serial did change under the property's reads.
      const serials = new Set(exchanges.flatMap((x) => ((x.response?.json as { domain?: { dns_records?: { type: string; resource_records: { value: string }[] }[] } })?.domain?.dns_records ?? []).filter((r) => r.type === 'SOA').map((r) => r.resource_records[0]!.value)));
      expect(serials.size).toBeGreaterThan(1);
    });
  });

  it('the end removes the values of every `hsc-probe-…` record of the domain, other probes\' too, and no other record; the notes name them', async () => {
    let owners: unknown;
    const others = [
      { type: 'A', name: 'hsc-probe-0000000001', values: ['192.0.2.7', '192.0.2.8'] },
      { type: 'TXT', name: 'HSC-PROBE-0000000002', values: ['probe'] },
      { type: 'A', name: 'hsc-probe-0000000003', values: ['198.51.100.9'] },
    ];
    const decoys = [
      { type: 'A', name: 'www.hsc-probe-0000000004', values: ['203.0.113.1'] },
      { type: 'A', name: 'hsc-probes', values: ['203.0.113.2'] },
    ];
    await runOn(
      'STATE-DNS-UPDATE',
      {
        before: (mock) => {
          const domain = domainOf(mock);
          const zone = domain.dnsRecords.find((r) => r.type === 'A')!.name;
          for (const r of [...others, ...decoys]) mock.store.updateDnsRecords(domain, { type: r.type, name: `${r.name}.${zone}`, new_resource_records: r.values.map((value) => ({ value })) });
          owners = structuredClone(domain.dnsRecords.filter((r) => !/^hsc-probe-/i.test(r.name)));
        },
      },
      ({ outcome, mock }) => {
        expect(outcome.verdict).toBeUndefined();
        expect(domainOf(mock).dnsRecords).toEqual(owners);
        const note = outcome.notes!.find((n) => n.includes('other probes left'))!;
        expect(note).toContain(`on ${others.length} \`hsc-probe-…\` records`);
        for (const r of others) expect(note.toLowerCase()).toContain(r.name.toLowerCase());
        expect(outcome.notes!.some((n) => n.includes('could not remove'))).toBe(false);
      },
    );
  });

  it('waits for other probes\' updates to settle: a value that shows only after the property began is removed too', async () => {
    // Effects show 150 ms after the answer; the property is cut short at once, so only the settling wait covers the delay.
    const delayed: Layout = { ...layoutNamed('delayed-effects'), effectDelayMs: 150 };
    let probeName = '';
    await runOn(
      'STATE-DNS-UPDATE',
      {
        layout: delayed,
        budget: { requests: 1, settleMs: 1_000 },
        before: async (mock) => {
          const domain = domainOf(mock);
          probeName = `hsc-probe-00000000aa.${domain.dnsRecords.find((r) => r.type === 'A')!.name}`;
          const answer = await fetch(`${mock.url}/domains/${domain.id}/dns-records`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${mock.fixtures.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'A', name: probeName, ttl: 300, new_resource_records: [{ value: '192.0.2.44' }], removed_resource_records: [] }),
          });
          expect(answer.status).toBe(202);
          expect(domainOf(mock).dnsRecords.some((r) => r.name === probeName)).toBe(false);
        },
      },
      async ({ outcome, mock }) => {
        expect(outcome.notes!.find((n) => n.includes('other probes left'))).toContain(probeName);
        await new Promise((resolve) => setTimeout(resolve, 200)); // any removal still deferred shows
        expect(domainOf(mock).dnsRecords.some((r) => r.name === probeName)).toBe(false);
      },
    );
  });
});

describe('DNS: damage earlier probes did shows in a full run (probes, then the property)', () => {
  /** A fault whose DNS update applies the update, then `after` on the same domain. */
  const dnsFault = (name: string, after: (store: Store, domain: DomainState, body: UpdateDnsRecordsRequest) => void): Variant => ({
    name,
    kind: 'fault',
    description: '',
    hooks: {
      handlers: {
        updateDnsRecords: (context) => {
          const domain = context.store.domain(context.company.id, context.params.domain_id)!;
          context.store.updateDnsRecords(domain, context.body);
          after(context.store, domain, context.body);
          return context.acknowledge(domain.id, context.body);
        },
      },
    },
  });

  /** Every update also trims the domain's other records to one value, sparing records whose name marks them as the suite's scratch. */
  const trimsOwners = dnsFault('trims-owner-records', (store, domain) => {
    for (const other of domain.dnsRecords.filter((r) => !/^hsc-probe-/.test(r.name) && r.resource_records.length > 1)) {
      store.updateDnsRecords(domain, { type: other.type, name: other.name, removed_resource_records: other.resource_records.slice(1) });
    }
  });

  /**
   * Each update that names `trigger.name` (one of INPUT-ACCEPT's, set once the probes are known)
   * adds a value to the owner's A record: a change every such update repeats, which the
   * property's own updates (other names) never make.
   */
  const trigger = { name: '' };
  let leaked = 0;
  const leaksOnOne = dnsFault('leaks-on-one-update', (store, domain, body) => {
    const apex = domain.dnsRecords.find((r) => r.type === 'A' && !/^hsc-probe-/.test(r.name))!;
    if (body.name === trigger.name) store.updateDnsRecords(domain, { type: 'A', name: apex.name, new_resource_records: [{ value: `203.0.113.${++leaked}` }] });
  });

  const fullRun = async (variant: Variant | undefined) => {
    const mock = await startMock({ port: 0, ...(variant ? { variant } : {}) });
    try {
      // The owner's A record holds two values, as real zones often do.
      const { ids: discovered } = await (async () => {
        const domain = domainOf(mock);
        const apex = domain.dnsRecords.find((r) => r.type === 'A')!;
        mock.store.updateDnsRecords(domain, { type: 'A', name: apex.name, new_resource_records: [{ value: '198.51.100.77' }] });
        return discover({ baseUrl: mock.url, apiKey: mock.fixtures.apiKey, siteId: mock.fixtures.siteId, send: transport });
      })();
      expect(discovered.dnsRecordsAtStart?.length).toBeGreaterThan(0);
      const target: Target = { baseUrl: mock.url, main: { apiKey: mock.fixtures.apiKey, ids: discovered }, allowDestructive: true, embedded: true };
      // The smallest of INPUT-ACCEPT's DNS updates, as the run will send them: the one sent again first.
      const updates = acceptProbes(contextOf(target, 1106, 5)).probes.filter((p) => p.endpoint.name === 'updateDnsRecords');
      const smallest = updates.reduce((a, b) => (b.request.body!.length < a.request.body!.length ? b : a));
      trigger.name = (JSON.parse(smallest.request.body!) as { name: string }).name;
      return await runConformance({
        target,
        seed: 1106,
        runs: 5,
        options: { strict: false },
        send: transport,
        suite: { checks, probeSources: [acceptProbes], scenarioSources: [dnsUpdateScenarios({ budget: FAST })] },
      });
    } finally {
      await mock.close();
    }
  };

  it('a fault that spares the suite\'s own records, whose damage INPUT-ACCEPT\'s updates did before the property began, fails STATE-DNS-UPDATE', async () => {
    const report = await fullRun(trimsOwners);
    const failures = report.failures.filter((f) => f.rule === 'STATE-DNS-UPDATE' && f.operation === 'PUT /domains/{domain_id}/dns-records');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.title).toBe('DNS values changed that no update named');
    expect(failures[0]!.message).toMatch(/198\.51\.100\.77/);
    // A trim done once does not repeat: the sequence is every update acknowledged before, then the read that shows the damage.
    const { sequence, message } = failures[0]!;
    expect(message).toMatch(/The \d+ DNS updates acknowledged before it \(INPUT-ACCEPT valid request 1 of 5/);
    expect(message).toMatch(/Sent again alone, the smallest 2 of them changed nothing more/);
    expect(message).toMatch(/rest on ASM-DNS-NEW-RECORD for `name`/);
    const updates = sequence!.slice(0, -1);
    expect(updates.length).toBeGreaterThan(1);
    for (const step of updates) expect(step.method).toBe('PUT');
    expect(sequence!.at(-1)).toMatchObject({ method: 'GET', path: updates[0]!.path, afterMs: FAST.settleMs ?? EMBEDDED_BUDGET.settleMs });
  });

  it('a change one earlier update makes each time it is sent is found by sending it again: the sequence is that update and the read', async () => {
    const report = await fullRun(leaksOnOne);
    const failures = report.failures.filter((f) => f.rule === 'STATE-DNS-UPDATE' && f.operation === 'PUT /domains/{domain_id}/dns-records');
    expect(failures).toHaveLength(1);
    expect(failures[0]!.title).toBe('DNS values changed that no update named');
    expect(failures[0]!.message).toMatch(/Sent again alone, the smallest of them \(INPUT-ACCEPT valid request \d of 5\) changed them again: A \S+ lists \{[^}]*203\.0\.113\.2[^}]*\}, just before \{/);
    const sequence = failures[0]!.sequence!;
    expect(sequence.map((s) => s.method)).toEqual(['PUT', 'GET']);
    expect((JSON.parse(sequence[0]!.body!) as { name: string }).name).toBe(trigger.name);
    expect(failures[0]!.curl).toBe(`${sequence[0]!.curl} && ${sequence[1]!.afterMs === undefined ? '' : `sleep ${(Math.ceil(sequence[1]!.afterMs / 100) / 10).toFixed(1)} && `}${sequence[1]!.curl}`);
  });

  it('the reference mock, after the same probes, passes: their own records and values are not the owner\'s', async () => {
    const report = await fullRun(undefined);
    expect(report.failures.filter((f) => f.rule === 'STATE-DNS-UPDATE')).toEqual([]);
    expect(report.checks.filter((c) => c.rule === 'STATE-DNS-UPDATE').every((c) => c.outcome === 'passed')).toBe(true);
  });
});

describe('SFTP: ids as given, late effects, removals of other accounts', () => {
  /** Ids listed in capitals, and an id in any other case is unknown (404), as a case-sensitive server has it. */
  const caseSensitive: Variant = {
    name: 'sftp-ids-upper-case-sensitive',
    kind: 'conformant',
    description: '',
    hooks: {
      respond: (endpoint, _request, response) =>
        endpoint?.name === 'listAdditionalSftpAccounts' && response.status === 200
          ? { ...response, body: JSON.parse(JSON.stringify(response.body).replace(/"id":"([0-9a-f-]+)"/g, (_, id: string) => `"id":"${id.toUpperCase()}"`)) }
          : response,
      handlers: {
        removeAdditionalSftpAccount: (context) => {
          const id = context.params.sftp_account_id;
          const env = context.store.sftpAccountOwner(context.company.id, id);
          if (!env || id !== id.toUpperCase()) throw new HttpError(404);
          context.store.removeSftpAccount(env, id);
          return context.acknowledge(id);
        },
      },
    },
  };

  it('sends ids exactly as the list gives them, and compares them case aside', async () => {
    await runOn('STATE-SFTP-REMOVE', { variant: caseSensitive }, ({ outcome, exchanges, mock }) => {
      expect(outcome.verdict).toBeUndefined();
      const removed = exchanges.filter((x) => x.probe.endpoint.name === 'removeAdditionalSftpAccount').map((x) => decodeURIComponent(x.probe.request.url.split('/').pop()!));
      expect(removed.length).toBeGreaterThan(0);
      for (const id of removed) {
        expect(id).toBe(id.toUpperCase());
        expect(envOf(mock).sftpAccounts.map((a) => a.id.toLowerCase())).not.toContain(id.toLowerCase());
      }
    });
  });

  /** Each removal takes effect only when the next one arrives: an effect slower than any window. */
  const lagging = (): Variant => {
    const pending = new Map<string, string>();
    return {
      name: 'sftp-removal-lags-one-behind',
      kind: 'fault',
      description: '',
      hooks: {
        handlers: {
          removeAdditionalSftpAccount: (context) => {
            const id = context.params.sftp_account_id;
            const env = context.store.sftpAccountOwner(context.company.id, id);
            if (!env) throw new HttpError(404);
            const before = pending.get(env.id);
            if (before) context.store.removeSftpAccount(env, before);
            pending.set(env.id, id);
            return context.acknowledge(id);
          },
        },
      },
    };
  };

  it('an account it removed earlier that leaves late is not blamed on another removal, nor removed again', async () => {
    await runOn('STATE-SFTP-REMOVE', { variant: lagging() }, ({ outcome, exchanges }) => {
      expect(outcome.verdict?.title).toBe('a removed SFTP account stayed listed');
      expect(outcome.verdict!.message).not.toMatch(/which no request removed/);
      const removed = exchanges.filter((x) => x.probe.endpoint.name === 'removeAdditionalSftpAccount').map((x) => x.probe.request.url.toLowerCase());
      expect(new Set(removed).size).toBe(removed.length);
    });
  });

  /** Removes the account that follows the named one by user name (the last, the first), not the named one. */
  const removesNext: Variant = {
    name: 'sftp-removes-next-account',
    kind: 'fault',
    description: '',
    hooks: {
      handlers: {
        removeAdditionalSftpAccount: (context) => {
          const id = context.params.sftp_account_id.toLowerCase();
          const env = context.store.sftpAccountOwner(context.company.id, id);
          if (!env) throw new HttpError(404);
          const sorted = [...env.sftpAccounts].sort((a, b) => a.username.localeCompare(b.username));
          const victim = sorted[(sorted.findIndex((a) => a.id === id) + 1) % sorted.length]!;
          context.store.removeSftpAccount(env, victim.id);
          return context.acknowledge(id);
        },
      },
    },
  };

  it.each([1106, 7, 42])('a removal that takes another account reports the symptom first found, and names each removal once (seed %i)', async (seed) => {
    // Without shrinking, the verdict is the first failure found.
    const first = (await runOn('STATE-SFTP-REMOVE', { variant: removesNext, seed, budget: { shrinkRequests: 0 } })).outcome.verdict!;
    await runOn('STATE-SFTP-REMOVE', { variant: removesNext, seed }, ({ outcome }) => {
      expect(outcome.verdict?.title).toBe(first.title);
      const note = outcome.notes!.find((n) => n.includes('removed') && n.includes('(the document shows no way'))!;
      const ids = note.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g)!;
      expect(new Set(ids).size).toBe(ids.length);
      // The account it took instead is named: in the model, as removed with no request; else as having left meanwhile.
      expect(outcome.verdict!.message).toMatch(first.title === 'removing an SFTP account removed others too' ? /no longer listed .*, which no request removed, and still listed / : /still listed it; meanwhile .* left the list/);
    });
  });

  it('the review\'s case: the account it took instead was one the property compares', async () => {
    const { outcome } = await runOn('STATE-SFTP-REMOVE', { variant: removesNext, seed: 7 });
    expect(outcome.verdict?.title).toBe('removing an SFTP account removed others too');
  });
});

function domainOf(mock: RunningMock) {
  const ids = mockTarget().main.ids;
  return mock.store.domain(ids.companyId, ids.domainId!)!;
}

function envOf(mock: RunningMock) {
  const ids = mockTarget().main.ids;
  return mock.store.environment(ids.companyId, ids.envId)!;
}
