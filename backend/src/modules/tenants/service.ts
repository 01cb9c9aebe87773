/**
 * Tenant provisioning: tenants, owners, key pairs, allowed domains and plans. Used by the CLI now
 * and by the dashboard later. Services take plain values and a database, never a request context.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { KEY_PAIR_LABEL_MAX } from '@ageverify/protocol';
import { recountUsage } from '../billing/billing-usage';
import type { Clock } from '../../clock';
import type { Db, DbOrTx } from '../../db/database';
import { allowedDomains, keyPairs, tenants } from '../../db/schema';
import { hashPassword, sha256Hex } from '../../crypto';
import { checkNewAccount, insertMember, insertOrganization, insertUser } from './accounts';
import { newApiKey, newId } from '../../ids';
import { TENANT_ERRORS } from './errors';
import { normaliseDomainEntry } from './domain-rules';

export interface CreatedKeyPair {
  pairId: string;
  label: string | null;
  publishableKey: string;
  /** Shown once; only its hash is stored. */
  secretKey: string;
  sandbox: boolean;
}

export interface CreateTenantInput {
  name: string;
  domains: string[];
  sandbox: boolean;
  /** The owner's dashboard login (better-auth user + credential account + owner membership). */
  owner?: { email: string; password: string; name?: string };
}

export async function createTenant(db: Db, clock: Clock, input: CreateTenantInput) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw TENANT_ERRORS.TENANT_NAME_INVALID();
  const domains = input.domains.map((raw) => {
    const verdict = normaliseDomainEntry(raw);
    if (!verdict.ok) throw TENANT_ERRORS.DOMAIN_INVALID({ reason: verdict.message });
    return verdict.domain;
  });
  if (input.owner) {
    checkNewAccount(input.owner.email, input.owner.password);
  }
  const passwordHash = input.owner ? await hashPassword(input.owner.password) : null;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const tenantId = newId('tenant');
    await tx.insert(tenants).values({ id: tenantId, name, createdAt: now });
    // Organization id == tenant id (issue 12): the dashboard's memberships hang off this row.
    await insertOrganization(tx, tenantId, name, now);
    for (const domain of new Set(domains)) await tx.insert(allowedDomains).values({ tenantId, domain, createdAt: now });
    let ownerId: string | null = null;
    if (input.owner && passwordHash) {
      ownerId = await insertUser(tx, { email: input.owner.email, name: input.owner.name, passwordHash }, now);
      await insertMember(tx, tenantId, ownerId, 'owner', now);
    }
    const pair = await insertKeyPair(tx, tenantId, input.sandbox, now);
    return { tenantId, ownerId, ...pair, domains: [...new Set(domains)] };
  });
}

/** A key pair's label (issue 23): trimmed, at most KEY_PAIR_LABEL_MAX characters, no control characters; blank means none (null). */
export function normaliseKeyPairLabel(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const label = raw.trim();
  if (label.length === 0) return null;
  // Characters, not UTF-16 units: an emoji counts once.
  const length = [...label].length;
  if (length > KEY_PAIR_LABEL_MAX) throw TENANT_ERRORS.KEY_PAIR_LABEL_TOO_LONG({ max: KEY_PAIR_LABEL_MAX, length });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(label)) throw TENANT_ERRORS.KEY_PAIR_LABEL_INVALID();
  return label;
}

async function insertKeyPair(tx: DbOrTx, tenantId: string, sandbox: boolean, now: Date, label: string | null = null): Promise<CreatedKeyPair> {
  const pairId = newId('pair');
  const publishableKey = newApiKey('publishable', sandbox);
  const secretKey = newApiKey('secret', sandbox);
  await tx.insert(keyPairs).values({
    id: pairId,
    tenantId,
    sandbox,
    publishableKey,
    secretKeyHash: sha256Hex(secretKey),
    secretKeyHint: secretKey.slice(-4),
    label,
    createdAt: now,
  });
  return { pairId, label, publishableKey, secretKey, sandbox };
}

export async function requireTenant(db: DbOrTx, tenantId: string) {
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId });
  return tenant;
}

export async function createKeyPair(db: Db, clock: Clock, tenantId: string, sandbox: boolean, label?: string | null): Promise<CreatedKeyPair> {
  const normalised = normaliseKeyPairLabel(label);
  await requireTenant(db, tenantId);
  return insertKeyPair(db, tenantId, sandbox, clock.now(), normalised);
}

/** Renames a key pair (revoked ones too: the label helps tell old pairs apart); null or blank removes the label. */
export async function renameKeyPair(db: Db, tenantId: string, pairId: string, rawLabel: string | null) {
  const label = normaliseKeyPairLabel(rawLabel);
  await requireTenant(db, tenantId);
  const [row] = await db
    .update(keyPairs)
    .set({ label })
    .where(and(eq(keyPairs.id, pairId), eq(keyPairs.tenantId, tenantId)))
    .returning();
  if (!row) throw TENANT_ERRORS.KEY_PAIR_NOT_FOUND({ tenantId, pairId });
  return row;
}

export async function listKeyPairs(db: Db, tenantId: string) {
  await requireTenant(db, tenantId);
  const rows = await db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantId)).orderBy(keyPairs.createdAt);
  return rows.map((row) => ({
    pairId: row.id,
    label: row.label,
    sandbox: row.sandbox,
    publishableKey: row.publishableKey,
    secretKeyHint: `sk_…${row.secretKeyHint}`,
    publishableRevoked: row.publishableRevokedAt !== null || row.revokedAt !== null,
    revoked: row.revokedAt !== null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Revokes a whole pair, or only its publishable key (then the secret key still validates, docs/decisions-on-open-points.md, 503 row). */
export async function revokeKeyPair(db: Db, clock: Clock, tenantId: string, pairId: string, only: 'pair' | 'publishable') {
  await requireTenant(db, tenantId);
  const now = clock.now();
  const set = only === 'pair' ? { revokedAt: now, publishableRevokedAt: now } : { publishableRevokedAt: now };
  const guard = only === 'pair' ? isNull(keyPairs.revokedAt) : isNull(keyPairs.publishableRevokedAt);
  const updated = await db
    .update(keyPairs)
    .set(set)
    .where(and(eq(keyPairs.id, pairId), eq(keyPairs.tenantId, tenantId), guard))
    .returning({ id: keyPairs.id });
  if (updated.length === 0) {
    const [exists] = await db
      .select({ id: keyPairs.id })
      .from(keyPairs)
      .where(and(eq(keyPairs.id, pairId), eq(keyPairs.tenantId, tenantId)));
    if (!exists) throw TENANT_ERRORS.KEY_PAIR_NOT_FOUND({ tenantId, pairId });
  }
  return { pairId, revoked: only };
}

export async function listDomains(db: DbOrTx, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: allowedDomains.domain })
    .from(allowedDomains)
    .where(eq(allowedDomains.tenantId, tenantId))
    .orderBy(allowedDomains.domain);
  return rows.map((row) => row.domain);
}

/**
 * Adds an allowed domain. `domain` is the entry as stored; `reducedFrom` is the entry as given when
 * it was a URL (or had a port or path) reduced to its host (domain-rules.ts), else null.
 */
export async function addDomain(db: Db, clock: Clock, tenantId: string, raw: string) {
  await requireTenant(db, tenantId);
  const verdict = normaliseDomainEntry(raw);
  if (!verdict.ok) throw TENANT_ERRORS.DOMAIN_INVALID({ reason: verdict.message });
  await db.insert(allowedDomains).values({ tenantId, domain: verdict.domain, createdAt: clock.now() }).onConflictDoNothing();
  return { tenantId, domain: verdict.domain, reducedFrom: verdict.reducedFrom, domains: await listDomains(db, tenantId) };
}

export async function removeDomain(db: Db, tenantId: string, raw: string) {
  await requireTenant(db, tenantId);
  const verdict = normaliseDomainEntry(raw);
  if (!verdict.ok) throw TENANT_ERRORS.DOMAIN_INVALID({ reason: verdict.message });
  const removed = await db
    .delete(allowedDomains)
    .where(and(eq(allowedDomains.tenantId, tenantId), eq(allowedDomains.domain, verdict.domain)))
    .returning({ domain: allowedDomains.domain });
  if (removed.length === 0) throw TENANT_ERRORS.DOMAIN_NOT_FOUND({ tenantId, domain: verdict.domain });
  return { tenantId, domains: await listDomains(db, tenantId) };
}

export interface PlanInput {
  code?: string;
  active?: boolean;
  monthlyAllowance?: number | null;
  sandboxAllowance?: number | null;
  portalUrl?: string | null;
}

export async function setPlan(db: Db, tenantId: string, plan: PlanInput) {
  await requireTenant(db, tenantId);
  for (const [name, value] of [
    ['monthly', plan.monthlyAllowance],
    ['sandbox', plan.sandboxAllowance],
  ] as const) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 0)) {
      throw TENANT_ERRORS.ALLOWANCE_INVALID({ name, value });
    }
  }
  if (plan.portalUrl) {
    let url: URL | null = null;
    try {
      url = new URL(plan.portalUrl);
    } catch {}
    if (url?.protocol !== 'https:') throw TENANT_ERRORS.PORTAL_URL_INVALID({ url: plan.portalUrl });
  }
  const [row] = await db
    .update(tenants)
    .set({
      ...(plan.code !== undefined && { planCode: plan.code }),
      ...(plan.active !== undefined && { planActive: plan.active }),
      ...(plan.monthlyAllowance !== undefined && { planMonthlyAllowance: plan.monthlyAllowance }),
      ...(plan.sandboxAllowance !== undefined && { planSandboxAllowance: plan.sandboxAllowance }),
      ...(plan.portalUrl !== undefined && { planPortalUrl: plan.portalUrl }),
    })
    .where(eq(tenants.id, tenantId))
    .returning();
  // Creates do not count while an allowance is unlimited (billing-usage.ts); an allowance now set
  // must see the sessions created meanwhile.
  if (typeof plan.monthlyAllowance === 'number' || typeof plan.sandboxAllowance === 'number') await recountUsage(db, tenantId);
  return {
    tenantId,
    plan: {
      code: row!.planCode,
      active: row!.planActive,
      monthlyAllowance: row!.planMonthlyAllowance,
      sandboxAllowance: row!.planSandboxAllowance,
      portalUrl: row!.planPortalUrl,
    },
  };
}

/** A suspended tenant's keys answer 403 (docs/decisions-on-open-points.md, 403 row). */
export async function setTenantStatus(db: Db, tenantId: string, status: 'active' | 'suspended') {
  await requireTenant(db, tenantId);
  await db.update(tenants).set({ status }).where(eq(tenants.id, tenantId));
  return { tenantId, status };
}

/** Spec "Limits": higher limits per tenant by arrangement. null restores the default. */
export async function setRateLimits(db: Db, tenantId: string, limits: { create?: number | null; validate?: number | null }) {
  await requireTenant(db, tenantId);
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > 1_000_000)) {
      throw TENANT_ERRORS.RATE_LIMIT_INVALID({ name, value });
    }
  }
  const [row] = await db
    .update(tenants)
    .set({
      ...(limits.create !== undefined && { rateLimitCreate: limits.create }),
      ...(limits.validate !== undefined && { rateLimitValidate: limits.validate }),
    })
    .where(eq(tenants.id, tenantId))
    .returning();
  return { tenantId, rateLimits: { create: row!.rateLimitCreate, validate: row!.rateLimitValidate } };
}

export interface PolicyInput {
  verificationMode?: 'L1' | 'L2';
  challengeAge?: number;
  faceMatchEnabled?: boolean;
  legalMinimumAge?: number;
  /** L1 below challengeAge + margin continues with an ID document (default true). */
  stepUpAllowed?: boolean;
}

/** The tenant's verification policy; publishable-key sessions may only tighten it (docs/decisions-on-open-points.md). */
export async function setPolicy(db: Db, tenantId: string, policy: PolicyInput) {
  await requireTenant(db, tenantId);
  if (policy.challengeAge !== undefined && (!Number.isInteger(policy.challengeAge) || policy.challengeAge < 25 || policy.challengeAge > 99)) {
    throw TENANT_ERRORS.CHALLENGE_AGE_INVALID({ value: policy.challengeAge });
  }
  if (policy.legalMinimumAge !== undefined && (!Number.isInteger(policy.legalMinimumAge) || policy.legalMinimumAge < 13 || policy.legalMinimumAge > 99)) {
    throw TENANT_ERRORS.LEGAL_MINIMUM_AGE_INVALID({ value: policy.legalMinimumAge });
  }
  const [row] = await db
    .update(tenants)
    .set({
      ...(policy.verificationMode !== undefined && { policyVerificationMode: policy.verificationMode }),
      ...(policy.challengeAge !== undefined && { policyChallengeAge: policy.challengeAge }),
      ...(policy.faceMatchEnabled !== undefined && { policyFaceMatchEnabled: policy.faceMatchEnabled }),
      ...(policy.legalMinimumAge !== undefined && { legalMinimumAge: policy.legalMinimumAge }),
      ...(policy.stepUpAllowed !== undefined && { policyStepUpAllowed: policy.stepUpAllowed }),
    })
    .where(eq(tenants.id, tenantId))
    .returning();
  return {
    tenantId,
    policy: {
      verificationMode: row!.policyVerificationMode,
      challengeAge: row!.policyChallengeAge,
      faceMatchEnabled: row!.policyFaceMatchEnabled,
      legalMinimumAge: row!.legalMinimumAge,
      stepUpAllowed: row!.policyStepUpAllowed,
    },
  };
}
