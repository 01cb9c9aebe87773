/**
 * Idempotency-Key on POST /sessions/create (issue 15, item 4), on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL. Time moves through the injected clock; nothing sleeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, count, eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { events, idempotencyKeys, sessions } from '../../db/schema';
import { startSweeper } from '../sessions/expiry-sweeper';
import { silentLogger } from '../../log';
import { IDEMPOTENCY_MESSAGES } from './decide';

type Json = Record<string, any>;

for (const target of TARGETS) {
  describe(`Idempotency-Key on create [${target}]`, () => {
    let ctx: TestContext;
    let tenant: Awaited<ReturnType<TestContext['tenant']>>;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      tenant = await ctx.tenant();
    });
    afterAll(() => ctx.close());

    const create = (key: string | null, body: Json = {}, apiKey = tenant.publishableKey) =>
      ctx.request('POST', '/api/v1/sessions/create', {
        key: apiKey,
        headers: key === null ? {} : { 'idempotency-key': key },
        body: { returnUrl: 'https://shop.example.com/return', ...body },
      });
    const sessionCount = async () => (await ctx.database.db.select({ n: count() }).from(sessions).where(eq(sessions.tenantId, tenant.tenantId)))[0]!.n;
    const errorOf = async (response: Response) => {
      const body = (await response.json()) as Json;
      expect(Object.keys(body).sort()).toEqual(['error', 'message', 'path', 'statusCode', 'timestamp']);
      return body;
    };

    test('the same key and body: the first 201 and body again, marked replayed, and one session', async () => {
      const before = await sessionCount();
      const first = await create('order-1001', { externalUserId: 'u1' });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const firstBody = await first.json();
      const again = await create('order-1001', { externalUserId: 'u1' });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(firstBody);
      expect(await sessionCount()).toBe(before + 1);
      const started = await ctx.database.db
        .select({ n: count() })
        .from(events)
        .where(and(eq(events.sessionId, (firstBody as Json).sessionId), eq(events.kind, 'session.started')));
      expect(started[0]!.n).toBe(1);
    });

    test('key order in the body does not make another request', async () => {
      const first = await ctx.json(await create('order-order', { externalUserId: 'u2', merchantName: 'Shop' }));
      const raw = `{"merchantName":"Shop","externalUserId":"u2","returnUrl":"https://shop.example.com/return"}`;
      const again = await ctx.request('POST', '/api/v1/sessions/create', {
        key: tenant.publishableKey,
        headers: { 'idempotency-key': 'order-order' },
        rawBody: raw,
      });
      expect(again.status).toBe(201);
      expect((await ctx.json(again)).sessionId).toBe(first.sessionId);
    });

    test('the same key with another body: 400 saying so, nothing created', async () => {
      await create('order-1002', { externalUserId: 'u1' });
      const before = await sessionCount();
      const response = await create('order-1002', { externalUserId: 'someone-else' });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toBe(IDEMPOTENCY_MESSAGES.otherRequest);
      expect(await sessionCount()).toBe(before);
    });

    test('the same key from another kind of key (secret vs publishable) is another request', async () => {
      await create('order-1003');
      const response = await create('order-1003', {}, tenant.secretKey);
      expect(response.status).toBe(400);
    });

    test('keys are per tenant: another tenant with the same key gets its own session', async () => {
      const other = await ctx.tenant({ name: 'Other Shop' });
      const mine = await ctx.json(await create('shared-key'));
      const theirs = await ctx.request('POST', '/api/v1/sessions/create', {
        key: other.publishableKey,
        headers: { 'idempotency-key': 'shared-key' },
        body: { returnUrl: 'https://shop.example.com/return' },
      });
      expect(theirs.status).toBe(201);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect((await ctx.json(theirs)).sessionId).not.toBe(mine.sessionId);
    });

    test.each([
      ['empty', ''],
      ['too long', 'k'.repeat(256)],
      ['with a space', 'order 1'],
    ])('a key that is %s: 400, nothing created', async (_name, key) => {
      const before = await sessionCount();
      const response = await create(key);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toBe(IDEMPOTENCY_MESSAGES.invalidKey);
      expect(await sessionCount()).toBe(before);
    });

    test('a failed request stores nothing: the retry runs again', async () => {
      const refused = await create('order-1004', { returnUrl: 'https://elsewhere.example.net/return' });
      expect(refused.status).toBe(400);
      const retried = await create('order-1004', { returnUrl: 'https://elsewhere.example.net/return' });
      expect(retried.status).toBe(400);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      const fixed = await create('order-1004');
      expect(fixed.status).toBe(201);
    });

    test('the stored result is sealed: no sessionToken in clear in the table', async () => {
      const body = await ctx.json(await create('order-1005'));
      const [row] = await ctx.database.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.tenantId, tenant.tenantId), eq(idempotencyKeys.key, 'order-1005')));
      expect(row!.sealedResponse).not.toContain(body.sessionToken);
      expect(row!.sealedResponse).not.toContain(body.sessionId);
    });

    test('concurrent requests with one key: one session, both answers carry it', async () => {
      const before = await sessionCount();
      const responses = await Promise.all(Array.from({ length: 4 }, () => create('order-race')));
      const ok = responses.filter((r) => r.status === 201);
      // The winner and every replay are 201 with one session id; a request that lost while the
      // winner was still running may be 409 (documented), never a second session.
      for (const r of responses) expect([201, 409]).toContain(r.status);
      const ids = new Set(await Promise.all(ok.map(async (r) => (await ctx.json(r)).sessionId)));
      expect(ids.size).toBe(1);
      expect(await sessionCount()).toBe(before + 1);
    });

    test('after 24 h the key is forgotten: the sweeper purges it and the key makes a new session', async () => {
      const first = await ctx.json(await create('order-old'));
      ctx.clock.advance(24 * 60 * 60 * 1000);
      const sweeper = startSweeper({ db: ctx.database.db, clock: ctx.clock, logger: silentLogger, intervalMs: 3_600_000 });
      await sweeper.runOnce();
      await sweeper.stop();
      const rows = await ctx.database.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.tenantId, tenant.tenantId), eq(idempotencyKeys.key, 'order-old')));
      expect(rows).toHaveLength(0);
      const again = await create('order-old');
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect((await ctx.json(again)).sessionId).not.toBe(first.sessionId);
    });
  });
}
