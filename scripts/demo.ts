/**
 * `bun run demo`: the README quickstart in one command.
 *
 *   1. When no service answers on PORT (default 3000), starts one (`bun run start`, same DATA_DIR
 *      and settings), allowed to deliver webhooks to this demo's receiver on 127.0.0.1 (a
 *      self-signed certificate made with openssl, trusted through WEBHOOK_CA_FILE). When a service
 *      already runs there, uses it: then the demo has no webhook receiver (that service was not
 *      started trusting it).
 *   2. Provisions a sandbox tenant "Demo Shop" for the domain localhost with the CLI (and, with its
 *      own service, a webhook endpoint for every event kind), once per database: the keys are kept in
 *      .cache/demo-keys.json under the database fingerprint the service reports on /healthz.
 *   3. Serves examples/merchant on DEMO_PORT (default 4000) with those keys: its shop page starts a
 *      verification with the SDK, /return validates the session with the secret key. Received
 *      webhooks are printed, with their signature checked.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EVENT_KINDS } from '@ageverify/protocol';
import { createMerchant } from '../examples/merchant/server';
import { devCertificate, startDevReceiver } from './webhook-dev-receiver';

const repoRoot = join(import.meta.dir, '..');
// DEMO_KEYS_FILE / DEMO_TLS_DIR: tests keep their throwaway files out of the working copy's .cache.
const keysFile = process.env.DEMO_KEYS_FILE || join(repoRoot, '.cache/demo-keys.json');
const tlsDir = process.env.DEMO_TLS_DIR || join(repoRoot, '.cache/demo-tls');
const servicePort = Number(process.env.PORT || 3000);
const demoPort = Number(process.env.DEMO_PORT || 4000);
const webhookPort = Number(process.env.DEMO_WEBHOOK_PORT || 4443);
const serviceUrl = `http://localhost:${servicePort}`;
// An IP, not localhost: the service refuses a name that also resolves to an address it was not told to allow (::1).
const webhookUrl = `https://127.0.0.1:${webhookPort}/webhooks`;

interface DemoSetup {
  tenantId: string;
  publishableKey: string;
  secretKey: string;
  webhook?: { endpointId: string; secret: string; url: string };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function health(): Promise<{ database?: { id?: string } } | null> {
  try {
    const response = await fetch(`${serviceUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
    return response.ok ? ((await response.json()) as { database?: { id?: string } }) : null;
  } catch {
    return null;
  }
}

/** A self-signed certificate for 127.0.0.1, made once; it is its own CA for WEBHOOK_CA_FILE. */
async function startService(caFile: string): Promise<Bun.Subprocess> {
  // In process.env, so the CLI below (on PostgreSQL it checks destinations itself) allows the receiver too.
  Object.assign(process.env, { WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_CA_FILE: caFile });
  const service = Bun.spawn(['bun', 'run', 'start'], { cwd: repoRoot, env: process.env, stdio: ['ignore', 'inherit', 'inherit'] });
  const stop = () => {
    service.kill('SIGTERM');
    void service.exited.then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`Starting the service on ${serviceUrl} (bun run start)…`);
  while (!(await health())) {
    if (service.exitCode !== null) fail(`The service exited with ${service.exitCode}.`);
    await Bun.sleep(100);
  }
  return service;
}

/** The CLI runs with this process's environment, so it uses the service's database (it warns otherwise). */
function cli(...argv: string[]): Record<string, string> {
  const result = Bun.spawnSync(['bun', 'backend/src/cli/main.ts', ...argv], { cwd: repoRoot, env: process.env, stderr: 'pipe' });
  const stderr = result.stderr.toString();
  if (result.exitCode !== 0) fail(`\`bun run cli ${argv.join(' ')}\` failed:\n${stderr}`);
  if (stderr.includes('warning:')) fail(`${stderr}\nRun the demo with the same DATA_DIR / DATABASE_URL as the service.`);
  return JSON.parse(result.stdout.toString()) as Record<string, string>;
}

const existing = await health();
const tls = existing ? null : devCertificate(tlsDir);
if (!existing) await startService(tls!.caFile);
else
  console.log(
    `Using the service already running on ${serviceUrl}: no webhook receiver (it was not started to trust one; \`bun run demo\` alone starts one that is).`,
  );

const databaseId = (await health())?.database?.id ?? 'unknown';
const saved: Record<string, DemoSetup> = existsSync(keysFile) ? JSON.parse(readFileSync(keysFile, 'utf8')) : {};
let setup = saved[databaseId];
if (!setup) {
  const tenant = cli('tenant', 'create', '--name', 'Demo Shop', '--domain', 'localhost', '--sandbox');
  setup = { tenantId: tenant.tenantId!, publishableKey: tenant.publishableKey!, secretKey: tenant.secretKey! };
  console.log(`Created the sandbox tenant "Demo Shop" (${setup.tenantId}) for the domain localhost.`);
}
if (tls && setup.webhook?.url !== webhookUrl) {
  const endpoint = cli('webhooks', 'add', '--tenant', setup.tenantId, '--url', webhookUrl, '--events', EVENT_KINDS.join(','));
  setup.webhook = { endpointId: endpoint.endpointId!, secret: endpoint.secret!, url: webhookUrl };
}
mkdirSync(dirname(keysFile), { recursive: true });
writeFileSync(keysFile, `${JSON.stringify({ ...saved, [databaseId]: setup }, null, 2)}\n`, { mode: 0o600 });
if (tls && setup.webhook) startDevReceiver({ port: webhookPort, tls, secret: setup.webhook.secret, log: (line) => console.log(`webhook ${line}`) });

const server = Bun.serve({
  hostname: process.env.DEMO_HOST || '127.0.0.1',
  port: demoPort,
  fetch: createMerchant({ serviceUrl, publishableKey: setup.publishableKey, secretKey: setup.secretKey }),
});
const shopUrl = `http://localhost:${server.port}`;

console.log(`
Demo shop (examples/merchant): ${shopUrl}
  Open it, click "Verify my age", pick "verified" in the sandbox: you land on ${shopUrl}/return,
  whose server validates the session with the secret key.

  tenantId       ${setup.tenantId}
  publishableKey ${setup.publishableKey}
  secretKey      ${setup.secretKey}
${
  setup.webhook && tls
    ? `  webhooks       ${setup.webhook.url} (endpoint ${setup.webhook.endpointId}); each arrival is printed below.
                 Deliveries: bun run cli webhooks attempts --tenant ${setup.tenantId} --endpoint ${setup.webhook.endpointId}`
    : '  webhooks       none: run `bun run demo` without a service already running to receive them here.'
}

Or create a session from the shell and open its verifyUrl:
  curl -s ${serviceUrl}/api/v1/sessions/create -H "Authorization: Bearer ${setup.publishableKey}" \\
    -H 'content-type: application/json' -d '{"returnUrl":"${shopUrl}/return"}'

Ctrl-C stops the demo${tls ? ' and its service' : ''}.
`);
