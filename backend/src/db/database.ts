/**
 * Opens the database the configuration names: PostgreSQL through postgres.js when DATABASE_URL is
 * set, otherwise the embedded PGlite in DATA_DIR. Both get the same drizzle schema and the same
 * committed migrations (backend/drizzle), applied at open.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema';
import { loadTemplate } from './pglite-template';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { restrictTree, secureDataDir } from './data-dir-permissions';
import { prepareEveryParameterisedQuery } from './prepared-statements';
import { enableAfterCommit } from './after-commit';

import type { Db } from './db-types';

export type { Db, DbOrTx } from './db-types';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Set in embedded mode: the lock on DATA_DIR (the server records its admin address in it). */
  lock: DataDirLock | null;
  close(): Promise<void>;
}

/** Arbitrary constant key for pg_advisory_lock, shared by every instance of this service. */
const MIGRATION_LOCK_KEY = 7_231_004_118;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  prepareEveryParameterisedQuery();
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Outages fail fast (issue 15, item 2): every request is answered within a few seconds, 503
    // while the database is away, and service resumes within seconds of its return.
    // A connection attempt to a server that does not answer gives up after 5 s (default 30 s).
    connect_timeout: 5,
    // postgres.js shares one retry counter across the pool and its default delay grows to 20 s,
    // so a pool that saw a restart kept queries waiting long after the server was back. Capped
    // at 1 s, with jitter so instances do not reconnect in step.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2),
    connection: {
      // No statement of this service runs for seconds; one that does is waiting on a lock or a
      // sick server, and holding a connection (and a client) for it helps nobody.
      statement_timeout: 10_000,
      // A transaction left open by a client that went away must not hold its locks.
      idle_in_transaction_session_timeout: 15_000,
    },
  });
  const db = drizzlePostgres(client, { schema });
  // Several instances may boot at once: one migrates, the others wait on the advisory lock and
  // then find nothing left to apply.
  const lockHolder = await client.reserve();
  try {
    await lockHolder`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(db, { migrationsFolder });
  } finally {
    await lockHolder`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    lockHolder.release();
  }
  return {
    db: enableAfterCommit(db as unknown as Db),
    kind: 'postgres',
    lock: null,
    // The HTTP server has stopped by then; 2 s bounds a shutdown that
    // finds connections stuck reconnecting after an outage (it took 5 s).
    close: () => client.end({ timeout: 2 }),
  };
}

/**
 * Embedded mode. `dataDir` null means in memory (tests). The folder is locked before PGlite touches
 * it, and an empty folder starts from the template instead of a fresh initdb.
 */
export async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) secureDataDir(dataDir);
  const lock = dataDir ? acquireDataDirLock(dataDir) : null;
  try {
    const pgData = dataDir ? join(dataDir, 'pgdata') : null;
    const fresh = !pgData || !existsSync(join(pgData, 'PG_VERSION'));
    const options = fresh ? { loadDataDir: await loadTemplate() } : {};
    const client = pgData ? await PGlite.create(pgData, options) : await PGlite.create(options);
    if (dataDir) restrictTree(dataDir);
    const db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder });
    return {
      db: enableAfterCommit(db as unknown as Db),
      kind: 'pglite',
      lock,
      close: async () => {
        await client.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

export function openDatabase(config: { databaseUrl: string | null; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir);
}
