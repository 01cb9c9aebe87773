/**
 * The end-user redirect (spec "End-user redirect and callback"): returnUrl with sessionId, status,
 * timestamp (ms) and externalUserId when given. Never a sessionToken or other credential.
 * Cancelled goes to cancelUrl when one was given.
 */
import { appendParams, type CallbackStatus } from '@ageverify/protocol';

export function callbackUrl(
  session: { id: string; returnUrl: string; cancelUrl: string | null; externalUserId: string | null },
  status: CallbackStatus,
  at: Date,
): string {
  const target = status === 'cancelled' && session.cancelUrl ? session.cancelUrl : session.returnUrl;
  return appendParams(target, { sessionId: session.id, status, timestamp: at.getTime(), externalUserId: session.externalUserId });
}

/** The callback status a terminal session reports (an expired session returns the user with status=failed). */
export function callbackStatusOf(session: { state: string; outcome: string | null }): CallbackStatus | null {
  if (session.state === 'EXPIRED') return 'failed';
  if (session.state === 'VERIFIED') return 'verified';
  if (session.state === 'FAILED') return session.outcome === 'cancelled' ? 'cancelled' : 'failed';
  return null;
}
