/**
 * The service as an operator runs it: real processes, the embedded folder lock, the CLI while the
 * server runs (forwarded to the server), keys from the CLI working against the server, config
 * errors, and graceful shutdown. On PostgreSQL too when TEST_DATABASE_URL is set.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_DATABASE_URL, createThrowawayPostgres } from './testing/test-databases';

const root = join(import.meta.dir, '../..');
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}

function env(extra: Record<string, string>): Record<string, string> {
  const base = { ...process.env } as Record<string, string>;
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  return { ...base, LOG_LEVEL: 'warn', ...extra };
}

async function startServer(extra: Record<string, string>) {
  const port = freePort();
  const proc = Bun.spawn(['bun', 'backend/src/main.ts'], { cwd: root, env: env({ PORT: String(port), HOST: '127.0.0.1', ...extra }), stdout: 'pipe', stderr: 'pipe' });
  cleanup.push(() => {
    proc.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { proc, base };
    } catch {}
    if (proc.exitCode !== null) throw new Error(`server exited: ${await new Response(proc.stderr).text()}`);
    await Bun.sleep(50);
  }
  throw new Error('server did not start');
}

async function cli(extra: Record<string, string>, ...argv: string[]) {
  const proc = Bun.spawn(['bun', 'backend/src/cli/main.ts', ...argv], { cwd: root, env: env(extra), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function sliceWorks(base: string, keys: { publishableKey: string; secretKey: string }) {
  const created = await fetch(`${base}/api/v1/sessions/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.publishableKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ returnUrl: 'https://shop.example.com/return' }),
  });
  expect(created.status).toBe(201);
  const session = (await created.json()) as { sessionId: string; sessionToken: string };
  const simulated = await fetch(`${base}/api/v1/verify/simulate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: session.sessionId, sessionToken: session.sessionToken, outcome: 'verified' }),
  });
  expect(simulated.status).toBe(200);
  const validated = await fetch(`${base}/api/v1/sessions/validate`, {
    method: 'POST',
    headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: session.sessionId }),
  });
  expect(validated.status).toBe(200);
  expect(((await validated.json()) as { accessGranted: boolean }).accessGranted).toBe(true);
}

describe('embedded mode (PGlite in DATA_DIR)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'av-main-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));

  test('CLI on the folder, server start, second process refused, CLI through the server, graceful stop', async () => {
    const before = await cli({ DATA_DIR: dataDir }, 'tenant', 'create', '--name', 'Before', '--domain', 'shop.example.com', '--sandbox');
    expect(before.code).toBe(0);
    const beforeKeys = JSON.parse(before.stdout);
    expect(Object.keys(beforeKeys)).toEqual(expect.arrayContaining(['tenantId', 'pairId', 'publishableKey', 'secretKey']));

    const { proc, base } = await startServer({ DATA_DIR: dataDir });

    const second = Bun.spawn(['bun', 'backend/src/main.ts'], { cwd: root, env: env({ DATA_DIR: dataDir, PORT: String(freePort()) }), stderr: 'pipe' });
    expect(await second.exited).toBe(1);
    expect(await new Response(second.stderr).text()).toContain(`The embedded database in ${dataDir} is in use by process ${proc.pid}`);

    const during = await cli({ DATA_DIR: dataDir }, 'tenant', 'create', '--name', 'During', '--domain', 'shop.example.com', '--sandbox');
    expect(during.code).toBe(0);
    await sliceWorks(base, JSON.parse(during.stdout));
    await sliceWorks(base, beforeKeys);

    const refused = await cli({ DATA_DIR: dataDir }, 'keys', 'create', '--tenant', 'ten_missing');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no tenant with id "ten_missing"');

    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(existsSync(join(dataDir, 'ageverify.lock'))).toBe(false);

    // The data survived the restart.
    const restarted = await startServer({ DATA_DIR: dataDir });
    await sliceWorks(restarted.base, JSON.parse(during.stdout));
    restarted.proc.kill('SIGTERM');
    expect(await restarted.proc.exited).toBe(0);
  }, 120_000);

  test('a lock left by a killed process is taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'av-stale-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { proc } = await startServer({ DATA_DIR: dir });
    proc.kill('SIGKILL');
    await proc.exited;
    expect(existsSync(join(dir, 'ageverify.lock'))).toBe(true);
    const again = await startServer({ DATA_DIR: dir });
    again.proc.kill('SIGTERM');
    expect(await again.proc.exited).toBe(0);
  }, 120_000);
});

describe('configuration errors stop the boot with a fix-it message', () => {
  test.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must start with postgres://'],
  ])('%j', async (extra, message) => {
    const proc = Bun.spawn(['bun', 'backend/src/main.ts'], { cwd: root, env: env(extra), stderr: 'pipe' });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain(message);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL mode (DATABASE_URL)', () => {
  test('CLI and server share PostgreSQL; keys from the CLI work against the server', async () => {
    const database = await createThrowawayPostgres(TEST_DATABASE_URL!);
    cleanup.push(() => database.drop());
    const { proc, base } = await startServer({ DATABASE_URL: database.url });
    const created = await cli({ DATABASE_URL: database.url }, 'tenant', 'create', '--name', 'PG', '--domain', 'shop.example.com', '--sandbox');
    expect(created.code).toBe(0);
    await sliceWorks(base, JSON.parse(created.stdout));
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);
});
