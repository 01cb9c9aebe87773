/**
 * API key pairs (issue 12, Deliver 3): list, create (secret shown once), rename (issue 23), revoke.
 * Owner and admin only; developers read.
 */
import { Elysia, t } from 'elysia';
import { and, eq } from 'drizzle-orm';
import type { CreateKeyPairResponse, KeyPairsResponse, KeyPairView } from '@ageverify/protocol';
import { keyPairs } from '../../db/schema';
import { createKeyPair, renameKeyPair, requireTenant, revokeKeyPair } from '../tenants/service';
import { TENANT_ERRORS } from '../tenants/errors';
import { dashboardAccess } from './dashboard-access';
import type { TenantRouteDeps } from './deps';

function pairView(row: typeof keyPairs.$inferSelect): KeyPairView {
  return {
    pairId: row.id,
    label: row.label,
    sandbox: row.sandbox,
    publishableKey: row.publishableKey,
    secretKeyHint: `sk_${row.sandbox ? 'test' : 'live'}_…${row.secretKeyHint}`,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    publishableRevokedAt: row.publishableRevokedAt?.toISOString() ?? null,
    // docs/decisions-on-open-points.md, 503 row: the secret key still works, but creates cannot assemble a verifyUrl.
    launchUnavailable: row.revokedAt === null && row.publishableRevokedAt !== null,
  };
}

/**
 * The schema bounds the body only; the length rule (trimmed, at most 100 characters) is the
 * service's, whose message says what is wrong (tenants/service.ts normaliseKeyPairLabel).
 */
const labelField = t.Union([t.String({ maxLength: 1000 }), t.Null()]);

export function keysRoutes(deps: TenantRouteDeps) {
  const { db, clock } = deps;
  return new Elysia({ name: 'dashboard-keys-routes', prefix: '/dashboard/api/tenants/:tenantId' })
    .use(dashboardAccess(deps))
    .get('/keys', async ({ params, access }): Promise<KeyPairsResponse> => {
      await access.member(params.tenantId, 'read');
      await requireTenant(db, params.tenantId);
      const rows = await db.select().from(keyPairs).where(eq(keyPairs.tenantId, params.tenantId)).orderBy(keyPairs.createdAt);
      return { pairs: rows.map(pairView) };
    })
    .post(
      '/keys',
      async ({ params, body, access, set }): Promise<CreateKeyPairResponse> => {
        const me = await access.member(params.tenantId, 'keys');
        const pair = await createKeyPair(db, clock, params.tenantId, body.sandbox, body.label, me.audit);
        set.status = 201;
        return { pairId: pair.pairId, label: pair.label, sandbox: pair.sandbox, publishableKey: pair.publishableKey, secretKey: pair.secretKey };
      },
      { body: t.Object({ sandbox: t.Boolean(), label: t.Optional(labelField) }) },
    )
    .patch(
      '/keys/:pairId',
      async ({ params, body, access }): Promise<KeyPairView> => {
        const me = await access.member(params.tenantId, 'keys');
        return pairView(await renameKeyPair(db, params.tenantId, params.pairId, body.label, me.audit));
      },
      { body: t.Object({ label: labelField }) },
    )
    .post(
      '/keys/:pairId/revoke',
      async ({ params, body, access }): Promise<KeyPairView> => {
        const me = await access.member(params.tenantId, 'keys');
        await revokeKeyPair(db, clock, params.tenantId, params.pairId, body.only ?? 'pair', me.audit);
        const [row] = await db
          .select()
          .from(keyPairs)
          .where(and(eq(keyPairs.id, params.pairId), eq(keyPairs.tenantId, params.tenantId)));
        if (!row) throw TENANT_ERRORS.KEY_PAIR_NOT_FOUND({ tenantId: params.tenantId, pairId: params.pairId });
        return pairView(row);
      },
      { body: t.Object({ only: t.Optional(t.Union([t.Literal('pair'), t.Literal('publishable')])) }) },
    );
}
