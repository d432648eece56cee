/**
 * §Endpoints > Conventions: acknowledged actions answer HTTP 202 with `operation_id` (string),
 * `message` (string) and `status` (number, 202) (ACK-202); the id is `<kind>-<UUID>`
 * (OPID-SHAPE; the same id twice is a warning) with the action's kind from the kind-prefix table (OPID-KIND).
 */
import { api } from '../../spec/api.ts';
import { formats } from '../../spec/formats.ts';
import type { Endpoint, OperationKind } from '../../spec/model.ts';
import { isAck, operationKinds } from '../../spec/queries.ts';
import type { Check, CheckContext, Exchange, Verdict } from '../types.ts';
import { restingOn } from './assumptions.ts';
import { messageStatusProblems } from './errors.ts';
import { is2xx } from './success.ts';
import { clip, isObject, notJson, sentence, serverSaid, show } from './values.ts';

const ACK_BODY = 'the acknowledgement body: `operation_id` (string), `message` (string), `status` (number, 202) (§Endpoints > Conventions)';

function ackBodyProblems(body: unknown): string[] {
  if (!isObject(body)) return [`the body is ${show(body)}, not an object`];
  const problems: string[] = [];
  const id = body.operation_id;
  if (id === undefined) problems.push('`operation_id` is missing');
  else if (typeof id !== 'string') problems.push(`\`operation_id\` is ${show(id)}; the document says a string`);
  return [...problems, ...messageStatusProblems(body, 202, 'ack')];
}

export const ack202: Check = {
  rule: 'ACK-202',
  applies: (exchange) =>
    isAck(exchange.probe.endpoint) &&
    exchange.response !== undefined &&
    (exchange.probe.expect === 'valid' || is2xx(exchange.response.status)),
  check: (_, exchange) => {
    const response = exchange.response!;
    const problems: string[] = [];
    if (response.status !== 202) {
      // A valid request's validity may rest on our reading: a refusal then names it.
      const rests = exchange.probe.expect === 'valid' && !is2xx(response.status) ? restingOn(exchange.probe.endpoint) : '';
      const to = exchange.probe.expect === 'valid' ? ` to a valid request${rests ? ` (it rests on ${rests})` : ''}` : '';
      problems.push(`the server answered ${response.status}${to}${is2xx(response.status) ? '' : serverSaid(exchange)}`);
    }
    if (is2xx(response.status)) {
      const unusable = notJson(response);
      problems.push(...(unusable ? [unusable] : ackBodyProblems(response.json)));
    }
    if (problems.length === 0) return undefined;
    const title = response.status !== 202 ? `answered ${response.status}, expected 202` : `acknowledgement body: ${problems[0]!.split(';')[0]}`;
    return { title, message: `${sentence(problems.join('; '))}. Acknowledged actions answer HTTP 202 with ${ACK_BODY}.` };
  },
};

// ---- operation ids -----------------------------------------------------------------------------

const UUID = formats.uuid.pattern.slice(1, -1);
/** `<kind>-<UUID>`: a non-empty kind, `-`, a UUID; the kind may itself hold `-` (`cdn-cache:clear`). */
const SHAPE = new RegExp(`^(.+)-(${UUID})$`);

/** The operation id of a 2xx answer of an acknowledged action, when it is a string. */
function operationIdOf(exchange: Exchange): string | undefined {
  const response = exchange.response;
  if (!isAck(exchange.probe.endpoint) || !response || !is2xx(response.status) || !isObject(response.json)) return undefined;
  const id = response.json.operation_id;
  return typeof id === 'string' ? id : undefined;
}

const actionOf = (kind: OperationKind): Endpoint | undefined =>
  api.endpoints.find((e) => e.success.kind === 'ack' && e.success.operationKind === kind);

/**
 * What a kind looks like: as every kind of the kind-prefix table is written, words of letters
 * joined by `-` and `:` (`cdn-cache:clear`). A kind of that shape not in the table (another case,
 * another word) is OPID-KIND's finding; anything else before `-<UUID>` (a timestamp, a number,
 * white space) is no kind at all. The tests hold every kind of the table to it.
 */
export const KIND_SHAPE = /^[A-Za-z]+(?:[-:][A-Za-z]+)*$/;

/** Why an operation id is not `<kind>-<UUID>`, or undefined when it is. */
export function operationIdShapeProblem(id: string): string | undefined {
  const match = SHAPE.exec(id);
  if (match && KIND_SHAPE.test(match[1]!)) return undefined;
  if (match) return `${JSON.stringify(clip(id, 100))}: \`${clip(match[1]!, 60)}\` before \`-<UUID>\` is not written as the table's kinds are (words of letters joined by \`-\` and \`:\`)`;
  const shown = JSON.stringify(clip(id, 100));
  if (new RegExp(`^${UUID}$`).test(id)) return `${shown} is a bare UUID: no \`<kind>-\` before it`;
  if (new RegExp(`^-${UUID}$`).test(id)) return `${shown} has an empty kind before \`-<UUID>\``;
  // Longest known kind first, so `cdn-cache:clear` is not read as a shorter kind.
  const kind = [...operationKinds].sort((a, b) => b.length - a.length).find((k) => id.startsWith(k));
  if (kind !== undefined) {
    const rest = id.slice(kind.length);
    if (!rest.startsWith('-')) return `${shown} has no \`-\` between the kind \`${kind}\` and ${JSON.stringify(clip(rest, 60))}`;
    return `${shown}: after \`${kind}-\` comes ${JSON.stringify(clip(rest.slice(1), 60))}, not a UUID (8-4-4-4-12 hexadecimal digits)`;
  }
  return `${shown} does not end in \`-<UUID>\` (a UUID is 8-4-4-4-12 hexadecimal digits)`;
}

/** The operation ids a run has been given, per run (its check context), and the first request that got each. */
const seenIds = new WeakMap<CheckContext, Map<string, string>>();

/**
 * The same operation id for two acknowledgements: a warning, never a failure (not even with
 * --strict). The document does not say ids are unique; but its `<UUID>` is an id meant to be,
 * and a client that tracks operations by id would mistake one for the other.
 */
function repeatedId(context: CheckContext, exchange: Exchange, id: string): Verdict | undefined {
  let seen = seenIds.get(context);
  if (!seen) seenIds.set(context, (seen = new Map()));
  const first = seen.get(id);
  const here = `${exchange.probe.request.method} ${exchange.probe.request.url}`;
  if (first === undefined) return void seen.set(id, here);
  return {
    title: 'the same operation id for two acknowledgements',
    message: `\`operation_id\` ${JSON.stringify(clip(id, 100))} was given before, to ${first}: the document does not say operation ids are unique, but a \`<UUID>\` is meant to be, and a client tracking operations by id would take one for the other (§Endpoints > Conventions). A warning only.`,
    severity: 'warning',
  };
}

export const opidShape: Check = {
  rule: 'OPID-SHAPE',
  applies: (exchange) => operationIdOf(exchange) !== undefined,
  check: (context, exchange) => {
    const id = operationIdOf(exchange)!;
    const problem = operationIdShapeProblem(id);
    if (!problem) return repeatedId(context, exchange, id);
    return { title: 'operation id is not `<kind>-<UUID>`', message: `${sentence(problem)}; the document's shape is \`<kind>-<UUID>\` (§Endpoints > Conventions).` };
  },
};

/** Why a kind is wrong for an endpoint, naming the near miss (another action's kind, case, singular/plural). */
function kindProblem(kind: string, wanted: OperationKind): string {
  const notes: string[] = [];
  const owner = operationKinds.find((k) => k === kind);
  if (owner) notes.push(`that is the kind of ${actionOf(owner)!.method} ${actionOf(owner)!.path}`);
  else if (kind.toLowerCase() === wanted.toLowerCase()) notes.push('it differs only in letter case');
  else {
    const stem = (k: string) => k.split(/([:-])/).map((w) => w.replace(/s$/, '')).join('');
    if (stem(kind) === stem(wanted)) notes.push('a singular/plural near miss');
  }
  const note = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return `the kind is \`${clip(kind, 80)}\`${note}; the document's kind for this action is \`${wanted}\``;
}

export const opidKind: Check = {
  rule: 'OPID-KIND',
  applies: (exchange) => {
    const id = operationIdOf(exchange);
    return id !== undefined && operationIdShapeProblem(id) === undefined;
  },
  check: (_, exchange) => {
    const endpoint = exchange.probe.endpoint;
    if (!isAck(endpoint)) return undefined;
    const kind = SHAPE.exec(operationIdOf(exchange)!)![1]!;
    const wanted = endpoint.success.operationKind;
    if (kind === wanted) return undefined;
    return {
      title: `operation id kind \`${clip(kind, 60)}\`, expected \`${wanted}\``,
      message: `${sentence(kindProblem(kind, wanted))} (§Endpoints > Conventions, kind-prefix table).`,
    };
  },
};
