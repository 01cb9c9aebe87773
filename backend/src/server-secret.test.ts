import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config';
import { serverSettings } from './db/schema';
import { openTestDatabase, type TestDatabase } from './testing/test-databases';
import { SERVER_SECRET_FILE, resolveServerSecret } from './server-secret';

const CONFIGURED = 'c'.repeat(64);
const folders: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'av-secret-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('resolveServerSecret (issue 8, finding 8: not derivable from the database)', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    await database?.close();
    database = await openTestDatabase('pglite');
  });
  afterAll(() => database?.close());

  const storedSettings = () => database.db.select().from(serverSettings);

  test('embedded mode generates it once into DATA_DIR/server-secret, 0600, and nothing into the database', async () => {
    const dataDir = newDataDir();
    const secret = await resolveServerSecret(database.db, { configured: null, dataDir });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const file = join(dataDir, SERVER_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
    expect(await storedSettings()).toEqual([]);
    // A restart reads the same secret.
    expect(await resolveServerSecret(database.db, { configured: null, dataDir })).toBe(secret);
  });

  test('a secret an earlier version kept in the database moves to the file and leaves the database', async () => {
    const legacy = 'l'.repeat(64);
    await database.db.insert(serverSettings).values({ key: 'server_secret', value: legacy });
    const dataDir = newDataDir();
    expect(await resolveServerSecret(database.db, { configured: null, dataDir })).toBe(legacy);
    expect(readFileSync(join(dataDir, SERVER_SECRET_FILE), 'utf8').trim()).toBe(legacy);
    expect(await storedSettings()).toEqual([]);
  });

  test('a configured SERVER_SECRET is used as is, writes no file, and removes a legacy database copy', async () => {
    await database.db.insert(serverSettings).values({ key: 'server_secret', value: 'l'.repeat(64) });
    const dataDir = newDataDir();
    expect(await resolveServerSecret(database.db, { configured: CONFIGURED, dataDir })).toBe(CONFIGURED);
    expect(existsSync(join(dataDir, SERVER_SECRET_FILE))).toBe(false);
    expect(await storedSettings()).toEqual([]);
  });

  test('PostgreSQL mode without SERVER_SECRET is refused with how to fix it', async () => {
    const refusal = resolveServerSecret(database.db, { configured: null, dataDir: null });
    await expect(refusal).rejects.toBeInstanceOf(ConfigError);
    await expect(resolveServerSecret(database.db, { configured: null, dataDir: null })).rejects.toThrow(
      'SERVER_SECRET is required with DATABASE_URL: every instance must share it, and it must not be kept in the database. Generate one with: openssl rand -hex 32',
    );
  });
});
