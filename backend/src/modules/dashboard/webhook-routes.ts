/**
 * Webhook endpoints (issue 12, Deliver 5): the CLI's service functions (webhooks/endpoints/*) behind
 * the dashboard, plus what the CLI lacked: rotating a secret, the per-endpoint delivery log with
 * every attempt and the exact body, and resending one event. Every role may use these (contract
 * "Roles": developers manage webhook endpoints).
 *
 * Rotation replaces the secret at once (decision 0036): the next attempt, including retries of
 * queued events, is signed with the new secret only.
 */
import { Elysia, t } from 'elysia';
import { and, count, desc, eq, gte, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import {
  EVENT_KINDS,
  WEBHOOK_ENDPOINT_LIMIT,
  type DeliveriesResponse,
  type Endpoint,
  type EventKind,
  type RemoveEndpointResponse,
  type ResendEventResponse,
  type RotateSecretResponse,
  type TestAndResumeResponse,
  type WebhooksResponse,
} from '@ageverify/protocol';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookRedeliveries } from '../../db/schema';
import type { DbOrTx } from '../../db/database';
import { requireTenant } from '../tenants/service';
import { addEndpoint, redeliverEndpoint, removeEndpoint, requireEndpoint, setEndpointEnabled, updateEndpoint } from '../webhooks/endpoints/endpoint-config';
import { endpointHealth } from '../webhooks/endpoints/health';
import { testEndpoint } from '../webhooks/endpoints/test-endpoint';
import { newWebhookSecret } from '../webhooks/ids';
import { rearmedDelivery } from '../webhooks/endpoints/redelivery';
import { wakeDispatchersOnCommit } from '../webhooks/routing';
import { WEBHOOK_ERRORS } from '../webhooks/errors';
import { dashboardAccess } from './dashboard-access';
import { decodeCursor, encodeCursor, type TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

const DELIVERIES_PAGE = 50;
const eventKind = t.Union(EVENT_KINDS.map((kind) => t.Literal(kind)));

export function webhookRoutes(deps: TenantRouteDeps) {
  const { db, clock, guard } = deps;
  const actionDeps = { db, clock, guard, settings: deps.webhookSettings };

  /** The dashboard's view of endpoints: configuration + health (health.ts) + redelivery progress. */
  async function endpointViews(tenantId: string, endpointId?: string): Promise<Endpoint[]> {
    const health = await endpointHealth(db, clock.now(), tenantId, endpointId);
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

  async function oneView(tenantId: string, endpointId: string): Promise<Endpoint> {
    const [view] = await endpointViews(tenantId, endpointId);
    if (!view) throw WEBHOOK_ERRORS.ENDPOINT_NOT_FOUND({ tenantId, endpointId });
    return view;
  }

  return new Elysia({ name: 'dashboard-webhook-routes', prefix: '/dashboard/api/tenants/:tenantId/webhooks' })
    .use(dashboardAccess(deps))
    .get('', async ({ params, access }): Promise<WebhooksResponse> => {
      await access.member(params.tenantId, 'read');
      const tenant = await requireTenant(db, params.tenantId);
      const endpoints = await endpointViews(tenant.id);
      return {
        limit: WEBHOOK_ENDPOINT_LIMIT,
        endpoints,
        // Delivery rule 12: the legacy webhook receives events until the first endpoint is created.
        legacy:
          tenant.legacyWebhookUrl && endpoints.length === 0
            ? { url: tenant.legacyWebhookUrl, events: (tenant.legacyWebhookEvents ?? []) as EventKind[], appliesUntilFirstEndpoint: true }
            : null,
      };
    })
    .post(
      '',
      async ({ params, body, access, set }) => {
        await access.member(params.tenantId, 'integrate');
        const created = await addEndpoint(db, clock, guard, {
          tenantId: params.tenantId,
          url: body.url,
          events: body.events,
          pairId: body.pairId ?? undefined,
          enabled: true,
        });
        set.status = 201;
        return { endpoint: await oneView(params.tenantId, created.endpointId), secret: created.secret };
      },
      { body: t.Object({ url: t.String({ maxLength: 2048 }), events: t.Array(eventKind, { maxItems: 20 }), pairId: t.Optional(t.Nullable(t.String())) }) },
    )
    .patch(
      '/:endpointId',
      async ({ params, body, access }): Promise<Endpoint> => {
        await access.member(params.tenantId, 'integrate');
        await updateEndpoint(db, guard, { tenantId: params.tenantId, endpointId: params.endpointId, ...body });
        return oneView(params.tenantId, params.endpointId);
      },
      {
        body: t.Object({
          url: t.Optional(t.String({ maxLength: 2048 })),
          events: t.Optional(t.Array(eventKind, { maxItems: 20 })),
          pairId: t.Optional(t.Nullable(t.String())),
        }),
      },
    )
    .post('/:endpointId/enable', async ({ params, access }): Promise<Endpoint> => {
      await access.member(params.tenantId, 'integrate');
      await setEndpointEnabled(db, clock, params.tenantId, params.endpointId, true);
      return oneView(params.tenantId, params.endpointId);
    })
    .post('/:endpointId/disable', async ({ params, access }): Promise<Endpoint> => {
      await access.member(params.tenantId, 'integrate');
      await setEndpointEnabled(db, clock, params.tenantId, params.endpointId, false);
      return oneView(params.tenantId, params.endpointId);
    })
    .delete('/:endpointId', async ({ params, access }): Promise<RemoveEndpointResponse> => {
      await access.member(params.tenantId, 'integrate');
      await removeEndpoint(db, params.tenantId, params.endpointId);
      return { endpointId: params.endpointId, removed: true };
    })
    .post('/:endpointId/rotate-secret', async ({ params, access }): Promise<RotateSecretResponse> => {
      await access.member(params.tenantId, 'integrate');
      const row = await requireEndpoint(db, params.tenantId, params.endpointId);
      if (row.legacy) throw WEBHOOK_ERRORS.LEGACY_ENDPOINT_NOT_EDITABLE();
      const secret = newWebhookSecret();
      await db.update(webhookEndpoints).set({ secret }).where(eq(webhookEndpoints.id, row.id));
      return { secret };
    })
    .post('/:endpointId/test-and-resume', async ({ params, access }): Promise<TestAndResumeResponse> => {
      await access.member(params.tenantId, 'integrate');
      const result = await testEndpoint(actionDeps, params.tenantId, params.endpointId);
      return {
        ok: result.delivered,
        status: result.statusCode,
        error: result.delivered ? null : result.error,
        endpoint: await oneView(params.tenantId, params.endpointId),
      };
    })
    .post('/:endpointId/redeliver', async ({ params, access, set }) => {
      await access.member(params.tenantId, 'integrate');
      const result = await redeliverEndpoint(actionDeps, params.tenantId, params.endpointId);
      set.status = 202;
      return { events: result.undeliveredEvents, batches: result.batches };
    })
    .get(
      '/:endpointId/deliveries',
      async ({ params, query, access }): Promise<DeliveriesResponse> => {
        await access.member(params.tenantId, 'read');
        await requireEndpoint(db, params.tenantId, params.endpointId);
        const after = query.cursor ? decodeCursor(query.cursor) : null;
        if (query.cursor && !after) throw DASHBOARD_ERRORS.CURSOR_INVALID();
        // Keyset pagination, newest first, on webhook_deliveries_endpoint_created_idx.
        const rows = await db
          .select({ delivery: webhookDeliveries, kind: events.kind, sessionId: events.sessionId, body: events.body })
          .from(webhookDeliveries)
          .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
          .where(
            and(
              eq(webhookDeliveries.endpointId, params.endpointId),
              eq(webhookDeliveries.tenantId, params.tenantId),
              after
                ? or(
                    lt(webhookDeliveries.createdAt, after.createdAt),
                    and(eq(webhookDeliveries.createdAt, after.createdAt), lt(webhookDeliveries.id, after.id)),
                  )
                : undefined,
            ),
          )
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(DELIVERIES_PAGE + 1);
        const page = rows.slice(0, DELIVERIES_PAGE);
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
            state: delivery.status as 'pending' | 'delivered' | 'undelivered',
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
          nextCursor: rows.length > DELIVERIES_PAGE && last ? encodeCursor(last.delivery.createdAt, last.delivery.id) : null,
        };
      },
      { query: t.Object({ cursor: t.Optional(t.String({ maxLength: 500 })) }) },
    )
    .post('/:endpointId/deliveries/:eventId/resend', async ({ params, access, set }): Promise<ResendEventResponse> => {
      await access.member(params.tenantId, 'integrate');
      const endpoint = await requireEndpoint(db, params.tenantId, params.endpointId);
      // The same refusals as a redelivery (Delivery rule 10): a Paused or Disabled endpoint sends nothing.
      if (!endpoint.enabled) throw WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_DISABLED({ endpointId: endpoint.id });
      if (endpoint.deliveryState === 'paused') throw WEBHOOK_ERRORS.REDELIVERY_ENDPOINT_PAUSED({ endpointId: endpoint.id });
      const now = clock.now();
      await db.transaction(async (tx) => {
        const [delivery] = await tx
          .select()
          .from(webhookDeliveries)
          .where(
            and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.eventId, params.eventId), eq(webhookDeliveries.tenantId, params.tenantId)),
          )
          .for('update');
        if (!delivery) throw DASHBOARD_ERRORS.DELIVERY_NOT_FOUND({ eventId: params.eventId });
        if (delivery.status === 'pending') throw DASHBOARD_ERRORS.DELIVERY_PENDING({ eventId: params.eventId });
        // Re-armed like a redelivery batch row: same event id, the body fixed at the first attempt.
        await tx.update(webhookDeliveries).set(rearmedDelivery(now, deps.webhookSettings.deliveryWindowMs)).where(eq(webhookDeliveries.id, delivery.id));
        await wakeDispatchersOnCommit(tx);
      });
      set.status = 202;
      return { eventId: params.eventId };
    });
}

/** The latest redelivery request of an endpoint as progress: events it covers and how many have been delivered. */
async function redeliveryProgress(db: DbOrTx, endpointId: string) {
  const [job] = await db
    .select()
    .from(webhookRedeliveries)
    .where(eq(webhookRedeliveries.endpointId, endpointId))
    .orderBy(desc(webhookRedeliveries.requestedAt))
    .limit(1);
  if (!job) return null;
  const [sent] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.redeliveryId, job.id), eq(webhookDeliveries.status, 'delivered')));
  // While the request waits, events not yet released into a batch count too.
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
