/**
 * SERVER_SECRET keys the session- and handoff-token HMACs. Whoever holds it can open any pending
 * session from a phone, so it must not be derivable from database contents (issue 8, finding 8):
 *
 * - configured (SERVER_SECRET): used as is. Required with PostgreSQL, where every instance must
 *   share it and there is no private folder to keep a generated one in.
 * - embedded mode without it: generated once and kept in `DATA_DIR/server-secret`, mode 0600 inside
 *   the 0700 data folder, beside (not inside) the database.
 *
 * Earlier versions kept the generated secret in the `server_settings` table. It is moved to the file
 * on first start (so links of pending sessions keep working) and deleted from the database either way.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { ConfigError } from './config';
import type { Db } from './db/database';
import { serverSettings } from './db/schema';

export const SERVER_SECRET_FILE = 'server-secret';
const LEGACY_KEY = 'server_secret';
const MIN_LENGTH = 32;

export interface ServerSecretSource {
  /** SERVER_SECRET, validated by config.ts (≥ 32 characters). */
  configured: string | null;
  /** DATA_DIR in embedded mode; null with PostgreSQL. */
  dataDir: string | null;
}

export async function resolveServerSecret(db: Db, source: ServerSecretSource): Promise<string> {
  const [legacy] = await db.select().from(serverSettings).where(eq(serverSettings.key, LEGACY_KEY));
  const secret = source.configured ?? fileSecret(source.dataDir, legacy?.value ?? null);
  if (legacy) await db.delete(serverSettings).where(eq(serverSettings.key, LEGACY_KEY));
  return secret;
}

function fileSecret(dataDir: string | null, legacy: string | null): string {
  if (!dataDir) {
    throw new ConfigError([
      'SERVER_SECRET is required with DATABASE_URL: every instance must share it, and it must not be kept in the database. ' +
        'Generate one with: openssl rand -hex 32',
    ]);
  }
  const file = join(dataDir, SERVER_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < MIN_LENGTH)
      throw new ConfigError([`${file} holds no valid server secret; delete it to have a new one generated (pending sessions' links stop working)`]);
    return stored;
  }
  const secret = legacy ?? randomBytes(32).toString('hex');
  // wx: never overwrite a secret another process wrote meanwhile; 0600 whatever the umask.
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
