/**
 * The proxy's baseline and recording, over real sockets: a client's known problem is listed as
 * known and does not set the exit code, a new one does, and an entry no exchange showed is named;
 * --record writes the exchanges with a problem as HAR with the client's key as a placeholder,
 * which replay judges (a server problem: fixed against a conformant server; a client's: not judged).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/server.ts';
import { runReplay } from '../conformance/replay/cli.ts';
import type { Har } from '../conformance/replay/har.ts';
import { Sanitizer } from '../sanitize/sanitizer.ts';
import { startProxy } from './api.ts';
import { MAX_RECORDED, ProxyRecorder } from './record.ts';

const dir = mkdtempSync(join(tmpdir(), 'hsc-proxy-record-'));
let mock: RunningMock;
let faulty: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
  faulty = await startMock({ port: 0, variant: 'error-body-without-message' });
});
afterAll(async () => {
  await mock?.close();
  await faulty?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Through a proxy to `target`: a sound call, a call with the key in the wrong scheme (a client problem), and an unknown site (the faulty target's 404 body). */
async function traffic(target: RunningMock, options: Record<string, unknown>, calls: readonly ('sound' | 'token' | 'missing-site')[]) {
  const proxy = await startProxy({ target: target.url, ...options });
  for (const call of calls) {
    const headers = { authorization: `${call === 'token' ? 'Token' : 'Bearer'} ${target.fixtures.apiKey}` };
    const path = call === 'missing-site' ? '/sites/00000000-0000-4000-8000-000000000000' : '/validate';
    await (await fetch(`${proxy.url}${path}`, { headers })).text();
  }
  return proxy.close();
}

describe('proxy --baseline', () => {
  const file = join(dir, 'proxy-baseline.json');

  it('--write-baseline writes the problems seen; with it, they are known and the exit code is 0', async () => {
    const first = await traffic(mock, { writeBaseline: file }, ['sound', 'token']);
    expect(first.exitCode).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { findings: { fingerprint: string }[] };
    expect(written.findings.map((f) => f.fingerprint)).toEqual(['client AUTH-BEARER GET /validate at Authorization']);
    const again = await traffic(mock, { baseline: file }, ['sound', 'token']);
    expect(again.exitCode).toBe(0);
    expect(again.report.problems.every((p) => p.known !== undefined)).toBe(true);
    expect(again.report.baseline).toMatchObject({ known: 1, gone: [] });
  });

  it('a problem not in it sets the exit code; an entry no exchange showed is named', async () => {
    const other = await traffic(faulty, { baseline: file }, ['sound', 'missing-site']);
    expect(other.exitCode).toBe(1);
    expect(other.report.problems.some((p) => p.known === undefined && p.side === 'server')).toBe(true);
    expect(other.report.baseline!.gone).toEqual(['client AUTH-BEARER GET /validate at Authorization']);
  });
});

describe('proxy --record', () => {
  it('records the exchanges with a problem, the key as a placeholder; replay judges the server\'s and leaves the client\'s not judged', async () => {
    const file = join(dir, 'proxy.har');
    const { exitCode } = await traffic(faulty, { record: file }, ['sound', 'token', 'missing-site']);
    expect(exitCode).toBe(1);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(faulty.fixtures.apiKey);
    const har = JSON.parse(text) as Har;
    expect(har.log.entries.map((e) => e._hostedSiteContract.sides)).toEqual([['client'], ['server']]);
    expect(text).toContain('${CLIENT_API_KEY}');
    let out = '';
    const sink = new Writable({ write: (c: Buffer, _e, done) => ((out += c.toString()), done()) });
    const code = await runReplay([file, '--base-url', mock.url], { stdout: sink, stderr: sink, env: { CLIENT_API_KEY: mock.fixtures.apiKey } });
    expect(out).toMatch(/^\? not judged {2}AUTH-BEARER GET \/validate: .*the client's request itself broke the rule/m);
    expect(out).toMatch(/^✓ fixed {2}ERR-BODY GET \/sites\/\{site_id\}/m);
    expect(code).toBe(2);
  });

  it('--record-all records every exchange', async () => {
    const file = join(dir, 'all.har');
    await traffic(mock, { record: file, recordAll: true }, ['sound', 'sound']);
    expect((JSON.parse(readFileSync(file, 'utf8')) as Har).log.entries).toHaveLength(2);
  });
});

describe('the proxy recorder, at its bound', () => {
  it(`keeps the first ${MAX_RECORDED} exchanges and counts the rest; a withheld one is counted, never recorded`, () => {
    const recorder = new ProxyRecorder(true, 'http://127.0.0.1:1/v2', new Sanitizer());
    const request = { method: 'GET', url: '/v2/validate', headers: {}, body: Buffer.alloc(0), tooLarge: false };
    const answer = { status: 200, headers: {}, body: Buffer.from('{}'), tooLarge: false };
    recorder.add(request, answer, undefined, { problems: [], unjudged: [] }, 1, true);
    for (let i = 0; i < MAX_RECORDED + 2; i++) recorder.add(request, answer, undefined, { problems: [], unjudged: [] }, 1, false);
    expect([recorder.recorded, recorder.dropped]).toEqual([MAX_RECORDED, 3]);
    expect(recorder.har().log.comment).toMatch(/3 more not recorded: past 1000, or withheld/);
  });
});
