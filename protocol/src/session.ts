/** Spec "Session": PENDING, then exactly one terminal state. */
export const SESSION_STATES = ['PENDING', 'VERIFIED', 'FAILED', 'EXPIRED'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const VERIFICATION_MODES = ['L1', 'L2'] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

/** Spec "Limits": challengeAge 25 to 99. */
export const CHALLENGE_AGE_MIN = 25;
export const CHALLENGE_AGE_MAX = 99;

/** Spec "Limits": session lifetime, 10 minutes from creation, no extension. */
export const SESSION_LIFETIME_MS = 10 * 60 * 1000;

/** Status as reported to the merchant: callback `status` and validation `status`. */
export const CALLBACK_STATUSES = ['verified', 'failed', 'cancelled'] as const;
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number];
export type ValidationStatus = CallbackStatus | 'pending';

export const BILLING_BLOCK_CODES = ['SUBSCRIPTION_REQUIRED', 'PLAN_LIMIT_REACHED', 'SANDBOX_LIMIT_REACHED'] as const;
export type BillingBlockCode = (typeof BILLING_BLOCK_CODES)[number];

export interface BillingBlock {
  code: BillingBlockCode;
  /** User-facing text. */
  message: string;
  portalUrl?: string;
}

/** Spec "Session creation input fields". */
export interface CreateSessionRequest {
  merchantId?: string;
  returnUrl: string;
  cancelUrl?: string;
  merchantName?: string;
  externalUserId?: string;
  verificationMode?: VerificationMode;
  challengeAge?: number;
  faceMatchEnabled?: boolean;
}

/** Spec "Session creation result". */
export interface CreateSessionResult {
  sessionId: string;
  sessionToken: string;
  verifyUrl: string;
  expiresAt: string;
  /** Deprecated. Always false. */
  testMode: false;
  sandboxMode: boolean;
  externalUserId: string | null;
  faceMatchEnabled: boolean;
  handoffToken: string;
  billingBlock?: BillingBlock;
}

/** Spec "POST /sessions/validate": `sessionId` is the only allowed property. */
export interface ValidateSessionRequest {
  sessionId: string;
}

/** Spec "Validation result". `estimatedAge` is deprecated and never returned. */
export interface ValidateSessionResult {
  sessionId: string;
  merchantId: string;
  verified: boolean;
  accessGranted: boolean;
  status: ValidationStatus;
  verificationMode: VerificationMode;
  challengeAge: number;
  faceMatchEnabled: boolean;
  externalUserId: string | null;
  /** Deprecated. Always false. */
  testMode: false;
  /** Additive: whether the session is a sandbox session (its outcome was chosen by a tester). */
  sandboxMode: boolean;
  timestamp: string;
  expiresAt: string;
  /**
   * Additive: the session's verification receipt, a compact JWS (ES256) over the decision, its
   * thresholds and the checks that ran, verifiable with the keys at /.well-known/jwks.json.
   * Present with every terminal result; absent while pending.
   */
  receipt?: string;
}

/** Spec "End-user redirect and callback": the query parameters appended to returnUrl. */
export interface CallbackParams {
  sessionId: string;
  status: CallbackStatus;
  /** Milliseconds since epoch. */
  timestamp: number;
  externalUserId?: string;
}
