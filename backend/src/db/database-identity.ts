/**
 * Which database a process uses, said in a way that is safe to print and to expose on /healthz.
 *
 * The CLI and the server each pick their database from DATA_DIR / DATABASE_URL. When the two differ
 * (the server started with DATA_DIR=X, the CLI run without it), the CLI used to create a second
 * empty ./.data and print keys the server rejects. Both sides now compute the same fingerprint, the
 * server reports its own on /healthz, and the CLI compares: a hash of the embedded folder's real
 * path, or of the PostgreSQL cluster's system identifier plus the database name (the same database
 * reached as localhost or 127.0.0.1 has one fingerprint). A hash reveals neither the path nor a
 * password; the description printed on the CLI's stderr leaves the password out.
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Db } from './database';

export interface DatabaseIdentity {
  kind: 'pglite' | 'postgres';
  /** 16 hex digits; equal for two processes on the same database. */
  id: string;
}

const fingerprint = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The folder as the file system knows it (symlinks resolved), so two spellings of one folder match. */
function canonicalFolder(dataDir: string): string {
  return existsSync(dataDir) ? realpathSync(dataDir) : dataDir;
}

export function embeddedIdentity(dataDir: string): DatabaseIdentity {
  return { kind: 'pglite', id: fingerprint(`pglite:${canonicalFolder(dataDir)}`) };
}

/**
 * The cluster's system identifier (pg_control_system, PostgreSQL 9.6+) names the cluster whatever
 * host name reached it. Some managed services refuse the function; then host, port and database
 * name from the URL are the best we have.
 */
export async function postgresIdentity(db: Db, databaseUrl: string): Promise<DatabaseIdentity> {
  try {
    const rows = (await db.execute(sql`select system_identifier::text as system, current_database() as name from pg_control_system()`)) as unknown as
      | Array<{ system: string; name: string }>
      | { rows: Array<{ system: string; name: string }> };
    const row = Array.isArray(rows) ? rows[0] : rows.rows[0];
    if (row) return { kind: 'postgres', id: fingerprint(`postgres:${row.system}/${row.name}`) };
  } catch {
    // fall through to the URL
  }
  const url = new URL(databaseUrl);
  return { kind: 'postgres', id: fingerprint(`postgres-url:${url.hostname}:${url.port || '5432'}${url.pathname}`) };
}

/** For people: where the data lives, never the password. */
export function describeDatabase(config: { databaseUrl: string | null; dataDir: string }): string {
  if (!config.databaseUrl) return `embedded database in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
