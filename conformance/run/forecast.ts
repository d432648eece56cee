/**
 * The run's plan in words, said at its start against an external target: how many requests it
 * plans, how long they take at the rate the target allows (once the target has said it), and
 * the flag that caps it. A live API throttles; a user should learn before the run, not after,
 * that it will take an hour.
 */
import { count } from '../checks/values.ts';
import { formatDuration, type RunBudget } from '../schedule/budget.ts';
import type { PacerStats } from '../schedule/pacer.ts';
import type { RunPlan } from './plan.ts';

/** Where the pacer's rate came from, in words for the plan and the report. */
export const RATE_FROM: Readonly<Record<NonNullable<PacerStats['source']>, string>> = {
  fixed: '--rate',
  policy: "the target's RateLimit-Policy or limit",
  remaining: "the target's limit and how long until it resets",
  backoff: '429s that said nothing (halved, then grown back)',
};

export interface Forecast {
  /** Requests the probes take (one each, retries aside). */
  readonly probes: number;
  /** At most what the state properties may spend (their clean-up aside). */
  readonly properties: number;
  /** At most what shrinking may spend (only where a check fails). */
  readonly shrinking: number;
}

export function forecastOf(plan: RunPlan, shrinkPerRun: number): Forecast {
  return {
    probes: plan.probes.length,
    properties: plan.scenarios.reduce((sum, s) => sum + (s.spend?.requests ?? 0), 0),
    shrinking: shrinkPerRun,
  };
}

/** `about 6 min`: a wait in the words of the plan. */
const about = (ms: number): string => (ms < 90_000 ? `about ${Math.max(1, Math.round(ms / 1000))} s` : `about ${formatDuration(Math.round(ms / 60_000) * 60_000)}`);

/** The lines that say the plan: what it will send, how long that takes, and how to cap it. */
export function planLines(plan: RunPlan, forecast: Forecast, pacing: PacerStats, budget: RunBudget): string[] {
  const properties = plan.scenarios.filter((s) => s.spend);
  const sequences = Math.max(0, ...properties.map((s) => s.spend!.sequences));
  const what = [
    count(forecast.probes, 'probe'),
    ...(properties.length ? [`${`${properties.length} state ${properties.length === 1 ? 'property' : 'properties'}`} (up to ${count(sequences, 'command sequence')} and ${forecast.properties / properties.length} requests each)`] : []),
    `shrinking only where a check fails (up to ${count(forecast.shrinking, 'request')})`,
  ];
  const most = forecast.probes + forecast.properties;
  const span = most > forecast.probes ? `from ${forecast.probes} to about ${most} requests` : count(most, 'request');
  const lines = [`plan: ${what.join(', ')}: ${span}, more if something fails`];
  const limits = [
    ...(budget.limits.maxRequests !== undefined ? [`--max-requests ${budget.limits.maxRequests}`] : []),
    ...(budget.limits.maxDurationMs !== undefined ? [`--max-duration ${formatDuration(budget.limits.maxDurationMs)}`] : []),
  ];
  const capped = limits.length
    ? `the budget (${limits.join(', ')}) goes to coverage first: every check's first probe, each state property's first sequence, then more examples, shrinking last`
    : 'cap it with --max-duration (e.g. 10m) or --max-requests N: coverage comes first then';
  const rate = pacing.allowedRate;
  if (rate === undefined || !pacing.source) {
    lines.push(`plan: the target has not said its rate limit yet; the run paces to it once it does (--rate auto), and backs off on 429s; ${capped}`);
    return lines;
  }
  const perSecond = Number(rate.toPrecision(3));
  lines.push(
    `plan: at ${pacing.source === 'remaining' ? 'about ' : ''}${perSecond} requests/s (from ${RATE_FROM[pacing.source]}) the probes take ${about((forecast.probes / rate) * 1000)}, the run up to ${about((most / rate) * 1000)}; ${capped}`,
  );
  return lines;
}
