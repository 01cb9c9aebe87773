/**
 * Webhook throughput benchmark (issue 14): deliveries per second to a local HTTPS receiver and
 * latency from an event's commit to its receipt (p50/p99), on PostgreSQL, for the service's own
 * worker and, side by side on the same database and receiver, a minimal pg-boss queue + worker.
 * Prints figures only; nothing here is asserted.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bun bench/webhook-throughput.ts \
 *     [--events 3000] [--endpoints 1] [--rate 100] [--seconds 10] [--producers 8] [--skip-pgboss]
 *     [--in-flight 64] [--per-endpoint 16]
 *
 * (TEST_DATABASE_URL works too.) A throwaway database is created and dropped. Phases, each for
 * the service and then for pg-boss:
 *   backlog  --events committed with no worker running, then the worker starts: drain rate.
 *   100/s    the worker running, events committed at --rate per second for --seconds: commit → receipt.
 *   max      the worker running, --producers completing sessions as fast as they can for
 *            --seconds: events/s committed, deliveries/s received, commit → receipt.
 *
 * Both sides do the same work per event: a session is completed through the same code as the API
 * (its verification.completed event commits with its body fixed), and each delivery is one
 * attempt through `attemptDelivery` (destination check, pinned HTTPS client, both signatures) to
 * the same receiver, which verifies both signatures. The service's worker records every attempt
 * and keeps its per-endpoint pacing (claim.ts); the pg-boss worker only completes the job. For
 * pg-boss the event's commit time is when `send()` returned (after the session's commit: pg-boss
 * has no outbox in the session's transaction here). The worker is an in-process
 * `createWebhookWorker` with its own pool (8 connections), as a separate backend instance has.
 */
import { eq, sql } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import { systemClock, type Clock } from '../backend/src/clock';
import { openPostgres } from '../backend/src/db/database';
import { rowsOf } from '../backend/src/db/rows-of';
import { events } from '../backend/src/db/schema';
import { silentLogger, createLogger } from '../backend/src/log';
import { completeSession } from '../backend/src/modules/sessions/session-state';
import { systemAudit } from '../backend/src/modules/audit';
import { createTenant } from '../backend/src/modules/tenants/service';
import { addEndpoint, createWebhookWorker } from '../backend/src/modules/webhooks';
import { attemptDelivery } from '../backend/src/modules/webhooks/delivery/attempt';
import { webhookSettings } from '../backend/src/modules/webhooks/settings';
import { startReceiver } from '../backend/src/modules/webhooks/testing/https-receiver';
import { removeTestCertificates } from '../backend/src/modules/webhooks/testing/test-certificates';
import { fakeResolver, LOOPBACK_ONLY } from '../backend/src/modules/webhooks/testing/testbed';
import { createThrowawayPostgres } from '../backend/src/testing/test-databases';
import { seedStartedSession } from '../backend/src/testing/seed-session';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test');
  process.exit(2);
}
const EVENTS = option('events', 3000);
const ENDPOINTS = option('endpoints', 1);
const RATE = option('rate', 100);
const SECONDS = option('seconds', 10);
const PRODUCERS = option('producers', 8);
const SKIP_PGBOSS = process.argv.includes('--skip-pgboss');
const logger = process.env.BENCH_LOG ? createLogger('warn', (line) => console.error(line)) : silentLogger;

const throwaway = await createThrowawayPostgres(adminUrl);
const main = await openPostgres(throwaway.url, { max: 16 });
const receiver = await startReceiver();
const clock: Clock = systemClock;
const guard = { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };
// --in-flight / --per-endpoint override the worker's WEBHOOK_MAX_IN_FLIGHT / _PER_ENDPOINT defaults.
const settings = webhookSettings({
  maxInFlight: option('in-flight', webhookSettings().maxInFlight),
  maxInFlightPerEndpoint: option('per-endpoint', webhookSettings().maxInFlightPerEndpoint),
});

const tenant = await createTenant(main.db, clock, { name: 'Bench', domains: ['bench.example.com'], sandbox: false });
const secrets: string[] = [];
for (let i = 0; i < ENDPOINTS; i++) {
  const added = await addEndpoint(
    main.db,
    clock,
    guard,
    {
      tenantId: tenant.tenantId,
      url: receiver.url(`/service-${i}`),
      events: ['verification.completed'],
      enabled: true,
    },
    systemAudit(clock.now()),
  );
  secrets.push(added.secret);
  receiver.expectSecret(`/service-${i}`, added.secret);
  receiver.expectSecret(`/pgboss-${i}`, added.secret);
}

/** Commit time (performance.now()) of each session's completion event, by session id. */
const committedAt = new Map<string, number>();

/** A session completed through the API's own code: its verification.completed event commits with its body. Returns the session id. */
async function completion(): Promise<string> {
  const { sessionId } = await seedStartedSession(main.db, {
    tenantId: tenant.tenantId,
    pairId: tenant.pairId,
    now: clock.now(),
    returnUrl: 'https://bench.example.com/',
  });
  await completeSession(main.db, sessionId, 'verified', clock.now());
  return sessionId;
}

interface Side {
  name: string;
  prefix: string;
  /** Completes a session and makes its event deliverable; returns when it is committed. */
  produce(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const serviceSide: Side = (() => {
  let stopWorker: (() => Promise<void>) | null = null;
  return {
    name: `service (maxInFlight ${settings.maxInFlight}, per endpoint ${settings.maxInFlightPerEndpoint}, batch ${settings.claimBatchSize})`,
    prefix: '/service-',
    async produce() {
      const id = await completion();
      committedAt.set(id, performance.now());
    },
    async start() {
      const database = await openPostgres(throwaway.url, { max: 8 });
      const worker = createWebhookWorker({ database, clock, logger, guard, workerId: 'bench', mailer: null, settings });
      await worker.start();
      stopWorker = async () => {
        await worker.stop();
        await database.close();
      };
    },
    async stop() {
      await stopWorker?.();
    },
  };
})();

interface BossJob {
  sessionId: string;
  endpoint: number;
  eventId: string;
  body: string;
}
const QUEUE = 'webhook-deliveries';

function pgBossSide(): Side {
  const producer = new PgBoss({ connectionString: throwaway.url, max: 8, schema: 'pgboss', supervise: false, schedule: false });
  let worker: PgBoss | null = null;
  return {
    name: 'pg-boss 12.35.0 (work: batchSize 16, localConcurrency 4, LISTEN/NOTIFY, same attempt code)',
    prefix: '/pgboss-',
    async produce() {
      const id = await completion();
      const [event] = await main.db.select({ id: events.id, body: events.body }).from(events).where(eq(events.sessionId, id));
      const jobs = Array.from({ length: ENDPOINTS }, (_, endpoint) => ({ data: { sessionId: id, endpoint, eventId: event!.id, body: event!.body! } }));
      await producer.insert(QUEUE, jobs);
      committedAt.set(id, performance.now());
    },
    async start() {
      worker = new PgBoss({ connectionString: throwaway.url, max: 8, schema: 'pgboss', useListenNotify: true, supervise: false, schedule: false });
      worker.on('error', (error) => console.error('pg-boss worker error', error));
      await worker.start();
      await worker.work<BossJob>(
        QUEUE,
        { batchSize: 16, localConcurrency: 4, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5, burstWhenBatchFull: true },
        async (jobs) => {
          await Promise.all(
            jobs.map(async (job) => {
              const { endpoint, eventId, body } = job.data;
              const result = await attemptDelivery(
                { url: receiver.url(`/pgboss-${endpoint}`), eventId, body, secret: secrets[endpoint]!, sentAt: clock.now() },
                guard,
                {
                  timeoutMs: settings.attemptTimeoutMs,
                },
              );
              if (result.errorClass !== null) throw new Error(`delivery failed: ${result.errorClass} ${result.errorMessage}`);
            }),
          );
        },
      );
    },
    async stop() {
      await worker?.stop({ graceful: true });
      worker = null;
    },
    // pg-boss's own start (schema) happens once, below.
    ...{ producerBoss: producer },
  } as Side & { producerBoss: PgBoss };
}

const received = (prefix: string) => receiver.requests().filter((r) => r.path.startsWith(prefix)).length;

async function waitFor(prefix: string, expected: number, timeoutMs = 600_000): Promise<void> {
  const start = performance.now();
  while (received(prefix) < expected) {
    if (performance.now() - start > timeoutMs) throw new Error(`only ${received(prefix)} of ${expected} deliveries arrived`);
    await Bun.sleep(20);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Commit → receipt per request of the side; the session id is in the body. */
function latencies(prefix: string): number[] {
  const out: number[] = [];
  for (const request of receiver.requests()) {
    if (!request.path.startsWith(prefix)) continue;
    const sessionId = request.json?.data?.sessionId as string | undefined;
    const at = sessionId ? committedAt.get(sessionId) : undefined;
    if (at !== undefined) out.push(request.receivedAt - at);
  }
  return out.sort((a, b) => a - b);
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
const latencyLine = (prefix: string) => {
  const sorted = latencies(prefix);
  return `commit → receipt p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms`;
};

function reset(): void {
  receiver.reset();
  committedAt.clear();
  for (let i = 0; i < ENDPOINTS; i++) {
    receiver.expectSecret(`/service-${i}`, secrets[i]!);
    receiver.expectSecret(`/pgboss-${i}`, secrets[i]!);
  }
}

/** Runs `count` producers in parallel, `n` events in all. */
async function produceMany(side: Side, n: number, producers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: producers }, async () => {
      while (next < n) {
        next++;
        await side.produce();
      }
    }),
  );
}

/** Transactions committed in the bench database so far (statistics are flushed about once a second, hence the wait). */
async function commits(): Promise<number> {
  await Bun.sleep(1_500);
  const [row] = rowsOf<{ n: string }>(await main.db.execute(sql`select xact_commit::text as n from pg_stat_database where datname = current_database()`));
  return Number(row!.n);
}

async function run(side: Side): Promise<void> {
  console.log(`\n${side.name}`);
  // 1. Backlog drain.
  reset();
  await produceMany(side, EVENTS, PRODUCERS);
  const commitsBefore = await commits();
  const drainStart = performance.now();
  await side.start();
  await waitFor(side.prefix, EVENTS * ENDPOINTS);
  const drainSeconds = (performance.now() - drainStart) / 1000;
  const drainCommits = (await commits()) - commitsBefore;
  console.log(
    `  backlog: ${fmt(EVENTS * ENDPOINTS)} deliveries (${fmt(EVENTS)} events × ${ENDPOINTS} endpoint(s)) in ${drainSeconds.toFixed(2)} s = ${fmt((EVENTS * ENDPOINTS) / drainSeconds)} deliveries/s` +
      ` (${(drainCommits / (EVENTS * ENDPOINTS)).toFixed(2)} transactions per delivery, polls and housekeeping included)`,
  );

  // 2. A steady --rate: each event is started at its due time, whatever the previous one is doing.
  reset();
  const steadyEvents = RATE * SECONDS;
  const steadyStart = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < steadyEvents; i++) {
    const wait = steadyStart + (i * 1000) / RATE - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    pending.push(side.produce());
  }
  await Promise.all(pending);
  const producedSeconds = (performance.now() - steadyStart) / 1000;
  await waitFor(side.prefix, steadyEvents * ENDPOINTS);
  console.log(
    `  ${RATE}/s: ${fmt(steadyEvents)} events in ${producedSeconds.toFixed(2)} s (${fmt(steadyEvents / producedSeconds)}/s achieved); ${latencyLine(side.prefix)}`,
  );

  // 3. Max rate: producers flat out for --seconds, the worker keeping up or not.
  reset();
  const maxStart = performance.now();
  let produced = 0;
  await Promise.all(
    Array.from({ length: PRODUCERS }, async () => {
      while (performance.now() - maxStart < SECONDS * 1000) {
        await side.produce();
        produced++;
      }
    }),
  );
  const maxSeconds = (performance.now() - maxStart) / 1000;
  const inWindow = received(side.prefix);
  await waitFor(side.prefix, produced * ENDPOINTS);
  const allSeconds = (performance.now() - maxStart) / 1000;
  console.log(
    `  max: ${fmt(produced)} events in ${maxSeconds.toFixed(2)} s (${fmt(produced / maxSeconds)} events/s, ${PRODUCERS} producers); ` +
      `${fmt(inWindow / maxSeconds)} deliveries/s received meanwhile, all ${fmt(produced * ENDPOINTS)} in ${allSeconds.toFixed(2)} s; ${latencyLine(side.prefix)}`,
  );
  await side.stop();
}

const [load1, load5] = (await Bun.file('/proc/loadavg').text()).split(' ');
console.log(`webhook benchmark: PostgreSQL, ${ENDPOINTS} endpoint(s), Bun ${Bun.version}, load average ${load1} / ${load5} at start`);
await run(serviceSide);
if (!SKIP_PGBOSS) {
  const boss = pgBossSide() as Side & { producerBoss: PgBoss };
  boss.producerBoss.on('error', (error) => console.error('pg-boss error', error));
  await boss.producerBoss.start();
  await boss.producerBoss.createQueue(QUEUE, { notify: true });
  await run(boss);
  await boss.producerBoss.stop({ graceful: false });
}
const [end1] = (await Bun.file('/proc/loadavg').text()).split(' ');
console.log(`load average ${end1} at the end`);

await receiver.stop();
await removeTestCertificates();
await main.close();
await throwaway.drop();
