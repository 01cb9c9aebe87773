/**
 * The audit trail screen's DOM-free parts: the query string of its filters (the listing's and the
 * export's are the same filters, docs/dashboard-api.md "Audit trail"), and how a changed value reads.
 */
import type { AuditExportFormat, AuditValue } from '@ageverify/protocol';

export interface AuditFilterValues {
  /** An action, a group, or '' for every action. */
  action: string;
  /** cli, system, an email or a user id; '' for anyone. */
  actor: string;
  /** YYYY-MM-DD or ''. */
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilterValues = { action: '', actor: '', from: '', to: '' };

/** `action=key&from=2026-05-01`: only the filters that are set, then `extra` (a cursor, a format). */
export function auditSearch(filters: AuditFilterValues, extra: Record<string, string | null | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...extra })) {
    const text = value?.trim();
    if (text) params.set(name, text);
  }
  return params.toString();
}

/** The tenant path of an export with these filters. */
export function auditExportPath(filters: AuditFilterValues, format: AuditExportFormat): string {
  return `/audit/export?${auditSearch(filters, { format })}`;
}

/** A value before or after a change as one line of text; null (none) as `—`. */
export function auditValueText(value: AuditValue): string {
  if (value === null) return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.join(', ');
  return String(value);
}
