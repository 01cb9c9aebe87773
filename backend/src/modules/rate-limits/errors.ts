/** Error codes of the rate limits (spec "Limits"): the per-account API buckets and the per-session verify UI bucket. */
import { defineErrors } from '../../errors/app-error';

export const RATE_LIMIT_ERRORS = defineErrors({
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    message: (p: { limit: number; windowSeconds: number; retryAfterSeconds: number }) =>
      `Rate limit exceeded: ${p.limit} requests per ${p.windowSeconds} seconds for this account; retry in ${p.retryAfterSeconds} s`,
  },
  SESSION_RATE_LIMIT_EXCEEDED: {
    status: 429,
    message: (p: { retryAfterSeconds: number }) => `Rate limit exceeded for this session; retry in ${p.retryAfterSeconds} s`,
  },
});
