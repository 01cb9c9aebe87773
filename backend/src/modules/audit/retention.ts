/**
 * How long the audit trail keeps an entry (decision 0056): 400 days, so a year of history is always
 * there (PCI DSS v4 10.5.1 asks for twelve months) with a month to spare for a yearly review. Entries
 * name people and their addresses, so they are not kept for ever; a tenant who must keep more
 * exports the trail (CSV or JSON lines).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/rows-of';
import { timestamptz } from '../../db/timestamptz';

export const AUDIT_RETENTION_DAYS = 400;
const BATCH = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Removes entries older than the retention, oldest first, at most `maxBatches` statements of BATCH
 * rows (the expiry sweeper calls it on every pass, so a backlog drains over a few passes). Each
 * statement skips rows another instance is removing. Returns how many went.
 */
export async function purgeExpiredAuditEntries(db: Db, now: Date, maxBatches = 5): Promise<number> {
  const cutoff = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS);
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const removed = rowsOf<{ id: string }>(
      await db.execute(sql`
        delete from audit_log where id in (
          select id from audit_log where occurred_at < ${timestamptz(cutoff)}
          order by occurred_at limit ${BATCH} for update skip locked
        ) returning id`),
    ).length;
    total += removed;
    if (removed < BATCH) break;
  }
  return total;
}
