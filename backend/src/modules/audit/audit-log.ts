/**
 * Reading the audit trail: a tenant's entries, newest first, filtered (filters.ts). Pages are keyset
 * pages on audit_log_tenant_occurred_idx (tenant_id, occurred_at, id); the id breaks ties.
 */
import { and, count, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { AuditEntryView } from '@ageverify/protocol';
import type { DbOrTx } from '../../db/database';
import { auditLog } from '../../db/schema';
import { AUDIT_ERRORS } from './errors';
import type { AuditFilters } from './filters';

/** An export covers at most this many entries (one response, built in memory). */
export const AUDIT_EXPORT_MAX = 100_000;

type Row = typeof auditLog.$inferSelect;

export interface AuditPosition {
  occurredAt: Date;
  id: string;
}

function entryView(row: Row): AuditEntryView {
  return {
    entryId: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actor: { type: row.actorType, userId: row.actorUserId, email: row.actorEmail },
    ip: row.ip,
    action: row.action,
    targetId: row.targetId,
    targetLabel: row.targetLabel,
    // jsonb keeps its own key order ("to" before "from"); answers read from, then to.
    changes: Object.fromEntries(Object.entries(row.changes).map(([field, change]) => [field, { from: change.from, to: change.to }])),
  };
}

function matching(tenantId: string, filters: AuditFilters): SQL {
  const actor = filters.actor;
  return and(
    eq(auditLog.tenantId, tenantId),
    filters.actions ? inArray(auditLog.action, filters.actions) : undefined,
    actor?.type === 'cli' || actor?.type === 'system' ? eq(auditLog.actorType, actor.type) : undefined,
    actor?.type === 'user' && 'userId' in actor ? eq(auditLog.actorUserId, actor.userId) : undefined,
    actor?.type === 'user' && 'email' in actor ? eq(auditLog.actorEmail, actor.email) : undefined,
    filters.start ? gte(auditLog.occurredAt, filters.start) : undefined,
    filters.end ? lt(auditLog.occurredAt, filters.end) : undefined,
  )!;
}

/** One page of entries after `after` (the last entry of the previous page), and where the next page starts. */
export async function listAuditEntries(
  db: DbOrTx,
  tenantId: string,
  filters: AuditFilters,
  after: AuditPosition | null,
  limit: number,
): Promise<{ entries: AuditEntryView[]; next: AuditPosition | null }> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        matching(tenantId, filters),
        after ? or(lt(auditLog.occurredAt, after.occurredAt), and(eq(auditLog.occurredAt, after.occurredAt), lt(auditLog.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { entries: page.map(entryView), next: rows.length > limit && last ? { occurredAt: last.occurredAt, id: last.id } : null };
}

/** Every matching entry, newest first, for an export; refused when there are more than `max`. */
export async function allAuditEntries(db: DbOrTx, tenantId: string, filters: AuditFilters, max = AUDIT_EXPORT_MAX): Promise<AuditEntryView[]> {
  const where = matching(tenantId, filters);
  const [row] = await db.select({ total: count() }).from(auditLog).where(where);
  const total = Number(row?.total ?? 0);
  if (total > max) throw AUDIT_ERRORS.EXPORT_TOO_LARGE({ count: total, max });
  const rows = await db.select().from(auditLog).where(where).orderBy(desc(auditLog.occurredAt), desc(auditLog.id));
  return rows.map(entryView);
}
