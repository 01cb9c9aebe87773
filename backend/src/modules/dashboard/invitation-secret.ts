/**
 * The secret that accepts an invitation (issue 22, finding 1). The invitation id is visible to every
 * member of the tenant (the team page lists pending invitations), so acceptance needs something only
 * the invitee receives: 32 random bytes in the emailed link, of which the database keeps only the
 * SHA-256 (a leaked table accepts nothing). No slow hash is needed: the secret has 256 bits of
 * entropy, so it cannot be guessed offline either.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../crypto';

export function newInvitationSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function invitationSecretHash(secret: string): string {
  return sha256Hex(`invitation\n${secret}`);
}
