/**
 * ACK-IN-PROGRESS and ERR-MESSAGE: what a message states, read from its words (ASM-MESSAGE-WORDS):
 * the opposite of its meaning fails, no word of it warns, its meaning in any words passes.
 */
import { describe, it } from 'vitest';
import { ackInProgress, errMessage } from './messages.ts';
import { expectJudgement, type Case } from './testing.ts';

const ack = (message: unknown): Case['given'] => ({ endpoint: 'clearCdnCache', status: 202, json: { operation_id: 'cdn-cache:clear-0f8fad5b-d9cb-469f-a165-70867728950e', message, status: 202 } });
const error = (status: number, message: unknown): Case['given'] => ({ endpoint: 'getSite', status, json: { message, status } });

describe('ACK-IN-PROGRESS', () => {
  it.each<[string, Case]>([
    ['in progress', { given: ack('The operation is in progress.'), want: 'pass' }],
    ['queued, in other words', { given: ack('Queued.'), want: 'pass' }],
    ['accepted, snake case', { given: ack('request_accepted'), want: 'pass' }],
    ['"will be" outranks a word of the deed', { given: ack('The cache will be cleared shortly'), want: 'pass' }],
    ['says its own action is done', { given: ack('CDN cache cleared successfully.'), want: /says the action itself is done/ }],
    ['says its own action has been done, the webroot\'s verb', { given: { ...ack('Webroot has been changed'), endpoint: 'changeWebrootSubfolder' }, want: /done/ }],
    ['either verb of search-and-replace', { given: { ...ack('All occurrences replaced'), endpoint: 'searchAndReplace' }, want: /done/ }],
    // No reading saves these from meaning "accepted", or they say nothing of the action: warnings, never failures.
    ['the request received', { given: ack('Your request has been received.'), want: { match: /does not say the action is in progress/, severity: 'warning' } }],
    ['a job created', { given: ack('Job created successfully'), want: { match: /does not say/, severity: 'warning' } }],
    ['"Success"', { given: ack('Success'), want: { match: /does not say/, severity: 'warning' } }],
    ['another action\'s verb', { given: ack('Webroot changed'), want: { match: /does not say/, severity: 'warning' } }],
    ['a verb whose past is itself cannot say done', { given: { ...ack('Site reset'), endpoint: 'resetSite' }, want: { match: /does not say/, severity: 'warning' } }],
    ['says neither', { given: ack('OK'), want: { match: /does not say the action is in progress/, severity: 'warning' } }],
    ['not a string: ACK-202 says so', { given: ack(42), want: 'skip' }],
    ['not an acknowledgement', { given: { endpoint: 'getSite', json: { message: 'done' } }, want: 'skip' }],
  ])('%s', (_, c) => expectJudgement(ackInProgress, c));
});

describe('ERR-MESSAGE', () => {
  it.each<[string, Case]>([
    ['404 in its words', { given: error(404, 'Could not find data or the user does not have permissions to retrieve it'), want: 'pass' }],
    ['404 in other words', { given: error(404, 'Site not found'), want: 'pass' }],
    ['400 in other words', { given: error(400, 'body/ttl must be integer'), want: 'pass' }],
    ['500', { given: error(500, 'Internal Server Error'), want: 'pass' }],
    ['404 saying 400\'s meaning in the table\'s words', { given: error(404, 'Bad request format.'), want: /404 message states the meaning of 400[\s\S]*"Bad request format"/ }],
    ['400 saying 500\'s meaning in the table\'s words', { given: error(400, 'Error occurred while processing the request'), want: /400 message states the meaning of 500/ }],
    ['404 saying 401\'s', { given: error(404, 'No or invalid API key provided'), want: /meaning of 401/ }],
    ['a word of another meaning beside its own', { given: error(404, 'Invalid id: site not found'), want: 'pass' }],
    // Words of another meaning, not the table's: a reading may save them (a 404 for an id "invalid" as a key to data; "error" in any language).
    ['400 "Error"', { given: error(400, 'Error'), want: { match: /does not state its meaning/, severity: 'warning' } }],
    ['404 "Invalid site id"', { given: error(404, 'Invalid site id'), want: { match: /does not state its meaning/, severity: 'warning' } }],
    ['404 in another language', { given: error(404, 'Error: recurso no encontrado'), want: { match: /does not state its meaning/, severity: 'warning' } }],
    ['404 saying nothing of it', { given: error(404, 'Oops'), want: { match: /404 message does not state its meaning/, severity: 'warning' } }],
    ['401 read as AUTH-401 reads it: silent', { given: error(401, 'Request denied'), want: /names no key/ }],
    ['401 read as AUTH-401 reads it: clear', { given: error(401, 'Invalid API key'), want: 'pass' }],
    ['a status the table gives no meaning', { given: error(409, 'conflict'), want: 'skip' }],
  ])('%s', (_, c) => expectJudgement(errMessage, c));
});
