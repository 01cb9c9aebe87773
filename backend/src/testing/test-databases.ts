/**
 * The database targets every integration test runs against: PGlite in memory always, and
 * PostgreSQL when TEST_DATABASE_URL is set (e.g. postgres://postgres@127.0.0.1:5432/test). Each
 * PostgreSQL target is a throwaway database created for the run and dropped after it, so leftovers
 * of earlier runs never change a result.
 */
import postgres from 'postgres';
import { randomBase62 } from '../ids';
import { openPglite, openPostgres, type Database } from '../db/database';

export interface TestDatabase extends Database {
  name: 'pglite' | 'postgres';
  /** Connection string of the throwaway PostgreSQL database (postgres target only). */
  url: string | null;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || null;
export const TARGETS: ('pglite' | 'postgres')[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export async function createThrowawayPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `avtest_${randomBase62(12).toLowerCase()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

export async function openTestDatabase(target: 'pglite' | 'postgres', options: { max?: number } = {}): Promise<TestDatabase> {
  if (target === 'pglite') return { ...(await openPglite(null)), name: 'pglite', url: null };
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const throwaway = await createThrowawayPostgres(TEST_DATABASE_URL);
  const database = await openPostgres(throwaway.url, options);
  return {
    ...database,
    name: 'postgres',
    url: throwaway.url,
    async close() {
      await database.close();
      await throwaway.drop();
    },
  };
}
