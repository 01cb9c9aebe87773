/**
 * The audit trail as a file (issue 23): CSV for spreadsheets, JSON lines for log tools. Both hold
 * the entries as the listing answers them, newest first.
 */
import { AUDIT_CSV_COLUMNS, type AuditEntryView, type AuditExportFormat } from '@ageverify/protocol';
import { csvDocument } from '../../http/csv';

/** One row per entry (AUDIT_CSV_COLUMNS); labels and emails are others' input, so csvDocument defuses formulas. */
export function auditCsv(entries: readonly AuditEntryView[]): string {
  const cells = (entry: AuditEntryView): Record<(typeof AUDIT_CSV_COLUMNS)[number], string | null> => ({
    occurredAt: entry.occurredAt,
    action: entry.action,
    actorType: entry.actor.type,
    actorEmail: entry.actor.email,
    actorUserId: entry.actor.userId,
    ip: entry.ip,
    targetId: entry.targetId,
    targetLabel: entry.targetLabel,
    changes: JSON.stringify(entry.changes),
    entryId: entry.entryId,
  });
  return csvDocument(
    AUDIT_CSV_COLUMNS,
    entries.map((entry) => {
      const row = cells(entry);
      return AUDIT_CSV_COLUMNS.map((column) => row[column]);
    }),
  );
}

/** One JSON object (AuditEntryView) per line, each line ended by \n (jsonlines.org). */
export function auditJsonLines(entries: readonly AuditEntryView[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}

export const AUDIT_EXPORT_MEDIA_TYPES: Record<AuditExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
};

export function auditExport(entries: readonly AuditEntryView[], format: AuditExportFormat): string {
  return format === 'csv' ? auditCsv(entries) : auditJsonLines(entries);
}

/** `audit.csv`, `audit-from-2026-05-01-to-2026-05-31.jsonl`: the range the file covers, as asked. */
export function auditExportFilename(format: AuditExportFormat, range: { from?: string; to?: string }): string {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  const from = range.from && day.test(range.from) ? `-from-${range.from}` : '';
  const to = range.to && day.test(range.to) ? `-to-${range.to}` : '';
  return `audit${from}${to}.${format}`;
}
