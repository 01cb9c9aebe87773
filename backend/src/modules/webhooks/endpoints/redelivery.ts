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

/** Queues a redelivery. Refused for a Paused or Disabled endpoint: it does not deliver, so nothing could go out. */
export async function requestRedelivery(db: Db, now: Date, settings: Pick<WebhookSettings, 'redeliverWindowMs' | 'redeliverBatchSize'>, endpointId: string) {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).for('update');
    if (!endpoint) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ endpointId });
    if (!endpoint.enabled) throw WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_DISABLED({ endpointId });
    if (endpoint.deliveryState === 'paused') throw WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_PAUSED({ endpointId });
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

export async function latestRedelivery(db: DbOrTx, endpointId: string) {
  const [job] = await db
    .select()
    .from(webhookRedeliveries)
    .where(eq(webhookRedeliveries.endpointId, endpointId))
    .orderBy(desc(webhookRedeliveries.requestedAt))
    .limit(1);
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
