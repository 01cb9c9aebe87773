/**
 * A scriptable merchant receiver for the webhook tests: a real HTTPS server on 127.0.0.1 (Bun.serve
 * with the test CA's certificate) that behaves like a careful merchant: it verifies
 * `x-service-signature` over the raw body bytes and the Standard Webhooks signature, and
 * deduplicates by eventId. Per path, tests queue the responses it gives: status codes,
 * Retry-After, delays, hangs, redirects.
 */
import { verifyStandardWebhook, verifyWebhookSignature as verifyServiceSignature } from '@ageverify/server';
import { serviceSignature } from '../signing';
import { testCertificates } from './test-certificates';

export interface ScriptedResponse {
  status?: number;
  retryAfter?: string;
  location?: string;
  /** Answer after this many ms (real time: only for the timeout tests). */
  delayMs?: number;
  /** Never answer (until the receiver stops). */
  hang?: boolean;
  body?: string;
}

export interface ReceivedRequest {
  path: string;
  headers: Headers;
  rawBody: Uint8Array;
  text: string;
  /** The envelope as parsed by the receiver (after verification). */
  json: Record<string, any> | null;
  eventId: string | null;
  receivedAt: number;
  serviceSignatureValid: boolean | null;
  standardSignatureValid: boolean | null;
  /** An earlier request to this path carried the same eventId. */
  duplicate: boolean;
}

export interface Receiver {
  port: number;
  caFile: string;
  url(path: string, host?: string): string;
  /** Queue responses for a path; after the queue, `fallback` (default 200) answers. */
  script(path: string, responses: ScriptedResponse[], fallback?: ScriptedResponse): void;
  /** The secret the receiver verifies a path's signatures with. */
  expectSecret(path: string, secret: string): void;
  requests(path?: string): ReceivedRequest[];
  /** Distinct eventIds received on a path (the merchant's dedupe table). */
  eventIds(path: string): string[];
  /** Most requests a path ever had open at once. */
  maxConcurrent(path: string): number;
  /** Starts counting maxConcurrent afresh for a path. */
  resetPeak(path: string): void;
  reset(): void;
  stop(): Promise<void>;
}

export async function startReceiver(options: { certificate?: 'trusted' | 'untrusted'; now?: () => Date } = {}): Promise<Receiver> {
  const certs = await testCertificates();
  const untrusted = options.certificate === 'untrusted';
  const scripts = new Map<string, { queue: ScriptedResponse[]; fallback: ScriptedResponse }>();
  const secrets = new Map<string, string>();
  let received: ReceivedRequest[] = [];
  /** path + eventId of every authenticated request, so the duplicate check does not scan every earlier request (benches send tens of thousands). */
  let seen = new Set<string>();
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  const hanging: (() => void)[] = [];

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: untrusted ? certs.untrustedCert : certs.serverCert, key: untrusted ? certs.untrustedKey : certs.serverKey },
    idleTimeout: 60,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      open.set(path, (open.get(path) ?? 0) + 1);
      peak.set(path, Math.max(peak.get(path) ?? 0, open.get(path)!));
      try {
        // The raw bytes, exactly as sent: never re-encode parsed JSON before verifying.
        const rawBody = new Uint8Array(await request.arrayBuffer());
        const text = new TextDecoder().decode(rawBody);
        const secret = secrets.get(path);
        const eventId = request.headers.get('webhook-id');
        const serviceSignatureValid = secret === undefined ? null : verifyServiceSignature(rawBody, request.headers.get('x-service-signature'), secret);
        const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
        const standardSignatureValid = secret === undefined ? null : verifyStandardWebhook(rawBody, request.headers, secret, { nowSeconds }).ok;
        let json: Record<string, any> | null = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
        const duplicate = eventId !== null && seen.has(`${path} ${eventId}`);
        if (eventId !== null && serviceSignatureValid !== false) seen.add(`${path} ${eventId}`);
        received.push({
          path,
          headers: request.headers,
          rawBody,
          text,
          json,
          eventId,
          receivedAt: performance.now(),
          serviceSignatureValid,
          standardSignatureValid,
          duplicate,
        });

        const script = scripts.get(path);
        const step = script?.queue.shift() ?? script?.fallback ?? { status: 200 };
        if (step.hang) await new Promise<void>((resolve) => hanging.push(resolve));
        if (step.delayMs) await Bun.sleep(step.delayMs);
        // A careful merchant: refuse what it cannot authenticate.
        if (serviceSignatureValid === false) return new Response('bad signature', { status: 401 });
        const headers: Record<string, string> = {};
        if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
        if (step.location !== undefined) headers.location = step.location;
        return new Response(step.body ?? (duplicate ? 'duplicate ignored' : 'ok'), { status: step.status ?? 200, headers });
      } finally {
        open.set(path, open.get(path)! - 1);
      }
    },
  });

  return {
    port: server.port!,
    caFile: certs.caFile,
    url: (path, host = 'hooks.test') => `https://${host}:${server.port}${path}`,
    script(path, responses, fallback = { status: 200 }) {
      scripts.set(path, { queue: [...responses], fallback });
    },
    expectSecret(path, secret) {
      secrets.set(path, secret);
    },
    requests: (path) => (path ? received.filter((r) => r.path === path) : [...received]),
    eventIds: (path) => [...new Set(received.filter((r) => r.path === path && r.eventId).map((r) => r.eventId!))],
    maxConcurrent: (path) => peak.get(path) ?? 0,
    resetPeak(path) {
      peak.set(path, open.get(path) ?? 0);
    },
    reset() {
      received = [];
      seen = new Set();
      scripts.clear();
      peak.clear();
    },
    async stop() {
      for (const release of hanging.splice(0)) release();
      await server.stop(true);
    },
  };
}

/** For tests that need to sign by hand. */
export { serviceSignature };
