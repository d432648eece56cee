import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBodyArb } from '../../spec/arbitraries.ts';
import { errBody } from './errors.ts';
import { exchange, expectJudgement, judge, type Case } from './testing.ts';

const error404 = { message: 'Could not find data or the user does not have permissions to retrieve it', status: 404 };

const cases: [string, Case][] = [
  ['conformant 404, data absent', { given: { status: 404, json: error404 }, want: 'pass' }],
  ['data null', { given: { status: 404, json: { ...error404, data: null } }, want: 'pass' }],
  ['data array', { given: { status: 404, json: { ...error404, data: [1, 'two'] } }, want: 'pass' }],
  ['data object', { given: { status: 404, json: { ...error404, data: { resource: 'site' } } }, want: 'pass' }],
  ['data string', { given: { status: 404, json: { ...error404, data: 'x' } }, want: 'pass' }],
  ['extra properties', { given: { status: 400, json: { message: 'Bad request format', status: 400, code: 'E_BAD' } }, want: 'pass' }],
  ['empty message is still a string', { given: { status: 500, json: { message: '', status: 500 } }, want: 'pass' }],
  [
    'status as string',
    { given: { status: 404, json: { ...error404, status: '404' } }, want: /`status` is "404" \(string\); the document says a number equal to the HTTP status 404/ },
  ],
  ['status mismatching the HTTP status', { given: { status: 404, json: { ...error404, status: 400 } }, want: /`status` is 400 but the HTTP status is 404/ }],
  ['status missing', { given: { status: 401, json: { message: 'No or invalid API key provided' } }, want: /`status` is missing/ }],
  ['status null', { given: { status: 401, json: { message: 'No or invalid API key provided', status: null } }, want: /`status` is null \(null\)/ }],
  ['message missing', { given: { status: 400, json: { status: 400 } }, want: /^400 error body: `message` is missing/ }],
  ['message a number', { given: { status: 400, json: { message: 42, status: 400 } }, want: /`message` is 42 \(number\); the document says a string/ }],
  ['message an object', { given: { status: 400, json: { message: { text: 'bad' }, status: 400 } }, want: /`message` is \{"text":"bad"\} \(object\)/ }],
  ['both wrong: every problem named', { given: { status: 500, json: { status: '500' } }, want: /`message` is missing; `status` is "500" \(string\)/ }],
  ['body an array', { given: { status: 404, json: [error404] }, want: /the body is \[.* \(array\), not an object/ }],
  ['body null', { given: { status: 404, text: 'null' }, want: /the body is null \(null\), not an object/ }],
  ['body a string', { given: { status: 404, json: 'not found' }, want: /the body is "not found" \(string\), not an object/ }],
  ['HTML error page', { given: { status: 502, text: '<html><body>Bad Gateway</body></html>', contentType: 'text/html' }, want: /502 error body is not JSON[\s\S]*begins "<html><body>Bad Gateway/ }],
  ['empty error body', { given: { status: 401, text: '', contentType: null }, want: /The body is empty/ }],
  ['success answers are not judged', { given: { status: 200, json: { site: {} } }, want: 'skip' }],
  ['202 is not judged', { given: { endpoint: 'clearCdnCache', status: 202, json: { status: '202' } }, want: 'skip' }],
  ['no answer is not judged', { given: { failure: 'timeout' }, want: 'skip' }],
];

describe('ERR-BODY', () => {
  it.each(cases)('%s', (_, c) => expectJudgement(errBody, c));
});

describe('ERR-BODY on error bodies a conformant server may send', () => {
  it.each([400, 401, 404, 500])('%i', (status) => {
    for (const body of fc.sample(errorBodyArb(status), { seed: 3, numRuns: 30 }))
      expect(judge(errBody, exchange({ status, json: body })), JSON.stringify(body)).toBe('pass');
  });
});
