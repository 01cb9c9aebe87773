/**
 * sessionToken and handoffToken: opaque, not JWTs (spec "Session creation result"). A token is random bytes plus an
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

/**
 * The handoff token's nonce is derived rather than random: the desktop UI, holding the
 * sessionToken, can get the QR link again at any time although only the token's hash is stored.
 * It stays unforgeable: deriving it needs SERVER_SECRET.
 */
function derivedNonce(secret: string, sessionId: string, expiresAt: Date): string {
  const bytes = hmacSha256(secret, `handoff-nonce.${sessionId}.${expiresAt.getTime()}`);
  return Array.from(bytes.subarray(0, 24), (byte) => BASE62[byte % 62]).join('');
}
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function issueToken(secret: string, purpose: TokenPurpose, sessionId: string, expiresAt: Date): { token: string; hash: string } {
  const nonce = purpose === 'handoff' ? derivedNonce(secret, sessionId, expiresAt) : randomBase62(24);
  const token = `${PREFIX[purpose]}_${nonce}.${mac(secret, purpose, sessionId, expiresAt, nonce)}`;
  return { token, hash: sha256Hex(token) };
}

/** True when `token` was issued for this purpose, session and expiry, and matches the stored hash. */
export function verifyToken(secret: string, purpose: TokenPurpose, token: string, session: { id: string; expiresAt: Date; storedHash: string }): boolean {
  const match = /^([a-z]+)_([0-9A-Za-z]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || match[1] !== PREFIX[purpose]) return false;
  const expected = mac(secret, purpose, session.id, session.expiresAt, match[2]!);
  const macOk = safeEqual(match[3]!, expected);
  const hashOk = safeEqual(sha256Hex(token), session.storedHash);
  return macOk && hashOk;
}
