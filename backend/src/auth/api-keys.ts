/**
 * API key authentication (spec "Authentication" 1–5; 403 for a suspended account).
 * Keys come in `Authorization: Bearer <key>` or `x-api-key: <key>`. Publishable keys are public and
 * looked up as stored; secret keys are stored only as SHA-256 hashes and looked up by hash, then
 * compared in constant time. Revoked keys are 401; a suspended tenant is 403.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { keyPairs, tenants } from '../db/schema';
import { safeEqual, sha256Hex } from '../crypto';
import { AUTH_ERRORS } from './errors';

export interface ApiPrincipal {
  tenantId: string;
  pairId: string;
  keyType: 'publishable' | 'secret';
  sandbox: boolean;
  /** For secret keys: whether the paired publishable key is still active (spec 503 launch configuration). */
  pairedPublishableActive: boolean;
  /** The key's tenant, read once here: session creation needs its policy, plan and rate limits. */
  tenant: typeof tenants.$inferSelect;
}

export function extractApiKey(headers: Headers): string | null {
  const authorization = headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1]!;
  }
  const apiKey = headers.get('x-api-key')?.trim();
  return apiKey ? apiKey : null;
}

const invalidKey = () => AUTH_ERRORS.INVALID_API_KEY();

export async function authenticate(db: Db, headers: Headers): Promise<ApiPrincipal> {
  const key = extractApiKey(headers);
  if (!key) throw AUTH_ERRORS.API_KEY_REQUIRED();
  if (key.length > 200) throw invalidKey();

  let principal: Omit<ApiPrincipal, 'tenant'>;
  if (key.startsWith('pk_')) {
    const [pair] = await db.select().from(keyPairs).where(eq(keyPairs.publishableKey, key));
    if (!pair || !safeEqual(pair.publishableKey, key) || pair.revokedAt || pair.publishableRevokedAt) throw invalidKey();
    principal = { tenantId: pair.tenantId, pairId: pair.id, keyType: 'publishable', sandbox: pair.sandbox, pairedPublishableActive: true };
  } else if (key.startsWith('sk_')) {
    const hash = sha256Hex(key);
    const [pair] = await db.select().from(keyPairs).where(eq(keyPairs.secretKeyHash, hash));
    if (!pair || !safeEqual(pair.secretKeyHash, hash) || pair.revokedAt) throw invalidKey();
    principal = {
      tenantId: pair.tenantId,
      pairId: pair.id,
      keyType: 'secret',
      sandbox: pair.sandbox,
      pairedPublishableActive: pair.publishableRevokedAt === null,
    };
  } else {
    throw invalidKey();
  }

  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, principal.tenantId));
  if (tenant?.status !== 'active') throw AUTH_ERRORS.ACCOUNT_SUSPENDED();
  return { ...principal, tenant };
}
