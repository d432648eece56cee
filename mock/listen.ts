/** Starts an HTTP server listening and names it by its base URL: the mock's and the proxy's. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiIdentity } from '../spec/identity.ts';

/** Resolves to `http://HOST:PORT/v2` once `server` listens (port 0: any free one); rejects with the listen error. */
export async function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}${apiIdentity.basePath}`;
}
