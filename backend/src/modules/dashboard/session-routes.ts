/**
 * Sessions (issue 12, Deliver 6): recent sessions with filters and search, and one session with its
 * events. Keyset pagination, newest first, on sessions_tenant_created_idx (tenant_id, created_at);
 * the id breaks ties.
 */
import { Elysia, t } from 'elysia';
import { and, asc, count, desc, eq, gte, lt, ne, or, type SQL } from 'drizzle-orm';
import {
  DASHBOARD_SESSION_STATUSES,
  type DashboardSessionStatus,
  type SessionDetailResponse,
  type SessionsResponse,
  type SessionSummary,
} from '@ageverify/protocol';
import { events, sessions } from '../../db/schema';
import { csvDocument } from '../../http/csv';
import { issueReceipt } from '../receipts/service';
import { SESSION_ERRORS } from '../sessions/errors';
import { dashboardAccess } from './dashboard-access';
import { decodeCursor, encodeCursor, type TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

const PAGE = 50;
/** A CSV export covers at most a year and this many sessions (one response, built in memory). */
const EXPORT_MAX_DAYS = 366;
const EXPORT_MAX_ROWS = 50_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const CSV_COLUMNS = [
  'sessionId',
  'status',
  'verificationMode',
  'challengeAge',
  'externalUserId',
  'sandbox',
  'failureReason',
  'createdAt',
  'completedAt',
] as const;

/** `from`..`to` inclusive, whole UTC days; null when not two valid dates in order within the limit. */
function exportRange(from: string, to: string): { start: Date; end: Date } | null {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(from) || !day.test(to)) return null;
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(new Date(`${to}T00:00:00.000Z`).getTime() + DAY_MS);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end) return null;
  if (start.toISOString().slice(0, 10) !== from || (end.getTime() - start.getTime()) / DAY_MS > EXPORT_MAX_DAYS) return null;
  return { start, end };
}

function statusOf(row: Pick<typeof sessions.$inferSelect, 'state' | 'outcome'>): DashboardSessionStatus {
  return row.state === 'FAILED' && row.outcome === 'cancelled' ? 'CANCELLED' : row.state;
}

/** The filter of one dashboard status: cancelled and failed share the FAILED state, apart by outcome. */
function statusFilter(status: DashboardSessionStatus | undefined): SQL | undefined {
  if (!status) return undefined;
  if (status === 'CANCELLED') return and(eq(sessions.state, 'FAILED'), eq(sessions.outcome, 'cancelled'));
  if (status === 'FAILED') return and(eq(sessions.state, 'FAILED'), ne(sessions.outcome, 'cancelled'));
  return eq(sessions.state, status);
}

function summary(row: typeof sessions.$inferSelect): SessionSummary {
  return {
    sessionId: row.id,
    status: statusOf(row),
    verificationMode: row.verificationMode,
    challengeAge: row.challengeAge,
    externalUserId: row.externalUserId,
    sandbox: row.sandbox,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

export function sessionRoutesForDashboard(deps: TenantRouteDeps) {
  const { db } = deps;
  return (
    new Elysia({ name: 'dashboard-session-routes', prefix: '/dashboard/api/tenants/:tenantId/sessions' })
      .use(dashboardAccess(deps))
      .get(
        '',
        async ({ params, query, access }): Promise<SessionsResponse> => {
          await access.member(params.tenantId, 'read');
          const after = query.cursor ? decodeCursor(query.cursor) : null;
          if (query.cursor && !after) throw DASHBOARD_ERRORS.CURSOR_INVALID();
          const q = query.q?.trim();
          const rows = await db
            .select()
            .from(sessions)
            .where(
              and(
                eq(sessions.tenantId, params.tenantId),
                statusFilter(query.status),
                query.sandbox ? eq(sessions.sandbox, query.sandbox === 'true') : undefined,
                q ? or(eq(sessions.id, q), eq(sessions.externalUserId, q)) : undefined,
                after ? or(lt(sessions.createdAt, after.createdAt), and(eq(sessions.createdAt, after.createdAt), lt(sessions.id, after.id))) : undefined,
              ),
            )
            .orderBy(desc(sessions.createdAt), desc(sessions.id))
            .limit(PAGE + 1);
          const page = rows.slice(0, PAGE);
          const last = page.at(-1);
          return { sessions: page.map(summary), nextCursor: rows.length > PAGE && last ? encodeCursor(last.createdAt, last.id) : null };
        },
        {
          query: t.Object({
            status: t.Optional(t.Union(DASHBOARD_SESSION_STATUSES.map((s) => t.Literal(s)))),
            sandbox: t.Optional(t.Union([t.Literal('true'), t.Literal('false')])),
            q: t.Optional(t.String({ maxLength: 200 })),
            cursor: t.Optional(t.String({ maxLength: 500 })),
          }),
        },
      )
      // Issue 23: the sessions of a date range (UTC days, inclusive) as CSV, newest first.
      .get(
        '/export.csv',
        async ({ params, query, access, set }) => {
          await access.member(params.tenantId, 'read');
          const range = exportRange(query.from, query.to);
          if (!range) throw DASHBOARD_ERRORS.EXPORT_RANGE_INVALID({ maxDays: EXPORT_MAX_DAYS });
          const inRange = and(eq(sessions.tenantId, params.tenantId), gte(sessions.createdAt, range.start), lt(sessions.createdAt, range.end));
          const [{ total }] = (await db.select({ total: count() }).from(sessions).where(inRange)) as [{ total: number }];
          if (Number(total) > EXPORT_MAX_ROWS) throw DASHBOARD_ERRORS.EXPORT_TOO_LARGE({ count: Number(total), max: EXPORT_MAX_ROWS });
          const rows = await db.select().from(sessions).where(inRange).orderBy(desc(sessions.createdAt), desc(sessions.id));
          // externalUserId is the merchant's customers' input: csvDocument defuses formulas.
          const records = rows.map((row) => {
            const view = summary(row);
            return CSV_COLUMNS.map((column) => view[column]);
          });
          set.headers['content-type'] = 'text/csv; charset=utf-8';
          set.headers['content-disposition'] = `attachment; filename="sessions-${query.from}-to-${query.to}.csv"`;
          return csvDocument(CSV_COLUMNS, records);
        },
        { query: t.Object({ from: t.String({ maxLength: 10 }), to: t.String({ maxLength: 10 }) }) },
      )
      .get('/:sessionId', async ({ params, access }): Promise<SessionDetailResponse> => {
        await access.member(params.tenantId, 'read');
        const [row] = await db
          .select()
          .from(sessions)
          .where(and(eq(sessions.id, params.sessionId), eq(sessions.tenantId, params.tenantId)));
        if (!row) throw SESSION_ERRORS.SESSION_NOT_FOUND();
        const rows = await db
          .select({ id: events.id, kind: events.kind, createdAt: events.createdAt, data: events.data })
          .from(events)
          .where(and(eq(events.sessionId, row.id), eq(events.tenantId, params.tenantId)))
          .orderBy(asc(events.createdAt), asc(events.id));
        // The same receipt the validation result carries (issued now if the sweep has not yet).
        const receipt = row.state === 'VERIFIED' || row.state === 'FAILED' ? await issueReceipt(deps, row.id) : null;
        return {
          session: summary(row),
          events: rows.map((e) => ({ eventId: e.id, kind: e.kind, createdAt: e.createdAt.toISOString(), data: e.data })),
          receipt,
        };
      })
  );
}
