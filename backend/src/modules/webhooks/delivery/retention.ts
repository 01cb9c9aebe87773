/**
 * Retention of the delivery outbox (issue 14 item 2, docs/decisions/0033-webhook-delivery-at-scale.md):
 * without it, webhook_deliveries, webhook_attempts and events grow with every event ever sent.
 *
 * Removed, oldest first, in batches of `retentionBatchSize` rows per statement:
 * - deliveries with status `delivered` settled more than `retentionMs` ago (default 30 days),
 *   with their attempts (webhook_attempts.delivery_id is ON DELETE CASCADE);
 * - dashboard test attempts (no delivery) started more than `retentionMs` ago;
 * - events created more than `retentionMs` ago that no delivery row refers to any more (delivered
 *   and removed, or never routed to an endpoint).
 *
 * Never removed: a pending delivery (still being sent), an undelivered one (it stays
 * redeliverable for 7 days, spec Delivery rule 10, and is the dashboard's record of what was not
 * delivered), and so never the event of either. `retentionMs` is at least the 7-day redelivery
 * window (settings.ts checks it), so nothing the redelivery window covers is touched either.
 *
 * Each batch is one statement (its own transaction) that locks its rows with SKIP LOCKED, so
 * several instances can run it at once, and it never waits on a row a worker is recording.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { rowsOf } from '../../../db/rows-of';
import { timestamptz as at } from '../../../db/timestamptz';
import type { WebhookSettings } from '../settings';

export interface RetentionResult {
  deliveries: number;
  testAttempts: number;
  events: number;
  /** More rows were due than `maxBatches` allowed; the next run goes on. */
  more: boolean;
}

type RetentionSettings = Pick<WebhookSettings, 'retentionMs' | 'retentionBatchSize'>;

/** Removes what is past retention, at most `maxBatches` statements per table. */
export async function applyRetention(db: Db, now: Date, settings: RetentionSettings, maxBatches = 10): Promise<RetentionResult> {
  const cutoff = new Date(now.getTime() - settings.retentionMs);
  const limit = settings.retentionBatchSize;
  const result: RetentionResult = { deliveries: 0, testAttempts: 0, events: 0, more: false };

  const drain = async (batch: () => Promise<number>): Promise<number> => {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const n = await batch();
      total += n;
      if (n < limit) return total;
    }
    result.more = true;
    return total;
  };

  result.deliveries = await drain(async () =>
    count(
      await db.execute(sql`
        delete from webhook_deliveries where id in (
          select id from webhook_deliveries
          where status = 'delivered' and settled_at < ${at(cutoff)}
          order by settled_at
          limit ${limit}
          for update skip locked)
        returning id`),
    ),
  );
  result.testAttempts = await drain(async () =>
    count(
      await db.execute(sql`
        delete from webhook_attempts where id in (
          select id from webhook_attempts
          where delivery_id is null and started_at < ${at(cutoff)}
          order by started_at
          limit ${limit}
          for update skip locked)
        returning id`),
    ),
  );
  result.events = await drain(async () =>
    count(
      await db.execute(sql`
        delete from events where id in (
          select e.id from events e
          where e.created_at < ${at(cutoff)}
            and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
          order by e.created_at
          limit ${limit}
          for update of e skip locked)
        returning id`),
    ),
  );
  return result;
}

function count(result: unknown): number {
  return rowsOf<unknown>(result).length;
}
