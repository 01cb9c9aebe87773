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
  challengeAge: number;
  faceMatchEnabled: boolean;
  sandboxMode: boolean;
  expiresAt: string;
  billingBlock: BillingBlock | null;
  /** Where the user goes when the session is already over (expired: status=failed). */
  redirectUrl: string | null;
}

export const SIMULATED_OUTCOMES = ['verified', 'failed', 'cancelled'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

export interface SimulateRequest {
  sessionId: string;
  sessionToken: string;
  outcome: SimulatedOutcome;
}

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
