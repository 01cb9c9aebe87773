/**
 * An endpoint driven into Paused as the dashboard shows it (issue 12 acceptance: "drive the
 * endpoint into Paused, see the notice and the email, then Test and resume"): an hour of
 * rejections pauses it (spec "Webhook endpoint delivery"); the overview carries the notice, the
 * outbox the email; test-and-resume brings it back and resolves the notice. Time moves with the
 * test's clock, as the e2e server's does with its offset file (clock.ts fileOffsetClock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { silentLogger } from '../../log';
import { keyPairs } from '../../db/schema';
import { seedStartedSession } from '../../testing/seed-session';
import { completeSession } from '../sessions/session-state';
import { createDispatcher } from '../webhooks/delivery/dispatcher';
import type { GuardOptions } from '../webhooks/destinations/destination-guard';
import { startReceiver, type Receiver } from '../webhooks/testing/https-receiver';
import { fakeResolver, LOOPBACK_ONLY } from '../webhooks/testing/testbed';
import { webhookSettings } from '../webhooks/settings';
import { signedIn } from './testing/dashboard-kit';

for (const target of TARGETS) {
  describe(`a paused endpoint in the dashboard [${target}]`, () => {
    let ctx: TestContext;
    let receiver: Receiver;
    let guard: GuardOptions;
    beforeAll(async () => {
      receiver = await startReceiver();
      guard = { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };
      ctx = await createTestContext(target, { webhookGuard: guard });
    });
    afterAll(async () => {
      await ctx.close();
      await receiver.stop();
    });

    test('an hour of rejections: Paused, notice, email; test and resume: Active', async () => {
      const { tenantId } = await ctx.tenant();
      const owner = await signedIn(ctx, tenantId, 'owner');
      const api = (path: string) => `/dashboard/api/tenants/${tenantId}${path}`;
      const created = await owner.json('POST', api('/webhooks'), { url: receiver.url('/paused', 'hooks.test'), events: ['verification.completed'] }, 201);
      const endpointId = created.endpoint.endpointId as string;
      receiver.expectSecret('/paused', created.secret);
      receiver.script('/paused', [], { status: 404 });

      const [pair] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantId));
      const dispatcher = createDispatcher({
        db: ctx.database.db,
        clock: ctx.clock,
        logger: silentLogger,
        guard,
        settings: webhookSettings(),
        workerId: 'paused',
      });
      const { sessionId } = await seedStartedSession(ctx.database.db, { tenantId, pairId: pair!.id, now: ctx.clock.now() });
      await completeSession(ctx.database.db, sessionId, 'verified', ctx.clock.now());
      await dispatcher.runOnce();
      expect((await owner.json('GET', api('/webhooks'), undefined, 200)).endpoints[0]).toMatchObject({ state: 'active', health: 'degraded', undelivered: 0 });

      // The e2e recipe (commit "contract: test clock…"): +61 min → the retry is rejected → Retrying;
      // +10 min more (past the ≤ 10 min retry gap) → rejected again, rejections for over an hour → Paused.
      ctx.clock.advance(61 * 60 * 1000);
      await dispatcher.runOnce();
      expect((await owner.json('GET', api('/webhooks'), undefined, 200)).endpoints[0].state).toBe('retrying');
      ctx.clock.advance(10 * 60 * 1000);
      await dispatcher.runOnce();
      const paused = (await owner.json('GET', api('/webhooks'), undefined, 200)).endpoints[0];
      expect(paused).toMatchObject({ endpointId, state: 'paused', health: 'paused' });
      expect(paused.pausedAt).toBeString();
      expect(paused.pauseReason).toContain('rejections');

      const overview = await owner.json('GET', api('/overview'), undefined, 200);
      expect(overview.notices).toEqual([
        { id: expect.any(String), kind: expect.any(String), endpointId, message: expect.any(String), createdAt: expect.any(String), resolvedAt: null },
      ]);
      const emails = await owner.json('GET', api('/emails'), undefined, 200);
      expect(emails.emails).toHaveLength(1);
      expect(emails.emails[0]).toMatchObject({ to: owner.user.email, state: 'pending' });
      expect(emails.emails[0].text).toContain(endpointId);

      // Redeliver waits for a resume.
      expect((await owner.call('POST', api(`/webhooks/${endpointId}/redeliver`))).status).toBe(409);
      receiver.script('/paused', [], { status: 200 });
      const resumed = await owner.json('POST', api(`/webhooks/${endpointId}/test-and-resume`), undefined, 200);
      expect(resumed).toMatchObject({ ok: true, status: 200, error: null, endpoint: { state: 'active', pausedAt: null } });
      expect((await owner.json('GET', api('/overview'), undefined, 200)).notices[0].resolvedAt).toBeString();
      expect(await owner.json('POST', api(`/webhooks/${endpointId}/redeliver`), undefined, 202)).toEqual({ events: 1, batches: 1 });
    });
  });
}
