/**
 * The database types every module takes, apart from db/database.ts (which opens databases), so
 * that helpers the opener uses (db/after-commit.ts) can name them without an import circle.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: services accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;
