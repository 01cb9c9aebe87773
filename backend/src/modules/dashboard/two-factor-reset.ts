/**
 * The operator's way back in for a user who lost both the authenticator and the recovery codes
 * (issue 23, decision 0057): `bun run cli user two-factor-off --email EMAIL`. Two-factor sign-in is
 * turned off, its secret and recovery codes are deleted, and every session of the user ends, so
 * whoever holds an old cookie has to sign in again with the password. Each tenant the user is a
 * member of records it in its audit trail (`member.two_factor_reset`), in the same transaction.
 * A tenant that requires two-factor sign-in holds the user back until they enrol again.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { authMembers, authSessions, authTwoFactors, authUsers } from '../../db/schema';
import { recordAudit, type AuditContext } from '../audit';
import { DASHBOARD_ERRORS } from './errors';

export interface TwoFactorReset {
  userId: string;
  email: string;
  /** False when the user had no second factor: nothing was changed or recorded. */
  wasEnabled: boolean;
  sessionsEnded: number;
}

export async function resetTwoFactor(db: Db, email: string, audit: AuditContext): Promise<TwoFactorReset> {
  const address = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(authUsers).where(eq(authUsers.email, address)).for('update');
    if (!user) throw DASHBOARD_ERRORS.USER_NOT_FOUND({ email: address });
    const [factor] = await tx.select({ id: authTwoFactors.id }).from(authTwoFactors).where(eq(authTwoFactors.userId, user.id));
    if (!user.twoFactorEnabled && !factor) return { userId: user.id, email: user.email, wasEnabled: false, sessionsEnded: 0 };
    await tx.delete(authTwoFactors).where(eq(authTwoFactors.userId, user.id));
    await tx.update(authUsers).set({ twoFactorEnabled: false, updatedAt: audit.at }).where(eq(authUsers.id, user.id));
    const ended = await tx.delete(authSessions).where(eq(authSessions.userId, user.id)).returning({ id: authSessions.id });
    const tenants = await tx.select({ tenantId: authMembers.organizationId }).from(authMembers).where(eq(authMembers.userId, user.id));
    for (const { tenantId } of tenants) {
      await recordAudit(tx, audit, {
        tenantId,
        action: 'member.two_factor_reset',
        targetId: user.id,
        targetLabel: user.email,
        changes: { twoFactor: { from: user.twoFactorEnabled, to: false } },
      });
    }
    return { userId: user.id, email: user.email, wasEnabled: true, sessionsEnded: ended.length };
  });
}
