/**
 * `POST /api/v1/verify/document-instead`: a user who has no camera goes on with an ID document
 * instead of the face check (issue 19 Deliver 2, decision 0063). Selfies come only from the live
 * camera (decision 0062), so without one an L1 session could otherwise only be finished on another
 * device. The move is the step-up the session would reach at its retry cap, taken at once: the same
 * stage, the same document check against the legal minimum age, the same fresh retries.
 *
 * It never lets a user skip a check the session needs: the account must allow step-up, and face
 * match (which needs a live selfie) must be off. And it never overtakes a running check: it is a
 * guarded update that needs the session unclaimed (check-claim.ts), so an L1 answer in flight
 * decides first and this is refused with the same 409 as a second submission.
 */
import { and, eq, gt, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { VerifySessionView } from '@ageverify/protocol';
import { sessions, tenants } from '../../../db/schema';
import { callbackStatusOf } from '../../sessions/callback-url';
import { VERIFY_ERRORS } from '../../verify/errors';
import { documentInsteadRefusal, loadSessionView, type VerifyCaller, type VerifyDeps } from '../../verify/service';
import { claimHeld, unclaimed } from './check-claim';
import { ENGINE_ERRORS } from '../errors';

export async function continueWithDocument(deps: VerifyDeps, caller: VerifyCaller): Promise<VerifySessionView> {
  const { session } = caller;
  if (session.billingBlock) throw VERIFY_ERRORS.SESSION_BILLING_BLOCKED();
  if (session.state === 'EXPIRED') throw ENGINE_ERRORS.CHECK_SESSION_EXPIRED();
  if (session.state !== 'PENDING') throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(session) });
  const [tenant] = await deps.db.select({ stepUpAllowed: tenants.policyStepUpAllowed }).from(tenants).where(eq(tenants.id, session.tenantId));
  const refusal = documentInsteadRefusal(session, tenant?.stepUpAllowed ?? true);
  // Asked twice (a double press, a second tab): the session already expects the document.
  if (refusal === 'at_document') return loadSessionView(deps, caller);
  if (refusal === 'face_match') throw ENGINE_ERRORS.DOCUMENT_INSTEAD_FACE_MATCH();
  if (refusal === 'no_step_up') throw ENGINE_ERRORS.DOCUMENT_INSTEAD_NOT_ALLOWED();

  const now = deps.clock.now();
  const [row] = await deps.db
    .update(sessions)
    // The document gets its own retries, as after a step-up (check-service.ts); nothing was decided, so nothing is counted.
    .set({ checkStage: 'document', checkRetries: 0 })
    .where(and(eq(sessions.id, session.id), eq(sessions.state, 'PENDING'), gt(sessions.expiresAt, now), atFaceCheck(), unclaimed(now)))
    .returning();
  if (row) return loadSessionView(deps, { ...caller, session: row });

  const [latest] = await deps.db.select().from(sessions).where(eq(sessions.id, session.id));
  if (!latest) throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: null });
  if (latest.state === 'PENDING' && latest.checkStage === 'document') return loadSessionView(deps, { ...caller, session: latest });
  if (latest.state === 'PENDING' && claimHeld(latest, now)) throw ENGINE_ERRORS.CHECK_IN_PROGRESS();
  if (latest.state === 'EXPIRED' || (latest.state === 'PENDING' && latest.expiresAt <= now)) throw ENGINE_ERRORS.CHECK_SESSION_EXPIRED();
  throw VERIFY_ERRORS.SESSION_ALREADY_COMPLETED({ status: callbackStatusOf(latest) });
}

/** Still at the face check: an L1 session that has not stepped up. */
function atFaceCheck(): SQL {
  return and(eq(sessions.verificationMode, 'L1'), or(isNull(sessions.checkStage), ne(sessions.checkStage, 'document')))!;
}
