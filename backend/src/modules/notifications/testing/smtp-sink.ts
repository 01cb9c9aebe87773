/**
 * A local mail server for tests: just enough SMTP (RFC 5321) for nodemailer, no TLS, no auth. The
 * outbox tests send to it, and the e2e specs give the backend SMTP_URL=smtp://127.0.0.1:<port> to
 * read links that only an email carries (a sign-up's confirmation). node:net, since Playwright runs
 * on Node.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The DATA as received: headers and encoded body. */
  raw: string;
  subject: string;
  /** The body, quoted-printable decoded. */
  text: string;
}

/** nodemailer sends long lines quoted-printable: soft breaks and =XX escapes. */
function decodeQuotedPrintable(body: string): string {
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function parse(from: string, to: string[], data: string): ReceivedMail {
  const split = data.indexOf('\r\n\r\n');
  const head = data.slice(0, split);
  const body = data.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  const quoted = /^Content-Transfer-Encoding: quoted-printable/im.test(head);
  return { from, to, raw: data, subject, text: quoted ? decodeQuotedPrintable(body) : body };
}

export class SmtpSink {
  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly mails: readonly ReceivedMail[],
  ) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<SmtpSink> {
    const mails: ReceivedMail[] = [];
    const server = createServer((socket: Socket) => {
      let buffer = '';
      let inData = false;
      let from = '';
      let to: string[] = [];
      socket.write('220 e2e-smtp ready\r\n');
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          if (inData) {
            const end = buffer.indexOf('\r\n.\r\n');
            if (end === -1) return;
            mails.push(parse(from, to, buffer.slice(0, end)));
            buffer = buffer.slice(end + 5);
            inData = false;
            to = [];
            socket.write('250 queued\r\n');
            continue;
          }
          const eol = buffer.indexOf('\r\n');
          if (eol === -1) return;
          const line = buffer.slice(0, eol);
          buffer = buffer.slice(eol + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'MAIL') from = /<(.*)>/.exec(line)?.[1] ?? '';
          if (verb === 'RCPT') to.push(/<(.*)>/.exec(line)?.[1] ?? '');
          if (verb === 'DATA') {
            inData = true;
            socket.write('354 go ahead\r\n');
          } else if (verb === 'QUIT') {
            socket.end('221 bye\r\n');
            return;
          } else socket.write(verb === 'EHLO' || verb === 'HELO' ? '250 e2e-smtp\r\n' : '250 ok\r\n');
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new SmtpSink(server, (server.address() as { port: number }).port, mails);
  }

  /** The first mail to `email` whose subject matches, once it has arrived (the backend sends from its worker loop). */
  async waitForMail(email: string, subject: RegExp, timeoutMs = 30_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.mails.find((m) => m.to.includes(email) && subject.test(m.subject));
      if (mail) return mail;
      if (Date.now() > deadline)
        throw new Error(`no mail to ${email} matching ${subject} within ${timeoutMs} ms; got: ${JSON.stringify(this.mails.map((m) => [m.to, m.subject]))}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
