/**
 * The dashboard API (issue 12): request and response bodies of `/dashboard/api/*`, shared by the
 * backend (which implements them) and the dashboard front end (which calls them). The contract is
 * docs/dashboard-api.md; changes are announced in commits starting with "contract:".
 *
 * Times are ISO 8601 strings. Every refusal is the service's error body (`ErrorBody` in ./errors)
 * with a 4xx status: 401 not signed in, 404 not a member of the tenant (another tenant is never
 * revealed), 403 role too low or cross-site request, 429 sign-in rate limit (with Retry-After).
 *
 * Where this differs from or adds to the contract notes:
 * - `GET /setup` also answers `signupEnabled`; `POST /signup` (and its `/signup/lookup`, `/signup/confirm`) exist when DASHBOARD_SIGNUP=true (else 404).
 * - `POST .../rotate-secret` answers `{ secret }` only: the new secret replaces the old at once (decision 0036).
 * - A delivery attempt's `durationMs` may be null (no request was made, e.g. a refused destination);
 *   its `error` is null for a 2xx.
 * - Developers may read `/keys` and `/members` (publishable keys and hints only); every change there,
 *   and `/emails`, is owner/admin only (403).
 * - `DELETE /invitations/:id` answers `{ invitationId, status: "canceled" }`; `DELETE /members/:userId`
 *   answers `{ userId, removed: true }`; `PATCH /members/:userId` answers the MemberView.
 * - better-auth bodies never carry the session token (it lives only in the HttpOnly cookie).
 */
import type { TenantStatus, UserRole } from './accounts';
import type { EventKind } from './events';
import type { SessionState, VerificationMode } from './session';

/** Base path of the dashboard API; better-auth's endpoints live under `${DASHBOARD_API_BASE}/auth`. */
export const DASHBOARD_API_BASE = '/dashboard/api';
/** The message of the 403 every state-changing request without our Origin (or without JSON) gets. */
export const CROSS_SITE_REFUSED_MESSAGE = 'Cross-site request refused';
/** Spec: at most 20 webhook endpoints per tenant. */
export const WEBHOOK_ENDPOINT_LIMIT = 20;

/** Roles an invitation can give (owners are made by setup, sign-up or the CLI). */
export const INVITABLE_ROLES = ['admin', 'developer'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

// ---------------------------------------------------------------- public (no session)

/** `GET /dashboard/api/setup` */
export interface SetupStatusResponse {
  /** True while no tenant exists: the first-run page is shown. */
  needed: boolean;
  /** Whether the operator allows sign-up of further tenants (`DASHBOARD_SIGNUP`). Additive to the contract. */
  signupEnabled: boolean;
}

/** `POST /dashboard/api/setup`: the token comes from the link logged at boot (`/dashboard/setup#token=…`). */
export interface SetupRequest {
  token: string;
  tenantName: string;
  email: string;
  password: string;
  name?: string;
}
/** 201, with a signed-in session cookie: the new tenant (setup and sign-up). */
export interface SetupResponse {
  tenantId: string;
}
/**
 * What `POST /setup` answers: setup makes the tenant's first key pair, a sandbox one, and answers it
 * here with its secret key, this once, for the setup screen to show (issue 23; docs/decisions/0052).
 */
export interface FirstRunSetupResponse extends SetupResponse {
  sandboxKeyPair: CreateKeyPairResponse;
}

/** `POST /dashboard/api/signup` (only when the operator set DASHBOARD_SIGNUP; else 404). 202 + SignupResponse; finished from the emailed link. */
export interface SignupRequest {
  tenantName: string;
  email: string;
  password: string;
  name?: string;
}
/**
 * `POST /dashboard/api/signup` answers 202 with this whether or not the email has a user (nobody
 * learns who is a customer); the email then carries either the link that finishes the sign-up
 * (`/dashboard/confirm#secret=…`) or word that the address has a user already.
 */
export interface SignupResponse {
  /** Where the email went, normalised (lower case). */
  email: string;
}
/** `POST /dashboard/api/signup/lookup` with `{ secret }`: what the link is for. */
export interface SignupLookupResponse {
  email: string;
  tenantName: string;
  expiresAt: string;
}
/** `POST /dashboard/api/signup/confirm`: the link's secret and the password chosen at sign-up; 201 with FirstRunSetupResponse (the sandbox pair, its secret this once), signed in. */
export interface SignupConfirmRequest {
  secret: string;
  password: string;
}

/**
 * `POST /dashboard/api/invitations/lookup` with `{ secret }`: the secret comes from the emailed link
 * (`/dashboard/invite#secret=…`). The invitation id is no acceptance credential: members see it.
 */
export interface InvitationLookupRequest {
  secret: string;
}
export interface InvitationInfoResponse {
  email: string;
  tenantName: string;
  role: UserRole;
  expiresAt: string;
  /** True when a user with this email exists: the page asks them to sign in, then accept with `{ secret }`. */
  accountExists: boolean;
}

/**
 * `POST /dashboard/api/invitations/accept`: `{ secret, password, name? }` creates the account of the
 * invited email; `{ secret }` when signed in as that email.
 */
export interface AcceptInvitationRequest {
  secret: string;
  password?: string;
  name?: string;
}
/** 200 + session cookie. */
export interface AcceptInvitationResponse {
  tenantId: string;
}

// ---------------------------------------------------------------- better-auth endpoints the UI uses

/** `POST /dashboard/api/auth/sign-in/email` */
export interface SignInRequest {
  email: string;
  password: string;
}
/**
 * What `sign-in/email` answers (200) instead of a session when the user has two-factor sign-in on:
 * no session cookie yet, only a short-lived challenge cookie (HttpOnly); the code then goes to
 * `two-factor/verify-totp` or `two-factor/verify-backup-code` (issue 23, decision 0057).
 */
export interface SignInTwoFactorChallenge {
  twoFactorRedirect: true;
  twoFactorMethods: Array<'totp'>;
}
/**
 * `POST /dashboard/api/auth/two-factor/enable { password }` (signed in): starts an enrolment. The
 * answer carries the authenticator app's `otpauth://` URI (its secret inside) and the recovery
 * codes; two-factor sign-in is on only once a first code from the app is verified.
 */
export interface EnableTwoFactorRequest {
  password: string;
}
export interface EnableTwoFactorResponse {
  totpURI: string;
  backupCodes: string[];
}
/**
 * `POST /dashboard/api/auth/two-factor/verify-totp { code }`: the app's 6-digit code. Signed in, it
 * confirms an enrolment; after a sign-in's challenge, it finishes the sign-in (session cookie).
 * `POST /dashboard/api/auth/two-factor/verify-backup-code { code }`: a recovery code instead, once each.
 */
export interface TwoFactorCodeRequest {
  code: string;
}
/** `POST /dashboard/api/auth/two-factor/disable { password }` (signed in): turns two-factor sign-in off. */
export interface DisableTwoFactorRequest {
  password: string;
}

/** `POST /dashboard/api/auth/change-password` */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
  revokeOtherSessions: true;
}

// ---------------------------------------------------------------- signed in

export interface DashboardUser {
  id: string;
  email: string;
  name: string;
}
export interface TenantMembership {
  tenantId: string;
  name: string;
  role: UserRole;
}
/** The signed-in user's second factor (issue 23). */
export interface MeTwoFactor {
  /** Two-factor sign-in is on (an enrolment confirmed with a first code). */
  enabled: boolean;
  /**
   * The user's tenants (ids) whose policy requires two-factor sign-in of members who can manage API
   * keys; with protocol's `mustEnrolTwoFactor`, whether this user is held back there.
   */
  tenantsRequiring: string[];
}
/** `GET /dashboard/api/me` */
export interface MeResponse {
  user: DashboardUser;
  tenants: TenantMembership[];
  twoFactor: MeTwoFactor;
}

// ---------------------------------------------------------------- tenant routes: /dashboard/api/tenants/:tenantId

export interface Notice {
  id: string;
  kind: string;
  endpointId: string | null;
  message: string;
  createdAt: string;
  resolvedAt: string | null;
}
export interface PlanUsage {
  name: string;
  /** Null: no monthly limit. */
  monthlyAllowance: number | null;
  usedThisMonth: number;
  sandboxAllowance: number | null;
  sandboxUsedThisMonth: number;
  billingPortalUrl: string | null;
}
/** `GET /overview` */
export interface OverviewResponse {
  tenant: { tenantId: string; name: string; status: TenantStatus };
  role: UserRole;
  plan: PlanUsage;
  notices: Notice[];
}

/** A key pair's label: trimmed, at most this many characters; blank means none. */
export const KEY_PAIR_LABEL_MAX = 100;

export interface KeyPairView {
  pairId: string;
  /** The merchant's name for the pair; null when none was given. */
  label: string | null;
  sandbox: boolean;
  publishableKey: string;
  /** The end of the secret key, e.g. `sk_test_…a1b2`: enough to recognise it, never enough to use it. */
  secretKeyHint: string;
  createdAt: string;
  revokedAt: string | null;
  publishableRevokedAt: string | null;
  /** Secret key active but its publishable partner revoked: creates answer 503 SESSION_LAUNCH_CONFIGURATION_UNAVAILABLE. */
  launchUnavailable: boolean;
}
/** `GET /keys` */
export interface KeyPairsResponse {
  pairs: KeyPairView[];
}
/** `POST /keys` */
export interface CreateKeyPairRequest {
  sandbox: boolean;
  /** Optional; trimmed, at most KEY_PAIR_LABEL_MAX characters, no control characters (else 400). */
  label?: string | null;
}
/** 201; the secret key is shown this once. */
export interface CreateKeyPairResponse {
  pairId: string;
  label: string | null;
  sandbox: boolean;
  publishableKey: string;
  secretKey: string;
}
/** `PATCH /keys/:pairId` → 200 KeyPairView: renames the pair; null or a blank label removes it. */
export interface RenameKeyPairRequest {
  label: string | null;
}
/** `POST /keys/:pairId/revoke` → 200 KeyPairView */
export interface RevokeKeyPairRequest {
  only?: 'pair' | 'publishable';
}

/**
 * `GET /two-factor-policy` (every role) and `PUT /two-factor-policy` (owners): whether members who
 * can manage API keys must sign in with a second factor (issue 23). Turning it on needs the owner's
 * own two-factor sign-in on (409 otherwise).
 */
export interface TwoFactorPolicy {
  required: boolean;
}

/** `GET /domains`, `POST /domains` (201), `DELETE /domains/:domain` (200) */
export interface DomainsResponse {
  domains: string[];
}
/** `POST /domains`: a host name, `*.parent.example`, or a URL on the host (reduced to its host). */
export interface AddDomainRequest {
  domain: string;
}
/** 201 to `POST /domains`: the list, and what was stored for this entry. */
export interface AddDomainResponse extends DomainsResponse {
  /** The entry as stored, e.g. `shop.example.com`. */
  domain: string;
  /** The entry as given when it was a URL, or had a port or path, and was reduced to its host; else null. */
  reducedFrom: string | null;
}

export const ENDPOINT_STATES = ['active', 'retrying', 'paused', 'disabled'] as const;
export type EndpointStateName = (typeof ENDPOINT_STATES)[number];
export type EndpointHealth = 'healthy' | 'degraded' | 'failing' | 'paused' | 'disabled';

export interface RedeliveryProgress {
  requestedAt: string;
  total: number;
  sent: number;
}
export interface Endpoint {
  endpointId: string;
  url: string;
  events: EventKind[];
  pairId: string | null;
  enabled: boolean;
  state: EndpointStateName;
  health: EndpointHealth;
  lastSuccessAt: string | null;
  undelivered: number;
  pausedAt: string | null;
  pauseReason: string | null;
  createdAt: string;
  redelivery: RedeliveryProgress | null;
}
export interface LegacyWebhook {
  url: string;
  events: EventKind[];
  appliesUntilFirstEndpoint: true;
}
/** `GET /webhooks` */
export interface WebhooksResponse {
  limit: number;
  endpoints: Endpoint[];
  legacy: LegacyWebhook | null;
}
/** `POST /webhooks` */
export interface CreateEndpointRequest {
  url: string;
  events: EventKind[];
  pairId?: string | null;
}
/** 201; the signing secret is shown this once. */
export interface CreateEndpointResponse {
  endpoint: Endpoint;
  secret: string;
}
/** `PATCH /webhooks/:endpointId` → 200 Endpoint */
export interface UpdateEndpointRequest {
  url?: string;
  events?: EventKind[];
  pairId?: string | null;
}
/** `DELETE /webhooks/:endpointId` */
export interface RemoveEndpointResponse {
  endpointId: string;
  removed: true;
}
/**
 * `POST /webhooks/:endpointId/rotate-secret`: the new secret, shown once. It replaces the old one at
 * once (decision 0036): every later attempt, queued events' retries included, is signed with it.
 */
export interface RotateSecretResponse {
  secret: string;
}
/** `POST /webhooks/:endpointId/test-and-resume` */
export interface TestAndResumeResponse {
  ok: boolean;
  status: number | null;
  error: string | null;
  endpoint: Endpoint;
}
/** `POST /webhooks/:endpointId/redeliver` → 202 */
export interface RedeliverResponse {
  events: number;
  batches: number;
}
export interface DeliveryAttemptView {
  at: string;
  status: number | null;
  /** Null when the attempt never got as far as a request (e.g. the destination was refused). */
  durationMs: number | null;
  error: string | null;
}
export type DeliveryStateName = 'pending' | 'delivered' | 'undelivered';
export interface DeliveryView {
  eventId: string;
  kind: EventKind;
  sessionId: string;
  state: DeliveryStateName;
  createdAt: string;
  /** The exact body sent (null until the first attempt fixed it). */
  body: string | null;
  attempts: DeliveryAttemptView[];
}
/** `GET /webhooks/:endpointId/deliveries?cursor=` */
export interface DeliveriesResponse {
  deliveries: DeliveryView[];
  nextCursor: string | null;
}
/** `POST /webhooks/:endpointId/deliveries/:eventId/resend` → 202 */
export interface ResendEventResponse {
  eventId: string;
}

export interface SessionsQuery {
  status?: SessionState;
  sandbox?: 'true' | 'false';
  /** Matches a sessionId exactly or an externalUserId exactly. */
  q?: string;
  cursor?: string;
}
/**
 * A session's status as the dashboard shows and filters it: the session state, with a cancelled
 * session (stored as FAILED with outcome `cancelled`) as its own status (issue 23).
 */
export const DASHBOARD_SESSION_STATUSES = ['PENDING', 'VERIFIED', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
export type DashboardSessionStatus = (typeof DASHBOARD_SESSION_STATUSES)[number];

export interface SessionSummary {
  sessionId: string;
  status: DashboardSessionStatus;
  verificationMode: VerificationMode;
  challengeAge: number;
  externalUserId: string | null;
  sandbox: boolean;
  failureReason: string | null;
  createdAt: string;
  completedAt: string | null;
}
/** `GET /sessions` */
export interface SessionsResponse {
  sessions: SessionSummary[];
  nextCursor: string | null;
}
export interface SessionEventView {
  eventId: string;
  kind: EventKind;
  createdAt: string;
  data: Record<string, unknown>;
}
/** `GET /sessions/:sessionId` */
export interface SessionDetailResponse {
  session: SessionSummary;
  events: SessionEventView[];
  /** The session's verification receipt (a compact JWS, as in the validation result); null until it has a decision. */
  receipt: string | null;
}
/** `POST /try-it` `{}` → 201 */
export interface TryItResponse {
  sessionId: string;
  verifyUrl: string;
}

export interface OutboxEmail {
  id: string;
  /** Recipients, comma-separated. */
  to: string;
  subject: string;
  text: string;
  /** 'unknown': a send interrupted by a crash, never retried so never sent twice. */
  state: 'pending' | 'sending' | 'sent' | 'failed' | 'unknown';
  createdAt: string;
  sentAt: string | null;
}
/** `GET /emails` (owner/admin) */
export interface EmailsResponse {
  emails: OutboxEmail[];
}

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
  createdAt: string;
}
export interface InvitationView {
  invitationId: string;
  email: string;
  role: UserRole;
  expiresAt: string;
  status: 'pending' | 'accepted' | 'rejected' | 'canceled';
}
/** `GET /members` (everyone may read; only owner/admin change) */
export interface MembersResponse {
  members: MemberView[];
  invitations: InvitationView[];
}
/** `POST /invitations` → 201 InvitationView */
export interface CreateInvitationRequest {
  email: string;
  role: InvitableRole;
}
/** `DELETE /invitations/:invitationId` → 200 */
export interface CancelInvitationResponse {
  invitationId: string;
  status: 'canceled';
}
/** `PATCH /members/:userId` → 200 MemberView */
export interface UpdateMemberRequest {
  role: UserRole;
}
/** `DELETE /members/:userId` → 200 */
export interface RemoveMemberResponse {
  userId: string;
  removed: true;
}
