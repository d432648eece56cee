import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import type { RuleId } from '../../spec/model.ts';
import type { Expectation } from '../types.ts';
import { checkFor, checks, isSuccess, successStatuses } from './index.ts';
import { exchange } from './testing.ts';

const notSingleExchange = (rule: RuleId) => rule.startsWith('STATE-') || rule === 'BASE-PATH';
const expectations: readonly Expectation[] = ['unauthorized', 'not-found', 'invalid', 'valid', 'observe'];

describe('the check registry', () => {
  it('has one check per rule that judges single exchanges, in the order of the model', () => {
    expect(checks.map((c) => c.rule)).toEqual(api.rules.map((r) => r.id).filter((id) => !notSingleExchange(id)));
  });

  it('finds each check by rule, and none for scenarios and target rules', () => {
    for (const c of checks) expect(checkFor(c.rule)).toBe(c);
    for (const r of api.rules.filter((r) => notSingleExchange(r.id))) expect(checkFor(r.id)).toBeUndefined();
  });

  it('exports the success statuses', () => {
    expect(successStatuses(api.endpoints.find((e) => e.name === 'clearCdnCache')!)).toEqual([202]);
    expect(isSuccess(api.endpoints.find((e) => e.name === 'getSite')!, 200)).toBe(true);
  });

  // Every probe that gets no answer is reported once, under one rule; never twice.
  const probeKinds = api.rules.flatMap((r) => expectations.map((e) => [r.id, e] as const));
  it.each(probeKinds)('a transport failure of a %s probe expecting %s is judged by at most one check', (rule, expect_) => {
    const given = exchange({ rule, expect: expect_, failure: 'timeout' });
    expect(checks.filter((c) => c.applies(given)).length).toBeLessThanOrEqual(1);
  });

  const briefed: readonly (readonly [RuleId, Expectation, RuleId])[] = [
    ['AUTH-401', 'unauthorized', 'AUTH-401'],
    ['AUTH-BEARER', 'unauthorized', 'AUTH-BEARER'],
    ['AUTH-SCHEME-CASE', 'observe', 'AUTH-SCHEME-CASE'],
    ['READ-404', 'not-found', 'READ-404'],
    ['READ-404', 'observe', 'NO-SERVER-ERROR'],
    ['INPUT-400', 'invalid', 'INPUT-400'],
    ['INPUT-ACCEPT', 'valid', 'INPUT-ACCEPT'],
    ['LIMIT-WP-COMMAND', 'invalid', 'LIMIT-WP-COMMAND'],
    ['LIMIT-WP-COMMAND', 'valid', 'LIMIT-WP-COMMAND'],
    ['LIMIT-EXP-INTERVAL', 'invalid', 'LIMIT-EXP-INTERVAL'],
    ['LIMIT-WEB-ROOT-SUBFOLDER', 'valid', 'LIMIT-WEB-ROOT-SUBFOLDER'],
    ['STATUS-SET', 'observe', 'NO-SERVER-ERROR'],
    ['NO-SERVER-ERROR', 'valid', 'NO-SERVER-ERROR'],
  ];
  it.each(briefed)('a transport failure of a %s probe expecting %s is reported under %s', (rule, expect_, owner) => {
    const given = exchange({ rule, expect: expect_, failure: 'timeout' });
    const verdicts = checks.filter((c) => c.applies(given)).map((c) => [c.rule, c.check({ options: { strict: false } }, given)?.title]);
    expect(verdicts).toEqual([[owner, 'no answer: timeout after 10000 ms']]);
  });
});

describe('ownProbesOnly is truthful', () => {
  const expectations = ['unauthorized', 'foreign-key', 'foreign-write', 'not-found', 'invalid', 'valid', 'observe'] as const;
  const own = checks.filter((c) => c.ownProbesOnly);

  it('the expectation checks, and only they, judge nothing but their own rule\'s probes', () => {
    expect(own.map((c) => c.rule).sort()).toEqual(
      ['AUTH-401', 'AUTH-BEARER', 'AUTH-SCHEME-CASE', 'READ-404', 'ISOLATION-WRITE', 'INPUT-400', 'INPUT-ACCEPT', 'LIMIT-WP-COMMAND', 'LIMIT-EXP-INTERVAL', 'LIMIT-WEB-ROOT-SUBFOLDER'].sort(),
    );
  });

  it.each(own.map((c) => [c.rule, c] as const))('%s never applies to a probe of another rule', (_, check) => {
    for (const expect_ of expectations) {
      for (const status of [200, 202, 400, 401, 404, 500]) {
        expect(check.applies(exchange({ rule: 'ERR-BODY', expect: expect_, status, json: {} }))).toBe(false);
      }
      expect(check.applies(exchange({ rule: 'ERR-BODY', expect: expect_, failure: 'timeout' }))).toBe(false);
    }
  });
});
