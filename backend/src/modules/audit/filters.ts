/**
 * The audit trail's filters (docs/dashboard-api.md "Audit trail"), read from query strings into
 * values the listing uses. Pure: every problem is named, all at once, in the words a 400 answers with.
 */
import {
  AUDIT_ACTION_GROUPS,
  AUDIT_EXPORT_FORMATS,
  AUDIT_PAGE_DEFAULT,
  AUDIT_PAGE_MAX,
  auditActionsOf,
  isAuditAction,
  isAuditActionGroup,
  type AuditAction,
  type AuditExportFormat,
} from '@ageverify/protocol';
import { AUDIT_ERRORS } from './errors';

const DAY_MS = 24 * 60 * 60 * 1000;
const USER_ID = /^usr_[0-9A-Za-z]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export type ActorFilter = { type: 'cli' } | { type: 'system' } | { type: 'user'; userId: string } | { type: 'user'; email: string };

export interface AuditFilters {
  /** The actions to show; null: every action. */
  actions: AuditAction[] | null;
  actor: ActorFilter | null;
  /** occurredAt ≥ start and < end (whole UTC days; `to` is inclusive). */
  start: Date | null;
  end: Date | null;
}

export interface AuditFilterQuery {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
}

/** The start of a UTC day written YYYY-MM-DD, or null when it is no such day (2026-02-30 is none). */
function utcDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const day = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text ? day : null;
}

function readActor(text: string): ActorFilter | null {
  const value = text.trim();
  if (value === 'cli' || value === 'system') return { type: value };
  if (USER_ID.test(value)) return { type: 'user', userId: value };
  if (EMAIL.test(value) && value.length <= 254) return { type: 'user', email: value.toLowerCase() };
  return null;
}

function collect(query: AuditFilterQuery, problems: string[]): AuditFilters {
  const filters: AuditFilters = { actions: null, actor: null, start: null, end: null };
  if (query.action !== undefined && query.action !== '') {
    if (isAuditAction(query.action)) filters.actions = [query.action];
    else if (isAuditActionGroup(query.action)) filters.actions = auditActionsOf(query.action);
    else problems.push(`action must be a group (${AUDIT_ACTION_GROUPS.join(', ')}) or one of their actions, such as key.revoked`);
  }
  if (query.actor !== undefined && query.actor !== '') {
    filters.actor = readActor(query.actor);
    if (!filters.actor) problems.push('actor must be cli, system, a user id (usr_…) or an email address');
  }
  if (query.from !== undefined && query.from !== '') {
    filters.start = utcDay(query.from);
    if (!filters.start) problems.push('from must be a date (YYYY-MM-DD)');
  }
  if (query.to !== undefined && query.to !== '') {
    const day = utcDay(query.to);
    if (day) filters.end = new Date(day.getTime() + DAY_MS);
    else problems.push('to must be a date (YYYY-MM-DD)');
  }
  if (filters.start && filters.end && filters.start >= filters.end) problems.push('from must be no later than to');
  return filters;
}

function refuseIfAny(problems: string[]): void {
  if (problems.length > 0) throw AUDIT_ERRORS.FILTER_INVALID({ problems });
}

/** The listing's query: the filters, and the page size (`limit`, default AUDIT_PAGE_DEFAULT). */
export function readListQuery(query: AuditFilterQuery & { limit?: string }): { filters: AuditFilters; limit: number } {
  const problems: string[] = [];
  const filters = collect(query, problems);
  let limit = AUDIT_PAGE_DEFAULT;
  if (query.limit !== undefined) {
    limit = /^\d{1,4}$/.test(query.limit) ? Number(query.limit) : Number.NaN;
    if (!(limit >= 1 && limit <= AUDIT_PAGE_MAX)) problems.push(`limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`);
  }
  refuseIfAny(problems);
  return { filters, limit };
}

/** The export's query: the filters and the format (required). */
export function readExportQuery(query: AuditFilterQuery & { format?: string }): { filters: AuditFilters; format: AuditExportFormat } {
  const problems: string[] = [];
  const filters = collect(query, problems);
  const format = (AUDIT_EXPORT_FORMATS as readonly string[]).includes(query.format ?? '') ? (query.format as AuditExportFormat) : null;
  if (!format) problems.push(`format must be one of: ${AUDIT_EXPORT_FORMATS.join(', ')}`);
  refuseIfAny(problems);
  return { filters, format: format! };
}
