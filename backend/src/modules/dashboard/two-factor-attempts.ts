/**
 * Code attempts of two-factor sign-in (issue 23, decision 0057), around better-auth's two-factor
 * plugin:
 *
 * - Whose attempt it is: the signed-in user (confirming an enrolment) or, at sign-in, the user whose
 *   right password opened the challenge. better-auth names the challenge in a signed cookie
 *   (`ageverify.two_factor`); its record in `auth_verification` holds the user id. The attempt then
 *   counts in that user's email+IP and IP buckets (sign-in-limit.ts), the same as a password.
 * - Replays: a TOTP code is accepted once per user (RFC 6238 section 5.2). better-auth checks the
 *   code against the previous, current and next 30-second step and keeps no record of used codes,
 *   so the code is claimed here, atomically, before better-auth sees it, and the claim is given
 *   back when the code turns out wrong.
 */
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { authTwoFactorUsedCodes, authUsers, authVerifications } from '../../db/schema';
import { hmacSha256, safeEqual, sha256Hex } from '../../crypto';

/** better-auth's own key, derived from SERVER_SECRET: one secret to keep, no key reused for two purposes. */
export function betterAuthSecret(serverSecret: string): string {
  return hmacSha256(serverSecret, 'better-auth').toString('hex');
}

/** The challenge cookie's names: with the `__Secure-` prefix when PUBLIC_BASE_URL is https (auth.ts). */
const CHALLENGE_COOKIES = ['ageverify.two_factor', '__Secure-ageverify.two_factor'];

/**
 * The challenge identifier in better-auth's signed cookie (`identifier.base64(HMAC-SHA256)`, URL
 * encoded, as better-call signs cookies), or null when there is none or its signature is wrong.
 */
export function challengeIdentifier(cookieHeader: string | null, authSecret: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || !CHALLENGE_COOKIES.includes(part.slice(0, index).trim())) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return null;
    }
    const dot = value.lastIndexOf('.');
    if (dot <= 0) return null;
    const identifier = value.slice(0, dot);
    const expected = createSignature(identifier, authSecret);
    return safeEqual(value.slice(dot + 1), expected) ? identifier : null;
  }
  return null;
}

function createSignature(value: string, secret: string): string {
  return hmacSha256(secret, value).toString('base64');
}

export interface CodeAttemptUser {
  id: string;
  email: string;
}

/** The user whose password opened this sign-in challenge, while the challenge is open. */
export async function challengeUser(db: Db, identifier: string, now: Date): Promise<CodeAttemptUser | null> {
  const [row] = await db
    .select({ id: authUsers.id, email: authUsers.email })
    .from(authVerifications)
    .innerJoin(authUsers, eq(authUsers.id, authVerifications.value))
    .where(and(eq(authVerifications.identifier, identifier), gt(authVerifications.expiresAt, now)));
  return row ?? null;
}

/**
 * How long a claimed code is remembered: better-auth accepts a code of the previous, current or next
 * 30-second step, so a code accepted now is valid for at most 90 s more; the rest is clock skew
 * between instances.
 */
export const USED_CODE_MEMORY_MS = 2 * 60 * 1000;

/**
 * Claims `code` for `userId`: one atomic insert, which loses to a claim still remembered. Answers
 * the claim's key, or null when the code was accepted (or is being checked) already.
 */
export async function claimTotpCode(db: Db, userId: string, code: string, now: Date): Promise<string | null> {
  const key = sha256Hex(`totp\n${userId}\n${code}`);
  // Forgotten claims are removed first, so an old claim of the same code cannot refuse a new one.
  await db.delete(authTwoFactorUsedCodes).where(lt(authTwoFactorUsedCodes.expiresAt, now));
  const claimed = await db
    .insert(authTwoFactorUsedCodes)
    .values({ key, expiresAt: new Date(now.getTime() + USED_CODE_MEMORY_MS) })
    .onConflictDoNothing()
    .returning({ key: authTwoFactorUsedCodes.key });
  return claimed.length > 0 ? key : null;
}

/** The code was not accepted (wrong, or refused before it was checked): it may be typed again. */
export async function releaseTotpCode(db: Db, key: string): Promise<void> {
  await db.delete(authTwoFactorUsedCodes).where(eq(authTwoFactorUsedCodes.key, key));
}
