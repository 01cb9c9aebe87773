/**
 * Issue 22, finding 8: nosniff on every response, HSTS on every response when the public base URL
 * is https, no-store on every response that carries a secret (table-first).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createTestContext, type TestContext } from '../testing/test-app';
import { signedIn } from '../modules/dashboard/testing/dashboard-kit';
import { HSTS } from './security-headers';
import { fakeResolver, LOOPBACK_ONLY } from '../modules/webhooks/testing/testbed';

type Call = [name: string, method: string, path: string, body?: unknown];

describe('security headers on every kind of response (issue 22, finding 8)', () => {
  let https: TestContext;
  let http: TestContext;
  let keys: Record<string, any>;
  beforeAll(async () => {
    https = await createTestContext('pglite', { publicBaseUrl: 'https://verify.example.com' });
    // Webhook destinations resolve to loopback here, which the guard then allows (no request is sent).
    http = await createTestContext('pglite', {
      webhookGuard: { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: null },
    });
    keys = await https.tenant();
  }, 60_000);
  afterAll(async () => {
    await https.close();
    await http.close();
  });

  const CALLS: Call[] = [
    ['JSON', 'GET', '/healthz'],
    ['a redirect', 'GET', '/'],
    ['a static page', 'GET', '/dashboard/'],
    ['the OpenAPI document', 'GET', '/openapi.json'],
    ['an unknown route (404 error body)', 'GET', '/nope'],
    ['a wrong method (405 error body)', 'DELETE', '/healthz'],
    ['a validation error (error body)', 'POST', '/dashboard/api/setup', { nonsense: true }],
    ['a dashboard API answer', 'GET', '/dashboard/api/setup'],
  ];

  test.each(CALLS)('%s: nosniff always, HSTS only with an https public base URL', { timeout: 30_000 }, async (_, method, path, body) => {
    const secure = await https.request(method, path, body === undefined ? {} : { body });
    expect(secure.headers.get('x-content-type-options')).toBe('nosniff');
    expect(secure.headers.get('strict-transport-security')).toBe(HSTS);
    const plain = await http.request(method, path, body === undefined ? {} : { body });
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  test('a Sessions API answer with the sessionToken keeps its no-store and gains nosniff and HSTS', async () => {
    const response = await https.request('POST', '/api/v1/sessions/create', { key: keys.publishableKey, body: { returnUrl: 'https://shop.example.com/r' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toBe(HSTS);
  });

  test('every dashboard answer that carries a secret is no-store: new key pair, new webhook endpoint, rotated secret, sign-in', async () => {
    // On the http context: the test browser's origin is http://localhost:3000; no-store does not depend on https.
    const tenant = await http.tenant();
    keys = tenant;
    const owner = await signedIn(http, keys.tenantId, 'owner');
    const base = `/dashboard/api/tenants/${keys.tenantId}`;
    const newKeys = await owner.call('POST', `${base}/keys`, { sandbox: true });
    const endpoint = await owner.call('POST', `${base}/webhooks`, { url: 'https://hooks.test/x', events: ['session.started'] });
    const created = (await endpoint.clone().json()) as { endpoint?: { endpointId: string } };
    const rotated = await owner.call('POST', `${base}/webhooks/${created.endpoint?.endpointId}/rotate-secret`);
    const signIn = await owner.signIn(owner.user.email);
    for (const [name, response, field] of [
      ['POST keys', newKeys, 'secretKey'],
      ['POST webhooks', endpoint, 'secret'],
      ['POST rotate-secret', rotated, 'secret'],
    ] as const) {
      expect({ name, status: response.status }).toEqual({ name, status: name === 'POST rotate-secret' ? 200 : 201 });
      expect(Object.keys((await response.clone().json()) as object)).toContain(field);
      expect({ name, cacheControl: response.headers.get('cache-control') }).toEqual({ name, cacheControl: 'no-store' });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(signIn.headers.get('cache-control')).toBe('no-store');
  }, 60_000);
});
