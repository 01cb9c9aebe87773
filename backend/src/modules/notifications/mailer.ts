/**
 * How mail leaves the service: SMTP through nodemailer when SMTP_URL is set. Without it there is
 * no mailer and mail stays in the email outbox, which the dashboard shows (docs/decisions-on-open-points.md "Email").
 */
import nodemailer from 'nodemailer';

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
