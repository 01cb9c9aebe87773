/**
 * A merchant's own web server on an origin of its own (another loopback port than the service's),
 * for specs about loading the SDK cross-origin. It serves fixed HTML pages by path and nothing else.
 *
 * It runs inside the Playwright worker with Node's http module rather than as a process of its
 * own: its pages depend on the test (the SDK URL, the integrity value), and it needs no database.
 * A real server, not a Playwright route: a page fulfilled by a route has no IP address space, so
 * Chromium's local network access checks would refuse it the SDK from 127.0.0.1 (see sdk-lab.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MerchantOrigin {
  /** e.g. http://127.0.0.1:41235 */
  url: string;
  close(): Promise<void>;
}

export function startMerchantOrigin(pages: Record<string, string>): Promise<MerchantOrigin> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://merchant.invalid').pathname;
    const html = request.method === 'GET' ? pages[path] : undefined;
    if (html === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`No page ${path}`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
