/**
 * Boots the service: configuration, database (migrated), HTTP app with the verify UI and SDK,
 * and graceful shutdown that closes the database (PGlite must be closed or Bun never exits).
 */
import { ConfigError, loadConfig } from './config';
import { systemClock, testClockFromEnv, TestClockRefused } from './clock';
import { createLogger } from './log';
import { openDatabase } from './db/database';
import { DataDirLockedError } from './db/data-dir-lock';
import { DataDirPermissionError } from './db/data-dir-permissions';
import { createApp } from './app';
import { EnginePool } from './modules/engine/runtime/engine-pool';
import { embeddedIdentity, postgresIdentity } from './db/database-identity';
import { resolveServerSecret } from './server-secret';
import { startSweeper } from './modules/sessions/expiry-sweeper';
import { createWebhookWorker } from './modules/webhooks';
import { cliBridgeRoutes, newAdminToken, recordAdminAddress } from './cli/server-bridge';
import { issueSetupToken, setupLink } from './modules/dashboard/setup';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // NODE_ENV=test + AGEVERIFY_TEST_CLOCK_OFFSET_FILE: the e2e server's movable clock (clock.ts); never otherwise.
  const testClock = testClockFromEnv();
  const clock = testClock ?? systemClock;
  if (testClock) logger.warn('test clock in use: time is moved by the offset file', { file: process.env.AGEVERIFY_TEST_CLOCK_OFFSET_FILE });
  const database = await openDatabase(config);
  logger.info('database ready', { kind: database.kind, ...(database.kind === 'pglite' ? { dataDir: config.dataDir } : {}) });
  const serverSecret = await resolveServerSecret(database.db, { configured: config.serverSecret, dataDir: database.kind === 'pglite' ? config.dataDir : null });
  // Webhook destination rules, the same for configuration (CLI) and every delivery attempt.
  const guard = { allowedCidrs: config.webhookAllowedCidrs, caFile: config.webhookCaFile };

  const adminToken = newAdminToken();
  let server: ReturnType<typeof Bun.serve> | null = null;
  const databaseIdentity = config.databaseUrl ? await postgresIdentity(database.db, config.databaseUrl) : embeddedIdentity(config.dataDir);
  // Inference runs in worker threads (modules/engine/runtime/engine-pool.ts); models load at the first live
  // check unless ENGINE_PRELOAD=true.
  const engine = new EnginePool({ workers: config.engineWorkers, queueLimit: config.engineQueueLimit });
  if (config.enginePreload) {
    const started = performance.now();
    await engine.warmUp();
    logger.info('verification engine ready', { workers: config.engineWorkers, ms: Math.round(performance.now() - started) });
  }
  const app = createApp({
    ...config,
    db: database.db,
    clock,
    logger,
    serverSecret,
    engine,
    databaseIdentity,
    webhookGuard: guard,
    clientIp: (request) => server?.requestIP(request)?.address ?? null,
  }).use(
    cliBridgeRoutes(
      { db: database.db, clock, guard, publicBaseUrl: config.publicBaseUrl, serverSecret: async () => serverSecret },
      adminToken,
      (request) => server?.requestIP(request)?.address ?? null,
    ),
  );
  // The body parser answers oversized bodies with the spec's 413 and stops reading at the limit;
  // Bun's own limit (a bare 413) is only a backstop for absurd sizes.
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: 256 * 1024 * 1024 });
  server = app.server;
  const port = server?.port ?? config.port;
  if (database.lock) recordAdminAddress(database.lock, port, adminToken);

  const base = config.publicBaseUrl;
  logger.info('listening', {
    url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`,
    api: `${base}/api/v1`,
    verifyUi: config.verifyUrl,
    sdk: `${base}/sdk/ageverify.iife.min.js`,
  });

  const sweeper = startSweeper({
    db: database.db,
    clock,
    logger,
    receipts: { db: database.db, clock, serverSecret, publicBaseUrl: config.publicBaseUrl, receiptKeyRotationDays: config.receiptKeyRotationDays },
  });
  void sweeper.runOnce();
  const webhooks = createWebhookWorker({
    database,
    clock,
    logger,
    guard,
    smtpUrl: config.smtpUrl,
    mailFrom: `AgeVerify <no-reply@${new URL(config.publicBaseUrl).hostname}>`,
    settings: {
      maxInFlight: config.webhookMaxInFlight,
      maxInFlightPerEndpoint: config.webhookMaxInFlightPerEndpoint,
      retentionMs: config.webhookRetentionDays * 24 * 60 * 60 * 1000,
    },
  });
  await webhooks.start();

  // First run (issue 12): a one-time setup link, logged once; a new one each boot until a tenant exists.
  const setupToken = await issueSetupToken(database.db);
  if (setupToken) {
    // warn, not info: the operator has to act, and LOG_LEVEL=warn must not hide the link.
    logger.warn('no tenant yet: open the setup link to create the first tenant and its owner (valid once)', {
      setupUrl: setupLink(config.publicBaseUrl, setupToken),
    });
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    await app.stop();
    await sweeper.stop();
    await webhooks.stop();
    await engine.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof TestClockRefused || error instanceof DataDirLockedError || error instanceof DataDirPermissionError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`fatal: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
});
