/**
 * A PostgreSQL database that lives for one e2e run: created on the server named by
 * TEST_DATABASE_URL, dropped at teardown, so runs never see each other's tenants or sessions.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export interface ThrowawayDatabase {
  name: string;
  /** TEST_DATABASE_URL with the database name replaced: what the backend gets as DATABASE_URL. */
  url: string;
  drop(): Promise<void>;
}

export async function createThrowawayDatabase(serverUrl: string): Promise<ThrowawayDatabase> {
  const name = `e2e_${randomBytes(6).toString('hex')}`;
  await withAdminConnection(serverUrl, (sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.href,
    // WITH (FORCE) ends connections a killed backend may have left behind (PostgreSQL 13+).
    drop: () => withAdminConnection(serverUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function withAdminConnection(serverUrl: string, work: (sql: postgres.Sql) => Promise<unknown>): Promise<void> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await work(sql);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL at ${redact(serverUrl)}: ${message}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
