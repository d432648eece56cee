/**
 * The JSON Schema of `hosted-site-contract conform --reporter json` (`conformance-report.schema.json`):
 * what a CI step may rely on. Each object is written against its TypeScript type in
 * conformance/types.ts through `object<T>()`, which the compiler holds to every key of T, no other,
 * each required or optional as T has it; each union of words through `oneOf<T>()`, which it holds
 * to every member. Rule ids and operations are read from the model. What a field means is said
 * once, on its type; the banner travels as `$comment`, as in `schemas.json`.
 */
import { fileURLToPath } from 'node:url';
import type { Echo } from '../conformance/checks/credentials.ts';
import type { JsonReport } from '../conformance/report/json.ts';
import { REPORT_FORMAT, REPORT_SCHEMA_FILE } from '../conformance/report/json.ts';
import type { RequestTemplate } from '../conformance/replay/placeholders.ts';
import type {
  BaselineUse,
  Expectation,
  CheckSummary,
  Consumption,
  Coverage,
  Failure,
  FailureExample,
  Outcome,
  ProbeRequest,
  ProbeResponse,
  RuleCoverage,
  Schedule,
  SequenceStep,
  ShrinkNote,
  ShrinkSummary,
  StateSpend,
  TransportFailure,
} from '../conformance/types.ts';
import { operation } from '../spec/queries.ts';
import { bannerLines, normalizeText, type Generate } from './output.ts';
import { describedByType } from './type-descriptions.ts';

const GENERATOR = 'generator/conformance-report-schema.ts';

type Schema = Readonly<Record<string, unknown>>;
interface Needed {
  readonly schema: Schema;
  readonly optional?: never;
}
interface Optional {
  readonly schema: Schema;
  readonly optional: true;
}
/** One entry per key of T, `may` exactly where T's key is optional. */
type Fields<T> = { readonly [K in keyof T]-?: {} extends Pick<T, K> ? Optional : Needed };

const need = (schema: Schema): Needed => ({ schema });
const may = (schema: Schema): Optional => ({ schema, optional: true });

function object<T>(fields: Fields<T>): Schema {
  const entries = Object.entries(fields) as [string, Needed | Optional][];
  return {
    type: 'object',
    additionalProperties: false,
    required: entries.filter(([, f]) => !f.optional).map(([key]) => key),
    properties: Object.fromEntries(entries.map(([key, f]) => [key, f.schema])),
  };
}

/** Every member of the union T, no other: a member left out or unknown does not compile. */
const oneOf =
  <T extends string>() =>
  <const V extends readonly T[]>(...values: V & ([Exclude<T, V[number]>] extends [never] ? unknown : never)): Schema => ({ enum: [...values] });

const text = { type: 'string' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const ms = { type: 'number', minimum: 0 } as const;
const bool = { type: 'boolean' } as const;
const list = (items: Schema): Schema => ({ type: 'array', items });
const textMap = { type: 'object', additionalProperties: text } as const;

function reportSchema(banner: string, ruleIds: readonly string[], operations: readonly string[]): Schema {
  const rule = { enum: [...ruleIds] };
  const op = { enum: [...operations] };

  const request = object<ProbeRequest>({ method: need(text), url: need(text), headers: need(textMap), body: may(text) });
  const template = object<RequestTemplate>({ method: need(text), url: need(text), headers: need(textMap), body: may(text) });
  const response = object<ProbeResponse>({
    status: need({ type: 'integer', minimum: 100, maximum: 999 }),
    headers: need(textMap),
    text: need(text),
    withheld: may({ const: true }),
    json: may({}),
    jsonError: may(text),
    unread: may(oneOf<NonNullable<ProbeResponse['unread']>>()('cut', 'deep', 'encoded')),
    echoes: may(list(object<Echo>({ from: need(text), at: need(text) }))),
    ms: need(ms),
  });
  const transport = object<TransportFailure>({
    kind: need(oneOf<TransportFailure['kind']>()('timeout', 'reset', 'refused', 'protocol', 'throttled', 'budget', 'runner', 'other')),
    message: need(text),
    ms: need(ms),
  });
  const failure = object<Failure>({
    rule: need(rule),
    rules: need({ ...list(rule), minItems: 1, uniqueItems: true }),
    operation: need(op),
    title: need(text),
    message: need(text),
    severity: need(oneOf<Failure['severity']>()('error', 'warning')),
    probe: need(text),
    operator: may(text),
    request: need(request),
    response: may(response),
    transport: may(transport),
    seed: need(count),
    curl: need(text),
    original: may(request),
    shrinkSteps: may(count),
    shrink: may(object<ShrinkNote>({ requests: need(count), fromSize: need(count), toSize: need(count), stopped: may(text) })),
    occurrences: need({ type: 'integer', minimum: 1 }),
    examples: may(list(object<FailureExample>({ probe: need(text), title: need(text), request: need(request) }))),
    sequence: may(list(object<SequenceStep>({ method: need(text), path: need(text), body: may(text), afterMs: may(ms), curl: need(text), template: may(template) }))),
    known: may(text),
    replay: may(
      object<NonNullable<Failure['replay']>>({
        request: need(template),
        expect: need(oneOf<Expectation>()('unauthorized', 'foreign-key', 'foreign-write', 'not-found', 'invalid', 'valid', 'observe')),
        idsUnknown: may({ const: true }),
      }),
    ),
  });
  const row = object<CheckSummary>({
    rule: need(rule),
    operation: need({ enum: [...operations, '*'] }),
    outcome: need(oneOf<Outcome>()('passed', 'failed', 'skipped')),
    exchanges: need(count),
    ms: may(ms),
    wall: may(object<NonNullable<CheckSummary['wall']>>({ fromMs: need(ms), toMs: need(ms) })),
    failures: may(count),
    occurrences: may(count),
    reason: may(text),
    operators: may(list(object<NonNullable<CheckSummary['operators']>[number]>({ id: need(text), probes: need({ type: 'integer', minimum: 1 }) }))),
    known: may({ const: true }),
  });
  const rowsWhy = list(object<RuleCoverage['skipped'][number]>({ operation: need(text), reason: need(text) }));
  const coverage = object<Coverage>({
    checked: need(count),
    total: need(count),
    skipped: need(list(object<Coverage['skipped'][number]>({ reason: need(text), count: need(count) }))),
    rules: need({
      type: 'object',
      propertyNames: rule,
      additionalProperties: object<RuleCoverage>({ checked: need(count), inScope: need(count), skipped: need(rowsWhy), partly: need(rowsWhy) }),
    }),
  });
  const consumption = object<Consumption>({
    operation: need(op),
    effect: need(oneOf<Consumption['effect']>()('mutating', 'destructive')),
    ids: need(textMap),
    requests: need(count),
    otherIds: may({ const: true }),
  });
  const shrinking = object<ShrinkSummary>({ perFailure: need(count), perRun: need(count), requests: need(count), failures: need(count), reduced: need(count), stopped: need(count) });
  const stateSpend = object<StateSpend>({
    rule: need(rule),
    budget: need(
      object<StateSpend['budget']>({ sequences: need(count), maxCommands: need(count), requests: need(count), shrinkRequests: need(count), cleanupRequests: need(count) }),
    ),
    sequences: need(count),
    shrinkSequences: need(count),
    shrinkRepeatsSkipped: need(count),
    requests: need(count),
    shrinkRequests: need(count),
    cleanupRequests: need(count),
    shrunk: may(object<NonNullable<StateSpend['shrunk']>>({ fromCommands: need(count), toCommands: need(count), steps: need(count) })),
    stopped: may(text),
  });
  type Budget = NonNullable<Schedule['budget']>;
  const schedule = object<Schedule>({
    throttled: need(count),
    // `runner` came in format 1's lifetime: reports written before it hold none.
    notJudged: need(object<Schedule['notJudged']>({ throttled: need(count), budget: need(count), runner: may(count) })),
    pausedMs: may(ms),
    pacedMs: may(ms),
    allowedRate: may({ type: 'number', exclusiveMinimum: 0 }),
    rateFrom: may(oneOf<NonNullable<Schedule['rateFrom']>>()('fixed', 'policy', 'remaining', 'backoff')),
    perOperation: may({ const: true }),
    runner: may(object<NonNullable<Schedule['runner']>>({ delayedMs: need(ms), longestMs: need(ms), stalls: need(count) })),
    budget: may(
      object<Budget>({
        maxRequests: may(count),
        maxDurationMs: may(ms),
        requests: need(count),
        stopped: may(text),
        sequences: need(list(object<Budget['sequences'][number]>({ rule: need(rule), run: need(count), of: need(count) }))),
      }),
    ),
  });

  return {
    $comment: banner,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'hosted-site-contract conform --reporter json',
    description: 'What each field means is documented on its type in conformance/types.ts (Report and the types it holds).',
    ...object<JsonReport>({
      $schema: need({ ...text, description: `This schema (${REPORT_SCHEMA_FILE}, shipped in the package): a path relative to the report's folder, or to the working folder for a report on stdout.` }),
      format: need({ const: REPORT_FORMAT }),
      tool: need(object<JsonReport['tool']>({ name: need(text), version: need(text) })),
      ok: need(bool),
      seed: need(count),
      target: need(text),
      specVersion: need(text),
      startedAt: need({ ...text, format: 'date-time' }),
      durationMs: need(ms),
      requests: need(count),
      options: need({ type: 'object', description: 'The settings the run was given (flags and their defaults).' }),
      summary: need(
        object<JsonReport['summary']>({
          passed: need(count),
          failed: need(count),
          skipped: need(count),
          warnings: need(count),
          distinctFailures: need(count),
          ruleViolations: need(count),
          failingExchanges: need(count),
        }),
      ),
      checks: need(list(row)),
      coverage: need(coverage),
      failures: need(list(failure)),
      warnings: need(list(failure)),
      notes: need(list(text)),
      consumed: need(list(consumption)),
      shrinking: may(shrinking),
      stateShrinking: may(list(stateSpend)),
      schedule: may(schedule),
      baseline: may(object<BaselineUse>({ file: need(text), known: need(count), new: need(count), gone: need(list(text)), notJudged: need(list(text)) })),
    }),
  };
}

export const generateConformanceReportSchema: Generate = (api) => [
  {
    path: REPORT_SCHEMA_FILE,
    contents: normalizeText(
      JSON.stringify(
        describedByType(
          reportSchema(
            bannerLines(api, GENERATOR).join(' '),
            api.rules.map((r) => r.id),
            api.endpoints.map(operation),
          ),
          fileURLToPath(new URL('../conformance/report/json.ts', import.meta.url)),
          'JsonReport',
        ),
        null,
        2,
      ),
    ),
  },
];
