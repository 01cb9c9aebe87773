/**
 * Error codes of the Sessions API (spec "POST /sessions/create", "POST /sessions/validate",
 * "Errors"). Messages the spec fixes come from protocol/src/errors.ts, word for word.
 */
import { ERROR_CODES, ERROR_MESSAGES } from '@ageverify/protocol';
import { defineErrors } from '../../errors/app-error';

export const SESSION_ERRORS = defineErrors({
  MERCHANT_ID_MISMATCH: { status: 400, message: ERROR_MESSAGES.merchantIdMismatch },
  /** docs/decisions-on-open-points.md: a secret key whose paired publishable key is revoked cannot assemble a launch configuration. */
  [ERROR_CODES.launchConfigurationUnavailable]: {
    status: 503,
    message: 'The secret key has no active paired publishable key; create a new key pair or restore it',
    exposeCode: true,
  },
  RETURN_URL_DOMAIN_NOT_ALLOWED: { status: 400, message: ERROR_MESSAGES.returnUrlDomainNotAllowed },
  /** protocol/src/url-rules.ts says what is wrong; a validation message, so an array. */
  REDIRECT_URL_INVALID: { status: 400, message: (p: { reason: string }) => [p.reason] },
  PRIVATE_KEY_REQUIRED: { status: 401, message: ERROR_MESSAGES.privateKeyRequired },
  SESSION_NOT_FOUND: { status: 404, message: ERROR_MESSAGES.sessionNotFound },
  SESSION_OTHER_TENANT: { status: 403, message: ERROR_MESSAGES.sessionOtherTenant },
  SANDBOX_SESSION_LIVE_KEY: { status: 403, message: ERROR_MESSAGES.sandboxSessionLiveKey },
  LIVE_SESSION_SANDBOX_KEY: { status: 403, message: ERROR_MESSAGES.liveSessionSandboxKey },
  SESSION_EXPIRED: { status: 400, message: ERROR_MESSAGES.sessionExpired },
  SESSION_ALREADY_USED: { status: 409, message: ERROR_MESSAGES.sessionAlreadyUsed },
});
