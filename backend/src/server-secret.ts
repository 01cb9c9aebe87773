/**
 * SERVER_SECRET keys the session-token HMACs. When it is not configured, one is generated once
 * and persisted in the database, so restarts (and, on PostgreSQL, every instance) agree on it.
 * Operators who keep secrets outside the database set SERVER_SECRET.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './db/database';
import { serverSettings } from './db/schema';

export async function resolveServerSecret(db: Db, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db.insert(serverSettings).values({ key: 'server_secret', value: randomBytes(32).toString('hex') }).onConflictDoNothing();
  const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, 'server_secret'));
  return row!.value;
}
