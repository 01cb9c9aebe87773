/**
 * Sessions (issue 12, Deliver 6): recent sessions with filters and search, and one session with its
 * events. Keyset pagination, newest first, on sessions_tenant_created_idx (tenant_id, created_at);
 * the id breaks ties.
 */
import { Elysia, t } from 'elysia';
import { and, asc, desc, eq, lt, or } from 'drizzle-orm';
import { SESSION_STATES, type SessionDetailResponse, type SessionsResponse, type SessionSummary } from '@ageverify/protocol';
import { events, sessions } from '../../db/schema';
import { issueReceipt } from '../receipts/service';
import { SESSION_ERRORS } from '../sessions/errors';
import { dashboardAccess } from './dashboard-access';
import { decodeCursor, encodeCursor, type TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

const PAGE = 50;

function summary(row: typeof sessions.$inferSelect): SessionSummary {
  return {
    sessionId: row.id,
    status: row.state,
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
  return new Elysia({ name: 'dashboard-session-routes', prefix: '/dashboard/api/tenants/:tenantId/sessions' })
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
              query.status ? eq(sessions.state, query.status) : undefined,
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
          status: t.Optional(t.Union(SESSION_STATES.map((s) => t.Literal(s)))),
          sandbox: t.Optional(t.Union([t.Literal('true'), t.Literal('false')])),
          q: t.Optional(t.String({ maxLength: 200 })),
          cursor: t.Optional(t.String({ maxLength: 500 })),
        }),
      },
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
    });
}
