/**
 * `verifyReceipt(jws, { jwksUrl | jwks })`: checks a verification receipt (the `receipt` field of a
 * validation result) with `jose`: the ES256 signature against the service's published keys, the
 * receipt type, and optionally the issuer, the tenant and the session it must belong to.
 * Expected outcomes are returned, never thrown: `{ ok: true, claims }` or `{ ok: false, reason }`.
 */
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';

/** The receipt's `typ` header and algorithm: nothing else is accepted as a receipt. */
export const RECEIPT_TYPE = 'ageverify-receipt+jwt';
const RECEIPT_ALGORITHMS = ['ES256'];

export interface ReceiptClaims {
  /** The issuing service's public base URL. */
  iss: string;
  /** The session id. */
  sub: string;
  iat: number;
  tenantId: string;
  externalUserId?: string;
  outcome: 'verified' | 'failed' | 'cancelled';
  reason?: string;
  verificationMode: 'L1' | 'L2';
  sandbox: boolean;
  thresholds: { estimatedAge?: number; documentAge?: number };
  checks: string[];
  documentKind?: string;
  engineVersion: string;
  completedAt: number;
  chain: { seq: number; prev: string };
}

export interface VerifyReceiptOptions {
  /** The service's key set, e.g. https://verify.example.com/.well-known/jwks.json (fetched and cached). */
  jwksUrl?: string | URL;
  /** Or the key set itself, as served there. */
  jwks?: JSONWebKeySet;
  /** When given, the receipt must have been issued by this service (its public base URL). */
  issuer?: string;
  /** When given, the receipt must belong to this tenant (your merchantId). */
  tenantId?: string;
  /** When given, the receipt must be for this session. */
  sessionId?: string;
}

export type ReceiptVerdict =
  | { ok: true; claims: ReceiptClaims }
  | { ok: false; reason: 'invalid-signature' | 'unknown-key' | 'malformed' | 'wrong-issuer' | 'wrong-tenant' | 'wrong-session'; message: string };

// One remote key set per URL: jose caches the keys and refetches on an unknown kid.
const remoteSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(options: VerifyReceiptOptions) {
  if (options.jwks) return createLocalJWKSet(options.jwks);
  if (!options.jwksUrl) throw new TypeError('Expected options.jwksUrl or options.jwks, got neither.');
  const url = new URL(options.jwksUrl);
  let set = remoteSets.get(url.href);
  if (!set) {
    set = createRemoteJWKSet(url);
    remoteSets.set(url.href, set);
  }
  return set;
}

export async function verifyReceipt(jws: string, options: VerifyReceiptOptions): Promise<ReceiptVerdict> {
  if (typeof jws !== 'string') throw new TypeError(`Expected the receipt as a string, got type ${typeof jws} instead.`);
  const keys = keySet(options);
  let claims: ReceiptClaims;
  try {
    const verified = await jwtVerify(jws, keys, { algorithms: RECEIPT_ALGORITHMS, typ: RECEIPT_TYPE });
    claims = verified.payload as unknown as ReceiptClaims;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ERR_JWKS_NO_MATCHING_KEY') return { ok: false, reason: 'unknown-key', message };
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return { ok: false, reason: 'invalid-signature', message };
    return { ok: false, reason: 'malformed', message };
  }
  if (options.issuer !== undefined && claims.iss !== options.issuer)
    return { ok: false, reason: 'wrong-issuer', message: `issued by ${claims.iss}, expected ${options.issuer}` };
  if (options.tenantId !== undefined && claims.tenantId !== options.tenantId)
    return { ok: false, reason: 'wrong-tenant', message: `belongs to tenant ${claims.tenantId}, expected ${options.tenantId}` };
  if (options.sessionId !== undefined && claims.sub !== options.sessionId)
    return { ok: false, reason: 'wrong-session', message: `is for session ${claims.sub}, expected ${options.sessionId}` };
  return { ok: true, claims };
}
