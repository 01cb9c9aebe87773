/**
 * The delivery log of one endpoint, on every database target: newest first in keyset pages that
 * neither repeat nor skip a delivery, each with its exact body and every attempt, and only the
 * endpoint's own deliveries of its own tenant.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../../db/schema';
import { TARGETS } from '../../../testing/test-databases';
import { createTestbed, type Testbed } from '../testing/testbed';
import { deliveryLog, type DeliveryLogPosition } from './delivery-log';
import { requireEndpoint } from './endpoint-config';

const SEC = 1000;

for (const target of TARGETS) {
  describe(`delivery log [${target}]`, () => {
    let bed: Testbed;
    beforeAll(async () => {
      bed = await createTestbed(target);
    });
    afterAll(() => bed.close());

    let pathCounter = 0;
    const fresh = (name: string) => `/${name}-${++pathCounter}`;
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

    test('newest first, in pages that neither repeat nor skip; the last page has no next position', async () => {
      await isolate();
      const path = fresh('log-pages');
      const { endpointId } = await bed.endpoint(path, ['session.started']);
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        // The 3rd and 4th deliveries are made at the same instant and fall on either side of a page
        // boundary: the id orders them, so neither is lost or repeated between pages.
        if (i !== 3) bed.clock.advance(SEC);
        made.push((await bed.session()).startedEventId);
      }
      const endpoint = await requireEndpoint(bed.database.db, bed.tenantId, endpointId);

      const seen: string[] = [];
      let after: DeliveryLogPosition | null = null;
      const pages: number[] = [];
      for (let i = 0; i < 10; i++) {
        const page = await deliveryLog(bed.database.db, endpoint, after, 2);
        pages.push(page.deliveries.length);
        seen.push(...page.deliveries.map((d) => d.eventId));
        after = page.next;
        if (!after) break;
      }
      expect(pages).toEqual([2, 2, 1]);
      expect(seen).toHaveLength(made.length);
      expect(new Set(seen)).toEqual(new Set(made));
      expect([seen[0], seen[3], seen[4]]).toEqual([made[4], made[1], made[0]]);
      expect(new Set(seen.slice(1, 3))).toEqual(new Set([made[2]!, made[3]!]));
      const whole = await deliveryLog(bed.database.db, endpoint, null);
      expect(whole.next).toBeNull();
      expect(whole.deliveries.map((d) => d.eventId)).toEqual(seen);
      // session.started fixes its body at its first send (its timestamp is the send time): none yet.
      expect(whole.deliveries.map((d) => [d.state, d.body])).toEqual(made.map(() => ['pending', null]));
    });

    test('each delivery: its state, the exact body sent and every attempt with its status or error', async () => {
      await isolate();
      const path = fresh('log-attempts');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      bed.receiver.script(path, [{ status: 500 }, { status: 200 }]);
      const { sessionId } = await bed.session();
      const eventId = await bed.complete(sessionId);
      const endpoint = await requireEndpoint(bed.database.db, bed.tenantId, endpointId);

      const [waiting] = (await deliveryLog(bed.database.db, endpoint, null)).deliveries;
      expect(waiting).toEqual({
        eventId,
        kind: 'verification.completed',
        sessionId,
        state: 'pending',
        createdAt: bed.clock.now().toISOString(),
        body: expect.any(String),
        attempts: [],
      });

      await bed.run();
      await bed.step();
      const [delivered] = (await deliveryLog(bed.database.db, endpoint, null)).deliveries;
      const sent = bed.receiver.requests(path);
      expect(sent.map((r) => r.eventId)).toEqual([eventId, eventId]);
      expect(delivered!.state).toBe('delivered');
      // A completion fixes its body when recorded; the body shown is the one every attempt sent, byte for byte.
      expect(delivered!.body).toBe(waiting!.body);
      const body = waiting!.body!;
      expect(sent.map((r) => r.text)).toEqual([body, body]);
      expect(delivered!.attempts).toEqual([
        { at: expect.any(String), status: 500, durationMs: expect.any(Number), error: expect.any(String) },
        { at: expect.any(String), status: 200, durationMs: expect.any(Number), error: null },
      ]);
      expect(Date.parse(delivered!.attempts[0]!.at)).toBeLessThan(Date.parse(delivered!.attempts[1]!.at));
    });

    test("only the endpoint's own deliveries, and none through another tenant", async () => {
      await isolate();
      const mine = await bed.endpoint(fresh('log-mine'), ['session.started']);
      const other = await bed.endpoint(fresh('log-other'), ['session.started']);
      const { startedEventId } = await bed.session();
      const endpoint = await requireEndpoint(bed.database.db, bed.tenantId, mine.endpointId);
      expect((await deliveryLog(bed.database.db, endpoint, null)).deliveries.map((d) => d.eventId)).toEqual([startedEventId]);
      const otherRow = await requireEndpoint(bed.database.db, bed.tenantId, other.endpointId);
      expect((await deliveryLog(bed.database.db, otherRow, null)).deliveries.map((d) => d.eventId)).toEqual([startedEventId]);
      expect((await deliveryLog(bed.database.db, { id: mine.endpointId, tenantId: 'ten_other' }, null)).deliveries).toEqual([]);
    });
  });
}
