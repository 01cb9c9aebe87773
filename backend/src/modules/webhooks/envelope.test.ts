/**
 * The webhook body as receivers get it, on every database target: envelope fields in the spec's
 * order, the timestamp rule of each kind (creation time, session deadline, first send), data per
 * kind, `test` for sandbox sessions, and the same bytes on every retry and to every endpoint.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { sessions, webhookEndpoints } from '../../db/schema';
import { TARGETS } from '../../testing/test-databases';
import { createTestbed, type Testbed } from './testing/testbed';

const SEC = 1000;
const MIN = 60 * SEC;

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
    const envelope = (text: string) => JSON.parse(text) as { event: string; timestamp: string; tenantId: string; test: boolean; data: Record<string, unknown> };
    /** Each test's routing is its own: earlier tests' endpoints (and their deliveries) go. */
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

    describe('outbox and envelope', () => {
      test('completion: envelope fields in order, timestamp = event creation time, eventId in data, externalUserId only when given', async () => {
        await isolate();
        const path = fresh('completion');
        await bed.endpoint(path, ['verification.completed']);
        const withUser = await bed.session({ externalUserId: 'user-42' });
        const createdAt = bed.clock.now();
        const eventId = await bed.complete(withUser.sessionId);
        const without = await bed.session();
        const otherId = await bed.complete(without.sessionId);
        bed.clock.advance(3 * SEC); // sent later: the timestamp stays the creation time
        await bed.run();
        const [first, second] = bed.receiver.requests(path);
        expect(Object.keys(envelope(first!.text))).toEqual(['event', 'timestamp', 'tenantId', 'test', 'data']);
        expect(envelope(first!.text)).toEqual({
          event: 'verification.completed',
          timestamp: createdAt.toISOString(),
          tenantId: bed.tenantId,
          test: false,
          data: {
            sessionId: withUser.sessionId,
            verified: true,
            verificationMode: 'L1',
            challengeAge: 25,
            timestamp: createdAt.toISOString(),
            externalUserId: 'user-42',
            eventId,
          },
        });
        expect(first!.eventId).toBe(eventId);
        expect(envelope(second!.text).data).not.toHaveProperty('externalUserId');
        expect(envelope(second!.text).data.eventId).toBe(otherId);
      });

      test('timeout: envelope timestamp and data.timestamp are the session deadline; expiresAt and eventId present', async () => {
        await isolate();
        const path = fresh('timeout');
        await bed.endpoint(path, ['session.timeout']);
        const { sessionId } = await bed.session();
        const [session] = await bed.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
        bed.clock.advance(11 * MIN);
        const eventId = await bed.expire(sessionId);
        await bed.run();
        const body = envelope(bed.receiver.requests(path)[0]!.text);
        expect(body.timestamp).toBe(session!.expiresAt.toISOString());
        expect(body.data).toEqual({
          sessionId,
          verificationMode: 'L1',
          challengeAge: 25,
          expiresAt: session!.expiresAt.toISOString(),
          timestamp: session!.expiresAt.toISOString(),
          eventId,
        });
      });

      test('started/failed/cancelled: timestamp is the send time, fixed at the first send, identical for every endpoint and retry', async () => {
        await isolate();
        const a = fresh('send-time-a');
        const b = fresh('send-time-b');
        await bed.endpoint(a, ['verification.failed', 'verification.cancelled']);
        await bed.endpoint(b, ['verification.failed']);
        bed.receiver.script(b, [{ status: 500 }]);
        const failed = await bed.session();
        const occurred = bed.clock.now();
        const failedId = await bed.complete(failed.sessionId, 'failed');
        const cancelled = await bed.session();
        await bed.complete(cancelled.sessionId, 'cancelled');
        bed.clock.advance(7 * SEC);
        const sentAt = bed.clock.now();
        await bed.run();
        bed.clock.advance(30 * SEC);
        await bed.run(); // b's retry
        const toA = bed.receiver.requests(a).find((r) => r.eventId === failedId)!;
        const toB = bed.receiver.requests(b).filter((r) => r.eventId === failedId);
        expect(toB).toHaveLength(2);
        expect(envelope(toA.text).timestamp).toBe(sentAt.toISOString());
        expect(envelope(toA.text).data.timestamp).toBe(occurred.toISOString());
        expect(envelope(toA.text).data).toMatchObject({ verified: false, reason: 'age_not_met' });
        for (const r of toB) expect(r.text).toBe(toA.text);
        const cancel = envelope(bed.receiver.requests(a).find((r) => r.json?.event === 'verification.cancelled')!.text);
        expect(cancel.data).toMatchObject({ verified: false, reason: 'cancelled' });
      });

      test('sandbox sessions carry test: true', async () => {
        await isolate();
        const path = fresh('sandbox');
        await bed.endpoint(path, ['session.started']);
        await bed.session({ sandbox: true });
        await bed.run();
        expect(envelope(bed.receiver.requests(path)[0]!.text).test).toBe(true);
      });
    });
  });
}
