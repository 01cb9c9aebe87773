/** Public types of the SDK (spec "Browser SDK (client-side library)"). */
import type { SdkLanguage, VerificationMode } from '@ageverify/protocol';
import type { AgeVerifyError } from './errors';

export type { SdkLanguage, VerificationMode };

export type LaunchMode = 'redirect' | 'new-tab';
export type NewTabTarget = 'popup' | 'tab';

/** Passed to `onComplete` when the verification window reports a result (new-tab mode). */
export interface CompletePayload {
  sessionId: string;
  status: 'verified' | 'failed';
  /** Milliseconds since epoch. */
  timestamp?: number;
  externalUserId?: string;
}

/** Passed to `onCancel` when the user closes the verification window before it finished (new-tab mode). */
export interface CancelPayload {
  sessionId: string;
}

/** Constructor options, exactly the spec's table plus `baseUrl`. */
export interface AgeVerifyOptions {
  /** Required. The publishable key (`pk_…`). Secret keys (`sk_…`) are refused. */
  apiKey: string;
  /** Required. Where the user lands after verification, with sessionId, status and timestamp appended. */
  returnUrl: string;
  /** Where the page goes when the user closes the verification window (new-tab mode). */
  cancelUrl?: string;
  /** Minimum age threshold for face estimation, an integer from 25 to 99. Overridable per call. */
  defaultChallengeAge?: number;
  /** `L1` (face estimation) or `L2` (ID document). Overridable per call. */
  defaultVerificationMode?: VerificationMode;
  /** `redirect` (default) sends this page to the verification UI; `new-tab` opens it in a new window. */
  mode?: LaunchMode;
  /** `popup` (default) or `tab`. Applies to `new-tab` mode. */
  newTabTarget?: NewTabTarget;
  /** UI language: `en`, `de`, `es`, `fr` or `pt`. Overridable per call. */
  language?: SdkLanguage;
  /** new-tab mode only. When left out, the page goes to returnUrl with the callback parameters. */
  onComplete?: (result: CompletePayload) => void;
  /** new-tab mode only. Return false to stay on the page instead of going to cancelUrl. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a callback that returns nothing must stay assignable (`() => { … }` is void, not undefined).
  onCancel?: (result: CancelPayload) => boolean | void;
  /** Called with every error that verify() returns. */
  onError?: (error: AgeVerifyError) => void;
  /**
   * The service address, `https://host/api/v1` (or just `https://host`). Defaults to the address
   * the SDK script was loaded from (`https://host/sdk/…` gives `https://host/api/v1`).
   */
  baseUrl?: string;
}

/** Options of one verify() call; they merge over the constructor defaults. */
export interface VerifyOptions {
  /** Your identifier for the user, echoed in callbacks, webhooks and validation. */
  externalUserId?: string;
  verificationMode?: VerificationMode;
  challengeAge?: number;
  language?: SdkLanguage;
  /** Skip the intro screen and go straight to camera access. */
  skipIntro?: boolean;
  /** After success, return to returnUrl at once without the success screen. */
  autoReturn?: boolean;
}

/** What verify() resolves to. Expected failures are returned, not thrown. */
export type VerifyResult =
  | {
      ok: true;
      sessionId: string;
      /** The verifyUrl as returned by the API, with only display parameters appended. */
      verifyUrl: string;
      /** How the flow was started: `redirect` also when a blocked popup fell back to it. */
      mode: LaunchMode;
    }
  | { ok: false; error: AgeVerifyError };
