/** Spec "Error body": every error response of the API has this shape. */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  timestamp: string;
  path: string;
  error?: string;
  /** Machine-readable code where the spec names one (e.g. SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE). */
  code?: string;
}

/** Messages the spec fixes word for word (spec "Errors" and "Authentication"). */
export const ERROR_MESSAGES = {
  apiKeyRequired: 'API key required',
  privateKeyRequired: 'Private API key required for session validation',
  merchantIdMismatch: 'merchantId must match the authenticated API key',
  returnUrlDomainNotAllowed: 'Return URL domain not allowed',
  sessionExpired: 'Session has expired',
  sessionAlreadyUsed: 'Session has already been used',
  sessionNotFound: 'Session not found',
  sessionOtherTenant: 'Session does not belong to this tenant',
  // Sandbox vs live separation (docs/decisions/0020): a key pair sees only sessions of its own kind.
  sandboxSessionLiveKey: 'Sandbox sessions cannot be validated with a live key',
  liveSessionSandboxKey: 'Live sessions cannot be validated with a sandbox key',
} as const;

export const ERROR_CODES = {
  launchConfigurationUnavailable: 'SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE',
} as const;
