import { COMPLETE_MESSAGE_TYPE, checkRedirectUrl, type CallbackStatus, type CompleteMessage, type SimulateResult } from '@ageverify/protocol';

/**
 * Builds the cross-window message for the opener (spec "End-user redirect and callback":
 * `service:verification:complete`). Its timestamp and externalUserId are the ones the server put
 * on the callback URL, so the opener sees exactly what a redirect would have carried; the local
 * clock is only a fallback for a server that left the timestamp out.
 */
export function buildCompleteMessage(sessionId: string, result: SimulateResult, now: number): CompleteMessage {
  const callback = new URL(result.redirectUrl).searchParams;
  const timestamp = Number(callback.get('timestamp'));
  const externalUserId = callback.get('externalUserId');
  return {
    type: COMPLETE_MESSAGE_TYPE,
    sessionId,
    status: result.status,
    timestamp: Number.isSafeInteger(timestamp) && timestamp > 0 ? timestamp : now,
    ...(externalUserId ? { externalUserId } : {}),
    redirectUrl: result.redirectUrl,
  };
}

/**
 * A redirect target from the server is still checked before the browser goes there: a
 * `javascript:` or `data:` URL must never be navigated to, even if a server bug produced one
 * (spec "Browser SDK", URL rules). Returns the URL to use, or null.
 */
export function safeRedirectUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const verdict = checkRedirectUrl(raw, 'redirectUrl');
  return verdict.ok ? verdict.url.toString() : null;
}

/**
 * The opener may only hear about the result if it is the merchant's own page: the message is
 * addressed to the origin of the callback URL, never to '*', so a page that navigated the opener
 * elsewhere cannot read the session id.
 */
export function messageTargetOrigin(redirectUrl: string): string {
  return new URL(redirectUrl).origin;
}

/** The callback status a server-made redirect URL carries (spec "End-user redirect": `status`). */
export function statusFromRedirect(redirectUrl: string | null): CallbackStatus | null {
  if (!redirectUrl) return null;
  try {
    const status = new URL(redirectUrl).searchParams.get('status');
    return status === 'verified' || status === 'failed' || status === 'cancelled' ? status : null;
  } catch {
    return null;
  }
}
