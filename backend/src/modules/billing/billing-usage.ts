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
import { sql } from 'drizzle-orm';
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
 * Counts one session against the allowance if it is below it. Returns how many sessions had counted
 * this month before this one: the number `decideBillingBlock` takes. When the allowance is
 * exhausted nothing is counted and the allowance itself is returned (so the decision blocks).
 */
export async function countAgainstAllowance(
  tx: DbOrTx,
  key: { tenantId: string; sandbox: boolean; now: Date },
  allowance: number | null,
): Promise<number> {
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
