/**
 * The gate in front of every verify-UI operation, JSON or multipart: authenticate the caller's
 * token first, then count the session's bucket (issue 8, finding 5). Requests with a wrong token
 * fill a bucket of their own (`verify-ui-denied`), so knowing a sessionId is not enough to lock its
 * user out. The rate-limit headers of whichever bucket answered go on the response (spec "Limits").
 */
import { RATE_LIMIT_ERRORS } from '../rate-limits/errors';
import { VERIFY_UI_LIMIT, consume, rateLimitHeaders } from '../rate-limits/rate-limiter';
import { authenticateCaller, type Credentials, type VerifyCaller, type VerifyDeps } from './service';

const limitExceeded = (retryAfterSeconds: number) => RATE_LIMIT_ERRORS.SESSION_RATE_LIMIT_EXCEEDED({ retryAfterSeconds });

/** The headers a verify-UI response carries before its session is known: the defaults, nothing consumed. */
export const DEFAULT_VERIFY_UI_HEADERS = rateLimitHeaders({ allowed: true, limit: VERIFY_UI_LIMIT, remaining: VERIFY_UI_LIMIT, retryAfterSeconds: 0 });

export async function admitCaller(
  deps: VerifyDeps,
  credentials: Credentials,
  allow: 'session' | 'either',
  headers: Record<string, string | number>,
): Promise<VerifyCaller> {
  const now = deps.clock.now();
  let caller: VerifyCaller;
  try {
    caller = await authenticateCaller(deps, credentials, allow);
  } catch (error) {
    const denied = await consume(deps.db, credentials.sessionId, 'verify-ui-denied', VERIFY_UI_LIMIT, now);
    Object.assign(headers, rateLimitHeaders(denied));
    throw denied.allowed ? error : limitExceeded(denied.retryAfterSeconds);
  }
  const decision = await consume(deps.db, credentials.sessionId, 'verify-ui', VERIFY_UI_LIMIT, now);
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed) throw limitExceeded(decision.retryAfterSeconds);
  return caller;
}
