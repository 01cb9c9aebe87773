/**
 * Tamper evidence for a tenant's receipts (issue 24, item 4): receipt n carries `chain.seq = n`
 * and `chain.prev` = SHA-256 (base64url) of receipt n-1's compact JWS ('' for the first). A
 * removed receipt leaves a gap in `seq` and a `prev` that no longer matches; an altered one fails
 * its signature and breaks the next receipt's `prev`. Pure: the caller loads the receipts and keys.
 */
import { createHash } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { RECEIPT_ALG, RECEIPT_TYPE, type ReceiptClaims } from './receipt-claims';

export function receiptDigest(jws: string): string {
  return createHash('sha256').update(jws).digest('base64url');
}

export interface ChainBreak {
  /** The position the walk expected at the break. */
  seq: number;
  sessionId: string | null;
  problem: string;
}

export interface ChainReport {
  receipts: number;
  /** The first break, or null when the whole chain holds. */
  firstBreak: ChainBreak | null;
}

/** Walks a tenant's receipts in `seq` order and reports the first break. */
export async function verifyChain(
  stored: { sessionId: string; seq: number; jws: string }[],
  jwks: JSONWebKeySet,
  expected: { issuer?: string; tenantId: string; head?: { seq: number; headDigest: string } | null },
): Promise<ChainReport> {
  const keys = createLocalJWKSet(jwks);
  let prev = '';
  let expectedSeq = 1;
  for (const row of [...stored].sort((a, b) => a.seq - b.seq)) {
    const broken = (problem: string): ChainReport => ({ receipts: stored.length, firstBreak: { seq: expectedSeq, sessionId: row.sessionId, problem } });
    if (row.seq !== expectedSeq) return broken(`receipt ${expectedSeq} is missing: the next stored receipt is number ${row.seq}`);
    let claims: ReceiptClaims;
    try {
      const verified = await jwtVerify(row.jws, keys, {
        algorithms: [RECEIPT_ALG],
        typ: RECEIPT_TYPE,
        ...(expected.issuer ? { issuer: expected.issuer } : {}),
      });
      claims = verified.payload as unknown as ReceiptClaims;
    } catch (error) {
      return broken(`signature or header does not verify (${error instanceof Error ? error.message : String(error)})`);
    }
    if (claims.tenantId !== expected.tenantId) return broken(`belongs to tenant ${claims.tenantId}`);
    if (claims.sub !== row.sessionId) return broken(`is stored for session ${row.sessionId} but signed for ${claims.sub}`);
    if (claims.chain?.seq !== row.seq) return broken(`is stored as number ${row.seq} but signed as number ${claims.chain?.seq}`);
    if (claims.chain.prev !== prev) return broken(`does not follow the receipt before it (prev digest differs): a receipt was removed or altered`);
    prev = receiptDigest(row.jws);
    expectedSeq += 1;
  }
  // The chain head records the last receipt issued: removing the newest receipts leaves no gap to find.
  const head = expected.head;
  if (head && (head.seq !== expectedSeq - 1 || head.headDigest !== prev)) {
    return {
      receipts: stored.length,
      firstBreak: {
        seq: expectedSeq,
        sessionId: null,
        problem: `the chain head records ${head.seq} receipts but ${expectedSeq - 1} are stored in order: the newest were removed or altered`,
      },
    };
  }
  return { receipts: stored.length, firstBreak: null };
}
