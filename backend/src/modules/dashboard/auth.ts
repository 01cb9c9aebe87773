/**
 * Dashboard authentication (issue 12; decision 0035): better-auth with the drizzle adapter on our
 * database (PGlite or PostgreSQL alike), email + password, and the organization plugin where an
 * organization is a tenant (organization id == tenant id). Mounted at /dashboard/api/auth.
 *
 * - Passwords: better-auth hashes and verifies with crypto.ts (argon2id PHC strings), so owners
 *   created before this change (migration 0007) and by the CLI sign in unchanged.
 * - Cookies: HttpOnly, SameSite=Strict, Secure when PUBLIC_BASE_URL is https; the only trusted
 *   origin is PUBLIC_BASE_URL's.
 * - Sign-up through better-auth is off: accounts come from setup, sign-up of a new tenant
 *   (DASHBOARD_SIGNUP), the CLI and invitations (modules/tenants/accounts.ts).
 * - Login rate limiting is ours (sign-in-limit.ts, counted in the database across instances):
 *   better-auth's own limiter counts every request per IP, not failed sign-ins per email+IP.
 * - Two-factor sign-in (issue 23, decision 0057): the two-factor plugin, TOTP with recovery codes.
 *   An enrolment counts only once a first code is verified; sign-in then answers
 *   `{ twoFactorRedirect: true }` and the session is made only by a right code. Code attempts are
 *   limited like passwords (auth-routes.ts, two-factor-attempts.ts).
 */
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { organization } from 'better-auth/plugins/organization';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { adminAc, defaultStatements, memberAc, ownerAc } from 'better-auth/plugins/organization/access';
import { createAccessControl } from 'better-auth/plugins/access';
import type { Db } from '../../db/database';
import { authAccounts, authInvitations, authMembers, authOrganizations, authSessions, authTwoFactors, authUsers, authVerifications } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../../crypto';
import { newId, type IdKind } from '../../ids';
import type { Clock } from '../../clock';
import { enqueueEmailTo } from '../notifications/email-outbox';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../tenants/accounts';
import { invitationSecretHash, newInvitationSecret } from './invitation-secret';
import { AUTH_BASE_PATH } from './paths';
import { betterAuthSecret } from './two-factor-attempts';

/** Invitations stay open a week (better-auth's default is 48 h; invitees often answer later). */
export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/**
 * Roles (contract "Roles"): better-auth's statements for members and invitations. Our own routes
 * check roles first (dashboard-access.ts); these keep better-auth's endpoints consistent with them.
 */
const ac = createAccessControl(defaultStatements);
const roles = {
  owner: ac.newRole(ownerAc.statements),
  admin: ac.newRole(adminAc.statements),
  developer: ac.newRole(memberAc.statements),
};

const ID_KIND_OF_MODEL: Record<string, IdKind> = {
  user: 'user',
  session: 'authSession',
  account: 'account',
  verification: 'verification',
  member: 'member',
  invitation: 'invitation',
  twoFactor: 'twoFactor',
};

/**
 * The two-factor plugin's settings (decision 0057). Minutes to type the code after the password:
 * the challenge cookie and its record live this long.
 */
export const TWO_FACTOR_CHALLENGE_SECONDS = 10 * 60;
/** Recovery codes handed out at enrolment, each usable once. */
export const RECOVERY_CODE_COUNT = 10;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  serverSecret: string;
  publicBaseUrl: string;
}

export function createAuth(deps: AuthDeps) {
  const base = new URL(deps.publicBaseUrl);
  const https = base.protocol === 'https:';
  return betterAuth({
    appName: 'AgeVerify',
    baseURL: base.origin,
    basePath: AUTH_BASE_PATH,
    // A key of its own, derived from SERVER_SECRET: one secret to keep, no key reused for two purposes.
    // It also encrypts the TOTP secrets and recovery codes (decision 0057).
    secret: betterAuthSecret(deps.serverSecret),
    trustedOrigins: [base.origin],
    telemetry: { enabled: false },
    logger: { disabled: true },
    database: drizzleAdapter(deps.db, {
      provider: 'pg',
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        organization: authOrganizations,
        member: authMembers,
        invitation: authInvitations,
        twoFactor: authTwoFactors,
      },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(password, hash) },
    },
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'ageverify',
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'strict', secure: https, path: '/' },
      database: {
        generateId: ({ model }) => {
          const kind = ID_KIND_OF_MODEL[model];
          // Organizations are only ever written with their tenant (tenants/service.ts).
          if (!kind) throw new Error(`better-auth asked for an id of model ${model}, which this service never creates through it`);
          return newId(kind);
        },
      },
    },
    plugins: [
      twoFactor({
        issuer: 'AgeVerify',
        // The enrolment is active only after a first code from the app is verified.
        skipVerificationOnEnable: false,
        twoFactorCookieMaxAge: TWO_FACTOR_CHALLENGE_SECONDS,
        // Encrypted with better-auth's key (derived from SERVER_SECRET), never stored in clear.
        backupCodeOptions: { amount: RECOVERY_CODE_COUNT, length: 10, storeBackupCodes: 'encrypted' },
        // Its own lock (10 consecutive wrong codes per account, 15 minutes) stays on, beside ours
        // per email+IP (sign-in-limit.ts): it holds whatever address the guesses come from.
        accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 },
      }),
      organization({
        ac,
        roles,
        creatorRole: 'owner',
        allowUserToCreateOrganization: false,
        invitationExpiresIn: INVITATION_LIFETIME_SECONDS,
        cancelPendingInvitationsOnReInvite: true,
        sendInvitationEmail: async (data) => {
          // The acceptance secret lives only in this email (issue 22, finding 1); the row keeps its
          // hash. Each email (a resend too) gets a fresh secret, so only the latest link works. It
          // sits in the URL fragment, which browsers never send, so it reaches no server log.
          const secret = newInvitationSecret();
          await deps.db
            .update(authInvitations)
            .set({ secretHash: invitationSecretHash(secret) })
            .where(eq(authInvitations.id, data.id));
          const link = `${base.origin}/dashboard/invite#secret=${secret}`;
          // The outbox sends it over SMTP when SMTP_URL is set; otherwise it waits there, shown to the
          // tenant's owners and admins (who may hand the link on; docs/security.md).
          await enqueueEmailTo(
            deps.db,
            {
              tenantId: data.organization.id,
              dedupeKey: `invitation:${data.id}:${invitationSecretHash(secret).slice(0, 16)}`,
              recipients: [data.email],
              subject: `You are invited to ${data.organization.name} on AgeVerify`,
              text: [
                `${data.inviter.user.name} (${data.inviter.user.email}) invited you to the AgeVerify dashboard of ${data.organization.name} as ${data.role}.`,
                '',
                `Accept the invitation: ${link}`,
                '',
                `The invitation expires at ${data.invitation.expiresAt.toISOString()}.`,
              ].join('\n'),
            },
            deps.clock.now(),
          );
        },
      }),
    ],
  });
}

export type DashboardAuth = ReturnType<typeof createAuth>;
/** better-auth is loaded on the first dashboard request (index.ts), so a boot does not pay for its import. */
export type AuthSource = () => Promise<DashboardAuth>;
