/**
 * API key authentication (spec "Authentication" 1–5; 403 for a suspended account).
 * Keys come in `Authorization: Bearer <key>` or `x-api-key: <key>`. Publishable keys are public and
 * looked up as stored; secret keys are stored only as SHA-256 hashes and looked up by hash, then
 * compared in constant time. Revoked keys are 401; a suspended tenant is 403.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { allowedDomains, keyPairs, tenants } from '../db/schema';
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
  /** The tenant's allowed domains (return and cancel URLs must be on one), read with the key. */
  domains: string[];
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

/**
 * The key, its tenant and the tenant's allowed domains in one statement (issue 14: one round trip
 * where there were three), built once per database as a drizzle prepared query so neither the SQL
 * text nor its parameter types are rebuilt per request. The domains ride along because session
 * creation checks return URLs against them; validation ignores them (a subquery on a primary key).
 */
function principalQueries(db: Db) {
  let queries = preparedByDb.get(db);
  if (!queries) {
    const query = (column: typeof keyPairs.publishableKey | typeof keyPairs.secretKeyHash, name: string) =>
      db
        .select({
          pair: keyPairs,
          tenant: tenants,
          domains: sql<
            string[]
          >`coalesce((select array_agg(${allowedDomains.domain}) from ${allowedDomains} where ${allowedDomains.tenantId} = ${tenants.id}), '{}')`,
        })
        .from(keyPairs)
        .innerJoin(tenants, eq(tenants.id, keyPairs.tenantId))
        .where(eq(column, sql.placeholder('key')))
        .prepare(name);
    queries = {
      byPublishableKey: query(keyPairs.publishableKey, 'principal_by_publishable_key'),
      bySecretKeyHash: query(keyPairs.secretKeyHash, 'principal_by_secret_key_hash'),
    };
    preparedByDb.set(db, queries);
  }
  return queries;
}
const preparedByDb = new WeakMap<Db, { byPublishableKey: PrincipalQuery; bySecretKeyHash: PrincipalQuery }>();
type PrincipalQuery = {
  execute(values: { key: string }): Promise<{ pair: typeof keyPairs.$inferSelect; tenant: typeof tenants.$inferSelect; domains: string[] }[]>;
};

export async function authenticate(db: Db, headers: Headers): Promise<ApiPrincipal> {
  const key = extractApiKey(headers);
  if (!key) throw AUTH_ERRORS.API_KEY_REQUIRED();
  if (key.length > 200) throw invalidKey();

  let principal: Omit<ApiPrincipal, 'tenant' | 'domains'>;
  let found: Awaited<ReturnType<PrincipalQuery['execute']>>[number] | undefined;
  if (key.startsWith('pk_')) {
    [found] = await principalQueries(db).byPublishableKey.execute({ key });
    const pair = found?.pair;
    if (!pair || !safeEqual(pair.publishableKey, key) || pair.revokedAt || pair.publishableRevokedAt) throw invalidKey();
    principal = { tenantId: pair.tenantId, pairId: pair.id, keyType: 'publishable', sandbox: pair.sandbox, pairedPublishableActive: true };
  } else if (key.startsWith('sk_')) {
    const hash = sha256Hex(key);
    [found] = await principalQueries(db).bySecretKeyHash.execute({ key: hash });
    const pair = found?.pair;
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

  const { tenant, domains } = found!;
  if (tenant.status !== 'active') throw AUTH_ERRORS.ACCOUNT_SUSPENDED();
  return { ...principal, tenant, domains };
}
