/**
 * The liveness challenge's life on the server (issue 19 Deliver 1, decision 0062): issued bound to
 * one session with a random order of moves and a short expiry, consumed by the one check that
 * answers it. The session row holds the current challenge, so issuing, replacing and consuming are
 * single guarded UPDATEs that hold across instances on PostgreSQL and PGlite alike.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { CHALLENGE_MOVES, LIVENESS_CAPTURE, type ChallengeMove, type LivenessChallenge } from '@ageverify/protocol';
import type { Db } from '../../../db/database';
import { sessions } from '../../../db/schema';
import { heldBy } from './check-claim';

/** Every move once, in a random order (crypto-strong: the order must not be guessable). */
export function randomMoves(pick: (below: number) => number = randomInt): ChallengeMove[] {
  const moves: ChallengeMove[] = [...CHALLENGE_MOVES];
  for (let i = moves.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [moves[i], moves[j]] = [moves[j]!, moves[i]!];
  }
  return moves;
}

/**
 * Issues the session's challenge, replacing any earlier one. Null when the session is no longer
 * PENDING (the caller reports why, as for a check).
 */
export async function issueChallenge(db: Db, sessionId: string, now: Date, moves: ChallengeMove[] = randomMoves()): Promise<LivenessChallenge | null> {
  const challenge = { challengeId: randomUUID(), moves, expiresAt: new Date(now.getTime() + LIVENESS_CAPTURE.ttlSeconds * 1000) };
  const [row] = await db
    .update(sessions)
    .set({ challengeId: challenge.challengeId, challengeMoves: challenge.moves, challengeExpiresAt: challenge.expiresAt })
    .where(and(eq(sessions.id, sessionId), eq(sessions.state, 'PENDING')))
    .returning({ id: sessions.id });
  return row ? { ...challenge, expiresAt: challenge.expiresAt.toISOString() } : null;
}

export type Consumed = { consumed: true; moves: ChallengeMove[] } | { consumed: false; why: 'not_current' | 'expired' };

/**
 * Uses the challenge up for the check holding the session's claim (check-claim.ts): an UPDATE that
 * matches only the current, unexpired challenge and clears it, so a replay, a superseded challenge
 * or a late one never reaches the engine. The moves are read first (RETURNING gives the cleared
 * row); a challenge id is issued once, so the id still matching means the moves are its own.
 */
export async function consumeChallenge(db: Db, sessionId: string, claimId: string, challengeId: string, now: Date): Promise<Consumed> {
  const [current] = await db.select({ challengeId: sessions.challengeId, moves: sessions.challengeMoves }).from(sessions).where(eq(sessions.id, sessionId));
  if (current?.challengeId !== challengeId || !current.moves) return { consumed: false, why: 'not_current' };
  const [row] = await db
    .update(sessions)
    .set({ challengeId: null, challengeMoves: null, challengeExpiresAt: null })
    .where(and(heldBy(sessionId, claimId), eq(sessions.challengeId, challengeId), gt(sessions.challengeExpiresAt, now)))
    .returning({ id: sessions.id });
  if (row) return { consumed: true, moves: current.moves };
  const [latest] = await db.select({ challengeId: sessions.challengeId }).from(sessions).where(eq(sessions.id, sessionId));
  return { consumed: false, why: latest?.challengeId === challengeId ? 'expired' : 'not_current' };
}
