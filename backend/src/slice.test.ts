/**
 * The thin slice, in-process, on every database target: create → load in the verify UI →
 * simulate → callback URL → validate once. Plus the error-body contract of the HTTP layer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { TARGETS } from './testing/test-databases';
import { createTestContext, type TestContext } from './testing/test-app';

for (const target of TARGETS) {
  describe(`thin slice [${target}]`, () => {
    let ctx: TestContext;
    let sandbox: Awaited<ReturnType<TestContext['tenant']>>;
    let live: Awaited<ReturnType<TestContext['tenant']>>;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      sandbox = await ctx.tenant({ sandbox: true });
      live = await ctx.tenant({ sandbox: false, name: 'Live Shop' });
    });
    afterAll(() => ctx.close());

    const create = (key: string, body: Record<string, unknown> = {}) =>
      ctx.request('POST', '/api/v1/sessions/create', { key, body: { returnUrl: 'https://shop.example.com/back?cart=7', ...body } });

    test('create with a publishable key returns the spec fields', async () => {
      const response = await create(sandbox.publishableKey, { externalUserId: 'user-1' });
      expect(response.status).toBe(201);
      const body = await ctx.json(response);
      expect(Object.keys(body).sort()).toEqual(
        ['sessionId', 'sessionToken', 'verifyUrl', 'expiresAt', 'testMode', 'sandboxMode', 'externalUserId', 'faceMatchEnabled', 'handoffToken'].sort(),
      );
      expect(body.sessionId).toMatch(/^ses_/);
      expect(body.testMode).toBe(false);
      expect(body.sandboxMode).toBe(true);
      expect(body.externalUserId).toBe('user-1');
      expect(body.faceMatchEnabled).toBe(true);
      expect(new Date(body.expiresAt).getTime() - ctx.clock.now().getTime()).toBe(10 * 60 * 1000);
      const verifyUrl = new URL(body.verifyUrl);
      expect(verifyUrl.origin + verifyUrl.pathname).toBe('http://localhost:3000/verify');
      expect(verifyUrl.searchParams.get('sessionId')).toBe(body.sessionId);
      expect(verifyUrl.searchParams.get('sessionToken')).toBe(body.sessionToken);
    });

    test('create accepts a secret key in x-api-key; externalUserId is null when absent', async () => {
      const response = await ctx.request('POST', '/api/v1/sessions/create', {
        headers: { 'x-api-key': live.secretKey },
        body: { returnUrl: 'https://shop.example.com/' },
      });
      expect(response.status).toBe(201);
      const body = await ctx.json(response);
      expect(body.sandboxMode).toBe(false);
      expect(body.externalUserId).toBeNull();
    });

    test('a returnUrl on a host that is not allowed is refused', async () => {
      const response = await create(sandbox.publishableKey, { returnUrl: 'https://evil.example.net/' });
      expect(response.status).toBe(400);
      expect((await ctx.json(response)).message).toBe('Return URL domain not allowed');
    });

    test('full flow: verified, callback parameters, validate once then 409', async () => {
      const created = await ctx.json(await create(sandbox.publishableKey, { externalUserId: 'user-42' }));
      const view = await ctx.request('POST', '/api/v1/verify/session', { body: { sessionId: created.sessionId, sessionToken: created.sessionToken } });
      expect(view.status).toBe(200);
      expect(await ctx.json(view)).toMatchObject({ sessionId: created.sessionId, state: 'PENDING', sandboxMode: true, merchantName: 'Test Shop' });

      const simulated = await ctx.request('POST', '/api/v1/verify/simulate', {
        body: { sessionId: created.sessionId, sessionToken: created.sessionToken, outcome: 'verified' },
      });
      expect(simulated.status).toBe(200);
      const { redirectUrl, status } = await ctx.json(simulated);
      expect(status).toBe('verified');
      const callback = new URL(redirectUrl);
      expect(callback.origin + callback.pathname).toBe('https://shop.example.com/back');
      expect(Object.fromEntries(callback.searchParams)).toEqual({
        cart: '7',
        sessionId: created.sessionId,
        status: 'verified',
        timestamp: String(ctx.clock.now().getTime()),
        externalUserId: 'user-42',
      });

      const first = await ctx.request('POST', '/api/v1/sessions/validate', { key: sandbox.secretKey, body: { sessionId: created.sessionId } });
      expect(first.status).toBe(200);
      expect(await ctx.json(first)).toEqual({
        sessionId: created.sessionId,
        merchantId: sandbox.tenantId,
        verified: true,
        accessGranted: true,
        status: 'verified',
        verificationMode: 'L1',
        challengeAge: 25,
        faceMatchEnabled: true,
        externalUserId: 'user-42',
        testMode: false,
        sandboxMode: true,
        timestamp: ctx.clock.now().toISOString(),
        expiresAt: created.expiresAt,
        // Additive (issue 24): the verification receipt of a terminal result, a compact JWS.
        receipt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      });
      const second = await ctx.request('POST', '/api/v1/sessions/validate', { key: sandbox.secretKey, body: { sessionId: created.sessionId } });
      expect(second.status).toBe(409);
      expect(await ctx.json(second)).toMatchObject({
        statusCode: 409,
        message: 'Session has already been used',
        path: '/api/v1/sessions/validate',
        error: 'Conflict',
      });
    });

    test('failed and cancelled outcomes', async () => {
      for (const outcome of ['failed', 'cancelled'] as const) {
        const created = await ctx.json(await create(sandbox.publishableKey, { cancelUrl: 'https://shop.example.com/cancelled' }));
        const { redirectUrl } = await ctx.json(
          await ctx.request('POST', '/api/v1/verify/simulate', { body: { sessionId: created.sessionId, sessionToken: created.sessionToken, outcome } }),
        );
        const callback = new URL(redirectUrl);
        expect(callback.pathname).toBe(outcome === 'cancelled' ? '/cancelled' : '/back');
        expect(callback.searchParams.get('status')).toBe(outcome);
        expect(callback.searchParams.has('externalUserId')).toBe(false);
        const validated = await ctx.json(
          await ctx.request('POST', '/api/v1/sessions/validate', { key: sandbox.secretKey, body: { sessionId: created.sessionId } }),
        );
        expect(validated).toMatchObject({ status: outcome, verified: false, accessGranted: false });
      }
    });

    test('simulate answers 401 for a wrong token and 403 for a live session', async () => {
      const created = await ctx.json(await create(sandbox.publishableKey));
      const wrong = await ctx.request('POST', '/api/v1/verify/simulate', {
        body: { sessionId: created.sessionId, sessionToken: created.handoffToken, outcome: 'verified' },
      });
      expect(wrong.status).toBe(401);
      const liveSession = await ctx.json(await create(live.publishableKey));
      const forbidden = await ctx.request('POST', '/api/v1/verify/simulate', {
        body: { sessionId: liveSession.sessionId, sessionToken: liveSession.sessionToken, outcome: 'verified' },
      });
      expect(forbidden.status).toBe(403);
      expect((await ctx.json(forbidden)).message).toBe('Outcomes can only be simulated for sandbox sessions');
    });

    test('each lifecycle change wrote its event in the outbox', async () => {
      const created = await ctx.json(await create(sandbox.publishableKey, { externalUserId: 'u-9' }));
      await ctx.request('POST', '/api/v1/verify/simulate', { body: { sessionId: created.sessionId, sessionToken: created.sessionToken, outcome: 'verified' } });
      const { events } = await import('./db/schema');
      const { eq } = await import('drizzle-orm');
      const rows = await ctx.database.db.select().from(events).where(eq(events.sessionId, created.sessionId)).orderBy(events.createdAt, events.kind);
      expect(rows.map((row) => row.kind).sort()).toEqual(['session.started', 'verification.completed']);
      const completed = rows.find((row) => row.kind === 'verification.completed')!;
      expect(completed.data).toEqual({
        sessionId: created.sessionId,
        verified: true,
        verificationMode: 'L1',
        challengeAge: 25,
        timestamp: ctx.clock.now().toISOString(),
        externalUserId: 'u-9',
        eventId: completed.id,
      });
      expect(completed.test).toBe(true);
    });
  });
}
