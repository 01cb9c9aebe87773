/**
 * Traffic figures for the dashboard's charts (issue 23, Deliver 2): sessions per day by status
 * with the funnel and the step-up, and webhook deliveries per day with their latency. The rules
 * live in traffic-stats.ts; these routes parse, authorise and answer. Every role may read them.
 */
import { Elysia, t } from 'elysia';
import type { SessionTrafficResponse, WebhookTrafficResponse } from '@ageverify/protocol';
import { requireEndpoint } from '../webhooks/endpoints/endpoint-config';
import { dashboardAccess } from './dashboard-access';
import type { TenantRouteDeps } from './deps';
import { parseDays, sessionTraffic, webhookTraffic } from './traffic-stats';

const DAY_MS = 24 * 60 * 60 * 1000;

export function trafficRoutes(deps: TenantRouteDeps) {
  const { db, clock } = deps;
  return new Elysia({ name: 'dashboard-traffic-routes', prefix: '/dashboard/api/tenants/:tenantId/stats' })
    .use(dashboardAccess(deps))
    .get(
      '/sessions',
      async ({ params, query, access }): Promise<SessionTrafficResponse> => {
        await access.member(params.tenantId, 'read');
        const days = parseDays(query.days);
        const sandbox = query.sandbox === undefined ? null : query.sandbox === 'true';
        return sessionTraffic(db, params.tenantId, clock.now(), days, sandbox);
      },
      {
        query: t.Object({
          days: t.Optional(t.String({ maxLength: 20 })),
          sandbox: t.Optional(t.Union([t.Literal('true'), t.Literal('false')])),
        }),
      },
    )
    .get(
      '/webhooks',
      async ({ params, query, access }): Promise<WebhookTrafficResponse> => {
        await access.member(params.tenantId, 'read');
        const days = parseDays(query.days);
        // Another tenant's endpoint answers like one that does not exist.
        const endpointId = query.endpointId ? (await requireEndpoint(db, params.tenantId, query.endpointId)).id : null;
        const retentionDays = Math.round(deps.webhookSettings.retentionMs / DAY_MS);
        return webhookTraffic(db, params.tenantId, clock.now(), days, endpointId, retentionDays);
      },
      {
        query: t.Object({
          days: t.Optional(t.String({ maxLength: 20 })),
          endpointId: t.Optional(t.String({ maxLength: 100 })),
        }),
      },
    );
}
