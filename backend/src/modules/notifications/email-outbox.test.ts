/**
 * The email outbox, with the pause emails it carries today: sent once over SMTP (nodemailer,
 * against a minimal local SMTP server), kept in the outbox without SMTP, retried when the server
 * refuses, never resent after an interrupted send.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { ManualClock } from '../../clock';
import { emailOutbox } from '../../db/schema';
import { openPglite, type Database } from '../../db/database';
import { silentLogger } from '../../log';
import { createTenant } from '../tenants/service';
import { listEmails, sendPendingEmails } from './email-outbox';
import { smtpMailer, type Mailer } from './mailer';
import { SmtpSink } from './testing/smtp-sink';

describe('pause emails', () => {
  let database: Database;
  let tenantId: string;
  const clock = new ManualClock();
  let smtp: SmtpSink;
  beforeAll(async () => {
    database = await openPglite(null);
    tenantId = (await createTenant(database.db, clock, { name: 'Mail', domains: ['m.example.com'], sandbox: false })).tenantId;
    smtp = await SmtpSink.start();
  });
  afterAll(async () => {
    await smtp.stop();
    await database.close();
  });
  const enqueue = async (key: string, recipients = ['owner@m.example.com', 'admin@m.example.com']) => {
    await database.db.insert(emailOutbox).values({
      id: `eml_${key}`,
      tenantId,
      dedupeKey: key,
      recipients,
      subject: `Webhook endpoint paused: ${key}`,
      text: 'body',
      status: 'pending',
      nextAttemptAt: clock.now(),
      createdAt: clock.now(),
    });
  };
  const statusOf = async (key: string) => (await database.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, key)))[0]!;

  test('without SMTP the email stays in the outbox the dashboard shows', async () => {
    await enqueue('kept');
    const shown = await listEmails(database.db, tenantId);
    expect(shown.find((e) => e.subject.endsWith('kept'))).toMatchObject({ status: 'pending', to: ['owner@m.example.com', 'admin@m.example.com'] });
  });

  test('with SMTP (nodemailer) it is sent once, to every owner and admin, and marked sent', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    const sent = await sendPendingEmails({ db: database.db, now: clock.now(), mailer, from: 'AgeVerify <no-reply@av.example>', logger: silentLogger });
    expect(sent).toBe(1);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.to).toEqual(['owner@m.example.com', 'admin@m.example.com']);
    expect(smtp.mails[0]!.raw).toContain('Subject: Webhook endpoint paused: kept');
    expect((await statusOf('kept')).status).toBe('sent');
    expect(await sendPendingEmails({ db: database.db, now: clock.now(), mailer, from: 'x@av.example', logger: silentLogger })).toBe(0);
    expect(smtp.mails).toHaveLength(1);
  });

  test('a refusal by the SMTP server is retried later; not before its time', async () => {
    await enqueue('refused');
    let calls = 0;
    const flaky: Mailer = {
      async send() {
        calls++;
        if (calls === 1) throw new Error('421 try again later');
      },
    };
    expect(await sendPendingEmails({ db: database.db, now: clock.now(), mailer: flaky, from: 'x@av.example', logger: silentLogger })).toBe(0);
    expect(await statusOf('refused')).toMatchObject({ status: 'pending', lastError: '421 try again later' });
    expect(await sendPendingEmails({ db: database.db, now: clock.now(), mailer: flaky, from: 'x@av.example', logger: silentLogger })).toBe(0);
    clock.advance(61_000);
    expect(await sendPendingEmails({ db: database.db, now: clock.now(), mailer: flaky, from: 'x@av.example', logger: silentLogger })).toBe(1);
    expect(calls).toBe(2);
  });

  test('a send interrupted by a crash is never retried (at most one email per pause)', async () => {
    await enqueue('interrupted');
    await database.db.update(emailOutbox).set({ status: 'sending', leaseUntil: clock.now() }).where(eq(emailOutbox.dedupeKey, 'interrupted'));
    clock.advance(11 * 60_000);
    const mailer: Mailer = { send: async () => expect.unreachable('must not resend') };
    await sendPendingEmails({ db: database.db, now: clock.now(), mailer, from: 'x@av.example', logger: silentLogger });
    expect((await statusOf('interrupted')).status).toBe('unknown');
  });
});
