import { describe, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { checkFor } from './index.ts';
import { expectJudgement, type Case } from './testing.ts';

const noServerError = checkFor('NO-SERVER-ERROR')!;
const err = (status: number) => ({ message: 'Error occurred while processing the request', status });

const cases: [string, Case][] = [
  ['valid request answered 200', { given: { expect: 'valid', status: 200, json: {} }, want: 'pass' }],
  ['valid request refused with 400 (INPUT-ACCEPT judges it)', { given: { expect: 'valid', status: 400, json: err(400) }, want: 'pass' }],
  ['valid request answered 500', { given: { expect: 'valid', status: 500, json: err(500) }, want: /^server error 500\n.*valid under every reasonable reading[\s\S]*"Error occurred while processing the request"/ }],
  ['valid request answered 502 by a proxy', { given: { expect: 'valid', status: 502, text: '<html>Bad Gateway</html>', contentType: 'text/html' }, want: /^server error 502/ }],
  // An observed request may be invalid, and the letter may answer it 500: STATUS-SET judges it, not this check.
  ['observed request answered 500', { given: { rule: 'STATUS-SET', expect: 'observe', endpoint: 'clearCdnCache', status: 500, json: err(500) }, want: 'skip' }],
  ['observed request answered 404', { given: { rule: 'STATUS-SET', expect: 'observe', status: 404, json: err(404) }, want: 'skip' }],
  ['invalid request answered 500 (INPUT-400 judges it)', { given: { rule: 'INPUT-400', expect: 'invalid', status: 500, json: err(500) }, want: 'skip' }],
  ['unauthorized probe answered 500', { given: { rule: 'AUTH-401', expect: 'unauthorized', status: 500, json: err(500) }, want: 'skip' }],
  ['not-found probe answered 500', { given: { rule: 'READ-404', expect: 'not-found', status: 500, json: err(500) }, want: 'skip' }],
  // A transport failure is reported once: by the probe's own check when it has one, else here.
  ['no answer to a valid INPUT-ACCEPT probe (its own check reports it)', { given: { rule: 'INPUT-ACCEPT', expect: 'valid', failure: 'timeout' }, want: 'skip' }],
  ['no answer to an AUTH-SCHEME-CASE probe (its own check reports it)', { given: { rule: 'AUTH-SCHEME-CASE', expect: 'observe', failure: 'timeout' }, want: 'skip' }],
  ['no answer to an observed conflict probe', { given: { rule: 'READ-404', expect: 'observe', failure: 'timeout' }, want: /^no answer: timeout after 10000 ms\n.*expected an answer below 500/ }],
  ['no answer to a valid probe of a rule without an expectation check', { given: { rule: 'NO-SERVER-ERROR', expect: 'valid', failure: 'reset' }, want: /^no answer: connection reset/ }],
  ['no answer to an invalid probe', { given: { rule: 'INPUT-400', expect: 'invalid', failure: 'reset' }, want: 'skip' }],
];

describe('NO-SERVER-ERROR', () => {
  it.each(cases)('%s', (_, c) => expectJudgement(noServerError, c));

  it.each(api.endpoints.map((e) => [e.name, e] as const))('5xx on a valid request to %s fails', (_, e) => {
    for (const status of [500, 501, 503, 504])
      expectJudgement(noServerError, { given: { endpoint: e, expect: 'valid', status, json: err(status) }, want: new RegExp(`server error ${status}`) });
  });
});
