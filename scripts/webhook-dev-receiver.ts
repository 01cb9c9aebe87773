/**
 * `bun run webhooks:dev-receiver [--port 4443] [--secret whsec_…]`: a webhook receiver on this
 * machine for trying webhooks locally (issue 23, item 6; docs/webhooks.md "Testing webhooks
 * locally"). The service delivers only over HTTPS to public addresses, so a local receiver needs
 * two operator settings; this prints them exactly, with the endpoint URL to register, then prints
 * every delivery (its signature checked when --secret is given). `bun run demo` uses the same
 * certificate and receiver.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { verifyWebhookSignature } from '@ageverify/server';

export interface DevCertificate {
  cert: string;
  key: string;
  /** The certificate's path: the service trusts it through WEBHOOK_CA_FILE. */
  caFile: string;
}

/** A self-signed certificate for 127.0.0.1 (openssl), made once in `dir` and reused. */
export function devCertificate(dir: string): DevCertificate {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  if (!existsSync(cert) || !existsSync(key)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const made = Bun.spawnSync(
      [
        'openssl',
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '365',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stderr: 'pipe' },
    );
    if (made.exitCode !== 0) throw new Error(`openssl could not make the webhook receiver's certificate:\n${made.stderr.toString()}`);
  }
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8'), caFile: resolve(cert) };
}

/**
 * An HTTPS receiver on 127.0.0.1 that answers 204 and reports each delivery. With a secret, a
 * delivery whose x-service-signature does not verify over the raw body is refused with 401.
 */
export function startDevReceiver(options: { port: number; tls: DevCertificate; secret?: string; log: (line: string) => void }) {
  return Bun.serve({
    hostname: '127.0.0.1',
    port: options.port,
    tls: { cert: options.tls.cert, key: options.tls.key },
    async fetch(request) {
      const raw = new Uint8Array(await request.arrayBuffer());
      if (options.secret && !verifyWebhookSignature(raw, request.headers.get('x-service-signature'), options.secret)) {
        options.log(`refused (401): x-service-signature does not verify with the given secret (webhook-id ${request.headers.get('webhook-id')})`);
        return new Response('bad signature', { status: 401 });
      }
      let summary = `${raw.length} bytes`;
      try {
        const envelope = JSON.parse(new TextDecoder().decode(raw)) as { event?: string; data?: { sessionId?: string } };
        summary = `${envelope.event} for ${envelope.data?.sessionId ?? '(no session)'}`;
      } catch {
        // Not JSON: reported by size.
      }
      options.log(
        `${summary} (${options.secret ? 'signature verified' : 'signature not checked: pass --secret'}, webhook-id ${request.headers.get('webhook-id')})`,
      );
      return new Response(null, { status: 204 });
    },
  });
}

/** The settings and steps to print: exactly what the operator and the merchant type. */
export function devReceiverInstructions(url: string, caFile: string): string {
  return `Webhook receiver listening on ${url}

1. Start the service so that it may deliver here (127.0.0.1 is not a public address, and the
   certificate is self-signed):

     WEBHOOK_ALLOWED_CIDRS=127.0.0.1/32 WEBHOOK_CA_FILE=${caFile} bun run start

2. Add the endpoint ${url} to a tenant: the dashboard's Webhooks page, or
     bun run cli webhooks add --tenant TENANT_ID --url ${url}
   and restart this receiver with --secret SECRET (the endpoint's secret) to check signatures.

Deliveries are printed below. Ctrl-C stops the receiver.
`;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const tls = devCertificate(process.env.WEBHOOK_DEV_TLS_DIR || join(import.meta.dir, '..', '.cache', 'dev-webhook-tls'));
  const server = startDevReceiver({ port: Number(value('port') ?? 4443), tls, secret: value('secret'), log: (line) => console.log(`webhook ${line}`) });
  console.log(devReceiverInstructions(`https://127.0.0.1:${server.port}/webhooks`, tls.caFile));
}
