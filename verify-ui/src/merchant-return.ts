import type { SimulateResult } from '@ageverify/protocol';
import { buildCompleteMessage, messageTargetOrigin } from './completion';

/** How the result goes back to the merchant: by navigating this tab, or to the window that opened it. */
export const ReturnChannel = {
  redirect: 'redirect',
  opener: 'opener',
} as const;
export type ReturnChannel = (typeof ReturnChannel)[keyof typeof ReturnChannel];

/** Time the result screen stays up before the user is taken back (skipped with auto_return=true). */
export const RESULT_SCREEN_MS = 1500;
/** How long a refused window.close() is given before the page shows its way back instead. */
export const CLOSE_CHECK_MS = 500;

/** The part of the opener window this uses; a cross-origin opener still exposes it. */
export interface OpenerWindow {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** Everything it takes from the page, so tests can drive it with fakes. */
export interface MerchantReturnDeps {
  /** The window that opened this one in the SDK's new-tab mode, if it is still open (openerWindow). */
  opener(): OpenerWindow | null;
  /** window.location.assign */
  navigate(url: string): void;
  /** window.close */
  closeWindow(): void;
  /** window.closed */
  isWindowClosed(): boolean;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  now(): number;
  /** window.close() did not close the window: the page has to show its way back. */
  onCloseRefused(): void;
}

/**
 * Hands a finished session's outcome back to the merchant (spec "End-user redirect and callback").
 * In new-tab mode the SDK's page is our opener: it gets the `service:verification:complete`
 * message and this window closes. Otherwise this tab goes to the callback URL. It owns the one
 * navigation timer; the app decides what is shown meanwhile.
 */
export class MerchantReturn {
  private timer: unknown = undefined;

  constructor(private readonly deps: MerchantReturnDeps) {}

  /**
   * Starts the way back for a result whose redirectUrl is already checked (safeRedirectUrl), after
   * the result screen's RESULT_SCREEN_MS or at once with auto_return=true. Returns the channel, so
   * the result screen offers the matching manual way back.
   */
  start(sessionId: string, result: SimulateResult, autoReturn: boolean): ReturnChannel {
    const delay = autoReturn ? 0 : RESULT_SCREEN_MS;
    const opener = this.deps.opener();
    if (opener && this.notifyOpener(opener, sessionId, result)) {
      this.schedule(() => this.closeWindow(), delay);
      return ReturnChannel.opener;
    }
    this.schedule(() => this.goTo(result.redirectUrl), delay);
    return ReturnChannel.redirect;
  }

  goTo(url: string): void {
    this.cancel();
    this.deps.navigate(url);
  }

  /**
   * Browsers refuse to close a window the page did not open by script (for example a plain
   * target=_blank link). If it is still open a moment later, onCloseRefused lets the app show the
   * result screen with its "return" link, also when auto_return=true had hidden it.
   */
  closeWindow(): void {
    this.cancel();
    this.deps.closeWindow();
    this.schedule(() => {
      if (!this.deps.isWindowClosed()) this.deps.onCloseRefused();
    }, CLOSE_CHECK_MS);
  }

  /** Drops a pending navigation or close check (the page is going away). */
  cancel(): void {
    this.deps.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(callback: () => void, ms: number): void {
    this.deps.clearTimeout(this.timer);
    this.timer = this.deps.setTimeout(callback, ms);
  }

  /**
   * Addressed to the callback URL's origin, never '*': the session id must reach only the
   * merchant's page. Returns false when the opener cannot be reached, so this tab redirects.
   */
  private notifyOpener(opener: OpenerWindow, sessionId: string, result: SimulateResult): boolean {
    try {
      opener.postMessage(buildCompleteMessage(sessionId, result, this.deps.now()), messageTargetOrigin(result.redirectUrl));
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * The window that opened this one in the SDK's new-tab mode, if it is still there. `window.opener`
 * is typed `any` by the DOM library; narrow it before use. A cross-origin opener still exposes
 * `closed` and `postMessage`.
 */
export function openerWindow(): Window | null {
  const opener: unknown = window.opener;
  if (typeof opener !== 'object' || opener === null) return null;
  const candidate = opener as Window;
  try {
    return candidate.closed ? null : candidate;
  } catch {
    return null;
  }
}
