/**
 * The delivery log of one endpoint (the dashboard's per-endpoint log): every delivery, newest
 * first, with the exact body sent (events.body: null until fixed, when a completion or timeout is
 * recorded or at another kind's first send) and every attempt of each. Read-only; the endpoint row is the caller's, already read for its tenant (requireEndpoint),
 * so a log is never read across tenants.
 */
import { and, desc, eq, inArray, lt, or } from 'drizzle-orm';
import type { DeliveryStateName, DeliveryView } from '@ageverify/protocol';
import type { DbOrTx } from '../../../db/database';
import { events, webhookAttempts, webhookDeliveries, type webhookEndpoints } from '../../../db/schema';

export const DELIVERY_LOG_PAGE = 50;

/** A position in the log: the createdAt and id of the last delivery of the previous page. */
export interface DeliveryLogPosition {
  createdAt: Date;
  id: string;
}

export interface DeliveryLogPage {
  deliveries: DeliveryView[];
  /** Where the next page starts, or null when this page is the last. */
  next: DeliveryLogPosition | null;
}

export async function deliveryLog(
  db: DbOrTx,
  endpoint: Pick<typeof webhookEndpoints.$inferSelect, 'id' | 'tenantId'>,
  after: DeliveryLogPosition | null,
  pageSize = DELIVERY_LOG_PAGE,
): Promise<DeliveryLogPage> {
  // Keyset pagination, newest first, on webhook_deliveries_endpoint_created_idx.
  const rows = await db
    .select({ delivery: webhookDeliveries, kind: events.kind, sessionId: events.sessionId, body: events.body })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        eq(webhookDeliveries.tenantId, endpoint.tenantId),
        after
          ? or(lt(webhookDeliveries.createdAt, after.createdAt), and(eq(webhookDeliveries.createdAt, after.createdAt), lt(webhookDeliveries.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const attempts = page.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            page.map((r) => r.delivery.id),
          ),
        )
        .orderBy(webhookAttempts.startedAt, webhookAttempts.attemptNumber)
    : [];
  const last = page.at(-1);
  return {
    deliveries: page.map(({ delivery, kind, sessionId, body }) => ({
      eventId: delivery.eventId,
      kind,
      sessionId,
      state: delivery.status as DeliveryStateName,
      createdAt: delivery.createdAt.toISOString(),
      body,
      attempts: attempts
        .filter((a) => a.deliveryId === delivery.id)
        .map((a) => ({
          at: a.startedAt.toISOString(),
          status: a.statusCode,
          durationMs: a.durationMs,
          error: a.outcome === 'success' ? null : (a.errorMessage ?? a.errorClass),
        })),
    })),
    next: rows.length > pageSize && last ? { createdAt: last.delivery.createdAt, id: last.delivery.id } : null,
  };
}
