/**
 * The service as an operator runs it: real processes, the embedded folder lock, the CLI while the
 * server runs (forwarded to the server), keys from the CLI working against the server, config
 * errors, and graceful shutdown. On PostgreSQL too when TEST_DATABASE_URL is set.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TEST_DATABASE_URL, createThrowawayPostgres } from './testing/test-databases';
import { readLock } from './db/data-dir-lock';
import { findPostgresBinDir, startPrivateCluster } from './testing/private-postgres';
import { startReceiver } from './modules/webhooks/testing/https-receiver';
import { verifyWebhookSignature } from '../../server-sdk/src/webhook-signature';
import { freePort } from './testing/free-port';

const root = join(import.meta.dir, '../..');
const cleanup: (() => Promise<void> | void)[] = [];
// Removing PGlite folders, dropping databases and stopping the private cluster add up to more
// than the default 5 s on a busy machine.
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
}, 60_000);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => join(entry.parentPath, entry.name));
}

function env(extra: Record<string, string>): Record<string, string> {
  const base = { ...process.env } as Record<string, string>;
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  return { ...base, LOG_LEVEL: 'warn', ...extra };
}

/** `wrapper`: a command the server runs under, e.g. unshare to make it PID 1 of a new pid namespace. */
async function startServer(extra: Record<string, string>, wrapper: string[] = []) {
  const port = freePort();
  const proc = Bun.spawn([...wrapper, 'bun', 'backend/src/main.ts'], {
    cwd: root,
    env: env({ PORT: String(port), HOST: '127.0.0.1', ...extra }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  cleanup.push(() => {
    proc.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  // A fresh embedded database runs every migration at boot: seconds on a busy machine, so the wait
  // is generous (60 s) rather than a guess at the speed of the machine.
  for (let i = 0; i < 1200; i++) {
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

  test('DATA_DIR is owner-only: created 0700, every file in it without group or other access, the secret in a 0600 file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'av-perm-')), 'data');
    cleanup.push(() => rmSync(dirname(dir), { recursive: true, force: true }));
    const { proc, base } = await startServer({ DATA_DIR: dir });
    const keys = JSON.parse((await cli({ DATA_DIR: dir }, 'tenant', 'create', '--name', 'Perm', '--domain', 'shop.example.com', '--sandbox')).stdout);
    await sliceWorks(base, keys);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const open = filesUnder(dir).filter((path) => (statSync(path).mode & 0o077) !== 0);
    expect(open).toEqual([]);
    expect(statSync(join(dir, 'server-secret')).mode & 0o777).toBe(0o600);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  test('an existing DATA_DIR that other users can reach is refused with the command that fixes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'av-open-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    chmodSync(dir, 0o755);
    const proc = Bun.spawn(['bun', 'backend/src/main.ts'], { cwd: root, env: env({ DATA_DIR: dir, PORT: String(freePort()) }), stderr: 'pipe' });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain(
      `DATA_DIR ${dir} is accessible to other users (mode 755); it holds secrets and the database. Restrict it to the service's user with: chmod -R go-rwx ${dir}`,
    );
    // Nothing was created in it.
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

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

/** PostgreSQL mode needs SERVER_SECRET: the generated one is never kept in the database (issue 8). */
const PG_SERVER_SECRET = 'pg-test-server-secret-0123456789abcdef0123456789';

// unshare may be installed yet refused (no CAP_SYS_ADMIN, e.g. an unprivileged container): try it.
const unshare = Bun.which('unshare');
const pidNamespaces = !!unshare && Bun.spawnSync([unshare, '--pid', '--fork', '--mount-proc', 'true'], { stderr: 'ignore' }).exitCode === 0;
if (!pidNamespaces) {
  console.warn(
    'main.test.ts: skipping "the server as PID 1": unshare --pid --fork --mount-proc is not available here (needs util-linux and root or CAP_SYS_ADMIN).',
  );
}

describe.skipIf(!pidNamespaces)('the server as PID 1 of its pid namespace, as in a container', () => {
  // --kill-child: if the test ends early, killing unshare kills the server too.
  const asPid1 = [unshare!, '--pid', '--fork', '--mount-proc', '--kill-child'];
  /** The server's pid as seen from here: unshare's only child. */
  const serverPid = (unsharePid: number) => Number(readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, 'utf8').trim());

  test('killed with SIGKILL, it starts again as PID 1 on the same DATA_DIR (the lock it left names pid 1)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'av-pid1-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startServer({ DATA_DIR: dataDir }, asPid1);
    expect(readLock(dataDir)?.pid).toBe(1);
    process.kill(serverPid(first.proc.pid), 'SIGKILL');
    await first.proc.exited;
    expect(readLock(dataDir)?.pid).toBe(1);

    const second = await startServer({ DATA_DIR: dataDir }, asPid1);
    expect((await fetch(`${second.base}/healthz`)).status).toBe(200);
    expect(readLock(dataDir)?.pid).toBe(1);
    // SIGTERM to the server itself: unshare does not pass signals on. It exits with the server's status.
    process.kill(serverPid(second.proc.pid), 'SIGTERM');
    expect(await second.proc.exited).toBe(0);
    expect(existsSync(join(dataDir, 'ageverify.lock'))).toBe(false);
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

describe('the CLI says which database it uses and warns when the server uses another', () => {
  test("server on DATA_DIR=X, CLI on DATA_DIR=Y with the server's PORT: warned; on X: not warned", async () => {
    const serverDir = mkdtempSync(join(tmpdir(), 'av-server-db-'));
    const otherDir = join(mkdtempSync(join(tmpdir(), 'av-cli-db-')), 'data');
    cleanup.push(
      () => rmSync(serverDir, { recursive: true, force: true }),
      () => rmSync(dirname(otherDir), { recursive: true, force: true }),
    );
    const { proc, base } = await startServer({ DATA_DIR: serverDir });
    const port = new URL(base).port;
    const health = (await (await fetch(`${base}/healthz`)).json()) as { status: string; database: { kind: string; id: string } };
    expect(health.status).toBe('ok');
    expect(health.database.kind).toBe('pglite');
    expect(health.database.id).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(health)).not.toContain(serverDir);

    const elsewhere = await cli({ DATA_DIR: otherDir, PORT: port }, 'tenant', 'create', '--name', 'Lost', '--domain', 'shop.example.com', '--sandbox');
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stderr).toContain(`using embedded database in ${otherDir}`);
    expect(elsewhere.stderr).toContain(`warning: the server on port ${port} uses another embedded database folder (id ${health.database.id})`);
    // The keys it printed belong to the other folder: the server rejects them, as the warning said.
    const rejected = await fetch(`${base}/api/v1/sessions/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${JSON.parse(elsewhere.stdout).publishableKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ returnUrl: 'https://shop.example.com/return' }),
    });
    expect(rejected.status).toBe(401);

    const same = await cli({ DATA_DIR: serverDir, PORT: port }, 'tenant', 'create', '--name', 'Found', '--domain', 'shop.example.com', '--sandbox');
    expect(same.code).toBe(0);
    expect(same.stderr).toContain(`using embedded database in ${serverDir}`);
    expect(same.stderr).not.toContain('warning');
    await sliceWorks(base, JSON.parse(same.stdout));
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  test.skipIf(!TEST_DATABASE_URL)(
    'server on PostgreSQL, CLI on an embedded folder: warned; CLI on the same PostgreSQL: not warned, password never printed',
    async () => {
      const database = await createThrowawayPostgres(TEST_DATABASE_URL!);
      cleanup.push(() => database.drop());
      const otherDir = join(mkdtempSync(join(tmpdir(), 'av-cli-db-')), 'data');
      cleanup.push(() => rmSync(dirname(otherDir), { recursive: true, force: true }));
      const { proc, base } = await startServer({ DATABASE_URL: database.url, SERVER_SECRET: PG_SERVER_SECRET });
      const port = new URL(base).port;
      const elsewhere = await cli({ DATA_DIR: otherDir, PORT: port }, 'keys', 'list', '--tenant', 'ten_missing');
      expect(elsewhere.stderr).toContain(`warning: the server on port ${port} uses a PostgreSQL database`);

      const url = new URL(database.url);
      url.password = 'not-printed-secret';
      const same = await cli({ DATABASE_URL: url.toString(), PORT: port }, 'tenant', 'create', '--name', 'PG', '--domain', 'shop.example.com', '--sandbox');
      expect(same.code).toBe(0);
      expect(same.stderr).toContain(`using PostgreSQL at ${url.hostname}:${url.port || '5432'}${url.pathname}`);
      expect(same.stderr).not.toContain('not-printed-secret');
      expect(same.stderr).not.toContain('warning');
      proc.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
    },
    120_000,
  );
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL mode (DATABASE_URL)', () => {
  test('CLI and server share PostgreSQL; keys from the CLI work against the server', async () => {
    const database = await createThrowawayPostgres(TEST_DATABASE_URL!);
    cleanup.push(() => database.drop());
    const { proc, base } = await startServer({ DATABASE_URL: database.url, SERVER_SECRET: PG_SERVER_SECRET });
    const created = await cli({ DATABASE_URL: database.url }, 'tenant', 'create', '--name', 'PG', '--domain', 'shop.example.com', '--sandbox');
    expect(created.code).toBe(0);
    await sliceWorks(base, JSON.parse(created.stdout));
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL mode without SERVER_SECRET', () => {
  test('is refused: a generated secret would have to live in the database', async () => {
    const database = await createThrowawayPostgres(TEST_DATABASE_URL!);
    cleanup.push(() => database.drop());
    const proc = Bun.spawn(['bun', 'backend/src/main.ts'], { cwd: root, env: env({ DATABASE_URL: database.url, PORT: String(freePort()) }), stderr: 'pipe' });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain('SERVER_SECRET is required with DATABASE_URL');
  }, 60_000);
});

describe.skipIf(!TEST_DATABASE_URL)('two backend instances on one PostgreSQL', () => {
  test('they share the rate-limit bucket exactly, and a session validated on one cannot be validated on the other', async () => {
    const database = await createThrowawayPostgres(TEST_DATABASE_URL!);
    cleanup.push(() => database.drop());
    const shared = { DATABASE_URL: database.url, SERVER_SECRET: PG_SERVER_SECRET };
    const [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
    const provision = async () => JSON.parse((await cli(shared, 'tenant', 'create', '--name', 'Two', '--domain', 'shop.example.com', '--sandbox')).stdout);

    const limited = await provision();
    expect((await cli(shared, 'rate-limit', 'set', '--tenant', limited.tenantId, '--validate', '10')).code).toBe(0);
    // Fixed windows are aligned to the minute: start early in one so all requests share it.
    while (new Date().getSeconds() > 45) await Bun.sleep(250);
    const validateOn = (base: string, keys: { secretKey: string }, sessionId: string) =>
      fetch(`${base}/api/v1/sessions/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId }),
      });
    const statuses = await Promise.all(Array.from({ length: 14 }, (_, i) => validateOn(i % 2 ? a.base : b.base, limited, 'ses_missing').then((r) => r.status)));
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);

    const keys = await provision();
    const created = (await (
      await fetch(`${a.base}/api/v1/sessions/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.publishableKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ returnUrl: 'https://shop.example.com/return' }),
      })
    ).json()) as { sessionId: string; sessionToken: string };
    // The session token minted by A is accepted by B: both are given the same SERVER_SECRET.
    const simulated = await fetch(`${b.base}/api/v1/verify/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: created.sessionId, sessionToken: created.sessionToken, outcome: 'verified' }),
    });
    expect(simulated.status).toBe(200);
    const race = await Promise.all(Array.from({ length: 10 }, (_, i) => validateOn(i % 2 ? a.base : b.base, keys, created.sessionId).then((r) => r.status)));
    expect(race.filter((s) => s === 200)).toHaveLength(1);
    expect(race.filter((s) => s === 409)).toHaveLength(9);
    expect((await validateOn(a.base, keys, created.sessionId)).status).toBe(409);
    expect((await validateOn(b.base, keys, created.sessionId)).status).toBe(409);
    a.proc.kill('SIGTERM');
    b.proc.kill('SIGTERM');
    expect(await a.proc.exited).toBe(0);
    expect(await b.proc.exited).toBe(0);
  }, 120_000);
});

const postgresBinDir = findPostgresBinDir();
if (!postgresBinDir) {
  console.warn('main.test.ts: skipping "PostgreSQL goes away under load": no initdb and pg_ctl on this machine (PG_BIN_DIR names their folder).');
}

describe.skipIf(!postgresBinDir)('PostgreSQL goes away under load (a private cluster the test restarts)', () => {
  // Regression: postgres.js 3.4.9 wrote to the closed socket from a timer and the uncaught
  // TypeError killed the server (patches/postgres@3.4.9.patch, porsager/postgres#1208).
  test('terminated backends and crash restarts fail requests, not the process, and it serves again after', async () => {
    const cluster = await startPrivateCluster(postgresBinDir!);
    cleanup.push(() => cluster.destroy());
    const shared = { DATABASE_URL: cluster.url, SERVER_SECRET: PG_SERVER_SECRET };
    const { proc, base } = await startServer(shared);
    // Read the server's output as it comes: an unread pipe fills up during the outage's error
    // logging, and the tail is the failure message if the server dies.
    let output = '';
    const collect = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) output = (output + decoder.decode(chunk, { stream: true })).slice(-20_000);
    };
    void collect(proc.stdout);
    void collect(proc.stderr);
    const keys = JSON.parse((await cli(shared, 'tenant', 'create', '--name', 'Outage', '--domain', 'shop.example.com', '--sandbox')).stdout);
    // Enough creates for the whole test in one rate-limit window.
    expect((await cli(shared, 'rate-limit', 'set', '--tenant', keys.tenantId, '--create', '1000000')).code).toBe(0);

    // Each create runs a transaction: a terminated backend then fails a query mid-transaction and
    // postgres.js sends its ROLLBACK on the dead connection, the write that used to crash.
    const createSession = () =>
      fetch(`${base}/api/v1/sessions/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.publishableKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ returnUrl: 'https://shop.example.com/return' }),
        signal: AbortSignal.timeout(30_000),
      });
    let stopLoad = false;
    let completed = 0;
    const outcomes = new Map<string, number>();
    const loadWorker = async () => {
      while (!stopLoad && proc.exitCode === null) {
        let outcome: string;
        try {
          const response = await createSession();
          await response.arrayBuffer();
          outcome = String(response.status);
        } catch (error) {
          outcome = (error as Error).name;
        }
        completed++;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    const load = Array.from({ length: 12 }, loadWorker);
    // Each disruption waits for the load to make progress since the previous one, so it lands on
    // requests in flight whatever the machine's speed (bounded: at most 10 s per wait).
    const afterProgress = async () => {
      const target = completed + 30;
      for (let i = 0; i < 400 && completed < target && proc.exitCode === null; i++) await Bun.sleep(25);
    };
    const terminate = () => cluster.terminateClients();
    const disruptions = [
      terminate,
      terminate,
      terminate,
      terminate,
      terminate,
      terminate,
      () => cluster.restart('immediate'),
      terminate,
      terminate,
      () => cluster.restart('immediate'),
    ];
    for (const disrupt of disruptions) {
      if (proc.exitCode !== null) break;
      await afterProgress();
      await disrupt();
    }
    await afterProgress();
    stopLoad = true;
    await Promise.all(load);
    if (proc.exitCode !== null) {
      throw new Error(
        `the server died (exit ${proc.exitCode}) while PostgreSQL was disrupted; outcomes ${JSON.stringify([...outcomes])}; its output ends:\n${output.slice(-3000)}`,
      );
    }
    expect(output).not.toContain("evaluating 'socket.write'");

    // Serves again: the pool reconnects by itself (bounded wait for the first success, then the whole slice).
    let status = 0;
    for (let i = 0; i < 60 && status !== 201; i++) {
      status = (await createSession()).status;
      if (status !== 201) await Bun.sleep(250);
    }
    expect(status).toBe(201);
    await sliceWorks(base, keys);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 90_000);
});

describe('the running service delivers webhooks', () => {
  test('an endpoint added with the CLI receives session.started and verification.completed, signed over the raw body', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.stop());
    const dataDir = mkdtempSync(join(tmpdir(), 'av-hooks-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The operator allowlist and CA file are what let a test (or a private deployment) use loopback.
    const serviceEnv = { DATA_DIR: dataDir, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_CA_FILE: receiver.caFile };
    const { proc, base } = await startServer(serviceEnv);
    const keys = JSON.parse((await cli(serviceEnv, 'tenant', 'create', '--name', 'Hooks', '--domain', 'shop.example.com', '--sandbox')).stdout);
    const added = await cli(
      serviceEnv,
      'webhooks',
      'add',
      '--tenant',
      keys.tenantId,
      '--url',
      receiver.url('/hooks', '127.0.0.1'),
      '--events',
      'session.started,verification.completed',
    );
    expect(added.code).toBe(0);
    const { secret } = JSON.parse(added.stdout);
    receiver.expectSecret('/hooks', secret);

    // Without the allowlist the same destination is refused.
    const plainDir = mkdtempSync(join(tmpdir(), 'av-hooks-plain-'));
    cleanup.push(() => rmSync(plainDir, { recursive: true, force: true }));
    const plain = JSON.parse((await cli({ DATA_DIR: plainDir }, 'tenant', 'create', '--name', 'Plain', '--domain', 'shop.example.com')).stdout);
    const refused = await cli(
      { DATA_DIR: plainDir },
      'webhooks',
      'add',
      '--tenant',
      plain.tenantId,
      '--url',
      receiver.url('/hooks', '127.0.0.1'),
      '--events',
      'session.started',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('destinations must be public Internet addresses only');

    await sliceWorks(base, keys);
    for (let i = 0; i < 200 && receiver.requests('/hooks').length < 2; i++) await Bun.sleep(50);
    const received = receiver.requests('/hooks');
    expect(received.map((r) => r.json?.event).sort()).toEqual(['session.started', 'verification.completed']);
    for (const request of received) {
      expect(verifyWebhookSignature(request.rawBody, request.headers.get('x-service-signature'), secret)).toBe(true);
      expect(request.standardSignatureValid).toBe(true);
      expect(request.json).toMatchObject({ tenantId: keys.tenantId, test: true });
    }
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 60_000);
});

describe('first run (issue 12)', () => {
  test('a server with no tenant logs a setup link once; its token creates the first tenant and owner, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'first-run-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const { proc, base } = await startServer({ DATA_DIR: dir });
    let output = '';
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of proc.stdout) output += decoder.decode(chunk, { stream: true });
    })();
    let link: string | null = null;
    for (let i = 0; i < 600 && !link; i++) {
      link = /"setupUrl":"([^"]+)"/.exec(output)?.[1] ?? null;
      if (!link) await Bun.sleep(50);
    }
    expect(link).toMatch(/^http:\/\/localhost:\d+\/dashboard\/setup#token=[0-9A-Za-z]{32}$/);
    const token = link!.split('#token=')[1]!;
    const origin = new URL(link!).origin;
    const setup = (body: Record<string, string>) =>
      fetch(`${base}/dashboard/api/setup`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await fetch(`${base}/`, { redirect: 'manual' })).headers.get('location')).toBe('/dashboard/');
    const created = await setup({ token, tenantName: 'First', email: 'first@example.com', password: 'correct horse battery' });
    expect(created.status).toBe(201);
    expect(created.headers.get('set-cookie')).toContain('HttpOnly');
    expect((await setup({ token, tenantName: 'Again', email: 'again@example.com', password: 'correct horse battery' })).status).toBe(409);
    expect(output.match(/setupUrl/g)).toHaveLength(1);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  test('the test clock variable without NODE_ENV=test stops the boot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clock-refused-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const proc = Bun.spawn(['bun', 'backend/src/main.ts'], {
      cwd: root,
      env: env({ DATA_DIR: dir, PORT: String(freePort()), NODE_ENV: 'production', AGEVERIFY_TEST_CLOCK_OFFSET_FILE: join(dir, 'offset') }),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain('AGEVERIFY_TEST_CLOCK_OFFSET_FILE is a test-only setting and needs NODE_ENV=test');
  }, 60_000);
});
