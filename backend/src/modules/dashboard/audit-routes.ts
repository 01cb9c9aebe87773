/**
 * The audit trail (issue 23, Deliver 4; modules/audit, decision 0056): the entries of a tenant,
 * newest first, with filters and keyset pages, and the same as a CSV or JSON lines download. Owner
 * and admin only (`audit` in protocol's roles.ts): entries name members and their addresses.
 */
import { Elysia, t } from 'elysia';
import type { AuditResponse } from '@ageverify/protocol';
import { allAuditEntries, AUDIT_EXPORT_MEDIA_TYPES, auditExport, auditExportFilename, listAuditEntries, readExportQuery, readListQuery } from '../audit';
import { requireTenant } from '../tenants/service';
import { dashboardAccess } from './dashboard-access';
import { decodeCursor, encodeCursor, type TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

/** Every parameter is read as text here; the audit module's filters say what is wrong with a value. */
const filterFields = {
  action: t.Optional(t.String({ maxLength: 100 })),
  actor: t.Optional(t.String({ maxLength: 254 })),
  from: t.Optional(t.String({ maxLength: 10 })),
  to: t.Optional(t.String({ maxLength: 10 })),
};

export function auditRoutes(deps: TenantRouteDeps) {
  const { db } = deps;
  return new Elysia({ name: 'dashboard-audit-routes', prefix: '/dashboard/api/tenants/:tenantId/audit' })
    .use(dashboardAccess(deps))
    .get(
      '',
      async ({ params, query, access }): Promise<AuditResponse> => {
        await access.member(params.tenantId, 'audit');
        await requireTenant(db, params.tenantId);
        const { filters, limit } = readListQuery(query);
        const cursor = query.cursor ? decodeCursor(query.cursor) : null;
        if (query.cursor && !cursor) throw DASHBOARD_ERRORS.CURSOR_INVALID();
        const page = await listAuditEntries(db, params.tenantId, filters, cursor && { occurredAt: cursor.createdAt, id: cursor.id }, limit);
        return { entries: page.entries, nextCursor: page.next ? encodeCursor(page.next.occurredAt, page.next.id) : null };
      },
      { query: t.Object({ ...filterFields, cursor: t.Optional(t.String({ maxLength: 500 })), limit: t.Optional(t.String({ maxLength: 10 })) }) },
    )
    .get(
      '/export',
      async ({ params, query, access, set }) => {
        await access.member(params.tenantId, 'audit');
        await requireTenant(db, params.tenantId);
        const { filters, format } = readExportQuery(query);
        const entries = await allAuditEntries(db, params.tenantId, filters);
        set.headers['content-type'] = AUDIT_EXPORT_MEDIA_TYPES[format];
        set.headers['content-disposition'] = `attachment; filename="${auditExportFilename(format, query)}"`;
        return auditExport(entries, format);
      },
      { query: t.Object({ ...filterFields, format: t.Optional(t.String({ maxLength: 10 })) }) },
    );
}
