/**
 * The request body cap over a real socket (issue 21, item 5): the mock stops reading a body at
 * MAX_BODY_BYTES, answers at once with the error body it gives a too-large body, and closes the
 * connection, so a client streaming without end is cut off within a short bound. Each client here
 * bounds its own time and bytes, so a mock that kept reading fails the test instead of hanging it.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateErrorBody } from '../generated/validators.js';
import { MAX_BODY_BYTES } from './policy.ts';
import { startMock, type RunningMock } from './server.ts';

/**
 * A hang guard: the mock answers and closes in milliseconds, and what shows it closed at once is
 * what the client got to send (`SENT_AT_MOST`), not the time, which a busy machine stretches.
 */
const ANSWER_WITHIN_MS = 10_000;
/** What a client may have sent by then: the cap plus what the kernel's socket buffers hold. */
const SENT_AT_MOST = 16 * 1024 * 1024;
/** Where a client stops sending whatever happens, so a mock that keeps reading fails the test, not the machine. */
const CLIENT_STOPS_AT = 64 * 1024 * 1024;

type BodyKind = 'endless-chunked' | 'slow';

interface Streamed {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** Bytes of body the client handed to its socket. */
  readonly sent: number;
  readonly closedAfterMs: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');
/** One frame of a chunked body that never ends: a chunk, never the last (empty) one. */
const FRAME = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]);
/** A few bytes at a time, 50 ms apart: a body that would take forever. */
const SLOW = Buffer.from('{"wp_command":');

/**
 * Sends `head`, then the body `kind` says until the mock closes the connection (or the client's
 * own bounds); resolves with the one answer read and what it took.
 */
function streamUntilClosed(port: number, head: string, kind: BodyKind): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    const received: Buffer[] = [];
    let sent = 0;
    const timer = setTimeout(() => socket.destroy(new Error(`not closed within ${ANSWER_WITHIN_MS} ms (${sent} bytes sent)`)), ANSWER_WITHIN_MS);
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', () => {}); // EPIPE or ECONNRESET while sending is the point; silence is judged on close
    socket.on('close', () => {
      clearTimeout(timer);
      const closedAfterMs = performance.now() - started;
      const text = Buffer.concat(received).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0 || closedAfterMs >= ANSWER_WITHIN_MS) return reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms (${sent} bytes sent, ${text.length} received)`));
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(text.slice(split + 4)) as unknown, sent, closedAfterMs });
    });
    socket.write(head);
    void (async () => {
      while (!socket.destroyed && sent < CLIENT_STOPS_AT) {
        const data = kind === 'endless-chunked' ? FRAME : SLOW;
        sent += data.length;
        const drained = socket.write(data);
        if (kind === 'slow') await new Promise((r) => setTimeout(r, 50));
        else if (!drained) await new Promise((r) => (socket.once('drain', r), socket.once('close', r)));
      }
    })();
  });
}

describe(`a request body past MAX_BODY_BYTES (${MAX_BODY_BYTES} bytes), over a real socket`, () => {
  let mock: RunningMock;
  let port: number;
  const logLines: string[] = [];
  beforeAll(async () => {
    mock = await startMock({ port: 0, log: (line) => logLines.push(line) });
    port = Number(new URL(mock.url).port);
  });
  afterAll(() => mock.close());

  const action = (env: string) => `POST /v2/sites/environments/${env}/run-wp-cli-command HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n`;
  const cases: readonly [string, { head: (key: string, env: string) => string; body: BodyKind; want: number }][] = [
    ['a chunked body that never ends', { head: (key, env) => `${action(env)}Authorization: Bearer ${key}\r\nTransfer-Encoding: chunked\r\n\r\n`, body: 'endless-chunked', want: 400 }],
    ['Content-Length: 10 GiB, sent slowly', { head: (key, env) => `${action(env)}Authorization: Bearer ${key}\r\nContent-Length: ${10 * 1024 ** 3}\r\n\r\n`, body: 'slow', want: 400 }],
    // The pipeline decides the answer as for any too-large body (here: no key, so 401); the connection closes all the same.
    ['a chunked body that never ends, without a key', { head: (_, env) => `${action(env)}Transfer-Encoding: chunked\r\n\r\n`, body: 'endless-chunked', want: 401 }],
  ];

  it.each(cases)('%s: answered with the error body, the connection closed at once', async (_, { head, body, want }) => {
    const env = mock.store.companies[0]!.sites[0]!.environments[0]!.id;
    const answer = await streamUntilClosed(port, head(mock.fixtures.apiKey, env), body);
    expect(answer.status).toBe(want);
    expect(validateErrorBody(answer.body), JSON.stringify(answer.body)).toBe(true);
    expect((answer.body as { status: number }).status).toBe(want);
    if (want === 400) expect((answer.body as { message: string }).message).toContain(`body larger than ${MAX_BODY_BYTES} bytes`);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedAfterMs).toBeLessThan(ANSWER_WITHIN_MS);
    expect(answer.sent).toBeLessThanOrEqual(SENT_AT_MOST);
  });

  it('writes the request log line of each such request', () => {
    const capped = logLines.filter((line) => line.includes('[body over the size cap, not kept]'));
    expect(capped.map((line) => line.split(' ').slice(0, 3).join(' ').replace(/\/environments\/[^/]+\//, '/environments/{id}/'))).toEqual(
      cases.map(([, { want }]) => `POST /v2/sites/environments/{id}/run-wp-cli-command ${want}`),
    );
  });

  it('still answers the next request on a new connection', async () => {
    const response = await fetch(`${mock.url}/validate`, { headers: { authorization: `Bearer ${mock.fixtures.apiKey}` } });
    expect(response.status).toBe(200);
  });
});
