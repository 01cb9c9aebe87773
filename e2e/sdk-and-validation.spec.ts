/**
 * The SDK as the service serves it, and the validation contract a merchant server relies on
 * (spec "POST /sessions/validate", "Authentication", docs/sessions-api.md on re-validation).
 */
import { expect, test } from './support/fixtures';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

test('the SDK served by the service exposes the global AgeVerify with VERSION 3.5.0', async ({ shop, request, environment }) => {
  const script = await request.get(`${environment.serviceUrl}/sdk/ageverify.iife.min.js`);
  expect(script.status()).toBe(200);
  expect(script.headers()['content-type']).toMatch(/javascript/);

  await shop.open();
  expect(await shop.sdkGlobal()).toEqual({ version: '3.5.0', hasConstructor: true });
});

test('the SDK is also served at its versioned path, the same bytes with immutable caching', async ({ request, environment }) => {
  const stable = await request.get(`${environment.serviceUrl}/sdk/ageverify.iife.min.js`);
  const versioned = await request.get(`${environment.serviceUrl}/sdk/3.5.0/ageverify.iife.min.js`);
  expect(versioned.status()).toBe(200);
  expect(versioned.headers()['content-type']).toMatch(/javascript/);
  expect(versioned.headers()['cache-control']).toContain('immutable');
  expect(versioned.headers()['cache-control']).toMatch(/max-age=\d{7,}/);
  expect(await versioned.body()).toEqual(await stable.body());
  // The stable path changes with each release, so it must not be cached as immutable.
  expect(stable.headers()['cache-control'] ?? '').not.toContain('immutable');
});

test('a completed session validates once; the second validation is 409 Session has already been used', async ({ api, environment }) => {
  const { sandbox } = environment;
  const session = await api.createMerchantSession(sandbox.secretKey);
  const simulated = await api.simulate(session, 'verified');
  expect(simulated.ok()).toBe(true);
  expect(await simulated.json()).toMatchObject({ status: 'verified' });

  const first = await api.validate(sandbox.secretKey, session.sessionId);
  expect(first.status()).toBe(200);
  const result = (await first.json()) as Record<string, unknown>;
  expect(result).toMatchObject({
    sessionId: session.sessionId,
    merchantId: sandbox.tenantId,
    verified: true,
    accessGranted: true,
    status: 'verified',
    externalUserId: 'user-42',
    testMode: false,
    sandboxMode: true,
    expiresAt: session.expiresAt,
  });
  expect(['L1', 'L2']).toContain(result.verificationMode);
  expect(typeof result.challengeAge).toBe('number');
  expect(typeof result.faceMatchEnabled).toBe('boolean');
  expect(result.timestamp).toMatch(ISO_8601);
  expect(result).not.toHaveProperty('estimatedAge');

  const second = await api.validate(sandbox.secretKey, session.sessionId);
  expect(second.status()).toBe(409);
  const error = (await second.json()) as Record<string, unknown>;
  expect(error).toMatchObject({ statusCode: 409, message: 'Session has already been used', path: '/api/v1/sessions/validate' });
  expect(error.timestamp).toMatch(ISO_8601);
});

test('validating a pending session reports pending without consuming it', async ({ api, environment }) => {
  const { sandbox } = environment;
  const session = await api.createMerchantSession(sandbox.secretKey);

  const pending = await api.validate(sandbox.secretKey, session.sessionId);
  expect(pending.status()).toBe(200);
  expect(await pending.json()).toMatchObject({ status: 'pending', verified: false, accessGranted: false });

  expect((await api.simulate(session, 'verified')).ok()).toBe(true);
  const completed = await api.validate(sandbox.secretKey, session.sessionId);
  expect(completed.status()).toBe(200);
  expect(await completed.json()).toMatchObject({ status: 'verified', accessGranted: true });
});

test('validation needs the secret key of the session’s own tenant', async ({ api, environment }) => {
  const { sandbox, live } = environment;
  const session = await api.createMerchantSession(sandbox.publishableKey);
  expect((await api.simulate(session, 'verified')).ok()).toBe(true);

  const withPublishableKey = await api.validate(sandbox.publishableKey, session.sessionId);
  expect(withPublishableKey.status()).toBe(401);
  expect(await withPublishableKey.json()).toMatchObject({ statusCode: 401, message: 'Private API key required for session validation' });

  const otherTenant = await api.validate(live.secretKey, session.sessionId);
  expect(otherTenant.status()).toBe(403);
  expect(await otherTenant.json()).toMatchObject({ statusCode: 403, message: 'Session does not belong to this tenant' });

  // Neither failed attempt consumed the session.
  const own = await api.validate(sandbox.secretKey, session.sessionId);
  expect(own.status()).toBe(200);
  expect(await own.json()).toMatchObject({ accessGranted: true });
});

test('outcomes can be simulated only for sandbox sessions and with the session token', async ({ api, environment }) => {
  const liveSession = await api.createMerchantSession(environment.live.secretKey);
  expect(liveSession.sandboxMode).toBe(false);
  expect((await api.simulate(liveSession, 'verified')).status()).toBe(403);

  const sandboxSession = await api.createMerchantSession(environment.sandbox.secretKey);
  expect(sandboxSession.sandboxMode).toBe(true);
  expect((await api.simulate({ sessionId: sandboxSession.sessionId, sessionToken: liveSession.sessionToken }, 'verified')).status()).toBe(401);

  // Neither attempt completed a session.
  for (const [key, session] of [
    [environment.live.secretKey, liveSession],
    [environment.sandbox.secretKey, sandboxSession],
  ] as const) {
    const validation = await api.validate(key, session.sessionId);
    expect(await validation.json()).toMatchObject({ status: 'pending', accessGranted: false });
  }
});
