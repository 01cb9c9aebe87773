/**
 * Password-guessing limits (contract "Auth"; issue 22, findings 2, 5 and 9): at most 5 failed
 * password checks per email+IP and 30 per IP per 15 minutes, then 429 with Retry-After until the
 * window ends. Sign-in, verify-password and change-password all check a password of one account, so
 * they share its bucket; so do two-factor codes (issue 23), at sign-in and at enrolment. Counted in the database (auth_sign_in_failures) so every instance counts
 * in the same bucket; fixed windows aligned to the clock, like the API's rate limits
 * (modules/rate-limits). Keys are hashes: the table holds no email address.
 *
 * The count is reserved BEFORE the password is checked, in one atomic upsert that returns the new
 * count (`INSERT … ON CONFLICT DO UPDATE … RETURNING`), and given back only when the check
 * succeeds. Reading the count first and adding the failure after (the earlier design) let 100
 * parallel guesses all pass the read before any failure was written.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { authSignInFailures } from '../../db/schema';
import { sha256Hex } from '../../crypto';

export const SIGN_IN_FAILURE_LIMIT = 5;
/** Per address, whatever the email: an address trying many accounts. */
export const SIGN_IN_FAILURE_LIMIT_PER_IP = 30;
/** New tenants per address and window when DASHBOARD_SIGNUP is on. */
export const SIGNUP_LIMIT_PER_IP = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export interface LimitedKey {
  key: string;
  limit: number;
}

export function signInKey(email: string, ip: string): string {
  return sha256Hex(`${email.trim().toLowerCase()}\n${ip}`);
}

/** The buckets one password check of `email` from `ip` counts in. */
export function passwordCheckKeys(email: string, ip: string): LimitedKey[] {
  return [
    { key: signInKey(email, ip), limit: SIGN_IN_FAILURE_LIMIT },
    { key: sha256Hex(`password-ip\n${ip}`), limit: SIGN_IN_FAILURE_LIMIT_PER_IP },
  ];
}

/**
 * The buckets one two-factor code attempt counts in (issue 23): the same as a password check of
 * that user, so codes and passwords share one budget; only the address's when the attempt names
 * no user (no session, no open challenge), which better-auth then refuses.
 */
export function codeCheckKeys(email: string | null, ip: string): LimitedKey[] {
  const keys = passwordCheckKeys(email ?? '', ip);
  return email ? keys : keys.slice(1);
}

export function signupKeys(ip: string): LimitedKey[] {
  return [{ key: sha256Hex(`signup-ip\n${ip}`), limit: SIGNUP_LIMIT_PER_IP }];
}

function windowOf(now: Date): Date {
  return new Date(Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS);
}

/** An attempt that holds one unit of each of its buckets until it is released or kept. */
export interface Reservation {
  keys: LimitedKey[];
  windowStart: Date;
}

/**
 * Takes one attempt from each bucket in turn, atomically per bucket. Answers the reservation, or
 * the seconds until the caller may try again when a bucket is over its limit. A refused attempt
 * stays counted in the bucket that refused it and in those before it (hammering a closed bucket
 * keeps it closed), but never reaches the buckets after it: it checked no password, so it must
 * not close the address's bucket. Counting refused attempts there let a burst on one email close
 * the address's bucket in whatever order the database served the upserts, so on PostgreSQL the
 * first five of the email's bucket could all be refused and none checked.
 */
export async function reserveAttempt(db: Db, keys: LimitedKey[], now: Date): Promise<Reservation | { retryAfterSeconds: number }> {
  const windowStart = windowOf(now);
  for (const { key, limit } of keys) {
    const [row] = await db
      .insert(authSignInFailures)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({ target: [authSignInFailures.key, authSignInFailures.windowStart], set: { count: sql`${authSignInFailures.count} + 1` } })
      .returning({ count: authSignInFailures.count });
    // Old windows are useless; the caller pays for their removal.
    await db.delete(authSignInFailures).where(and(eq(authSignInFailures.key, key), lt(authSignInFailures.windowStart, windowStart)));
    if (row!.count > limit) return { retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + SIGN_IN_WINDOW_MS - now.getTime()) / 1000)) };
  }
  return { keys, windowStart };
}

/** The password was right: the attempt was no failure, so it is given back. */
export async function releaseAttempt(db: Db, reservation: Reservation): Promise<void> {
  for (const { key } of reservation.keys) {
    await db
      .update(authSignInFailures)
      .set({ count: sql`${authSignInFailures.count} - 1` })
      .where(and(eq(authSignInFailures.key, key), eq(authSignInFailures.windowStart, reservation.windowStart), gt(authSignInFailures.count, 0)));
  }
}
