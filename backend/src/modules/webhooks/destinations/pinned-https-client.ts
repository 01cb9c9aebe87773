/**
 * The one way the service talks to a webhook destination: an HTTPS POST to an address that the
 * destination guard has already checked, never to whatever the name resolves to a moment later.
 *
 * Bun's global `fetch` silently ignores a custom DNS lookup (oven-sh/bun#38840), which would let a
 * rebinding DNS answer slip a private address past the guard; `node:https.request` honours
 * `lookup`, so the socket goes to the pinned, checked address while the Host header, TLS SNI
 * (`servername`) and certificate verification keep the hostname (docs/webhooks.md "Which destinations are refused").
 * Redirects are never followed (docs/decisions/0013-webhook-destinations-and-redirects.md).
 *
 * Connections are kept alive and reused, but only within one (hostname, port, checked address,
 * trusted CAs) pool: an agent's lookup always answers its own address, so a pooled connection can
 * only ever lead to the address the guard approved for the current attempt, and an attempt whose
 * check yields another address uses another pool. TLS is verified when each connection opens.
 */
import https from 'node:https';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

export interface PinnedRequest {
  url: URL;
  /** The checked address to connect to. */
  address: string;
  headers: Record<string, string>;
  body: Uint8Array;
  timeoutMs: number;
  /** Trusted CAs (PEM). Undefined: the runtime's default roots. */
  ca?: string[];
  /** Response bytes kept for the caller. */
  snippetBytes?: number;
  /** Names the CA set for connection pooling (the CA file path). */
  caKey?: string;
  /** Connections kept to one destination, in use and idle (the worker's per-endpoint cap). Default 16. */
  maxSockets?: number;
}

export type PinnedResponse =
  | { kind: 'response'; statusCode: number; headers: Record<string, string | string[] | undefined>; snippet: string }
  | { kind: 'error'; errorClass: 'timeout' | 'connection' | 'tls'; message: string };

const caCache = new Map<string, string[]>();

const MAX_POOLS = 256;
const pools = new Map<string, https.Agent>();

function pinnedAgent(host: string, port: number, address: string, family: 4 | 6, ca: string[] | undefined, caKey: string, maxSockets: number): https.Agent {
  const key = `${host}|${port}|${address}|${caKey}|${maxSockets}`;
  let agent = pools.get(key);
  if (agent) {
    // Most recently used last: the oldest pool is the one dropped when there are too many.
    pools.delete(key);
    pools.set(key, agent);
    return agent;
  }
  agent = new https.Agent({
    keepAlive: true,
    // As many as the worker sends to one endpoint at once (settings.ts maxInFlightPerEndpoint): fewer
    // would queue requests inside the agent (measured: 16 sockets for 64 requests in flight gave
    // 203 deliveries/s, 64 sockets 300/s). As many idle as in use: a closed idle socket costs a
    // TLS handshake at the next burst.
    maxSockets,
    maxFreeSockets: maxSockets,
    // Idle connections close after 4 s: before common server keep-alive timeouts (Node 5 s, Bun 10 s),
    // so a request is not sent on a connection the receiver is closing at that moment.
    timeout: 4_000,
    ca,
    // The pool's only address: whatever Node asks, it gets the address the guard checked.
    lookup: ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    }) as never,
  });
  pools.set(key, agent);
  if (pools.size > MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value as [string, https.Agent];
    pools.delete(oldestKey);
    oldest.destroy();
  }
  return agent;
}

/** Closes every kept-alive connection (worker stop). */
export function closePinnedConnections(): void {
  for (const agent of pools.values()) agent.destroy();
  pools.clear();
}

/** Default roots plus the operator's WEBHOOK_CA_FILE (docs/decisions-on-open-points.md "Destinations": for tests and private deployments). `ca` replaces Node's roots, so both are given. */
export function trustedCas(caFile: string | null | undefined): string[] | undefined {
  if (!caFile) return undefined;
  let cas = caCache.get(caFile);
  if (!cas) {
    cas = [...tls.rootCertificates, readFileSync(caFile, 'utf8')];
    caCache.set(caFile, cas);
  }
  return cas;
}

const TLS_CODES = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL|EPROTO)/;

function classifyError(error: NodeJS.ErrnoException): 'tls' | 'connection' {
  const code = error.code ?? '';
  if (TLS_CODES.test(code) || /certificate|ssl|tls|handshake/i.test(error.message)) return 'tls';
  return 'connection';
}

export function postPinned(request: PinnedRequest): Promise<PinnedResponse> {
  const host = request.url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(request.address) === 6 ? 6 : 4;
  const port = request.url.port ? Number(request.url.port) : 443;
  const limit = request.snippetBytes ?? 512;
  const agent = pinnedAgent(host, port, request.address, family, request.ca, request.caKey ?? '', request.maxSockets ?? 16);
  return new Promise<PinnedResponse>((resolve) => {
    let settled = false;
    const finish = (result: PinnedResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = https.request(
      {
        method: 'POST',
        host,
        port,
        path: `${request.url.pathname}${request.url.search}`,
        headers: { ...request.headers, 'content-length': String(request.body.byteLength) },
        // Pinned: whatever asks, the answer is the checked address. Node may ask for all addresses.
        lookup: ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (options?.all) callback(null, [{ address: request.address, family }]);
          else callback(null, request.address, family);
        }) as never,
        // SNI and certificate checks use the hostname; RFC 6066 forbids IP literals as SNI.
        ...(isIP(host) ? {} : { servername: host }),
        ca: request.ca,
        agent,
        rejectUnauthorized: true,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () =>
          finish({
            kind: 'response',
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            snippet: Buffer.concat(chunks).subarray(0, limit).toString('utf8'),
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          // Enough for the record: stop reading (and drop the connection), a receiver cannot keep us busy with a huge body.
          if (kept >= limit) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('aborted', done);
      },
    );
    // Spec "Webhook delivery request": each attempt times out after 15 seconds, the whole exchange included.
    const timer = setTimeout(() => {
      finish({ kind: 'error', errorClass: 'timeout', message: `no complete response within ${request.timeoutMs} ms` });
      req.destroy();
    }, request.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ kind: 'error', errorClass: classifyError(error), message: `${error.code ? `${error.code}: ` : ''}${error.message}` }),
    );
    req.end(request.body);
  });
}
