import type { CheckKind } from './checks';
import type { BillingBlock, CallbackStatus, SessionState, VerificationMode } from './session';

/**
 * The verify UI's own API (not part of the merchant contract). The UI authenticates with the
 * session's opaque sessionToken; display parameters in the verifyUrl never override these values.
 */
export interface VerifySessionView {
  sessionId: string;
  state: SessionState;
  merchantName: string | null;
  verificationMode: VerificationMode;
  /** The threshold of the face estimate (L1). A document is not checked against it. */
  challengeAge: number;
  /**
   * The age an ID document's date of birth must show: the tenant's legal minimum age (default 18).
   * It is what a document check (L2, or L1 after a step-up) proves, so the UI names this age there
   * (issue 23; docs/decisions-on-open-points.md "L2 threshold").
   */
  legalMinimumAge: number;
  faceMatchEnabled: boolean;
  sandboxMode: boolean;
  expiresAt: string;
  billingBlock: BillingBlock | null;
  /** Where the user goes when the session is already over (expired: status=failed). */
  redirectUrl: string | null;
  /** The link a phone opens to continue this session (QR handoff). Only given to the sessionToken holder. */
  handoffUrl: string | null;
  /** True when this page was opened through the handoff link (the phone side). */
  handoff: boolean;
  /**
   * The live check the session expects next (protocol/src/checks.ts): `age_estimation` for L1,
   * `document` for L2 or after an L1 step-up. Null once the session is over.
   */
  nextCheck: CheckKind | null;
  /**
   * A user without a camera may go on with an ID document instead of the face check
   * (`POST /api/v1/verify/document-instead`): an L1 session still at its face check, whose account
   * allows step-up and which has face match off (a face match needs a live selfie). Decision 0063.
   */
  documentInstead: boolean;
}

/** The verify UI authenticates with the sessionToken (desktop) or the handoffToken (phone): exactly one. */
export type VerifyCredentials = { sessionId: string; sessionToken: string } | { sessionId: string; handoffToken: string };

/** Desktop polling while the phone runs the check (QR handoff). */
export interface SessionStatusResult {
  state: SessionState;
  status: CallbackStatus | null;
  redirectUrl: string | null;
}

/** The SDK reports a new-tab window closed before completion (spec: verification.cancelled). */
export interface CancelRequest {
  sessionId: string;
  sessionToken: string;
}

export const SIMULATED_OUTCOMES = ['verified', 'failed', 'cancelled'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

export type SimulateRequest = VerifyCredentials & { outcome: SimulatedOutcome };

export interface SimulateResult {
  redirectUrl: string;
  status: CallbackStatus;
}

/** Display parameters the SDK may append to verifyUrl (spec "Verification UI query parameters"). */
export const UI_LANGUAGES = ['en', 'de', 'es', 'fr', 'pt', 'it'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];
/** The SDK option `language` accepts a narrower set (spec "Browser SDK"). */
export const SDK_LANGUAGES = ['en', 'de', 'es', 'fr', 'pt'] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

/** Name of the cross-window message posted by the verify UI to its opener (spec "End-user redirect"). */
export const COMPLETE_MESSAGE_TYPE = 'service:verification:complete';

export interface CompleteMessage {
  type: typeof COMPLETE_MESSAGE_TYPE;
  sessionId: string;
  status: CallbackStatus;
  timestamp: number;
  externalUserId?: string;
  redirectUrl: string;
}
