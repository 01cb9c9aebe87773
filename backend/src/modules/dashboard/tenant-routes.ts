/**
 * Tenant routes that are small enough to share a file: overview (plan, usage, notices), allowed
 * domains, the email outbox and try-it. Every handler starts with `access.member` (dashboard-access.ts).
 */
import { Elysia, t } from 'elysia';
import { and, eq, isNull } from 'drizzle-orm';
import {
  type AddDomainResponse,
  can,
  type DomainsResponse,
  type EmailsResponse,
  type OutboxEmail,
  type OverviewResponse,
  type TryItResponse,
} from '@ageverify/protocol';
import { keyPairs, sessions } from '../../db/schema';
import { verificationsThisMonth } from '../billing/billing-usage';
import { listEmails } from '../notifications/email-outbox';
import { listNotices } from '../notifications/dashboard-notices';
import { createSession } from '../sessions/service';
import { addDomain, createKeyPair, listDomains, removeDomain, requireTenant } from '../tenants/service';
import { dashboardAccess } from './dashboard-access';
import { DASHBOARD_ERRORS } from './errors';
import type { TenantRouteDeps } from './deps';

export function tenantRoutes(deps: TenantRouteDeps) {
  const { db, clock } = deps;
  const dashboardUrl = new URL('/dashboard/', deps.publicBaseUrl);
  return new Elysia({ name: 'dashboard-tenant-routes', prefix: '/dashboard/api/tenants/:tenantId' })
    .use(dashboardAccess(deps))
    .get('/overview', async ({ params, access }): Promise<OverviewResponse> => {
      const { role } = await access.member(params.tenantId, 'read');
      const tenant = await requireTenant(db, params.tenantId);
      const usage = await verificationsThisMonth(db, tenant.id, clock.now());
      const notices = await listNotices(db, tenant.id, { includeResolved: true });
      return {
        tenant: { tenantId: tenant.id, name: tenant.name, status: tenant.status },
        role,
        plan: {
          name: tenant.planCode,
          // An inactive plan allows no live session (billing-usage.ts allowanceFor).
          monthlyAllowance: tenant.planActive ? tenant.planMonthlyAllowance : 0,
          usedThisMonth: usage.live,
          sandboxAllowance: tenant.planSandboxAllowance,
          sandboxUsedThisMonth: usage.sandbox,
          billingPortalUrl: tenant.planPortalUrl,
        },
        notices: notices.slice(0, 100).map(({ noticeId, ...notice }) => ({ id: noticeId, ...notice })),
      };
    })
    .get('/domains', async ({ params, access }): Promise<DomainsResponse> => {
      await access.member(params.tenantId, 'read');
      return { domains: await listDomains(db, params.tenantId) };
    })
    .post(
      '/domains',
      async ({ params, body, access, set }): Promise<AddDomainResponse> => {
        const me = await access.member(params.tenantId, 'integrate');
        // A pasted URL is stored as its host; the answer says what was stored (issue 23).
        const added = await addDomain(db, clock, params.tenantId, body.domain, me.audit);
        set.status = 201;
        return { domain: added.domain, reducedFrom: added.reducedFrom, domains: added.domains };
      },
      { body: t.Object({ domain: t.String({ maxLength: 300 }) }) },
    )
    .delete('/domains/:domain', async ({ params, access }): Promise<DomainsResponse> => {
      const me = await access.member(params.tenantId, 'integrate');
      await removeDomain(db, params.tenantId, decodeURIComponent(params.domain), me.audit);
      return { domains: await listDomains(db, params.tenantId) };
    })
    .get('/emails', async ({ params, access }): Promise<EmailsResponse> => {
      await access.member(params.tenantId, 'emails');
      const rows = await listEmails(db, params.tenantId);
      return {
        emails: rows.map((row) => ({
          id: row.emailId,
          to: row.to.join(', '),
          subject: row.subject,
          text: row.text,
          state: row.status as OutboxEmail['state'],
          createdAt: row.createdAt,
          sentAt: row.sentAt,
        })),
      };
    })
    .post('/try-it', async ({ params, access, set }): Promise<TryItResponse> => {
      const me = await access.member(params.tenantId, 'integrate');
      const tenant = await requireTenant(db, params.tenantId);
      // The tenant's sandbox pair with both keys active, made on first use by a role that manages
      // keys: every role may try, but making a key pair is owner/admin work ("Roles").
      const [pair] = await db
        .select({ id: keyPairs.id })
        .from(keyPairs)
        .where(and(eq(keyPairs.tenantId, tenant.id), eq(keyPairs.sandbox, true), isNull(keyPairs.revokedAt), isNull(keyPairs.publishableRevokedAt)))
        .orderBy(keyPairs.createdAt)
        .limit(1);
      if (!pair && !can(me.role, 'keys')) throw DASHBOARD_ERRORS.TRY_IT_NEEDS_SANDBOX_KEYS({ role: me.role });
      const pairId = pair?.id ?? (await createKeyPair(db, clock, tenant.id, true, null, me.audit)).pairId;
      const domains = await listDomains(db, tenant.id);
      // The dashboard's own host is an allowed return for try-it sessions, whatever the tenant's domains.
      const created = await createSession(
        deps,
        { tenantId: tenant.id, pairId, keyType: 'secret', sandbox: true, pairedPublishableActive: true, tenant, domains: [...domains, dashboardUrl.hostname] },
        { returnUrl: dashboardUrl.toString(), merchantName: tenant.name, externalUserId: 'dashboard-try-it' },
      );
      // The return leads to the session's page; its id is known only now.
      await db
        .update(sessions)
        .set({ returnUrl: `${dashboardUrl.toString()}#/sessions/${created.sessionId}` })
        .where(eq(sessions.id, created.sessionId));
      set.status = 201;
      return { sessionId: created.sessionId, verifyUrl: created.verifyUrl };
    });
}
