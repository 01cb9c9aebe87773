/**
 * The one drizzle schema, shared by PGlite (embedded) and PostgreSQL. Migrations in
 * backend/drizzle are generated from this file (`bun run db:generate`) and committed.
 *
 * Secrets are never stored in clear: secret keys, session tokens and handoff tokens are kept as
 * SHA-256 hashes (a database dump reveals no usable credential). Publishable keys are public by design.
 */
import { sql } from 'drizzle-orm';
import type {
  ChallengeMove,
  AuditAction,
  AuditActorType,
  AuditChange,
  BillingBlock,
  CallbackStatus,
  EventKind,
  KeyType,
  SessionState,
  TenantStatus,
  UserRole,
  VerificationMode,
} from '@ageverify/protocol';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The checks that ran on a session and the thresholds they applied (modules/receipts/receipt-claims.ts). */
export interface CheckEvidence {
  /** e.g. `age_estimation`, `liveness`, `document`, `face_match`, in the order they ran. */
  checks: string[];
  /** passport, id_card or driving_licence when a document was read. */
  documentKind?: string;
  /** The legal minimum age the document's date of birth was checked against. */
  legalMinimumAge?: number;
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** A suspended tenant's keys answer 403. */
  status: text('status').$type<TenantStatus>().notNull().default('active'),
  /** Tenant verification policy; publishable-key requests may only make it stricter. */
  policyVerificationMode: text('policy_verification_mode').$type<VerificationMode>().notNull().default('L1'),
  policyChallengeAge: integer('policy_challenge_age').notNull().default(25),
  policyFaceMatchEnabled: boolean('policy_face_match_enabled').notNull().default(true),
  /** Legal minimum age checked against the document's date of birth in L2. */
  legalMinimumAge: integer('legal_minimum_age').notNull().default(18),
  /** An inconclusive L1 face estimate continues with an ID document in the same session. */
  policyStepUpAllowed: boolean('policy_step_up_allowed').notNull().default(true),
  /** Billing plan (billingBlock): null allowance means unlimited. */
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
  /**
   * Issue 23: members who may manage API keys must sign in with a second factor (decision 0057);
   * until they enrol, the dashboard API refuses them everything of this tenant (403).
   */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  createdAt: ts('created_at').notNull(),
});

// ─── Dashboard accounts (issue 12; better-auth, modules/dashboard/auth.ts) ─────────────────────
// better-auth's tables (user, session, account, verification and the organization plugin's
// organization, member, invitation), named auth_* because `sessions` is the verification session.
// The drizzle adapter maps better-auth's model names to these objects (modules/dashboard/auth.ts);
// the JS field names are better-auth's. An organization is a tenant: its id is the tenant id
// (`ten_…`) and it is written with the tenant (modules/tenants/service.ts).

export const authUsers = pgTable(
  'auth_user',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Stored lower-case (better-auth lower-cases on sign-up and sign-in). */
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    /** better-auth's two-factor plugin: true once a first TOTP code confirmed the enrolment (decision 0057). */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('auth_user_email_idx').on(t.email)],
);

export const authSessions = pgTable(
  'auth_session',
  {
    id: text('id').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
    token: text('token').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    activeOrganizationId: text('active_organization_id'),
  },
  (t) => [uniqueIndex('auth_session_token_idx').on(t.token), index('auth_session_user_idx').on(t.userId)],
);

export const authAccounts = pgTable(
  'auth_account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: ts('access_token_expires_at'),
    refreshTokenExpiresAt: ts('refresh_token_expires_at'),
    scope: text('scope'),
    /** crypto.ts hashPassword (argon2id, PHC string): better-auth hashes and verifies through our hooks. */
    password: text('password'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('auth_account_user_idx').on(t.userId)],
);

export const authVerifications = pgTable(
  'auth_verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('auth_verification_identifier_idx').on(t.identifier)],
);

export const authOrganizations = pgTable(
  'auth_organization',
  {
    /** The tenant id. */
    id: text('id')
      .primaryKey()
      .references(() => tenants.id),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    logo: text('logo'),
    metadata: text('metadata'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('auth_organization_slug_idx').on(t.slug)],
);

export const authMembers = pgTable(
  'auth_member',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => authOrganizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    role: text('role').$type<UserRole>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('auth_member_org_user_idx').on(t.organizationId, t.userId), index('auth_member_user_idx').on(t.userId)],
);

/**
 * better-auth's two-factor plugin (issue 23, decision 0057): one row per user who started an
 * enrolment. `secret` (the TOTP key) and `backupCodes` (the recovery codes, a JSON list) are
 * encrypted by better-auth with its key, which is derived from SERVER_SECRET (auth.ts); neither is
 * ever stored or logged in clear. `verified` stays false until a first code confirms the enrolment.
 */
export const authTwoFactors = pgTable(
  'auth_two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    /** Consecutive wrong codes across sign-in challenges; at 10 the plugin locks the account's codes for 15 minutes. */
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: ts('locked_until'),
  },
  (t) => [uniqueIndex('auth_two_factor_user_idx').on(t.userId)],
);

/**
 * TOTP codes already accepted (RFC 6238 section 5.2: a verifier must not accept the same code
 * twice): the key is SHA-256 of user id and code, kept until the code can no longer be valid.
 */
export const authTwoFactorUsedCodes = pgTable(
  'auth_two_factor_used_code',
  {
    key: text('key').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('auth_two_factor_used_code_expires_idx').on(t.expiresAt)],
);

/**
 * A sign-up waiting for its email to be confirmed (issue 22, finding 9): sign-up answers the same
 * way whether or not the email has an account, so the tenant and its owner are made only when the
 * emailed link is opened. The row holds the secret's SHA-256 and the password's hash, never either
 * in clear; it is deleted when used, and refused (then swept) once expired.
 */
export const pendingSignups = pgTable(
  'pending_signup',
  {
    id: text('id').primaryKey(),
    secretHash: text('secret_hash').notNull(),
    email: text('email').notNull(),
    name: text('name'),
    tenantName: text('tenant_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [uniqueIndex('pending_signup_secret_idx').on(t.secretHash), index('pending_signup_expires_idx').on(t.expiresAt)],
);

export const authInvitations = pgTable(
  'auth_invitation',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => authOrganizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<UserRole>().notNull(),
    /** 'pending' | 'accepted' | 'rejected' | 'canceled' */
    status: text('status').notNull(),
    expiresAt: ts('expires_at').notNull(),
    inviterId: text('inviter_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    /**
     * SHA-256 of the acceptance secret that only the emailed link carries (issue 22, finding 1): the
     * invitation id is shown to every member, so it must not be what accepts. Null until the email
     * is queued (better-auth inserts the row first); a row without it cannot be accepted.
     */
    secretHash: text('secret_hash'),
  },
  (t) => [index('auth_invitation_org_idx').on(t.organizationId), uniqueIndex('auth_invitation_secret_idx').on(t.secretHash)],
);

/**
 * Failed dashboard sign-ins per email+IP (issue 12: login rate limiting), in the database so every
 * instance counts in the same bucket; one row per key and fixed window.
 */
export const authSignInFailures = pgTable(
  'auth_sign_in_failures',
  {
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

export const keyPairs = pgTable(
  'key_pairs',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    /** A pair is either live or sandbox (docs/decisions/0020). */
    sandbox: boolean('sandbox').notNull(),
    publishableKey: text('publishable_key').notNull(),
    secretKeyHash: text('secret_key_hash').notNull(),
    /** Last characters of the secret key, so operators can tell keys apart. */
    secretKeyHint: text('secret_key_hint').notNull(),
    /** The merchant's name for the pair (issue 23), trimmed, at most 100 characters; null: none given. */
    label: text('label'),
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
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    domain: text('domain').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.domain] })],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    pairId: text('pair_id')
      .notNull()
      .references(() => keyPairs.id),
    sandbox: boolean('sandbox').notNull(),
    /** Transitions live in modules/sessions/session-state.ts. */
    state: text('state').$type<SessionState>().notNull(),
    /** For terminal results (cancelled is stored as FAILED with this outcome). */
    outcome: text('outcome').$type<CallbackStatus>(),
    failureReason: text('failure_reason'),
    returnUrl: text('return_url').notNull(),
    cancelUrl: text('cancel_url'),
    merchantName: text('merchant_name'),
    externalUserId: text('external_user_id'),
    verificationMode: text('verification_mode').$type<VerificationMode>().notNull(),
    challengeAge: integer('challenge_age').notNull(),
    faceMatchEnabled: boolean('face_match_enabled').notNull(),
    sessionTokenHash: text('session_token_hash').notNull(),
    handoffTokenHash: text('handoff_token_hash').notNull(),
    billingBlock: jsonb('billing_block').$type<BillingBlock>(),
    /** Which key type created the session. */
    createdWith: text('created_with').$type<KeyType>().notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    completedAt: ts('completed_at'),
    validatedAt: ts('validated_at'),
    /** First time the verify UI loaded the session while PENDING (the dashboard's funnel, issue 23; verify/service.ts). */
    openedAt: ts('opened_at'),
    /** Live checks (modules/engine): 'document' once L1 stepped up to L2; null while the mode's first check applies. */
    checkStage: text('check_stage'),
    /** Submissions answered `retry`, and those that reached a decision (CHECK_ATTEMPT_LIMITS). */
    checkRetries: integer('check_retries').notNull().default(0),
    checkDecisions: integer('check_decisions').notNull().default(0),
    /** What the decision rested on, written with it (modules/receipts states it in the session's receipt). */
    checkEvidence: jsonb('check_evidence').$type<CheckEvidence>(),
    /** Set by the completion (session-state.ts) until the session's receipt is issued (modules/receipts). */
    receiptDue: boolean('receipt_due').notNull().default(false),
    /**
     * The claim of the one check running on this session (check-claim.ts): who holds it and until
     * when. A second submission while it is held answers 409; a claim whose holder crashed lapses
     * at `check_claim_expires_at`.
     */
    checkClaimId: text('check_claim_id'),
    checkClaimExpiresAt: ts('check_claim_expires_at'),
    /**
     * The session's current liveness challenge (engine/checks/challenge.ts, decision 0062): issued
     * by the server, consumed by the check that answers it, replaced when asked for again.
     */
    challengeId: text('challenge_id'),
    challengeMoves: jsonb('challenge_moves').$type<ChallengeMove[]>(),
    challengeExpiresAt: ts('challenge_expires_at'),
  },
  (t) => [
    index('sessions_receipt_due_idx').on(t.completedAt).where(sql`${t.receiptDue}`),
    index('sessions_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('sessions_pending_expiry_idx').on(t.expiresAt).where(sql`${t.state} = 'PENDING'`),
  ],
);

/**
 * The event outbox: one row per lifecycle event, written in the same transaction as the state
 * change that causes it (no state change without its event). `data` is the spec's per-event payload.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id),
    pairId: text('pair_id').notNull(),
    kind: text('kind').$type<EventKind>().notNull(),
    test: boolean('test').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: ts('occurred_at').notNull(),
    createdAt: ts('created_at').notNull(),
    /**
     * The webhook body bytes (the envelope as an exact JSON string), fixed once and re-sent
     * identically on every retry and redelivery (spec Delivery rules 4 and 10). Completion and
     * timeout events fix it when recorded; other kinds at their first send, because their envelope
     * `timestamp` is the send time (docs/decisions/0011-webhook-body-bytes.md).
     */
    body: text('body'),
  },
  (t) => [
    index('events_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('events_session_idx').on(t.sessionId),
    // Retention (modules/webhooks/delivery/retention.ts): the oldest events first.
    index('events_created_idx').on(t.createdAt),
  ],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    url: text('url').notNull(),
    /** Signing secret; needed in clear to compute HMACs. Shown once at creation. */
    secret: text('secret').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    pairId: text('pair_id').references(() => keyPairs.id),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: ts('created_at').notNull(),
    // Delivery state (spec "Webhook endpoint delivery"; modules/webhooks/endpoints/endpoint-state.ts).
    // The spec's Disabled state is `enabled = false`; otherwise the state is `delivery_state`.
    /** The tenant's legacy single-webhook configuration, materialised (spec Delivery rule 12). Not counted as an endpoint. */
    legacy: boolean('legacy').notNull().default(false),
    /** 'active' | 'retrying' | 'paused'. */
    deliveryState: text('delivery_state').notNull().default('active'),
    /** Failed attempts since the last 2xx. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /** First failed attempt since the last 2xx (the 24 h pause clock). */
    failingSince: ts('failing_since'),
    /** First attempt of the current unbroken run of rejections (the 1 h pause clock). */
    rejectingSince: ts('rejecting_since'),
    lastFailureAt: ts('last_failure_at'),
    lastFailureReason: text('last_failure_reason'),
    /** While retrying: the earliest time of the next (single) request. */
    retryAt: ts('retry_at'),
    /** While retrying: the one request in flight holds this lease, so instances never send two at once. */
    probeLeaseUntil: ts('probe_lease_until'),
    pausedAt: ts('paused_at'),
    pauseReason: text('pause_reason'),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId)],
);

/**
 * Fixed 60 s rate-limit windows (spec "Limits"). In the database so that
 * every backend instance counts in the same bucket. The subject is what a bucket counts for: the
 * tenant for the Sessions API, the session for the verify UI's API.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    subject: text('subject').notNull(),
    bucket: text('bucket').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.bucket, t.windowStart] }), index('rate_limit_windows_start_idx').on(t.windowStart)],
);

/**
 * Sessions counted against the monthly allowance (spec "Session creation result" billingBlock;
 * issue 14): one row per tenant, calendar month (UTC) and sandbox/live, incremented in the
 * session-create transaction by a guarded upsert (modules/billing/billing-usage.ts), so the
 * allowance check costs the same at the millionth session of the month as at the first. Only
 * sessions created without a billing block are counted, as before.
 */
export const billingUsage = pgTable(
  'billing_usage',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    sandbox: boolean('sandbox').notNull(),
    month: ts('month').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.sandbox, t.month] })],
);

/** Server-wide settings. Earlier versions kept a generated SERVER_SECRET here; server-secret.ts moves it out at boot. */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

// ─── Webhook delivery and notifications (issue 4; modules/webhooks, modules/notifications) ───────

/**
 * One row per (event, endpoint) the event was routed to (spec Delivery rule 9). `url` is the
 * destination the event was created for and never changes (rule 8). A pending row is claimed with a
 * lease (FOR UPDATE SKIP LOCKED, then commit), sent outside any transaction, and settled by the
 * holder of the lease (modules/webhooks/delivery/claim.ts, record.ts).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** 'completion' | 'timeout' | 'in-request' (spec Delivery rules 3–5). */
    policy: text('policy').notNull(),
    /** 'pending' | 'delivered' | 'undelivered'. */
    status: text('status').notNull(),
    /** Why an undelivered row was given up: expired, attempts_exhausted, rejected, endpoint_paused, endpoint_disabled. */
    undeliveredReason: text('undelivered_reason'),
    /** Attempts in the current run (the policy's budget; reset by redelivery). */
    attempts: integer('attempts').notNull().default(0),
    totalAttempts: integer('total_attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    /** The run gives up at this time (24 h window). */
    deadlineAt: ts('deadline_at').notNull(),
    leaseUntil: ts('lease_until'),
    /** Incremented by every claim: only the current holder may settle the row. */
    leaseToken: integer('lease_token').notNull().default(0),
    leasedBy: text('leased_by'),
    redeliveryId: text('redelivery_id'),
    createdAt: ts('created_at').notNull(),
    deliveredAt: ts('delivered_at'),
    settledAt: ts('settled_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_deadline_idx').on(t.deadlineAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_status_idx').on(t.endpointId, t.status),
    // The dashboard's delivery log: keyset pages, newest first (modules/webhooks/endpoints/delivery-log.ts).
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_endpoint_delivered_idx').on(t.endpointId, t.deliveredAt),
    index('webhook_deliveries_leased_idx').on(t.endpointId, t.leaseUntil).where(sql`${t.leaseUntil} is not null`),
    // Retention: delivered rows, oldest settled first (undelivered and pending rows are never removed).
    index('webhook_deliveries_retention_idx').on(t.settledAt).where(sql`${t.status} = 'delivered'`),
  ],
);

/** Every request sent (or interrupted) to an endpoint: time, status code or error class, duration. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** Null for dashboard test events. */
    deliveryId: text('delivery_id').references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: text('event_id'),
    /** 'delivery' | 'test'. */
    purpose: text('purpose').notNull(),
    attemptNumber: integer('attempt_number').notNull(),
    url: text('url').notNull(),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms'),
    statusCode: integer('status_code'),
    /** null on 2xx; else http, redirect, timeout, connection, tls, dns, destination, interrupted. */
    errorClass: text('error_class'),
    errorMessage: text('error_message'),
    /** 'success' | 'rejection' | 'failure' | 'interrupted'. */
    outcome: text('outcome').notNull(),
    workerId: text('worker_id'),
  },
  (t) => [
    index('webhook_attempts_delivery_idx').on(t.deliveryId),
    index('webhook_attempts_event_idx').on(t.eventId),
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.startedAt),
    // Retention of dashboard test attempts (those of deliveries go with their delivery, ON DELETE CASCADE).
    index('webhook_attempts_test_started_idx').on(t.startedAt).where(sql`${t.deliveryId} is null`),
  ],
);

/** A dashboard "Redeliver" request (spec Delivery rule 10), released in batches of up to 500. */
export const webhookRedeliveries = pgTable(
  'webhook_redeliveries',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** 'waiting' | 'done' | 'interrupted'. */
    status: text('status').notNull(),
    requestedAt: ts('requested_at').notNull(),
    /** Events created at or after this time (requestedAt − 7 days) are eligible. */
    windowStart: ts('window_start').notNull(),
    batches: integer('batches').notNull().default(0),
    queued: integer('queued').notNull().default(0),
    finishedAt: ts('finished_at'),
    note: text('note'),
  },
  (t) => [index('webhook_redeliveries_endpoint_idx').on(t.endpointId, t.status)],
);

/** Notices the dashboard shows a tenant (e.g. an endpoint was paused). */
export const dashboardNotices = pgTable(
  'dashboard_notices',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    endpointId: text('endpoint_id').references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    message: text('message').notNull(),
    createdAt: ts('created_at').notNull(),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [index('dashboard_notices_tenant_idx').on(t.tenantId, t.createdAt)],
);

/**
 * The audit trail (issue 23; modules/audit, decision 0056): one row per change to a tenant's keys,
 * domains, webhook endpoints, members, policy or plan, written in the change's own transaction.
 * `changes` holds `{ field: { from, to } }` and never a secret (modules/audit/no-secrets.ts). The
 * actor's id and email are copied, not referenced: an entry outlives the user it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    occurredAt: ts('occurred_at').notNull(),
    actorType: text('actor_type').$type<AuditActorType>().notNull(),
    actorUserId: text('actor_user_id'),
    actorEmail: text('actor_email'),
    ip: text('ip'),
    action: text('action').$type<AuditAction>().notNull(),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    changes: jsonb('changes').$type<Record<string, AuditChange>>().notNull(),
  },
  (t) => [index('audit_log_tenant_occurred_idx').on(t.tenantId, t.occurredAt, t.id), index('audit_log_occurred_idx').on(t.occurredAt)],
);

/**
 * Outgoing mail: sent over SMTP when SMTP_URL is set, otherwise kept here and
 * shown in the dashboard; never silently dropped. `dedupeKey` makes "one email per pause" a
 * database guarantee.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: text('id').primaryKey(),
    /** Null for mail about no tenant yet: a sign-up's confirmation (issue 22, finding 9). */
    tenantId: text('tenant_id').references(() => tenants.id),
    dedupeKey: text('dedupe_key').notNull(),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** 'pending' | 'sending' | 'sent' | 'failed' | 'unknown' (a send interrupted by a crash: never retried, so never sent twice). */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leaseUntil: ts('lease_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    sentAt: ts('sent_at'),
  },
  (t) => [uniqueIndex('email_outbox_dedupe_idx').on(t.dedupeKey), index('email_outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`)],
);

/**
 * Idempotency-Key on POST /sessions/create (issue 15, item 4; modules/idempotency): the response
 * a key produced, written in the session's own transaction so a commit never leaves one without
 * the other. The response carries the sessionToken, a bearer token, so it is stored sealed
 * (AES-256-GCM under a key derived from SERVER_SECRET), never in clear. Kept 24 h; the expiry
 * sweeper deletes older rows.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    key: text('key').notNull(),
    /** SHA-256 of the request (body, key type, sandbox): the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    sealedResponse: text('sealed_response').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index('idempotency_keys_expires_at_idx').on(t.expiresAt)],
);

// ─── Verification receipts (issue 24; modules/receipts) ─────────────────────────────────────────

/**
 * Receipt signing keys (ES256), shared by every instance through the database. The private key is
 * stored only as a JWE sealed under a key derived from SERVER_SECRET, so a database dump alone
 * cannot sign. At most one key is active (the partial unique index); retired keys stay so their
 * public halves keep being served at /.well-known/jwks.json and old receipts keep verifying.
 */
export const receiptSigningKeys = pgTable(
  'receipt_signing_keys',
  {
    kid: text('kid').primaryKey(),
    alg: text('alg').notNull(),
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    sealedPrivateJwk: text('sealed_private_jwk').notNull(),
    createdAt: ts('created_at').notNull(),
    retiredAt: ts('retired_at'),
  },
  (t) => [uniqueIndex('receipt_signing_keys_one_active_idx').on(t.alg).where(sql`${t.retiredAt} IS NULL`)],
);

/** One receipt per completed session; `seq` orders a tenant's hash chain (receipt-chain.ts). */
export const receipts = pgTable(
  'receipts',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => sessions.id),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    seq: integer('seq').notNull(),
    jws: text('jws').notNull(),
    issuedAt: ts('issued_at').notNull(),
  },
  (t) => [uniqueIndex('receipts_tenant_seq_idx').on(t.tenantId, t.seq)],
);

/**
 * The head of each tenant's receipt chain. Issuing a receipt locks this row (UPDATE), so the
 * receipts of one tenant are chained one after another even across instances.
 */
export const receiptChains = pgTable('receipt_chains', {
  tenantId: text('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  seq: integer('seq').notNull(),
  /** SHA-256 (base64url) of the last receipt's compact JWS; '' before the first. */
  headDigest: text('head_digest').notNull(),
});
