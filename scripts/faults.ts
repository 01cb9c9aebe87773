/**
 * The fault suite (issue 15, item 5): the real server under bursts of creates while it is killed
 * and its database restarted or stopped. `bun run faults` (full, a few minutes: nightly) or
 * `bun run faults --short` (a minute or two).
 *
 * Scenarios:
 *   1. embedded PGlite: kill -9 of the server during bursts, restarted on the same DATA_DIR;
 *   2. PostgreSQL (a throwaway database on TEST_DATABASE_URL's server, or on the private cluster
 *      when that variable is unset): two instances on one database, one of them killed -9 each round;
 *   3. a private PostgreSQL cluster this script creates: restarts (fast, immediate) and a stop of
 *      30 s (8 s with --short) under load.
 * They run at the same time (2 after 3 when both use the private cluster), each printing its lines
 * when it ends.
 * Assertions: every 201 the client saw is in the database with the same fields; one key never made
 * two sessions; every acknowledged session's session.started reached the local HTTPS receiver at
 * least once; the server is alive after every database restart; during the stop every answer is 503
 * with Retry-After within STOP_ANSWER_BOUND_MS; service resumes within RECOVERY_BOUND_MS.
 * Prints its figures; exits 1 on any failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { startReceiver, type Receiver } from '../backend/src/modules/webhooks/testing/https-receiver';
import { removeTestCertificates } from '../backend/src/modules/webhooks/testing/test-certificates';
import { findPostgresBinDir, startPrivateCluster, type PrivateCluster } from '../backend/src/testing/private-postgres';
import { createThrowawayPostgres } from '../backend/src/testing/test-databases';
import { freePort } from '../backend/src/testing/free-port';

const root = join(import.meta.dir, '..');
const SHORT = process.argv.includes('--short');
const KILL_ROUNDS = SHORT ? 2 : 5;
const STOP_SECONDS = SHORT ? 8 : 30;
const WORKERS = 8;
/** Generous on purpose (two busy cores): the service's own bounds are 5 s connect, 10 s statements. */
const STOP_ANSWER_BOUND_MS = 12_000;
const RECOVERY_BOUND_MS = 15_000;
/**
 * A delivery interrupted by a kill is sent again once its lease (60 s) runs out, and a process
 * killed right after a restart may hold a whole claim batch: several minutes in the worst case.
 */
const DELIVERY_WAIT_MS = 240_000;
/** `--only embedded|postgres|outages` runs one scenario (for working on it). */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const SERVER_SECRET = 'fault-suite-server-secret-0123456789abcdef0123';

const failures: string[] = [];

/**
 * One scenario's lines, printed together when it ends: the scenarios run at the same time, so
 * their lines would otherwise interleave.
 */
class Report {
  readonly lines: string[] = [];
  say(line: string) {
    this.lines.push(line);
  }
  check(ok: boolean, message: string) {
    if (!ok) failures.push(message);
    this.say(`  ${ok ? 'ok  ' : 'FAIL'} ${message}`);
  }
}
const cleanup: (() => Promise<unknown> | unknown)[] = [];

function env(extra: Record<string, string>): Record<string, string> {
  const base = { ...process.env } as Record<string, string>;
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  return { ...base, LOG_LEVEL: 'error', ...extra };
}

interface Server {
  proc: ReturnType<typeof Bun.spawn>;
  base: string;
  /** The last 20,000 characters of stdout and stderr, interleaved as they came. */
  output(): string;
  /** How the process ended and the last 200 lines of its stderr: for a server found dead. */
  obituary(): string;
}

async function startServer(extra: Record<string, string>): Promise<Server> {
  const port = freePort();
  const proc = Bun.spawn(['bun', 'backend/src/main.ts'], {
    cwd: root,
    env: env({ PORT: String(port), HOST: '127.0.0.1', ...extra }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  cleanup.push(() => proc.kill('SIGKILL'));
  // Read the output as it comes: an unread pipe fills up and blocks the server.
  let output = '';
  let stderrLines: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>, isStderr: boolean) => {
    const decoder = new TextDecoder();
    let partial = '';
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      output = (output + text).slice(-20_000);
      if (!isStderr) continue;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      stderrLines = stderrLines.concat(lines).slice(-200);
    }
    if (isStderr && partial) stderrLines = stderrLines.concat(partial).slice(-200);
  };
  const readers = [collect(proc.stdout as ReadableStream<Uint8Array>, false), collect(proc.stderr as ReadableStream<Uint8Array>, true)];
  const obituary = () =>
    `exit code ${proc.exitCode}, signal ${proc.signalCode ?? 'none'}; the last ${stderrLines.length} lines of its stderr:\n${stderrLines.join('\n')}\nthe last of its stdout and stderr:\n${output.slice(-2000)}`;
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { proc, base, output: () => output, obituary };
    } catch {}
    if (proc.exitCode !== null) {
      await Promise.all(readers);
      throw new Error(`server exited: ${obituary()}`);
    }
    await Bun.sleep(50);
  }
  throw new Error('server did not start within 30 s');
}

/** Waits (bounded) for a dead server's pipes to drain, then says how it ended. */
async function describeDeath(server: Server): Promise<string> {
  await Promise.race([server.proc.exited, Bun.sleep(2_000)]);
  await Bun.sleep(200);
  return server.obituary();
}

async function cli(extra: Record<string, string>, ...argv: string[]): Promise<string> {
  const proc = Bun.spawn(['bun', 'backend/src/cli/main.ts', ...argv], { cwd: root, env: env(extra), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`cli ${argv.join(' ')}: ${stderr}`);
  return stdout;
}

/** A tenant with a high create limit and a webhook endpoint on the receiver. */
async function provision(serviceEnv: Record<string, string>, receiver: Receiver, path: string) {
  const keys = JSON.parse(await cli(serviceEnv, 'tenant', 'create', '--name', 'Faults', '--domain', 'shop.example.com', '--sandbox'));
  await cli(serviceEnv, 'rate-limit', 'set', '--tenant', keys.tenantId, '--create', '1000000');
  const added = JSON.parse(
    await cli(serviceEnv, 'webhooks', 'add', '--tenant', keys.tenantId, '--url', receiver.url(path, '127.0.0.1'), '--events', 'session.started'),
  );
  receiver.expectSecret(path, added.secret);
  return keys as { tenantId: string; publishableKey: string };
}

interface Acked {
  externalUserId: string;
  expiresAt: string;
  sandboxMode: boolean;
}

interface Attempt {
  startedAt: number;
  endedAt: number;
  outcome: string;
  retryAfter: string | null;
}

/**
 * Creates from WORKERS clients, each with its own Idempotency-Key; a failed create is retried
 * with the same key and body (as a merchant should), so a 201 for a key must always name the same
 * session.
 */
class Load {
  readonly acked = new Map<string, Acked>();
  readonly sessionOfKey = new Map<string, string>();
  readonly attempts: Attempt[] = [];
  readonly outcomes = new Map<string, number>();
  keyConflicts = 0;
  replays = 0;
  completed = 0;
  private stopping = false;
  private running: Promise<void>[] = [];
  private counter = 0;

  constructor(
    private readonly bases: () => string[],
    private readonly publishableKey: string,
    private readonly prefix: string,
  ) {}

  start() {
    this.stopping = false;
    this.running = Array.from({ length: WORKERS }, (_, worker) => this.worker(worker));
  }

  async stop() {
    this.stopping = true;
    await Promise.all(this.running);
  }

  /** Waits until `n` more requests completed (bounded: 15 s), so a fault lands on traffic. */
  async progress(n: number) {
    const target = this.completed + n;
    for (let i = 0; i < 600 && this.completed < target; i++) await Bun.sleep(25);
  }

  private async worker(worker: number) {
    let pending: { key: string; externalUserId: string; tries: number } | null = null;
    while (!this.stopping) {
      if (!pending) {
        const n = this.counter++;
        pending = { key: `${this.prefix}-${n}`, externalUserId: `${this.prefix}-user-${n}`, tries: 0 };
      }
      const bases = this.bases();
      const base = bases[(worker + pending.tries) % bases.length]!;
      const startedAt = performance.now();
      let outcome: string;
      let retryAfter: string | null = null;
      try {
        const response = await fetch(`${base}/api/v1/sessions/create`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.publishableKey}`, 'content-type': 'application/json', 'idempotency-key': pending.key },
          body: JSON.stringify({ returnUrl: 'https://shop.example.com/return', externalUserId: pending.externalUserId }),
          signal: AbortSignal.timeout(60_000),
        });
        outcome = String(response.status);
        retryAfter = response.headers.get('retry-after');
        const body = (await response.json().catch(() => null)) as { sessionId: string; externalUserId: string; expiresAt: string; sandboxMode: boolean } | null;
        if (response.status === 201 && body) {
          const earlier = this.sessionOfKey.get(pending.key);
          if (earlier && earlier !== body.sessionId) this.keyConflicts++;
          if (response.headers.get('idempotent-replayed') === 'true') this.replays++;
          this.sessionOfKey.set(pending.key, body.sessionId);
          this.acked.set(body.sessionId, { externalUserId: body.externalUserId, expiresAt: body.expiresAt, sandboxMode: body.sandboxMode });
        }
      } catch (error) {
        outcome = (error as Error).name;
      }
      this.attempts.push({ startedAt, endedAt: performance.now(), outcome, retryAfter });
      this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
      this.completed++;
      if (outcome === '201' || ++pending.tries >= 20) pending = null;
      else await Bun.sleep(100);
    }
  }
}

interface StoredSession {
  id: string;
  external_user_id: string | null;
  expires_at: Date | string;
  sandbox: boolean;
}

/** Every acknowledged session stored unchanged; no externalUserId (one per key) in two sessions. */
function checkSessions(report: Report, label: string, load: Load, rows: StoredSession[]) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  let lost = 0;
  let changed = 0;
  for (const [id, acked] of load.acked) {
    const row = byId.get(id);
    if (!row) {
      lost++;
      continue;
    }
    const expiresAt = new Date(row.expires_at).toISOString();
    if (row.external_user_id !== acked.externalUserId || expiresAt !== acked.expiresAt || row.sandbox !== acked.sandboxMode) changed++;
  }
  const perUser = new Map<string, number>();
  for (const row of rows) if (row.external_user_id) perUser.set(row.external_user_id, (perUser.get(row.external_user_id) ?? 0) + 1);
  const twice = [...perUser.values()].filter((n) => n > 1).length;
  report.say(
    `  ${label}: ${load.acked.size} sessions acknowledged, ${rows.length} stored, ${load.replays} idempotent replays, outcomes ${JSON.stringify(Object.fromEntries(load.outcomes))}`,
  );
  report.check(lost === 0, `${label}: no acknowledged session lost (${lost} lost)`);
  report.check(changed === 0, `${label}: no acknowledged session changed (${changed} changed)`);
  report.check(
    twice === 0 && load.keyConflicts === 0,
    `${label}: one Idempotency-Key, one session (${twice} keys made two, ${load.keyConflicts} differing 201s)`,
  );
}

/**
 * Waits for session.started of every acknowledged session; reports duplicates, which are only
 * allowed for events that existed when a fault happened (a delivery sent but not recorded as sent
 * is sent again: at least once). `faults`: wall-clock times of the kills and restarts.
 */
async function checkDeliveries(report: Report, label: string, load: Load, receiver: Receiver, path: string, faults: number[]) {
  const startedAt = performance.now();
  const delivered = () =>
    new Set(
      receiver
        .requests(path)
        .filter((r) => r.json?.event === 'session.started')
        .map((r) => r.json?.data?.sessionId as string),
    );
  let missing = [...load.acked.keys()].filter((id) => !delivered().has(id));
  while (missing.length > 0 && performance.now() - startedAt < DELIVERY_WAIT_MS) {
    await Bun.sleep(250);
    const got = delivered();
    missing = missing.filter((id) => !got.has(id));
    const waited = performance.now() - startedAt;
    if (missing.length > 0 && waited % 30_000 < 250)
      report.say(`  ${label}: ${missing.length} session.started still undelivered after ${Math.round(waited / 1000)} s`);
  }
  const requests = receiver.requests(path);
  const duplicated = requests.filter((r) => r.duplicate);
  const duplicates = duplicated.length;
  const lastFault = Math.max(0, ...faults);
  const notAroundFault = duplicated.filter((r) => Date.parse(String(r.json?.data?.timestamp)) > lastFault + 2_000).length;
  report.check(notAroundFault === 0, `${label}: duplicates only of events from before a fault (${notAroundFault} later)`);
  const invalid = requests.filter((r) => r.serviceSignatureValid === false).length;
  report.say(
    `  ${label}: ${requests.length} deliveries, ${receiver.eventIds(path).length} distinct events, ${duplicates} duplicates, all in ${Math.round(performance.now() - startedAt)} ms after the last fault`,
  );
  report.check(missing.length === 0, `${label}: every acknowledged session.started delivered at least once (${missing.length} missing)`);
  report.check(invalid === 0, `${label}: every delivery correctly signed (${invalid} not)`);
  return duplicates;
}

async function embeddedKillRounds(report: Report, receiver: Receiver) {
  report.say(`[1] embedded PGlite: ${KILL_ROUNDS} kill -9 rounds during bursts of creates`);
  const dataDir = mkdtempSync(join(tmpdir(), 'av-faults-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const serviceEnv = { DATA_DIR: dataDir, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_CA_FILE: receiver.caFile };
  const keys = await provision(serviceEnv, receiver, '/embedded');
  let server = await startServer(serviceEnv);
  const load = new Load(() => [server.base], keys.publishableKey, 'emb');
  const restarts: number[] = [];
  const faults: number[] = [];
  for (let round = 0; round < KILL_ROUNDS; round++) {
    load.start();
    await load.progress(40);
    faults.push(Date.now());
    server.proc.kill('SIGKILL');
    await server.proc.exited;
    await load.stop();
    const restartAt = performance.now();
    server = await startServer(serviceEnv);
    restarts.push(Math.round(performance.now() - restartAt));
  }
  // A last burst without faults, so the final state includes traffic after the last recovery.
  load.start();
  await load.progress(40);
  await load.stop();
  report.say(`  restart after kill -9 took ${restarts.join(', ')} ms`);
  const duplicates = await checkDeliveries(report, 'embedded', load, receiver, '/embedded', faults);
  server.proc.kill('SIGTERM');
  report.check((await server.proc.exited) === 0, 'embedded: SIGTERM exits 0');
  const db = await PGlite.create(join(dataDir, 'pgdata'));
  const { rows } = await db.query<StoredSession>('select id, external_user_id, expires_at, sandbox from sessions');
  await db.close();
  checkSessions(report, 'embedded', load, rows);
  return { rounds: KILL_ROUNDS, sessions: load.acked.size, events: receiver.eventIds('/embedded').length, duplicates };
}

async function postgresTwoInstancesKillRounds(report: Report, receiver: Receiver, adminUrl: string) {
  report.say(`[2] PostgreSQL, two instances on one database: ${KILL_ROUNDS} kill -9 rounds (one instance each)`);
  const database = await createThrowawayPostgres(adminUrl);
  cleanup.push(() => database.drop());
  const serviceEnv = { DATABASE_URL: database.url, SERVER_SECRET, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_CA_FILE: receiver.caFile };
  const keys = await provision(serviceEnv, receiver, '/postgres');
  const servers = [await startServer(serviceEnv), await startServer(serviceEnv)];
  const load = new Load(() => servers.filter((s) => s.proc.exitCode === null && !s.proc.killed).map((s) => s.base), keys.publishableKey, 'pg');
  load.start();
  const faults: number[] = [];
  for (let round = 0; round < KILL_ROUNDS; round++) {
    await load.progress(40);
    const victim = round % 2;
    faults.push(Date.now());
    servers[victim]!.proc.kill('SIGKILL');
    await servers[victim]!.proc.exited;
    servers[victim] = await startServer(serviceEnv);
  }
  await load.progress(40);
  await load.stop();
  const duplicates = await checkDeliveries(report, 'postgres', load, receiver, '/postgres', faults);
  for (const server of servers) server.proc.kill('SIGTERM');
  const codes = await Promise.all(servers.map((s) => s.proc.exited));
  report.check(
    codes.every((code) => code === 0),
    `postgres: SIGTERM exits 0 on both instances (${codes.join(', ')})`,
  );
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const rows = await sql<StoredSession[]>`select id, external_user_id, expires_at, sandbox from sessions`;
  await sql.end();
  checkSessions(report, 'postgres', load, rows);
  return { rounds: KILL_ROUNDS, sessions: load.acked.size, events: receiver.eventIds('/postgres').length, duplicates };
}

async function privateClusterOutages(report: Report, receiver: Receiver, cluster: PrivateCluster) {
  report.say(`[3] private PostgreSQL cluster: restart fast, restart immediate, stop ${STOP_SECONDS} s, under load`);
  const serviceEnv = { DATABASE_URL: cluster.url, SERVER_SECRET, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_CA_FILE: receiver.caFile };
  const keys = await provision(serviceEnv, receiver, '/outage');
  const server = await startServer(serviceEnv);
  const load = new Load(() => [server.base], keys.publishableKey, 'out');
  const alive = () => server.proc.exitCode === null;
  /** ms from `since` to the first 201 that started after it. */
  const recoveryAfter = async (since: number) => {
    for (let i = 0; i < 400; i++) {
      const first = load.attempts.find((a) => a.startedAt >= since && a.outcome === '201');
      if (first) return Math.round(first.endedAt - since);
      await Bun.sleep(50);
    }
    return Number.POSITIVE_INFINITY;
  };
  const recoveries: Record<string, number> = {};
  const faults: number[] = [];
  load.start();
  for (const mode of ['fast', 'immediate'] as const) {
    await load.progress(40);
    faults.push(Date.now());
    await cluster.restart(mode);
    const back = performance.now();
    report.check(alive(), `restart ${mode}: the server is alive`);
    if (!alive()) report.say(`  the server died: ${await describeDeath(server)}`);
    recoveries[`restart ${mode}`] = await recoveryAfter(back);
    report.check(
      recoveries[`restart ${mode}`]! <= RECOVERY_BOUND_MS,
      `restart ${mode}: serving again ${recoveries[`restart ${mode}`]} ms after PostgreSQL is back (bound ${RECOVERY_BOUND_MS})`,
    );
  }

  await load.progress(40);
  faults.push(Date.now());
  await cluster.stop();
  const stoppedAt = performance.now();
  // /readyz says 503 while the database is away; /healthz stays 200.
  await Bun.sleep(1_500);
  const ready = await fetch(`${server.base}/readyz`);
  const health = await fetch(`${server.base}/healthz`);
  report.check(ready.status === 503 && ready.headers.has('retry-after'), `stop: /readyz is 503 with Retry-After (${ready.status})`);
  const healthBody = (await health.json()) as { database?: { state?: string } };
  report.check(
    health.status === 200 && healthBody.database?.state === 'down',
    `stop: /healthz is 200 and says the database is down (${health.status}, ${healthBody.database?.state})`,
  );
  await Bun.sleep(STOP_SECONDS * 1000 - 1_500);
  // PostgreSQL accepts connections before `pg_ctl start -w` notices and returns: the outage ends
  // when the start is issued, so answers after that moment may rightly be 201s.
  const startIssued = performance.now();
  await cluster.start();
  const startedAgain = performance.now();
  report.check(alive(), 'stop: the server is alive after PostgreSQL starts again');
  if (!alive()) report.say(`  the server died: ${await describeDeath(server)}`);
  recoveries[`stop ${STOP_SECONDS} s`] = await recoveryAfter(startedAgain);
  await load.progress(40);
  await load.stop();

  // Requests that started at least 1 s into the stop and ended before PostgreSQL was started again.
  const during = load.attempts.filter((a) => a.startedAt >= stoppedAt + 1_000 && a.endedAt <= startIssued);
  const slowest = Math.max(0, ...during.map((a) => a.endedAt - a.startedAt));
  const not503 = during.filter((a) => a.outcome !== '503' || !a.retryAfter).length;
  report.say(
    `  during the stop: ${during.length} requests, slowest answer ${Math.round(slowest)} ms, outcomes ${JSON.stringify(countBy(during.map((a) => a.outcome)))}`,
  );
  report.check(during.length > 0 && not503 === 0, `stop: every answer is 503 with Retry-After (${not503} were not)`);
  report.check(slowest <= STOP_ANSWER_BOUND_MS, `stop: every answer within ${STOP_ANSWER_BOUND_MS} ms (slowest ${Math.round(slowest)} ms)`);
  report.check(
    recoveries[`stop ${STOP_SECONDS} s`]! <= RECOVERY_BOUND_MS,
    `stop: serving again ${recoveries[`stop ${STOP_SECONDS} s`]} ms after PostgreSQL is back (bound ${RECOVERY_BOUND_MS})`,
  );
  const afterRecovery = load.attempts.filter((a) => a.startedAt >= startedAgain + RECOVERY_BOUND_MS && a.outcome !== '201').length;
  report.check(afterRecovery === 0, `stop: no failures once recovered (${afterRecovery})`);

  const duplicates = await checkDeliveries(report, 'outages', load, receiver, '/outage', faults);
  const shutdownAt = performance.now();
  server.proc.kill('SIGTERM');
  report.check((await server.proc.exited) === 0, 'outages: SIGTERM exits 0');
  const shutdownMs = Math.round(performance.now() - shutdownAt);
  const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
  const rows = await sql<StoredSession[]>`select id, external_user_id, expires_at, sandbox from sessions`;
  await sql.end();
  checkSessions(report, 'outages', load, rows);
  report.say(
    `  recovery: ${JSON.stringify(recoveries)}; SIGTERM took ${shutdownMs} ms; the server's last output: ${JSON.stringify(server.output().slice(-300))}`,
  );
  return { sessions: load.acked.size, events: receiver.eventIds('/outage').length, duplicates, recoveries };
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

async function main() {
  const startedAt = performance.now();
  const receiver = await startReceiver();
  cleanup.push(removeTestCertificates, () => receiver.stop());
  const runs = (name: string) => ONLY === null || ONLY === name;
  const binDir = findPostgresBinDir();
  const adminUrl = process.env.TEST_DATABASE_URL?.trim() || null;
  const needsCluster = binDir !== null && (runs('outages') || (runs('postgres') && !adminUrl));
  const cluster = needsCluster ? await startPrivateCluster(binDir) : null;
  if (cluster) cleanup.push(() => cluster.destroy());
  const summary: Record<string, unknown> = {};
  const scenarios: Promise<void>[] = [];
  /**
   * The scenarios run at the same time: each spends most of its minute waiting for leases to run
   * out, and none shares a database, a server or a receiver path with another (decision 0085).
   * Each prints its lines when it ends. `after`: a scenario this one must wait for.
   */
  const scenario = (name: string, play: (report: Report) => Promise<unknown>, after: Promise<void> = Promise.resolve()) => {
    const report = new Report();
    const played = after
      .then(() => play(report))
      .then((figures) => {
        summary[name] = figures;
      })
      .catch((error) => report.check(false, `${name}: ${(error as Error)?.stack ?? String(error)}`))
      .finally(() => console.log(`\n${report.lines.join('\n')}`));
    scenarios.push(played);
    return played;
  };
  if (runs('embedded')) scenario('embedded', (report) => embeddedKillRounds(report, receiver));
  let onCluster: Promise<void> | undefined;
  if (runs('postgres')) {
    const url = adminUrl ?? cluster?.url;
    if (url) {
      const played = scenario('postgres', (report) => postgresTwoInstancesKillRounds(report, receiver, url));
      // Without TEST_DATABASE_URL it runs on the private cluster, which the outages restart.
      if (!adminUrl) onCluster = played;
    } else console.log('\n[2] skipped: no TEST_DATABASE_URL and no PostgreSQL binaries');
  }
  if (runs('outages')) {
    if (cluster) scenario('outages', (report) => privateClusterOutages(report, receiver, cluster), onCluster);
    else console.log('\n[3] skipped: no initdb/pg_ctl (PG_BIN_DIR names their folder)');
  }
  await Promise.all(scenarios);
  console.log(`\nfault suite (${SHORT ? 'short' : 'full'}) in ${Math.round((performance.now() - startedAt) / 1000)} s: ${JSON.stringify(summary)}`);
  console.log(failures.length === 0 ? 'all fault checks passed' : `${failures.length} fault checks FAILED:\n  ${failures.join('\n  ')}`);
}

let code = 0;
try {
  await main();
  code = failures.length === 0 ? 0 : 1;
} catch (error) {
  console.error(`fault suite error: ${(error as Error)?.stack ?? String(error)}`);
  code = 1;
} finally {
  for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => {});
}
process.exit(code);
