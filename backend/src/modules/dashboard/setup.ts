/**
 * First run (issue 12, Deliver 1): while no tenant exists, each boot issues a setup token, logs the
 * link `PUBLIC_BASE_URL/dashboard/setup#token=…` once, and keeps only the token's SHA-256 in
 * server_settings. `POST /dashboard/api/setup` consumes it (a conditional delete: valid once, even
 * with two requests racing) and creates the first tenant and its owner.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { serverSettings, tenants } from '../../db/schema';
import { safeEqual, sha256Hex } from '../../crypto';
import { randomBase62 } from '../../ids';

const SETUP_TOKEN_KEY = 'dashboard_setup_token_sha256';

export async function anyTenantExists(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: tenants.id }).from(tenants).limit(1);
  return Boolean(row);
}

/** A new token (replacing any earlier one) when no tenant exists; null otherwise. */
export async function issueSetupToken(db: Db): Promise<string | null> {
  if (await anyTenantExists(db)) return null;
  const token = randomBase62(32);
  await db
    .insert(serverSettings)
    .values({ key: SETUP_TOKEN_KEY, value: sha256Hex(token) })
    .onConflictDoUpdate({ target: serverSettings.key, set: { value: sha256Hex(token) } });
  return token;
}

export function setupLink(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/$/, '')}/dashboard/setup#token=${token}`;
}

/** True when `token` was the current one; it is gone afterwards either way it was right. */
export async function consumeSetupToken(db: Db, token: string): Promise<boolean> {
  const hash = sha256Hex(token);
  const [stored] = await db.select().from(serverSettings).where(eq(serverSettings.key, SETUP_TOKEN_KEY));
  if (!stored || !safeEqual(stored.value, hash)) return false;
  const deleted = await db
    .delete(serverSettings)
    .where(and(eq(serverSettings.key, SETUP_TOKEN_KEY), eq(serverSettings.value, hash)))
    .returning({ key: serverSettings.key });
  return deleted.length === 1;
}

/** Puts a consumed token back when the setup it was spent on failed on bad input (the owner may retry). */
export async function restoreSetupToken(db: Db, token: string): Promise<void> {
  await db
    .insert(serverSettings)
    .values({ key: SETUP_TOKEN_KEY, value: sha256Hex(token) })
    .onConflictDoNothing();
}
