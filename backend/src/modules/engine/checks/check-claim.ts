/**
 * One check at a time per session (issue 19 deliverable 3, decision 0039). A submission claims the
 * session in one guarded UPDATE before the engine runs; while the claim is held every other
 * submission on that session is refused at once with 409 CHECK_IN_PROGRESS, on this instance or
 * any other (the claim is a row's columns, so it works the same on PostgreSQL and PGlite).
 *
 * The same statement reads the attempt caps, and the holder writes its count (a retry, a step-up,
 * a decision) before it lets go: no submission can read the counters while another one's outcome is
 * still unwritten, so parallel requests are no longer free extra draws.
 *
 * A claim carries an expiry so a crashed instance cannot lock a session for good: after
 * `CHECK_CLAIM_LEASE_MS` a new submission may take it over, and the lapsed holder's writes are
 * refused because every write of an outcome is guarded by the claim id.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { CHECK_ATTEMPT_LIMITS } from '@ageverify/protocol';
import type { Db } from '../../../db/database';
import { sessions } from '../../../db/schema';
import type { SessionRow } from '../../sessions/session-state';

/**
 * How long a claim holds without being released. Above a check's worst case, so a live check never
 * loses its claim: the engine pool ends a job after LOAD_TIMEOUT_MS (120 s) on a cold worker and
 * JOB_TIMEOUT_MS (20 s) on a warm one, plus its wait in the queue. Short enough that a session whose
 * instance crashed mid-check can be tried again well within the session's 10 minutes.
 */
export const CHECK_CLAIM_LEASE_MS = 180_000;

export type ClaimOutcome =
  | { claimed: true; claimId: string; session: SessionRow }
  /** Refused: another check holds the session, or a cap is reached. */
  | { claimed: false; why: 'in_progress' | 'cap_reached'; session: SessionRow }
  /** Refused: the session left PENDING (completed, expired) or is gone. */
  | { claimed: false; why: 'not_pending'; session: SessionRow | undefined };

/** Pure: is a cap already reached (CHECK_ATTEMPT_LIMITS)? */
export function capReached(session: Pick<SessionRow, 'checkRetries' | 'checkDecisions'>): boolean {
  return session.checkRetries >= CHECK_ATTEMPT_LIMITS.qualityRetries || session.checkDecisions >= CHECK_ATTEMPT_LIMITS.decisions;
}

/** Pure: does a claim hold at `now`? */
export function claimHeld(session: Pick<SessionRow, 'checkClaimId' | 'checkClaimExpiresAt'>, now: Date): boolean {
  return session.checkClaimId !== null && session.checkClaimExpiresAt !== null && session.checkClaimExpiresAt > now;
}

/**
 * Claims the session for one check: succeeds only when it is PENDING, no unexpired claim is held and
 * no cap is reached, all in one statement, so of parallel submissions exactly one wins.
 */
export async function claimCheck(db: Db, sessionId: string, now: Date): Promise<ClaimOutcome> {
  const claimId = randomUUID();
  const [row] = await db
    .update(sessions)
    .set({ checkClaimId: claimId, checkClaimExpiresAt: new Date(now.getTime() + CHECK_CLAIM_LEASE_MS) })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.state, 'PENDING'),
        unclaimed(now),
        lt(sessions.checkRetries, CHECK_ATTEMPT_LIMITS.qualityRetries),
        lt(sessions.checkDecisions, CHECK_ATTEMPT_LIMITS.decisions),
      ),
    )
    .returning();
  if (row) return { claimed: true, claimId, session: row };
  // Why it was refused, read afterwards: the claim test comes first, so a cap reached by the
  // running check's outcome is reported to the next submission, not to this parallel one.
  const [latest] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
  if (latest?.state !== 'PENDING') return { claimed: false, why: 'not_pending', session: latest };
  if (claimHeld(latest, now)) return { claimed: false, why: 'in_progress', session: latest };
  return { claimed: false, why: 'cap_reached', session: latest };
}

/** The WHERE part that no check holds the session at `now`: no claim, or one whose lease ran out. */
export function unclaimed(now: Date): SQL {
  return or(isNull(sessions.checkClaimId), lte(sessions.checkClaimExpiresAt, now))!;
}

/** The WHERE of every write made on behalf of a claim: the session is PENDING and still ours. */
export function heldBy(sessionId: string, claimId: string): SQL {
  return and(eq(sessions.id, sessionId), eq(sessions.state, 'PENDING'), eq(sessions.checkClaimId, claimId))!;
}

/** The columns that let go of a claim, to set in the same UPDATE as the outcome's count. */
export const RELEASED = { checkClaimId: null, checkClaimExpiresAt: null } as const;

/**
 * Lets go of a claim without counting anything (the engine refused the job, or failed): the
 * submission did not reach an outcome, so it counts for no cap. A no-op when the claim lapsed.
 */
export async function releaseCheck(db: Db, sessionId: string, claimId: string): Promise<void> {
  await db
    .update(sessions)
    .set(RELEASED)
    .where(and(eq(sessions.id, sessionId), eq(sessions.checkClaimId, claimId)));
}

/** SQL increment of a counter column, for the outcome's UPDATE. */
export const plusOne = (column: typeof sessions.checkRetries | typeof sessions.checkDecisions) => sql`${column} + 1`;
