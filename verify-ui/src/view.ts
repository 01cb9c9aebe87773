import type { BillingBlock, CallbackStatus, FailureReason, SimulateResult, SimulatedOutcome, VerifySessionView } from '@ageverify/protocol';
import type { ApiFailure } from './api';
import type { ReturnChannel } from './merchant-return';

/**
 * The verify page's states. Every transition is one assignment to the `view` of <age-verify-app>
 * (age-verify-app.ts); screens.ts shows the screen for each:
 *
 *   loading ──ok──> intro ──Start──> check ──simulate──> check(submitting) ──ok──> completed
 *      │              (skip_intro=true goes straight to check)     │ failure: check + error
 *      ├─ state not PENDING ──> over (location.replace to redirectUrl)
 *      ├─ billingBlock ──> blocked (no way to start a check)
 *      └─ no credentials / API failure ──> error ──retry (when it can help)──> loading
 *
 * `check` is the sandbox panel for sandbox sessions and, for live ones, <age-verify-live> from the
 * lazily loaded capture chunk (its own steps: live-flow.ts): camera, document, upload, the engine's
 * decision. A verified / failed decision goes to `completed` (with the failure reason), exactly
 * like a simulated outcome. A session that expires while the page is open moves to `over`.
 *
 *   blocked ──Back to the website (desktop)──> POST /verify/cancel ──> completed (status=cancelled)
 *
 * QR handoff (spec "QR handoff"), two sides of one session:
 *  - Desktop (sessionToken; the server gives a `handoffUrl` while PENDING): below intro and check,
 *    "Continue on your phone" opens the QR panel (handoff-controller.ts, orthogonal to `view`) and
 *    starts polling POST /verify/status (handoff-poller.ts). A terminal status ends the page exactly
 *    like a local completion (`complete`: opener message in new-tab mode, else the redirect,
 *    auto_return respected); EXPIRED goes to `over`. The sandbox buttons stay usable meanwhile.
 *  - Phone (handoffToken; `handoff: true`): the same intro and check, but it never sends the user
 *    to the merchant, which is the desktop's job:
 *
 *      check ──simulate ok──> handoff-done      loading ──state VERIFIED/FAILED──> handoff-done
 *                                               loading ──state EXPIRED──> over (no redirect)
 */
export type View =
  | { kind: 'loading' }
  | { kind: 'error'; error: ViewError }
  | { kind: 'blocked'; block: BillingBlock; session: VerifySessionView; leaving: boolean }
  | { kind: 'over'; redirectUrl: string | null }
  | { kind: 'intro'; session: VerifySessionView }
  | { kind: 'check'; session: VerifySessionView; submitting: SimulatedOutcome | null; failure: ApiFailure | null }
  | { kind: 'completed'; session: VerifySessionView; result: SimulateResult; channel: ReturnChannel; autoReturn: boolean; reason?: FailureReason }
  /** Phone side of a QR handoff: the result went to the server; the desktop takes the user back. */
  | { kind: 'handoff-done'; status: CallbackStatus | null };

export type ViewError = { kind: 'incomplete-link' } | { kind: 'api'; failure: ApiFailure } | { kind: 'bad-redirect' };
