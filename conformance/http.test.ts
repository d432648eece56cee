/**
 * The transport against throwaway local servers that misbehave on purpose: it must never throw
 * and never hang, name each failure, and wait out throttling. No timing is asserted beyond
 * "it ended" and upper bounds on counts.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { endpoint } from '../spec/queries.ts';
import { classify, createTransport, type Transport } from './http.ts';
import { RunBudget } from './schedule/budget.ts';
import { RunnerDelay, type DelayWatch } from './schedule/runner-delay.ts';
import { notJudged, notJudgedReason, type Probe } from './types.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}

async function serveRaw(onConnection: (socket: Socket) => void): Promise<string> {
  const server: NetServer = createNetServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
}

function transport(options: Partial<Parameters<typeof createTransport>[0]> = {}): Transport {
  const t = createTransport({ timeoutMs: 400, ...options });
  cleanup.push(() => t.close());
  return t;
}

const probe = (url: string, body?: string): Probe => ({
  rule: 'INPUT-ACCEPT',
  endpoint: endpoint('getSite'),
  expect: 'valid',
  title: 'test probe',
  request: { method: body === undefined ? 'GET' : 'POST', url: `${url}/sites/x`, headers: { authorization: 'Bearer k' }, ...(body === undefined ? {} : { body }) },
});

describe('transport failures', () => {
  it.each([
    ['headers never sent', (_req: IncomingMessage, _res: ServerResponse) => {}],
    [
      'headers sent, then the body stalls',
      (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"site":');
      },
    ],
  ])('%s → timeout, not a hang', async (_, handler) => {
    const url = await serve(handler);
    const exchange = await transport({ timeoutMs: 300 }).call(undefined, probe(url));
    expect(exchange.response).toBeUndefined();
    expect(exchange.failure?.kind).toBe('timeout');
    expect(exchange.failure?.message).toMatch(/300 ms/);
  });

  it('socket destroyed → reset', async () => {
    const url = await serve((req) => req.socket.destroy());
    const exchange = await transport()(probe(url));
    expect(exchange.failure?.kind).toBe('reset');
  });

  it('closed port → refused', async () => {
    const url = await serve(() => {});
    await Promise.all(cleanup.splice(0).map((f) => f()));
    const exchange = await transport()(probe(url));
    expect(exchange.failure?.kind).toBe('refused');
  });

  it('headers past what the client accepts → protocol, named as such (not "cannot reach")', async () => {
    const url = await serveRaw((socket) => {
      socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nx-padding: ${'a'.repeat(20_000)}\r\ncontent-length: 2\r\n\r\n{}`));
    });
    const exchange = await transport()(probe(url));
    expect(exchange.failure?.kind).toBe('protocol');
    expect(exchange.failure?.message).toMatch(/headers are larger than the HTTP client accepts/);
  });

  it('a content-encoded body is described, not shown as bytes, and not parsed', async () => {
    const gzip = (await import('node:zlib')).gzipSync(Buffer.from('{"site":{}}'));
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzip));
    const exchange = await transport()(probe(url));
    expect(exchange.response?.text).toMatch(new RegExp(`^\\[${gzip.length} bytes of gzip-encoded data, not decoded; keyed hash hmac-sha256:[0-9a-f]{16}\\]$`));
    expect(exchange.response?.json).toBeUndefined();
    expect(exchange.response?.jsonError).toMatch(/content-encoded \(Content-Encoding: gzip\)/);
  });

  it('garbage instead of HTTP → protocol', async () => {
    const url = await serveRaw((socket) => {
      socket.once('data', () => socket.end('HELLO THERE\r\n\r\n'));
    });
    const exchange = await transport()(probe(url));
    expect(exchange.failure?.kind).toBe('protocol');
  });
});

describe('responses', () => {
  it('keeps status, lowercased headers, text and JSON; a non-JSON body is a jsonError, not a failure', async () => {
    const url = await serve((req, res) => {
      if (req.url?.endsWith('/x')) {
        res.writeHead(200, { 'Content-Type': 'text/html', 'X-Thing': 'a' });
        res.end('<html>hi</html>');
      }
    });
    const exchange = await transport()(probe(url));
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response).toMatchObject({ status: 200, text: '<html>hi</html>', headers: { 'content-type': 'text/html', 'x-thing': 'a' } });
    expect(exchange.response?.json).toBeUndefined();
    expect(exchange.response?.jsonError).toMatch(/not JSON/);
  });

  it('parses JSON and sends the body exactly', async () => {
    let received = '';
    const url = await serve((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (c: string) => (received += c));
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"message":"bad","status":400}');
      });
    });
    const body = '{"wp_command":"wp  plugin list ✓"}';
    const exchange = await transport()(probe(url, body));
    expect(received).toBe(body);
    expect(exchange.response?.json).toEqual({ message: 'bad', status: 400 });
  });

  it('an empty body is neither JSON nor a failure', async () => {
    const url = await serve((_req, res) => res.writeHead(200).end());
    const exchange = await transport()(probe(url));
    expect(exchange.response?.text).toBe('');
    expect(exchange.response?.jsonError).toBe('the body is empty');
  });

  it('cuts a body longer than the cap', async () => {
    const url = await serve((_req, res) => res.end('x'.repeat(300_000)));
    const exchange = await transport({ bodyCap: 1024 })(probe(url));
    expect(exchange.response?.text).toHaveLength(1024);
    expect(exchange.response?.jsonError).toMatch(/cut/);
  });

  // Chunked encoding cut as fine as it goes (one byte per chunk): each byte arrives on its own.
  const inOneByteChunks = (text: string) => (socket: Socket) =>
    socket.once('data', () => {
      const frames = [...text].map((c) => `1\r\n${c}\r\n`).join('');
      socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n${frames}0\r\n\r\n`);
    });

  it('a body in one-byte chunks arrives whole, byte for byte', async () => {
    const json = JSON.stringify({ records: Array.from({ length: 400 }, (_, i) => ({ name: `r${i}`, value: String(i * 7) })) });
    const url = await serveRaw(inOneByteChunks(json));
    const exchange = await transport({ timeoutMs: 5_000 })(probe(url));
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response?.text).toBe(json);
    expect(exchange.response?.json).toEqual(JSON.parse(json));
  });

  it('a body in one-byte chunks past the cap is cut exactly at the cap', async () => {
    const text = 'abcdefghij'.repeat(300);
    const url = await serveRaw(inOneByteChunks(text));
    const exchange = await transport({ timeoutMs: 5_000, bodyCap: 1234 })(probe(url));
    expect(exchange.response?.text).toBe(text.slice(0, 1234));
    expect(exchange.response?.jsonError).toMatch(/cut at the size cap/);
  });
});

describe('requests the transport does not send', () => {
  it('CONNECT is refused at once, and nothing reaches the server', async () => {
    let connections = 0;
    const url = await serveRaw((socket) => {
      connections++;
      socket.destroy();
    });
    const exchange = await transport({ timeoutMs: 2_000 })({ ...probe(url), request: { ...probe(url).request, method: 'CONNECT' } });
    expect(exchange.failure?.kind).toBe('other');
    // Refused, not timed out: a request that waited for its deadline would end as a timeout.
    expect(exchange.failure?.message).toMatch(/refused to send the request \(CONNECT opens a tunnel/);
    expect(connections).toBe(0);
  });

  it('a header value with a line break is a refusal that says so; a bad header name says that instead', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    const send = transport();
    const value = await send({ ...probe(url), request: { ...probe(url).request, headers: { 'x-note': 'a\r\nb' } } });
    expect(value.failure?.message).toMatch(/a header value holds a character HTTP cannot carry/);
    const name = await send({ ...probe(url), request: { ...probe(url).request, headers: { 'x note': 'a' } } });
    expect(name.failure?.message).toMatch(/a header name holds a character/);
  });

  it('an error while the answer is read is the failure, at once, with its own words (not a timeout of the server)', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    const sanitizer = {
      learnValues() {
        throw new Error('reading the answer broke');
      },
      learn() {},
      learnText() {},
    } as unknown as NonNullable<Parameters<typeof createTransport>[0]['sanitizer']>;
    const exchange = await transport({ timeoutMs: 2_000, sanitizer })(probe(url));
    expect(exchange.failure?.kind).toBe('other');
    // Its own words, not a timeout: had it waited for the deadline, the failure would be one.
    expect(exchange.failure?.message).toContain('reading the answer broke');
  });
});

describe('throttling (ASM-THROTTLE-429)', () => {
  const throttleThenOk = (times: number, retryAfter?: string) => {
    let seen = 0;
    return (_req: IncomingMessage, res: ServerResponse) => {
      seen++;
      if (seen <= times) {
        res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
        res.end('{"message":"slow down","status":429}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      }
    };
  };

  it('429 with Retry-After: 1 is waited out and retried, not failed', async () => {
    const url = await serve(throttleThenOk(1, '1'));
    const send = transport({ timeoutMs: 2000 });
    const exchange = await send(probe(url));
    expect(exchange.response?.status).toBe(200);
    expect(exchange.throttled).toBe(1);
    expect(send.stats()).toMatchObject({ requests: 2, throttled: 1, waitedMs: 1000 });
  });

  it('429 without Retry-After backs off and retries', async () => {
    const url = await serve(throttleThenOk(2));
    const exchange = await transport({ backoffMs: 10 })(probe(url));
    expect(exchange.response?.status).toBe(200);
    expect(exchange.throttled).toBe(2);
  });

  it('still 429 after the retries → a failure that says so', async () => {
    const url = await serve(throttleThenOk(100));
    const exchange = await transport({ backoffMs: 5, maxRetries: 2 })(probe(url));
    expect(exchange.response).toBeUndefined();
    expect(exchange.failure?.kind).toBe('throttled');
    expect(exchange.failure?.message).toMatch(/HTTP 429 still, after 2 retries/);
    // Every answer of 429 counts, the last one (given up on) too: three attempts, three 429s.
    expect(exchange.throttled).toBe(3);
    expect(exchange.attempts).toBe(3);
  });

  it('a Retry-After beyond the run\'s wait budget fails the request at once, naming both figures', async () => {
    const url = await serve(throttleThenOk(1, '100000'));
    const send = transport({ maxWaitMs: 2000 });
    const exchange = await send(probe(url));
    // Not waited: the run's own accounting of its pauses, not a timing.
    expect(send.stats().waitedMs).toBe(0);
    expect(exchange.failure?.kind).toBe('throttled');
    expect(exchange.failure?.message).toMatch(/asked to wait 100000 s \(Retry-After: 100000\), more than the 2 s left of the run's 2 s/);
  });

  it('one deadline per request, all its attempts together: slow 429s cannot stretch it, and what they cut short is not judged', async () => {
    const url = await serve((_req, res) => {
      setTimeout(() => res.writeHead(429, { 'retry-after': '0' }).end(), 150);
    });
    const exchange = await transport({ timeoutMs: 400, maxRetries: 10 })(probe(url));
    // Three attempts of 150 ms fill the 400 ms: none after the deadline, whatever the retries left.
    expect(exchange.attempts).toBe(3);
    // The third attempt runs into the deadline the 429s before it shortened: throttled, not a timeout (a verdict).
    expect(exchange.failure?.kind).toBe('throttled');
    expect(exchange.failure?.message).toMatch(/^throttled: no answer within the \d+ ms of --timeout-ms \(400 ms\) left after 2 answers of 429$/);
    expect(exchange.throttled).toBe(2);
  });

  it('a timeout with the whole --timeout-ms to itself is still a timeout', async () => {
    const url = await serve(() => undefined);
    const exchange = await transport({ timeoutMs: 200 })(probe(url));
    expect(exchange.failure?.kind).toBe('timeout');
  });

  it('one budget for the whole run: each moment paused counts once, however many requests wait it out; then the next pause is refused', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(429, { 'retry-after': '1' }).end();
    });
    const send = transport({ maxWaitMs: 2500, maxRetries: 10 });
    const [a, b] = await Promise.all([send(probe(url)), send(probe(url))]);
    // Both wait out the same seconds: two pauses of 1 s fit in 2.5 s, counted once each, not once per request.
    expect(send.stats().waitedMs).toBeGreaterThanOrEqual(2000);
    expect(send.stats().waitedMs).toBeLessThanOrEqual(2500);
    expect(a.throttled + b.throttled).toBeGreaterThanOrEqual(3);
    // Every attempt drew a 429, the last ones (given up on) too.
    expect(send.stats().requests).toBe(a.throttled + b.throttled);
    expect([a.failure?.message, b.failure?.message].every((m) => /more than the 0\.5 s left/.test(m ?? ''))).toBe(true);
  });
});

/** Holds this process's event loop for `ms`: a runner starved by its machine, or by a long synchronous step. */
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** A watch that sees the process run all the time, or never: what the transport's deadlines would be without the watch, and with a runner that never runs. */
const seesRunning = (running: boolean): DelayWatch => ({
  hold: () => undefined,
  release: () => undefined,
  within: (from) => (running ? { delayedMs: 0, longestMs: 0, stalls: 0 } : { delayedMs: performance.now() - from, longestMs: performance.now() - from, stalls: 1 }),
  runningSince: (from) => (running ? performance.now() - from : 0),
});

describe("a deadline counts the time this process ran (a slow runner is no failing target)", () => {
  /** Answers 50 ms after the request arrives. */
  const prompt = () => serve((_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 50));

  it('an answer that came while the event loop was held past the deadline is read, not a timeout; the stall is counted', async () => {
    const send = transport({ timeoutMs: 300, runnerDelay: new RunnerDelay({ tickMs: 10, slackMs: 20 }) });
    const pending = send(probe(await prompt()));
    setTimeout(() => hold(1_000), 20); // the request is out; its answer comes while the loop is held
    const exchange = await pending;
    expect(exchange.failure).toBeUndefined();
    expect(exchange.response?.status).toBe(200);
    // The hold was seen while the request waited: counted, not timed.
    expect(send.stats().runner.stalls).toBeGreaterThanOrEqual(1);
  });

  it('without the watch the same starved request is a timeout: the failure the watch prevents', async () => {
    const send = transport({ timeoutMs: 300, runnerDelay: seesRunning(true) });
    const pending = send(probe(await prompt()));
    setTimeout(() => hold(1_000), 20);
    expect((await pending).failure?.kind).toBe('timeout');
  });

  it('a target that never answers still times out, given the whole deadline of running time after the stall', async () => {
    // A watch that says the process could not run for its first 500 ms: the deadline is asked
    // again as the time given back runs out, until 300 ms of running time have passed.
    let asked = 0;
    const stalledFirst: DelayWatch = {
      ...seesRunning(true),
      runningSince: (from) => (asked++, Math.max(0, performance.now() - from - 500)),
    };
    const exchange = await transport({ timeoutMs: 300, runnerDelay: stalledFirst })(probe(await serve(() => undefined)));
    expect(exchange.failure?.kind).toBe('timeout');
    expect(exchange.failure?.message).toMatch(/300 ms/);
    // Asked at the deadline and again at least once after it (without the watch: once, then the timeout).
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('a process that cannot run for four times the deadline judges nothing, and says why', async () => {
    const exchange = await transport({ timeoutMs: 100, runnerDelay: seesRunning(false) })(probe(await serve(() => undefined)));
    expect(exchange.failure?.kind).toBe('runner');
    expect(exchange.failure?.message).toMatch(/^this process itself could not run for \d+ of the \d+ ms it waited for an answer/);
    expect(notJudged(exchange.failure)).toBe(true);
    expect(notJudgedReason(exchange)).toMatch(/^not judged: the suite itself could not run/);
  });
});

describe("the run's budget (--max-requests, --max-duration)", () => {
  it('a request past --max-requests is not sent, and says so', async () => {
    let arrived = 0;
    const url = await serve((_req, res) => {
      arrived++;
      res.end('{}');
    });
    const send = transport({ budget: new RunBudget({ maxRequests: 3 }) });
    const exchanges = await Promise.all(Array.from({ length: 5 }, () => send(probe(url))));
    expect(arrived).toBe(3);
    expect(exchanges.filter((e) => e.response).length).toBe(3);
    expect(exchanges.filter((e) => e.failure?.kind === 'budget').map((e) => e.failure?.message)).toEqual(['not sent: --max-requests 3 reached', 'not sent: --max-requests 3 reached']);
  });

  it('an answer the deadline cuts short is not judged: a budget failure, not a timeout', async () => {
    const url = await serve(() => undefined); // never answers
    const send = transport({ timeoutMs: 10_000, budget: new RunBudget({ maxDurationMs: 300 }) });
    const exchange = await send(probe(url));
    // Cut at the budget's end (its own words), not at the 10 s of --timeout-ms.
    expect(exchange.failure?.kind).toBe('budget');
    expect(exchange.failure?.message).toBe("cut short: --max-duration 0.3s reached while it waited for an answer");
  });

  it('a slot that would come after the deadline is not waited for', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    const send = transport({ rate: 1, budget: new RunBudget({ maxDurationMs: 500 }) });
    const [first, second] = await Promise.all([send(probe(url)), send(probe(url))]);
    expect(first.response?.status).toBe(200);
    expect(second.failure?.kind).toBe('budget');
    // Refused without waiting for the slot a second away: the pacer saw it come after the deadline
    // (had it waited, the budget would have refused it instead, as spent: --max-duration 0.5s reached).
    expect(second.failure?.message).toBe("not sent: the target's pause for its key runs past the end of --max-duration 0.5s");
  });
});

describe('--rate', () => {
  it('caps requests per second across concurrent sends (counts, not timings)', async () => {
    let arrived = 0;
    const url = await serve((_req, res) => {
      arrived++;
      res.end('{}');
    });
    const send = transport({ rate: 20, timeoutMs: 5000 });
    const all = Promise.all(Array.from({ length: 16 }, () => send(probe(url))));
    await new Promise((r) => setTimeout(r, 250));
    // At 20/s, requests start 50 ms apart: about 6 by 250 ms. A slow machine sends fewer, never more.
    expect(arrived).toBeLessThanOrEqual(8);
    const exchanges = await all;
    expect(exchanges.every((e) => e.response?.status === 200)).toBe(true);
    expect(arrived).toBe(16);
  });

  it('waiting for a slot does not count against the deadline', async () => {
    const url = await serve((_req, res) => res.end('{}'));
    // At 2/s the sixth request waits 2.5 s for its slot: longer than the deadline and its guard (0.3 + 2 s).
    const send = transport({ rate: 2, timeoutMs: 300 });
    const exchanges = await Promise.all(Array.from({ length: 6 }, () => send(probe(url))));
    expect(exchanges.map((e) => e.failure?.message ?? e.response?.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('causes are said in our words, undici\'s code at most beside them', () => {
  const undiciError = (code: string, message: string) => Object.assign(new Error(message), { code });
  it.each([
    ['a client this side destroyed (a stopping run or proxy)', { code: 'UND_ERR_DESTROYED', message: 'The client is destroyed', kind: 'other', words: /closed on this side/ }],
    ['a client this side closed', { code: 'UND_ERR_CLOSED', message: 'The client is closed', kind: 'other', words: /not sent: the HTTP client on this side was already shut down/ }],
    ['a code nothing else names', { code: 'UND_ERR_SOMETHING_NEW', message: 'something new went wrong', kind: 'other', words: /^the request failed: something new went wrong/ }],
  ] as const)('%s', (_, { code, message, kind, words }) => {
    const failure = classify(undiciError(code, message), false, 1000, 5);
    expect(failure.kind).toBe(kind);
    expect(failure.message).toMatch(words);
    expect(failure.message.startsWith(code)).toBe(false);
    expect(failure.message).not.toBe(message);
    expect(failure.message).not.toBe(`${code}: ${message}`);
  });

  it('finds the code on a cause, as undici nests it', () => {
    const failure = classify(new Error('fetch failed', { cause: undiciError('UND_ERR_DESTROYED', 'The client is destroyed') }), false, 1000, 5);
    expect(failure.message).toMatch(/^the connection was closed on this side/);
  });
});
