/**
 * A backend of its own for the dashboard specs (issue 12): it must start with no tenant (first-run
 * setup reads its link from the log), and it delivers webhooks to a local HTTPS receiver, which
 * needs the operator settings WEBHOOK_ALLOWED_CIDRS (127.0.0.1 is not a public address) and
 * WEBHOOK_CA_FILE (the receiver's throwaway CA). Fresh PGlite folder, or a throwaway PostgreSQL
 * database for the postgres target. Log: test-results/e2e-services/<target>-dashboard-<n>.log.
 *
 * Its clock can be moved forward (`setClockOffset`): the server runs with NODE_ENV=test and
 * AGEVERIFY_TEST_CLOCK_OFFSET_FILE (backend/src/clock.ts, testClockFromEnv), so a spec can let an
 * hour of webhook rejections pass and see the endpoint paused.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TargetName } from './environment';
import { freePort, logTail, startProcess, stopProcess, waitUntilReady, type RunningProcess } from './processes';
import { createThrowawayDatabase } from './throwaway-database';
import { WebhookReceiver } from './webhook-receiver';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const logDir = join(repoRoot, 'test-results', 'e2e-services');
const READY_TIMEOUT_MS = 120_000;

export class DashboardServer {
  private constructor(
    readonly url: string,
    readonly receiver: WebhookReceiver,
    private readonly backend: RunningProcess,
    /** The database and webhook settings the CLI needs to act like this server's operator. */
    private readonly operatorEnv: Record<string, string>,
    private readonly clockOffsetFile: string,
    private readonly cleanups: Array<() => Promise<void>>,
  ) {}

  static async start(target: TargetName, extraEnv: Record<string, string> = {}): Promise<DashboardServer> {
    const cleanups: Array<() => Promise<void>> = [];
    try {
      const receiver = await WebhookReceiver.start();
      cleanups.push(() => receiver.stop());
      const workDir = mkdtempSync(join(tmpdir(), 'ageverify-dashboard-e2e-'));
      cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));
      let databaseEnv: Record<string, string>;
      if (target === 'pglite') {
        databaseEnv = { DATA_DIR: join(workDir, 'data') };
      } else {
        const serverUrl = process.env.TEST_DATABASE_URL;
        if (!serverUrl) throw new Error('The postgres target needs TEST_DATABASE_URL');
        const database = await createThrowawayDatabase(serverUrl);
        cleanups.push(database.drop);
        databaseEnv = { DATABASE_URL: database.url, SERVER_SECRET: randomBytes(32).toString('hex') };
      }
      const clockOffsetFile = join(workDir, 'clock-offset-ms');
      writeFileSync(clockOffsetFile, '0');
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      mkdirSync(logDir, { recursive: true });
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const name of ['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS', 'SMTP_URL']) delete env[name];
      const backend = startProcess({
        name: `${target} dashboard backend`,
        command: 'bun',
        args: ['backend/src/main.ts'],
        cwd: repoRoot,
        env: {
          ...env,
          ...databaseEnv,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_BASE_URL: url,
          WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
          WEBHOOK_CA_FILE: receiver.caFile,
          NODE_ENV: 'test',
          AGEVERIFY_TEST_CLOCK_OFFSET_FILE: clockOffsetFile,
          ...extraEnv,
        },
        logFile: join(logDir, `${target}-dashboard-${port}.log`),
      });
      cleanups.push(() => stopProcess(backend));
      await waitUntilReady(backend, `${url}/healthz`, READY_TIMEOUT_MS);
      // With PostgreSQL the CLI connects itself and applies the operator's webhook settings, so it gets them too.
      const operatorEnv = { ...databaseEnv, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_CA_FILE: receiver.caFile };
      return new DashboardServer(url, receiver, backend, operatorEnv, clockOffsetFile, cleanups);
    } catch (error) {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
      throw error;
    }
  }

  /** Moves the server's clock to run `ms` ahead of real time (it re-reads the file within 100 ms). */
  setClockOffset(ms: number): void {
    writeFileSync(this.clockOffsetFile, String(ms));
  }

  log(): string {
    return readFileSync(this.backend.logFile, 'utf8');
  }

  /** The one-time link the server logs at boot while no tenant exists (`…/dashboard/setup#token=…`). */
  async setupLink(timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const pattern = /(https?:\/\/[^\s"']+\/dashboard\/setup#token=[A-Za-z0-9_-]+)/;
    while (Date.now() < deadline) {
      const match = pattern.exec(this.log());
      if (match) return match[1]!;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no setup link in the server log.\n${logTail(this.backend.logFile)}`);
  }

  /** The provisioning CLI against this server's database (with PGlite it forwards to the server). */
  cli(...args: string[]): Record<string, any> {
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.operatorEnv };
    delete env.PORT;
    const result = spawnSync('bun', ['backend/src/cli/main.ts', ...args], { cwd: repoRoot, env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return JSON.parse(result.stdout) as Record<string, any>;
  }

  async stop(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('dashboard server teardown:', error));
  }
}
