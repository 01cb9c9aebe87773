/**
 * The AgeVerify class: validates options at construction (throwing on misuse), then starts a
 * verification per verify() call (spec "Browser SDK (client-side library)").
 *
 * verify() in order: check arguments (throw) → one flow at a time → client rate limit → open the
 * window synchronously in new-tab mode (popup blockers allow window.open only in the click's own
 * task, not after an awaited request) → POST /sessions/create → send the browser to verifyUrl.
 */
import { appendParams } from '@ageverify/protocol';
import { browserEnvironment, type Environment, type WindowHandle } from './environment';
import { AgeVerifyError } from './errors';
import { popupFeatures, watchVerificationWindow, type CompleteSignal } from './new-tab';
import { checkVerifyOptions, planLaunch, resolveOptions, type ResolvedOptions } from './options';
import { AttemptLimiter, rateLimitError } from './rate-limit';
import { createSession, reportCancel, type CancelReport } from './session-api';
import type { AgeVerifyOptions, VerifyOptions, VerifyResult } from './types';
import { appendDisplayParams, checkUrl } from './url';

export class AgeVerify {
  private readonly config: ResolvedOptions;
  private readonly env: Environment;
  private readonly limiter: AttemptLimiter;
  /** Set from the start of verify() until the page was sent away or the new-tab flow ended. */
  private busy = false;
  private flowWindow: WindowHandle | undefined;
  private stopWatching: (() => void) | undefined;

  /**
   * @param options see {@link AgeVerifyOptions}; throws an {@link AgeVerifyError} on misuse.
   * @param environment internal: browser dependencies replaced in tests.
   */
  constructor(options: AgeVerifyOptions, environment?: Partial<Environment>) {
    this.env = environment ? { ...browserEnvironment(), ...environment } : browserEnvironment();
    this.config = resolveOptions(options, this.env.scriptUrl);
    this.limiter = new AttemptLimiter(
      () => this.env.storage(),
      () => this.env.now(),
    );
  }

  /**
   * Creates a session and sends the user to the verification UI. Throws at once for bad options;
   * every other failure resolves to `{ ok: false, error }` after `onError(error)`.
   */
  verify(options?: VerifyOptions): Promise<VerifyResult> {
    const plan = planLaunch(this.config, checkVerifyOptions(options));

    if (this.busy) {
      if (this.flowWindow) safely(() => this.flowWindow?.focus());
      return this.fail(
        new AgeVerifyError(
          'VERIFICATION_IN_PROGRESS',
          'Expected one verification at a time, got a verify() call while another is still running. ' + 'Wait for it to finish, or call destroy() first.',
        ),
      );
    }

    const decision = this.limiter.tryAttempt();
    if (!decision.allowed) return this.fail(rateLimitError(decision.retryAfterMs));

    let win: WindowHandle | null = null;
    if (this.config.mode === 'new-tab') {
      const popup = this.config.newTabTarget === 'popup';
      win = safely(() => this.env.open('', '_blank', popup ? popupFeatures(this.env.frame()) : '')) || null;
      if (!win) {
        // Spec: a blocked popup is reported, then the flow continues in this window.
        this.report(
          new AgeVerifyError(
            'POPUP_BLOCKED',
            `Expected window.open to open a ${popup ? 'popup' : 'tab'} for the verification, got null: the browser blocked it. ` +
              'Continuing in this window (redirect mode). Call verify() directly from a click handler to avoid popup blockers.',
          ),
        );
      }
    }

    this.busy = true;
    return this.launch(plan.body, plan.display, win);
  }

  /** Stops watching an open verification window; onComplete and onCancel will not be called for it. */
  destroy(): void {
    if (this.stopWatching) this.stopWatching();
    this.stopWatching = undefined;
    this.flowWindow = undefined;
    this.busy = false;
  }

  private async launch(
    body: ReturnType<typeof planLaunch>['body'],
    display: ReturnType<typeof planLaunch>['display'],
    win: WindowHandle | null,
  ): Promise<VerifyResult> {
    const created = await createSession(this.env, { baseUrl: this.config.baseUrl, apiKey: this.config.apiKey, body });
    if (!created.ok) {
      if (win) safely(() => win.close());
      this.busy = false;
      return this.fail(created.error);
    }
    const { sessionId, billingBlock } = created.session;
    // The session exists but no check can start (billingBlock in the creation result). The merchant hears it
    // through onError; the user still goes to the verify UI, which shows the block and portal link.
    if (billingBlock) {
      this.report(
        new AgeVerifyError('BILLING_BLOCKED', `Verification is blocked by the merchant's plan (${billingBlock.code}): ${billingBlock.message}`, {
          serverCode: billingBlock.code,
          serverMessage: billingBlock.message,
        }),
      );
    }
    // Kept only in this closure, for the cancel report: never stored, logged or put in a URL by the SDK.
    const sessionToken = typeof created.session.sessionToken === 'string' ? created.session.sessionToken : '';
    const verifyUrl = appendDisplayParams(created.session.verifyUrl, display);

    if (!win) {
      this.busy = false;
      this.env.assign(verifyUrl);
      return { ok: true, sessionId, verifyUrl, mode: 'redirect' };
    }

    const opened = win;
    this.flowWindow = opened;
    this.stopWatching = watchVerificationWindow(this.env, {
      win: opened,
      verifyUrl,
      sessionId,
      reportClosed: (): Promise<CancelReport> =>
        sessionToken ? reportCancel(this.env, { baseUrl: this.config.baseUrl, sessionId, sessionToken }) : Promise.resolve({ kind: 'unconfirmed' }),
      onOutcome: (outcome) => {
        this.destroy();
        if (outcome.kind === 'closed') return this.cancelled(sessionId, outcome.redirectUrl);
        // The verification UI shows its result and closes its own window shortly after; closing
        // it after the message is no longer a cancellation, as watching has stopped.
        if (outcome.signal.status === 'cancelled') this.cancelled(sessionId);
        else this.completed(outcome.signal);
      },
    });
    if (isClosed(opened)) {
      // Closed while the session was being created: the watcher reports the cancellation of that
      // session (after telling the service); there is nothing to navigate.
      return { ok: true, sessionId, verifyUrl, mode: 'new-tab' };
    }
    try {
      // replace(), not assignment: the blank page does not stay in the window's history.
      opened.location.replace(verifyUrl);
    } catch {
      // The window left about:blank for another origin and cannot be steered: continue here.
      this.destroy();
      safely(() => opened.close());
      this.env.assign(verifyUrl);
      return { ok: true, sessionId, verifyUrl, mode: 'redirect' };
    }
    return { ok: true, sessionId, verifyUrl, mode: 'new-tab' };
  }

  private completed(signal: CompleteSignal): void {
    const payload = {
      sessionId: signal.sessionId,
      status: signal.status === 'verified' ? ('verified' as const) : ('failed' as const),
      ...(signal.timestamp !== undefined ? { timestamp: signal.timestamp } : {}),
      ...(signal.externalUserId !== undefined ? { externalUserId: signal.externalUserId } : {}),
    };
    const { onComplete } = this.config;
    if (onComplete) {
      this.call(() => onComplete(payload));
      return;
    }
    // Without onComplete, behave like redirect mode: this page goes to returnUrl with the callback parameters.
    this.env.assign(appendParams(this.config.returnUrl, { timestamp: this.env.now(), ...payload }));
  }

  /**
   * Spec: closing the window before completion fires onCancel and, unless it returns false, goes to
   * cancelUrl with status=cancelled, sessionId and timestamp. The service's own callback URL from
   * the cancel report is preferred (its timestamp is the one the session and webhooks carry), but
   * only when it is that very cancelUrl with those parameters; otherwise the SDK builds it.
   */
  private cancelled(sessionId: string, serverRedirectUrl?: string): void {
    const { onCancel, cancelUrl } = this.config;
    const answer = onCancel ? this.call(() => onCancel({ sessionId })) : undefined;
    if (answer === false || !cancelUrl) return;
    const target =
      serverRedirectUrl !== undefined && isCancelCallback(serverRedirectUrl, cancelUrl, sessionId)
        ? serverRedirectUrl
        : appendParams(cancelUrl, { status: 'cancelled', sessionId, timestamp: this.env.now() });
    this.env.assign(target);
  }

  private fail(error: AgeVerifyError): Promise<VerifyResult> {
    this.report(error);
    return Promise.resolve({ ok: false, error });
  }

  private report(error: AgeVerifyError): void {
    const { onError } = this.config;
    if (onError) this.call(() => onError(error));
  }

  /**
   * Runs a merchant callback. If it throws, the error is rethrown on a fresh task (so it still shows
   * in the console and error trackers) and the SDK carries on as if it had returned nothing.
   */
  private call<T>(callback: () => T): T | undefined {
    try {
      return callback();
    } catch (error) {
      this.env.setTimeout(() => {
        throw error;
      }, 0);
      return undefined;
    }
  }
}

/** Convenience for the script-tag global: `AgeVerify.create({...})` equals `new AgeVerify.AgeVerify({...})`. */
export function create(options: AgeVerifyOptions): AgeVerify {
  return new AgeVerify(options);
}

/** The server's cancel callback URL is usable when it is cancelUrl (same origin and path) carrying this session's cancellation. */
export function isCancelCallback(candidate: string, cancelUrl: string, sessionId: string): boolean {
  let url: URL;
  let expected: URL;
  try {
    url = checkUrl(candidate, 'cancelUrl');
    expected = new URL(cancelUrl);
  } catch {
    return false;
  }
  const timestamp = url.searchParams.get('timestamp');
  return (
    url.origin === expected.origin &&
    url.pathname === expected.pathname &&
    url.searchParams.get('status') === 'cancelled' &&
    url.searchParams.get('sessionId') === sessionId &&
    timestamp !== null &&
    /^\d+$/.test(timestamp)
  );
}

function isClosed(win: WindowHandle): boolean {
  try {
    return win.closed;
  } catch {
    return false;
  }
}

function safely<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}
