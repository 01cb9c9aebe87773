/**
 * The Sessions API contract, walked row by row: spec "Errors", "POST /sessions/create",
 * "POST /sessions/validate", "Authentication" 1–7, "Limits" (sessions rows), the rate-limit headers,
 * and the session lifecycle. Every test runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 * Time moves through the injected clock; nothing sleeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { events, keyPairs, sessions } from '../../db/schema';
import { addDomain, revokeKeyPair, setPlan, setPolicy, setRateLimits, setTenantStatus } from '../tenants/service';
import { sweepExpiredSessions } from './expiry-sweeper';
import { TEST_AUDIT } from '../audit/testing/audit-kit';

type Tenant = Awaited<ReturnType<TestContext['tenant']>>;
type Json = Record<string, any>;

/**
 * The two limit tests send 300 and 100 requests in a row. On two busy cores that took over bun's
 * 5 s default (and the loop then ran on into the closed database: the "500" seen after the
 * timeout was teardown, not a failure of the service). They assert counts, never time.
 */
const LOAD_TEST_BUDGET_MS = 120_000;

for (const target of TARGETS) {
  describe(`Sessions API contract [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    const create = (key: string, body: Json = {}, headers: Record<string, string> = {}) =>
      ctx.request('POST', '/api/v1/sessions/create', { key, headers, body: { returnUrl: 'https://shop.example.com/return', ...body } });
    const validate = (key: string | undefined, body: Json) => ctx.request('POST', '/api/v1/sessions/validate', { key, body });
    const created = async (key: string, body: Json = {}) => {
      const response = await create(key, body);
      expect(response.status).toBe(201);
      return ctx.json(response);
    };
    const simulate = (session: Json, outcome: 'verified' | 'failed' | 'cancelled') =>
      ctx.request('POST', '/api/v1/verify/simulate', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken, outcome } });
    const errorOf = async (response: Response, status: number) => {
      expect(response.status).toBe(status);
      const body = await ctx.json(response);
      expect(body).toMatchObject({ statusCode: status, path: expect.any(String), timestamp: expect.any(String), error: expect.any(String) });
      return body;
    };
    const fresh = (options: Parameters<TestContext['tenant']>[0] = {}) => ctx.tenant(options);

    describe('spec "Errors" table', () => {
      let t: Tenant;
      beforeAll(async () => {
        t = await fresh();
      });

      test('400 validation messages (array), e.g. a property that should not exist', async () => {
        const body = await errorOf(await create(t.publishableKey, { colour: 'red' }), 400);
        expect(body.message).toEqual(['property colour should not exist']);
      });

      test('400 Session has expired', async () => {
        const session = await created(t.secretKey);
        ctx.clock.advance(10 * 60 * 1000);
        const body = await errorOf(await validate(t.secretKey, { sessionId: session.sessionId }), 400);
        expect(body.message).toBe('Session has expired');
      });

      test('Session has already been used: 409 Conflict (the spec lists 400 and 409; docs/sessions-api.md says why 409)', async () => {
        const session = await created(t.secretKey);
        await simulate(session, 'verified');
        expect((await validate(t.secretKey, { sessionId: session.sessionId })).status).toBe(200);
        const body = await errorOf(await validate(t.secretKey, { sessionId: session.sessionId }), 409);
        expect(body).toMatchObject({ message: 'Session has already been used', error: 'Conflict' });
      });

      test('400 Return URL domain not allowed', async () => {
        const body = await errorOf(await create(t.publishableKey, { returnUrl: 'https://elsewhere.example.org/return' }), 400);
        expect(body.message).toBe('Return URL domain not allowed');
      });

      test('400 merchantId must match the authenticated API key', async () => {
        const other = await fresh();
        const body = await errorOf(await create(t.publishableKey, { merchantId: other.tenantId }), 400);
        expect(body.message).toBe('merchantId must match the authenticated API key');
        expect((await create(t.publishableKey, { merchantId: t.tenantId })).status).toBe(201);
      });

      test('401 API key required', async () => {
        for (const path of ['/api/v1/sessions/create', '/api/v1/sessions/validate']) {
          const body = await errorOf(await ctx.request('POST', path, { body: { junk: true } }), 401);
          expect(body).toMatchObject({ message: 'API key required', error: 'Unauthorized' });
        }
      });

      test('401 Private API key required for session validation', async () => {
        const session = await created(t.publishableKey);
        const body = await errorOf(await validate(t.publishableKey, { sessionId: session.sessionId }), 401);
        expect(body.message).toBe('Private API key required for session validation');
      });

      test('403 Session does not belong to this tenant', async () => {
        const session = await created(t.publishableKey);
        const other = await fresh();
        const body = await errorOf(await validate(other.secretKey, { sessionId: session.sessionId }), 403);
        expect(body.message).toBe('Session does not belong to this tenant');
      });

      test('403 insufficient permissions: a suspended account', async () => {
        const suspended = await fresh();
        await setTenantStatus(ctx.database.db, suspended.tenantId, 'suspended', TEST_AUDIT);
        const body = await errorOf(await create(suspended.publishableKey), 403);
        expect(body.message).toStartWith('Insufficient permissions');
        await setTenantStatus(ctx.database.db, suspended.tenantId, 'active', TEST_AUDIT);
        expect((await create(suspended.publishableKey)).status).toBe(201);
      });

      test('404 Session not found', async () => {
        const body = await errorOf(await validate(t.secretKey, { sessionId: 'ses_doesnotexist' }), 404);
        expect(body.message).toBe('Session not found');
      });

      test('429 rate limit, with the rate-limit headers', async () => {
        const limited = await fresh();
        await setRateLimits(ctx.database.db, limited.tenantId, { create: 2 }, TEST_AUDIT);
        await create(limited.publishableKey);
        await create(limited.publishableKey);
        const response = await create(limited.publishableKey);
        const body = await errorOf(response, 429);
        expect(body.message).toContain('Rate limit exceeded');
        expect(response.headers.get('x-ratelimit-limit')).toBe('2');
        expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(response.headers.get('x-ratelimit-retry-after'))).toBeGreaterThan(0);
      });

      test('503 SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE when the secret key has no active paired publishable key', async () => {
        const half = await fresh();
        await revokeKeyPair(ctx.database.db, ctx.clock, half.tenantId, half.pairId, 'publishable', TEST_AUDIT);
        const body = await errorOf(await create(half.secretKey), 503);
        expect(body.code).toBe('SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE');
        expect(body).not.toHaveProperty('verifyUrl');
      });
    });

    describe('spec "Authentication"', () => {
      let t: Tenant;
      beforeAll(async () => {
        t = await fresh();
      });

      test('1. Authorization: Bearer and x-api-key are both accepted', async () => {
        expect(
          (
            await ctx.request('POST', '/api/v1/sessions/create', {
              headers: { authorization: `Bearer ${t.publishableKey}` },
              body: { returnUrl: 'https://shop.example.com/' },
            })
          ).status,
        ).toBe(201);
        expect(
          (await ctx.request('POST', '/api/v1/sessions/create', { headers: { 'x-api-key': t.secretKey }, body: { returnUrl: 'https://shop.example.com/' } }))
            .status,
        ).toBe(201);
      });

      test('2. pk_ creates but cannot validate; sk_ creates and validates', async () => {
        const session = await created(t.secretKey);
        await simulate(session, 'verified');
        expect((await validate(t.publishableKey, { sessionId: session.sessionId })).status).toBe(401);
        expect((await validate(t.secretKey, { sessionId: session.sessionId })).status).toBe(200);
      });

      test.each([
        ['an unknown publishable key', 'pk_test_unknownunknownunknownunknownunknown00'],
        ['an unknown secret key', 'sk_test_unknownunknownunknownunknownunknown00'],
        ['a key of another shape', 'hello'],
      ])('invalid key: 401 for %s', async (_, key) => {
        const body = await errorOf(await create(key), 401);
        expect(body.message).toBe('Invalid API key');
      });

      test('revoked keys: 401 (whole pair; publishable key only)', async () => {
        const pair = await fresh();
        await revokeKeyPair(ctx.database.db, ctx.clock, pair.tenantId, pair.pairId, 'publishable', TEST_AUDIT);
        expect((await create(pair.publishableKey)).status).toBe(401);
        await revokeKeyPair(ctx.database.db, ctx.clock, pair.tenantId, pair.pairId, 'pair', TEST_AUDIT);
        expect((await validate(pair.secretKey, { sessionId: 'ses_x' })).status).toBe(401);
      });

      test('secret keys are stored only as hashes', async () => {
        const [row] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.id, t.pairId));
        expect(JSON.stringify(row)).not.toContain(t.secretKey);
        expect(row!.secretKeyHash).toMatch(/^[0-9a-f]{64}$/);
      });

      test('7. allowed domains: exact hosts, *.parent for subdomains, loopback always', async () => {
        const d = await fresh({ domains: ['shop.example.com', '*.brand.example'] });
        const cases: [string, number][] = [
          ['https://shop.example.com/x', 201],
          ['https://www.shop.example.com/x', 400],
          ['https://eu.brand.example/x', 201],
          ['https://brand.example/x', 400],
          ['http://localhost:8080/any/path', 201],
          ['http://127.0.0.1/return', 201],
        ];
        for (const [returnUrl, status] of cases) expect([returnUrl, (await create(d.publishableKey, { returnUrl })).status]).toEqual([returnUrl, status]);
        await addDomain(ctx.database.db, ctx.clock, d.tenantId, 'www.shop.example.com', TEST_AUDIT);
        expect((await create(d.publishableKey, { returnUrl: 'https://www.shop.example.com/x' })).status).toBe(201);
      });
    });

    describe('POST /sessions/create rules', () => {
      let t: Tenant;
      beforeAll(async () => {
        t = await fresh();
      });

      test('returnUrl is required', async () => {
        const response = await ctx.request('POST', '/api/v1/sessions/create', { key: t.publishableKey, body: {} });
        expect((await errorOf(response, 400)).message).toEqual(['returnUrl is required']);
      });

      test.each([
        ['http://shop.example.com/return', 'returnUrl must use HTTPS'],
        ['javascript:alert(1)', 'returnUrl scheme "javascript:" is not allowed'],
        ['data:text/html,hi', 'returnUrl scheme "data:" is not allowed'],
        ['file:///etc/passwd', 'returnUrl scheme "file:" is not allowed'],
        ['ftp://shop.example.com/', 'returnUrl scheme "ftp:" is not allowed'],
        ['https://user:pw@shop.example.com/', 'returnUrl must not contain user credentials'],
        ['/relative/path', 'returnUrl must be an absolute URL'],
      ])('URL rules: %s is refused', async (returnUrl, message) => {
        const body = await errorOf(await create(t.publishableKey, { returnUrl }), 400);
        expect(body.message[0]).toStartWith(message);
      });

      test('URL rules apply to cancelUrl too, and so does the allowlist', async () => {
        expect((await errorOf(await create(t.publishableKey, { cancelUrl: 'javascript:void(0)' }), 400)).message[0]).toStartWith('cancelUrl scheme');
        expect((await errorOf(await create(t.publishableKey, { cancelUrl: 'https://evil.example.net/' }), 400)).message).toBe('Return URL domain not allowed');
      });

      test.each([
        [{ challengeAge: 24 }, 'challengeAge must be an integer from 25 to 99'],
        [{ challengeAge: 100 }, 'challengeAge must be an integer from 25 to 99'],
        [{ challengeAge: 30.5 }, 'challengeAge must be an integer'],
        [{ verificationMode: 'L3' }, 'verificationMode must be one of: L1, L2'],
        [{ faceMatchEnabled: 'false' }, 'faceMatchEnabled must be a boolean'],
        [{ returnUrl: `https://shop.example.com/${'a'.repeat(2048)}` }, 'returnUrl must be at most 2048 characters long'],
        [{ externalUserId: 'u'.repeat(257) }, 'externalUserId must be at most 256 characters long'],
        [{ merchantName: '' }, 'merchantName must not be empty'],
      ])('field rules: %j → %s', async (fields, message) => {
        expect((await errorOf(await create(t.publishableKey, fields), 400)).message).toEqual([message]);
      });

      test('challengeAge 25 and 99 are accepted (secret key)', async () => {
        for (const challengeAge of [25, 99]) {
          const session = await created(t.secretKey, { challengeAge });
          expect(
            (
              await ctx.json(
                await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } }),
              )
            ).challengeAge,
          ).toBe(challengeAge);
        }
      });

      test('result fields exactly as the spec table', async () => {
        const session = await created(t.publishableKey);
        expect(Object.keys(session).sort()).toEqual(
          ['expiresAt', 'externalUserId', 'faceMatchEnabled', 'handoffToken', 'sandboxMode', 'sessionId', 'sessionToken', 'testMode', 'verifyUrl'].sort(),
        );
        expect(session.testMode).toBe(false);
        expect(session.externalUserId).toBeNull();
        expect(session.expiresAt).toBe(new Date(ctx.clock.now().getTime() + 600_000).toISOString());
        expect(session.handoffToken).not.toBe(session.sessionToken);
        expect(session.sessionToken.split('.')).toHaveLength(2); // opaque, not a three-part JWT
      });

      test('sandbox pairs create sandboxMode sessions; live pairs do not', async () => {
        expect((await created(t.publishableKey)).sandboxMode).toBe(true);
        const live = await fresh({ sandbox: false });
        expect((await created(live.publishableKey)).sandboxMode).toBe(false);
      });

      test('verifyUrl carries sessionId, sessionToken and the display parameters', async () => {
        const session = await created(t.publishableKey, { externalUserId: 'user 7', merchantName: 'Shop & Co', cancelUrl: 'https://shop.example.com/cancel' });
        const url = new URL(session.verifyUrl);
        expect(Object.fromEntries(url.searchParams)).toEqual({
          sessionId: session.sessionId,
          sessionToken: session.sessionToken,
          returnUrl: 'https://shop.example.com/return',
          cancelUrl: 'https://shop.example.com/cancel',
          merchantName: 'Shop & Co',
          externalUserId: 'user 7',
        });
      });

      test('faceMatchEnabled=false is stored on the session and never a verifyUrl parameter', async () => {
        const session = await created(t.secretKey, { faceMatchEnabled: false });
        expect(session.faceMatchEnabled).toBe(false);
        expect(session.verifyUrl).not.toContain('faceMatch');
        const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, session.sessionId));
        expect(row!.faceMatchEnabled).toBe(false);
      });

      test('policy fields: trusted overrides with sk_, only stricter with pk_ (docs/sessions-api.md)', async () => {
        const strict = await fresh();
        await setPolicy(ctx.database.db, strict.tenantId, { verificationMode: 'L2', challengeAge: 30, faceMatchEnabled: true }, TEST_AUDIT);
        const viewOf = async (session: Json) =>
          ctx.json(await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } }));
        const loose = { verificationMode: 'L1', challengeAge: 25, faceMatchEnabled: false };
        expect(await viewOf(await created(strict.publishableKey, loose))).toMatchObject({ verificationMode: 'L2', challengeAge: 30, faceMatchEnabled: true });
        expect(await viewOf(await created(strict.secretKey, loose))).toMatchObject({ verificationMode: 'L1', challengeAge: 25, faceMatchEnabled: false });
        expect(await viewOf(await created(strict.publishableKey, { challengeAge: 40 }))).toMatchObject({ challengeAge: 40 });
      });

      test('display parameters in verifyUrl never override the stored session', async () => {
        const session = await created(t.publishableKey, { externalUserId: 'real-user' });
        const view = await ctx.json(
          await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } }),
        );
        expect(view.merchantName).toBe('Test Shop');
        // The UI API takes nothing but id and token: tampered display values have no way in.
        const tampered = await ctx.request('POST', '/api/v1/verify/session', {
          body: { sessionId: session.sessionId, sessionToken: session.sessionToken, returnUrl: 'https://evil.example.net/' },
        });
        expect((await errorOf(tampered, 400)).message).toEqual(['property returnUrl should not exist']);
        const { redirectUrl } = await ctx.json(await simulate(session, 'verified'));
        expect(new URL(redirectUrl).host).toBe('shop.example.com');
        expect(new URL(redirectUrl).searchParams.get('externalUserId')).toBe('real-user');
      });

      test('session.started is recorded with the session, with the spec payload', async () => {
        const session = await created(t.publishableKey, { externalUserId: 'u1' });
        const rows = await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId));
        expect(rows).toHaveLength(1);
        expect(rows[0]!.kind).toBe('session.started');
        expect(rows[0]!.data).toEqual({
          sessionId: session.sessionId,
          verificationMode: 'L1',
          challengeAge: 25,
          timestamp: ctx.clock.now().toISOString(),
          externalUserId: 'u1',
        });
        const anonymous = await created(t.publishableKey);
        const [row] = await ctx.database.db.select().from(events).where(eq(events.sessionId, anonymous.sessionId));
        expect(row!.data).not.toHaveProperty('externalUserId');
      });

      test('CORS: create answers browsers from any origin without credentials; validate sends no CORS headers', async () => {
        const preflight = await ctx.request('OPTIONS', '/api/v1/sessions/create', {
          headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
        expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
        const validatePreflight = await ctx.request('OPTIONS', '/api/v1/sessions/validate', {
          headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
        });
        expect(validatePreflight.headers.get('access-control-allow-origin')).toBeNull();
      });
    });

    describe('billing blocks', () => {
      test.each([
        ['SUBSCRIPTION_REQUIRED', false, { active: false }],
        ['PLAN_LIMIT_REACHED', false, { monthlyAllowance: 1 }],
        ['SANDBOX_LIMIT_REACHED', true, { sandboxAllowance: 1 }],
      ] as const)('%s: the session is created (201) with billingBlock; no check can start', async (code, sandbox, plan) => {
        const b = await fresh({ sandbox });
        await setPlan(ctx.database.db, b.tenantId, { ...plan, portalUrl: 'https://billing.example.com/portal' }, TEST_AUDIT);
        if (code !== 'SUBSCRIPTION_REQUIRED') expect((await created(b.publishableKey)).billingBlock).toBeUndefined();
        const session = await created(b.publishableKey);
        expect(session.billingBlock).toMatchObject({ code, message: expect.any(String), portalUrl: 'https://billing.example.com/portal' });
        const url = new URL(session.verifyUrl);
        expect(url.searchParams.get('blocked')).toBe(code);
        expect(url.searchParams.get('portalUrl')).toBe('https://billing.example.com/portal');
        const view = await ctx.json(
          await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } }),
        );
        expect(view.billingBlock.code).toBe(code);
        if (sandbox) expect((await simulate(session, 'verified')).status).toBe(403);
      });
    });

    describe('POST /sessions/validate rules', () => {
      let t: Tenant;
      beforeAll(async () => {
        t = await fresh();
      });

      test('sessionId is the only allowed property: sending sessionToken is a 400', async () => {
        const session = await created(t.publishableKey);
        const body = await errorOf(await validate(t.secretKey, { sessionId: session.sessionId, sessionToken: session.sessionToken }), 400);
        expect(body.message).toEqual(['property sessionToken should not exist']);
      });

      test('all result fields; estimatedAge never present; timestamp is the completion time', async () => {
        const session = await created(t.publishableKey, { externalUserId: 'ext-1' });
        ctx.clock.advance(42_000);
        const completedAt = ctx.clock.now().toISOString();
        await simulate(session, 'verified');
        ctx.clock.advance(5_000);
        const result = await ctx.json(await validate(t.secretKey, { sessionId: session.sessionId }));
        expect(result).toEqual({
          sessionId: session.sessionId,
          merchantId: t.tenantId,
          verified: true,
          accessGranted: true,
          status: 'verified',
          verificationMode: 'L1',
          challengeAge: 25,
          faceMatchEnabled: true,
          externalUserId: 'ext-1',
          testMode: false,
          sandboxMode: true,
          timestamp: completedAt,
          expiresAt: session.expiresAt,
          // Additive (issue 24): the verification receipt of a terminal result, a compact JWS.
          receipt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        });
      });

      test('a pending session answers 200 pending and is not consumed', async () => {
        const session = await created(t.publishableKey);
        for (let i = 0; i < 2; i++) {
          const result = await ctx.json(await validate(t.secretKey, { sessionId: session.sessionId }));
          expect(result).toMatchObject({ status: 'pending', verified: false, accessGranted: false });
        }
        await simulate(session, 'failed');
        expect(await ctx.json(await validate(t.secretKey, { sessionId: session.sessionId }))).toMatchObject({ status: 'failed', accessGranted: false });
      });

      test('a result reached before the deadline can still be validated once after it', async () => {
        const session = await created(t.publishableKey);
        await simulate(session, 'verified');
        ctx.clock.advance(60 * 60 * 1000);
        expect(await ctx.json(await validate(t.secretKey, { sessionId: session.sessionId }))).toMatchObject({ status: 'verified', verified: true });
      });

      test('validate-once holds under concurrency: N simultaneous validations give exactly one 200', async () => {
        const session = await created(t.publishableKey);
        await simulate(session, 'verified');
        const statuses = await Promise.all(Array.from({ length: 12 }, () => validate(t.secretKey, { sessionId: session.sessionId }).then((r) => r.status)));
        expect(statuses.filter((s) => s === 200)).toHaveLength(1);
        expect(statuses.filter((s) => s === 409)).toHaveLength(11);
      });
    });

    describe('lifecycle', () => {
      let t: Tenant;
      beforeAll(async () => {
        t = await fresh();
      });

      test('the sweeper expires at the deadline and emits session.timeout with timestamp = the deadline, once', async () => {
        const session = await created(t.publishableKey, { externalUserId: 'late' });
        const stateOf = async () => (await ctx.database.db.select().from(sessions).where(eq(sessions.id, session.sessionId)))[0]!.state;
        ctx.clock.advance(10 * 60 * 1000 - 1);
        await sweepExpiredSessions(ctx.database.db, ctx.clock.now());
        expect(await stateOf()).toBe('PENDING');
        ctx.clock.advance(90_000);
        // Two sweeps racing (two instances): exactly one expiry.
        const counts = await Promise.all([sweepExpiredSessions(ctx.database.db, ctx.clock.now()), sweepExpiredSessions(ctx.database.db, ctx.clock.now())]);
        expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
        expect(await stateOf()).toBe('EXPIRED');
        const rows = await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId));
        const timeouts = rows.filter((row) => row.kind === 'session.timeout');
        expect(timeouts).toHaveLength(1);
        expect(timeouts[0]!.data).toEqual({
          sessionId: session.sessionId,
          verificationMode: 'L1',
          challengeAge: 25,
          externalUserId: 'late',
          expiresAt: session.expiresAt,
          timestamp: session.expiresAt,
          eventId: timeouts[0]!.id,
        });
        const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, session.sessionId));
        expect(row!.state).toBe('EXPIRED');
      });

      test('a user who returns to the verify UI after expiry is redirected with status=failed', async () => {
        const session = await created(t.publishableKey);
        ctx.clock.advance(11 * 60 * 1000);
        const view = await ctx.json(
          await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } }),
        );
        expect(view.state).toBe('EXPIRED');
        const redirect = new URL(view.redirectUrl);
        expect(redirect.searchParams.get('status')).toBe('failed');
        expect(redirect.searchParams.get('timestamp')).toBe(String(new Date(session.expiresAt).getTime()));
        expect(await ctx.json(await simulate(session, 'verified'))).toMatchObject({ status: 'failed' });
      });

      test('terminal states are immutable: no second completion, no expiry', async () => {
        const session = await created(t.publishableKey);
        await simulate(session, 'verified');
        expect((await simulate(session, 'failed')).status).toBe(409);
        ctx.clock.advance(20 * 60 * 1000);
        await sweepExpiredSessions(ctx.database.db, ctx.clock.now());
        const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, session.sessionId));
        expect(row!.state).toBe('VERIFIED');
      });
    });

    describe('spec "Limits" (sessions rows) and rate-limit headers', () => {
      test(
        'POST /sessions/create: 300 per 60 s per account, all keys of the account in one bucket',
        async () => {
          const r = await fresh();
          const second = await (await import('../tenants/service')).createKeyPair(ctx.database.db, ctx.clock, r.tenantId, true, undefined, TEST_AUDIT);
          // Start at the beginning of a window so the 301 requests fall in one.
          ctx.clock.set(new Date(Math.ceil(ctx.clock.now().getTime() / 60_000) * 60_000));
          for (let i = 0; i < 300; i++) {
            const response = await create(i % 2 ? r.publishableKey : second.secretKey);
            if (response.status !== 201) throw new Error(`request ${i + 1} got ${response.status}`);
          }
          const limited = await create(r.publishableKey);
          expect(limited.status).toBe(429);
          expect(limited.headers.get('x-ratelimit-limit')).toBe('300');
          expect(limited.headers.get('x-ratelimit-retry-after')).toBe('60');
          ctx.clock.advance(60_000);
          expect((await create(r.publishableKey)).status).toBe(201);
        },
        LOAD_TEST_BUDGET_MS,
      );

      test(
        'POST /sessions/validate: 100 per 60 s per account; its bucket is separate from create',
        async () => {
          const r = await fresh();
          ctx.clock.set(new Date(Math.ceil(ctx.clock.now().getTime() / 60_000) * 60_000));
          for (let i = 0; i < 100; i++) {
            const response = await validate(r.secretKey, { sessionId: 'ses_unknown' });
            if (response.status !== 404) throw new Error(`request ${i + 1} got ${response.status}`);
          }
          const limited = await validate(r.secretKey, { sessionId: 'ses_unknown' });
          expect(limited.status).toBe(429);
          expect(limited.headers.get('x-ratelimit-limit')).toBe('100');
          expect((await create(r.publishableKey)).status).toBe(201);
          ctx.clock.advance(30_000);
          const stillLimited = await validate(r.secretKey, { sessionId: 'ses_unknown' });
          expect(stillLimited.headers.get('x-ratelimit-retry-after')).toBe('30');
        },
        LOAD_TEST_BUDGET_MS,
      );

      test('per-tenant overrides ("higher limits by arrangement")', async () => {
        const r = await fresh();
        await setRateLimits(ctx.database.db, r.tenantId, { create: 500 }, TEST_AUDIT);
        const response = await create(r.publishableKey);
        expect(response.headers.get('x-ratelimit-limit')).toBe('500');
        expect(response.headers.get('x-ratelimit-remaining')).toBe('499');
      });

      test('every response carries X-RateLimit-Limit, -Window and -Remaining; -Retry-After only on 429', async () => {
        const r = await fresh();
        const responses = [
          await create(r.publishableKey),
          await create(r.publishableKey, { bogus: 1 }),
          await validate(r.secretKey, { sessionId: 'ses_none' }),
          await ctx.request('POST', '/api/v1/sessions/create', { body: {} }),
        ];
        for (const response of responses) {
          expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
          expect(response.headers.get('x-ratelimit-window')).toBe('60');
          expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
          expect(response.headers.get('x-ratelimit-retry-after')).toBeNull();
        }
        expect(responses[1]!.headers.get('x-ratelimit-remaining')).toBe('298');
      });

      test('session lifetime: 10 minutes from creation, no extension by use', async () => {
        const r = await fresh();
        const session = await created(r.publishableKey);
        ctx.clock.advance(9 * 60 * 1000);
        await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: session.sessionId, sessionToken: session.sessionToken } });
        await validate(r.secretKey, { sessionId: session.sessionId });
        ctx.clock.advance(60 * 1000);
        expect((await errorOf(await validate(r.secretKey, { sessionId: session.sessionId }), 400)).message).toBe('Session has expired');
      });
    });
  });
}
