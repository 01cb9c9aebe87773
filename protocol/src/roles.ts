/**
 * The dashboard's role model, written once (docs/dashboard-api.md, "Roles"): what each role may do
 * (`can`), and who may change whose membership (`decideMemberChange`). The dashboard API enforces
 * both; the dashboard UI uses them only to hide what the API would refuse.
 */
import type { UserRole } from './accounts';

/** What a role may do, with the words a 403 uses for it ("Your role (developer) cannot …"). */
export const PERMISSIONS = {
  /** Reading any screen of the tenant: every role. */
  read: { roles: ['owner', 'admin', 'developer'], action: 'read this tenant' },
  /** Allowed domains, webhook endpoints and their actions, "Try it": every role. */
  integrate: { roles: ['owner', 'admin', 'developer'], action: 'change the integration' },
  /** API key pairs, live and sandbox alike (the sandbox pair "Try it" would create included). */
  keys: { roles: ['owner', 'admin'], action: 'manage API keys' },
  members: { roles: ['owner', 'admin'], action: 'manage members and invitations' },
  emails: { roles: ['owner', 'admin'], action: 'read the email outbox' },
  /** The tenant's sign-in policy: requiring two-factor sign-in (issue 23, decision 0057). Owners only. */
  signInPolicy: { roles: ['owner'], action: 'change the sign-in policy' },
  /** The audit trail (issue 23): it names members, their addresses and every security change (decision 0056). */
  audit: { roles: ['owner', 'admin'], action: 'read the audit trail' },
} as const satisfies Record<string, { roles: readonly UserRole[]; action: string }>;
export type Permission = keyof typeof PERMISSIONS;

/** Whether `role` may do what `permission` names. */
export function can(role: UserRole, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly UserRole[]).includes(role);
}

/** A change to one membership: a new role, or removal from the tenant. */
export type MemberChange = { role: UserRole } | 'remove';

/** Why a member change is refused (the API answers 403 for `role`, 409 for `last_owner`). */
export type MemberChangeRefusal =
  /** The actor may not manage members at all, or (an admin) may not make, demote or remove owners. */
  | 'role'
  /** The change would leave the tenant without an owner. */
  | 'last_owner';

/**
 * Who may change whom: owners and admins manage members; only an owner makes, demotes or removes an
 * owner; the last owner can be neither demoted nor removed. `owners` is the tenant's owner count as
 * last read: the database statement that applies the change checks the last-owner rule again, in
 * the same statement, so two concurrent demotions cannot both pass (tenants/accounts.ts).
 */
export function decideMemberChange(input: { actor: UserRole; target: UserRole; change: MemberChange; owners: number }): MemberChangeRefusal | null {
  const { actor, target, change, owners } = input;
  if (!can(actor, 'members')) return 'role';
  const newRole = change === 'remove' ? null : change.role;
  const touchesOwner = target === 'owner' || newRole === 'owner';
  if (touchesOwner && actor !== 'owner') return 'role';
  const losesOwner = target === 'owner' && newRole !== 'owner';
  if (losesOwner && owners <= 1) return 'last_owner';
  return null;
}
