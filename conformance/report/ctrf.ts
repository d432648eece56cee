/**
 * The CTRF reporter (Common Test Report Format, https://ctrf.io, spec 0.0.0): one test per row
 * (rule × operation), its `testId` the row itself so documents of several runs or shards merge
 * by it; the status, the wall time, the first failure's title or the skip reason as `message`,
 * every distinct failure of the row whole as `trace`. What made it and against what ride in
 * `extra`. Valid under CTRF's published schema (`ctrf-schema-0.0.json` beside the test, from the
 * `ctrf` package, MIT), checked by `ctrf.test.ts`.
 */
import type { CheckSummary, Report } from '../types.ts';
import { reportingTool } from './json.ts';
import { details, knownMessage, rowFailures, wallOf } from './junit.ts';

export const CTRF_SPEC_VERSION = '0.0.0';

function test(row: CheckSummary, report: Report, start: number) {
  const own = rowFailures(report.failures, row);
  const message = row.known ? knownMessage(own) : row.outcome === 'failed' ? own[0]?.title ?? row.reason : row.outcome === 'skipped' ? row.reason : undefined;
  return {
    testId: `${row.rule} ${row.operation}`,
    name: `${row.rule} ${row.operation}`,
    // A row whose failures the baseline knows does not fail the run: skipped, its raw status kept.
    status: row.known ? 'skipped' : row.outcome,
    ...(row.known ? { rawStatus: 'failed (known: in the baseline)' } : {}),
    duration: wallOf([row]),
    ...(row.wall ? { start: start + row.wall.fromMs, stop: start + row.wall.toMs } : {}),
    suite: [row.rule],
    ...(message ? { message } : {}),
    ...(own.length ? { trace: own.map(details).join('\n\n---\n\n') } : {}),
    labels: { rule: row.rule, operation: row.operation, exchanges: row.exchanges, ...(row.failures ? { distinctFailures: row.failures } : {}) },
  };
}

export function renderCtrf(report: Report): string {
  const tool = reportingTool();
  const start = Date.parse(report.startedAt);
  const tests = report.checks.map((row) => test(row, report, start));
  const counted = (status: string) => tests.filter((t) => t.status === status).length;
  const document = {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    timestamp: new Date(start + report.durationMs).toISOString(),
    generatedBy: `${tool.name} ${tool.version}`,
    results: {
      tool: { name: tool.name, version: tool.version },
      summary: { tests: tests.length, passed: counted('passed'), failed: counted('failed'), skipped: counted('skipped'), pending: 0, other: 0, start, stop: start + report.durationMs },
      tests,
      extra: {
        target: report.target,
        specVersion: report.specVersion,
        seed: report.seed,
        ok: report.ok,
        coverage: { checked: report.coverage.checked, total: report.coverage.total },
        ...(report.baseline ? { baseline: report.baseline } : {}),
      },
    },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
