import { html, type TemplateResult } from 'lit';
import type { SimulatedOutcome, VerifyCredentials } from '@ageverify/protocol';
import type { ApiFailure } from './api';
import type { FinishedCheck } from './live-flow';
import { safeRedirectUrl } from './completion';
import { describeFailure } from './failure-text';
import { i18n } from './i18n';
import { RESULT_TEXT_KEYS } from './age-verify-result';
import type { View, ViewError } from './view';

/**
 * Which screen element each state of the page shows, with what, and what the live region says.
 * The elements only display and report clicks; these actions are how the app hears them.
 */
export interface ScreenActions {
  /** Intro: "Start". */
  start(): void;
  /** Sandbox panel: a simulate button. */
  simulate(outcome: SimulatedOutcome): void;
  /** Error screen: "Try again" (offered only when retrying can help). */
  retry(): void;
  /** Result screen, redirect channel: "Continue". */
  continueToMerchant(): void;
  /** Result screen, opener channel: "Close window". */
  closeWindow(): void;
  /** Live check: the engine decided (verified or failed). */
  liveFinish(result: FinishedCheck): void;
  /** Live check: a submission was refused; the session may be over. */
  liveRefused(failure: ApiFailure): void;
  /** Live check: the capture chunk failed to load; "Try again". */
  retryLiveLoad(): void;
  /** Billing block: "Back to the website". */
  leaveBlocked(): void;
}

/** What the live check screen needs besides the view: the lazily loaded chunk and this device. */
export interface LiveScreenContext {
  /** State of the dynamic import of the capture chunk (live-capture.ts). */
  module: 'idle' | 'loading' | 'ready' | 'failed';
  credentials: VerifyCredentials | null;
  mobile: boolean;
  /** The desktop's QR panel is shown below the check (a handoff link exists). */
  handoffOffered: boolean;
}

/** Billing block codes (protocol/src/session.ts) as translated text; the server's English message is the fallback for a code this page does not know. */
function blockText(code: string, message: string): string {
  const key = `blocked.codes.${code}`;
  return i18n.exists(key) ? i18n.t(key as 'blocked.codes.PLAN_LIMIT_REACHED') : message;
}

/**
 * Every screen carries `data-screen` (the app moves focus to its heading after a change the user
 * caused) and a `data-testid` the e2e suite records.
 */
export function renderScreen(view: View, actions: ScreenActions, live: LiveScreenContext): TemplateResult {
  switch (view.kind) {
    case 'loading':
      return html`<age-verify-message data-screen data-testid="loading" busy .heading=${i18n.t('app.loading')}></age-verify-message>`;
    case 'error':
      return renderError(view.error, actions);
    case 'blocked':
      return html`<age-verify-message
        data-screen
        data-testid="billing-block"
        tone="warning"
        .heading=${i18n.t('blocked.heading')}
        ?busy=${view.leaving}
        .body=${blockText(view.block.code, view.block.message)}
        .linkHref=${safeRedirectUrl(view.block.portalUrl)}
        .linkLabel=${i18n.t('blocked.portalLink')}
        .linkTestId=${'portal-link'}
        .actionLabel=${view.session.handoff || view.leaving ? null : i18n.t('blocked.back')}
        .actionTestId=${'blocked-back'}
        @verify-action=${actions.leaveBlocked}
      ></age-verify-message>`;
    case 'over':
      return html`<age-verify-message
        data-screen
        data-testid="session-over"
        ?busy=${view.redirectUrl !== null}
        .heading=${i18n.t('over.heading')}
        .body=${view.redirectUrl ? i18n.t('over.redirecting') : i18n.t('over.noRedirect')}
        .linkHref=${view.redirectUrl}
        .linkLabel=${i18n.t('over.continue')}
        .linkTestId=${'over-continue'}
      ></age-verify-message>`;
    case 'intro':
      return html`<age-verify-intro
        data-screen
        data-testid="intro"
        .merchantName=${view.session.merchantName}
        .challengeAge=${view.session.challengeAge}
        .legalMinimumAge=${view.session.legalMinimumAge}
        .verificationMode=${view.session.verificationMode}
        .nextCheck=${view.session.nextCheck}
        .faceMatchEnabled=${view.session.faceMatchEnabled}
        .sandboxMode=${view.session.sandboxMode}
        @verify-start=${actions.start}
      ></age-verify-intro>`;
    case 'check':
      return view.session.sandboxMode ? renderSandbox(view, actions) : renderLive(view, actions, live);
    case 'handoff-done':
      return html`<age-verify-message
        data-screen
        data-testid="handoff-done"
        .heading=${i18n.t('handoff.doneHeading')}
        .body=${view.status ? i18n.t(RESULT_TEXT_KEYS[view.status].body) : ''}
        .hint=${i18n.t('handoff.doneBody')}
      ></age-verify-message>`;
    case 'completed':
      if (view.autoReturn) {
        // auto_return=true: no result screen, only a line in case navigation takes a moment.
        return html`<age-verify-message data-screen data-testid="redirecting" busy .heading=${i18n.t('app.redirecting')}></age-verify-message>`;
      }
      return html`<age-verify-result
        data-screen
        data-testid="result"
        .status=${view.result.status}
        .channel=${view.channel}
        .redirectUrl=${view.result.redirectUrl}
        .reason=${view.reason ?? null}
        @verify-continue=${actions.continueToMerchant}
        @verify-close=${actions.closeWindow}
      ></age-verify-result>`;
  }
}

function renderSandbox(view: Extract<View, { kind: 'check' }>, actions: ScreenActions): TemplateResult {
  const failure = view.failure ? describeFailure(view.failure) : null;
  return html`<age-verify-sandbox-panel
    data-screen
    data-testid="sandbox-panel"
    .merchantName=${view.session.merchantName}
    .submitting=${view.submitting}
    .errorMessage=${failure ? `${i18n.t('sandbox.error')} ${failure.body}` : null}
    .errorDetail=${failure?.detail ?? null}
    @verify-simulate=${(event: CustomEvent<{ outcome: SimulatedOutcome }>) => actions.simulate(event.detail.outcome)}
  ></age-verify-sandbox-panel>`;
}

/** A live check: <age-verify-live> once the capture chunk is loaded, a short wait before, an error with a retry if it failed. */
function renderLive(view: Extract<View, { kind: 'check' }>, actions: ScreenActions, live: LiveScreenContext): TemplateResult {
  if (live.module === 'failed') {
    return html`<age-verify-message
      data-screen
      data-testid="live-load-failed"
      tone="error"
      .heading=${i18n.t('error.heading')}
      .body=${i18n.t('live.loadFailed')}
      .actionLabel=${i18n.t('live.retryLoad')}
      .actionTestId=${'retry'}
      @verify-action=${actions.retryLiveLoad}
    ></age-verify-message>`;
  }
  if (live.module !== 'ready') {
    return html`<age-verify-message data-screen data-testid="live-loading" busy .heading=${i18n.t('live.loading')}></age-verify-message>`;
  }
  return html`<age-verify-live
    data-screen
    data-testid="live-check"
    .session=${view.session}
    .credentials=${live.credentials}
    ?mobile=${live.mobile}
    .handoffOffered=${live.handoffOffered}
    @verify-live-finish=${(event: CustomEvent<{ result: FinishedCheck }>) => actions.liveFinish(event.detail.result)}
    @verify-live-refused=${(event: CustomEvent<{ failure: ApiFailure }>) => actions.liveRefused(event.detail.failure)}
  ></age-verify-live>`;
}

function renderError(error: ViewError, actions: ScreenActions): TemplateResult {
  if (error.kind === 'incomplete-link') {
    return html`<age-verify-message
      data-screen
      data-testid="error"
      tone="error"
      .heading=${i18n.t('error.incompleteHeading')}
      .body=${i18n.t('error.incompleteBody')}
    ></age-verify-message>`;
  }
  if (error.kind === 'bad-redirect') {
    return html`<age-verify-message
      data-screen
      data-testid="error"
      tone="error"
      .heading=${i18n.t('error.heading')}
      .body=${i18n.t('error.badRedirect')}
    ></age-verify-message>`;
  }
  const text = describeFailure(error.failure);
  return html`<age-verify-message
    data-screen
    data-testid="error"
    tone="error"
    .heading=${i18n.t('error.heading')}
    .body=${text.body}
    .detail=${text.detail ?? ''}
    .actionLabel=${text.retryable ? i18n.t('error.retry') : null}
    .actionTestId=${'retry'}
    @verify-action=${actions.retry}
  ></age-verify-message>`;
}

/** What the app's polite live region announces; screens with their own alert stay quiet here. */
export function statusText(view: View): string {
  switch (view.kind) {
    case 'loading':
      return i18n.t('app.loading');
    case 'error':
      return view.error.kind === 'incomplete-link' ? i18n.t('error.incompleteHeading') : i18n.t('error.heading');
    case 'blocked':
      return view.leaving ? i18n.t('app.redirecting') : i18n.t('blocked.heading');
    case 'over':
      return i18n.t('over.heading');
    case 'intro':
      return '';
    case 'check':
      if (!view.session.sandboxMode) return '';
      return view.submitting ? i18n.t('sandbox.submitting') : '';
    case 'completed':
      return view.autoReturn ? i18n.t('app.redirecting') : i18n.t(RESULT_TEXT_KEYS[view.result.status].heading);
    case 'handoff-done':
      return i18n.t('handoff.doneHeading');
  }
}
