/**
 * Notices the dashboard shows a tenant (today: "webhook endpoint paused", spec "Webhook endpoint
 * delivery": "Dashboard notice"). A notice about an endpoint is resolved when the endpoint
 * delivers again (resumed or re-enabled).
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import { dashboardNotices } from '../../db/schema';
import { newId } from '../../ids';

export interface Notice {
  tenantId: string;
  endpointId: string | null;
  kind: string;
  message: string;
}

/** Written in the caller's transaction, so the change it reports and the notice commit together. */
export async function addNotice(tx: DbOrTx, notice: Notice, now: Date): Promise<void> {
  await tx.insert(dashboardNotices).values({ id: newId('notice'), ...notice, createdAt: now });
}

export async function resolveEndpointNotices(tx: DbOrTx, endpointId: string, now: Date): Promise<void> {
  await tx
    .update(dashboardNotices)
    .set({ resolvedAt: now })
    .where(and(eq(dashboardNotices.endpointId, endpointId), isNull(dashboardNotices.resolvedAt)));
}

/** The dashboard's view: notices, newest first. */
export async function listNotices(db: Db, tenantId: string, options: { includeResolved?: boolean } = {}) {
  const rows = await db
    .select()
    .from(dashboardNotices)
    .where(
      options.includeResolved ? eq(dashboardNotices.tenantId, tenantId) : and(eq(dashboardNotices.tenantId, tenantId), isNull(dashboardNotices.resolvedAt)),
    )
    .orderBy(desc(dashboardNotices.createdAt));
  return rows.map((row) => ({
    noticeId: row.id,
    kind: row.kind,
    endpointId: row.endpointId,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  }));
}
