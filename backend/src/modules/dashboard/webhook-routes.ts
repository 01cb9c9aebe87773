/**
 * Webhook endpoints (issue 12, Deliver 5): the dashboard's routes over the webhooks module's
 * endpoint actions and views (webhooks/endpoints/*), the same functions the CLI calls. Each route
 * parses, authorises and shapes the answer; the rules (rotation, resend and its refusals, the
 * delivery log, redelivery progress) live in the webhooks module. Every role may use these
 * (contract "Roles": developers manage webhook endpoints).
 */
import { Elysia, t } from 'elysia';
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
import { requireTenant } from '../tenants/service';
import { deliveryLog } from '../webhooks/endpoints/delivery-log';
import {
  addEndpoint,
  redeliverEndpoint,
  removeEndpoint,
  requireEndpoint,
  resendEvent,
  rotateSecret,
  setEndpointEnabled,
  updateEndpoint,
} from '../webhooks/endpoints/endpoint-config';
import { endpointView, endpointViews } from '../webhooks/endpoints/health';
import { testEndpoint } from '../webhooks/endpoints/test-endpoint';
import { dashboardAccess } from './dashboard-access';
import { decodeCursor, encodeCursor, type TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

const eventKind = t.Union(EVENT_KINDS.map((kind) => t.Literal(kind)));

export function webhookRoutes(deps: TenantRouteDeps) {
  const { db, clock, guard } = deps;
  const actionDeps = { db, clock, guard, settings: deps.webhookSettings };

  const oneView = (tenantId: string, endpointId: string) => endpointView(db, clock.now(), tenantId, endpointId);

  return new Elysia({ name: 'dashboard-webhook-routes', prefix: '/dashboard/api/tenants/:tenantId/webhooks' })
    .use(dashboardAccess(deps))
    .get('', async ({ params, access }): Promise<WebhooksResponse> => {
      await access.member(params.tenantId, 'read');
      const tenant = await requireTenant(db, params.tenantId);
      const endpoints = await endpointViews(db, clock.now(), tenant.id);
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
        const me = await access.member(params.tenantId, 'integrate');
        const created = await addEndpoint(
          db,
          clock,
          guard,
          { tenantId: params.tenantId, url: body.url, events: body.events, pairId: body.pairId ?? undefined, enabled: true },
          me.audit,
        );
        set.status = 201;
        return { endpoint: await oneView(params.tenantId, created.endpointId), secret: created.secret };
      },
      { body: t.Object({ url: t.String({ maxLength: 2048 }), events: t.Array(eventKind, { maxItems: 20 }), pairId: t.Optional(t.Nullable(t.String())) }) },
    )
    .patch(
      '/:endpointId',
      async ({ params, body, access }): Promise<Endpoint> => {
        const me = await access.member(params.tenantId, 'integrate');
        await updateEndpoint(db, guard, { tenantId: params.tenantId, endpointId: params.endpointId, ...body }, me.audit);
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
      const me = await access.member(params.tenantId, 'integrate');
      await setEndpointEnabled(db, clock, params.tenantId, params.endpointId, true, me.audit);
      return oneView(params.tenantId, params.endpointId);
    })
    .post('/:endpointId/disable', async ({ params, access }): Promise<Endpoint> => {
      const me = await access.member(params.tenantId, 'integrate');
      await setEndpointEnabled(db, clock, params.tenantId, params.endpointId, false, me.audit);
      return oneView(params.tenantId, params.endpointId);
    })
    .delete('/:endpointId', async ({ params, access }): Promise<RemoveEndpointResponse> => {
      const me = await access.member(params.tenantId, 'integrate');
      await removeEndpoint(db, params.tenantId, params.endpointId, me.audit);
      return { endpointId: params.endpointId, removed: true };
    })
    .post('/:endpointId/rotate-secret', async ({ params, access }): Promise<RotateSecretResponse> => {
      const me = await access.member(params.tenantId, 'integrate');
      return rotateSecret(db, params.tenantId, params.endpointId, me.audit);
    })
    .post('/:endpointId/test-and-resume', async ({ params, access }): Promise<TestAndResumeResponse> => {
      const me = await access.member(params.tenantId, 'integrate');
      const result = await testEndpoint(actionDeps, params.tenantId, params.endpointId, me.audit);
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
        const endpoint = await requireEndpoint(db, params.tenantId, params.endpointId);
        const after = query.cursor ? decodeCursor(query.cursor) : null;
        if (query.cursor && !after) throw DASHBOARD_ERRORS.CURSOR_INVALID();
        const page = await deliveryLog(db, endpoint, after);
        return { deliveries: page.deliveries, nextCursor: page.next ? encodeCursor(page.next.createdAt, page.next.id) : null };
      },
      { query: t.Object({ cursor: t.Optional(t.String({ maxLength: 500 })) }) },
    )
    .post('/:endpointId/deliveries/:eventId/resend', async ({ params, access, set }): Promise<ResendEventResponse> => {
      await access.member(params.tenantId, 'integrate');
      const resent = await resendEvent(actionDeps, params.tenantId, params.endpointId, params.eventId);
      set.status = 202;
      return resent;
    });
}
