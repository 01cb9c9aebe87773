/**
 * Issue 23, item 1: the overview's "verifications this month" is true for every plan, live and
 * sandbox, and equals the sessions the sessions list shows for that month (on both databases).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createKeyPair } from '../tenants/service';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { TARGETS } from '../../testing/test-databases';
import { signedIn } from './testing/dashboard-kit';
import { TEST_AUDIT } from '../audit/testing/audit-kit';

for (const target of TARGETS) {
  describe(`dashboard usage [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    let liveKey: string;
    let sandboxKey: string;
    let owner: Awaited<ReturnType<typeof signedIn>>;

    beforeAll(async () => {
      ctx = await createTestContext(target);
      // 10 days before the end of a month, so "next month" is one clock move away.
      ctx.clock.set(new Date('2026-03-21T12:00:00Z'));
      const live = await ctx.tenant({ sandbox: false });
      tenantId = live.tenantId;
      liveKey = live.secretKey;
      sandboxKey = (await createKeyPair(ctx.database.db, ctx.clock, tenantId, true, undefined, TEST_AUDIT)).secretKey;
      owner = await signedIn(ctx, tenantId, 'owner');
    });
    afterAll(() => ctx.close());

    const create = async (key: string) => {
      const response = await ctx.request('POST', '/api/v1/sessions/create', { key, body: { returnUrl: 'https://shop.example.com/back' } });
      expect(response.status).toBe(201);
    };

    /** Every session the sessions list shows, page after page. */
    async function listed(): Promise<{ sandbox: boolean; createdAt: string }[]> {
      const all: { sandbox: boolean; createdAt: string }[] = [];
      let cursor: string | null = null;
      do {
        const page: { sessions: { sandbox: boolean; createdAt: string }[]; nextCursor: string | null } = await owner.json(
          'GET',
          `/dashboard/api/tenants/${tenantId}/sessions${cursor ? `?cursor=${cursor}` : ''}`,
          undefined,
          200,
        );
        all.push(...page.sessions);
        cursor = page.nextCursor;
      } while (cursor);
      return all;
    }

    test('an unlimited plan counts live and sandbox verifications, month by month, as the sessions list does', async () => {
      for (let i = 0; i < 3; i++) await create(liveKey);
      for (let i = 0; i < 2; i++) await create(sandboxKey);
      let overview = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/overview`, undefined, 200);
      expect(overview.plan).toMatchObject({ monthlyAllowance: null, usedThisMonth: 3, sandboxAllowance: null, sandboxUsedThisMonth: 2 });

      // The next month starts from zero; the list still shows last month's sessions.
      ctx.clock.set(new Date('2026-04-01T00:00:01Z'));
      await create(liveKey);
      overview = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/overview`, undefined, 200);
      const sessions = await listed();
      const ofApril = sessions.filter((session) => session.createdAt >= '2026-04-01T00:00:00.000Z');
      expect(overview.plan.usedThisMonth).toBe(ofApril.filter((session) => !session.sandbox).length);
      expect(overview.plan.sandboxUsedThisMonth).toBe(ofApril.filter((session) => session.sandbox).length);
      expect([overview.plan.usedThisMonth, overview.plan.sandboxUsedThisMonth, sessions.length]).toEqual([1, 0, 6]);
    });
  });
}
