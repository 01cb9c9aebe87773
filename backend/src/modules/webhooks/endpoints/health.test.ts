/**
 * What the dashboard and the CLI show, on every database target: per endpoint its state, last
 * successful delivery, pending and undelivered counts and last failure; per event every attempt.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../../db/schema';
import { TARGETS } from '../../../testing/test-databases';
import { createTestbed, type Testbed } from '../testing/testbed';
import { endpointHealth, eventAttempts } from './health';

const MIN = 60_000;

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

    describe('health and attempts', () => {
      test('per endpoint: state, last successful delivery, undelivered count, last failure; per event: every attempt', async () => {
        await isolate();
        const path = fresh('health');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [{ status: 200 }, { status: 500 }, { status: 500 }]);
        const ok = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        const deliveredAt = bed.clock.now().toISOString();
        bed.clock.advance(MIN);
        const failing = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        await bed.step();
        const [health] = await endpointHealth(bed.database.db, bed.clock.now(), bed.tenantId, endpointId);
        expect(health).toMatchObject({
          endpointId,
          state: 'retrying',
          health: 'failing',
          lastSuccessfulDeliveryAt: deliveredAt,
          pendingDeliveries: 1,
          deliveredEvents: 1,
          consecutiveFailures: 2,
          lastFailure: { reason: 'HTTP 500' },
        });
        const detail = await eventAttempts(bed.database.db, bed.tenantId, failing);
        expect(detail!.deliveries[0]!.attempts.map((a) => [a.attemptNumber, a.statusCode, a.errorClass, a.outcome])).toEqual([
          [1, 500, 'http', 'failure'],
          [2, 500, 'http', 'failure'],
        ]);
        expect(detail!.deliveries[0]!.attempts.every((a) => typeof a.durationMs === 'number')).toBe(true);
        expect(await eventAttempts(bed.database.db, 'ten_other', ok)).toBeNull(); // tenant isolation
        await bed.database.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
      });
    });
  });
}
