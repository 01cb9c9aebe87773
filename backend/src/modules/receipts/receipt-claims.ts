/**
 * What a verification receipt says (issue 24), as a pure function of the completed session.
 * Nothing personal goes in: no image, no age estimate, no document number, no name or date of
 * birth. Only the decision, the rule it was taken under and which checks ran.
 */
import type { CallbackStatus, VerificationMode } from '@ageverify/protocol';
import type { CheckEvidence, sessions } from '../../db/schema';

type SessionRow = typeof sessions.$inferSelect;

/** The JWS `typ` header: a receipt is never mistaken for another kind of token, nor one for it. */
export const RECEIPT_TYPE = 'ageverify-receipt+jwt';
export const RECEIPT_ALG = 'ES256';

export interface ReceiptClaims {
  /** The service's public base URL. */
  iss: string;
  /** The session id. */
  sub: string;
  /** Issued at (seconds). */
  iat: number;
  tenantId: string;
  /** As the merchant sent it at creation; omitted when none was sent. */
  externalUserId?: string;
  outcome: CallbackStatus;
  /** For a failed outcome: the engine's documented reason (age_not_met, document_invalid, …). */
  reason?: string;
  verificationMode: VerificationMode;
  /** A sandbox session's outcome was chosen by a tester: no check ran. */
  sandbox: boolean;
  /** The thresholds actually applied: challengeAge for the face estimate, the legal minimum age for a document. */
  thresholds: { estimatedAge?: number; documentAge?: number };
  /** The checks that ran, in order: age_estimation, liveness, document, face_match. */
  checks: string[];
  documentKind?: string;
  engineVersion: string;
  /** When the decision was taken (seconds). */
  completedAt: number;
  /** The tenant's hash chain (receipt-chain.ts): this receipt's position and the digest of the one before. */
  chain: { seq: number; prev: string };
}

export interface ClaimContext {
  issuer: string;
  engineVersion: string;
  issuedAt: Date;
  seq: number;
  prev: string;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function receiptClaims(session: SessionRow, context: ClaimContext): ReceiptClaims {
  if ((session.state !== 'VERIFIED' && session.state !== 'FAILED') || !session.outcome || !session.completedAt) {
    throw new Error(`session ${session.id} has no decision to record (state ${session.state})`);
  }
  const evidence: CheckEvidence = session.sandbox ? { checks: [] } : (session.checkEvidence ?? { checks: [] });
  const thresholds: ReceiptClaims['thresholds'] = {};
  if (evidence.checks.includes('age_estimation')) thresholds.estimatedAge = session.challengeAge;
  if (evidence.checks.includes('document') && evidence.legalMinimumAge !== undefined) thresholds.documentAge = evidence.legalMinimumAge;
  return {
    iss: context.issuer,
    sub: session.id,
    iat: seconds(context.issuedAt),
    tenantId: session.tenantId,
    ...(session.externalUserId ? { externalUserId: session.externalUserId } : {}),
    outcome: session.outcome,
    ...(session.outcome === 'failed' && session.failureReason ? { reason: session.failureReason } : {}),
    verificationMode: session.verificationMode,
    sandbox: session.sandbox,
    thresholds,
    checks: [...evidence.checks],
    ...(evidence.documentKind ? { documentKind: evidence.documentKind } : {}),
    engineVersion: context.engineVersion,
    completedAt: seconds(session.completedAt),
    chain: { seq: context.seq, prev: context.prev },
  };
}
