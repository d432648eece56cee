/**
 * startProxy() as a team calls it around its own tests: it listens on a free port, forwards
 * unchanged, judges both sides, and close() resolves to the typed report; bad options throw the
 * command's one line before anything listens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { ProxyError, startProxy } from './api.ts';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.close();
});

describe('startProxy()', () => {
  it('forwards, judges each exchange, and close() gives the report: a sound call passes, a call without its key is the client\'s problem', async () => {
    const proxy = await startProxy({ target: mock.url });
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    const sound = await fetch(`${proxy.url}/validate`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } });
    expect(sound.status).toBe(200);
    await sound.text();
    const keyless = await fetch(`${proxy.url}/validate`);
    expect(keyless.status).toBe(401);
    await keyless.text();
    const { exitCode, report } = await proxy.close();
    expect(report.exchanges).toBe(2);
    expect(report.problems.map((p) => [p.side, p.rule])).toEqual([['client', 'AUTH-BEARER']]);
    expect(exitCode).toBe(1);
  }, 60_000);

  it('a target that is no URL: a ProxyError (exit code 2) with the one line the command says', async () => {
    const error = await startProxy({ target: 'not a url' }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ProxyError);
    expect((error as ProxyError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(/--target must be an http or https URL/);
  });
});
