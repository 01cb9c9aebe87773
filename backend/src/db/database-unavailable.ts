/**
 * Whether a failure means "the database cannot be reached right now" (issue 15, item 2): such a
 * request is answered 503 with Retry-After, not 500, because retrying it later is the right thing
 * for the caller to do. drizzle wraps the driver's error (DrizzleQueryError, the driver's in
 * `.cause`), so the whole cause chain is read.
 */

/** postgres.js connection errors and the Node/Bun socket errors beneath them. */
const UNAVAILABLE_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs (PostgreSQL Appendix A) that say the server, not the request, is the problem:
 * 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in
 * recovery), 57014 query_canceled (our statement_timeout), 25P03 idle_in_transaction_session_timeout,
 * 53300 too_many_connections, and class 08 (connection exception).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57014', '25P03', '53300']);

export function databaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  // Bounded: a cause chain is short, and a cycle must not loop forever.
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** What a client is told to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;
