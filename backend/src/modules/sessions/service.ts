/**
 * Session creation and validation: the rules of spec "POST /sessions/create" and
 * "POST /sessions/validate", with the choices where it leaves room (docs/sessions-api.md).
 */
import { eq } from 'drizzle-orm';
import {
  ERROR_CODES,
  SESSION_LIFETIME_MS,
  appendParams,
  checkRedirectUrl,
  type CreateSessionRequest,
  type CreateSessionResult,
  type ValidateSessionResult,
} from '@ageverify/protocol';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import type { StoreResult } from '../idempotency/service';
import { sessions } from '../../db/schema';
import { newId } from '../../ids';
import type { ApiPrincipal } from '../../auth/api-keys';
import { recordEvent } from '../events/outbox';
import { decideBillingBlock } from '../billing/billing-gate';
import { allowanceFor, countAgainstAllowance } from '../billing/billing-usage';
import { isHostAllowed } from '../tenants/domain-rules';
import { resolvePolicy } from './policy';
import { issueToken } from './session-tokens';
import { issueReceipt } from '../receipts/service';
import { consumeSession, sessionAsOf, type SessionRow } from './session-state';
import { callbackStatusOf } from './callback-url';
import { SESSION_ERRORS } from './errors';

export interface SessionDeps {
  db: Db;
  clock: Clock;
  serverSecret: string;
  /** Address of the verify UI (config VERIFY_URL). */
  verifyUrl: string;
  /** PUBLIC_BASE_URL: the issuer of verification receipts (modules/receipts). */
  publicBaseUrl: string;
  receiptKeyRotationDays?: number;
}

/**
 * `storeResult`: called in the session's transaction with the result (Idempotency-Key, issue 15
 * item 4), so the stored result commits with the session or not at all.
 */
export async function createSession(
  deps: SessionDeps,
  principal: ApiPrincipal,
  input: CreateSessionRequest,
  storeResult?: StoreResult<CreateSessionResult>,
): Promise<CreateSessionResult> {
  const { db, clock } = deps;
  if (input.merchantId !== undefined && input.merchantId !== principal.tenantId) throw SESSION_ERRORS.MERCHANT_ID_MISMATCH();

  // The verifyUrl carries the pair's publishable key: with that key revoked, no launch configuration can be assembled.
  if (principal.keyType === 'secret' && !principal.pairedPublishableActive) {
    throw SESSION_ERRORS[ERROR_CODES.launchConfigurationUnavailable]();
  }

  const { tenant } = principal;

  const returnUrl = checkRedirectTarget(input.returnUrl, 'returnUrl');
  const cancelUrl = input.cancelUrl !== undefined ? checkRedirectTarget(input.cancelUrl, 'cancelUrl') : null;
  const { domains } = principal;
  for (const url of [returnUrl, cancelUrl]) {
    if (url && !isHostAllowed(url.hostname, domains)) throw SESSION_ERRORS.RETURN_URL_DOMAIN_NOT_ALLOWED();
  }

  const policy = resolvePolicy(
    {
      verificationMode: tenant.policyVerificationMode,
      challengeAge: tenant.policyChallengeAge,
      faceMatchEnabled: tenant.policyFaceMatchEnabled,
    },
    { verificationMode: input.verificationMode, challengeAge: input.challengeAge, faceMatchEnabled: input.faceMatchEnabled },
    principal.keyType,
  );

  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const sessionId = newId('session');
  const sessionToken = issueToken(deps.serverSecret, 'session', sessionId, expiresAt);
  const handoffToken = issueToken(deps.serverSecret, 'handoff', sessionId, expiresAt);
  const externalUserId = input.externalUserId ?? null;
  const merchantName = input.merchantName ?? tenant.name;

  return db.transaction(async (tx) => {
    // Counted first, so the counter's row lock is held by at most one create of the tenant at a
    // time and the count is exact across instances (billing-usage.ts). Unlimited: nothing to count.
    const allowance = allowanceFor(tenant, principal.sandbox);
    const usedBefore = allowance === null ? 0 : await countAgainstAllowance(tx, { tenantId: principal.tenantId, sandbox: principal.sandbox, now }, allowance);
    const block = decideBillingBlock(tenant, principal.sandbox, usedBefore);
    const [row] = await tx
      .insert(sessions)
      .values({
        id: sessionId,
        tenantId: principal.tenantId,
        pairId: principal.pairId,
        sandbox: principal.sandbox,
        state: 'PENDING',
        returnUrl: returnUrl.toString(),
        cancelUrl: cancelUrl?.toString() ?? null,
        merchantName,
        externalUserId,
        ...policy,
        sessionTokenHash: sessionToken.hash,
        handoffTokenHash: handoffToken.hash,
        billingBlock: block,
        createdWith: principal.keyType,
        createdAt: now,
        expiresAt,
      })
      .returning();
    // Spec: "The creation of a session dispatches session.started" — recorded in the same transaction.
    await recordEvent(tx, { kind: 'session.started', session: row!, occurredAt: now, createdAt: now });

    // Display parameters only: the verify UI reads the stored session, never these (spec verifyUrl rules).
    const verifyUrl = appendParams(deps.verifyUrl, {
      sessionId,
      sessionToken: sessionToken.token,
      returnUrl: returnUrl.toString(),
      cancelUrl: cancelUrl?.toString(),
      merchantName,
      externalUserId,
      blocked: block ? block.code : undefined,
      portalUrl: block?.portalUrl,
    });

    const result: CreateSessionResult = {
      sessionId,
      sessionToken: sessionToken.token,
      verifyUrl,
      expiresAt: expiresAt.toISOString(),
      testMode: false,
      sandboxMode: principal.sandbox,
      externalUserId,
      faceMatchEnabled: policy.faceMatchEnabled,
      handoffToken: handoffToken.token,
      ...(block && { billingBlock: block }),
    };
    await storeResult?.(tx, 201, result);
    return result;
  });
}

function checkRedirectTarget(raw: string, field: 'returnUrl' | 'cancelUrl'): URL {
  const verdict = checkRedirectUrl(raw, field);
  if (!verdict.ok) throw SESSION_ERRORS.REDIRECT_URL_INVALID({ reason: verdict.message });
  return verdict.url;
}

export async function validateSession(deps: SessionDeps, principal: ApiPrincipal, sessionId: string): Promise<ValidateSessionResult> {
  const { db, clock } = deps;
  if (principal.keyType !== 'secret') throw SESSION_ERRORS.PRIVATE_KEY_REQUIRED();
  const now = clock.now();

  const [stored] = await db.select().from(sessions).where(eq(sessions.id, sessionId));
  if (!stored) throw SESSION_ERRORS.SESSION_NOT_FOUND();
  if (stored.tenantId !== principal.tenantId) throw SESSION_ERRORS.SESSION_OTHER_TENANT();
  // Sandbox vs live separation (docs/decisions/0020): otherwise a sandbox pk (public by design) plus the
  // simulate API would mint "verified" results that a live secret key accepts. Refused before
  // anything is consumed.
  if (stored.sandbox !== principal.sandbox) {
    throw stored.sandbox ? SESSION_ERRORS.SANDBOX_SESSION_LIVE_KEY() : SESSION_ERRORS.LIVE_SESSION_SANDBOX_KEY();
  }

  // The sweeper may not have run yet: a PENDING session past its deadline is expired now.
  const session = await sessionAsOf(db, stored, now);
  if (session.state === 'EXPIRED') throw SESSION_ERRORS.SESSION_EXPIRED();
  // A PENDING session answers 200 pending and is not consumed: the user may still finish.
  if (session.state === 'PENDING') return validationResult(session, 'pending');
  if (session.validatedAt) throw SESSION_ERRORS.SESSION_ALREADY_USED();

  // The receipt is issued before the session is consumed: should issuing fail, nothing is used up
  // and the merchant can ask again (issue 24).
  const receipt = await issueReceipt(deps, session.id);
  const consumed = await consumeSession(db, session.id, now);
  if (!consumed) throw SESSION_ERRORS.SESSION_ALREADY_USED();
  return { ...validationResult(consumed, callbackStatusOf(consumed)!), ...(receipt ? { receipt } : {}) };
}

function validationResult(session: SessionRow, status: ValidateSessionResult['status']): ValidateSessionResult {
  const verified = status === 'verified';
  return {
    sessionId: session.id,
    merchantId: session.tenantId,
    verified,
    // Spec: accessGranted equals verified under the current policy.
    accessGranted: verified,
    status,
    verificationMode: session.verificationMode,
    challengeAge: session.challengeAge,
    faceMatchEnabled: session.faceMatchEnabled,
    externalUserId: session.externalUserId,
    testMode: false,
    sandboxMode: session.sandbox,
    // Time of completion; a pending session has none yet, so it reports its creation time.
    timestamp: (session.completedAt ?? session.createdAt).toISOString(),
    expiresAt: session.expiresAt.toISOString(),
  };
}
