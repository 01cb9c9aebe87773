/**
 * The audit trail (issue 23, Deliver 4; decision 0056): every change to a tenant's keys, domains,
 * webhook endpoints, members and roles, policy and plan, with who made it, when, from which address
 * and what changed, never a secret. The rules, one file each:
 *
 * - audit-context.ts: who changes (a dashboard user, "cli", "system"), from where, when: the
 *   `audit` argument every changing function takes.
 * - record.ts: `recordAudit`, called inside the change's own transaction.
 * - changes.ts: the `{ field: { from, to } }` shape of what changed.
 * - no-secrets.ts: what is redacted before anything is written.
 * - filters.ts, audit-log.ts, export.ts: reading it (dashboard listing, CSV and JSON lines).
 * - retention.ts: entries are kept 400 days.
 *
 * A leaf module: it imports no other feature module, so every module that changes audited state
 * can import it. The actions are protocol's (protocol/src/audit.ts).
 */
export { cliAudit, systemAudit, userAudit, type AuditActor, type AuditContext } from './audit-context';
export { changedFields, createdFields, removedFields, type AuditChanges } from './changes';
export { recordAudit, type AuditEntry } from './record';
export { allAuditEntries, listAuditEntries, type AuditPosition } from './audit-log';
export { readExportQuery, readListQuery } from './filters';
export { AUDIT_EXPORT_MEDIA_TYPES, auditExport, auditExportFilename } from './export';
export { purgeExpiredAuditEntries } from './retention';
