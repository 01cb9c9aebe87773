/**
 * Runs one live check for the verify UI (issue 10): checks the session may run it, lets the engine
 * measure (engine-pool.ts), decides with the pure functions (age-decision.ts, document-decision.ts)
 * and applies the decision through guarded updates and the session state machine's
 * completeSession, which records verification.completed / verification.failed with the reason
 * (spec "Events"; docs/decisions-on-open-points.md "Failure reasons"). Live checks run on sandbox sessions too, so a
 * merchant can try the real engine (docs/verification.md); simulate stays sandbox-only.
 *
 * One check runs at a time per session: the submission claims the session before the engine runs
 * and every write of its outcome is guarded by that claim (check-claim.ts, decision 0039).
 *
 * Selfies the engine looks at (an L1 check, a document check with face match) answer the session's
 * liveness challenge: the claim consumes it before the engine runs, and the frames must show a
 * live head following it before any age or face match decision counts (liveness/, decision 0062).
 */
import { eq } from 'drizzle-orm';
import {
  CHECK_ATTEMPT_LIMITS,
  needsDocumentFront,
  type ChallengeMove,
  type CheckKind,
  type CheckResult,
  type FailureReason,
  type LivenessChallenge,
} from '@ageverify/protocol';
import type { Logger } from '../../../log';
import { type CheckEvidence, sessions, tenants } from '../../../db/schema';
import { VERIFY_ERRORS } from '../../verify/errors';
import { ENGINE_ERRORS } from '../errors';
import { callbackStatusOf, callbackUrl } from '../../sessions/callback-url';
import { completeSession, type SessionRow } from '../../sessions/session-state';
import { expectedCheck, type VerifyCaller, type VerifyDeps } from '../../verify/service';
import { AGE_RULE, decideAgeEstimation } from '../decisions/age-decision';
import { decideDocument } from '../decisions/document-decision';
import { EngineBusy, EngineRefused, EngineTimeout, type EnginePool } from '../runtime/engine-pool';
import type { CheckSubmission } from './check-submission';
import { claimCheck, heldBy, plusOne, RELEASED, releaseCheck } from './check-claim';
import type { DecisionPolicy, EngineDecision, EngineFindings, Timings } from '../model';
import { consumeChallenge, issueChallenge } from './challenge';
import { decideLiveness, LIVENESS_HINTS } from '../liveness/liveness-decision';

export interface CheckDeps extends VerifyDeps {
  engine: Pick<EnginePool, 'run'>;
  l1AgeMargin: number;
  logger?: Logger;
}

/** `POST /api/v1/verify/challenges`: a liveness challenge for the session's next selfie capture (decision 0062). */
export async function requestChallenge(deps: CheckDeps, { session }: VerifyCaller): Promise<LivenessChallenge> {
  if (session.billingBlock) throw VERIFY_ERRORS.SESSION_BILLING_BLOCKED();
  if (session.state === 'EXPIRED') throw ENGINE_ERRORS.CHECK_SESSION_EXPIRED();
  if (session.state !== 'PENDING') throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(session) });
  const challenge = await issueChallenge(deps.db, session.id, deps.clock.now());
  if (!challenge) return lostRace(deps, session);
  return challenge;
}

export async function runCheck(deps: CheckDeps, { session }: VerifyCaller, submission: CheckSubmission): Promise<CheckResult> {
  if (session.billingBlock) throw VERIFY_ERRORS.SESSION_BILLING_BLOCKED();
  if (session.state === 'EXPIRED') throw ENGINE_ERRORS.CHECK_SESSION_EXPIRED();
  if (session.state !== 'PENDING') throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(session) });
  const expected = expectedCheck(session);
  if (submission.check !== expected) throw ENGINE_ERRORS.WRONG_CHECK({ expected });
  if (expected === 'document' && session.faceMatchEnabled && submission.selfies.length === 0) {
    throw ENGINE_ERRORS.SELFIE_REQUIRED();
  }
  if (selfiesJudged(session, expected) && (submission.challengeId === undefined || submission.selfieSteps === undefined)) {
    throw ENGINE_ERRORS.CHALLENGE_REQUIRED();
  }
  // A missing front is a client bug, not a picture the user can fix, so a 400 rather than a retry.
  if (expected === 'document' && needsDocumentFront(submission.documentType!, session.faceMatchEnabled) && !submission.documentFront) {
    throw ENGINE_ERRORS.DOCUMENT_FRONT_REQUIRED();
  }

  const claim = await claimCheck(deps.db, session.id, deps.clock.now());
  if (!claim.claimed) {
    if (claim.why === 'in_progress') throw ENGINE_ERRORS.CHECK_IN_PROGRESS();
    if (claim.why === 'cap_reached') return fail(deps, claim.session, 'too_many_attempts');
    return lostRace(deps, session);
  }
  try {
    return await decideClaimed(deps, claim.session, claim.claimId, submission);
  } finally {
    // Every outcome released or ended the claim already (guarded by its id, so this is a no-op
    // then); an error before one (engine busy, engine failure) lets go without counting.
    await releaseCheck(deps.db, session.id, claim.claimId);
  }
}

/** Whether the engine looks at the selfies of this check: then they must answer a liveness challenge. */
function selfiesJudged(session: Pick<SessionRow, 'faceMatchEnabled'>, check: CheckKind): boolean {
  return check === 'age_estimation' || session.faceMatchEnabled;
}

export interface Liveness {
  steps: readonly number[];
  moves: readonly ChallengeMove[];
}

async function decideClaimed(deps: CheckDeps, session: SessionRow, claimId: string, submission: CheckSubmission): Promise<CheckResult> {
  let liveness: Liveness | null = null;
  if (selfiesJudged(session, submission.check)) {
    // Used up here, under the claim: a replay or a parallel submission of the same challenge never reaches the engine.
    const consumed = await consumeChallenge(deps.db, session.id, claimId, submission.challengeId!, deps.clock.now());
    if (!consumed.consumed) throw consumed.why === 'expired' ? ENGINE_ERRORS.CHALLENGE_EXPIRED() : ENGINE_ERRORS.CHALLENGE_NOT_CURRENT();
    liveness = { steps: submission.selfieSteps!, moves: consumed.moves };
  }
  const [tenant] = await deps.db.select().from(tenants).where(eq(tenants.id, session.tenantId));
  const policy: DecisionPolicy = {
    challengeAge: session.challengeAge,
    l1Margin: deps.l1AgeMargin,
    stepUpAllowed: tenant?.policyStepUpAllowed ?? true,
    legalMinimumAge: tenant?.legalMinimumAge ?? 18,
    faceMatchEnabled: session.faceMatchEnabled,
  };

  let outcome: { findings: EngineFindings | null; timings: Timings };
  try {
    outcome = await deps.engine.run(
      submission.check === 'age_estimation'
        ? { kind: 'age_estimation', selfies: submission.selfies, steps: liveness ? [...liveness.steps] : undefined }
        : {
            kind: 'document',
            documentType: submission.documentType!,
            document: submission.document!,
            // Face match off: the front is not needed and, like the selfie, not looked at.
            documentFront: needsDocumentFront(submission.documentType!, session.faceMatchEnabled) ? submission.documentFront : null,
            selfies: submission.selfies,
            steps: liveness ? [...liveness.steps] : undefined,
            faceMatch: session.faceMatchEnabled,
          },
      // Keyed by session: the pool serves waiting sessions in turn (issue 22, finding 3).
      session.id,
    );
  } catch (error) {
    if (error instanceof EngineBusy) {
      throw ENGINE_ERRORS.ENGINE_BUSY({ headers: { 'retry-after': String(error.retryAfterSeconds) } });
    }
    if (error instanceof EngineTimeout) {
      throw ENGINE_ERRORS.ENGINE_TIMEOUT({ headers: { 'retry-after': String(error.retryAfterSeconds) } });
    }
    // An image the engine cannot decode within its budget: the submission is at fault, not the
    // picture's quality, so a 400 that says so rather than a retry hint (no attempt is counted).
    if (error instanceof EngineRefused) throw ENGINE_ERRORS.IMAGE_REFUSED({ problem: error.message });
    throw error;
  }
  const findings = outcome.findings!;
  const now = deps.clock.now();
  const decided = decideCheck(findings, policy, now, liveness);
  // Holding the claim, the counters are this check's to read: the retry that would reach the cap is answered as the cap's outcome.
  const decision =
    decided.decision === 'retry' && session.checkRetries + 1 >= CHECK_ATTEMPT_LIMITS.qualityRetries
      ? outcomeAtRetryCap(decided, expectedCheck(session), policy)
      : decided;
  // Scores and timings only: never image bytes or document fields (names, numbers).
  deps.logger?.info('check decided', {
    sessionId: session.id,
    check: submission.check,
    decision: decision.decision,
    ...summary(findings, decision),
    ms: outcome.timings,
  });
  return apply(deps, session, claimId, decision, evidenceOf(session, submission, policy, decision));
}

/** The decision on a check's findings: the liveness gate first, then the age or the document (pure). */
export function decideCheck(findings: EngineFindings, policy: DecisionPolicy, now: Date, liveness: Liveness | null): EngineDecision {
  if (findings.kind === 'age_estimation') {
    // The age is decided on the frames taken looking at the camera, several of them (issue 19
    // Deliver 4): the model and the rule's limits were measured on frontal faces, and the turned
    // frames are the liveness check's.
    const gate = liveness && decideLiveness(findings.frames, liveness.steps, liveness.moves);
    if (gate) return gate;
    const facing = liveness ? findings.frames.filter((_, index) => liveness.steps[index] === 0) : findings.frames;
    return decideAgeEstimation(facing, { ...policy, l1MinFrames: AGE_RULE.minGoodFrames });
  }
  const decision = decideDocument(findings, policy, now);
  // The selfies were analysed (the document was read) and the outcome rests on them: the face
  // match counts only for frames of a live head that followed the challenge.
  const restsOnSelfie =
    decision.decision === 'verified' ||
    (decision.decision === 'failed' && decision.reason === 'face_mismatch') ||
    (decision.decision === 'retry' && decision.part === 'selfie');
  if (liveness && findings.frames.length > 0 && restsOnSelfie) return decideLiveness(findings.frames, liveness.steps, liveness.moves) ?? decision;
  return decision;
}

/**
 * The last retry a session may have (decision 0062): on the face step of an L1 session whose tenant
 * allows step-up, the user continues with a document rather than failing (a dim room or a camera
 * that cannot see a turn is no reason to stop someone who holds an ID); otherwise the session fails,
 * as `liveness_failed` when the challenge was what kept failing.
 */
export function outcomeAtRetryCap(
  retry: Extract<EngineDecision, { decision: 'retry' }>,
  stage: CheckKind,
  policy: Pick<DecisionPolicy, 'stepUpAllowed'>,
): EngineDecision {
  if (stage === 'age_estimation' && policy.stepUpAllowed) return { decision: 'step_up' };
  return { decision: 'failed', reason: LIVENESS_HINTS.includes(retry.hint) ? 'liveness_failed' : 'too_many_attempts' };
}

/**
 * What a decision rested on, kept with the session for its receipt (modules/receipts): the checks
 * that ran so far, the document kind and the legal minimum age it was checked against.
 */
export function evidenceOf(
  session: Pick<SessionRow, 'checkEvidence' | 'faceMatchEnabled'>,
  submission: Pick<CheckSubmission, 'check' | 'documentType'>,
  policy: Pick<DecisionPolicy, 'legalMinimumAge'>,
  decision: EngineDecision,
): CheckEvidence {
  const prior = session.checkEvidence?.checks ?? [];
  if (submission.check === 'age_estimation') return { checks: [...prior, 'age_estimation'] };
  // Face match ran when the decision got past the document to it: a pass, or a mismatch.
  const faceMatchRan =
    session.faceMatchEnabled && (decision.decision === 'verified' || (decision.decision === 'failed' && decision.reason === 'face_mismatch'));
  return {
    checks: [...prior, 'document', ...(faceMatchRan ? ['face_match'] : [])],
    ...(submission.documentType ? { documentKind: submission.documentType } : {}),
    legalMinimumAge: policy.legalMinimumAge,
  };
}

function summary(findings: EngineFindings, decision: EngineDecision): Record<string, unknown> {
  const reason = decision.decision === 'failed' ? decision.reason : decision.decision === 'retry' ? decision.hint : undefined;
  if (findings.kind !== 'age_estimation') return { reason };
  const face = findings.frames.map((f) => ('face' in f ? f.face : null)).find(Boolean);
  return { reason, estimatedAge: face?.estimatedAge, antispoof: face?.antispoof, liveness: face?.liveness };
}

/** Counts the outcome and, unless it ends the session, lets go of the claim in the same statement. */
async function apply(deps: CheckDeps, session: SessionRow, claimId: string, decision: EngineDecision, evidence: CheckEvidence): Promise<CheckResult> {
  const pending = heldBy(session.id, claimId);
  switch (decision.decision) {
    case 'retry': {
      const [row] = await deps.db
        .update(sessions)
        .set({ checkRetries: plusOne(sessions.checkRetries), ...RELEASED })
        .where(pending)
        .returning();
      if (!row) return lostRace(deps, session);
      if (row.checkRetries >= CHECK_ATTEMPT_LIMITS.qualityRetries) return fail(deps, row, 'too_many_attempts');
      return { decision: 'retry', hint: decision.hint, part: decision.part, attemptsLeft: CHECK_ATTEMPT_LIMITS.qualityRetries - row.checkRetries };
    }
    case 'step_up': {
      const [row] = await deps.db
        .update(sessions)
        .set({
          checkStage: 'document',
          // The document gets its own retries (decision 0062); a session steps up at most once.
          checkRetries: 0,
          checkDecisions: plusOne(sessions.checkDecisions),
          checkEvidence: evidence,
          ...RELEASED,
        })
        .where(pending)
        .returning();
      if (!row) return lostRace(deps, session);
      return { decision: 'step_up', next: 'document' };
    }
    case 'verified':
    case 'failed': {
      // The claim stays held until completeSession has ended the session, so no other check
      // can start in between; a lapsed claim (another submission took over) decides nothing.
      const [row] = await deps.db
        .update(sessions)
        .set({ checkDecisions: plusOne(sessions.checkDecisions), checkEvidence: evidence })
        .where(pending)
        .returning();
      if (!row) return lostRace(deps, session);
      if (decision.decision === 'failed') return fail(deps, session, decision.reason);
      const completed = await completeSession(deps.db, session.id, 'verified', deps.clock.now());
      if (!completed) return lostRace(deps, session);
      return { decision: 'verified', status: 'verified', redirectUrl: callbackUrl(completed, 'verified', completed.completedAt!) };
    }
  }
}

async function fail(deps: CheckDeps, session: SessionRow, reason: FailureReason): Promise<CheckResult> {
  const now = deps.clock.now();
  const completed = await completeSession(deps.db, session.id, 'failed', now, reason);
  if (!completed) return lostRace(deps, session);
  return { decision: 'failed', status: 'failed', reason, redirectUrl: callbackUrl(completed, 'failed', now) };
}

/** Another completion, the expiry or a newer claim won while the engine ran: report what actually happened. */
async function lostRace(deps: CheckDeps, session: SessionRow): Promise<never> {
  const [latest] = await deps.db.select().from(sessions).where(eq(sessions.id, session.id));
  if (latest?.state === 'EXPIRED') throw ENGINE_ERRORS.CHECK_SESSION_EXPIRED();
  // Still pending: this check's claim lapsed and another submission holds the session now.
  if (latest?.state === 'PENDING') throw ENGINE_ERRORS.CHECK_IN_PROGRESS();
  throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: latest ? callbackStatusOf(latest) : null });
}
