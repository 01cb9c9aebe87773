/**
 * Sending past events again (spec Delivery rule 10): one refusal rule for a redelivery and for the
 * resend of one event, the resend itself (same event id, same body, current secret), and the
 * progress of the latest redelivery as the dashboard shows it, on every database target.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { AppError } from '../../../errors/app-error';
import { TARGETS } from '../../../testing/test-databases';
import { WEBHOOK_ERRORS } from '../errors';
import { createTestbed, driveToPaused, type Testbed } from '../testing/testbed';
import { redeliverEndpoint, resendEvent, rotateSecret, setEndpointEnabled } from './endpoint-config';
import type { EndpointRow } from './endpoint-state';
import { latestRedelivery, redeliveryProgress, refuseRedelivery } from './redelivery';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

const MIN = 60_000;

/** The refusal a call ends with, as the HTTP layer and the CLI see it (code, status, message). */
async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('the call was not refused');
}

function thrown(run: () => void) {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return null;
}

describe('refuseRedelivery: the one rule for redeliver and resend', () => {
  const cases: [Pick<EndpointRow, 'enabled' | 'deliveryState'>, string | null][] = [
    [{ enabled: true, deliveryState: 'active' }, null],
    // Retrying is not refused: the request waits and is paced like any queued event.
    [{ enabled: true, deliveryState: 'retrying' }, null],
    [{ enabled: true, deliveryState: 'paused' }, WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_PAUSED.code],
    [{ enabled: false, deliveryState: 'active' }, WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_DISABLED.code],
    // Disabled is told first: enabling comes before test and resume.
    [{ enabled: false, deliveryState: 'paused' }, WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_DISABLED.code],
  ];
  test.each(cases)('%o → %p', (state, code) => {
    expect(thrown(() => refuseRedelivery({ id: 'whe_1', ...state }))).toBe(code);
  });
});

for (const target of TARGETS) {
  describe(`redeliver and resend [${target}]`, () => {
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
    const deps = () => ({ db: bed.database.db, clock: bed.clock, guard: bed.guard, settings: bed.settings });

    test('resend: the same event id and body again, signed with the current secret; the row is re-armed with a fresh window', async () => {
      await isolate();
      const path = fresh('resend');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      const eventId = await bed.complete((await bed.session()).sessionId);
      await bed.run();
      expect(bed.receiver.eventIds(path)).toEqual([eventId]);
      const first = bed.receiver.requests(path)[0]!;

      const { secret } = await rotateSecret(bed.database.db, bed.tenantId, endpointId, TEST_AUDIT);
      bed.receiver.expectSecret(path, secret);
      bed.clock.advance(MIN);
      expect(await resendEvent(deps(), bed.tenantId, endpointId, eventId)).toEqual({ eventId });
      const rearmed = await bed.delivery(eventId, endpointId);
      expect(rearmed).toMatchObject({ status: 'pending', attempts: 0, settledAt: null, undeliveredReason: null, leaseUntil: null });
      expect(rearmed.nextAttemptAt.getTime()).toBe(bed.clock.now().getTime());
      expect(rearmed.deadlineAt.getTime()).toBe(bed.clock.now().getTime() + bed.settings.deliveryWindowMs);

      await bed.run();
      const again = bed.receiver.requests(path);
      expect(again).toHaveLength(2);
      expect(again[1]!.eventId).toBe(eventId);
      expect(again[1]!.text).toBe(first.text);
      expect(again[1]!.serviceSignatureValid).toBe(true);
      expect((await bed.delivery(eventId, endpointId)).status).toBe('delivered');
    });

    test('resend: an event still being delivered, an event the endpoint never had, another endpoint or tenant are refused and change nothing', async () => {
      await isolate();
      const path = fresh('resend-refused');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      const other = await bed.endpoint(fresh('resend-other'), ['session.started']);
      const { sessionId, startedEventId } = await bed.session();
      const eventId = await bed.complete(sessionId);
      const before = await bed.delivery(eventId, endpointId);
      expect(before.status).toBe('pending');

      expect(await refusal(resendEvent(deps(), bed.tenantId, endpointId, eventId))).toEqual({
        code: 'DELIVERY_PENDING',
        status: 409,
        message: `event ${eventId} is still being delivered; wait for it to settle`,
      });
      expect(await bed.delivery(eventId, endpointId)).toEqual(before);
      expect(await refusal(resendEvent(deps(), bed.tenantId, endpointId, 'evt_nope'))).toEqual({
        code: 'DELIVERY_NOT_FOUND',
        status: 404,
        message: 'no delivery of event "evt_nope" to this endpoint',
      });
      // session.started went to the other endpoint only: not a delivery of this one.
      expect((await refusal(resendEvent(deps(), bed.tenantId, endpointId, startedEventId))).code).toBe('DELIVERY_NOT_FOUND');
      expect((await refusal(resendEvent(deps(), bed.tenantId, other.endpointId, eventId))).code).toBe('DELIVERY_NOT_FOUND');
      expect(await refusal(resendEvent(deps(), 'ten_other', endpointId, eventId))).toMatchObject({ status: 404 });
      expect(await bed.delivery(eventId, endpointId)).toEqual(before);
    });

    test('a Disabled endpoint: redeliver and resend are refused with the same code and words, and nothing is re-armed', async () => {
      await isolate();
      const path = fresh('refuse-disabled');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      const eventId = await bed.complete((await bed.session()).sessionId);
      await bed.run();
      await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false, TEST_AUDIT);
      const before = await bed.delivery(eventId, endpointId);

      const redeliver = await refusal(redeliverEndpoint(deps(), bed.tenantId, endpointId));
      const resend = await refusal(resendEvent(deps(), bed.tenantId, endpointId, eventId));
      expect(redeliver).toEqual({
        code: 'REDELIVERY_ENDPOINT_DISABLED',
        status: 409,
        message: `endpoint ${endpointId} is disabled; enable it first, then redeliver`,
      });
      expect(resend).toEqual(redeliver);
      expect(await bed.delivery(eventId, endpointId)).toEqual(before);
      expect(await latestRedelivery(bed.database.db, endpointId)).toBeNull();
    });

    test('resend waits for a disable being committed and is refused, rather than re-arming on the state it read before', async () => {
      await isolate();
      const path = fresh('resend-race');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      const eventId = await bed.complete((await bed.session()).sessionId);
      await bed.run();
      const before = await bed.delivery(eventId, endpointId);
      expect(before.status).toBe('delivered');

      // A disable holds the endpoint's row while the resend starts; it commits a moment later.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let rowLocked!: () => void;
      const locked = new Promise<void>((resolve) => {
        rowLocked = resolve;
      });
      const disabling = bed.database.db.transaction(async (tx) => {
        await tx.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
        rowLocked();
        await held;
      });
      await locked;
      const resend = refusal(resendEvent(deps(), bed.tenantId, endpointId, eventId));
      await Bun.sleep(300);
      release();
      await disabling;

      expect((await resend).code).toBe('REDELIVERY_ENDPOINT_DISABLED');
      expect(await bed.delivery(eventId, endpointId)).toEqual(before);
    });

    test('a Paused endpoint: redeliver and resend are refused with the same code and words, and nothing is re-armed', async () => {
      await isolate();
      const path = fresh('refuse-paused');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      await driveToPaused(bed, endpointId, path);
      const [settled] = await bed.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
      expect(settled!.status).toBe('undelivered');

      const redeliver = await refusal(redeliverEndpoint(deps(), bed.tenantId, endpointId));
      const resend = await refusal(resendEvent(deps(), bed.tenantId, endpointId, settled!.eventId));
      expect(redeliver).toEqual({
        code: 'REDELIVERY_ENDPOINT_PAUSED',
        status: 409,
        message: `endpoint ${endpointId} is paused; use test and resume first, then redeliver`,
      });
      expect(resend).toEqual(redeliver);
      expect(await bed.delivery(settled!.eventId, endpointId)).toEqual(settled!);
    });

    test("redelivery progress: the latest request's events and how many were delivered, the same request as latestRedelivery", async () => {
      await isolate();
      const path = fresh('progress');
      const { endpointId } = await bed.endpoint(path, ['verification.completed']);
      expect(await redeliveryProgress(bed.database.db, endpointId)).toBeNull();

      // Two events missed while disabled, then asked for again.
      await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false, TEST_AUDIT);
      const missed = [await bed.complete((await bed.session()).sessionId), await bed.complete((await bed.session()).sessionId)];
      await bed.run();
      await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, true, TEST_AUDIT);
      bed.clock.advance(MIN);
      const requested = await redeliverEndpoint(deps(), bed.tenantId, endpointId);
      const requestedAt = bed.clock.now().toISOString();
      // Waiting: nothing released yet, so the events still to release are the total.
      expect(await redeliveryProgress(bed.database.db, endpointId)).toEqual({ requestedAt, total: 2, sent: 0 });
      expect(await latestRedelivery(bed.database.db, endpointId)).toMatchObject({ redeliveryId: requested.redeliveryId, requestedAt, queued: 0 });

      await bed.settle();
      expect(bed.receiver.eventIds(path).sort()).toEqual([...missed].sort());
      expect(await redeliveryProgress(bed.database.db, endpointId)).toEqual({ requestedAt, total: 2, sent: 2 });
      expect(await latestRedelivery(bed.database.db, endpointId)).toMatchObject({ redeliveryId: requested.redeliveryId, queued: 2 });

      // A later request is the one shown: one more missed event.
      await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false, TEST_AUDIT);
      await bed.complete((await bed.session()).sessionId);
      await bed.run();
      await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, true, TEST_AUDIT);
      bed.clock.advance(MIN);
      const later = await redeliverEndpoint(deps(), bed.tenantId, endpointId);
      const laterAt = bed.clock.now().toISOString();
      expect(await redeliveryProgress(bed.database.db, endpointId)).toEqual({ requestedAt: laterAt, total: 1, sent: 0 });
      expect(await latestRedelivery(bed.database.db, endpointId)).toMatchObject({ redeliveryId: later.redeliveryId, status: 'waiting' });
    });
  });
}
