/**
 * The probe's own expectation (conformance/types.ts `Expectation`), judged under the probe's
 * rule: `unauthorized` → 401, `not-found` → 404, `invalid` → 400, `valid` → the endpoint's
 * success. One helper serves every rule whose probes carry an expectation; a transport failure
 * is judged here, as the probe's failure, and by no other check.
 */
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { allowedErrorStatuses, conflictsOf, escapeRegex } from '../../spec/queries.ts';
import { formatRegex } from '../../spec/formats.ts';
import { notJudged, type Check, type CheckContext, type Exchange, type TransportFailure, type Verdict } from '../types.ts';
import { restingOn } from './assumptions.ts';
import { describeSuccess, is2xx, successStatuses } from './success.ts';
import { isObject, sentence, serverSaid } from './values.ts';
import { validRequest } from '../../spec/operators/operator.ts';

/** `timeout after 10000 ms`, `connection refused`, … */
export function describeTransportFailure(failure: TransportFailure): string {
  const after = ` after ${Math.round(failure.ms)} ms`;
  switch (failure.kind) {
    case 'timeout':
      return `timeout${after}`;
    case 'reset':
      return `connection reset${after}`;
    case 'refused':
      return 'connection refused';
    case 'protocol':
      return `malformed HTTP answer${after}`;
    case 'throttled':
      return 'still throttled (HTTP 429)';
    case 'budget':
      return "not sent: the run's budget was spent";
    case 'runner':
      return 'the suite itself could not run while it waited';
    case 'other':
      return `transport error${after}`;
  }
}

/** The verdict on a probe that got no answer; `expected` says what it was waiting for. */
export const transportVerdict = (failure: TransportFailure, expected: string): Verdict => ({
  title: `no answer: ${describeTransportFailure(failure)}`,
  message: `${failure.message}; the probe expected ${expected}.`,
});

/** Path parameters of a request URL, read back against the endpoint's template; undefined if it does not fit. */
export function pathParamsOf(endpoint: Endpoint, url: string): Record<string, string> | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const names: string[] = [];
  const source = endpoint.path
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const name = /^\{([a-z_]+)\}$/.exec(part)?.[1];
      if (name === undefined) return escapeRegex(part);
      names.push(name);
      return '([^/]*)';
    })
    .join('');
  const match = new RegExp(`${source}$`).exec(pathname);
  if (!match) return undefined;
  const values: Record<string, string> = {};
  names.forEach((name, i) => {
    const raw = match[i + 1] ?? '';
    try {
      values[name] = decodeURIComponent(raw);
    } catch {
      values[name] = raw;
    }
  });
  return values;
}

/** Whether the request names a path id the model types as a UUID by a value that is not one. */
export function hasMalformedPathId(exchange: Exchange): boolean {
  const { endpoint, request } = exchange.probe;
  const values = pathParamsOf(endpoint, request.url);
  if (!values) return false;
  return endpoint.pathParams.some((p) => {
    const value = values[p.name];
    return p.type.kind === 'string' && p.type.format === 'uuid' && value !== undefined && !formatRegex.uuid.test(value);
  });
}

interface Expected {
  readonly statuses: readonly number[];
  /** The statuses in words, for titles: `401`, `400 or 404`. */
  readonly words: string;
  /** Why, with the document's words. */
  readonly because: string;
  /** What a 2xx answer means for this expectation. */
  readonly ifServed: string;
  /** A 2xx answer that carries no data at all also holds (the letter's side of a conflict that adds 404). */
  readonly hollowSuccessHolds?: true;
}

/** A body with no data in it: only objects and empty arrays (`{"domain":{"dns_records":[]}}`). */
export function isHollow(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === 'object') return Object.values(value).every(isHollow);
  return false;
}

function expected(context: CheckContext, exchange: Exchange): Expected | undefined {
  const { endpoint } = exchange.probe;
  switch (exchange.probe.expect) {
    case 'unauthorized':
      return {
        statuses: [401],
        words: '401',
        because: 'a missing or invalid key yields HTTP 401 (§Authentication; every endpoint requires `Authorization: Bearer <API_KEY>`)',
        ifServed: 'it served the request without a valid bearer key',
      };
    case 'foreign-key': {
      // 401, or what a read of data the key's user may not read answers (READ-404's: 404, or where the table lists none, a success with no data).
      const found = notFound(context, exchange);
      return {
        ...found,
        statuses: [401, ...found.statuses],
        words: `401 or ${found.words}`,
        because: `the key is another company's: \`<API_KEY>\` is an API key of the company (§Authentication 1), so it is an invalid key here (401), or ${found.because}`,
        ifServed: "it served one company's data to another company's key",
      };
    }
    case 'foreign-write': {
      const refusals = allowedErrorStatuses(endpoint, context.options).filter((s) => s === 400 || s === 404);
      return {
        statuses: refusals,
        words: refusals.join(' or '),
        because:
          "the request names another company's data under this company's key: `<API_KEY>` is an API key of the company (§Authentication 1), and the action lists 400 for a request it must not carry out (§Errors: 400 \"Malformed or invalid request\", 404 \"Unknown resource or no permission\")",
        ifServed: "it accepted to act on another company's data",
      };
    }
    case 'not-found':
      return notFound(context, exchange);
    case 'invalid': {
      const because = 'a malformed or invalid request yields 400 (§Errors: "Bad request format | Malformed or invalid request")';
      const ifServed = 'it accepted a request that breaks a stated constraint';
      // Unknown ids on purpose (an action valid requests may not reach: no --allow-destructive, or only
      // a live environment holds its data without --allow-live): refusing them as unknown holds too.
      if (exchange.probe.idsUnknown && allowedErrorStatuses(endpoint, context.options).includes(404)) {
        return { statuses: [400, 404], words: '400 or 404', because: `${because}; its ids are unknown on purpose (so that nothing is acted on), and 404 is allowed here`, ifServed };
      }
      return { statuses: [400], words: '400', because, ifServed };
    }
    case 'valid': {
      const rests = restingOn(endpoint);
      const because = `the request is valid under every reasonable reading of the document${rests ? ` (it rests on ${rests})` : ''}, so it gets the endpoint's success, ${describeSuccess(endpoint)}`;
      // A read asked about data no read lists (a site-admin user by address) may not find it: 404 holds too.
      if (endpoint.effect === 'read' && endpoint.errors.includes(404) && endpoint.queryParams.some((p) => p.refersTo)) {
        return {
          statuses: [...successStatuses(endpoint), 404],
          words: `${describeSuccess(endpoint)} or 404`,
          because: `${because}, or 404: it names data the suite cannot know exists, and "data that does not exist ... yields 404 on read endpoints" (§Authentication)`,
          ifServed: '',
        };
      }
      return { statuses: successStatuses(endpoint), words: describeSuccess(endpoint), because, ifServed: '' };
    }
    case 'observe':
      return undefined;
  }
}

function notFound(context: CheckContext, exchange: Exchange): Expected {
  const found = notFoundStatuses(context, exchange);
  const { endpoint } = exchange.probe;
  if (endpoint.errors.includes(404)) return found;
  // The table lists no 404 here; a conflict adds it. Either side holds: 404, or the letter's
  // answer, which may not reveal the data either: a success with nothing in it.
  const conflicts = conflictsOf(endpoint).filter((c) => c.extraStatus === 404).map((c) => c.id);
  return {
    ...found,
    words: `${found.words}, or a success that reveals no data`,
    because: `${found.because}; the endpoint's table lists no 404 (${conflicts.join(', ')}: either side accepted), and on the letter's side the answer still may not reveal the data`,
    hollowSuccessHolds: true,
  };
}

function notFoundStatuses(context: CheckContext, exchange: Exchange): Expected {
  const { endpoint } = exchange.probe;
  const because = "data that does not exist, or that the key's user may not read, yields 404 on read endpoints (§Authentication)";
  const ifServed = 'it answered as if the data existed and the key might read it';
  if (!hasMalformedPathId(exchange)) return { statuses: [404], words: '404', because, ifServed };
  const conflicts400 = conflictsOf(endpoint).filter((c) => c.extraStatus === 400 && !endpoint.errors.includes(400)).map((c) => c.id);
  if (allowedErrorStatuses(endpoint, context.options).includes(400)) {
    const source = endpoint.errors.includes(400) ? "the endpoint's table lists 400" : `${conflicts400.join(', ')} accepts 400 (either side)`;
    return { statuses: [400, 404], words: '400 or 404', because: `${because}; a non-UUID path id is also an invalid request, and ${source}`, ifServed };
  }
  const strictNote = conflicts400.length > 0 ? `; with --strict the 400 of ${conflicts400.join(', ')} is not accepted` : '';
  return { statuses: [404], words: '404', because: `${because}; the endpoint's table does not list 400 for a non-UUID path id${strictNote}`, ifServed };
}

/** The probe's expectation judged; undefined when it holds or when the probe only observes. */
export function judgeExpectation(context: CheckContext, exchange: Exchange): Verdict | undefined {
  const want = expected(context, exchange);
  if (!want) return undefined;
  if (exchange.failure) return transportVerdict(exchange.failure, want.words);
  const status = exchange.response?.status;
  if (status === undefined || want.statuses.includes(status)) return undefined;
  if (want.hollowSuccessHolds && is2xx(status) && isHollow(exchange.response?.json)) return undefined;
  const served = is2xx(status) && want.ifServed ? ` — ${want.ifServed}` : '';
  return {
    title: `answered ${status}, expected ${want.words}`,
    message: `${sentence(want.because)}; the server answered ${status}${served}${serverSaid(exchange)}.`,
  };
}

/** Whether an exchange carries something for its probe's own expectation to judge. */
export const judgesExpectation = (rule: RuleId) => (exchange: Exchange): boolean =>
  exchange.probe.rule === rule && exchange.probe.expect !== 'observe' && (exchange.response !== undefined || (exchange.failure !== undefined && !notJudged(exchange.failure)));

/** The check of a rule whose probes carry an expectation (the `expect` of each probe decides). */
export const expectationCheck = (rule: RuleId): Check => ({
  rule,
  ownProbesOnly: true,
  applies: judgesExpectation(rule),
  check: judgeExpectation,
});

export const read404 = expectationCheck('READ-404');
export const isolationWrite = expectationCheck('ISOLATION-WRITE');
export const input400 = expectationCheck('INPUT-400');
export const inputAccept = expectationCheck('INPUT-ACCEPT');

/**
 * The field a valid request's body holds alone, when that field carries `rule`'s limit: a refusal
 * (4xx) of such a request can only be of that value, which the limit allows (INPUT-ACCEPT's
 * valid requests, whoever sent them, are a limit's material too).
 */
function soleLimitedField(rule: RuleId, exchange: Exchange): string | undefined {
  const { probe, response } = exchange;
  if (probe.rule !== 'INPUT-ACCEPT' || probe.expect !== 'valid' || probe.operator?.id !== validRequest.id || !response || response.status < 400 || response.status >= 500) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(probe.request.body ?? '');
  } catch {
    return undefined;
  }
  const names = isObject(body) ? Object.keys(body) : [];
  const field = names.length === 1 ? probe.endpoint.body?.find((f) => f.name === names[0]) : undefined;
  return field?.type.kind === 'string' && field.type.limit === rule ? field.name : undefined;
}

/** A LIMIT rule's check: its own probes' expectations, and every valid request that holds its field alone. */
const limitCheck = (rule: RuleId): Check => ({
  rule,
  ownProbesOnly: true,
  applies: (exchange) => judgesExpectation(rule)(exchange) || soleLimitedField(rule, exchange) !== undefined,
  check: (context, exchange) => {
    const verdict = judgeExpectation(context, exchange);
    const field = exchange.probe.rule === rule ? undefined : soleLimitedField(rule, exchange);
    return verdict && field ? { ...verdict, message: `A valid request whose body holds \`${field}\` alone, a value the limit allows, was refused: ${verdict.message}` } : verdict;
  },
});

export const limitWpCommand = limitCheck('LIMIT-WP-COMMAND');
export const limitExpInterval = limitCheck('LIMIT-EXP-INTERVAL');
export const limitWebRootSubfolder = limitCheck('LIMIT-WEB-ROOT-SUBFOLDER');
