/**
 * Retention of the delivery outbox (retention.ts, docs/decisions/0033): delivered rows and spent
 * events go after the window, in batches; pending and undelivered rows (and their events) never
 * do. Time moves through the manual clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { count, eq, inArray } from 'drizzle-orm';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { TARGETS } from '../../../testing/test-databases';
import { webhookSettings } from '../settings';
import { createTestbed, type Testbed } from '../testing/testbed';
import { applyRetention } from './retention';

const DAY = 24 * 60 * 60 * 1000;

for (const target of TARGETS) {
  describe(`webhook retention [${target}]`, () => {
    let bed: Testbed;
    beforeAll(async () => {
      bed = await createTestbed(target);
    });
    afterAll(() => bed.close());

    const db = () => bed.database.db;
    const eventExists = async (id: string) => (await db().select({ id: events.id }).from(events).where(eq(events.id, id))).length === 1;
    const deliveriesOf = async (eventId: string) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
    const attemptsOf = async (deliveryIds: string[]) =>
      deliveryIds.length === 0 ? 0 : (await db().select({ n: count() }).from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)))[0]!.n;

    test('delivered rows and their attempts go after the window, with their events; undelivered and pending rows and their events stay', async () => {
      const ok = await bed.endpoint('/kept-ok', ['verification.completed']);
      const rejecting = await bed.endpoint('/kept-404', ['verification.failed']);
      bed.receiver.script('/kept-404', [], { status: 404 });

      // Delivered: a completion to a 2xx endpoint.
      const delivered = await bed.complete((await bed.session()).sessionId, 'verified');
      // Undelivered: an in-request event rejected with 404 (spec Delivery rule 5: not retried).
      const undelivered = await bed.complete((await bed.session()).sessionId, 'failed');
      // Routed to no endpoint (session.started has no subscriber here).
      const { startedEventId: unrouted } = await bed.session();
      await bed.run();
      const [deliveredRow] = await deliveriesOf(delivered);
      const [undeliveredRow] = await deliveriesOf(undelivered);
      expect(deliveredRow!.status).toBe('delivered');
      expect(deliveredRow!.endpointId).toBe(ok.endpointId);
      expect(undeliveredRow!.status).toBe('undelivered');
      expect(undeliveredRow!.endpointId).toBe(rejecting.endpointId);
      expect(await attemptsOf([deliveredRow!.id])).toBe(1);

      // Pending: a completion whose endpoint answers 500, created late enough to stay in its 24 h window.
      bed.clock.advance(30 * DAY - 60_000);
      await bed.endpoint('/kept-500', ['verification.completed']);
      bed.receiver.script('/kept-500', [], { status: 500 });
      const pending = await bed.complete((await bed.session()).sessionId, 'verified');
      await bed.run();
      const pendingRows = await deliveriesOf(pending);
      expect(pendingRows.some((r) => r.status === 'pending')).toBe(true);

      // One minute before the window closes: nothing goes.
      const settings = webhookSettings(bed.settings);
      expect(await applyRetention(db(), bed.clock.now(), settings)).toEqual({ deliveries: 0, testAttempts: 0, events: 0, more: false });
      expect(await eventExists(unrouted)).toBe(true);

      // Past the window: the delivered row, its attempt and its event go; so does the unrouted event.
      bed.clock.advance(2 * 60_000);
      const removed = await applyRetention(db(), bed.clock.now(), settings);
      expect(removed.deliveries).toBe(1);
      expect(removed.more).toBe(false);
      expect(await deliveriesOf(delivered)).toHaveLength(0);
      expect(await attemptsOf([deliveredRow!.id])).toBe(0);
      expect(await eventExists(delivered)).toBe(false);
      expect(await eventExists(unrouted)).toBe(false);

      // Kept: the undelivered row with its attempt and event, the pending row and its event.
      expect((await deliveriesOf(undelivered))[0]!.status).toBe('undelivered');
      expect(await attemptsOf([undeliveredRow!.id])).toBe(1);
      expect(await eventExists(undelivered)).toBe(true);
      expect((await deliveriesOf(pending)).length).toBe(pendingRows.length);
      expect(await eventExists(pending)).toBe(true);

      // Much later still, the undelivered row stays (only delivered rows are removed).
      bed.clock.advance(365 * DAY);
      await applyRetention(db(), bed.clock.now(), settings);
      expect((await deliveriesOf(undelivered))[0]!.status).toBe('undelivered');
      expect(await eventExists(undelivered)).toBe(true);
    });

    test('a backlog goes in batches: a bounded number per run, the rest at the next run', async () => {
      // Only this test's endpoint: the earlier one's deliveries go with their endpoints.
      await db().delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
      const { endpointId } = await bed.endpoint('/batches', ['verification.completed']);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await bed.complete((await bed.session()).sessionId, 'verified'));
      await bed.run();
      const rows = await db().select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, ids));
      expect(rows.filter((r) => r.endpointId === endpointId && r.status === 'delivered')).toHaveLength(5);

      bed.clock.advance(31 * DAY);
      const small = webhookSettings({ ...bed.settings, retentionBatchSize: 2 });
      const first = await applyRetention(db(), bed.clock.now(), small, 2);
      expect(first.deliveries).toBe(4);
      expect(first.more).toBe(true);
      const second = await applyRetention(db(), bed.clock.now(), small, 2);
      expect(second.deliveries).toBe(1);
      // The events (two per session here: started and completed) take a few more runs.
      let runs = 0;
      while ((await applyRetention(db(), bed.clock.now(), small, 2)).more) expect(++runs).toBeLessThan(20);
      expect(await db().select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, ids))).toHaveLength(0);
      for (const id of ids) expect(await eventExists(id)).toBe(false);
    });

    test('the window cannot be shorter than the 7-day redelivery window', () => {
      expect(() => webhookSettings({ retentionMs: 6 * DAY })).toThrow(/redelivery window/);
      expect(webhookSettings({ retentionMs: 7 * DAY }).retentionMs).toBe(7 * DAY);
    });
  });
}
