import { describe, it } from 'vitest';
import { contentType } from './content-type.ts';
import { expectJudgement, type Case } from './testing.ts';

const body = { message: 'No or invalid API key provided', status: 401 };

const cases: [string, Case][] = [
  ['application/json', { given: { status: 401, json: body, contentType: 'application/json' }, want: 'pass' }],
  ['with charset', { given: { status: 401, json: body, contentType: 'application/json; charset=utf-8' }, want: 'pass' }],
  ['mixed case', { given: { status: 401, json: body, contentType: 'Application/JSON' }, want: 'pass' }],
  ['upper case, no space before the parameter', { given: { status: 401, json: body, contentType: 'APPLICATION/JSON;CHARSET=UTF-8' }, want: 'pass' }],
  ['on a success body too', { given: { status: 200, json: { site: {} }, contentType: 'application/json' }, want: 'pass' }],
  ['text/html', { given: { status: 502, text: '<html></html>', contentType: 'text/html; charset=utf-8' }, want: /502 body is text\/html, not application\/json[\s\S]*"text\/html; charset=utf-8"/ }],
  ['text/plain on a JSON body', { given: { status: 200, json: { site: {} }, contentType: 'text/plain' }, want: /body is text\/plain/ }],
  ['a +json suffix is not the stated type', { given: { status: 400, json: body, contentType: 'application/problem+json' }, want: /application\/problem\+json/ }],
  ['labelled JSON, not JSON', { given: { status: 200, text: '<html>ok</html>', contentType: 'application/json' }, want: /200 body is labelled application\/json but is not JSON/ }],
  ['labelled JSON, JSON cut short', { given: { status: 404, text: '{"message": "x", "sta', contentType: 'application/json; charset=utf-8' }, want: /labelled application\/json but is not JSON/ }],
  ['missing', { given: { status: 401, json: body, contentType: null }, want: /401 body without a Content-Type/ }],
  ['blank', { given: { status: 401, json: body, contentType: ' ' }, want: /without a Content-Type/ }],
  ['no body: nothing to type', { given: { status: 401, text: '', contentType: null }, want: 'skip' }],
  ['no answer', { given: { failure: 'reset' }, want: 'skip' }],
];

describe('CONTENT-TYPE', () => {
  it.each(cases)('%s', (_, c) => expectJudgement(contentType, c));
});
