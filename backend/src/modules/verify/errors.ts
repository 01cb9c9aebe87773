/**
 * Error codes of the verify UI's API (modules/verify). An unknown session reuses the Sessions
 * API's SESSION_NOT_FOUND: the same refusal, the same words.
 */
import type { CallbackStatus } from '@ageverify/protocol';
import { defineErrors } from '../../errors/app-error';

export const VERIFY_ERRORS = defineErrors({
  // Credential shape problems read like validation messages (arrays), as the body schema's own do.
  SESSION_TOKEN_REQUIRED: { status: 400, message: ['sessionToken is required'] },
  ONE_TOKEN_REQUIRED: { status: 400, message: ['send exactly one of sessionToken or handoffToken'] },
  HANDOFF_TOKEN_NOT_ALLOWED: { status: 400, message: ['property handoffToken should not exist'] },
  INVALID_SESSION_TOKEN: { status: 401, message: 'Invalid session token' },
  INVALID_HANDOFF_TOKEN: { status: 401, message: 'Invalid handoff token' },
  SESSION_ALREADY_COMPLETED: { status: 409, message: (p: { status: CallbackStatus | null }) => `Session is already completed (status ${p.status})` },
  SIMULATE_LIVE_SESSION: { status: 403, message: 'Outcomes can only be simulated for sandbox sessions' },
  SESSION_BILLING_BLOCKED: { status: 403, message: 'This session is blocked by billing; no check can start' },
});
