/**
 * Verification receipts (issue 24), on every database target: issued with the validation result,
 * verifiable with `jose` against the JWKS of a running server, refused when altered, signed by
 * another key or checked for another tenant, still valid after a key rotation, and chained so a
 * removed or altered receipt is found.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createRemoteJWKSet, decodeProtectedHeader, generateKeyPair, type JSONWebKeySet, jwtVerify, SignJWT } from 'jose';
import { eq } from 'drizzle-orm';
import { verifyReceipt } from '@ageverify/server';
import { receipts, sessions } from '../../db/schema';
import { freePort } from '../../testing/free-port';
import { createTestContext, TEST_SECRET, type TestContext } from '../../testing/test-app';
import { TARGETS } from '../../testing/test-databases';
import { runCommand } from '../../cli/commands';
import { RECEIPT_TYPE, type ReceiptClaims } from './receipt-claims';
import { issueDueReceipts, issueReceipt, verifyTenantReceipts } from './service';
import { activeSigningKey } from './signing-keys';

const ISSUER = 'http://localhost:3000';
const SPEC_FIELDS = [
  'sessionId',
  'merchantId',
  'verified',
  'accessGranted',
  'status',
  'verificationMode',
  'challengeAge',
  'faceMatchEnabled',
  'externalUserId',
  'testMode',
  'sandboxMode',
  'timestamp',
  'expiresAt',
];

const claimsOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString()) as ReceiptClaims;

for (const target of TARGETS) {
  describe(`verification receipts [${target}]`, () => {
    let ctx: TestContext;
    let shop: Awaited<ReturnType<TestContext['tenant']>>;
    let other: Awaited<ReturnType<TestContext['tenant']>>;
    let server: { stop(force?: boolean): unknown } | null = null;
    let jwksUrl: URL;
    const deps = () => ({ db: ctx.database.db, clock: ctx.clock, serverSecret: TEST_SECRET, publicBaseUrl: ISSUER });

    beforeAll(async () => {
      ctx = await createTestContext(target);
      shop = await ctx.tenant({ sandbox: true });
      other = await ctx.tenant({ sandbox: true, name: 'Other Shop' });
      const port = freePort();
      server = ctx.app.listen({ port, hostname: '127.0.0.1' }).server;
      jwksUrl = new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`);
    });
    afterAll(async () => {
      server?.stop(true);
      await ctx.close();
    });

    /** A sandbox session taken to `outcome` through the verify UI's simulate API. */
    async function completed(tenant: typeof shop, outcome: 'verified' | 'failed' | 'cancelled' = 'verified', externalUserId?: string) {
      const created = await ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', {
          key: tenant.secretKey,
          body: { returnUrl: 'https://shop.example.com/back', ...(externalUserId ? { externalUserId } : {}) },
        }),
      );
      const simulated = await ctx.request('POST', '/api/v1/verify/simulate', {
        body: { sessionId: created.sessionId, sessionToken: created.sessionToken, outcome },
      });
      expect(simulated.status).toBe(200);
      return created.sessionId as string;
    }
    async function validate(tenant: typeof shop, sessionId: string) {
      const response = await ctx.request('POST', '/api/v1/sessions/validate', { key: tenant.secretKey, body: { sessionId } });
      expect(response.status).toBe(200);
      return ctx.json(response);
    }

    test('the validation result keeps every spec field and adds the receipt; a pending result has none', async () => {
      const pending = await ctx.json(
        await ctx.request('POST', '/api/v1/sessions/create', { key: shop.secretKey, body: { returnUrl: 'https://shop.example.com/back' } }),
      );
      const pendingResult = await validate(shop, pending.sessionId);
      expect(Object.keys(pendingResult).sort()).toEqual([...SPEC_FIELDS].sort());

      const result = await validate(shop, await completed(shop, 'verified', 'user-7'));
      expect(Object.keys(result).sort()).toEqual([...SPEC_FIELDS, 'receipt'].sort());
      expect(result.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(decodeProtectedHeader(result.receipt)).toMatchObject({ alg: 'ES256', typ: RECEIPT_TYPE });
    });

    test('a receipt verifies with jose against the JWKS served by the running server; it says nothing personal', async () => {
      const sessionId = await completed(shop, 'verified', 'user-42');
      const { receipt } = await validate(shop, sessionId);
      const response = await fetch(jwksUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      const { payload } = await jwtVerify(receipt, createRemoteJWKSet(jwksUrl), { issuer: ISSUER, typ: RECEIPT_TYPE, algorithms: ['ES256'] });
      expect(payload).toMatchObject({
        iss: ISSUER,
        sub: sessionId,
        tenantId: shop.tenantId,
        externalUserId: 'user-42',
        outcome: 'verified',
        verificationMode: 'L1',
        sandbox: true,
        checks: [],
        completedAt: Math.floor(ctx.clock.now().getTime() / 1000),
      });
      expect(typeof payload.engineVersion).toBe('string');
      const allowed = [
        'iss',
        'sub',
        'iat',
        'tenantId',
        'externalUserId',
        'outcome',
        'reason',
        'verificationMode',
        'sandbox',
        'thresholds',
        'checks',
        'documentKind',
        'engineVersion',
        'completedAt',
        'chain',
      ];
      expect(Object.keys(payload).filter((key) => !allowed.includes(key))).toEqual([]);

      const verdict = await verifyReceipt(receipt, { jwksUrl, issuer: ISSUER, tenantId: shop.tenantId, sessionId });
      expect(verdict.ok).toBe(true);
    });

    test('a changed claim, a wrong key and a receipt of another tenant are refused', async () => {
      const { receipt } = await validate(shop, await completed(shop, 'failed'));
      const [header, , signature] = receipt.split('.');
      const changed = { ...claimsOf(receipt), outcome: 'verified' };
      const tampered = `${header}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
      expect(await verifyReceipt(tampered, { jwksUrl })).toMatchObject({ ok: false, reason: 'invalid-signature' });

      // The same claims and kid, signed with a key the service never had.
      const { privateKey } = await generateKeyPair('ES256');
      const forged = await new SignJWT({ ...changed })
        .setProtectedHeader({ alg: 'ES256', typ: RECEIPT_TYPE, kid: decodeProtectedHeader(receipt).kid! })
        .sign(privateKey);
      expect(await verifyReceipt(forged, { jwksUrl })).toMatchObject({ ok: false, reason: 'invalid-signature' });

      const otherReceipt = (await validate(other, await completed(other))).receipt;
      expect(await verifyReceipt(otherReceipt, { jwksUrl, tenantId: shop.tenantId })).toMatchObject({ ok: false, reason: 'wrong-tenant' });
      expect(await verifyReceipt(otherReceipt, { jwksUrl, tenantId: other.tenantId })).toMatchObject({ ok: true });
    });

    test('after a key rotation (CLI) old receipts still verify and new ones use the new key', async () => {
      const before = (await validate(shop, await completed(shop))).receipt;
      const rotated = await runCommand(
        { db: ctx.database.db, clock: ctx.clock, guard: { allowedCidrs: [], caFile: null }, publicBaseUrl: ISSUER, serverSecret: async () => TEST_SECRET },
        ['receipts', 'rotate-key'],
      );
      expect(rotated.exitCode).toBe(0);
      const { activeKid } = JSON.parse(rotated.stdout);
      const after = (await validate(shop, await completed(shop))).receipt;
      expect(decodeProtectedHeader(after).kid).toBe(activeKid);
      expect(decodeProtectedHeader(before).kid).not.toBe(activeKid);
      const jwks = (await (await fetch(jwksUrl)).json()) as JSONWebKeySet;
      expect(await verifyReceipt(before, { jwks })).toMatchObject({ ok: true });
      expect(await verifyReceipt(after, { jwks })).toMatchObject({ ok: true });
    });

    test('the schedule rotates a key older than the rotation period', async () => {
      const now = ctx.clock.now();
      const current = await activeSigningKey(ctx.database.db, TEST_SECRET, now, 90);
      expect((await activeSigningKey(ctx.database.db, TEST_SECRET, new Date(now.getTime() + 89 * 86_400_000), 90)).kid).toBe(current.kid);
      expect((await activeSigningKey(ctx.database.db, TEST_SECRET, new Date(now.getTime() + 91 * 86_400_000), 90)).kid).not.toBe(current.kid);
    });

    test('a completed session that nobody validates gets its receipt from the sweep; issuing twice gives the same receipt', async () => {
      const sessionId = await completed(shop, 'cancelled');
      const [before] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
      expect(before!.receiptDue).toBe(true);
      expect(await issueDueReceipts(deps())).toBeGreaterThanOrEqual(1);
      const [stored] = await ctx.database.db.select().from(receipts).where(eq(receipts.sessionId, sessionId));
      expect(claimsOf(stored!.jws)).toMatchObject({ outcome: 'cancelled', sub: sessionId });
      expect(await issueReceipt(deps(), sessionId)).toBe(stored!.jws);
      expect((await validate(shop, sessionId)).receipt).toBe(stored!.jws);
    });

    test('parallel issuing keeps one chain without gaps', async () => {
      const ids = await Promise.all(Array.from({ length: 6 }, () => completed(other)));
      await Promise.all(ids.map((id) => issueReceipt(deps(), id)));
      expect(await verifyTenantReceipts(deps(), other.tenantId)).toMatchObject({ firstBreak: null });
    });

    test('the chain check finds a removed, an altered and a truncated receipt (CLI)', async () => {
      const fresh = await ctx.tenant({ sandbox: true, name: 'Chain Shop' });
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push(await completed(fresh));
        await issueReceipt(deps(), ids[i]!);
      }
      const cli = (tenantId: string) =>
        runCommand({ db: ctx.database.db, clock: ctx.clock, guard: { allowedCidrs: [], caFile: null }, publicBaseUrl: ISSUER }, [
          'receipts',
          'verify',
          '--tenant',
          tenantId,
        ]);
      const intact = await cli(fresh.tenantId);
      expect(intact.exitCode).toBe(0);
      expect(JSON.parse(intact.stdout)).toEqual({ tenantId: fresh.tenantId, receipts: 4, intact: true });

      const rows = await ctx.database.db.select().from(receipts).where(eq(receipts.tenantId, fresh.tenantId));
      const bySeq = (seq: number) => rows.find((row) => row.seq === seq)!;

      // Removed: receipt 2 is gone.
      await ctx.database.db.delete(receipts).where(eq(receipts.sessionId, bySeq(2).sessionId));
      const removed = await cli(fresh.tenantId);
      expect(removed.exitCode).not.toBe(0);
      expect(removed.stderr).toContain('breaks at receipt 2');
      expect(removed.stderr).toContain('missing');
      await ctx.database.db.insert(receipts).values(bySeq(2));

      // Altered: receipt 3's payload is swapped for receipt 4's (a valid signature, the wrong place).
      await ctx.database.db
        .update(receipts)
        .set({ jws: bySeq(4).jws })
        .where(eq(receipts.sessionId, bySeq(3).sessionId));
      const altered = await verifyTenantReceipts(deps(), fresh.tenantId);
      expect(altered.firstBreak).toMatchObject({ seq: 3, sessionId: bySeq(3).sessionId });
      await ctx.database.db
        .update(receipts)
        .set({ jws: bySeq(3).jws })
        .where(eq(receipts.sessionId, bySeq(3).sessionId));

      // Truncated: the newest receipt is removed; the chain head still remembers it.
      await ctx.database.db.delete(receipts).where(eq(receipts.sessionId, bySeq(4).sessionId));
      const truncated = await verifyTenantReceipts(deps(), fresh.tenantId);
      expect(truncated.firstBreak?.problem).toContain('newest were removed');
      await ctx.database.db.insert(receipts).values(bySeq(4));
      expect((await verifyTenantReceipts(deps(), fresh.tenantId)).firstBreak).toBeNull();
    });
  });
}
