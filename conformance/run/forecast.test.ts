import { describe, expect, it } from 'vitest';
import { endpoint } from '../../spec/queries.ts';
import { RunBudget } from '../schedule/budget.ts';
import type { Probe, Scenario } from '../types.ts';
import { forecastOf, planLines } from './forecast.ts';
import type { RunPlan } from './plan.ts';

const probe = { rule: 'AUTH-401', endpoint: endpoint('getSite'), expect: 'unauthorized', title: 't', request: { method: 'GET', url: '/', headers: {} } } as Probe;
const scenario = (requests: number): Scenario => ({ rule: 'STATE-DNS-UPDATE', endpoints: [], title: 's', run: async () => ({}), spend: { sequences: 5, requests } });
const plan = (probes: number, scenarios: Scenario[]): RunPlan => ({ probes: Array.from({ length: probes }, (_, order) => ({ probe, order })), scenarios, phases: [], skips: [], notes: [] });

describe('the plan said at the start of a run against an external target', () => {
  it('counts what it will send, and how long that takes at the rate the target states', () => {
    const p = plan(720, [scenario(300), scenario(300)]);
    const lines = planLines(p, forecastOf(p, 400), { requests: 12, throttled: 0, pacedMs: 0, pausedMs: 0, allowedRate: 2, source: 'policy' }, new RunBudget());
    expect(lines).toEqual([
      'plan: 720 probes, 2 state properties (up to 5 command sequences and 300 requests each), shrinking only where a check fails (up to 400 requests): from 720 to about 1320 requests, more if something fails',
      "plan: at 2 requests/s (from the target's RateLimit-Policy or limit) the probes take about 6m, the run up to about 11m; cap it with --max-duration (e.g. 10m) or --max-requests N: coverage comes first then",
    ]);
  });

  it('says when the target has not said its limit yet, and what a budget given will be spent on', () => {
    const p = plan(10, []);
    const lines = planLines(p, forecastOf(p, 400), { requests: 12, throttled: 0, pacedMs: 0, pausedMs: 0 }, new RunBudget({ maxDurationMs: 180_000 }));
    expect(lines[1]).toBe(
      "plan: the target has not said its rate limit yet; the run paces to it once it does (--rate auto), and backs off on 429s; the budget (--max-duration 3m) goes to coverage first: every check's first probe, each state property's first sequence, then more examples, shrinking last",
    );
  });
});
