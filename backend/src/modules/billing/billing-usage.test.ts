import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { ManualClock } from '../../clock';
import { billingUsage } from '../../db/schema';
import { openTestDatabase, TARGETS, type TestDatabase } from '../../testing/test-databases';
import { createTenant } from '../tenants/service';
import { allowanceFor, countAgainstAllowance, recountUsage } from './billing-usage';
import { seedStartedSession } from '../../testing/seed-session';
import type { PlanFacts } from './billing-gate';

const plan = (overrides: Partial<PlanFacts> = {}): PlanFacts => ({
  planActive: true,
  planMonthlyAllowance: null,
  planSandboxAllowance: null,
  planPortalUrl: null,
  ...overrides,
});

describe('allowanceFor', () => {
  test.each([
    ['live, unlimited', plan(), false, null],
    ['live, allowance', plan({ planMonthlyAllowance: 7 }), false, 7],
    ['live, inactive plan: nothing may count', plan({ planActive: false, planMonthlyAllowance: 7 }), false, 0],
    ['sandbox ignores the live plan', plan({ planActive: false, planSandboxAllowance: 3 }), true, 3],
    ['sandbox, unlimited', plan({ planMonthlyAllowance: 1 }), true, null],
  ] as const)('%s', (_name, facts, sandbox, expected) => expect(allowanceFor(facts, sandbox)).toBe(expected));
});

for (const target of TARGETS) {
  describe(`countAgainstAllowance (${target})`, () => {
    let database: TestDatabase;
    const clock = new ManualClock(new Date('2026-03-31T23:59:00Z'));
    beforeAll(async () => {
      database = await openTestDatabase(target);
    }, 60_000);
    afterAll(() => database?.close());
    const tenant = async () => (await createTenant(database.db, clock, { name: 'Shop', domains: [], sandbox: false })).tenantId;

    test('recountUsage counts the sessions created while nothing was counted (unlimited plan)', async () => {
      const created = await createTenant(database.db, clock, { name: 'Shop', domains: [], sandbox: false });
      for (let i = 0; i < 3; i++) await seedStartedSession(database.db, { tenantId: created.tenantId, pairId: created.pairId, now: clock.now() });
      await recountUsage(database.db, created.tenantId);
      expect(await countAgainstAllowance(database.db, { tenantId: created.tenantId, sandbox: false, now: clock.now() }, 10)).toBe(3);
    });

    test('concurrent creates count exactly up to the allowance, then report it reached', async () => {
      const tenantId = await tenant();
      const results = await Promise.all(
        Array.from({ length: 12 }, () => database.db.transaction((tx) => countAgainstAllowance(tx, { tenantId, sandbox: false, now: clock.now() }, 5))),
      );
      expect(results.filter((usedBefore) => usedBefore < 5).sort()).toEqual([0, 1, 2, 3, 4]);
      expect(results.filter((usedBefore) => usedBefore === 5)).toHaveLength(7);
      const [row] = await database.db
        .select()
        .from(billingUsage)
        .where(and(eq(billingUsage.tenantId, tenantId), eq(billingUsage.sandbox, false)));
      expect(row!.used).toBe(5);
    });

    test('an allowance of 0 counts nothing; no allowance counts everything; months and sandbox are separate', async () => {
      const tenantId = await tenant();
      const key = { tenantId, sandbox: false, now: clock.now() };
      expect(await countAgainstAllowance(database.db, key, 0)).toBe(0);
      expect(await countAgainstAllowance(database.db, key, null)).toBe(0);
      expect(await countAgainstAllowance(database.db, key, null)).toBe(1);
      expect(await countAgainstAllowance(database.db, { ...key, sandbox: true }, null)).toBe(0);
      // 2026-04-01: a new month starts from zero.
      expect(await countAgainstAllowance(database.db, { ...key, now: new Date(clock.now().getTime() + 60_000) }, 1)).toBe(0);
      // The allowance lowered below the usage: reached, nothing counted.
      expect(await countAgainstAllowance(database.db, key, 1)).toBe(1);
    });
  });
}
