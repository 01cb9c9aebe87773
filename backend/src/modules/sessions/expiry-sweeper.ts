/**
 * Expires sessions at their 10-minute deadline (spec "Session": PENDING → EXPIRED, event
 * session.timeout with timestamp = the deadline). Safe with several backend instances: candidates
 * are read without locks and each expiry is the guarded transition in session-state.ts, so when two
 * instances race for one session exactly one UPDATE changes a row and writes the event.
 * Validation and the verify UI also expire an overdue session on first touch, so correctness never
 * waits for the sweeper; the sweeper makes session.timeout timely.
 */
import { and, asc, eq, lte } from 'drizzle-orm';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { describeError, type Logger } from '../../log';
import { sessions } from '../../db/schema';
import { deleteClosedWindows } from '../rate-limits/rate-limiter';
import { purgeExpiredIdempotencyKeys } from '../idempotency/service';
import { expireSession } from './session-state';

export async function sweepExpiredSessions(db: Db, now: Date, batchSize = 200): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.state, 'PENDING'), lte(sessions.expiresAt, now)))
      .orderBy(asc(sessions.expiresAt))
      .limit(batchSize);
    for (const { id } of due) if (await expireSession(db, id, now)) expired++;
    if (due.length < batchSize) return expired;
  }
}

export interface Sweeper {
  stop(): Promise<void>;
  /** Runs one pass now (tests, and the first pass at boot). */
  runOnce(): Promise<number>;
}

export function startSweeper(deps: { db: Db; clock: Clock; logger: Logger; intervalMs?: number }): Sweeper {
  let running: Promise<number> | null = null;
  const runOnce = () => {
    running ??= (async () => {
      try {
        const now = deps.clock.now();
        const count = await sweepExpiredSessions(deps.db, now);
        await deleteClosedWindows(deps.db, now);
        // Idempotency-Key results are kept 24 h (issue 15, item 4).
        await purgeExpiredIdempotencyKeys(deps.db, now);
        if (count > 0) deps.logger.info('sessions expired', { count });
        return count;
      } catch (error) {
        deps.logger.error('expiry sweep failed', describeError(error));
        return 0;
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void runOnce(), deps.intervalMs ?? 5_000);
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
