/**
 * The baseline of the mock bench, run in its own process: a bare node:http server that answers
 * every request with one fixed JSON body (the size of the mock's GET /sites/{site_id} answer)
 * and does nothing else. Prints `{"url": ...}` on one line, like `hosted-site-contract mock`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const BODY_BYTES = Number(process.argv[2] ?? 700);
const text = JSON.stringify({ site: { id: '00000000-0000-4000-8000-000000000000', padding: 'x'.repeat(Math.max(0, BODY_BYTES - 70)) } });
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };

const server = createServer((req, res) => {
  req.resume(); // read and drop any body, as a real server must
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(text);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = () => {
  server.close();
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
