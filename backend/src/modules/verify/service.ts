/**
 * The verify UI's side of a session: load it with its sessionToken, and for sandbox sessions
 * choose the outcome (DESIGN.md §2 sandboxMode: "the outcome is chosen by the tester").
 * What the UI shows comes from the stored session, never from verifyUrl display parameters.
 */
import { eq } from 'drizzle-orm';
import type { SimulateResult, SimulatedOutcome, VerifySessionView, VerificationMode, SessionState } from '@ageverify/protocol';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { sessions } from '../../db/schema';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../../http/http-error';
import { verifyToken } from '../sessions/session-tokens';
import { completeSession, expireSession, isPastDeadline, type SessionRow } from '../sessions/session-state';
import { callbackStatusOf, callbackUrl } from '../sessions/callback-url';

export interface VerifyDeps {
  db: Db;
  clock: Clock;
  serverSecret: string;
}

async function loadWithToken(deps: VerifyDeps, sessionId: string, sessionToken: string): Promise<SessionRow> {
  const [session] = await deps.db.select().from(sessions).where(eq(sessions.id, sessionId));
  // Unknown session and wrong token are told apart: the id alone is not a secret worth hiding here,
  // and the user needs to know whether the link is broken or stale.
  if (!session) throw notFound('Session not found');
  if (!verifyToken(deps.serverSecret, 'session', sessionToken, { id: session.id, expiresAt: session.expiresAt, storedHash: session.sessionTokenHash })) {
    throw unauthorized('Invalid session token');
  }
  const now = deps.clock.now();
  if (session.state === 'PENDING' && isPastDeadline(session, now)) {
    return (await expireSession(deps.db, session.id, now)) ?? (await reload(deps.db, session.id));
  }
  return session;
}

async function reload(db: Db, sessionId: string): Promise<SessionRow> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
  if (!row) throw notFound('Session not found');
  return row;
}

/** Where a user lands when the session is already over (spec: after expiry, status=failed). */
function terminalRedirect(session: SessionRow): string | null {
  const status = callbackStatusOf(session);
  return status ? callbackUrl(session, status, session.completedAt ?? session.expiresAt) : null;
}

export async function loadSessionView(deps: VerifyDeps, sessionId: string, sessionToken: string): Promise<VerifySessionView> {
  const session = await loadWithToken(deps, sessionId, sessionToken);
  return {
    sessionId: session.id,
    state: session.state as SessionState,
    merchantName: session.merchantName,
    verificationMode: session.verificationMode as VerificationMode,
    challengeAge: session.challengeAge,
    faceMatchEnabled: session.faceMatchEnabled,
    sandboxMode: session.sandbox,
    expiresAt: session.expiresAt.toISOString(),
    billingBlock: (session.billingBlock as VerifySessionView['billingBlock']) ?? null,
    redirectUrl: terminalRedirect(session),
  };
}

export async function simulateOutcome(deps: VerifyDeps, sessionId: string, sessionToken: string, outcome: SimulatedOutcome): Promise<SimulateResult> {
  const session = await loadWithToken(deps, sessionId, sessionToken);
  if (!session.sandbox) throw forbidden('Outcomes can only be simulated for sandbox sessions');
  if (session.billingBlock) throw forbidden('This session is blocked by billing; no check can start');
  if (session.state === 'EXPIRED') return { redirectUrl: terminalRedirect(session)!, status: 'failed' };
  if (session.state !== 'PENDING') throw conflict(`Session is already completed (status ${callbackStatusOf(session)})`);

  const now = deps.clock.now();
  const completed = await completeSession(deps.db, session.id, outcome, now);
  if (!completed) {
    // Lost a race with another completion or with expiry: report what actually happened.
    const current = await reload(deps.db, session.id);
    if (current.state === 'EXPIRED') return { redirectUrl: terminalRedirect(current)!, status: 'failed' };
    throw new HttpError(409, `Session is already completed (status ${callbackStatusOf(current)})`);
  }
  return { redirectUrl: callbackUrl(completed, outcome, now), status: outcome };
}
