/**
 * `bun run demo`: the README quickstart's merchant side, in one command, next to a running service
 * (`bun run start`).
 *
 *   1. checks the service answers on PORT (default 3000, the service's own default);
 *   2. provisions a sandbox tenant "Demo Shop" for the domain localhost with the CLI — once per
 *      database: the keys are kept in .cache/demo-keys.json under the database fingerprint the
 *      service reports on /healthz, so a restart reuses them and another database gets its own;
 *   3. serves examples/merchant on DEMO_PORT (default 4000) with those keys: its shop page starts a
 *      verification with the SDK, and /return validates the session with the secret key.
 *
 * It prints the page to open, the keys, and a curl that creates a session returning to that page.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createMerchant } from '../examples/merchant/server';

const repoRoot = join(import.meta.dir, '..');
// DEMO_KEYS_FILE: tests keep their throwaway keys out of the working copy's .cache.
const keysFile = process.env.DEMO_KEYS_FILE || join(repoRoot, '.cache/demo-keys.json');
const servicePort = Number(process.env.PORT || 3000);
const demoPort = Number(process.env.DEMO_PORT || 4000);
const serviceUrl = `http://localhost:${servicePort}`;

interface DemoKeys {
  tenantId: string;
  publishableKey: string;
  secretKey: string;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function serviceDatabaseId(): Promise<string> {
  let health: { database?: { id?: string } };
  try {
    health = (await (await fetch(`${serviceUrl}/healthz`, { signal: AbortSignal.timeout(2000) })).json()) as typeof health;
  } catch {
    fail(`No service answers at ${serviceUrl}. Start it first, in another terminal: bun run start`);
  }
  return health.database?.id ?? 'unknown';
}

function readKeys(): Record<string, DemoKeys> {
  return existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, DemoKeys>) : {};
}

/** The CLI runs with this process's environment, so it uses the database the service uses (it warns otherwise). */
function createDemoTenant(): DemoKeys {
  const command = ['bun', 'backend/src/cli/main.ts', 'tenant', 'create', '--name', 'Demo Shop', '--domain', 'localhost', '--sandbox'];
  const result = Bun.spawnSync(command, { cwd: repoRoot, env: process.env, stderr: 'pipe' });
  const stderr = result.stderr.toString();
  if (result.exitCode !== 0) fail(`\`bun run cli tenant create\` failed:\n${stderr}`);
  if (stderr.includes('warning:')) fail(`${stderr}\nRun the demo with the same DATA_DIR / DATABASE_URL as the service.`);
  return JSON.parse(result.stdout.toString()) as DemoKeys;
}

const databaseId = await serviceDatabaseId();
const saved = readKeys();
let keys = saved[databaseId];
if (!keys) {
  keys = createDemoTenant();
  mkdirSync(dirname(keysFile), { recursive: true });
  writeFileSync(keysFile, `${JSON.stringify({ ...saved, [databaseId]: keys }, null, 2)}\n`, { mode: 0o600 });
  console.log(`Created the sandbox tenant "Demo Shop" (${keys.tenantId}) for the domain localhost.`);
} else {
  console.log(`Using the sandbox tenant "Demo Shop" (${keys.tenantId}) created earlier (.cache/demo-keys.json).`);
}

const server = Bun.serve({
  hostname: process.env.DEMO_HOST || '127.0.0.1',
  port: demoPort,
  fetch: createMerchant({ serviceUrl, publishableKey: keys.publishableKey, secretKey: keys.secretKey }),
});
const shopUrl = `http://localhost:${server.port}`;

console.log(`
Demo shop (examples/merchant): ${shopUrl}
  Open it, click "Verify my age", pick "verified" in the sandbox: you land on ${shopUrl}/return,
  whose server validates the session with the secret key.

  publishableKey ${keys.publishableKey}
  secretKey      ${keys.secretKey}

Or create a session from the shell and open its verifyUrl:
  curl -s ${serviceUrl}/api/v1/sessions/create -H "Authorization: Bearer ${keys.publishableKey}" \\
    -H 'content-type: application/json' -d '{"returnUrl":"${shopUrl}/return"}'

Webhooks go to https endpoints on public addresses (docs/webhooks.md); with one added,
  bun run cli webhooks add --tenant ${keys.tenantId} --url https://hooks.example.com/age --events session.started,verification.completed
each delivery shows in: bun run cli webhooks attempts --tenant ${keys.tenantId} --endpoint <endpointId>
Ctrl-C stops the shop; the service keeps running.`);
