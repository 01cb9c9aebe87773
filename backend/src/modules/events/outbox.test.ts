/**
 * The outbox on every database target: an event and its webhook deliveries are written in the
 * transaction of the state change that causes them, or not at all.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, sql } from 'drizzle-orm';
import { events, sessions, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { TARGETS } from '../../testing/test-databases';
import { createTestbed, type Testbed } from '../webhooks/testing/testbed';
import { recordEvent } from './outbox';

for (const target of TARGETS) {
  describe(`webhook delivery [${target}]`, () => {
    let bed: Testbed;
    beforeAll(async () => {
      bed = await createTestbed(target);
    });
    afterAll(() => bed.close());

    let pathCounter = 0;
    /** A fresh receiver path per test, so tests never see each other's requests. */
    const fresh = (name: string) => `/${name}-${++pathCounter}`;
    /** Each test's routing is its own: earlier tests' endpoints (and their deliveries) go. */
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

    describe('outbox and envelope', () => {
      test('the event and its deliveries are written in the transaction of the state change: a rollback leaves neither', async () => {
        await isolate();
        await bed.endpoint(fresh('outbox'), ['session.started']);
        const before = await bed.database.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
        const sessionId = (await bed.session()).sessionId;
        const [session] = await bed.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
        await expect(
          bed.database.db.transaction(async (tx) => {
            await recordEvent(tx, {
              kind: 'verification.failed',
              session: session!,
              occurredAt: bed.clock.now(),
              createdAt: bed.clock.now(),
              reason: 'age_not_met',
            });
            throw new Error('state change failed');
          }),
        ).rejects.toThrow('state change failed');
        const failed = await bed.database.db
          .select()
          .from(events)
          .where(and(eq(events.sessionId, sessionId), eq(events.kind, 'verification.failed')));
        expect(failed).toHaveLength(0);
        const after = await bed.database.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
        expect(after[0]!.n).toBe(before[0]!.n + 1); // only session.started's delivery
        await bed.run();
      });
    });
  });
}
