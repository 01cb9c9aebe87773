/**
 * One attempt over the real network: a loopback HTTPS receiver with a throwaway CA (passed as
 * WEBHOOK_CA_FILE would be), loopback allowed explicitly (as WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32
 * would), names resolved by a fake resolver. Covers the pinned connection, every error class,
 * redirects, and the DNS-rebinding regression.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer } from 'node:net';
import { verifyStandardWebhook, verifyWebhookSignature as verifyServiceSignature } from '@ageverify/server';
import type { GuardOptions } from '../destinations/destination-guard';
import { newWebhookSecret } from '../ids';
import { startReceiver, type Receiver } from '../testing/https-receiver';
import { fakeResolver, LOOPBACK_ONLY } from '../testing/testbed';
import { attemptDelivery, USER_AGENT } from './attempt';

let receiver: Receiver;
let untrusted: Receiver;
let guard: GuardOptions;
const secret = newWebhookSecret();
const sentAt = new Date('2026-01-15T12:00:00.000Z');
const body = '{"event":"session.started","timestamp":"2026-01-15T12:00:00.000Z","tenantId":"ten_1","test":false,"data":{"sessionId":"ses_1"}}';

beforeAll(async () => {
  receiver = await startReceiver({ now: () => sentAt });
  untrusted = await startReceiver({ certificate: 'untrusted' });
  guard = { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };
});
afterAll(async () => {
  await receiver.stop();
  await untrusted.stop();
});

const attempt = (url: string, options: { guard?: GuardOptions; timeoutMs?: number } = {}) =>
  attemptDelivery({ url, eventId: 'evt_1', body, secret, sentAt }, options.guard ?? guard, { timeoutMs: options.timeoutMs ?? 15_000 });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a successful attempt', () => {
  test('connects to the pinned address, keeps Host and SNI, and signs the raw bytes', async () => {
    receiver.expectSecret('/ok', secret);
    // hooks.test exists only in the fake resolver: reaching it proves the socket used the checked address.
    const result = await attempt(receiver.url('/ok'));
    expect(result).toMatchObject({ statusCode: 200, errorClass: null });
    const [request] = receiver.requests('/ok');
    expect(request!.headers.get('host')).toBe(`hooks.test:${receiver.port}`);
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(request!.headers.get('user-agent')).toBe(USER_AGENT);
    expect(request!.headers.get('webhook-id')).toBe('evt_1');
    expect(request!.headers.get('webhook-timestamp')).toBe(String(sentAt.getTime() / 1000));
    expect(request!.text).toBe(body);
    expect(verifyServiceSignature(request!.rawBody, request!.headers.get('x-service-signature'), secret)).toBe(true);
    expect(verifyStandardWebhook(request!.rawBody, request!.headers, secret, { nowSeconds: sentAt.getTime() / 1000 }).ok).toBe(true);
  });
});

describe('error classes', () => {
  test('HTTP 500 → http', async () => {
    receiver.script('/e500', [{ status: 500 }]);
    expect(await attempt(receiver.url('/e500'))).toMatchObject({ statusCode: 500, errorClass: 'http', errorMessage: 'HTTP 500' });
  });
  test('HTTP 429 hands back Retry-After', async () => {
    receiver.script('/e429', [{ status: 429, retryAfter: '120' }]);
    expect(await attempt(receiver.url('/e429'))).toMatchObject({ statusCode: 429, errorClass: 'http', retryAfter: '120' });
  });
  test('a hang past the attempt timeout → timeout (15 s in production; shortened here, the rule is the same)', async () => {
    receiver.script('/hang', [{ hang: true }]);
    const result = await attempt(receiver.url('/hang'), { timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, errorClass: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(5_000);
  });
  test('a slow answer within the timeout is fine', async () => {
    receiver.script('/slow', [{ delayMs: 100, status: 202 }]);
    expect(await attempt(receiver.url('/slow'), { timeoutMs: 2_000 })).toMatchObject({ statusCode: 202, errorClass: null });
  });
  test('connection refused → connection', async () => {
    const port = await closedPort();
    expect(await attempt(`https://hooks.test:${port}/x`)).toMatchObject({ statusCode: null, errorClass: 'connection' });
  });
  test('a certificate from an unknown CA → tls', async () => {
    const result = await attempt(untrusted.url('/x'));
    expect(result).toMatchObject({ statusCode: null, errorClass: 'tls' });
    expect(untrusted.requests()).toHaveLength(0);
  });
  test('without WEBHOOK_CA_FILE the test CA is not trusted → tls', async () => {
    expect(await attempt(receiver.url('/ok'), { guard: { ...guard, caFile: null } })).toMatchObject({ errorClass: 'tls' });
  });
  test('a certificate for another name → tls (SNI and verification use the hostname, not the address)', async () => {
    const other = { ...guard, resolver: fakeResolver({ 'wrong-name.example': ['127.0.0.1'] }) };
    expect(await attempt(`https://wrong-name.example:${receiver.port}/ok`, { guard: other })).toMatchObject({ errorClass: 'tls' });
  });
  test('a name that does not resolve → dns (a failure, retried)', async () => {
    expect(await attempt(`https://nowhere.test:${receiver.port}/x`)).toMatchObject({ statusCode: null, errorClass: 'dns' });
  });
  test('a resolver that never answers counts against the attempt timeout', async () => {
    const stuck: GuardOptions = { ...guard, resolver: () => new Promise(() => {}) };
    expect(await attempt(receiver.url('/ok'), { guard: stuck, timeoutMs: 200 })).toMatchObject({ errorClass: 'timeout' });
  });
  test('a non-public destination → destination (a rejection)', async () => {
    expect(await attempt(receiver.url('/ok'), { guard: { ...guard, allowedCidrs: [] } })).toMatchObject({ statusCode: null, errorClass: 'destination' });
  });
});

describe('redirects are never followed (docs/decisions/0013)', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    test(`${status} to another path is a failure and the target is not visited`, async () => {
      const path = `/redirect-${status}`;
      receiver.script(path, [{ status, location: receiver.url(`/target-${status}`) }]);
      const result = await attempt(receiver.url(path));
      expect(result).toMatchObject({ statusCode: status, errorClass: 'redirect' });
      expect(result.errorMessage).toContain('not followed');
      expect(receiver.requests(`/target-${status}`)).toHaveLength(0);
    });
  }
});

describe('DNS rebinding regression', () => {
  test('a name answering public then private: the second attempt is refused before connecting', async () => {
    const answers = [['127.0.0.1'], ['10.0.0.7']];
    const rebinding: GuardOptions = { ...guard, resolver: fakeResolver({ 'rebind.hooks.test': () => answers.shift() ?? ['10.0.0.7'] }) };
    receiver.expectSecret('/rebind', secret);
    expect(await attempt(receiver.url('/rebind', 'rebind.hooks.test'), { guard: rebinding })).toMatchObject({ statusCode: 200 });
    const second = await attempt(receiver.url('/rebind', 'rebind.hooks.test'), { guard: rebinding });
    expect(second).toMatchObject({ statusCode: null, errorClass: 'destination' });
    expect(second.errorMessage).toContain('10.0.0.7');
    expect(receiver.requests('/rebind')).toHaveLength(1);
  });
  test('a name answering a mixed public/private set is refused whole', async () => {
    const mixed: GuardOptions = { ...guard, resolver: fakeResolver({ 'hooks.test': ['127.0.0.1', '192.168.1.10'] }) };
    expect(await attempt(receiver.url('/mixed'), { guard: mixed })).toMatchObject({ errorClass: 'destination' });
    expect(receiver.requests('/mixed')).toHaveLength(0);
  });
});
