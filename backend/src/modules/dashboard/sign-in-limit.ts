/**
 * Login rate limiting (contract "Auth"): 5 failed sign-ins per email+IP per 15 minutes, then 429
 * with Retry-After until the window ends. Counted in the database (auth_sign_in_failures, one
 * atomic upsert per failure) so every instance counts in the same bucket. Fixed windows aligned
 * to the clock, like the API's rate limits (modules/rate-limits). The key is a hash: the table
 * holds no email address.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { authSignInFailures } from '../../db/schema';
import { sha256Hex } from '../../crypto';

export const SIGN_IN_FAILURE_LIMIT = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export function signInKey(email: string, ip: string): string {
  return sha256Hex(`${email.trim().toLowerCase()}\n${ip}`);
}

function windowOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS);
}

/** Seconds until the caller may try again, or null when it may try now. */
export async function signInBlockedFor(db: Db, key: string, now: Date): Promise<number | null> {
  const start = windowOf(now);
  const [row] = await db
    .select({ count: authSignInFailures.count })
    .from(authSignInFailures)
    .where(and(eq(authSignInFailures.key, key), eq(authSignInFailures.windowStart, start)));
  if (!row || row.count < SIGN_IN_FAILURE_LIMIT) return null;
  return Math.max(1, Math.ceil((start.getTime() + SIGN_IN_WINDOW_MS - now.getTime()) / 1000));
}

export async function recordSignInFailure(db: Db, key: string, now: Date): Promise<void> {
  const start = windowOf(now);
  await db
    .insert(authSignInFailures)
    .values({ key, windowStart: start, count: 1 })
    .onConflictDoUpdate({ target: [authSignInFailures.key, authSignInFailures.windowStart], set: { count: sql`${authSignInFailures.count} + 1` } });
  // Old windows are useless; the failing caller pays for their removal.
  await db.delete(authSignInFailures).where(and(eq(authSignInFailures.key, key), lt(authSignInFailures.windowStart, start)));
}
