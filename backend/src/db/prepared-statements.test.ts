import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from './rows-of';
import { tenants } from './schema';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../testing/test-databases';

describe.skipIf(!TEST_DATABASE_URL)('parameterised drizzle queries on postgres.js', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  }, 30_000);
  afterAll(() => database?.close());

  test('become one named prepared statement per query text, reused on the connection', async () => {
    // A transaction pins one connection, so pg_prepared_statements shows that connection's cache.
    const count = await database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++)
        await tx
          .select({ id: tenants.id })
          .from(tenants)
          .where(eq(tenants.id, `t${i}`));
      const rows = rowsOf<{ n: number }>(
        await tx.execute(sql`select count(*)::int as n from pg_prepared_statements where statement like ${'%from "tenants" where "tenants"."id" = $1%'}`),
      );
      return rows[0]!.n;
    });
    expect(count).toBe(1);
  });
});
