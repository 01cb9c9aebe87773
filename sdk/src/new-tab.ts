/**
 * new-tab mode: the verification UI runs in a popup or a tab, and this page learns the outcome from
 * the cross-window message `service:verification:complete` (spec "End-user redirect and callback"),
 * or sees the window closed before any message arrived, which is a cancellation.
 *
 *   opened ──message(verified|failed)──▶ complete   (onComplete)
 *      │   ──message(cancelled)────────▶ cancelled  (onCancel, then cancelUrl)
 *      └── window.closed ──▶ reporting: POST /verify/cancel, still listening for the message
 *                               ├─ message ─────────────────────────▶ complete / cancelled as above
 *                               ├─ 200 ─────────────────────────────▶ cancelled (server's redirectUrl)
 *                               ├─ no answer / error (≤ 3 s) ───────▶ cancelled
 *                               └─ 409 already completed ─▶ grace: message within 1 s ▶ complete
 *                                                                  otherwise ─────────▶ cancelled
 *
 * Why keep listening after the close: the UI posts its message and closes itself at once
 * (auto_return), and across processes the message can arrive after `window.closed` reads true.
 * The server settles the race: its 409 says the session ended first, so a completion message is
 * probably on its way and wins over the cancellation; a 200 says the cancel won, so a later
 * message cannot be real and is ignored.
 *
 * Note for the verify UI: it must not send `Cross-Origin-Opener-Policy: same-origin`, which severs
 * the opener link, so that `window.closed` reads true at once and the message cannot be posted.
 */
import { CALLBACK_STATUSES, COMPLETE_MESSAGE_TYPE, type CallbackStatus } from '@ageverify/protocol';
import type { Environment, WindowFrame, WindowHandle } from './environment';
import type { CancelReport } from './session-api';

/** How often `window.closed` is read (spec: closing the window before completion fires onCancel). */
export const CLOSED_POLL_MS = 500;
/** After a 409 on the cancel report, how long a completion message still on its way is awaited. */
export const LATE_MESSAGE_GRACE_MS = 1_000;

export const POPUP_WIDTH = 500;
export const POPUP_HEIGHT = 760;

/**
 * window.open features for a popup centered over the current window. Any size feature makes browsers
 * open a popup instead of a tab; `noopener` is deliberately absent, as the UI posts its result to
 * `window.opener`.
 */
export function popupFeatures(frame: WindowFrame | undefined): string {
  const width = POPUP_WIDTH;
  const height = POPUP_HEIGHT;
  const size = `width=${width},height=${height}`;
  if (!frame) return `${size},resizable=yes,scrollbars=yes`;
  const left = Math.max(0, Math.round(frame.left + (frame.width - width) / 2));
  const top = Math.max(0, Math.round(frame.top + (frame.height - height) / 2));
  return `${size},left=${left},top=${top},resizable=yes,scrollbars=yes`;
}

/** The message as the SDK trusts it: only the fields it reads, checked. */
export interface CompleteSignal {
  sessionId: string;
  status: CallbackStatus;
  timestamp?: number;
  externalUserId?: string;
}

/**
 * Reads a `message` event's data as the verification-complete message for `sessionId`. Anything else
 * (other types, other sessions, malformed fields) gives undefined and is ignored. The origin is
 * checked by the caller before this runs.
 */
export function readCompleteMessage(data: unknown, sessionId: string): CompleteSignal | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Record<string, unknown>;
  if (message.type !== COMPLETE_MESSAGE_TYPE || message.sessionId !== sessionId) return undefined;
  const status = message.status;
  if (typeof status !== 'string' || (CALLBACK_STATUSES as readonly string[]).indexOf(status) < 0) return undefined;
  const signal: CompleteSignal = { sessionId, status: status as CallbackStatus };
  if (typeof message.timestamp === 'number' && Number.isFinite(message.timestamp)) signal.timestamp = message.timestamp;
  if (typeof message.externalUserId === 'string') signal.externalUserId = message.externalUserId;
  return signal;
}

/**
 * `closed`: the window closed before completion and no message came. `redirectUrl` is the
 * server's callback URL from the cancel report, when it sent one (check it before use).
 */
export type WindowOutcome = { kind: 'message'; signal: CompleteSignal } | { kind: 'closed'; redirectUrl?: string };

export interface WatchOptions {
  win: WindowHandle;
  /** The final verifyUrl; messages count only from its exact origin. */
  verifyUrl: string;
  sessionId: string;
  /** Tells the service the window closed before completion (POST /verify/cancel); must settle by itself (timeout). */
  reportClosed(): Promise<CancelReport>;
  /** Called once, after watching has stopped. */
  onOutcome(outcome: WindowOutcome): void;
}

/**
 * Listens for the completion message and polls `win.closed`, starting before the window is sent to
 * verifyUrl so an early message cannot be missed. A window that is already closed when watching
 * starts counts as closed at once. Returns the function that stops watching; it is also called
 * internally before `onOutcome`, so the outcome is reported at most once.
 */
export function watchVerificationWindow(
  env: Pick<Environment, 'listen' | 'setInterval' | 'clearInterval' | 'setTimeout' | 'clearTimeout'>,
  options: WatchOptions,
): () => void {
  const { win, sessionId, onOutcome } = options;
  // Strict equality with the verifyUrl's origin (scheme, host and port): a message from any other
  // window, including the merchant's own pages, cannot complete or cancel the flow.
  const expectedOrigin = new URL(options.verifyUrl).origin;
  let active = true;
  let closedSeen = false;
  let graceTimer: unknown;

  const stop = () => {
    if (!active) return;
    active = false;
    unlisten();
    env.clearInterval(pollTimer);
    if (graceTimer !== undefined) env.clearTimeout(graceTimer);
  };
  const settle = (outcome: WindowOutcome) => {
    if (!active) return;
    stop();
    onOutcome(outcome);
  };
  const unlisten = env.listen((event) => {
    if (!active || event.origin !== expectedOrigin) return;
    const signal = readCompleteMessage(event.data, sessionId);
    if (signal) settle({ kind: 'message', signal });
  });
  const onClosed = () => {
    if (closedSeen) return;
    closedSeen = true;
    env.clearInterval(pollTimer);
    let report: Promise<CancelReport>;
    try {
      report = options.reportClosed();
    } catch {
      report = Promise.resolve({ kind: 'unconfirmed' });
    }
    report.then(
      (answer) => {
        if (!active) return;
        if (answer.kind === 'cancelled') settle(answer.redirectUrl === undefined ? { kind: 'closed' } : { kind: 'closed', redirectUrl: answer.redirectUrl });
        else if (answer.kind === 'unconfirmed') settle({ kind: 'closed' });
        else graceTimer = env.setTimeout(() => settle({ kind: 'closed' }), LATE_MESSAGE_GRACE_MS);
      },
      () => settle({ kind: 'closed' }),
    );
  };
  const pollTimer = env.setInterval(() => {
    if (active && isClosed(win)) onClosed();
  }, CLOSED_POLL_MS);
  if (isClosed(win)) onClosed();
  return stop;
}

function isClosed(win: WindowHandle): boolean {
  try {
    return win.closed;
  } catch {
    return false;
  }
}
