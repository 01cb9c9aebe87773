import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { afterCommit } from './after-commit';
import { listen } from './listen';
import { TARGETS, openTestDatabase, type TestDatabase } from '../testing/test-databases';
import { WAKE_CHANNEL, wakeDispatchers } from '../modules/webhooks/routing';

for (const target of TARGETS) {
  describe(`after commit (${target})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
      await database.db.execute(sql`create table if not exists after_commit_probe (id int)`);
    });
    afterAll(() => database.close());

    const count = async () => {
      const result = (await database.db.execute(sql`select count(*)::int as n from after_commit_probe`)) as unknown;
      // postgres.js answers an array of rows, PGlite an object with `rows`.
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
      return rows[0]!.n;
    };

    test('work runs once the transaction has committed, and sees what it wrote', async () => {
      const seen: number[] = [];
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into after_commit_probe values (1)`);
        expect(afterCommit(tx, () => seen.push(-1))).toBe(true);
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual([-1]);
      expect(await count()).toBeGreaterThan(0);
    });

    test('a rolled-back transaction runs nothing', async () => {
      const seen: string[] = [];
      await expect(
        database.db.transaction(async (tx) => {
          afterCommit(tx, () => seen.push('ran'));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(seen).toEqual([]);
    });

    test('a nested transaction (savepoint) or the database itself is not a place to defer to', async () => {
      expect(afterCommit(database.db, () => {})).toBe(false);
      await database.db.transaction(async (tx) => {
        await tx.transaction(async (nested) => {
          expect(afterCommit(nested, () => {})).toBe(false);
        });
      });
    });

    test('wake-ups requested while one is on its way coalesce, and one more follows the last request', async () => {
      const received: number[] = [];
      const stop = await listen(database, WAKE_CHANNEL, () => received.push(Date.now()));
      try {
        for (let i = 0; i < 20; i++) wakeDispatchers(database.db);
        const deadline = Date.now() + 10_000;
        while (received.length < 2 && Date.now() < deadline) await Bun.sleep(20);
        await Bun.sleep(200);
        // The first request sends at once; the other 19 ride on one more NOTIFY after it.
        expect(received.length).toBe(2);
      } finally {
        await stop();
      }
    });
  });
}
