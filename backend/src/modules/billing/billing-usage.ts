/**
 * The monthly allowance counter (issue 14). Replaces a count(*) over the tenant's sessions of the
 * month, whose cost grew with the month's history (290 ms at 1M sessions), with one guarded upsert
 * on a counter row per tenant, month and sandbox/live (db/schema.ts billingUsage).
 *
 * Decide, then apply: `allowanceFor` says how many sessions the plan lets count this month; the
 * upsert counts the new session only while the counter is below it, atomically (the row lock
 * serialises concurrent creates of all instances), and the caller turns "counted or not" into the
 * billing block with `decideBillingBlock`, whose rules stay the single source of the semantics.
 */
import { and, count, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import type { DbOrTx } from '../../db/database';
import { rowsOf } from '../../db/rows-of';
import { timestamptz } from '../../db/timestamptz';
import { monthStart, type PlanFacts } from './billing-gate';

/**
 * How many sessions may count this month: null for no limit, 0 when none may (a live session on an
 * inactive plan is blocked whatever the count, and a blocked session is never counted).
 */
export function allowanceFor(plan: PlanFacts, sandbox: boolean): number | null {
  if (sandbox) return plan.planSandboxAllowance;
  if (!plan.planActive) return 0;
  return plan.planMonthlyAllowance;
}

/**
 * Counts one session against the allowance if it is below it. Not called for an unlimited
 * allowance: the counter row's lock is held until the create commits (WAL flush included), so
 * counting would queue all of a tenant's creates behind one another for nothing;
 * `recountUsage` rebuilds the counters when an allowance is set. Returns how many sessions had counted
 * this month before this one: the number `decideBillingBlock` takes. When the allowance is
 * exhausted nothing is counted and the allowance itself is returned (so the decision blocks).
 */
export async function countAgainstAllowance(tx: DbOrTx, key: { tenantId: string; sandbox: boolean; now: Date }, allowance: number | null): Promise<number> {
  const limit = allowance === null ? null : Math.max(0, Math.trunc(allowance));
  // The INSERT's own WHERE stops the first row of a month when the allowance is 0; the conflict
  // WHERE stops every later increment at the allowance.
  const result = await tx.execute(sql`
    insert into billing_usage (tenant_id, sandbox, month, used)
    select ${key.tenantId}, ${key.sandbox}, ${timestamptz(monthStart(key.now))}, 1
    where ${limit}::int is null or ${limit}::int > 0
    on conflict (tenant_id, sandbox, month) do update set used = billing_usage.used + 1
    where ${limit}::int is null or billing_usage.used < ${limit}::int
    returning used`);
  const [row] = rowsOf<{ used: number }>(result);
  return row ? Number(row.used) - 1 : (limit ?? 0);
}

/**
 * Rebuilds a tenant's counters from its sessions (every month it has; an administrative action,
 * run when a plan gets an allowance, so that sessions created while it was unlimited count).
 * A create already in flight at that moment, decided under the unlimited plan, may be missed:
 * the counter can be short by the creates that overlap the plan change, never over.
 */
export async function recountUsage(db: DbOrTx, tenantId: string): Promise<void> {
  await db.execute(sql`
    insert into billing_usage (tenant_id, sandbox, month, used)
    select tenant_id, sandbox, date_trunc('month', created_at at time zone 'UTC') at time zone 'UTC', count(*)::int
    from sessions where tenant_id = ${tenantId} and billing_block is null group by 1, 2, 3
    on conflict (tenant_id, sandbox, month) do update set used = excluded.used`);
}

/**
 * Verifications this month, live and sandbox, for every plan (issue 23, item 1): the sessions
 * created since the start of the month (UTC) that were not billing-blocked, counted from the
 * sessions themselves, so the figure is the sessions list's. The allowance counter above is kept
 * only for plans with a limit (it serialises creates); this count is a range scan of
 * sessions_tenant_created_idx, paid by the dashboard's overview, never by a create.
 */
export async function verificationsThisMonth(db: DbOrTx, tenantId: string, now: Date): Promise<{ live: number; sandbox: number }> {
  const from = monthStart(now);
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  const rows = await db
    .select({ sandbox: sessions.sandbox, count: count() })
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), gte(sessions.createdAt, from), lt(sessions.createdAt, to), isNull(sessions.billingBlock)))
    .groupBy(sessions.sandbox);
  const of = (sandbox: boolean) => Number(rows.find((row) => row.sandbox === sandbox)?.count ?? 0);
  return { live: of(false), sandbox: of(true) };
}
