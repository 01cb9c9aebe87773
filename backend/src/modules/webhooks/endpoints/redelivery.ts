/**
 * Redeliver (spec Delivery rule 10, a dashboard action): the endpoint's events of the last 7 days
 * that were not delivered are sent again, in batches of up to 500, once the endpoint delivers
 * again. Each keeps its original eventId and body (events.body) and is signed with the endpoint's
 * current secret (Authentication 8), to the URL it was created for (rule 8).
 *
 * A request is a row in webhook_redeliveries. The dispatcher's housekeeping releases its next
 * batch only when the previous batch has settled. While the endpoint is Retrying a batch is paced
 * like any queued event (one request at a time until a 2xx), so a failing endpoint is never
 * flooded; a pause or a disable interrupts the request (the dashboard can ask again).
 */
import { and, asc, desc, eq, gte, lte, ne, or, isNull, sql, count, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/database';
import { webhookDeliveries, webhookEndpoints, webhookRedeliveries } from '../../../db/schema';
import { WEBHOOK_ERRORS } from '../errors';
import { webhookId } from '../ids';
import { wakeDispatchersOnCommit } from '../routing';
import type { WebhookSettings } from '../settings';

function eligible(endpointId: string, windowStart: Date, requestedAt: Date, excludeJob?: string) {
  return and(
    eq(webhookDeliveries.endpointId, endpointId),
    eq(webhookDeliveries.status, 'undelivered'),
    gte(webhookDeliveries.createdAt, windowStart),
    lte(webhookDeliveries.createdAt, requestedAt),
    excludeJob ? or(isNull(webhookDeliveries.redeliveryId), ne(webhookDeliveries.redeliveryId, excludeJob)) : undefined,
  );
}

/**
 * The one refusal rule of sending past events again (Delivery rule 10), for a redelivery and for
 * the resend of one event alike: a Disabled or a Paused endpoint does not deliver, so nothing
 * could go out. Disabled is told first (enabling is what the caller must do before anything else).
 */
export function refuseRedelivery(endpoint: Pick<typeof webhookEndpoints.$inferSelect, 'id' | 'enabled' | 'deliveryState'>): void {
  if (!endpoint.enabled) throw WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_DISABLED({ endpointId: endpoint.id });
  if (endpoint.deliveryState === 'paused') throw WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_PAUSED({ endpointId: endpoint.id });
}

/** Queues a redelivery. Refused for a Paused or Disabled endpoint (refuseRedelivery). */
export async function requestRedelivery(db: Db, now: Date, settings: Pick<WebhookSettings, 'redeliverWindowMs' | 'redeliverBatchSize'>, endpointId: string) {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for('update');
    if (!endpoint) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ endpointId });
    refuseRedelivery(endpoint);
    const [waiting] = await tx
      .select()
      .from(webhookRedeliveries)
      .where(and(eq(webhookRedeliveries.endpointId, endpointId), eq(webhookRedeliveries.status, 'waiting')));
    const windowStart = new Date(now.getTime() - settings.redeliverWindowMs);
    const job = waiting ?? { id: webhookId('redelivery'), requestedAt: now, windowStart };
    if (!waiting) {
      await tx.insert(webhookRedeliveries).values({ id: job.id, tenantId: endpoint.tenantId, endpointId, status: 'waiting', requestedAt: now, windowStart });
    }
    const [found] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(eligible(endpointId, job.windowStart, job.requestedAt, job.id));
    await wakeDispatchersOnCommit(tx);
    const events = found?.n ?? 0;
    return {
      redeliveryId: job.id,
      endpointId,
      alreadyQueued: Boolean(waiting),
      windowStart: job.windowStart.toISOString(),
      undeliveredEvents: events,
      batches: Math.ceil(events / settings.redeliverBatchSize),
      state: endpoint.deliveryState === 'retrying' ? 'queued; paced one request at a time until the endpoint delivers again' : 'queued',
    };
  });
}

/** Housekeeping step: releases the next batch of every waiting request whose endpoint is Active. Returns the deliveries re-armed. */
export async function releaseRedeliveryBatches(db: Db, now: Date, settings: Pick<WebhookSettings, 'redeliverBatchSize' | 'deliveryWindowMs'>): Promise<number> {
  // Every poll runs this: a plain read first, a transaction only when a request is waiting.
  const [any] = await db.select({ id: webhookRedeliveries.id }).from(webhookRedeliveries).where(eq(webhookRedeliveries.status, 'waiting')).limit(1);
  if (!any) return 0;
  return db.transaction(async (tx) => {
    const jobs = await tx
      .select({ job: webhookRedeliveries })
      .from(webhookRedeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookRedeliveries.endpointId))
      // Retrying too: the batch is then paced one request at a time like any queued event, its
      // first row being the request that tells whether the endpoint delivers again.
      .where(
        and(eq(webhookRedeliveries.status, 'waiting'), eq(webhookEndpoints.enabled, true), inArray(webhookEndpoints.deliveryState, ['active', 'retrying'])),
      )
      .orderBy(asc(webhookRedeliveries.requestedAt))
      .limit(20)
      .for('update', { of: webhookRedeliveries, skipLocked: true });
    let released = 0;
    for (const { job } of jobs) {
      const [inFlight] = await tx
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.redeliveryId, job.id), eq(webhookDeliveries.status, 'pending')));
      if ((inFlight?.n ?? 0) > 0) continue; // the previous batch has not settled yet
      const batch = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eligible(job.endpointId, job.windowStart, job.requestedAt, job.id))
        .orderBy(asc(webhookDeliveries.createdAt))
        .limit(settings.redeliverBatchSize)
        .for('update', { skipLocked: true });
      if (batch.length === 0) {
        await tx.update(webhookRedeliveries).set({ status: 'done', finishedAt: now }).where(eq(webhookRedeliveries.id, job.id));
        continue;
      }
      await tx
        .update(webhookDeliveries)
        .set({ ...rearmedDelivery(now, settings.deliveryWindowMs), redeliveryId: job.id })
        .where(
          inArray(
            webhookDeliveries.id,
            batch.map((row) => row.id),
          ),
        );
      await tx
        .update(webhookRedeliveries)
        .set({ batches: sql`${webhookRedeliveries.batches} + 1`, queued: sql`${webhookRedeliveries.queued} + ${batch.length}` })
        .where(eq(webhookRedeliveries.id, job.id));
      released += batch.length;
    }
    if (released > 0) await wakeDispatchersOnCommit(tx);
    return released;
  });
}

/** The latest redelivery request of an endpoint (by request time), or null: what latestRedelivery and redeliveryProgress report on. */
async function latestRequest(db: DbOrTx, endpointId: string) {
  const [job] = await db
    .select()
    .from(webhookRedeliveries)
    .where(eq(webhookRedeliveries.endpointId, endpointId))
    .orderBy(desc(webhookRedeliveries.requestedAt))
    .limit(1);
  return job ?? null;
}

/** The latest redelivery request as the CLI's health shows it: its status, batches released and deliveries queued so far. */
export async function latestRedelivery(db: DbOrTx, endpointId: string) {
  const job = await latestRequest(db, endpointId);
  if (!job) return null;
  return {
    redeliveryId: job.id,
    status: job.status,
    requestedAt: job.requestedAt.toISOString(),
    batches: job.batches,
    queued: job.queued,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    note: job.note,
  };
}

/**
 * The latest redelivery request as progress (the dashboard's endpoint view): the events it covers
 * and how many of them have been delivered. While the request waits, events not yet released into
 * a batch count too (they are what releaseRedeliveryBatches will still send).
 */
export async function redeliveryProgress(db: DbOrTx, endpointId: string): Promise<{ requestedAt: string; total: number; sent: number } | null> {
  const job = await latestRequest(db, endpointId);
  if (!job) return null;
  const [sent] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.redeliveryId, job.id), eq(webhookDeliveries.status, 'delivered')));
  const [waiting] =
    job.status === 'waiting'
      ? await db
          .select({ n: count() })
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.endpointId, endpointId),
              eq(webhookDeliveries.status, 'undelivered'),
              gte(webhookDeliveries.createdAt, job.windowStart),
              or(isNull(webhookDeliveries.redeliveryId), ne(webhookDeliveries.redeliveryId, job.id)),
            ),
          )
      : [{ n: 0 }];
  return { requestedAt: job.requestedAt.toISOString(), total: job.queued + (waiting?.n ?? 0), sent: sent?.n ?? 0 };
}

/**
 * Resends one settled event to one endpoint (the dashboard's "resend" in the delivery log): the
 * same refusals as a redelivery (refuseRedelivery), then the delivery row is re-armed like a
 * redelivery batch row, so the same event id and the body fixed at its first attempt go out again,
 * signed with the current secret. A pending delivery is refused: it is still being delivered.
 *
 * The endpoint is read again under its row lock, like requestRedelivery does: a disable or a pause
 * committed while the resend waits is seen, so a resend never re-arms a delivery for an endpoint
 * that has just stopped delivering (issue 25, item 10).
 */
export async function resendDelivery(
  db: Db,
  now: Date,
  settings: Pick<WebhookSettings, 'deliveryWindowMs'>,
  endpointRef: Pick<typeof webhookEndpoints.$inferSelect, 'id' | 'tenantId'>,
  eventId: string,
): Promise<{ eventId: string }> {
  await db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointRef.id), eq(webhookEndpoints.tenantId, endpointRef.tenantId)))
      .for('update');
    if (!endpoint) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ endpointId: endpointRef.id });
    refuseRedelivery(endpoint);
    const [delivery] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.tenantId, endpoint.tenantId)))
      .for('update');
    if (!delivery) throw WEBHOOK_ERRORS.DELIVERY_NOT_FOUND({ eventId });
    if (delivery.status === 'pending') throw WEBHOOK_ERRORS.DELIVERY_PENDING({ eventId });
    await tx.update(webhookDeliveries).set(rearmedDelivery(now, settings.deliveryWindowMs)).where(eq(webhookDeliveries.id, delivery.id));
    await wakeDispatchersOnCommit(tx);
  });
  return { eventId };
}

/**
 * A settled delivery made due again (Redeliver, and the dashboard's resend of one event): same row,
 * so the same event id and the body fixed at its first attempt; a fresh attempt count and window.
 */
export function rearmedDelivery(now: Date, deliveryWindowMs: number) {
  return {
    status: 'pending' as const,
    undeliveredReason: null,
    settledAt: null,
    attempts: 0,
    nextAttemptAt: now,
    deadlineAt: new Date(now.getTime() + deliveryWindowMs),
    leaseUntil: null,
  };
}
