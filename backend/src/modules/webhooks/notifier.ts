/**
 * Telling people that an endpoint was paused (spec "Webhook endpoint delivery": "Dashboard
 * notice. One email to account owners and admins per pause").
 *
 * Both are written in the transaction that pauses the endpoint, so a pause without its notice and
 * email cannot exist, and the email row's unique `dedupe_key` (endpoint + pause time) makes "one
 * per pause" a database guarantee. Mail goes out over SMTP when SMTP_URL is set (nodemailer);
 * otherwise it stays in `email_outbox`, which the dashboard shows: never silently dropped
 * (DESIGN.md §2 Email). Sending is at most once: a row is marked `sending` and committed before
 * the SMTP exchange, and a send interrupted by a crash is marked `unknown`, never retried.
 */
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db, DbOrTx } from '../../db/database';
import { dashboardNotices, emailOutbox, users } from '../../db/schema';
import type { Logger } from '../../log';
import { webhookId } from './ids';

export interface MailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP through nodemailer, e.g. smtp://user:pass@mail.example.com:587 or smtps://…:465. */
export function smtpMailer(smtpUrl: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: message.from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

export interface PauseFacts {
  tenantId: string;
  endpointId: string;
  url: string;
  pausedAt: Date;
  reason: string;
}

export async function enqueuePauseNotification(tx: DbOrTx, pause: PauseFacts, now: Date): Promise<void> {
  const message =
    `Webhook endpoint ${pause.url} was paused at ${pause.pausedAt.toISOString()}: ${pause.reason}. ` +
    'New events for it are recorded as not delivered and are not sent; other endpoints are unaffected. ' +
    'Fix the endpoint, then use "Test and resume", and "Redeliver" to send the undelivered events of the last 7 days.';
  await tx.insert(dashboardNotices).values({ id: webhookId('notice'), tenantId: pause.tenantId, endpointId: pause.endpointId, kind: 'webhook_endpoint_paused', message, createdAt: now });
  const recipients = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, pause.tenantId), inArray(users.role, ['owner', 'admin'])))
    .orderBy(asc(users.email));
  await tx
    .insert(emailOutbox)
    .values({
      id: webhookId('email'),
      tenantId: pause.tenantId,
      dedupeKey: `webhook-endpoint-paused:${pause.endpointId}:${pause.pausedAt.toISOString()}`,
      recipients: recipients.map((r) => r.email),
      subject: `Webhook endpoint paused: ${pause.url}`,
      text: `${message}\n\nEndpoint: ${pause.endpointId}\n`,
      // With nobody to write to, the row is still kept for the dashboard.
      status: recipients.length > 0 ? 'pending' : 'failed',
      lastError: recipients.length > 0 ? null : 'the account has no owner or admin users',
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey });
}

export async function resolveEndpointNotices(tx: DbOrTx, endpointId: string, now: Date): Promise<void> {
  await tx.update(dashboardNotices).set({ resolvedAt: now }).where(and(eq(dashboardNotices.endpointId, endpointId), isNull(dashboardNotices.resolvedAt)));
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
      .where(inArray(emailOutbox.id, due.map((row) => row.id)));
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
      deps.logger.warn('webhook pause email not sent', { emailId: row.id, attempts, error: String((error as Error)?.message ?? error) });
      await db
        .update(emailOutbox)
        .set({ status: giveUp ? 'failed' : 'pending', lastError: String((error as Error)?.message ?? error).slice(0, 500), nextAttemptAt: new Date(now.getTime() + delay) })
        .where(eq(emailOutbox.id, row.id));
    }
  }
  return sent;
}

/** The dashboard's view: notices (newest first) and the mail kept or sent for this tenant. */
export async function listNotices(db: Db, tenantId: string, options: { includeResolved?: boolean } = {}) {
  const rows = await db
    .select()
    .from(dashboardNotices)
    .where(options.includeResolved ? eq(dashboardNotices.tenantId, tenantId) : and(eq(dashboardNotices.tenantId, tenantId), isNull(dashboardNotices.resolvedAt)))
    .orderBy(desc(dashboardNotices.createdAt));
  return rows.map((row) => ({
    noticeId: row.id,
    kind: row.kind,
    endpointId: row.endpointId,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  }));
}

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
