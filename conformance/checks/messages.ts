/**
 * What a message states, read from its words (ASM-MESSAGE-WORDS): an acknowledgement's that the
 * action is in progress (ACK-IN-PROGRESS: §States and transitions, "reported as in progress
 * through its 202 message"), an error's its status's meaning (ERR-MESSAGE: §Errors, the "Message
 * meaning" column; 401's as AUTH-401 reads it, on every 401). Words are a weak reading of a
 * meaning in any language, so a message fails only where no reading saves it: an acknowledgement
 * that says its own action is done (the action's verb, from its kind, in the past tense), an error
 * that says another status's meaning in the table's own words and none of its own. Any other
 * message that says neither is a warning: the document states the meaning, not the words.
 */
import { api } from '../../spec/api.ts';
import { isAck } from '../../spec/queries.ts';
import type { Check, Exchange, Verdict } from '../types.ts';
import { is2xx } from './success.ts';
import { isObject, quote } from './values.ts';
import { messageMeaning } from './auth.ts';

/** Words of a meaning, read case-insensitively with `_` and `-` as spaces, whole words only. */
const words = (list: readonly string[]): RegExp => new RegExp(`(?<![a-z])(?:${list.join('|')})(?![a-z])`);

const IN_PROGRESS = words(['in progress', 'progress', 'processing', 'pending', 'queued', 'enqueued', 'accepted', 'started', 'starting', 'scheduled', 'running', 'submitted', 'initiated', 'being', 'will be', 'under ?way', 'async(?:hronous(?:ly)?)?']);

/** Past tenses the `-ed` rule does not make; a verb whose past is itself (`reset`) cannot say "done" apart from its noun. */
const IRREGULAR_PAST: Readonly<Record<string, string | undefined>> = { run: 'ran', reset: undefined };
const pastOf = (verb: string): string | undefined => (verb in IRREGULAR_PAST ? IRREGULAR_PAST[verb] : verb.endsWith('e') ? `${verb}d` : `${verb}ed`);

/**
 * An acknowledged action's own verbs in the past tense, from its kind (`cdn-cache:clear` →
 * `cleared`, `environments:search-and-replace` → `searched`, `replaced`): a message that holds one
 * says the action itself is done.
 */
const doneWords = (kind: string): RegExp | undefined => {
  const action = kind.split(':')[1]!.split('-');
  const verbs = [action[0]!, ...action.flatMap((w, i) => (action[i - 1] === 'and' ? [w] : []))];
  const past = verbs.map(pastOf).filter((p): p is string => p !== undefined);
  return past.length ? words(past) : undefined;
};

/** Each error status's meaning (§Errors), as words; 401's is read by AUTH-401. */
const MEANING_WORDS: Readonly<Record<number, RegExp>> = {
  400: words(['bad', 'malformed', 'invalid', 'validation', 'required', 'must', 'missing', 'expected', 'expects?', 'not allowed', 'not a valid', 'unknown', 'format', 'parse', 'syntax', 'type', 'too long', 'too short', 'exceeds?', 'out of range', 'cannot be', 'should be', 'not (?:found|supported|permitted)']),
  404: words(['not found', 'could not find', "couldn't find", 'cannot find', 'no such', 'does not exist', "doesn't exist", 'unknown', 'permissions?', 'not allowed', 'forbidden', 'access', 'not authori[sz]ed', 'missing']),
  500: words(['error', 'internal', 'processing', 'failed', 'failure', 'unexpected', 'exception', 'server', 'went wrong', 'unavailable']),
};

const read = (message: string): string => message.replace(/[_-]+/g, ' ').toLowerCase();

/** The string message of an answer's JSON body, or undefined (a missing one is ERR-BODY's or ACK-202's finding). */
const messageOf = (exchange: Exchange): string | undefined => {
  const json = exchange.response?.json;
  return isObject(json) && typeof json.message === 'string' ? json.message : undefined;
};

export const ackInProgress: Check = {
  rule: 'ACK-IN-PROGRESS',
  applies: (exchange) => isAck(exchange.probe.endpoint) && exchange.response !== undefined && is2xx(exchange.response.status) && messageOf(exchange) !== undefined,
  check: (_, exchange): Verdict | undefined => {
    const message = messageOf(exchange)!;
    const words = read(message);
    if (IN_PROGRESS.test(words)) return undefined;
    const said = `The acknowledgement's message ${quote(message)}`;
    const meaning = '§States and transitions: "An asynchronous action that is accepted is reported as in progress through its 202 message"';
    const success = exchange.probe.endpoint.success;
    const done = success.kind === 'ack' ? doneWords(success.operationKind) : undefined;
    if (done?.test(words)) {
      return { title: 'the acknowledgement says the action is done, not in progress', message: `${said} says the action itself is done (${success.kind === 'ack' ? `\`${success.operationKind}\`` : ''} in the past tense); ${meaning} (ASM-MESSAGE-WORDS).` };
    }
    return { title: 'the acknowledgement does not say the action is in progress', message: `${said} does not say the action is in progress; ${meaning}. A warning: the document states the meaning, not the words (ASM-MESSAGE-WORDS).`, severity: 'warning' };
  },
};

export const errMessage: Check = {
  rule: 'ERR-MESSAGE',
  applies: (exchange) => exchange.response !== undefined && (exchange.response.status === 401 || MEANING_WORDS[exchange.response.status] !== undefined) && messageOf(exchange) !== undefined,
  check: (_, exchange): Verdict | undefined => {
    const status = exchange.response!.status;
    // 401's meaning is §Authentication 2's too: read as AUTH-401 reads it, on every 401, whatever probe met it.
    if (status === 401) return messageMeaning(exchange);
    const message = messageOf(exchange)!;
    const words = read(message);
    if (MEANING_WORDS[status]!.test(words)) return undefined;
    // The table's own words of another status's meaning ("Bad request format" on a 404) say that meaning in any reading.
    const other = api.errorMeanings.find((m) => m.status !== status && words.includes(read(m.meaning)));
    if (other) {
      return {
        title: `the ${status} message states the meaning of ${other.status}`,
        message: `The ${status} message ${quote(message)} states, in §Errors' own words, the meaning the table gives ${other.status} ("${other.meaning}"), and none of ${status}'s (ASM-MESSAGE-WORDS).`,
      };
    }
    return {
      title: `the ${status} message does not state its meaning`,
      message: `The ${status} message ${quote(message)} holds none of the words of its meaning in §Errors' table (ASM-MESSAGE-WORDS). A warning: the document states the meaning, not the words.`,
      severity: 'warning',
    };
  },
};
