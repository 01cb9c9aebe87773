/** Error codes of API-key authentication (spec "Authentication" 1–5; docs/decisions-on-open-points.md, 403 row). */
import { ERROR_MESSAGES } from '@ageverify/protocol';
import { defineErrors } from '../errors/app-error';

export const AUTH_ERRORS = defineErrors({
  API_KEY_REQUIRED: { status: 401, message: ERROR_MESSAGES.apiKeyRequired },
  INVALID_API_KEY: { status: 401, message: 'Invalid API key' },
  ACCOUNT_SUSPENDED: { status: 403, message: 'Insufficient permissions: this account is suspended' },
});
