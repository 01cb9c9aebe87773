/** The verify UI's API: credentials, QR handoff, desktop polling, cancel, per-session limits. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { events } from '../../db/schema';
import { setPolicy } from '../tenants/service';
import { TEST_AUDIT } from '../audit/testing/audit-kit';

type Json = Record<string, any>;

for (const target of TARGETS) {
  describe(`verify UI API [${target}]`, () => {
    let ctx: TestContext;
    let keys: Json;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      keys = await ctx.tenant({ sandbox: true });
    });
    afterAll(() => ctx.close());
    const create = async (body: Json = {}) =>
      ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', { key: keys.publishableKey, body: { returnUrl: 'https://shop.example.com/return', ...body } }),
      );
    const post = (path: string, body: Json) => ctx.request('POST', `/api/v1/verify/${path}`, { body });

    test('the desktop view carries a handoff link; the phone opens the same session with the handoff token', async () => {
      const session = await create();
      const desktop = await ctx.json(await post('session', { sessionId: session.sessionId, sessionToken: session.sessionToken }));
      expect(desktop.handoff).toBe(false);
      const link = new URL(desktop.handoffUrl);
      expect(link.origin + link.pathname).toBe('http://localhost:3000/verify');
      expect(link.searchParams.get('handoffToken')).toBe(session.handoffToken);
      expect(link.searchParams.has('sessionToken')).toBe(false);

      const phone = await ctx.json(await post('session', { sessionId: session.sessionId, handoffToken: session.handoffToken }));
      expect(phone).toMatchObject({ sessionId: session.sessionId, state: 'PENDING', handoff: true, handoffUrl: null });
    });

    test("the view names the age a document must show: the tenant's legal minimum age, apart from challengeAge (issue 23)", async () => {
      const session = await create({ verificationMode: 'L2', challengeAge: 30 });
      const before = await ctx.json(await post('session', { sessionId: session.sessionId, sessionToken: session.sessionToken }));
      expect(before).toMatchObject({ verificationMode: 'L2', challengeAge: 30, legalMinimumAge: 18 });

      const other = await ctx.tenant({ name: 'Older Shop' });
      await setPolicy(ctx.database.db, other.tenantId, { legalMinimumAge: 21 }, TEST_AUDIT);
      const created = await ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', {
          key: other.publishableKey,
          body: { returnUrl: 'https://shop.example.com/return', verificationMode: 'L2' },
        }),
      );
      const phone = await ctx.json(await post('session', { sessionId: created.sessionId, handoffToken: created.handoffToken }));
      expect(phone).toMatchObject({ verificationMode: 'L2', challengeAge: 25, legalMinimumAge: 21 });
    });

    test('the desktop polls; when the phone completes, the poll gives the callback URL', async () => {
      const session = await create({ externalUserId: 'desk-1' });
      const poll = async () => ctx.json(await post('status', { sessionId: session.sessionId, sessionToken: session.sessionToken }));
      expect(await poll()).toEqual({ state: 'PENDING', status: null, redirectUrl: null });
      ctx.clock.advance(30_000);
      const done = await ctx.json(await post('simulate', { sessionId: session.sessionId, handoffToken: session.handoffToken, outcome: 'verified' }));
      expect(done.status).toBe('verified');
      const polled = await poll();
      expect(polled).toMatchObject({ state: 'VERIFIED', status: 'verified' });
      expect(Object.fromEntries(new URL(polled.redirectUrl).searchParams)).toEqual({
        sessionId: session.sessionId,
        status: 'verified',
        timestamp: String(ctx.clock.now().getTime()),
        externalUserId: 'desk-1',
      });
    });

    test.each([
      [
        'both tokens',
        (s: Json) => ({ sessionId: s.sessionId, sessionToken: s.sessionToken, handoffToken: s.handoffToken }),
        400,
        ['send exactly one of sessionToken or handoffToken'],
      ],
      ['no token', (s: Json) => ({ sessionId: s.sessionId }), 400, ['send exactly one of sessionToken or handoffToken']],
      ['the handoff token as a session token', (s: Json) => ({ sessionId: s.sessionId, sessionToken: s.handoffToken }), 401, 'Invalid session token'],
      ['the session token as a handoff token', (s: Json) => ({ sessionId: s.sessionId, handoffToken: s.sessionToken }), 401, 'Invalid handoff token'],
      ['a token of another session', (_: Json, other: Json) => ({ sessionId: _.sessionId, sessionToken: other.sessionToken }), 401, 'Invalid session token'],
    ])('load refuses %s', async (_, build, status, message) => {
      const [session, other] = [await create(), await create()];
      const response = await post('session', build(session, other));
      expect(response.status).toBe(status);
      expect((await ctx.json(response)).message).toEqual(message);
    });

    test('status and cancel are for the sessionToken holder only', async () => {
      const session = await create();
      for (const path of ['status', 'cancel']) {
        const response = await post(path, { sessionId: session.sessionId, handoffToken: session.handoffToken });
        expect(response.status).toBe(400);
        expect((await ctx.json(response)).message).toContain('property handoffToken should not exist');
      }
    });

    test('cancel: PENDING → cancelled, verification.cancelled recorded, redirect to cancelUrl with status, sessionId, timestamp', async () => {
      const session = await create({ cancelUrl: 'https://shop.example.com/cancelled?from=popup' });
      const response = await post('cancel', { sessionId: session.sessionId, sessionToken: session.sessionToken });
      expect(response.status).toBe(200);
      const { redirectUrl, status } = await ctx.json(response);
      expect(status).toBe('cancelled');
      const url = new URL(redirectUrl);
      expect(url.pathname).toBe('/cancelled');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        from: 'popup',
        sessionId: session.sessionId,
        status: 'cancelled',
        timestamp: String(ctx.clock.now().getTime()),
      });
      const kinds = (await ctx.database.db.select().from(events).where(eq(events.sessionId, session.sessionId))).map((row) => row.kind).sort();
      expect(kinds).toEqual(['session.started', 'verification.cancelled']);
      expect((await post('cancel', { sessionId: session.sessionId, sessionToken: session.sessionToken })).status).toBe(409);
      const validated = await ctx.json(await ctx.request('POST', '/api/v1/sessions/validate', { key: keys.secretKey, body: { sessionId: session.sessionId } }));
      expect(validated).toMatchObject({ status: 'cancelled', verified: false });
    });

    test('cancel answers cross-origin calls from the SDK (no credentials)', async () => {
      const preflight = await ctx.request('OPTIONS', '/api/v1/verify/cancel', {
        headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
      const statusPreflight = await ctx.request('OPTIONS', '/api/v1/verify/status', {
        headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
      });
      expect(statusPreflight.headers.get('access-control-allow-origin')).toBeNull();
    });

    test('the verify UI API is limited per session (120 per 60 s) with the rate-limit headers', async () => {
      const session = await create();
      ctx.clock.set(new Date(Math.ceil(ctx.clock.now().getTime() / 60_000) * 60_000));
      const credentials = { sessionId: session.sessionId, sessionToken: session.sessionToken };
      for (let i = 0; i < 120; i++) {
        const response = await post('status', credentials);
        if (response.status !== 200) throw new Error(`poll ${i + 1} got ${response.status}`);
      }
      const limited = await post('status', credentials);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-ratelimit-limit')).toBe('120');
      expect(limited.headers.get('x-ratelimit-retry-after')).toBe('60');
      // Another session is not affected.
      const other = await create();
      expect((await post('status', { sessionId: other.sessionId, sessionToken: other.sessionToken })).status).toBe(200);
    });
  });
}
