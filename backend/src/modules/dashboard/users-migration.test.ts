/**
 * Migration 0007 (issue 12): dashboard users made before better-auth (`cli tenant create --owner
 * --password` wrote `users` rows) move into better-auth's tables with nothing lost, and sign in
 * with the password they had.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../crypto';
import { ManualClock } from '../../clock';
import { silentLogger } from '../../log';
import { createApp } from '../../app';
import type { Db } from '../../db/database';
import * as schema from '../../db/schema';
import { rowsOf } from '../../db/rows-of';
import { TARGETS, TEST_DATABASE_URL, createThrowawayPostgres } from '../../testing/test-databases';
import { TEST_SECRET } from '../../testing/test-app';
import { Browser } from './testing/dashboard-kit';

const MIGRATIONS = join(import.meta.dir, '../../../drizzle');
const BEFORE = 7; // migrations 0000–0006: the schema with the `users` table

/** A copy of the migrations folder that ends before 0007. */
function migrationsBefore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mig-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx < BEFORE);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function open(target: 'pglite' | 'postgres'): Promise<{ db: Db; migrate(folder: string): Promise<void> }> {
  if (target === 'pglite') {
    const client = await PGlite.create();
    cleanups.push(() => client.close());
    const db = drizzlePglite(client, { schema });
    return { db: db as unknown as Db, migrate: (folder) => migratePglite(db, { migrationsFolder: folder }) };
  }
  const throwaway = await createThrowawayPostgres(TEST_DATABASE_URL!);
  const client = postgres(throwaway.url, { max: 2, onnotice: () => {} });
  cleanups.push(async () => {
    await client.end();
    await throwaway.drop();
  });
  const db = drizzlePostgres(client, { schema });
  return { db: db as unknown as Db, migrate: (folder) => migratePostgres(db, { migrationsFolder: folder }) };
}

for (const target of TARGETS) {
  describe(`migration 0007: users → better-auth [${target}]`, () => {
    test('an owner row keeps id, email, role and password, and signs in to the dashboard', async () => {
      const folder = migrationsBefore();
      cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
      const { db, migrate } = await open(target);
      await migrate(folder);
      const created = new Date('2025-03-01T10:00:00Z');
      const hash = await hashPassword('an old long password');
      await db.execute(sql`insert into tenants (id, name, created_at) values ('ten_old', 'Old Shop', ${created.toISOString()}::timestamptz)`);
      await db.execute(sql`insert into tenants (id, name, created_at) values ('ten_empty', 'No Users', ${created.toISOString()}::timestamptz)`);
      await db.execute(
        sql`insert into users (id, tenant_id, email, password_hash, role, created_at) values ('usr_owner0000000000000000', 'ten_old', 'Owner@Old.example', ${hash}, 'owner', ${created.toISOString()}::timestamptz)`,
      );
      await db.execute(
        sql`insert into users (id, tenant_id, email, password_hash, role, created_at) values ('usr_dev000000000000000000', 'ten_old', 'dev@old.example', ${hash}, 'developer', ${created.toISOString()}::timestamptz)`,
      );

      await migrate(MIGRATIONS);

      const users = rowsOf<{ id: string; email: string }>(await db.execute(sql`select id, email from auth_user order by id`));
      expect(users).toEqual([
        { id: 'usr_dev000000000000000000', email: 'dev@old.example' },
        { id: 'usr_owner0000000000000000', email: 'owner@old.example' },
      ]);
      const accounts = rowsOf<{ user_id: string; provider_id: string; password: string }>(
        await db.execute(sql`select user_id, provider_id, password from auth_account order by user_id`),
      );
      expect(accounts.map((a) => [a.user_id, a.provider_id, a.password === hash])).toEqual([
        ['usr_dev000000000000000000', 'credential', true],
        ['usr_owner0000000000000000', 'credential', true],
      ]);
      const members = rowsOf<{ organization_id: string; user_id: string; role: string }>(
        await db.execute(sql`select organization_id, user_id, role from auth_member order by user_id`),
      );
      expect(members).toEqual([
        { organization_id: 'ten_old', user_id: 'usr_dev000000000000000000', role: 'developer' },
        { organization_id: 'ten_old', user_id: 'usr_owner0000000000000000', role: 'owner' },
      ]);
      const organizations = rowsOf<{ id: string; name: string }>(await db.execute(sql`select id, name from auth_organization order by id`));
      expect(organizations).toEqual([
        { id: 'ten_empty', name: 'No Users' },
        { id: 'ten_old', name: 'Old Shop' },
      ]);

      const app = createApp({
        db,
        clock: new ManualClock(),
        logger: silentLogger,
        serverSecret: TEST_SECRET,
        publicBaseUrl: 'http://localhost:3000',
        verifyUrl: 'http://localhost:3000/verify',
        maxBodyBytes: 16 * 1024,
      });
      const browser = new Browser({ app } as never);
      expect((await browser.signIn('owner@old.example', 'an old long password')).status).toBe(200);
      const me = await browser.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me).toEqual({
        user: { id: 'usr_owner0000000000000000', email: 'owner@old.example', name: 'Owner' },
        tenants: [{ tenantId: 'ten_old', name: 'Old Shop', role: 'owner' }],
        twoFactor: { enabled: false, tenantsRequiring: [] },
      });
    });
  });
}
