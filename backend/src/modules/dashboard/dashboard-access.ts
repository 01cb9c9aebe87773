/**
 * Who may do what in the dashboard API (contract "Auth" and "Roles"), decided on every call:
 *
 * - CSRF: every state-changing request under /dashboard/api (ours and better-auth's) must carry an
 *   Origin equal to PUBLIC_BASE_URL's origin, and ours must be JSON; else 403 "Cross-site request
 *   refused". SameSite=Strict cookies are the second line.
 * - `access.user()`: the better-auth session of the request (401 without one).
 * - `access.member(tenantId, need)`: the caller's membership of that tenant, read from the database
 *   on each call (404 when not a member: another tenant is never revealed), the tenant's two-factor
 *   policy (403 TWO_FACTOR_REQUIRED for a member who can manage keys and has no second factor yet:
 *   issue 23, decision 0057) and the role check (403 naming the role), and the audit context of the
 *   changes the caller makes there: who, from which address (the socket's peer, as the sign-in
 *   limits see it), when (modules/audit).
 */
import { Elysia } from 'elysia';
import { and, eq } from 'drizzle-orm';
import { can, mustEnrolTwoFactor, PERMISSIONS, type Permission } from '@ageverify/protocol';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { authMembers, tenants } from '../../db/schema';
import { DASHBOARD_ERRORS } from './errors';
import { TENANT_ERRORS } from '../tenants/errors';
import { userAudit } from '../audit';
import type { AuthSource } from './auth';
import { AUTH_BASE_PATH, DASHBOARD_API_PREFIX } from './paths';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The role model is protocol's (roles.ts): `can` decides, PERMISSIONS names the action a 403 cites. */
export type { Permission };

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  /** Two-factor sign-in is on for this user (better-auth's two-factor plugin). */
  twoFactorEnabled: boolean;
}

export interface AccessDeps {
  db: Db;
  clock: Clock;
  auth: AuthSource;
  publicBaseUrl: string;
  /** The client's address (main.ts: Bun's requestIP); absent in-process (tests), then entries carry none. */
  clientIp?: (request: Request) => string | null;
}

/** The CSRF rule on its own (also used by tests to name what is refused). */
export function crossSiteProblem(request: Request, expectedOrigin: string): boolean {
  if (!STATE_CHANGING.has(request.method)) return false;
  const path = new URL(request.url).pathname;
  if (!path.startsWith(`${DASHBOARD_API_PREFIX}/`)) return false;
  if (request.headers.get('origin') !== expectedOrigin) return true;
  if (path.startsWith(`${AUTH_BASE_PATH}/`)) return false;
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType !== 'application/json';
}

export function dashboardAccess(deps: AccessDeps) {
  const origin = new URL(deps.publicBaseUrl).origin;
  return new Elysia({ name: 'dashboard-access' })
    .onRequest(({ request }) => {
      if (crossSiteProblem(request, origin)) throw DASHBOARD_ERRORS.CROSS_SITE_REFUSED();
    })
    .derive({ as: 'scoped' }, ({ request }) => {
      let cached: Promise<SignedInUser | null> | null = null;
      const session = () => {
        cached ??= deps
          .auth()
          .then((auth) => auth.api.getSession({ headers: request.headers }))
          .then((s) => (s ? { id: s.user.id, email: s.user.email, name: s.user.name, twoFactorEnabled: s.user.twoFactorEnabled === true } : null));
        return cached;
      };
      const user = async (): Promise<SignedInUser> => {
        const found = await session();
        if (!found) throw DASHBOARD_ERRORS.NOT_SIGNED_IN();
        return found;
      };
      const member = async (tenantId: string, need: Permission) => {
        const signedIn = await user();
        const [membership] = await deps.db
          .select({ id: authMembers.id, role: authMembers.role, requireTwoFactor: tenants.requireTwoFactor })
          .from(authMembers)
          .innerJoin(tenants, eq(tenants.id, authMembers.organizationId))
          .where(and(eq(authMembers.organizationId, tenantId), eq(authMembers.userId, signedIn.id)));
        if (!membership)
          // Not a member, or no such tenant: the same answer either way.
          throw TENANT_ERRORS.TENANT_NOT_FOUND({ tenantId });
        // Held back until enrolled: nothing of the tenant, reading included (the dashboard shows only the enrolment).
        if (mustEnrolTwoFactor({ role: membership.role, tenantRequiresTwoFactor: membership.requireTwoFactor, userHasTwoFactor: signedIn.twoFactorEnabled }))
          throw DASHBOARD_ERRORS.TWO_FACTOR_REQUIRED({ role: membership.role });
        if (!can(membership.role, need)) throw DASHBOARD_ERRORS.ROLE_FORBIDDEN({ role: membership.role, action: PERMISSIONS[need].action });
        return { user: signedIn, role: membership.role, memberId: membership.id, tenantId, audit: auditBy(signedIn) };
      };
      /** Who changes what this request changes: the signed-in user, from the request's address, now. */
      const auditBy = (signedIn: SignedInUser) => userAudit(signedIn, deps.clientIp?.(request) ?? null, deps.clock.now());
      return { access: { session, user, member, auditBy } };
    });
}
