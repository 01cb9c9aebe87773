/**
 * The worker loop (worker.ts): woken by NOTIFY at commit (PostgreSQL LISTEN, PGlite in-process
 * listen), not by its poll; stops cleanly. Waiting here is for real network I/O to finish, never
 * for retry timing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { silentLogger } from '../../../log';
import { TARGETS } from '../../../testing/test-databases';
import { createTestbed, type Testbed } from '../testing/testbed';
import { createWebhookWorker, type WebhookWorker } from './worker';

async function until(check: () => boolean, timeoutMs = 5_000): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error('timed out waiting');
    await Bun.sleep(5);
  }
  return performance.now() - start;
}

for (const target of TARGETS) {
  describe(`webhook worker [${target}]`, () => {
    let bed: Testbed;
    let worker: WebhookWorker;
    beforeAll(async () => {
      bed = await createTestbed(target);
      // A one-minute poll: anything delivered within the test came from the wake-up.
      worker = createWebhookWorker({
        database: bed.database,
        clock: bed.clock,
        logger: silentLogger,
        guard: bed.guard,
        settings: { pollIntervalMs: 60_000 },
        mailer: null,
      });
      await worker.start();
      await Bun.sleep(50); // the first pass finds nothing and the loop goes to sleep
    });
    afterAll(async () => {
      await worker.stop();
      await bed.close();
    });

    test('an event is delivered as soon as its transaction commits (LISTEN/NOTIFY), without waiting for the poll', async () => {
      await bed.endpoint('/wake', ['verification.completed']);
      const eventId = await bed.complete((await bed.session()).sessionId);
      const waited = await until(() => bed.receiver.requests('/wake').length === 1);
      expect(waited).toBeLessThan(5_000);
      expect(bed.receiver.requests('/wake')[0]!.eventId).toBe(eventId);
    });

    test('a burst is delivered completely, each event once', async () => {
      await bed.endpoint('/burst', ['session.started']);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push((await bed.session()).startedEventId);
      await until(() => bed.receiver.requests('/burst').length >= 30, 10_000);
      await Bun.sleep(50);
      expect(bed.receiver.eventIds('/burst').sort()).toEqual(ids.sort());
      expect(bed.receiver.requests('/burst')).toHaveLength(30);
    });

    test('a row queued without a NOTIFY (a missed wake-up) goes out on wake() or the poll: correctness never needs the NOTIFY', async () => {
      await bed.database.db.delete(webhookEndpoints);
      const { startedEventId } = await bed.session();
      const { endpointId, url } = await bed.endpoint('/missed', ['session.started']);
      await Bun.sleep(50); // the worker is idle, asleep for a minute
      const now = bed.clock.now();
      await bed.database.db.insert(webhookDeliveries).values({
        id: 'dlv_missed_notify',
        tenantId: bed.tenantId,
        eventId: startedEventId,
        endpointId,
        url,
        policy: 'in-request',
        status: 'pending',
        nextAttemptAt: now,
        deadlineAt: new Date(now.getTime() + 86_400_000),
        createdAt: now,
      });
      await Bun.sleep(50);
      expect(bed.receiver.requests('/missed')).toHaveLength(0);
      worker.wake();
      await until(() => bed.receiver.requests('/missed').length === 1);
    });

    test('stop() lets the request in flight finish and record, then claims nothing more', async () => {
      bed.receiver.script('/stop', [{ delayMs: 200 }]);
      const { endpointId } = await bed.endpoint('/stop', ['verification.completed']);
      const eventId = await bed.complete((await bed.session()).sessionId);
      await until(() => bed.receiver.requests('/stop').length === 1);
      await worker.stop();
      expect((await bed.delivery(eventId, endpointId)).status).toBe('delivered');
      await bed.complete((await bed.session()).sessionId);
      await Bun.sleep(100);
      expect(bed.receiver.requests('/stop')).toHaveLength(1);
      await worker.start();
      await until(() => bed.receiver.requests('/stop').length === 2);
    });
  });
}
