/**
 * The baseline the API benchmark compares against: the same stack (Bun, Elysia, drizzle, the same
 * database driver and connection settings) doing the least a session create could do — validate a
 * JSON body, one INSERT, answer 201. Whatever the real route costs beyond this is ours to explain.
 *
 *   DATABASE_URL=postgres://… | DATA_DIR=/tmp/x   PORT=3999 bun bench/support/baseline-server.ts
 */
import { Elysia, t } from 'elysia';
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { openPglite, openPostgres } from '../../backend/src/db/database';

const baselineRows = pgTable('bench_baseline', {
  id: text('id').primaryKey(),
  returnUrl: text('return_url').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

const url = process.env.DATABASE_URL;
const database = url ? await openPostgres(url) : await openPglite(process.env.DATA_DIR ?? null);
await database.db.execute(sql`create table if not exists bench_baseline (id text primary key, return_url text not null, created_at timestamptz not null)`);

const app = new Elysia()
  .post(
    '/baseline',
    async ({ body, set }) => {
      const id = crypto.randomUUID();
      await database.db.insert(baselineRows).values({ id, returnUrl: body.returnUrl, createdAt: new Date() });
      set.status = 201;
      return { id };
    },
    { body: t.Object({ returnUrl: t.String({ minLength: 1, maxLength: 2048 }) }) },
  )
  .listen({ port: Number(process.env.PORT ?? 3999), hostname: '127.0.0.1' });

console.log(`listening ${app.server?.port}`);
process.on('SIGTERM', async () => {
  await app.stop();
  await database.close();
  process.exit(0);
});
