/**
 * Sessions API benchmark (issue 14): create and validate next to a baseline route on the same
 * stack and database (bench/support/baseline-server.ts: validate a JSON body, one INSERT), on
 * PostgreSQL and PGlite, at 16 and 64 connections; create again with 100k and 1M sessions of the
 * tenant already in the month; server RSS idle and under load. Figures only, nothing asserted.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bun bench/api-throughput.ts [--seconds 8] [--skip-pglite] [--skip-history] [--skip-webhooks]
 *
 * "create c=16 with deliveries running" subscribes one endpoint (a local HTTPS receiver, in this
 * process) to session.started, so every create is also a webhook delivery by the service's own
 * worker, and compares with the plain create of the same run (issue 14: at most 20 % slower).
 *
 * The servers run as child processes (the real backend/src/main.ts), the load comes from
 * autocannon in this process; all share the machine's cores with PostgreSQL, so compare the
 * ratios of one run rather than absolute figures across machines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { systemClock } from '../backend/src/clock';
import { openPglite, openPostgres, type Database } from '../backend/src/db/database';
import { systemAudit } from '../backend/src/modules/audit';
import { createTenant, setRateLimits } from '../backend/src/modules/tenants/service';
import { addEndpoint } from '../backend/src/modules/webhooks';
import { startReceiver } from '../backend/src/modules/webhooks/testing/https-receiver';
import { removeTestCertificates } from '../backend/src/modules/webhooks/testing/test-certificates';
import { LOOPBACK_ONLY } from '../backend/src/modules/webhooks/testing/testbed';
import { createThrowawayPostgres } from '../backend/src/testing/test-databases';
import { cpuMs, fmt, load, rssMb, startServer, type LoadResult } from './support/load';

const argValue = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SECONDS = argValue('seconds', 8);
const WARMUP_SECONDS = 2;
const CONNECTIONS = [16, 64];
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test');
  process.exit(2);
}
const SERVER_SECRET = 'bench-server-secret-0123456789abcdef0123456789';
const SERVICE_PORT = 3901;
const BASELINE_PORT = 3902;
const RETURN_URL = 'https://bench.example.com/done';

interface Fixture {
  tenantId: string;
  publishableKey: string;
  secretKey: string;
}

/** A tenant whose limits never interfere: the bench measures the path, not the rate limiter's 429. */
async function provision(database: Database): Promise<Fixture> {
  const tenant = await createTenant(database.db, systemClock, { name: 'Bench', domains: ['bench.example.com'], sandbox: false });
  await setRateLimits(database.db, tenant.tenantId, { create: 1_000_000, validate: 1_000_000 }, systemAudit(systemClock.now()));
  return { tenantId: tenant.tenantId, publishableKey: tenant.publishableKey, secretKey: tenant.secretKey };
}

const createBody = JSON.stringify({ returnUrl: RETURN_URL });
const createRun = (fixture: Fixture, connections: number, seconds = SECONDS) =>
  load({
    url: `http://127.0.0.1:${SERVICE_PORT}/api/v1/sessions/create`,
    connections,
    seconds,
    body: createBody,
    headers: { authorization: `Bearer ${fixture.publishableKey}` },
  });
const baselineRun = (connections: number, seconds = SECONDS) =>
  load({ url: `http://127.0.0.1:${BASELINE_PORT}/baseline`, connections, seconds, body: createBody });

async function validateRun(fixture: Fixture, connections: number, seconds = SECONDS): Promise<LoadResult> {
  // A PENDING session answers 200 "pending" and is not consumed, so one session serves every request.
  const created = await fetch(`http://127.0.0.1:${SERVICE_PORT}/api/v1/sessions/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.publishableKey}` },
    body: createBody,
  });
  const { sessionId } = (await created.json()) as { sessionId: string };
  return load({
    url: `http://127.0.0.1:${SERVICE_PORT}/api/v1/sessions/validate`,
    connections,
    seconds,
    body: JSON.stringify({ sessionId }),
    headers: { authorization: `Bearer ${fixture.secretKey}` },
  });
}

const rows: string[][] = [];
const row = (label: string, result: LoadResult, baseline?: LoadResult, reference?: LoadResult) =>
  rows.push([
    label,
    fmt(result.rps),
    baseline ? fmt(result.rps / baseline.rps, 2) : reference ? `${fmt(result.rps / reference.rps, 2)} of plain create` : '',
    `${fmt(result.p50)} / ${fmt(result.p99)}`,
    result.non2xx + result.errors > 0 ? `${result.non2xx} non-2xx, ${result.errors} errors` : '',
  ]);

/** Baseline, create and validate at each connection count. Returns the create results by connections. */
async function compare(kind: 'postgres' | 'pglite', fixture: Fixture, servicePid: number): Promise<Map<number, LoadResult>> {
  const creates = new Map<number, LoadResult>();
  const rss: string[] = [`idle ${await rssMb(servicePid)} MB`];
  for (const connections of CONNECTIONS) {
    await baselineRun(connections, WARMUP_SECONDS);
    const baseline = await baselineRun(connections);
    await createRun(fixture, connections, WARMUP_SECONDS);
    const create = await createRun(fixture, connections);
    creates.set(connections, create);
    rss.push(`after create c=${connections} ${await rssMb(servicePid)} MB`);
    const validate = await validateRun(fixture, connections);
    row(`${kind} baseline c=${connections}`, baseline);
    row(`${kind} create   c=${connections}`, create, baseline);
    row(`${kind} validate c=${connections}`, validate, baseline);
  }
  rows.push([`${kind} service RSS`, rss.join(', '), '', '', '']);
  return creates;
}

/**
 * Sessions of the tenant this month, inserted in one statement (they are EXPIRED, so the sweeper
 * leaves them alone), with the allowance counter brought to the same number as creates would.
 */
async function seedHistory(database: Database, fixture: Fixture, total: number): Promise<void> {
  const [pair] = (await database.db.execute(sql`select id from key_pairs where tenant_id = ${fixture.tenantId} and not sandbox limit 1`)) as unknown as {
    id: string;
  }[];
  await database.db.execute(sql`
    insert into sessions (id, tenant_id, pair_id, sandbox, state, return_url, verification_mode, challenge_age, face_match_enabled,
                          session_token_hash, handoff_token_hash, created_with, created_at, expires_at)
    select 'ses_hist_' || g, ${fixture.tenantId}, ${pair!.id}, false, 'EXPIRED', ${RETURN_URL}, 'L1', 25, true,
           md5(g::text), md5('h' || g), 'publishable', now() - (g % 3600) * interval '1 second', now()
    from generate_series((select count(*) from sessions where id like 'ses_hist_%') + 1, ${total}) g`);
  await database.db.execute(sql`update billing_usage set used = used + ${total} where tenant_id = ${fixture.tenantId}`);
  await database.db.execute(sql`analyze sessions`);
}

const started = performance.now();
const throwaway = await createThrowawayPostgres(adminUrl);
const baselineDb = await createThrowawayPostgres(adminUrl);
const tempDirs: string[] = [];
try {
  // PostgreSQL
  const database = await openPostgres(throwaway.url, { max: 2 });
  const fixture = await provision(database);
  const receiver = await startReceiver();
  // The local receiver is allowed as a destination (it is not a public address) and its CA trusted.
  const env = {
    DATABASE_URL: throwaway.url,
    SERVER_SECRET,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    WEBHOOK_CA_FILE: receiver.caFile,
  };
  const service = await startServer('backend/src/main.ts', env, SERVICE_PORT);
  const baseline = await startServer('bench/support/baseline-server.ts', { DATABASE_URL: baselineDb.url }, BASELINE_PORT);
  try {
    await compare('postgres', fixture, service.pid);
    if (!process.argv.includes('--skip-webhooks')) {
      const addEndpointNow = async (url = receiver.url('/bench', '127.0.0.1')) => {
        const added = await addEndpoint(
          database.db,
          systemClock,
          { allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile },
          { tenantId: fixture.tenantId, url, events: ['session.started'], enabled: true },
          systemAudit(systemClock.now()),
        );
        receiver.expectSecret('/bench', added.secret);
      };
      // Service CPU per create, without and then with the endpoint: where a slower create's time goes.
      const cpuPlainStart = await cpuMs(service.pid);
      const plainAgain = await createRun(fixture, 16);
      const cpuPlain = (await cpuMs(service.pid)) - cpuPlainStart;
      await addEndpointNow();
      await createRun(fixture, 16, WARMUP_SECONDS);
      const before = receiver.requests('/bench').length;
      const cpuStart = await cpuMs(service.pid);
      const withDeliveries = await createRun(fixture, 16);
      const cpu = (await cpuMs(service.pid)) - cpuStart;
      const delivered = receiver.requests('/bench').length - before;
      row('postgres create c=16 again, no endpoint', plainAgain);
      row('postgres create c=16 with deliveries running', withDeliveries, undefined, plainAgain);
      rows.push([
        `  deliveries received during that run`,
        `${fmt(delivered / SECONDS)}/s; service CPU ${fmt(cpuPlain / (plainAgain.rps * SECONDS), 2)} ms per create without, ${fmt(cpu / (withDeliveries.rps * SECONDS), 2)} ms per create + delivery with`,
        '',
        '',
        '',
      ]);
      // The same creates, routed to an endpoint nobody answers (connection refused): after two
      // failures it is Retrying, one request every few seconds, so what remains is the create's own
      // routing cost (the deliveries INSERT and the NOTIFY in its transaction).
      await database.db.execute(sql`update webhook_endpoints set enabled = false where tenant_id = ${fixture.tenantId}`);
      await addEndpointNow('https://127.0.0.1:9/refused');
      await createRun(fixture, 16, WARMUP_SECONDS);
      row('postgres create c=16, endpoint refusing (routing only)', await createRun(fixture, 16), undefined, plainAgain);
    }
    if (!process.argv.includes('--skip-history')) {
      let zero: LoadResult | undefined;
      zero = await createRun(fixture, 16);
      row('postgres create c=16, history 0 (after the runs above)', zero);
      for (const total of [100_000, 1_000_000]) {
        const seedStart = performance.now();
        await seedHistory(database, fixture, total);
        const seeded = ((performance.now() - seedStart) / 1000).toFixed(1);
        await createRun(fixture, 16, WARMUP_SECONDS);
        const result = await createRun(fixture, 16);
        row(`postgres create c=16, ${fmt(total)} sessions this month (seeded in ${seeded} s)`, result, zero);
      }
    }
  } finally {
    await service.stop();
    await baseline.stop();
    await database.close();
    await receiver.stop();
    await removeTestCertificates();
  }

  // PGlite (embedded): the tenant is provisioned before the server takes the data directory's lock.
  if (!process.argv.includes('--skip-pglite')) {
    const serviceDir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
    const baselineDir = mkdtempSync(join(tmpdir(), 'bench-pglite-base-'));
    tempDirs.push(serviceDir, baselineDir);
    const embedded = await openPglite(serviceDir);
    const embeddedFixture = await provision(embedded);
    await embedded.close();
    const pgliteService = await startServer(
      'backend/src/main.ts',
      { DATABASE_URL: '', DATA_DIR: serviceDir, HOST: '127.0.0.1', LOG_LEVEL: 'error' },
      SERVICE_PORT,
    );
    const pgliteBaseline = await startServer('bench/support/baseline-server.ts', { DATABASE_URL: '', DATA_DIR: join(baselineDir, 'pgdata') }, BASELINE_PORT);
    try {
      await compare('pglite', embeddedFixture, pgliteService.pid);
    } finally {
      await pgliteService.stop();
      await pgliteBaseline.stop();
    }
  }
} finally {
  await throwaway.drop();
  await baselineDb.drop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

console.log(`\nSessions API (${SECONDS} s per run after ${WARMUP_SECONDS} s warm-up; latency ms)`);
const header = ['run', 'rps', 'ratio', 'p50 / p99', 'notes'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const line of [header, ...rows])
  console.log(
    line
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
console.log('ratio: against the baseline of the same database and connections; history rows: against history 0.');
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
