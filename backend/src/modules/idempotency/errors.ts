/** Error codes of Idempotency-Key handling (modules/idempotency; issue 15, item 4). */
import { defineErrors } from '../../errors/app-error';
import { IDEMPOTENCY_MESSAGES } from './decide';

export const IDEMPOTENCY_ERRORS = defineErrors({
  INVALID_IDEMPOTENCY_KEY: { status: 400, message: IDEMPOTENCY_MESSAGES.invalidKey },
  // 400, not 422: this service answers bad input with 400 (no 422 anywhere).
  IDEMPOTENCY_KEY_REUSED: { status: 400, message: IDEMPOTENCY_MESSAGES.otherRequest },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409, message: IDEMPOTENCY_MESSAGES.inProgress },
});
