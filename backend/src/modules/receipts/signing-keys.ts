/**
 * Receipt signing keys (issue 24, item 2): ES256 key pairs made with `jose`, shared by every
 * instance through the database. The private JWK is stored as a compact JWE (dir + A256GCM)
 * under a key derived from SERVER_SECRET with HKDF, so a database dump alone cannot sign.
 * One key is active at a time (a partial unique index guards it across instances); rotation
 * retires it and makes a new one, and retired public keys stay in the JWKS forever, so every
 * receipt ever issued keeps verifying.
 */
import { hkdfSync } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { calculateJwkThumbprint, CompactEncrypt, compactDecrypt, exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, type JWK } from 'jose';
import type { Db } from '../../db/database';
import { receiptSigningKeys } from '../../db/schema';
import { RECEIPT_ALG } from './receipt-claims';

/** A key signs for this long before the schedule rotates it (RECEIPT_KEY_ROTATION_DAYS overrides). */
export const DEFAULT_KEY_ROTATION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  createdAt: Date;
}

function sealingKey(serverSecret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', serverSecret, new Uint8Array(0), 'ageverify receipt signing key v1', 32));
}

async function seal(serverSecret: string, kid: string, privateJwk: JWK): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(privateJwk)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid })
    .encrypt(sealingKey(serverSecret));
}

// Decrypted keys by kid: a kid names one immutable key, so the cache can never be stale.
const unsealed = new Map<string, CryptoKey>();

async function unseal(serverSecret: string, kid: string, sealed: string): Promise<CryptoKey> {
  const cached = unsealed.get(kid);
  if (cached) return cached;
  const { plaintext } = await compactDecrypt(sealed, sealingKey(serverSecret));
  const key = (await importJWK(JSON.parse(new TextDecoder().decode(plaintext)) as JWK, RECEIPT_ALG)) as CryptoKey;
  unsealed.set(kid, key);
  return key;
}

async function newKeyRow(serverSecret: string, now: Date) {
  const { publicKey, privateKey } = await generateKeyPair(RECEIPT_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    alg: RECEIPT_ALG,
    publicJwk: { ...publicJwk, kid, alg: RECEIPT_ALG, use: 'sig' },
    sealedPrivateJwk: await seal(serverSecret, kid, await exportJWK(privateKey)),
    createdAt: now,
  };
}

async function activeRow(db: Db) {
  const [row] = await db
    .select()
    .from(receiptSigningKeys)
    .where(and(eq(receiptSigningKeys.alg, RECEIPT_ALG), isNull(receiptSigningKeys.retiredAt)));
  return row ?? null;
}

/**
 * The key to sign with now: the active one, made on first use, and rotated once it is older than
 * `rotationDays` (the schedule). Instances racing to make or rotate one end up with the same key.
 */
export async function activeSigningKey(db: Db, serverSecret: string, now: Date, rotationDays = DEFAULT_KEY_ROTATION_DAYS): Promise<SigningKey> {
  let row = await activeRow(db);
  if (row && now.getTime() - row.createdAt.getTime() >= rotationDays * DAY_MS) {
    await rotateSigningKey(db, serverSecret, now, row.kid);
    row = await activeRow(db);
  }
  if (!row) {
    // Another instance may insert first: the partial unique index keeps one, and we read it back.
    await db
      .insert(receiptSigningKeys)
      .values(await newKeyRow(serverSecret, now))
      .onConflictDoNothing();
    row = await activeRow(db);
  }
  if (!row) throw new Error('no active receipt signing key after creating one');
  return { kid: row.kid, privateKey: await unseal(serverSecret, row.kid, row.sealedPrivateJwk), createdAt: row.createdAt };
}

/**
 * Retires the active key (or `expectedKid`, when given, only if it is still the active one) and makes
 * a new one. Returns the new active kid.
 */
export async function rotateSigningKey(db: Db, serverSecret: string, now: Date, expectedKid?: string): Promise<string> {
  const replacement = await newKeyRow(serverSecret, now);
  await db.transaction(async (tx) => {
    const guard = expectedKid
      ? and(eq(receiptSigningKeys.kid, expectedKid), isNull(receiptSigningKeys.retiredAt))
      : and(eq(receiptSigningKeys.alg, RECEIPT_ALG), isNull(receiptSigningKeys.retiredAt));
    const retired = await tx.update(receiptSigningKeys).set({ retiredAt: now }).where(guard).returning({ kid: receiptSigningKeys.kid });
    // A concurrent rotation already replaced the expected key: keep its replacement.
    if (expectedKid && retired.length === 0) return;
    await tx.insert(receiptSigningKeys).values(replacement).onConflictDoNothing();
  });
  const row = await activeRow(db);
  if (!row) throw new Error('no active receipt signing key after rotation');
  return row.kid;
}

/** Every public key, active and retired, oldest first: what /.well-known/jwks.json serves. */
export async function publicJwks(db: Db): Promise<JSONWebKeySet> {
  const rows = await db.select({ publicJwk: receiptSigningKeys.publicJwk }).from(receiptSigningKeys).orderBy(asc(receiptSigningKeys.createdAt));
  return { keys: rows.map((row) => row.publicJwk as JWK) };
}
