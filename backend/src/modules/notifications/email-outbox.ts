/**
 * The email outbox (docs/decisions-on-open-points.md "Email"). A mail is a row written in the transaction of the change
 * it reports, so the change cannot commit without it, and its unique `dedupe_key` lets a caller
 * make "one email per …" a database guarantee (spec "Webhook endpoint delivery": one email per
 * pause). Mail goes out over SMTP when a mailer is configured (mailer.ts); otherwise it stays in
 * `email_outbox`, which the dashboard shows: never silently dropped. Sending is at most once: a
 * row is marked `sending` and committed before the SMTP exchange, and a send interrupted by a
 * crash is marked `unknown`, never retried.
 */
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import { authMembers, authUsers, emailOutbox } from '../../db/schema';
import { newId } from '../../ids';
import type { Logger } from '../../log';
import type { Mailer } from './mailer';

export interface AccountEmail {
  tenantId: string;
  /** Unique per mail that must go out once; a second enqueue with the same key is ignored. */
  dedupeKey: string;
  subject: string;
  text: string;
}

/** A mail to the account's owners and admins (docs/decisions-on-open-points.md "Dashboard access"), in the caller's transaction. */
export async function enqueueAccountEmail(tx: DbOrTx, email: AccountEmail, now: Date): Promise<void> {
  const recipients = await tx
    .select({ email: authUsers.email })
    .from(authMembers)
    .innerJoin(authUsers, eq(authUsers.id, authMembers.userId))
    .where(and(eq(authMembers.organizationId, email.tenantId), inArray(authMembers.role, ['owner', 'admin'])))
    .orderBy(asc(authUsers.email));
  await tx
    .insert(emailOutbox)
    .values({
      id: newId('email'),
      tenantId: email.tenantId,
      dedupeKey: email.dedupeKey,
      recipients: recipients.map((r) => r.email),
      subject: email.subject,
      text: email.text,
      // With nobody to write to, the row is still kept for the dashboard.
      status: recipients.length > 0 ? 'pending' : 'failed',
      lastError: recipients.length > 0 ? null : 'the account has no owner or admin users',
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey });
}

/** A mail to given addresses (a dashboard invitation; a sign-up's confirmation, with no tenant yet), in the caller's transaction. */
export async function enqueueEmailTo(
  tx: DbOrTx,
  email: Omit<AccountEmail, 'tenantId'> & { tenantId: string | null; recipients: string[] },
  now: Date,
): Promise<string> {
  const id = newId('email');
  await tx
    .insert(emailOutbox)
    .values({
      id,
      tenantId: email.tenantId,
      dedupeKey: email.dedupeKey,
      recipients: email.recipients,
      subject: email.subject,
      text: email.text,
      status: 'pending',
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey });
  return id;
}

const MAX_EMAIL_ATTEMPTS = 10;

/**
 * Sends due mail. Returns how many were sent. Several instances may run this at once: each row is
 * claimed with FOR UPDATE SKIP LOCKED and marked `sending` before the SMTP exchange.
 */
export async function sendPendingEmails(deps: { db: Db; now: Date; mailer: Mailer; from: string; logger: Logger; staleSendingMs?: number }): Promise<number> {
  const { db, now } = deps;
  // A row left in `sending` by a crashed instance may or may not have gone out: never resend it.
  const stale = new Date(now.getTime() - (deps.staleSendingMs ?? 10 * 60 * 1000));
  await db
    .update(emailOutbox)
    .set({ status: 'unknown', lastError: 'the sending instance stopped mid-send; not retried so that nobody gets it twice' })
    .where(and(eq(emailOutbox.status, 'sending'), lte(emailOutbox.leaseUntil, stale)));

  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(20)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(emailOutbox)
      .set({ status: 'sending', leaseUntil: now, attempts: sql`${emailOutbox.attempts} + 1` })
      .where(
        inArray(
          emailOutbox.id,
          due.map((row) => row.id),
        ),
      );
    return due;
  });

  let sent = 0;
  for (const row of claimed) {
    try {
      await deps.mailer.send({ from: deps.from, to: row.recipients, subject: row.subject, text: row.text });
      await db.update(emailOutbox).set({ status: 'sent', sentAt: now, lastError: null }).where(eq(emailOutbox.id, row.id));
      sent++;
    } catch (error) {
      // The SMTP server did not accept the message: safe to try again later.
      const attempts = row.attempts + 1;
      const giveUp = attempts >= MAX_EMAIL_ATTEMPTS;
      const delay = Math.min(60_000 * 2 ** (attempts - 1), 60 * 60 * 1000);
      deps.logger.warn('webhook pause email not sent', {
        emailId: row.id,
        attempts,
        error: (error as Error)?.name ?? typeof error,
        smtpCode: (error as { responseCode?: number })?.responseCode,
      });
      await db
        .update(emailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lastError: String((error as Error)?.message ?? error).slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + delay),
        })
        .where(eq(emailOutbox.id, row.id));
    }
  }
  return sent;
}

/** The dashboard's view: the mail kept or sent for this tenant, newest first. */
export async function listEmails(db: Db, tenantId: string) {
  const rows = await db.select().from(emailOutbox).where(eq(emailOutbox.tenantId, tenantId)).orderBy(desc(emailOutbox.createdAt));
  return rows.map((row) => ({
    emailId: row.id,
    to: row.recipients,
    subject: row.subject,
    text: row.text,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    lastError: row.lastError,
  }));
}
