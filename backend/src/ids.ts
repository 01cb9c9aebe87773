/**
 * Prefixed random identifiers and credentials : `ses_`, `ten_`, `kp_`, `evt_`,
 * `whe_`, keys `pk_`/`sk_`. 128 bits of randomness for ids, 256 bits for secrets, base62 so they
 * survive URLs and double-click selection.
 */
import { randomBytes } from 'node:crypto';

export const ID_PREFIXES = {
  session: 'ses',
  tenant: 'ten',
  pair: 'kp',
  event: 'evt',
  endpoint: 'whe',
  user: 'usr',
  /** Dashboard (better-auth) records: sign-in session, credential account, membership, invitation, verification. */
  authSession: 'aus',
  account: 'acc',
  member: 'mem',
  invitation: 'inv',
  verification: 'vrf',
  /** A user's two-factor enrolment (better-auth's two-factor plugin, decision 0057). */
  twoFactor: 'tfa',
  publishableKey: 'pk',
  secretKey: 'sk',
  sessionToken: 'st',
  handoffToken: 'ht',
  notice: 'ntc',
  email: 'eml',
  pendingSignup: 'psu',
  /** An audit trail entry (modules/audit). */
  audit: 'aud',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function newId(kind: IdKind): string {
  const length = kind === 'secretKey' || kind === 'publishableKey' ? 43 : 22;
  return `${ID_PREFIXES[kind]}_${randomBase62(length)}`;
}

/**
 * API keys carry their mode in the prefix (`pk_live_…`, `sk_test_…`), so a key pasted in the wrong
 * place is recognisable at a glance; the spec only fixes the `pk_` / `sk_` part.
 */
export function newApiKey(type: 'publishable' | 'secret', sandbox: boolean): string {
  return `${type === 'publishable' ? 'pk' : 'sk'}_${sandbox ? 'test' : 'live'}_${randomBase62(40)}`;
}

/** An id source, injected where tests need predictable ids. */
export type IdSource = (kind: IdKind) => string;
export const randomIds: IdSource = newId;
