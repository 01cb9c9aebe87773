/**
 * The SDK's one error class and its code registry.
 *
 * Two kinds of error share the class:
 * - Misuse (bad constructor or verify() options) is *thrown* at once, so it shows up while the
 *   page is being written (spec "Browser SDK": initialization throws synchronous errors).
 * - Expected outcomes of a verification attempt (rate limit, API error, network failure, blocked
 *   popup) are *returned* from verify() as `{ ok: false, error }` and passed to `onError`.
 *
 * Every message says what was expected and what arrived.
 */

export type AgeVerifyErrorCode =
  // Thrown at initialization or by verify() for bad arguments.
  | 'MISSING_API_KEY'
  | 'INVALID_API_KEY'
  | 'SECRET_KEY_IN_BROWSER'
  | 'MISSING_RETURN_URL'
  | 'INVALID_URL'
  | 'HTTPS_REQUIRED'
  | 'BLOCKED_URL_SCHEME'
  | 'URL_CREDENTIALS'
  | 'MISSING_BASE_URL'
  | 'INVALID_OPTION'
  // Returned by verify() and passed to onError.
  | 'RATE_LIMITED'
  | 'API_ERROR'
  | 'NETWORK_ERROR'
  | 'INVALID_RESPONSE'
  | 'POPUP_BLOCKED'
  | 'VERIFICATION_IN_PROGRESS'
  // Passed to onError while the flow goes on: the verify UI shows the block to the user.
  | 'BILLING_BLOCKED';

export interface AgeVerifyErrorDetails {
  /** HTTP status of the API response, when the error came from the API. */
  status?: number;
  /** The API's `message`, joined with "; " when it was a list of validation messages. */
  serverMessage?: string;
  /** The API's machine-readable `code`, e.g. SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE. */
  serverCode?: string;
  /** For RATE_LIMITED: milliseconds until another attempt is allowed, when known. */
  retryAfterMs?: number;
}

export class AgeVerifyError extends Error {
  readonly code: AgeVerifyErrorCode;
  // `declare`: the optional fields exist only when set, under every class-field semantics.
  declare readonly status?: number;
  declare readonly serverMessage?: string;
  declare readonly serverCode?: string;
  declare readonly retryAfterMs?: number;

  constructor(code: AgeVerifyErrorCode, message: string, details: AgeVerifyErrorDetails = {}) {
    super(message);
    this.name = 'AgeVerifyError';
    this.code = code;
    if (details.status !== undefined) this.status = details.status;
    if (details.serverMessage !== undefined) this.serverMessage = details.serverMessage;
    if (details.serverCode !== undefined) this.serverCode = details.serverCode;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

const MAX_SHOWN_LENGTH = 80;

/**
 * Describes a value for the "got … instead" half of a message: strings are quoted (and cut short),
 * everything else is named by kind. Never pass a secret here: use {@link maskKey}.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN_LENGTH ? `${value.slice(0, MAX_SHOWN_LENGTH)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Shows only the prefix of an API key: messages end up in logs and error trackers. */
export function maskKey(key: string): string {
  return JSON.stringify(`${key.slice(0, 3)}…`);
}
