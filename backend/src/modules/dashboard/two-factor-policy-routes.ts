/**
 * A tenant's two-factor policy (issue 23, decision 0057): whether members who can manage API keys
 * must sign in with a second factor. Every member reads it; only owners change it, and an owner
 * turns it on only with two-factor sign-in on for their own user. dashboard-access.ts enforces it
 * on every tenant route. A change is in the audit trail (policy.two_factor_changed, issue 23).
 */
import { Elysia, t } from 'elysia';
import { eq } from 'drizzle-orm';
import type { TwoFactorPolicy } from '@ageverify/protocol';
import { tenants } from '../../db/schema';
import { changedFields, recordAudit } from '../audit';
import { TENANT_ERRORS } from '../tenants/errors';
import { requireTenant } from '../tenants/service';
import { dashboardAccess } from './dashboard-access';
import type { TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

export function twoFactorPolicyRoutes(deps: TenantRouteDeps) {
  const { db } = deps;
  return new Elysia({ name: 'dashboard-two-factor-policy-routes', prefix: '/dashboard/api/tenants/:tenantId' })
    .use(dashboardAccess(deps))
    .get('/two-factor-policy', async ({ params, access }): Promise<TwoFactorPolicy> => {
      await access.member(params.tenantId, 'read');
      const tenant = await requireTenant(db, params.tenantId);
      return { required: tenant.requireTwoFactor };
    })
    .patch(
      '/two-factor-policy',
      async ({ params, body, access }): Promise<TwoFactorPolicy> => {
        const { user, audit } = await access.member(params.tenantId, 'signInPolicy');
        if (body.required && !user.twoFactorEnabled) throw DASHBOARD_ERRORS.TWO_FACTOR_POLICY_NEEDS_OWN();
        await db.transaction(async (tx) => {
          const [before] = await tx.select().from(tenants).where(eq(tenants.id, params.tenantId)).for('update');
          if (!before) throw TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId: params.tenantId });
          await tx.update(tenants).set({ requireTwoFactor: body.required }).where(eq(tenants.id, params.tenantId));
          const changes = changedFields({ twoFactorRequired: before.requireTwoFactor }, { twoFactorRequired: body.required });
          if (Object.keys(changes).length > 0) {
            await recordAudit(tx, audit, {
              tenantId: params.tenantId,
              action: 'policy.two_factor_changed',
              targetId: params.tenantId,
              targetLabel: before.name,
              changes,
            });
          }
        });
        return { required: body.required };
      },
      { body: t.Object({ required: t.Boolean() }) },
    );
}
