import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { responseArb } from '../../spec/arbitraries.ts';
import { isAck, operationKinds } from '../../spec/queries.ts';
import { ack202, KIND_SHAPE, operationIdShapeProblem, opidKind, opidShape } from './ack.ts';
import { BASE_URL, expectJudgement, judge, exchange, TEST_UUID, type Case } from './testing.ts';

const UUID = TEST_UUID;
const ack = (operation_id: unknown, extra: Record<string, unknown> = {}) => ({ operation_id, message: 'The action is in progress', status: 202, ...extra });
const cdn = { endpoint: 'clearCdnCache', status: 202 } as const;
const wp = { endpoint: 'runWpCliCommand', status: 202 } as const;

describe('ACK-202', () => {
  const cases: [string, Case][] = [
    ['conformant', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID}`) }, want: 'pass' }],
    ['extra fields', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID}`, { data: null, extra: 1 }) }, want: 'pass' }],
    ['200 instead of 202', { given: { ...cdn, status: 200, json: ack(`cdn-cache:clear-${UUID}`) }, want: /^answered 200, expected 202\nThe server answered 200 to a valid request\. / }],
    ['200 with a body status 200', { given: { ...cdn, status: 200, json: ack(`cdn-cache:clear-${UUID}`, { status: 200 }) }, want: /answered 200[\s\S]*`status` is 200; the document says the number 202/ }],
    ['`status: "202"`', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID}`, { status: '202' }) }, want: /^acknowledgement body: `status` is "202" \(string\)\n/ }],
    ['status missing', { given: { ...cdn, json: { operation_id: `cdn-cache:clear-${UUID}`, message: 'ok' } }, want: /`status` is missing/ }],
    ['operation_id missing', { given: { ...cdn, json: { message: 'ok', status: 202 } }, want: /`operation_id` is missing/ }],
    ['operation_id a number', { given: { ...cdn, json: ack(12345) }, want: /`operation_id` is 12345 \(number\); the document says a string/ }],
    ['message missing', { given: { ...cdn, json: { operation_id: `cdn-cache:clear-${UUID}`, status: 202 } }, want: /`message` is missing/ }],
    ['body not JSON', { given: { ...cdn, text: 'Accepted', contentType: 'text/plain' }, want: /the body is not JSON/ }],
    ['empty 202', { given: { ...cdn, text: '', contentType: null }, want: /The body is empty/ }],
    ['body an array', { given: { ...cdn, json: [] }, want: /the body is \[\] \(array\), not an object/ }],
    ['valid request refused', { given: { ...wp, status: 400, json: { message: 'bad', status: 400 } }, want: /answered 400, expected 202\nThe server answered 400 to a valid request \(the server said "bad"\)/ }],
    // The model's environment_id of the CDN clear rests on an assumption (see assumptions.test.ts for every endpoint).
    ['valid request refused, resting on an assumption', { given: { ...cdn, status: 400, json: { message: 'bad', status: 400 } }, want: /to a valid request \(it rests on ASM-ENVIRONMENT-ID-UUID for `environment_id`\) \(the server said "bad"\)/ }],
    ['invalid request refused: not an acknowledgement', { given: { ...cdn, expect: 'invalid', rule: 'INPUT-400', status: 400, json: { message: 'bad', status: 400 } }, want: 'skip' }],
    ['observed request acknowledged', { given: { ...cdn, expect: 'observe', rule: 'STATUS-SET', json: ack(`cdn-cache:clear-${UUID}`) }, want: 'pass' }],
    ['invalid request acknowledged with a bad body', { given: { ...cdn, expect: 'invalid', rule: 'INPUT-400', json: ack(1) }, want: /`operation_id` is 1/ }],
    ['synchronous endpoint', { given: { endpoint: 'createWpAdminUser', status: 200, json: {} }, want: 'skip' }],
    ['no answer', { given: { ...cdn, failure: 'timeout' }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(ack202, c));
});

describe('OPID-SHAPE', () => {
  const cases: [string, Case][] = [
    ['conformant', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID}`) }, want: 'pass' }],
    ['uppercase UUID', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID.toUpperCase()}`) }, want: 'pass' }],
    ['a wrong kind still has the shape', { given: { ...cdn, json: ack(`backups:restore-${UUID}`) }, want: 'pass' }],
    ['malformed UUID (short last group)', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID.slice(0, -1)}`) }, want: /after `cdn-cache:clear-` comes "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6", not a UUID/ }],
    ['malformed UUID (non-hex)', { given: { ...wp, json: ack(`environment:run-wp-cli-command-${UUID.replace('3', 'g')}`) }, want: /not a UUID/ }],
    ['UUID without dashes', { given: { ...cdn, json: ack(`cdn-cache:clear-${UUID.replaceAll('-', '')}`) }, want: /not a UUID/ }],
    ['missing separator', { given: { ...cdn, json: ack(`cdn-cache:clear${UUID}`) }, want: /has no `-` between the kind `cdn-cache:clear` and "3f2b8c1e-/ }],
    ['other separator', { given: { ...cdn, json: ack(`cdn-cache:clear:${UUID}`) }, want: /has no `-` between the kind `cdn-cache:clear` and ":3f2b/ }],
    ['bare UUID', { given: { ...cdn, json: ack(UUID) }, want: /is a bare UUID/ }],
    ['empty kind', { given: { ...cdn, json: ack(`-${UUID}`) }, want: /has an empty kind/ }],
    ['unknown kind, no UUID', { given: { ...cdn, json: ack('op_12345') }, want: /"op_12345" does not end in `-<UUID>`/ }],
    ['empty string', { given: { ...cdn, json: ack('') }, want: /"" does not end in/ }],
    ['operation_id not a string (ACK-202 judges it)', { given: { ...cdn, json: ack(42) }, want: 'skip' }],
    ['error answer', { given: { ...cdn, status: 400, json: { message: 'x', status: 400 } }, want: 'skip' }],
    ['synchronous endpoint', { given: { endpoint: 'getSite', status: 200, json: { operation_id: 'x' } }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(opidShape, c));

  it('the same id for two acknowledgements in one run: a warning on the second, never a failure, even with --strict; other runs start afresh', () => {
    const id = `cdn-cache:clear-${UUID}`;
    for (const strict of [false, true]) {
      const run = { options: { strict } };
      expect(judge(opidShape, exchange({ ...cdn, json: ack(id) }), run)).toBe('pass');
      expect(judge(opidShape, exchange({ ...cdn, json: ack(`cdn-cache:clear-${TEST_UUID.replace('3f', '4f')}`) }), run)).toBe('pass');
      const again = judge(opidShape, exchange({ ...wp, json: ack(id) }), run);
      expect(again).toMatchObject({ severity: 'warning', title: 'the same operation id for two acknowledgements' });
      expect((again as { message: string }).message).toContain(`was given before, to POST ${BASE_URL}/sites/cdn/clear-cache`);
    }
    expect(judge(opidShape, exchange({ ...cdn, json: ack(id) }), { options: { strict: false } })).toBe('pass');
  });

  it('names no problem for any id of the right shape: a kind written as the table writes its kinds, then a UUID', () => {
    expect(operationIdShapeProblem(`sftp-accounts:remove-additional-sftp-account-${UUID}`)).toBeUndefined();
    expect(operationIdShapeProblem(`Purge-Everything:now-${UUID}`)).toBeUndefined();
    for (const kind of operationKinds) expect(KIND_SHAPE.test(kind), kind).toBe(true);
  });

  it('names what stands before the UUID where it is no kind: a timestamp, white space', () => {
    expect(operationIdShapeProblem(`cdn-cache:clear-1700000000000-${UUID}`)).toMatch(/`cdn-cache:clear-1700000000000` before `-<UUID>` is not written as the table's kinds are/);
    expect(operationIdShapeProblem(`anything at all-${UUID}`)).toMatch(/is not written as the table's kinds are/);
  });
});

describe('OPID-KIND', () => {
  const cases: [string, Case][] = [
    ['the kind of the action', { given: { ...wp, json: ack(`environment:run-wp-cli-command-${UUID}`) }, want: 'pass' }],
    [
      'plural instead of singular',
      { given: { ...wp, json: ack(`environments:run-wp-cli-command-${UUID}`) }, want: /kind `environments:run-wp-cli-command`, expected `environment:run-wp-cli-command`\n.*singular\/plural near miss/ },
    ],
    [
      'singular instead of plural',
      { given: { endpoint: 'searchAndReplace', status: 202, json: ack(`environment:search-and-replace-${UUID}`) }, want: /singular\/plural near miss\); the document's kind for this action is `environments:search-and-replace`/ },
    ],
    [
      "another action's kind",
      { given: { ...cdn, json: ack(`backups:restore-${UUID}`) }, want: /that is the kind of POST \/sites\/environments\/\{target_env_id\}\/backups\/restore/ },
    ],
    ['letter case', { given: { ...cdn, json: ack(`CDN-Cache:Clear-${UUID}`) }, want: /differs only in letter case/ }],
    ['unrelated kind', { given: { ...cdn, json: ack(`purge-${UUID}`) }, want: /^operation id kind `purge`, expected `cdn-cache:clear`\nThe kind is `purge`; / }],
    ['malformed shape (OPID-SHAPE judges it)', { given: { ...cdn, json: ack(`cdn-cache:clear${UUID}`) }, want: 'skip' }],
    ['error answer', { given: { ...cdn, status: 404, json: { message: 'x', status: 404 } }, want: 'skip' }],
  ];
  it.each(cases)('%s', (_, c) => expectJudgement(opidKind, c));
});

describe('acknowledgements a conformant server may send', () => {
  it.each(api.endpoints.filter(isAck).map((e) => [e.name, e] as const))('%s: ACK-202, OPID-SHAPE and OPID-KIND pass', (_, e) => {
    for (const body of fc.sample(responseArb(e), { seed: 7, numRuns: 25 })) {
      const given = exchange({ endpoint: e, status: 202, json: body });
      for (const check of [ack202, opidShape, opidKind]) expect(judge(check, given), `${check.rule} on ${JSON.stringify(body)}`).toBe('pass');
    }
  });
});
