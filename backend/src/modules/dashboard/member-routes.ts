/**
 * Members and invitations (issue 12, Deliver 2). Invitations are made through better-auth's
 * organization plugin with the caller's own session (its permission checks apply on top of ours);
 * the invitation email goes to our outbox (auth.ts sendInvitationEmail). Who may change whom is
 * protocol's `decideMemberChange` (owner/admin only; an admin can neither remove nor demote an
 * owner, nor make one; the last owner stays). Role changes and removals are written here in one
 * guarded statement each (tenants/accounts.ts), not through better-auth's read-then-write, so two
 * concurrent demotions cannot leave a tenant without an owner; cancelling an invitation is one
 * guarded statement too. Each commits with its audit entry (issue 23); an invitation's entry follows
 * better-auth's own write, which no transaction of ours can hold (decision 0056).
 */
import { Elysia, t } from 'elysia';
import { and, desc, eq } from 'drizzle-orm';
import {
  decideMemberChange,
  INVITABLE_ROLES,
  USER_ROLES,
  type InvitationView,
  type MemberChange,
  type UserRole,
  type MemberView,
  type MembersResponse,
  type RemoveMemberResponse,
} from '@ageverify/protocol';
import { authInvitations, authMembers, authUsers } from '../../db/schema';
import { changedFields, createdFields, recordAudit, removedFields } from '../audit';
import { ownerCount, removeMemberKeepingAnOwner, setMemberRoleKeepingAnOwner } from '../tenants/accounts';
import { dashboardAccess } from './dashboard-access';
import type { TenantRouteDeps } from './deps';
import { DASHBOARD_ERRORS } from './errors';

/** better-auth's refusals in the service's error body. */
async function viaBetterAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Imported here, not at the top: better-auth loads with the first dashboard request (index.ts).
    const { APIError } = await import('better-auth/api');
    if (error instanceof APIError && error.statusCode < 500) {
      throw DASHBOARD_ERRORS.AUTH_REFUSED({ reason: error.body?.message ?? error.message }, { status: error.statusCode });
    }
    throw error;
  }
}

function invitationView(row: typeof authInvitations.$inferSelect): InvitationView {
  return { invitationId: row.id, email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString(), status: row.status as InvitationView['status'] };
}

export function memberRoutes(deps: TenantRouteDeps) {
  const { db, auth } = deps;

  async function memberOf(tenantId: string, userId: string) {
    const [row] = await db
      .select({ member: authMembers, email: authUsers.email, name: authUsers.name })
      .from(authMembers)
      .innerJoin(authUsers, eq(authUsers.id, authMembers.userId))
      .where(and(eq(authMembers.organizationId, tenantId), eq(authMembers.userId, userId)));
    if (!row) throw DASHBOARD_ERRORS.MEMBER_NOT_FOUND({ userId });
    return row;
  }
  const view = (row: Awaited<ReturnType<typeof memberOf>>): MemberView => ({
    userId: row.member.userId,
    email: row.email,
    name: row.name,
    role: row.member.role,
    createdAt: row.member.createdAt.toISOString(),
  });

  /** The rule as last read; the guarded statement that follows checks the last owner again, atomically. */
  async function refuseMemberChange(tenantId: string, actor: UserRole, target: UserRole, change: MemberChange) {
    const owners = target === 'owner' ? await ownerCount(db, tenantId) : 1;
    const refusal = decideMemberChange({ actor, target, change, owners });
    if (refusal === 'role') throw DASHBOARD_ERRORS.ROLE_FORBIDDEN({ role: actor, action: 'make, demote or remove owners' });
    if (refusal === 'last_owner') throw DASHBOARD_ERRORS.LAST_OWNER();
  }

  return new Elysia({ name: 'dashboard-member-routes', prefix: '/dashboard/api/tenants/:tenantId' })
    .use(dashboardAccess(deps))
    .get('/members', async ({ params, access }): Promise<MembersResponse> => {
      await access.member(params.tenantId, 'read');
      const members = await db
        .select({ member: authMembers, email: authUsers.email, name: authUsers.name })
        .from(authMembers)
        .innerJoin(authUsers, eq(authUsers.id, authMembers.userId))
        .where(eq(authMembers.organizationId, params.tenantId))
        .orderBy(authMembers.createdAt);
      const invitations = await db
        .select()
        .from(authInvitations)
        .where(and(eq(authInvitations.organizationId, params.tenantId), eq(authInvitations.status, 'pending')))
        .orderBy(desc(authInvitations.createdAt));
      return { members: members.map(view), invitations: invitations.map(invitationView) };
    })
    .post(
      '/invitations',
      async ({ params, body, access, request, set }): Promise<InvitationView> => {
        const me = await access.member(params.tenantId, 'members');
        const email = body.email.trim().toLowerCase();
        const [already] = await db
          .select({ id: authMembers.id })
          .from(authMembers)
          .innerJoin(authUsers, eq(authUsers.id, authMembers.userId))
          .where(and(eq(authMembers.organizationId, params.tenantId), eq(authUsers.email, email)));
        if (already) throw DASHBOARD_ERRORS.ALREADY_MEMBER({ email });
        const created = await viaBetterAuth(async () =>
          (await auth()).api.createInvitation({ headers: request.headers, body: { email, role: body.role, organizationId: params.tenantId, resend: true } }),
        );
        const [row] = await db.select().from(authInvitations).where(eq(authInvitations.id, created.id));
        // better-auth committed the invitation; its entry follows (a resend is recorded again).
        await recordAudit(db, me.audit, {
          tenantId: params.tenantId,
          action: 'member.invited',
          targetId: row!.id,
          targetLabel: row!.email,
          changes: createdFields({ email: row!.email, role: row!.role }),
        });
        set.status = 201;
        return invitationView(row!);
      },
      { body: t.Object({ email: t.String({ maxLength: 254 }), role: t.Union(INVITABLE_ROLES.map((r) => t.Literal(r))) }) },
    )
    .delete('/invitations/:invitationId', async ({ params, access }) => {
      const me = await access.member(params.tenantId, 'members');
      // The role check above is the one better-auth's cancel would make (invitation:cancel is owner/admin).
      const row = await db.transaction(async (tx) => {
        const [cancelled] = await tx
          .update(authInvitations)
          .set({ status: 'canceled' })
          .where(and(eq(authInvitations.id, params.invitationId), eq(authInvitations.organizationId, params.tenantId), eq(authInvitations.status, 'pending')))
          .returning();
        if (!cancelled) throw DASHBOARD_ERRORS.INVITATION_NOT_FOUND({ invitationId: params.invitationId });
        await recordAudit(tx, me.audit, {
          tenantId: params.tenantId,
          action: 'member.invitation_cancelled',
          targetId: cancelled.id,
          targetLabel: cancelled.email,
          changes: changedFields({ status: 'pending' }, { status: 'canceled' }),
        });
        return cancelled;
      });
      return { invitationId: row.id, status: 'canceled' as const };
    })
    .patch(
      '/members/:userId',
      async ({ params, body, access }): Promise<MemberView> => {
        const me = await access.member(params.tenantId, 'members');
        const target = await memberOf(params.tenantId, params.userId);
        await refuseMemberChange(params.tenantId, me.role, target.member.role, { role: body.role });
        const done = await db.transaction(async (tx) => {
          const updated = await setMemberRoleKeepingAnOwner(tx, params.tenantId, target.member.id, body.role);
          const changes = changedFields({ role: target.member.role }, { role: body.role });
          if (updated && Object.keys(changes).length > 0) {
            await recordAudit(tx, me.audit, {
              tenantId: params.tenantId,
              action: 'member.role_changed',
              targetId: params.userId,
              targetLabel: target.email,
              changes,
            });
          }
          return updated;
        });
        if (done === null) throw DASHBOARD_ERRORS.MEMBER_NOT_FOUND({ userId: params.userId });
        if (!done) throw DASHBOARD_ERRORS.LAST_OWNER();
        return view(await memberOf(params.tenantId, params.userId));
      },
      { body: t.Object({ role: t.Union(USER_ROLES.map((r) => t.Literal(r))) }) },
    )
    .delete('/members/:userId', async ({ params, access }): Promise<RemoveMemberResponse> => {
      const me = await access.member(params.tenantId, 'members');
      const target = await memberOf(params.tenantId, params.userId);
      await refuseMemberChange(params.tenantId, me.role, target.member.role, 'remove');
      const done = await db.transaction(async (tx) => {
        const gone = await removeMemberKeepingAnOwner(tx, params.tenantId, target.member.id);
        if (gone) {
          await recordAudit(tx, me.audit, {
            tenantId: params.tenantId,
            action: 'member.removed',
            targetId: params.userId,
            targetLabel: target.email,
            changes: removedFields({ email: target.email, role: target.member.role }),
          });
        }
        return gone;
      });
      if (done === null) throw DASHBOARD_ERRORS.MEMBER_NOT_FOUND({ userId: params.userId });
      if (!done) throw DASHBOARD_ERRORS.LAST_OWNER();
      return { userId: params.userId, removed: true };
    });
}
