/**
 * The one drizzle schema, shared by PGlite (embedded) and PostgreSQL. Migrations in
 * backend/drizzle are generated from this file (`bun run db:generate`) and committed.
 *
 * Secrets are never stored in clear: secret keys, session tokens and handoff tokens are kept as
 * SHA-256 hashes (DESIGN.md §2, IDs and sessionToken rows). Publishable keys are public by design.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** 'active' | 'suspended'. A suspended tenant's keys answer 403 (DESIGN.md §2). */
  status: text('status').notNull().default('active'),
  /** Tenant verification policy; publishable-key requests may only make it stricter (DESIGN.md §2). */
  policyVerificationMode: text('policy_verification_mode').notNull().default('L1'),
  policyChallengeAge: integer('policy_challenge_age').notNull().default(25),
  policyFaceMatchEnabled: boolean('policy_face_match_enabled').notNull().default(true),
  /** Legal minimum age checked against the document's date of birth in L2 (DESIGN.md §2). */
  legalMinimumAge: integer('legal_minimum_age').notNull().default(18),
  /** Billing plan (DESIGN.md §2 billingBlock): null allowance means unlimited. */
  planCode: text('plan_code').notNull().default('free'),
  planActive: boolean('plan_active').notNull().default(true),
  planMonthlyAllowance: integer('plan_monthly_allowance'),
  planSandboxAllowance: integer('plan_sandbox_allowance'),
  planPortalUrl: text('plan_portal_url'),
  /** Per-tenant rate-limit overrides (spec "Limits": higher limits by arrangement). */
  rateLimitCreate: integer('rate_limit_create'),
  rateLimitValidate: integer('rate_limit_validate'),
  /** Legacy single-webhook configuration (spec Delivery rule 12). */
  legacyWebhookUrl: text('legacy_webhook_url'),
  legacyWebhookSecret: text('legacy_webhook_secret'),
  legacyWebhookEvents: jsonb('legacy_webhook_events').$type<string[]>(),
  createdAt: ts('created_at').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().references(() => tenants.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** 'owner' | 'admin' | 'developer' (DESIGN.md §2, Dashboard access). */
    role: text('role').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`)],
);

export const keyPairs = pgTable(
  'key_pairs',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().references(() => tenants.id),
    /** A pair is either live or sandbox (DESIGN.md §2, sandboxMode). */
    sandbox: boolean('sandbox').notNull(),
    publishableKey: text('publishable_key').notNull(),
    secretKeyHash: text('secret_key_hash').notNull(),
    /** Last characters of the secret key, so operators can tell keys apart. */
    secretKeyHint: text('secret_key_hint').notNull(),
    publishableRevokedAt: ts('publishable_revoked_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('key_pairs_publishable_idx').on(t.publishableKey),
    uniqueIndex('key_pairs_secret_hash_idx').on(t.secretKeyHash),
    index('key_pairs_tenant_idx').on(t.tenantId),
  ],
);

export const allowedDomains = pgTable(
  'allowed_domains',
  {
    tenantId: text('tenant_id').notNull().references(() => tenants.id),
    domain: text('domain').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.domain] })],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().references(() => tenants.id),
    pairId: text('pair_id').notNull().references(() => keyPairs.id),
    sandbox: boolean('sandbox').notNull(),
    /** PENDING | VERIFIED | FAILED | EXPIRED; transitions live in modules/sessions/session-state.ts. */
    state: text('state').notNull(),
    /** For terminal results: 'verified' | 'failed' | 'cancelled' (cancelled is stored as FAILED, DESIGN.md §2). */
    outcome: text('outcome'),
    failureReason: text('failure_reason'),
    returnUrl: text('return_url').notNull(),
    cancelUrl: text('cancel_url'),
    merchantName: text('merchant_name'),
    externalUserId: text('external_user_id'),
    verificationMode: text('verification_mode').notNull(),
    challengeAge: integer('challenge_age').notNull(),
    faceMatchEnabled: boolean('face_match_enabled').notNull(),
    sessionTokenHash: text('session_token_hash').notNull(),
    handoffTokenHash: text('handoff_token_hash').notNull(),
    billingBlock: jsonb('billing_block').$type<{ code: string; message: string; portalUrl?: string }>(),
    /** 'publishable' | 'secret': which key type created the session. */
    createdWith: text('created_with').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    completedAt: ts('completed_at'),
    validatedAt: ts('validated_at'),
  },
  (t) => [
    index('sessions_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('sessions_pending_expiry_idx').on(t.expiresAt).where(sql`${t.state} = 'PENDING'`),
  ],
);

/**
 * The event outbox: one row per lifecycle event, written in the same transaction as the state
 * change that causes it (DESIGN.md §3 Data). `data` is the spec's per-event payload.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().references(() => tenants.id),
    sessionId: text('session_id').notNull().references(() => sessions.id),
    pairId: text('pair_id').notNull(),
    kind: text('kind').notNull(),
    test: boolean('test').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: ts('occurred_at').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('events_tenant_created_idx').on(t.tenantId, t.createdAt), index('events_session_idx').on(t.sessionId)],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().references(() => tenants.id),
    url: text('url').notNull(),
    /** Signing secret; needed in clear to compute HMACs. Shown once at creation. */
    secret: text('secret').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    pairId: text('pair_id').references(() => keyPairs.id),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId)],
);

/**
 * Fixed 60 s rate-limit windows per tenant and endpoint (spec "Limits"; DESIGN.md §2 Rate limits).
 * In the database so that every backend instance counts in the same bucket.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    tenantId: text('tenant_id').notNull(),
    bucket: text('bucket').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.bucket, t.windowStart] }), index('rate_limit_windows_start_idx').on(t.windowStart)],
);

/** Secrets the server generates for itself (embedded mode persists SERVER_SECRET here when unset). */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
