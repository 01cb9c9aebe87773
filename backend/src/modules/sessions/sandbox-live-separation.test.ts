/**
 * Regression for the audit's critical finding (issue 8, finding 1; docs/decisions/0020 "Sandbox vs live
 * separation"; docs/decisions/0020): a key pair sees only sessions of its own kind. Before the fix,
 * a session created with the sandbox pk (public by design) and "verified" through the simulate API
 * validated with the live sk as verified + accessGranted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { sessions } from '../../db/schema';
import { createKeyPair } from '../tenants/service';
import { TEST_AUDIT } from '../audit/testing/audit-kit';

type Json = Record<string, any>;

for (const target of TARGETS) {
  describe(`sandbox and live sessions are separated [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    let live: { publishableKey: string; secretKey: string };
    let sandbox: { publishableKey: string; secretKey: string };

    beforeAll(async () => {
      ctx = await createTestContext(target);
      // One tenant with both kinds of pair, as the audit had it.
      const tenant = await ctx.tenant({ sandbox: false });
      tenantId = tenant.tenantId;
      live = tenant;
      sandbox = await createKeyPair(ctx.database.db, ctx.clock, tenantId, true, undefined, TEST_AUDIT);
    });
    afterAll(() => ctx.close());

    const create = async (key: string, body: Json = {}) => {
      const response = await ctx.request('POST', '/api/v1/sessions/create', { key, body: { returnUrl: 'https://shop.example.com/r', ...body } });
      expect(response.status).toBe(201);
      return ctx.json(response);
    };
    const validate = (key: string, sessionId: string) => ctx.request('POST', '/api/v1/sessions/validate', { key, body: { sessionId } });
    const simulateVerified = async (session: Json) => {
      const response = await ctx.request('POST', '/api/v1/verify/simulate', {
        body: { sessionId: session.sessionId, sessionToken: session.sessionToken, outcome: 'verified' },
      });
      expect(response.status).toBe(200);
    };
    const validatedAt = async (sessionId: string) => {
      const [row] = await ctx.database.db.select({ validatedAt: sessions.validatedAt }).from(sessions).where(eq(sessions.id, sessionId));
      return row!.validatedAt;
    };

    test('a sandbox session "verified" by simulation is refused to the live secret key, 403, nothing consumed', async () => {
      const session = await create(sandbox.publishableKey, { externalUserId: 'victim-account' });
      expect(session.sandboxMode).toBe(true);
      await simulateVerified(session);

      const refused = await validate(live.secretKey, session.sessionId);
      expect(refused.status).toBe(403);
      expect(await ctx.json(refused)).toMatchObject({
        statusCode: 403,
        message: 'Sandbox sessions cannot be validated with a live key',
        error: 'Forbidden',
        path: '/api/v1/sessions/validate',
      });
      expect(await validatedAt(session.sessionId)).toBeNull();

      // Its own kind of key still validates it once, and says it is a sandbox result.
      const own = await validate(sandbox.secretKey, session.sessionId);
      expect(own.status).toBe(200);
      expect(await ctx.json(own)).toMatchObject({ verified: true, sandboxMode: true });
    });

    test('a live session is refused to the sandbox secret key, 403, nothing consumed', async () => {
      const session = await create(live.secretKey);
      expect(session.sandboxMode).toBe(false);
      const refused = await validate(sandbox.secretKey, session.sessionId);
      expect(refused.status).toBe(403);
      expect(await ctx.json(refused)).toMatchObject({ statusCode: 403, message: 'Live sessions cannot be validated with a sandbox key' });
      expect(await validatedAt(session.sessionId)).toBeNull();

      const own = await ctx.json(await validate(live.secretKey, session.sessionId));
      expect(own).toMatchObject({ status: 'pending', sandboxMode: false });
    });

    test('live sessions cannot be simulated, so a live "verified" needs a real check', async () => {
      const session = await create(live.publishableKey);
      const response = await ctx.request('POST', '/api/v1/verify/simulate', {
        body: { sessionId: session.sessionId, sessionToken: session.sessionToken, outcome: 'verified' },
      });
      expect(response.status).toBe(403);
    });

    test('another tenant is told the session is not its own before anything about its kind', async () => {
      const other = await ctx.tenant({ sandbox: true });
      const session = await create(live.publishableKey);
      const response = await validate(other.secretKey, session.sessionId);
      expect(response.status).toBe(403);
      expect((await ctx.json(response)).message).toBe('Session does not belong to this tenant');
    });
  });
}
