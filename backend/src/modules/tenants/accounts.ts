/**
 * Dashboard accounts in better-auth's tables (issue 12), written directly where better-auth has no
 * endpoint we expose: the organization row of each tenant (organization id == tenant id), owners
 * made by setup, sign-up and the CLI, and accounts made when an invitation is accepted. The
 * password hash is crypto.ts hashPassword, the same function better-auth hashes and verifies
 * through (modules/dashboard/auth.ts), so either path makes rows the other reads.
 */
import { eq, sql } from 'drizzle-orm';
import type { UserRole } from '@ageverify/protocol';
import type { DbOrTx } from '../../db/database';
import { authAccounts, authMembers, authOrganizations, authUsers } from '../../db/schema';
import { hashPassword } from '../../crypto';
import { newId } from '../../ids';
import { rowsOf } from '../../db/rows-of';
import { TENANT_ERRORS } from './errors';
import { passwordWeakness } from './password-strength';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The shortest password accepted anywhere (CLI, setup, sign-up, invitation, password change). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

export function checkNewAccount(email: string, password: string, context: string[] = []): void {
  if (!EMAIL.test(email) || email.length > 254) throw TENANT_ERRORS.OWNER_EMAIL_INVALID({ email });
  checkNewPassword(password, [email, ...context]);
}

/** Length, then strength (password-strength.ts); `context`: the account's own words (email, names). */
export function checkNewPassword(password: string, context: string[] = []): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw TENANT_ERRORS.OWNER_PASSWORD_TOO_SHORT();
  if (password.length > MAX_PASSWORD_LENGTH) throw TENANT_ERRORS.OWNER_PASSWORD_TOO_LONG({ max: MAX_PASSWORD_LENGTH });
  const advice = passwordWeakness(password, context);
  if (advice) throw TENANT_ERRORS.PASSWORD_TOO_WEAK({ advice });
}

/** The tenant's organization row; written in the tenant's own transaction. */
export async function insertOrganization(tx: DbOrTx, tenantId: string, name: string, now: Date): Promise<void> {
  await tx.insert(authOrganizations).values({ id: tenantId, name, slug: tenantId, createdAt: now });
}

export async function findUserByEmail(tx: DbOrTx, email: string) {
  const [user] = await tx.select().from(authUsers).where(eq(authUsers.email, email.trim().toLowerCase()));
  return user ?? null;
}

/** A user with an email+password (credential) account. `passwordHash` from hashPassword (hash it before the transaction). */
export async function insertUser(tx: DbOrTx, input: { email: string; name?: string; passwordHash: string }, now: Date): Promise<string> {
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(tx, email)) throw TENANT_ERRORS.OWNER_EMAIL_TAKEN({ email });
  const userId = newId('user');
  const name = input.name?.trim() || email.split('@')[0]!;
  await tx.insert(authUsers).values({ id: userId, name, email, emailVerified: false, createdAt: now, updatedAt: now });
  await tx.insert(authAccounts).values({
    id: newId('account'),
    accountId: userId,
    providerId: 'credential',
    userId,
    password: input.passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  return userId;
}

export async function insertMember(tx: DbOrTx, tenantId: string, userId: string, role: UserRole, now: Date): Promise<string> {
  const id = newId('member');
  await tx.insert(authMembers).values({ id, organizationId: tenantId, userId, role, createdAt: now });
  return id;
}

export { hashPassword };

/** Keeps the organization's name equal to the tenant's (the dashboard shows it). */
export async function renameOrganization(tx: DbOrTx, tenantId: string, name: string): Promise<void> {
  await tx.update(authOrganizations).set({ name }).where(eq(authOrganizations.id, tenantId));
}

/** How many owners a tenant has (the last owner can be neither removed nor demoted). */
export async function ownerCount(tx: DbOrTx, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(authMembers)
    .where(sql`${authMembers.organizationId} = ${tenantId} and ${authMembers.role} = 'owner'`);
  return Number(row?.n ?? 0);
}

/**
 * The owners of a tenant, locked in id order for the rest of the statement that names them: a
 * concurrent demotion or removal of another owner waits here, and when it commits the row is
 * re-read (PostgreSQL re-checks a locked row that changed), so it no longer counts. The id order
 * makes every such statement lock the same rows in the same order, so two of them never deadlock.
 */
const lockedOtherOwners = (tenantId: string, memberId: string) => sql`
  with owners as (
    select id from auth_member where organization_id = ${tenantId} and role = 'owner' order by id for update
  )
  select count(*) from owners where id <> ${memberId}`;

/**
 * Gives a member a new role in one guarded statement: an owner who becomes something else only while
 * another owner remains (read and written together, so two concurrent demotions of the tenant's two
 * owners cannot both pass, which a count followed by an update would allow). Returns false when
 * the change would leave the tenant without an owner; true when the row was changed; null when no
 * such member exists.
 */
export async function setMemberRoleKeepingAnOwner(tx: DbOrTx, tenantId: string, memberId: string, role: UserRole): Promise<boolean | null> {
  const changed = rowsOf<{ id: string }>(
    await tx.execute(sql`
      update auth_member set role = ${role}
      where id = ${memberId} and organization_id = ${tenantId}
        and (role <> 'owner' or ${role} = 'owner' or (${lockedOtherOwners(tenantId, memberId)}) > 0)
      returning id`),
  );
  if (changed.length > 0) return true;
  return (await memberExists(tx, tenantId, memberId)) ? false : null;
}

/** Removes a member in one guarded statement, with the same last-owner rule as `setMemberRoleKeepingAnOwner`. */
export async function removeMemberKeepingAnOwner(tx: DbOrTx, tenantId: string, memberId: string): Promise<boolean | null> {
  const removed = rowsOf<{ id: string }>(
    await tx.execute(sql`
      delete from auth_member
      where id = ${memberId} and organization_id = ${tenantId}
        and (role <> 'owner' or (${lockedOtherOwners(tenantId, memberId)}) > 0)
      returning id`),
  );
  if (removed.length > 0) return true;
  return (await memberExists(tx, tenantId, memberId)) ? false : null;
}

async function memberExists(tx: DbOrTx, tenantId: string, memberId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: authMembers.id })
    .from(authMembers)
    .where(sql`${authMembers.id} = ${memberId} and ${authMembers.organizationId} = ${tenantId}`);
  return row !== undefined;
}
