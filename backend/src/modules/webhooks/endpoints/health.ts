/**
 * What the dashboard and the CLI show about delivery (spec "Webhook endpoint" health: "delivery
 * health, last successful delivery, undelivered events, and the time and reason of any pause";
 * docs/decisions-on-open-points.md "Delivery attempts"). Read-only; tenant-scoped.
 */
import { and, asc, count, desc, eq, gte, inArray, max } from 'drizzle-orm';
import type { Endpoint, EventKind } from '@ageverify/protocol';
import type { Db } from '../../../db/database';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { WEBHOOK_ERRORS } from '../errors';
import { DEFAULT_WEBHOOK_SETTINGS } from '../settings';
import { effectiveState } from './endpoint-state';
import { latestRedelivery, redeliveryProgress } from './redelivery';

export type DeliveryHealth = 'healthy' | 'degraded' | 'failing' | 'paused' | 'disabled';

export async function endpointHealth(db: Db, now: Date, tenantId: string, endpointId?: string) {
  const endpoints = await db
    .select()
    .from(webhookEndpoints)
    .where(endpointId ? and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, endpointId)) : eq(webhookEndpoints.tenantId, tenantId))
    .orderBy(asc(webhookEndpoints.createdAt));
  if (endpoints.length === 0) return [];
  const ids = endpoints.map((e) => e.id);
  const byStatus = await db
    .select({ endpointId: webhookDeliveries.endpointId, status: webhookDeliveries.status, n: count(), lastDelivered: max(webhookDeliveries.deliveredAt) })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, ids))
    .groupBy(webhookDeliveries.endpointId, webhookDeliveries.status);
  const windowStart = new Date(now.getTime() - DEFAULT_WEBHOOK_SETTINGS.redeliverWindowMs);
  const recent = await db
    .select({ endpointId: webhookDeliveries.endpointId, n: count() })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.endpointId, ids), eq(webhookDeliveries.status, 'undelivered'), gte(webhookDeliveries.createdAt, windowStart)))
    .groupBy(webhookDeliveries.endpointId);

  const result = [];
  for (const endpoint of endpoints) {
    const rows = byStatus.filter((r) => r.endpointId === endpoint.id);
    const countOf = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
    const lastDelivered = rows.find((r) => r.status === 'delivered')?.lastDelivered ?? null;
    const state = effectiveState(endpoint);
    const health: DeliveryHealth =
      state === 'disabled'
        ? 'disabled'
        : state === 'paused'
          ? 'paused'
          : state === 'retrying'
            ? 'failing'
            : endpoint.consecutiveFailures > 0
              ? 'degraded'
              : 'healthy';
    result.push({
      endpointId: endpoint.id,
      url: endpoint.url,
      legacy: endpoint.legacy,
      enabled: endpoint.enabled,
      state,
      health,
      lastSuccessfulDeliveryAt: lastDelivered?.toISOString() ?? null,
      undeliveredEvents: countOf('undelivered'),
      redeliverableEvents: recent.find((r) => r.endpointId === endpoint.id)?.n ?? 0,
      pendingDeliveries: countOf('pending'),
      deliveredEvents: countOf('delivered'),
      consecutiveFailures: endpoint.consecutiveFailures,
      failingSince: endpoint.failingSince?.toISOString() ?? null,
      lastFailure: endpoint.lastFailureAt ? { at: endpoint.lastFailureAt.toISOString(), reason: endpoint.lastFailureReason } : null,
      nextRetryAt: state === 'retrying' ? (endpoint.retryAt?.toISOString() ?? null) : null,
      pause: endpoint.pausedAt ? { pausedAt: endpoint.pausedAt.toISOString(), reason: endpoint.pauseReason } : null,
      redelivery: await latestRedelivery(db, endpoint.id),
    });
  }
  return result;
}

/**
 * The dashboard's view of a tenant's endpoints (or of one): configuration, health (endpointHealth)
 * and the progress of the latest redelivery. The legacy webhook is not an endpoint here: the
 * dashboard shows it apart, until the first endpoint migrates it (Delivery rule 12).
 */
export async function endpointViews(db: Db, now: Date, tenantId: string, endpointId?: string): Promise<Endpoint[]> {
  const health = await endpointHealth(db, now, tenantId, endpointId);
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(endpointId ? and(eq(webhookEndpoints.tenantId, tenantId), eq(webhookEndpoints.id, endpointId)) : eq(webhookEndpoints.tenantId, tenantId));
  const views: Endpoint[] = [];
  for (const h of health) {
    const row = rows.find((r) => r.id === h.endpointId);
    if (!row || row.legacy) continue;
    views.push({
      endpointId: row.id,
      url: row.url,
      events: row.events as EventKind[],
      pairId: row.pairId,
      enabled: row.enabled,
      state: h.state,
      health: h.health,
      lastSuccessAt: h.lastSuccessfulDeliveryAt,
      undelivered: h.undeliveredEvents,
      pausedAt: h.pause?.pausedAt ?? null,
      pauseReason: h.pause?.reason ?? null,
      createdAt: row.createdAt.toISOString(),
      redelivery: await redeliveryProgress(db, row.id),
    });
  }
  return views;
}

/** One endpoint's view (endpointViews); refused like any look-up of an endpoint the tenant does not have. */
export async function endpointView(db: Db, now: Date, tenantId: string, endpointId: string): Promise<Endpoint> {
  const [view] = await endpointViews(db, now, tenantId, endpointId);
  if (!view) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId, endpointId });
  return view;
}

/** Every delivery of one event and every attempt of each (newest attempt last). Null when the tenant has no such event. */
export async function eventAttempts(db: Db, tenantId: string, eventId: string) {
  const [event] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.tenantId, tenantId)));
  if (!event) return null;
  const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).orderBy(asc(webhookDeliveries.createdAt));
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.eventId, eventId))
    .orderBy(asc(webhookAttempts.startedAt), asc(webhookAttempts.attemptNumber));
  return {
    eventId: event.id,
    kind: event.kind,
    sessionId: event.sessionId,
    createdAt: event.createdAt.toISOString(),
    bodyFixed: event.body !== null,
    deliveries: deliveries.map((d) => ({
      deliveryId: d.id,
      endpointId: d.endpointId,
      url: d.url,
      policy: d.policy,
      status: d.status,
      undeliveredReason: d.undeliveredReason,
      nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
      redeliveryId: d.redeliveryId,
      attempts: attempts.filter((a) => a.deliveryId === d.id).map(attemptView),
    })),
  };
}

/** The latest attempts to one endpoint, including dashboard test events. */
export async function recentAttempts(db: Db, tenantId: string, endpointId: string, limit = 50) {
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.tenantId, tenantId), eq(webhookAttempts.endpointId, endpointId)))
    .orderBy(desc(webhookAttempts.startedAt))
    .limit(limit);
  return rows.map((a) => ({ eventId: a.eventId, purpose: a.purpose, ...attemptView(a) }));
}

/** One recorded attempt as the dashboard and CLI show it. */
function attemptView(a: typeof webhookAttempts.$inferSelect) {
  return {
    attemptNumber: a.attemptNumber,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    statusCode: a.statusCode,
    errorClass: a.errorClass,
    error: a.errorMessage,
    outcome: a.outcome,
  };
}
