/**
 * conform() as a team calls it from its own tests: the flags as camelCase options, judged by the
 * command's parser; the typed report back; nothing printed unless asked; a run that cannot judge
 * is a ConformError with the command's one line.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { conform, ConformError } from './api.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.close();
});

describe('conform()', () => {
  it('against a running mock: ok, exit code 0, the typed report of the rules asked for; nothing printed', async () => {
    // Nothing on the process's own streams: the caller's test output stays its own.
    let printed = '';
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) => ((printed += String(chunk)), true)) as typeof process.stdout.write;
    let result;
    try {
      result = await conform({ baseUrl: mock.url, siteId: mock.fixtures.siteId, apiKey: mock.fixtures.apiKey, only: ['AUTH-401', 'ERR-BODY'], runs: 5 });
    } finally {
      process.stdout.write = write;
    }
    expect(printed).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.ok).toBe(true);
    expect(result.report.target).toBe(mock.url);
    expect(new Set(result.report.checks.map((c) => c.rule))).toEqual(new Set(['AUTH-401', 'ERR-BODY']));
    expect(result.report.summary.failed).toBe(0);
  }, 60_000);

  it('a faulty server: exit code 1 and its failures in the report; reporters write where asked', async () => {
    let out = '';
    const result = await conform({ mockVariant: 'error-body-without-message', only: 'ERR-BODY', reporter: ['console'], stdout: new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) }) });
    expect(result.exitCode).toBe(1);
    expect(result.report.failures.length).toBeGreaterThan(0);
    expect(result.report.failures.every((f) => f.rules.includes('ERR-BODY'))).toBe(true);
    expect(out).toMatch(/✗ does not conform/);
  }, 60_000);

  it.each([
    ['an option no flag has', { baseURL: 'x' } as never, /conform\(\)\.baseURL is no option; did you mean baseUrl\?/],
    ['a value the flag refuses', { runs: 0 }, /--runs needs a whole number from 1 to 10000, not '0'/],
    ['a target it cannot reach', { baseUrl: 'http://127.0.0.1:1/v2', siteId: '11111111-1111-4111-8111-111111111111', apiKey: 'key-0123456789abcdef' }, /./],
  ])('%s: a ConformError (exit code 2) with the one line the command says', async (_, options, want) => {
    const error = await conform(options).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ConformError);
    expect((error as ConformError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(want);
    expect((error as Error).message).not.toContain('\n');
  }, 60_000);
});
