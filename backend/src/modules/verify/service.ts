/**
 * The verify UI's side of a session: load it with its sessionToken, and for sandbox sessions
 * choose the outcome (a sandbox session runs no real check: the tester chooses its outcome).
 * What the UI shows comes from the stored session, never from verifyUrl display parameters.
 */
import { and, eq, isNull } from 'drizzle-orm';
import {
  appendParams,
  type CheckKind,
  type SessionStatusResult,
  type SimulateResult,
  type SimulatedOutcome,
  type VerifySessionView,
} from '@ageverify/protocol';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { sessions, tenants } from '../../db/schema';
import { issueToken, verifyToken } from '../sessions/session-tokens';
import { completeSession, sessionAsOf, type SessionRow } from '../sessions/session-state';
import { callbackStatusOf, callbackUrl } from '../sessions/callback-url';
import { SESSION_ERRORS } from '../sessions/errors';
import { VERIFY_ERRORS } from './errors';

export interface VerifyDeps {
  db: Db;
  clock: Clock;
  serverSecret: string;
  /** Address of the verify UI (config VERIFY_URL): the handoff link points there. */
  verifyUrl: string;
}

/** What the verify UI sends: the sessionToken (desktop) or the handoffToken (phone). */
export interface Credentials {
  sessionId: string;
  sessionToken?: string;
  handoffToken?: string;
}

/** A caller whose token matched its session; the session is as of now (expired if past its deadline). */
export interface VerifyCaller {
  session: SessionRow;
  via: 'session' | 'handoff';
}

/** `allow: 'session'`: the operation is for the sessionToken holder (the desktop) only. */
export async function authenticateCaller(deps: VerifyDeps, credentials: Credentials, allow: 'session' | 'either' = 'either'): Promise<VerifyCaller> {
  const { sessionToken, handoffToken } = credentials;
  if ((sessionToken === undefined) === (handoffToken === undefined)) {
    throw allow === 'session' ? VERIFY_ERRORS.SESSION_TOKEN_REQUIRED() : VERIFY_ERRORS.ONE_TOKEN_REQUIRED();
  }
  if (handoffToken !== undefined && allow === 'session') throw VERIFY_ERRORS.HANDOFF_TOKEN_NOT_ALLOWED();
  const [session] = await deps.db.select().from(sessions).where(eq(sessions.id, credentials.sessionId));
  // Unknown session and wrong token are told apart: the id alone is not a secret worth hiding here,
  // and the user needs to know whether the link is broken or stale.
  if (!session) throw SESSION_ERRORS.SESSION_NOT_FOUND();
  const via = sessionToken !== undefined ? 'session' : 'handoff';
  const stored = via === 'session' ? session.sessionTokenHash : session.handoffTokenHash;
  if (!verifyToken(deps.serverSecret, via, (sessionToken ?? handoffToken)!, { id: session.id, expiresAt: session.expiresAt, storedHash: stored })) {
    throw via === 'session' ? VERIFY_ERRORS.INVALID_SESSION_TOKEN() : VERIFY_ERRORS.INVALID_HANDOFF_TOKEN();
  }
  return { session: await sessionAsOf(deps.db, session, deps.clock.now()), via };
}

function handoffUrl(deps: VerifyDeps, session: SessionRow): string {
  const { token } = issueToken(deps.serverSecret, 'handoff', session.id, session.expiresAt);
  return appendParams(deps.verifyUrl, { sessionId: session.id, handoffToken: token });
}

async function reload(db: Db, sessionId: string): Promise<SessionRow> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
  if (!row) throw SESSION_ERRORS.SESSION_NOT_FOUND();
  return row;
}

/** Where a user lands when the session is already over (spec: after expiry, status=failed). */
function terminalRedirect(session: SessionRow): string | null {
  const status = callbackStatusOf(session);
  return status ? callbackUrl(session, status, session.completedAt ?? session.expiresAt) : null;
}

export async function loadSessionView(deps: VerifyDeps, { session, via }: VerifyCaller): Promise<VerifySessionView> {
  // A document is checked against the tenant's legal minimum age, not challengeAge
  // (modules/engine/checks/check-service.ts): the UI needs it to say what a document check proves (issue 23).
  const [tenant] = await deps.db
    .select({ legalMinimumAge: tenants.legalMinimumAge, stepUpAllowed: tenants.policyStepUpAllowed })
    .from(tenants)
    .where(eq(tenants.id, session.tenantId));
  return {
    sessionId: session.id,
    state: session.state,
    merchantName: session.merchantName,
    verificationMode: session.verificationMode,
    challengeAge: session.challengeAge,
    legalMinimumAge: tenant?.legalMinimumAge ?? 18,
    faceMatchEnabled: session.faceMatchEnabled,
    sandboxMode: session.sandbox,
    expiresAt: session.expiresAt.toISOString(),
    billingBlock: session.billingBlock ?? null,
    redirectUrl: terminalRedirect(session),
    handoffUrl: via === 'session' && session.state === 'PENDING' && !session.billingBlock ? handoffUrl(deps, session) : null,
    handoff: via === 'handoff',
    nextCheck: session.state !== 'PENDING' ? null : expectedCheck(session),
    documentInstead: session.state === 'PENDING' && !session.billingBlock && documentInsteadRefusal(session, tenant?.stepUpAllowed ?? true) === null,
  };
}

/** The check a PENDING session expects next: a document for L2, and for L1 after a step-up (modules/engine/checks/check-service.ts). */
export function expectedCheck(session: Pick<SessionRow, 'verificationMode' | 'checkStage'>): CheckKind {
  return session.verificationMode === 'L2' || session.checkStage === 'document' ? 'document' : 'age_estimation';
}

/**
 * Why an L1 session may not leave its face check for a document on the user's request (decision
 * 0063), or null when it may: the document is the check the session would reach at its retry cap
 * (a step-up), so only an account that allows step-up, and only without face match, which needs
 * the live selfie a user without a camera cannot give. `at_document`: it already expects one.
 */
export function documentInsteadRefusal(
  session: Pick<SessionRow, 'verificationMode' | 'checkStage' | 'faceMatchEnabled'>,
  stepUpAllowed: boolean,
): 'at_document' | 'face_match' | 'no_step_up' | null {
  if (expectedCheck(session) === 'document') return 'at_document';
  if (session.faceMatchEnabled) return 'face_match';
  if (!stepUpAllowed) return 'no_step_up';
  return null;
}

/**
 * The verify UI has shown the session to its user: the "opened" step of the dashboard's funnel
 * (issue 23; modules/dashboard/traffic-stats.ts). Recorded once, and only while the session is
 * PENDING: a user who comes back to a finished session did not open it for a check.
 */
export async function recordOpened(deps: VerifyDeps, { session }: VerifyCaller): Promise<void> {
  if (session.openedAt || session.state !== 'PENDING') return;
  await deps.db
    .update(sessions)
    .set({ openedAt: deps.clock.now() })
    .where(and(eq(sessions.id, session.id), isNull(sessions.openedAt)));
}

/** Desktop polling while the phone runs the check (spec "QR handoff"). */
export function sessionStatus({ session }: VerifyCaller): SessionStatusResult {
  return { state: session.state, status: callbackStatusOf(session), redirectUrl: terminalRedirect(session) };
}

/**
 * The SDK saw the new-tab window close before completion (spec "States": PENDING → FAILED,
 * verification.cancelled, callback status=cancelled to cancelUrl when given).
 */
export async function cancelSession(deps: VerifyDeps, { session }: VerifyCaller): Promise<SimulateResult> {
  if (session.state !== 'PENDING') throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(session) });
  return finish(deps, session, 'cancelled');
}

async function finish(deps: VerifyDeps, session: SessionRow, outcome: SimulatedOutcome): Promise<SimulateResult> {
  const now = deps.clock.now();
  const completed = await completeSession(deps.db, session.id, outcome, now);
  if (!completed) {
    // Lost a race with another completion or with expiry: report what actually happened.
    const latest = await reload(deps.db, session.id);
    if (latest.state === 'EXPIRED') return { redirectUrl: terminalRedirect(latest)!, status: 'failed' };
    throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(latest) });
  }
  return { redirectUrl: callbackUrl(completed, outcome, now), status: outcome };
}

export async function simulateOutcome(deps: VerifyDeps, { session }: VerifyCaller, outcome: SimulatedOutcome): Promise<SimulateResult> {
  if (!session.sandbox) throw VERIFY_ERRORS.SIMULATE_LIVE_SESSION();
  if (session.billingBlock) throw VERIFY_ERRORS.SESSION_BILLING_BLOCKED();
  if (session.state === 'EXPIRED') return { redirectUrl: terminalRedirect(session)!, status: 'failed' };
  if (session.state !== 'PENDING') throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(session) });
  return finish(deps, session, outcome);
}
