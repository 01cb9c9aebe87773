/**
 * Tenant provisioning: tenants, owners, key pairs, allowed domains and plans. Used by the CLI and
 * the dashboard. Services take plain values and a database, never a request context; each change
 * takes the `audit` context of whoever makes it and writes its audit entry in its own transaction
 * (modules/audit, issue 23).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { KEY_PAIR_LABEL_MAX, type AuditAction, type AuditValue } from '@ageverify/protocol';
import { recountUsage } from '../billing/billing-usage';
import type { Clock } from '../../clock';
import type { Db, DbOrTx } from '../../db/database';
import { allowedDomains, keyPairs, tenants } from '../../db/schema';
import { hashPassword, sha256Hex } from '../../crypto';
import { changedFields, createdFields, recordAudit, removedFields, systemAudit, type AuditActor, type AuditContext } from '../audit';
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
  /**
   * Who creates the tenant, for its audit entries (modules/audit). `owner`: the owner this creates
   * (setup and sign-up, where the person is made here). Default: `system` (tests and benches seeding).
   */
  audit?: Omit<AuditContext, 'actor'> & { actor: AuditActor | 'owner' };
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
    const given = input.audit ?? systemAudit(now);
    const audit: AuditContext = {
      ...given,
      actor:
        given.actor === 'owner'
          ? ownerId
            ? { type: 'user', userId: ownerId, email: input.owner!.email.trim().toLowerCase() }
            : { type: 'system' }
          : given.actor,
    };
    await recordAudit(tx, audit, {
      tenantId,
      action: 'tenant.created',
      targetId: tenantId,
      targetLabel: name,
      changes: createdFields({ name, owner: input.owner?.email.trim().toLowerCase() }),
    });
    for (const domain of new Set(domains))
      await recordAudit(tx, audit, { tenantId, action: 'domain.added', targetId: domain, changes: createdFields({ domain }) });
    await recordKeyCreated(tx, audit, tenantId, pair);
    return { tenantId, ownerId, ...pair, domains: [...new Set(domains)] };
  });
}

function recordKeyCreated(tx: DbOrTx, audit: AuditContext, tenantId: string, pair: CreatedKeyPair) {
  return recordAudit(tx, audit, {
    tenantId,
    action: 'key.created',
    targetId: pair.pairId,
    targetLabel: pair.label ?? pair.publishableKey,
    // The secret key is shown once and never recorded; the publishable key is public by design.
    changes: createdFields({ label: pair.label, sandbox: pair.sandbox, publishableKey: pair.publishableKey }),
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

export async function createKeyPair(
  db: Db,
  clock: Clock,
  tenantId: string,
  sandbox: boolean,
  label: string | null | undefined,
  audit: AuditContext,
): Promise<CreatedKeyPair> {
  const normalised = normaliseKeyPairLabel(label);
  await requireTenant(db, tenantId);
  return db.transaction(async (tx) => {
    const pair = await insertKeyPair(tx, tenantId, sandbox, clock.now(), normalised);
    await recordKeyCreated(tx, audit, tenantId, pair);
    return pair;
  });
}

/** Renames a key pair (revoked ones too: the label helps tell old pairs apart); null or blank removes the label. */
export async function renameKeyPair(db: Db, tenantId: string, pairId: string, rawLabel: string | null, audit: AuditContext) {
  const label = normaliseKeyPairLabel(rawLabel);
  await requireTenant(db, tenantId);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ label: keyPairs.label })
      .from(keyPairs)
      .where(and(eq(keyPairs.id, pairId), eq(keyPairs.tenantId, tenantId)))
      .for('update');
    if (!before) throw TENANT_ERRORS.KEY_PAIR_NOT_FOUND({ tenantId, pairId });
    const [row] = await tx.update(keyPairs).set({ label }).where(eq(keyPairs.id, pairId)).returning();
    const changes = changedFields(before, { label });
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, audit, { tenantId, action: 'key.renamed', targetId: pairId, targetLabel: row!.publishableKey, changes });
    }
    return row!;
  });
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
export async function revokeKeyPair(db: Db, clock: Clock, tenantId: string, pairId: string, only: 'pair' | 'publishable', audit: AuditContext) {
  await requireTenant(db, tenantId);
  const now = clock.now();
  const set = only === 'pair' ? { revokedAt: now, publishableRevokedAt: now } : { publishableRevokedAt: now };
  const guard = only === 'pair' ? isNull(keyPairs.revokedAt) : isNull(keyPairs.publishableRevokedAt);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(keyPairs)
      .where(and(eq(keyPairs.id, pairId), eq(keyPairs.tenantId, tenantId)))
      .for('update');
    if (!before) throw TENANT_ERRORS.KEY_PAIR_NOT_FOUND({ tenantId, pairId });
    const updated = await tx
      .update(keyPairs)
      .set(set)
      .where(and(eq(keyPairs.id, pairId), guard))
      .returning({ id: keyPairs.id });
    // A pair revoked already changes nothing and records nothing.
    if (updated.length === 0) return;
    await recordAudit(tx, audit, {
      tenantId,
      action: only === 'pair' ? 'key.revoked' : 'key.publishable_revoked',
      targetId: pairId,
      targetLabel: before.label ?? before.publishableKey,
      changes: changedFields({ revoked: revokedScope(before) }, { revoked: only }),
    });
  });
  return { pairId, revoked: only };
}

/** What of a pair is revoked: the whole pair, only its publishable key, or nothing (null). */
function revokedScope(row: typeof keyPairs.$inferSelect): 'pair' | 'publishable' | null {
  if (row.revokedAt) return 'pair';
  return row.publishableRevokedAt ? 'publishable' : null;
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
export async function addDomain(db: Db, clock: Clock, tenantId: string, raw: string, audit: AuditContext) {
  await requireTenant(db, tenantId);
  const verdict = normaliseDomainEntry(raw);
  if (!verdict.ok) throw TENANT_ERRORS.DOMAIN_INVALID({ reason: verdict.message });
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(allowedDomains)
      .values({ tenantId, domain: verdict.domain, createdAt: clock.now() })
      .onConflictDoNothing()
      .returning({ domain: allowedDomains.domain });
    // A domain on the list already is no change.
    if (added.length > 0) {
      await recordAudit(tx, audit, { tenantId, action: 'domain.added', targetId: verdict.domain, changes: createdFields({ domain: verdict.domain }) });
    }
  });
  return { tenantId, domain: verdict.domain, reducedFrom: verdict.reducedFrom, domains: await listDomains(db, tenantId) };
}

export async function removeDomain(db: Db, tenantId: string, raw: string, audit: AuditContext) {
  await requireTenant(db, tenantId);
  const verdict = normaliseDomainEntry(raw);
  if (!verdict.ok) throw TENANT_ERRORS.DOMAIN_INVALID({ reason: verdict.message });
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(allowedDomains)
      .where(and(eq(allowedDomains.tenantId, tenantId), eq(allowedDomains.domain, verdict.domain)))
      .returning({ domain: allowedDomains.domain });
    if (gone.length === 0) throw TENANT_ERRORS.DOMAIN_NOT_FOUND({ tenantId, domain: verdict.domain });
    await recordAudit(tx, audit, { tenantId, action: 'domain.removed', targetId: verdict.domain, changes: removedFields({ domain: verdict.domain }) });
  });
  return { tenantId, domains: await listDomains(db, tenantId) };
}

/**
 * Updates the tenant row with `set` and records `action` with what changed, in one transaction: the
 * row is read under FOR UPDATE, so the entry's `from` is what the update replaced. Nothing changed:
 * nothing is recorded. Returns the row as updated.
 */
async function updateTenantAudited(
  db: Db,
  tenantId: string,
  set: Partial<typeof tenants.$inferInsert>,
  audit: AuditContext,
  describe: (row: typeof tenants.$inferSelect) => Record<string, AuditValue>,
  action: AuditAction,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
    if (!before) throw TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId });
    const [row] = Object.keys(set).length > 0 ? await tx.update(tenants).set(set).where(eq(tenants.id, tenantId)).returning() : [before];
    const changes = changedFields(describe(before), describe(row!));
    if (Object.keys(changes).length > 0) await recordAudit(tx, audit, { tenantId, action, targetId: tenantId, targetLabel: row!.name, changes });
    return row!;
  });
}

export interface PlanInput {
  code?: string;
  active?: boolean;
  monthlyAllowance?: number | null;
  sandboxAllowance?: number | null;
  portalUrl?: string | null;
}

const planOf = (row: typeof tenants.$inferSelect) => ({
  code: row.planCode,
  active: row.planActive,
  monthlyAllowance: row.planMonthlyAllowance,
  sandboxAllowance: row.planSandboxAllowance,
  portalUrl: row.planPortalUrl,
});

export async function setPlan(db: Db, tenantId: string, plan: PlanInput, audit: AuditContext) {
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
  const row = await updateTenantAudited(
    db,
    tenantId,
    {
      ...(plan.code !== undefined && { planCode: plan.code }),
      ...(plan.active !== undefined && { planActive: plan.active }),
      ...(plan.monthlyAllowance !== undefined && { planMonthlyAllowance: plan.monthlyAllowance }),
      ...(plan.sandboxAllowance !== undefined && { planSandboxAllowance: plan.sandboxAllowance }),
      ...(plan.portalUrl !== undefined && { planPortalUrl: plan.portalUrl }),
    },
    audit,
    planOf,
    'plan.changed',
  );
  // Creates do not count while an allowance is unlimited (billing-usage.ts); an allowance now set
  // must see the sessions created meanwhile.
  if (typeof plan.monthlyAllowance === 'number' || typeof plan.sandboxAllowance === 'number') await recountUsage(db, tenantId);
  return { tenantId, plan: planOf(row) };
}

/** A suspended tenant's keys answer 403 (docs/decisions-on-open-points.md, 403 row). */
export async function setTenantStatus(db: Db, tenantId: string, status: 'active' | 'suspended', audit: AuditContext) {
  await requireTenant(db, tenantId);
  await updateTenantAudited(
    db,
    tenantId,
    { status },
    audit,
    (row) => ({ status: row.status }),
    status === 'suspended' ? 'tenant.suspended' : 'tenant.activated',
  );
  return { tenantId, status };
}

/** Spec "Limits": higher limits per tenant by arrangement. null restores the default. */
export async function setRateLimits(db: Db, tenantId: string, limits: { create?: number | null; validate?: number | null }, audit: AuditContext) {
  await requireTenant(db, tenantId);
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < 1 || value > 1_000_000)) {
      throw TENANT_ERRORS.RATE_LIMIT_INVALID({ name, value });
    }
  }
  const row = await updateTenantAudited(
    db,
    tenantId,
    {
      ...(limits.create !== undefined && { rateLimitCreate: limits.create }),
      ...(limits.validate !== undefined && { rateLimitValidate: limits.validate }),
    },
    audit,
    (row) => ({ create: row.rateLimitCreate, validate: row.rateLimitValidate }),
    'tenant.rate_limits_changed',
  );
  return { tenantId, rateLimits: { create: row.rateLimitCreate, validate: row.rateLimitValidate } };
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
const policyOf = (row: typeof tenants.$inferSelect) => ({
  verificationMode: row.policyVerificationMode,
  challengeAge: row.policyChallengeAge,
  faceMatchEnabled: row.policyFaceMatchEnabled,
  legalMinimumAge: row.legalMinimumAge,
  stepUpAllowed: row.policyStepUpAllowed,
});

export async function setPolicy(db: Db, tenantId: string, policy: PolicyInput, audit: AuditContext) {
  await requireTenant(db, tenantId);
  if (policy.challengeAge !== undefined && (!Number.isInteger(policy.challengeAge) || policy.challengeAge < 25 || policy.challengeAge > 99)) {
    throw TENANT_ERRORS.CHALLENGE_AGE_INVALID({ value: policy.challengeAge });
  }
  if (policy.legalMinimumAge !== undefined && (!Number.isInteger(policy.legalMinimumAge) || policy.legalMinimumAge < 13 || policy.legalMinimumAge > 99)) {
    throw TENANT_ERRORS.LEGAL_MINIMUM_AGE_INVALID({ value: policy.legalMinimumAge });
  }
  const row = await updateTenantAudited(
    db,
    tenantId,
    {
      ...(policy.verificationMode !== undefined && { policyVerificationMode: policy.verificationMode }),
      ...(policy.challengeAge !== undefined && { policyChallengeAge: policy.challengeAge }),
      ...(policy.faceMatchEnabled !== undefined && { policyFaceMatchEnabled: policy.faceMatchEnabled }),
      ...(policy.legalMinimumAge !== undefined && { legalMinimumAge: policy.legalMinimumAge }),
      ...(policy.stepUpAllowed !== undefined && { policyStepUpAllowed: policy.stepUpAllowed }),
    },
    audit,
    policyOf,
    'policy.changed',
  );
  return { tenantId, policy: policyOf(row) };
}
