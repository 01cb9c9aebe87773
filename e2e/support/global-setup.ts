/**
 * Starts, for each database target, everything a real merchant integration touches:
 *
 *   backend (fresh PGlite folder, or a throwaway PostgreSQL database)
 *     └─ CLI: a sandbox tenant (the merchant's) and a live tenant (negative checks)
 *   example merchant app wired to the sandbox tenant
 *   SDK lab (support/sdk-lab.ts): the merchant app plus a page running the SDK with any options
 *   fake camera videos (support/fake-camera.ts): y4m files from e2e/fixtures images, made with ffmpeg
 *
 * and writes their addresses and keys to a JSON file for the tests (see environment.ts).
 * Logs: test-results/e2e-services/<target>-{backend,cli,merchant,sdk-lab}.log.
 * The returned function is Playwright's teardown: it stops the processes and deletes the data.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseTargets, ENVIRONMENT_FILE_VARIABLE, type E2EEnvironment, type TargetEnvironment, type TargetName, type TenantKeys } from './environment';
import { makeFakeCameraVideos } from './fake-camera';
import { freePort, logTail, runCommand, startProcess, stopProcess, waitUntilReady } from './processes';
import { createThrowawayDatabase } from './throwaway-database';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const logDir = join(repoRoot, 'test-results', 'e2e-services');

/** The browser bundles the backend serves; `bun run build` makes them (`bun run test` does it first). */
const BUILT_ASSETS = ['sdk/dist/ageverify.iife.min.js', 'verify-ui/dist/verify.js', 'dashboard/dist/index.html'];

/** The first PGlite start on a machine runs initdb (about 8 s, slower on a busy CI box). */
const BACKEND_READY_TIMEOUT_MS = 120_000;
const MERCHANT_READY_TIMEOUT_MS = 20_000;

type Cleanup = () => Promise<void>;

export default async function globalSetup(): Promise<Cleanup> {
  const missing = BUILT_ASSETS.filter((asset) => !existsSync(join(repoRoot, asset)));
  if (missing.length > 0) throw new Error(`Missing ${missing.join(', ')}: run \`bun run build\` before the e2e suite (\`bun run test\` does both).`);

  makeFakeCameraVideos();
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'ageverify-e2e-'));

  // Undone last-in first-out, so each target stops its merchant, then its backend, then drops its data.
  const cleanups: Cleanup[] = [async () => rmSync(workDir, { recursive: true, force: true })];
  const teardown: Cleanup = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => console.error('e2e teardown:', error));
    }
  };

  try {
    const environment: E2EEnvironment = {};
    const targets = databaseTargets();
    // allSettled, not all: a target still starting when the other fails must finish registering
    // its cleanups before teardown runs, or its processes would outlive the run.
    const results = await Promise.allSettled(
      targets.map(async (target) => {
        environment[target] = await startTarget(target, workDir, cleanups);
      }),
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    const file = join(workDir, 'environment.json');
    writeFileSync(file, JSON.stringify(environment, null, 2));
    // Workers are started after global setup and inherit this variable.
    process.env[ENVIRONMENT_FILE_VARIABLE] = file;
    console.log(`e2e services ready for ${targets.join(', ')} (logs in ${logDir})`);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

async function startTarget(target: TargetName, workDir: string, cleanups: Cleanup[]): Promise<TargetEnvironment> {
  const database = await databaseEnv(target, workDir, cleanups);
  const servicePort = await freePort();
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const serviceEnv = {
    ...inheritedEnv(),
    ...database,
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: serviceUrl,
  };

  const backend = startProcess({
    name: `${target} backend`,
    command: 'bun',
    args: ['backend/src/main.ts'],
    cwd: repoRoot,
    env: serviceEnv,
    logFile: join(logDir, `${target}-backend.log`),
  });
  cleanups.push(() => stopProcess(backend));
  await waitUntilReady(backend, `${serviceUrl}/healthz`, BACKEND_READY_TIMEOUT_MS);

  // With PGlite the CLI forwards to the running server (same DATA_DIR); with PostgreSQL it connects itself.
  const cliLog = join(logDir, `${target}-cli.log`);
  const sandbox = await createTenant(serviceEnv, cliLog, ['--name', 'Demo Shop', '--domain', '127.0.0.1', '--sandbox']);
  const live = await createTenant(serviceEnv, cliLog, ['--name', 'Live Shop', '--domain', '127.0.0.1']);

  const merchantPort = await freePort();
  const merchantUrl = `http://127.0.0.1:${merchantPort}`;
  const merchant = startProcess({
    name: `${target} merchant`,
    command: 'bun',
    args: ['examples/merchant/server.ts'],
    cwd: repoRoot,
    env: {
      ...inheritedEnv(),
      PORT: String(merchantPort),
      HOST: '127.0.0.1',
      SERVICE_URL: serviceUrl,
      PUBLISHABLE_KEY: sandbox.publishableKey,
      SECRET_KEY: sandbox.secretKey,
    },
    logFile: join(logDir, `${target}-merchant.log`),
  });
  cleanups.push(() => stopProcess(merchant));

  const sdkLabPort = await freePort();
  const sdkLabUrl = `http://127.0.0.1:${sdkLabPort}`;
  const sdkLab = startProcess({
    name: `${target} sdk-lab`,
    command: 'bun',
    args: ['e2e/support/sdk-lab.ts'],
    cwd: repoRoot,
    env: {
      ...inheritedEnv(),
      PORT: String(sdkLabPort),
      SERVICE_URL: serviceUrl,
      PUBLISHABLE_KEY: sandbox.publishableKey,
      SECRET_KEY: sandbox.secretKey,
    },
    logFile: join(logDir, `${target}-sdk-lab.log`),
  });
  cleanups.push(() => stopProcess(sdkLab));
  await Promise.all([
    waitUntilReady(merchant, `${merchantUrl}/`, MERCHANT_READY_TIMEOUT_MS),
    waitUntilReady(sdkLab, `${sdkLabUrl}/sdk-lab`, MERCHANT_READY_TIMEOUT_MS),
  ]);

  return { target, serviceUrl, merchantUrl, sdkLabUrl, sandbox, live, cliEnv: database };
}

async function databaseEnv(target: TargetName, workDir: string, cleanups: Cleanup[]): Promise<Record<string, string>> {
  if (target === 'pglite') return { DATA_DIR: join(workDir, 'pglite-data') };
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('The postgres target needs TEST_DATABASE_URL');
  const database = await createThrowawayDatabase(serverUrl);
  cleanups.push(database.drop);
  // PostgreSQL mode requires SERVER_SECRET (it is never kept in the database).
  return { DATABASE_URL: database.url, SERVER_SECRET: randomBytes(32).toString('hex') };
}

/** The runner's environment without anything that would point a child at another database or port. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_BASE_URL', 'VERIFY_URL', 'NODE_OPTIONS', ENVIRONMENT_FILE_VARIABLE]) {
    delete env[name];
  }
  return env;
}

async function createTenant(env: NodeJS.ProcessEnv, logFile: string, options: string[]): Promise<TenantKeys> {
  const args = ['backend/src/cli/main.ts', 'tenant', 'create', ...options];
  const { exitCode, stdout } = await runCommand({ name: 'cli', command: 'bun', args, cwd: repoRoot, env, logFile });
  const command = `bun ${args.join(' ')}`;
  if (exitCode !== 0) throw new Error(`\`${command}\` exited with ${exitCode}.\n${logTail(logFile)}`);
  const keys = parseJsonObject(stdout);
  if (
    !keys ||
    typeof keys.tenantId !== 'string' ||
    typeof keys.pairId !== 'string' ||
    typeof keys.publishableKey !== 'string' ||
    !keys.publishableKey.startsWith('pk_') ||
    typeof keys.secretKey !== 'string' ||
    !keys.secretKey.startsWith('sk_')
  ) {
    throw new Error(`\`${command}\` did not print {tenantId, pairId, publishableKey: "pk_…", secretKey: "sk_…"}; stdout was:\n${stdout}`);
  }
  return { tenantId: keys.tenantId, pairId: keys.pairId, publishableKey: keys.publishableKey, secretKey: keys.secretKey };
}

/** The CLI's JSON result: the whole stdout, or else its last line that is a JSON object. */
function parseJsonObject(stdout: string): Record<string, unknown> | null {
  const candidates = [stdout.trim(), ...stdout.trim().split('\n').reverse()];
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
    } catch {
      // not JSON; try the next candidate
    }
  }
  return null;
}
