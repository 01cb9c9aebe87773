/**
 * The dashboard API (issue 12; docs/dashboard-api.md, types in protocol/src/dashboard.ts):
 * JSON under /dashboard/api, separate from the merchant API, never with CORS headers. Routes per
 * area: auth-routes.ts (better-auth, setup, sign-up, invitations, me), tenant-routes.ts (overview,
 * domains, emails, try-it), keys-routes.ts, webhook-routes.ts, session-routes.ts, member-routes.ts,
 * two-factor-policy-routes.ts, traffic-routes.ts (the charts' figures), audit-routes.ts (the audit
 * trail, issue 23).
 * Every tenant route checks the caller's membership and role on each call (dashboard-access.ts).
 */
import { Elysia } from 'elysia';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import type { GuardOptions } from '../webhooks/destinations/destination-guard';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../webhooks/settings';
import type { DashboardAuth } from './auth';
import { auditRoutes } from './audit-routes';
import { authRoutes } from './auth-routes';
import { keysRoutes } from './keys-routes';
import { memberRoutes } from './member-routes';
import { sessionRoutesForDashboard } from './session-routes';
import { tenantRoutes } from './tenant-routes';
import { twoFactorPolicyRoutes } from './two-factor-policy-routes';
import { trafficRoutes } from './traffic-routes';
import { webhookRoutes } from './webhook-routes';

export interface DashboardDeps {
  db: Db;
  clock: Clock;
  serverSecret: string;
  publicBaseUrl: string;
  verifyUrl: string;
  /** DASHBOARD_SIGNUP (config.ts). */
  signupEnabled: boolean;
  guard: GuardOptions;
  webhookSettings?: WebhookSettings;
  clientIp?: (request: Request) => string | null;
}

export function dashboardRoutes(deps: DashboardDeps) {
  let loading: Promise<DashboardAuth> | null = null;
  // better-auth's import costs a boot ~0.5–2.5 s; the first dashboard request pays it instead.
  const auth = () => {
    loading ??= import('./auth').then((module) => module.createAuth(deps));
    return loading;
  };
  const routeDeps = { ...deps, auth, webhookSettings: deps.webhookSettings ?? { ...DEFAULT_WEBHOOK_SETTINGS } };
  return new Elysia({ name: 'dashboard' })
    .use(authRoutes(routeDeps))
    .use(tenantRoutes(routeDeps))
    .use(keysRoutes(routeDeps))
    .use(webhookRoutes(routeDeps))
    .use(sessionRoutesForDashboard(routeDeps))
    .use(memberRoutes(routeDeps))
    .use(twoFactorPolicyRoutes(routeDeps))
    .use(trafficRoutes(routeDeps))
    .use(auditRoutes(routeDeps));
}
