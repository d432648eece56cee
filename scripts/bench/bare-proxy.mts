/**
 * The floor under the proxy bench: a pass-through reverse proxy on node:http that judges nothing
 * (the same forwarding as proxy/server.ts, streamed). Prints `{ url }` as its first line.
 *
 * usage: node --import tsx scripts/bench/bare-proxy.mts <target base URL ending in /v2>
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const target = new URL(process.argv[2] ?? '');
const root = target.pathname.replace(/\/v2\/?$/, '');
const server = createServer((req, res) => {
  const upstream = request({ hostname: target.hostname, port: target.port, method: req.method, path: `${root}${req.url}`, headers: { ...req.headers, host: target.host } });
  req.pipe(upstream);
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2` })}\n`));
