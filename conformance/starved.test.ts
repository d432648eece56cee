/**
 * A slow runner is not a failing server: a run whose own process is held for seconds at a time
 * (a busy loop here, in its own event loop, as a starved CI runner or a long synchronous step
 * would), with a deadline shorter than each hold, ends with the verdict of a run that was never
 * held, and its report names the delay.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runConform } from './cli.ts';
import type { Report } from './types.ts';

/** Holds this process's event loop for `ms`. */
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** `conform ARGS --reporter json` in this process, holding its event loop `holds` times for `holdMs` each, `everyMs` apart, while it runs. */
async function run(args: readonly string[], holds = 0, holdMs = 0, everyMs = 0): Promise<{ code: number; report: Report; held: number }> {
  let json = '';
  const stdout = new Writable({ write: (chunk: Buffer, _encoding, done) => ((json += chunk.toString('utf8')), done()) });
  const stderr = new Writable({ write: (_chunk, _encoding, done) => done() });
  let held = 0;
  const timer = setInterval(() => {
    if (held >= holds) return clearInterval(timer);
    held++;
    hold(holdMs);
  }, everyMs || 1_000);
  try {
    const code = await runConform([...args, '--reporter', 'json'], { stdout, stderr, env: {} });
    return { code, report: JSON.parse(json) as Report, held };
  } finally {
    clearInterval(timer);
  }
}

/** What the runner's own stalls may leave unjudged, by the reason they give (types.ts `notJudgedReason`). */
const RUNNER_UNJUDGED = /^not judged: the suite itself could not run/;

describe('a run whose own process is held', () => {
  it('ends with the verdict of a run that was not, against the embedded mock, and its report names the delay', async () => {
    // Each hold (1.5 s) is longer than a request's whole deadline (1 s): an answer that comes
    // during one would be a timeout, were the deadline counted in wall time.
    const args = ['--runs', '2', '--timeout-ms', '1000'];
    const calm = await run(args);
    const starved = await run(args, 3, 1_500, 400);
    expect(starved.held, 'the holds happened during the run').toBe(3);
    expect(calm.code).toBe(0);
    expect(starved.report.failures.map((f) => `${f.rule} ${f.operation}: ${f.title}`)).toEqual([]);
    expect(starved.code).toBe(0);
    // Row for row the same verdict. On a machine busy besides (the holds here, other work there),
    // a request the runner could not wait out within four times its deadline judges nothing: its
    // row may then be judged in part or skipped, with that reason, and never failed.
    const calmRows = new Map(calm.report.checks.map((c) => [`${c.rule} ${c.operation}`, c]));
    expect(starved.report.checks.map((c) => `${c.rule} ${c.operation}`)).toEqual([...calmRows.keys()]);
    for (const row of starved.report.checks) {
      const was = calmRows.get(`${row.rule} ${row.operation}`)!;
      if (row.outcome !== was.outcome) expect({ row: `${row.rule} ${row.operation}`, outcome: row.outcome, was: was.outcome, reason: row.reason }).toMatchObject({ outcome: 'skipped', was: 'passed', reason: expect.stringMatching(RUNNER_UNJUDGED) });
    }
    // Each hold was seen (counted, not timed), and said as the JSON report has it.
    const runner = starved.report.schedule!.runner!;
    expect(runner.stalls).toBeGreaterThanOrEqual(3);
    const note = starved.report.notes.find((n) => n.startsWith('runner: '));
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    expect(note).toContain(`runner: this process itself could not run for ${s(runner.delayedMs)} in all while requests waited for their answers (${runner.stalls} stalls, the longest ${s(runner.longestMs)}`);
    const unjudged = starved.report.schedule?.notJudged.runner ?? 0;
    if (unjudged > 0) expect(note).toContain(`${unjudged} request${unjudged === 1 ? '' : 's'} waited for while it could not run judged nothing`);
  });
});
