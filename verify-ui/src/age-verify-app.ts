import { html, type PropertyValues } from 'lit';
import type { CallbackStatus, FailureReason, SessionStatusResult, SimulateResult, SimulatedOutcome, UiLanguage, VerifySessionView } from '@ageverify/protocol';
import { cancelSession, fetchSessionStatus, fetchSessionView, simulateOutcome, type ApiFailure } from './api';
import { safeRedirectUrl, statusFromRedirect } from './completion';
import { currentDeviceHints, isMobileDevice } from './device';
import { isLoopbackUrl, safeHandoffUrl, withLanguage } from './handoff-link';
import { changeLanguage, i18n } from './i18n';
import { TranslatedElement } from './translated-element';
import { searchWithLanguage } from './language';
import type { FinishedCheck } from './live-flow';
import { HandoffController } from './handoff-controller';
import { MerchantReturn, openerWindow } from './merchant-return';
import { palette } from './palette';
import { pageStyles } from './styles';
import { isHandoffCredentials, parseLaunchParams, type LaunchParams, type SessionCredentials } from './launch-params';
import { renderScreen, statusText, type LiveScreenContext, type ScreenActions } from './screens';
import type { View } from './view';

/** When the server still says PENDING past the deadline (clock skew), ask again this much later. */
const EXPIRY_RECHECK_MS = 10_000;
/** setTimeout stores delays as 32-bit signed integers; longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Screens implement this so the app can move focus to a new screen's heading. */
interface FocusableScreen extends HTMLElement {
  focusHeading(): void;
  updateComplete: Promise<boolean>;
}

/**
 * Root of the hosted verification page (GET /verify). Reads the session credentials from the
 * address, loads the authenticated session configuration and walks the user through the check
 * (the states and their diagram are in view.ts). It owns all behaviour: API calls, timers, and,
 * through HandoffController and MerchantReturn, the desktop's QR panel with its polling and the
 * way back to the merchant. The screens (drawn by screens.ts) only display and report clicks.
 */
export class AgeVerifyApp extends TranslatedElement {
  static override properties = {
    view: { state: true },
    liveModule: { state: true },
  };

  static override styles = [palette, pageStyles];

  view: View = { kind: 'loading' };
  /** The capture chunk (live-capture.ts), imported when the first live check starts. */
  private liveModule: LiveScreenContext['module'] = 'idle';
  /** Phones and tablets are not offered "continue on your phone" and use the rear camera for documents. */
  private readonly mobile = isMobileDevice(currentDeviceHints());

  private launch: LaunchParams = parseLaunchParams('');
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** A terminal status the poller saw while a local simulate request was in flight; applied once it settles. */
  private deferredTerminal: SessionStatusResult | null = null;
  private readonly handoff = new HandoffController(this, {
    credentials: () => this.launch.credentials,
    isShown: () => this.showsHandoff(),
    onFinish: (status) => this.onHandoffFinished(status),
  });
  private readonly merchantReturn = new MerchantReturn({
    opener: () => openerWindow(),
    navigate: (url) => window.location.assign(url),
    closeWindow: () => window.close(),
    isWindowClosed: () => window.closed,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
    onCloseRefused: () => {
      if (this.view.kind === 'completed' && this.view.autoReturn) this.view = { ...this.view, autoReturn: false };
    },
  });
  /** The screens report clicks through these; each is one of the transitions below. */
  private readonly screenActions: ScreenActions = {
    start: () => this.onStart(),
    simulate: (outcome) => void this.onSimulate(outcome),
    retry: () => void this.load(),
    continueToMerchant: () => this.onContinue(),
    closeWindow: () => this.merchantReturn.closeWindow(),
    liveFinish: (result) => this.onLiveFinish(result),
    liveRefused: (failure) => void this.onLiveRefused(failure),
    retryLiveLoad: () => void this.loadLiveModule(),
    leaveBlocked: () => void this.onLeaveBlocked(),
  };

  override connectedCallback(): void {
    super.connectedCallback();
    this.launch = parseLaunchParams(window.location.search);
    void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.merchantReturn.cancel();
    clearTimeout(this.expiryTimer);
  }

  override render() {
    return html`
      <main aria-busy=${this.view.kind === 'loading' ? 'true' : 'false'}>
        <age-verify-language @verify-language-change=${this.onLanguageChange}></age-verify-language>
        ${renderScreen(this.view, this.screenActions, this.liveContext())}${this.handoff.render()}
      </main>
      <p class="visually-hidden" role="status" aria-live="polite" data-testid="status">${statusText(this.view)}</p>
    `;
  }

  private liveContext(): LiveScreenContext {
    return { module: this.liveModule, credentials: this.launch.credentials, mobile: this.mobile, handoffOffered: this.handoff.url !== null && !this.isPhone };
  }

  protected override willUpdate(): void {
    // The camera and capture code load only when a live check is about to be shown.
    if (this.view.kind === 'check' && !this.view.session.sandboxMode && this.liveModule === 'idle') void this.loadLiveModule();
  }

  private async loadLiveModule(): Promise<void> {
    if (this.liveModule === 'loading' || this.liveModule === 'ready') return;
    this.liveModule = 'loading';
    try {
      const module = await import('./live-capture');
      await module.defineLiveElements();
      this.liveModule = 'ready';
    } catch {
      this.liveModule = 'failed';
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Move focus to the new screen's heading after a change the user caused, so keyboard and
    // screen-reader users land on what changed. The first screen after loading keeps the page's
    // natural reading order.
    const previous = changed.get('view') as View | undefined;
    if (!previous || previous.kind === 'loading' || previous.kind === this.view.kind) return;
    const screen = this.renderRoot.querySelector<FocusableScreen>('[data-screen]');
    void screen?.updateComplete.then(() => screen.focusHeading());
  }

  /** The phone side of a handoff: opened with the handoffToken, or told so by the server. */
  private get isPhone(): boolean {
    const credentials = this.launch.credentials;
    const view = this.view;
    return (credentials !== null && isHandoffCredentials(credentials)) || ((view.kind === 'intro' || view.kind === 'check') && view.session.handoff);
  }

  private async load(): Promise<void> {
    const credentials = this.launch.credentials;
    if (!credentials) {
      this.view = { kind: 'error', error: { kind: 'incomplete-link' } };
      return;
    }
    this.view = { kind: 'loading' };
    const response = await fetchSessionView(credentials);
    if (!response.ok) {
      this.view = { kind: 'error', error: { kind: 'api', failure: response.failure } };
      return;
    }
    this.showSession(response.value);
  }

  /** Decides the first screen from the authenticated session configuration. */
  private showSession(session: VerifySessionView): void {
    if (session.state !== 'PENDING') {
      this.endOverSession(session);
      return;
    }
    if (session.billingBlock) {
      // docs/decisions-on-open-points.md "billingBlock": show the message and never start a check.
      this.view = { kind: 'blocked', block: session.billingBlock, session, leaving: false };
      return;
    }
    // Only the desktop gets a link (the server sends none with a handoffToken), and only one that
    // leads back to this very page's origin is drawn as a QR code.
    // A phone is not offered "continue on your phone". The link carries this page's language, so
    // the phone opens in the language the user already chose here.
    const link = session.handoff || this.mobile ? null : safeHandoffUrl(session.handoffUrl, window.location.origin);
    this.handoff.url = link ? withLanguage(link, i18n.language) : null;
    this.handoff.unreachable = link !== null && isLoopbackUrl(link);
    this.view = this.launch.skipIntro ? { kind: 'check', session, submitting: null, failure: null } : { kind: 'intro', session };
    this.watchExpiry(session);
  }

  /**
   * Spec "States and transitions": a user who returns after expiry is redirected with status=failed.
   * The phone is never redirected: it learns the session is over, the desktop takes the user back.
   */
  private endOverSession(session: VerifySessionView): void {
    if (this.isPhone || session.handoff) {
      this.endOnPhone(session.state === 'EXPIRED' ? null : statusFromRedirect(session.redirectUrl), session.state === 'EXPIRED');
      return;
    }
    this.endOver(session.redirectUrl);
  }

  private endOver(redirectUrl: string | null): void {
    clearTimeout(this.expiryTimer);
    const target = safeRedirectUrl(redirectUrl);
    this.view = { kind: 'over', redirectUrl: target };
    if (target) void this.updateComplete.then(() => window.location.replace(target));
  }

  /** Phone: a finished session shows "return to your computer"; an expired one only that it is over. */
  private endOnPhone(status: CallbackStatus | null, expired: boolean): void {
    clearTimeout(this.expiryTimer);
    this.view = expired ? { kind: 'over', redirectUrl: null } : { kind: 'handoff-done', status };
  }

  /** Desktop, new session state from the server: end the page as a local completion would. */
  private finishFromServer(status: SessionStatusResult, session: VerifySessionView): void {
    if (status.state === 'EXPIRED' || status.status === null || status.redirectUrl === null) {
      this.endOver(status.redirectUrl);
      return;
    }
    this.complete(session, { status: status.status, redirectUrl: status.redirectUrl });
  }

  /** The poller saw the session end (the phone finished, or the deadline passed). */
  private onHandoffFinished(status: SessionStatusResult): void {
    const view = this.view;
    if (view.kind === 'check' && view.submitting !== null) {
      // This page is sending its own sandbox result right now: let that answer speak first.
      this.deferredTerminal = status;
      return;
    }
    if (view.kind !== 'intro' && view.kind !== 'check') return;
    this.finishFromServer(status, view.session);
  }

  /** Desktop screens that carry the QR panel. */
  private showsHandoff(): boolean {
    return this.handoff.url !== null && !this.isPhone && (this.view.kind === 'intro' || this.view.kind === 'check');
  }

  /**
   * The server owns the deadline. When it passes while the page is open, ask the server again
   * instead of guessing from the local clock, and follow it when it says the session is over.
   */
  private watchExpiry(session: VerifySessionView): void {
    clearTimeout(this.expiryTimer);
    const remaining = Date.parse(session.expiresAt) - Date.now();
    if (Number.isNaN(remaining)) return;
    const delay = remaining > 0 ? Math.min(remaining + 1000, MAX_TIMER_MS) : EXPIRY_RECHECK_MS;
    this.expiryTimer = setTimeout(() => void this.recheckExpiry(), delay);
  }

  private async recheckExpiry(): Promise<void> {
    const credentials = this.launch.credentials;
    const view = this.view;
    const idle = view.kind === 'intro' || (view.kind === 'check' && view.submitting === null);
    if (!credentials || !idle) return;
    const response = await fetchSessionView(credentials);
    if (this.view !== view) return; // The user moved on meanwhile; the new state has its own timers.
    if (response.ok && response.value.state !== 'PENDING') {
      this.endOverSession(response.value);
      return;
    }
    this.expiryTimer = setTimeout(() => void this.recheckExpiry(), EXPIRY_RECHECK_MS);
  }

  private onStart(): void {
    if (this.view.kind !== 'intro') return;
    this.view = { kind: 'check', session: this.view.session, submitting: null, failure: null };
  }

  private async onSimulate(outcome: SimulatedOutcome): Promise<void> {
    const credentials = this.launch.credentials;
    if (this.view.kind !== 'check' || this.view.submitting !== null || !credentials) return;
    const session = this.view.session;
    this.view = { kind: 'check', session, submitting: outcome, failure: null };
    const response = await simulateOutcome({ ...credentials, outcome });
    const deferred = this.deferredTerminal;
    this.deferredTerminal = null;
    if (response.ok) {
      this.complete(session, response.value);
      return;
    }
    // The poller already knows the session ended (the phone finished first): follow that.
    if (deferred) {
      this.finishFromServer(deferred, session);
      return;
    }
    // A refusal may mean the session ended meanwhile (expired, finished in another tab or on the
    // phone): if the server says so, follow it instead of offering buttons that cannot work.
    if (response.failure.kind === 'http' && (await this.followIfOver(credentials, session))) return;
    this.view = { kind: 'check', session, submitting: null, failure: response.failure };
  }

  private async followIfOver(credentials: SessionCredentials, session: VerifySessionView): Promise<boolean> {
    if (isHandoffCredentials(credentials)) {
      const current = await fetchSessionView(credentials);
      if (!current.ok || current.value.state === 'PENDING') return false;
      this.endOverSession(current.value);
      return true;
    }
    const current = await fetchSessionStatus(credentials.sessionId, credentials.sessionToken);
    if (!current.ok || current.value.state === 'PENDING') return false;
    this.finishFromServer(current.value, session);
    return true;
  }

  /**
   * The session is finished: the desktop hands the outcome back to the merchant (merchant-return.ts)
   * and shows the result screen meanwhile; the phone only says so.
   */
  private complete(session: VerifySessionView, result: SimulateResult, reason?: FailureReason): void {
    clearTimeout(this.expiryTimer);
    this.handoff.stop();
    if (this.isPhone) {
      // Spec "QR handoff": the desktop "redirects when the mobile device finishes"; the phone stays put.
      this.endOnPhone(result.status, false);
      return;
    }
    const target = safeRedirectUrl(result.redirectUrl);
    if (!target) {
      this.view = { kind: 'error', error: { kind: 'bad-redirect' } };
      return;
    }
    const safeResult: SimulateResult = { ...result, redirectUrl: target };
    const autoReturn = this.launch.autoReturn;
    const channel = this.merchantReturn.start(session.sessionId, safeResult, autoReturn);
    this.view = { kind: 'completed', session, result: safeResult, channel, autoReturn, ...(reason ? { reason } : {}) };
  }

  /** The engine decided: the same ending as a simulated outcome, with the failure reason on the result screen. */
  private onLiveFinish(result: FinishedCheck): void {
    if (this.view.kind !== 'check') return;
    this.complete(this.view.session, { status: result.status, redirectUrl: result.redirectUrl }, result.decision === 'failed' ? result.reason : undefined);
  }

  /** A refused submission may mean the session ended meanwhile (expired, finished on the other device): follow the server. */
  private async onLiveRefused(_failure: ApiFailure): Promise<void> {
    const credentials = this.launch.credentials;
    if (this.view.kind !== 'check' || !credentials) return;
    await this.followIfOver(credentials, this.view.session);
  }

  /** Billing block, desktop: "Back to the website" ends the session as cancelled and takes the user back (spec "End-user redirect"). */
  private async onLeaveBlocked(): Promise<void> {
    const credentials = this.launch.credentials;
    const view = this.view;
    if (view.kind !== 'blocked' || view.leaving || !credentials || isHandoffCredentials(credentials)) return;
    this.view = { ...view, leaving: true };
    const response = await cancelSession(credentials.sessionId, credentials.sessionToken);
    if (response.ok) {
      this.complete(view.session, response.value);
      return;
    }
    if (await this.followIfOver(credentials, view.session)) return;
    this.view = { kind: 'error', error: { kind: 'api', failure: response.failure } };
  }

  /**
   * The language switch (issue 23): every text changes in place, without a reload, so a user in the
   * middle of a check keeps what they did. The choice goes into the address (`lang`), so a reload
   * keeps it, and into the QR code's link, so the phone opens in it too.
   */
  private readonly onLanguageChange = async (event: CustomEvent<{ language: UiLanguage }>): Promise<void> => {
    const { language } = event.detail;
    if (!(await changeLanguage(language))) return;
    try {
      window.history.replaceState(
        window.history.state,
        '',
        `${window.location.pathname}${searchWithLanguage(window.location.search, language)}${window.location.hash}`,
      );
    } catch {
      // A browser that refuses to change the address: the language still applies to this page.
    }
    if (this.handoff.url) {
      this.handoff.url = withLanguage(this.handoff.url, language);
      this.requestUpdate();
    }
  };

  private onContinue(): void {
    if (this.view.kind === 'completed') this.merchantReturn.goTo(this.view.result.redirectUrl);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'age-verify-app': AgeVerifyApp;
  }
}
