/**
 * RESPONSE-SCHEMA (§Resources and fields and the response columns of §Endpoints): a success body
 * of a synchronous endpoint has the documented fields (ASM-DOCUMENTED-FIELDS-PRESENT) with their
 * types and formats. The generated validators already allow extra properties and any value of an
 * open set (UNK-ENUM-SETS); this module turns ajv's findings into words, and reads the values
 * that pass their type but not their unit (ASM-EPOCH-MS-PLAUSIBLE).
 */
import { formats } from '../../spec/formats.ts';
import { EPOCH_MS_PLAUSIBLE_FROM } from '../../spec/gaps.ts';
import type { Endpoint } from '../../spec/model.ts';
import { holdsEpochMs, holdsSome, isAck, typedValues } from '../../spec/queries.ts';
import { responseValidators, type ValidationError } from '../../generated/validators.js';
import type { Check, CheckContext, Verdict } from '../types.ts';
import { is2xx } from './success.ts';
import { isObject, notJson, sentence, show, showField } from './values.ts';

/** How many problems a message names before "and N more". */
const SHOWN_PROBLEMS = 3;
const SHOWN_MISSING = 4;

const unescapePointer = (step: string): string => step.replace(/~1/g, '/').replace(/~0/g, '~');

const stepsOf = (pointer: string): string[] => (pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer));

/** Keys and indexes as a field path a reader knows: `site.environments[0].container_info`. */
function pathOf(steps: readonly (string | number)[]): string {
  if (steps.length === 0) return 'the body';
  return steps.map((s, i) => (typeof s === 'number' || /^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** A JSON Pointer as a field path a reader knows: `site.environments[0].container_info`. */
export const fieldPath = (pointer: string): string => pathOf(stepsOf(pointer));

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const step of stepsOf(pointer)) {
    if (Array.isArray(value)) value = value[Number(step)];
    else if (isObject(value)) value = value[step];
    else return undefined;
  }
  return value;
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

const formatByPattern = new Map(Object.values(formats).map((f) => [f.pattern, f.description]));

/** One ajv finding in words (required findings are grouped by the caller). */
function describeFinding(body: unknown, error: ValidationError): string {
  const at = fieldPath(error.instancePath);
  const steps = stepsOf(error.instancePath);
  const shown = showField(steps[steps.length - 1], valueAt(body, error.instancePath));
  const subject = at === 'the body' ? 'the body' : `\`${at}\``;
  switch (error.keyword) {
    case 'type': {
      const types = ([] as unknown[]).concat(error.params.type).map(String);
      return `${subject} is ${shown}; must be ${types.map(article).join(' or ')}`;
    }
    case 'pattern': {
      const pattern = String(error.params.pattern);
      const described = formatByPattern.get(pattern);
      return `${subject} is ${shown}; must be ${described ?? `a string matching /${pattern}/`}`;
    }
    case 'const':
      return `${subject} is ${shown}; must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'enum':
      return `${subject} is ${shown}; must be one of ${JSON.stringify(error.params.allowedValues)}`;
    case 'false schema':
      return `${subject} is present (${shown}); the document says the resource has no such field`;
    default:
      return `${subject} is ${shown}; ${error.message ?? `fails ${error.keyword}`}`;
  }
}

/** ajv's findings as sentences: missing fields grouped per object, duplicates dropped, in order. */
export function describeValidationErrors(body: unknown, errors: readonly ValidationError[]): string[] {
  // In ajv's order; `missing` holds the properties each object lacks, filled as they come.
  const found: ({ readonly text: string } | { readonly at: string; readonly missing: Set<string> })[] = [];
  const missingAt = new Map<string, Set<string>>();
  for (const error of errors) {
    if (error.keyword === 'required') {
      let missing = missingAt.get(error.instancePath);
      if (!missing) {
        missing = new Set();
        missingAt.set(error.instancePath, missing);
        found.push({ at: error.instancePath, missing });
      }
      missing.add(String(error.params.missingProperty));
    } else {
      const text = describeFinding(body, error);
      if (!found.some((f) => 'text' in f && f.text === text)) found.push({ text });
    }
  }
  return found.map((f) => {
    if ('text' in f) return f.text;
    const names = [...f.missing];
    const listed = names.slice(0, SHOWN_MISSING).map((n) => `\`${n}\``).join(', ');
    const more = names.length > SHOWN_MISSING ? ` and ${names.length - SHOWN_MISSING} more` : '';
    const where = f.at === '' ? 'the body' : `\`${fieldPath(f.at)}\``;
    return `${where} lacks ${listed}${more} (documented, so a conformant server sends ${names.length > 1 ? 'them' : 'it'}: ASM-DOCUMENTED-FIELDS-PRESENT)`;
  });
}

/** Problems listed up to a limit, then "and N more". */
export function summarize(problems: readonly string[], limit = SHOWN_PROBLEMS): string {
  const shown = problems.slice(0, limit).join('; ');
  const rest = problems.length - limit;
  return rest > 0 ? `${shown}; and ${rest} more problem${rest > 1 ? 's' : ''}` : shown;
}

const isoDate = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * Values the model types as epoch milliseconds that fall below the plausible bound
 * (ASM-EPOCH-MS-PLAUSIBLE), in words; each most likely epoch seconds. Read along the endpoint's
 * body type, so the model alone says which values hold milliseconds.
 */
/** A body is read only where the model puts epoch milliseconds: most answers hold none, or in one field. */
const mayHoldEpochMs = holdsSome(holdsEpochMs);

function implausibleEpochMs(endpoint: Endpoint, body: unknown): { readonly at: string; readonly text: string }[] {
  if (endpoint.success.kind === 'ack') return [];
  const found: { at: string; text: string }[] = [];
  for (const { path, type, value } of typedValues(endpoint.success.body, body, [], mayHoldEpochMs)) {
    if (!holdsEpochMs(type)) continue;
    // Values of another type are the validator's finding, not a question of unit.
    const ms = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : undefined;
    if (ms === undefined || !Number.isFinite(ms) || ms >= EPOCH_MS_PLAUSIBLE_FROM) continue;
    const at = `\`${pathOf(path)}\``;
    found.push({ at, text: `${at} is ${show(value)}: as epoch milliseconds ${isoDate(ms)}, before ${isoDate(EPOCH_MS_PLAUSIBLE_FROM)}, as epoch seconds ${isoDate(ms * 1000)}` });
  }
  return found;
}

/** Epoch seconds where the document states milliseconds: a warning, a failure under --strict (ASM-EPOCH-MS-PLAUSIBLE). */
function unitVerdict(context: CheckContext, endpoint: Endpoint, body: unknown): Verdict | undefined {
  const found = implausibleEpochMs(endpoint, body);
  if (found.length === 0) return undefined;
  return {
    title: `${found[0]!.at} looks like epoch seconds, not milliseconds`,
    message: `${sentence(summarize(found.map((f) => f.text)))}. The document states epoch milliseconds (§Resources and fields); a value that early is implausible for the unit (ASM-EPOCH-MS-PLAUSIBLE)${context.options.strict ? '' : ', a warning unless --strict'}.`,
    severity: context.options.strict ? 'error' : 'warning',
  };
}

export const responseSchema: Check = {
  rule: 'RESPONSE-SCHEMA',
  applies: (exchange) => exchange.response !== undefined && is2xx(exchange.response.status) && !isAck(exchange.probe.endpoint),
  check: (context, exchange) => {
    const { endpoint } = exchange.probe;
    const response = exchange.response!;
    const unusable = notJson(response);
    if (unusable) {
      return {
        title: `${response.status} success body is not JSON`,
        message: `${sentence(unusable)}; "Read calls answer with the data directly", as JSON (§What the service does).`,
      };
    }
    const validate = responseValidators[endpoint.name as keyof typeof responseValidators];
    if (!validate) throw new Error(`no response validator for ${endpoint.name}: regenerate generated/validators.js`);
    if (validate(response.json)) return unitVerdict(context, endpoint, response.json);
    const problems = describeValidationErrors(response.json, validate.errors ?? []);
    return {
      title: problems[0] ?? 'success body does not match the document',
      message: `The ${response.status} body does not match the document's response for ${endpoint.method} ${endpoint.path}: ${summarize(problems)}.`,
    };
  },
};
