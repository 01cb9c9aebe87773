/**
 * The session state machine, in one place (docs/engineering-habits.md habit 3; diagram in session-state.md).
 * Every transition is a guarded UPDATE … WHERE state = 'PENDING' in a transaction that also writes
 * the event, so concurrent completions, expiry and several backend instances cannot both win.
 */
import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { CallbackStatus, EventKind } from '@ageverify/protocol';
import type { Db } from '../../db/database';
import { sessions } from '../../db/schema';
import { recordEvent, recordEvents } from '../events/outbox';

export type SessionRow = typeof sessions.$inferSelect;

export const TERMINAL_STATES = ['VERIFIED', 'FAILED', 'EXPIRED'] as const;

const OUTCOME_TRANSITIONS: Record<CallbackStatus, { state: 'VERIFIED' | 'FAILED'; event: EventKind }> = {
  verified: { state: 'VERIFIED', event: 'verification.completed' },
  failed: { state: 'FAILED', event: 'verification.failed' },
  // cancelled is stored as FAILED with outcome `cancelled`: the spec has no CANCELLED state, and
  // the outcome keeps the callback status and event kind apart from a failed check.
  cancelled: { state: 'FAILED', event: 'verification.cancelled' },
};

/** PENDING → VERIFIED | FAILED. Returns the updated row, or null when the session was not PENDING or past its deadline. */
export async function completeSession(db: Db, sessionId: string, outcome: CallbackStatus, now: Date, reason?: string): Promise<SessionRow | null> {
  const { state, event } = OUTCOME_TRANSITIONS[outcome];
  const failureReason = outcome === 'cancelled' ? 'cancelled' : outcome === 'failed' ? (reason ?? 'age_not_met') : null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sessions)
      .set({ state, outcome, failureReason, completedAt: now, receiptDue: true })
      // The deadline is part of the guard: a completion after expiry must not win over the timeout.
      .where(and(eq(sessions.id, sessionId), eq(sessions.state, 'PENDING'), gt(sessions.expiresAt, now)))
      .returning();
    if (!row) return null;
    await recordEvent(tx, { kind: event, session: row, occurredAt: now, createdAt: now, reason: failureReason ?? undefined });
    return row;
  });
}

/** PENDING → EXPIRED once the deadline has passed. The event's timestamp is the deadline (spec "Events" envelope). */
export async function expireSession(db: Db, sessionId: string, now: Date): Promise<SessionRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sessions)
      .set({ state: 'EXPIRED', completedAt: sql`${sessions.expiresAt}` })
      .where(and(eq(sessions.id, sessionId), eq(sessions.state, 'PENDING'), lte(sessions.expiresAt, now)))
      .returning();
    if (!row) return null;
    await recordEvent(tx, { kind: 'session.timeout', session: row, occurredAt: row.expiresAt, createdAt: now });
    return row;
  });
}

/**
 * PENDING → EXPIRED for up to `limit` sessions past their deadline, in one transaction of four
 * statements whatever the batch size (issue 14: one transaction per session managed 300–350/s).
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so concurrent sweeps take disjoint batches instead
 * of queueing, and the UPDATE keeps the PENDING guard: a session expired or completed by someone
 * else in the meantime is not in RETURNING, so each session gets exactly one session.timeout,
 * timestamped at its deadline as in `expireSession`.
 */
export async function expireDueSessions(db: Db, now: Date, limit: number): Promise<SessionRow[]> {
  return db.transaction(async (tx) => {
    // A CTE is evaluated once; `id IN (subquery … LIMIT)` was measured to expire more than the limit.
    const due = tx.$with('due').as(
      tx
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.state, 'PENDING'), lte(sessions.expiresAt, now)))
        .orderBy(asc(sessions.expiresAt))
        .limit(limit)
        .for('update', { skipLocked: true }),
    );
    const rows = await tx
      .with(due)
      .update(sessions)
      .set({ state: 'EXPIRED', completedAt: sql`${sessions.expiresAt}` })
      .from(due)
      .where(and(eq(sessions.id, due.id), eq(sessions.state, 'PENDING'), lte(sessions.expiresAt, now)))
      .returning();
    await recordEvents(
      tx,
      rows.map((row) => ({ kind: 'session.timeout' as const, session: row, occurredAt: row.expiresAt, createdAt: now })),
    );
    return rows;
  });
}

/** Marks a terminal VERIFIED/FAILED session as validated. Exactly one caller gets the row. */
export async function consumeSession(db: Db, sessionId: string, now: Date): Promise<SessionRow | null> {
  const [row] = await db
    .update(sessions)
    .set({ validatedAt: now })
    .where(and(eq(sessions.id, sessionId), inArray(sessions.state, ['VERIFIED', 'FAILED']), isNull(sessions.validatedAt)))
    .returning();
  return row ?? null;
}

/** The session is still PENDING in the table but its deadline has passed. */
export function isPastDeadline(session: Pick<SessionRow, 'expiresAt'>, now: Date): boolean {
  return session.expiresAt.getTime() <= now.getTime();
}

/**
 * The session as of `now`: a PENDING session past its deadline is expired on first touch, so no
 * reader ever depends on the sweeper having run. If another writer changed it first (a racing
 * expiry or completion), the stored row is returned.
 */
export async function sessionAsOf(db: Db, session: SessionRow, now: Date): Promise<SessionRow> {
  if (session.state !== 'PENDING' || !isPastDeadline(session, now)) return session;
  const expired = await expireSession(db, session.id, now);
  if (expired) return expired;
  const [stored] = await db.select().from(sessions).where(eq(sessions.id, session.id));
  return stored ?? session;
}
