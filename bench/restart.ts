/**
 * Restart to first 201: how long an operator waits, after `bun run start`, before the service
 * creates a session. Starts `bun run start` (bundle check included) on a fresh data folder, creates
 * a sandbox tenant with the CLI (forwarded to the running server), then measures from spawn to the
 * first 201 on /api/v1/sessions/create; stops the service, starts it again on the same folder and
 * measures again. Prints figures, asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../backend/src/testing/free-port';

const root = join(import.meta.dir, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'bench-restart-'));

const port = freePort();
const base = `http://127.0.0.1:${port}`;
const env: Record<string, string> = { ...(process.env as Record<string, string>), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;

async function waitFor(probe: () => Promise<boolean>, proc: Bun.Subprocess): Promise<void> {
  for (;;) {
    try {
      if (await probe()) return;
    } catch {}
    if (proc.exitCode !== null) throw new Error(`the service exited with ${proc.exitCode}`);
    await Bun.sleep(20);
  }
}

const createSession = (publishableKey: string) => async () =>
  (
    await fetch(`${base}/api/v1/sessions/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publishableKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ returnUrl: 'http://localhost/return' }),
    })
  ).status === 201;

async function stop(proc: Bun.Subprocess): Promise<void> {
  proc.kill('SIGTERM');
  await proc.exited;
}

const start = () => Bun.spawn(['bun', 'run', 'start'], { cwd: root, env, stdout: 'ignore', stderr: 'inherit' });

try {
  let began = performance.now();
  let service = start();
  await waitFor(async () => (await fetch(`${base}/healthz`)).ok, service);
  const firstHealthy = performance.now() - began;
  const tenant = Bun.spawnSync(['bun', 'backend/src/cli/main.ts', 'tenant', 'create', '--name', 'Bench', '--domain', 'localhost', '--sandbox'], {
    cwd: root,
    env,
    stderr: 'pipe',
  });
  if (tenant.exitCode !== 0) throw new Error(`tenant create failed: ${tenant.stderr.toString()}`);
  const { publishableKey } = JSON.parse(tenant.stdout.toString()) as { publishableKey: string };
  await waitFor(createSession(publishableKey), service);
  await stop(service);

  const restarts: number[] = [];
  for (let i = 0; i < 2; i++) {
    began = performance.now();
    service = start();
    await waitFor(createSession(publishableKey), service);
    restarts.push(performance.now() - began);
    await stop(service);
  }
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log('restart to first 201 (bun run start, embedded database):');
  console.log(`  fresh data folder, spawn to /healthz 200: ${seconds(firstHealthy)}`);
  for (const [i, ms] of restarts.entries()) console.log(`  restart ${i + 1}, spawn to first 201 on /sessions/create: ${seconds(ms)}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
