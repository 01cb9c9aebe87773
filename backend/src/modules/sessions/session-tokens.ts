/**
 * sessionToken and handoffToken (DESIGN.md §2): opaque, not JWTs. A token is random bytes plus an
 * HMAC under SERVER_SECRET that binds it to its purpose, the session id and the expiry, so a token
 * of one session (or a handoff token used as a session token) never opens another. Only the
 * token's SHA-256 is stored; checks compare in constant time.
 */
import { ID_PREFIXES, randomBase62 } from '../../ids';
import { hmacSha256, safeEqual, sha256Hex } from '../../crypto';

export type TokenPurpose = 'session' | 'handoff';

const PREFIX: Record<TokenPurpose, string> = { session: ID_PREFIXES.sessionToken, handoff: ID_PREFIXES.handoffToken };

function mac(secret: string, purpose: TokenPurpose, sessionId: string, expiresAt: Date, nonce: string): string {
  return hmacSha256(secret, `${purpose}.${sessionId}.${expiresAt.getTime()}.${nonce}`).toString('base64url');
}

export function issueToken(secret: string, purpose: TokenPurpose, sessionId: string, expiresAt: Date): { token: string; hash: string } {
  const nonce = randomBase62(24);
  const token = `${PREFIX[purpose]}_${nonce}.${mac(secret, purpose, sessionId, expiresAt, nonce)}`;
  return { token, hash: sha256Hex(token) };
}

/** True when `token` was issued for this purpose, session and expiry, and matches the stored hash. */
export function verifyToken(
  secret: string,
  purpose: TokenPurpose,
  token: string,
  session: { id: string; expiresAt: Date; storedHash: string },
): boolean {
  const match = /^([a-z]+)_([0-9A-Za-z]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || match[1] !== PREFIX[purpose]) return false;
  const expected = mac(secret, purpose, session.id, session.expiresAt, match[2]!);
  const macOk = safeEqual(match[3]!, expected);
  const hashOk = safeEqual(sha256Hex(token), session.storedHash);
  return macOk && hashOk;
}
