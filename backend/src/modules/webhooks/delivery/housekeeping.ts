/**
 * What the worker does on every poll besides sending: settle rows that must not wait any longer
 * and release redelivery batches (docs/decisions/0010-webhook-delivery-engine.md, Housekeeping).
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../../db/database';
import { webhookDeliveries } from '../../../db/schema';
import { timestamptz as at } from '../../../db/timestamptz';
import type { Logger } from '../../../log';
import { releaseRedeliveryBatches } from '../endpoints/redelivery';
import type { WebhookSettings } from '../settings';

/**
 * Rows that must not wait any longer: past their 24 h window, or queued for an endpoint that is
 * Paused or Disabled (a routing that raced the transition), and redelivery batches to release.
 */
export async function housekeeping(deps: { db: Db; logger: Logger; settings: WebhookSettings }, now: Date): Promise<void> {
  const { db, settings } = deps;
  await expireOverdue(db, new Date(now.getTime() - settings.expiryGraceMs), now);
  await db.execute(sql`
    update webhook_deliveries d
    set status = 'undelivered',
        undelivered_reason = case when e.enabled then 'endpoint_paused' else 'endpoint_disabled' end,
        settled_at = ${at(now)}
    from webhook_endpoints e
    where e.id = d.endpoint_id and (not e.enabled or e.delivery_state = 'paused')
      and d.status = 'pending' and (d.lease_until is null or d.lease_until <= ${at(now)})`);
  const released = await releaseRedeliveryBatches(db, now, settings);
  if (released > 0) deps.logger.info('webhook redelivery batch released', { deliveries: released });
}

/** Pending rows whose window closed before `cutoff` are recorded as not delivered (spec Delivery rule 3). */
async function expireOverdue(db: DbOrTx, cutoff: Date, now: Date): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'undelivered', undeliveredReason: 'expired', settledAt: now })
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.deadlineAt, cutoff),
        sql`(${webhookDeliveries.leaseUntil} is null or ${webhookDeliveries.leaseUntil} <= ${at(now)})`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}
