/**
 * Verification receipts (issue 24): a signed, privacy-preserving record of each decision.
 *
 * A completion marks the session `receipt_due` in its own transaction (session-state.ts); the
 * receipt is issued afterwards, by the first of: validation, the dashboard's session page, or the
 * sweep (`issueDueReceipts`, every few seconds). A crash between the two therefore loses nothing:
 * the flag survives and the next sweep issues it. Issuing is idempotent (one receipt per session)
 * and chains a tenant's receipts one after another under a row lock on its chain head.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { receiptChains, receipts, sessions } from '../../db/schema';
import { ENGINE_VERSION } from '../../engine-version';
import { type ChainReport, receiptDigest, verifyChain } from './receipt-chain';
import { RECEIPT_ALG, RECEIPT_TYPE, receiptClaims } from './receipt-claims';
import { activeSigningKey, DEFAULT_KEY_ROTATION_DAYS, publicJwks } from './signing-keys';

export interface ReceiptDeps {
  db: Db;
  clock: Clock;
  serverSecret: string;
  /** The receipts' issuer (`iss`): the service's public base URL. */
  publicBaseUrl: string;
  receiptKeyRotationDays?: number;
}

const DECIDED = ['VERIFIED', 'FAILED'] as const;

/**
 * The session's receipt, issued now if it has none yet. Null for a session without a decision
 * (pending or expired), which has nothing to record.
 */
export async function issueReceipt(deps: ReceiptDeps, sessionId: string): Promise<string | null> {
  const [existing] = await deps.db.select({ jws: receipts.jws }).from(receipts).where(eq(receipts.sessionId, sessionId));
  if (existing) return existing.jws;
  const now = deps.clock.now();
  const key = await activeSigningKey(deps.db, deps.serverSecret, now, deps.receiptKeyRotationDays ?? DEFAULT_KEY_ROTATION_DAYS);
  return deps.db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), inArray(sessions.state, [...DECIDED])));
    if (!session) return null;
    await tx.insert(receiptChains).values({ tenantId: session.tenantId, seq: 0, headDigest: '' }).onConflictDoNothing();
    // The lock orders this tenant's receipts; whoever waited here finds the receipt already issued.
    const [head] = await tx.select().from(receiptChains).where(eq(receiptChains.tenantId, session.tenantId)).for('update');
    const [issued] = await tx.select({ jws: receipts.jws }).from(receipts).where(eq(receipts.sessionId, sessionId));
    if (issued) return issued.jws;
    const seq = head!.seq + 1;
    const claims = receiptClaims(session, { issuer: deps.publicBaseUrl, engineVersion: ENGINE_VERSION, issuedAt: now, seq, prev: head!.headDigest });
    const jws = await new SignJWT({ ...claims }).setProtectedHeader({ alg: RECEIPT_ALG, typ: RECEIPT_TYPE, kid: key.kid }).sign(key.privateKey);
    await tx.insert(receipts).values({ sessionId, tenantId: session.tenantId, seq, jws, issuedAt: now });
    await tx
      .update(receiptChains)
      .set({ seq, headDigest: receiptDigest(jws) })
      .where(eq(receiptChains.tenantId, session.tenantId));
    await tx.update(sessions).set({ receiptDue: false }).where(eq(sessions.id, sessionId));
    return jws;
  });
}

/** Issues the receipts of decided sessions that have none yet, oldest decision first. Returns how many. */
export async function issueDueReceipts(deps: ReceiptDeps, limit = 200): Promise<number> {
  const due = await deps.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.receiptDue, true)).orderBy(asc(sessions.completedAt)).limit(limit);
  for (const { id } of due) await issueReceipt(deps, id);
  return due.length;
}

/** `bun run cli receipts verify --tenant ID`: walks the tenant's chain and reports the first break. */
export async function verifyTenantReceipts(deps: { db: Db; publicBaseUrl?: string }, tenantId: string): Promise<ChainReport> {
  const stored = await deps.db
    .select({ sessionId: receipts.sessionId, seq: receipts.seq, jws: receipts.jws })
    .from(receipts)
    .where(eq(receipts.tenantId, tenantId))
    .orderBy(asc(receipts.seq));
  const [head] = await deps.db.select().from(receiptChains).where(eq(receiptChains.tenantId, tenantId));
  return verifyChain(stored, await publicJwks(deps.db), { issuer: deps.publicBaseUrl, tenantId, head: head ?? null });
}
