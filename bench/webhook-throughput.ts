/**
 * Webhook throughput benchmark: deliveries per second to a local HTTPS receiver, and latency
 * from an event's commit to its receipt (p50/p99), on PostgreSQL (the production database).
 * Prints figures only; nothing here is asserted.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test bun bench/webhook-throughput.ts [--events 2000] [--endpoints 4] [--workers 1] [--rate 200]
 *
 * (TEST_DATABASE_URL works too.) A throwaway database is created and dropped. Two phases:
 *   1. backlog:  N events committed with no worker running, then the workers start: drain rate.
 *   2. steady:   workers running, events committed at --rate per second: commit → receipt latency.
 * Each worker is an in-process createWebhookWorker with its own connection pool, as separate
 * backend instances would have. Sessions are completed through the same code as the API.
 */
import { systemClock, type Clock } from '../backend/src/clock';
import { openPostgres } from '../backend/src/db/database';
import { silentLogger } from '../backend/src/log';
import { completeSession } from '../backend/src/modules/sessions/session-state';
import { createTenant } from '../backend/src/modules/tenants/service';
import { addEndpoint, createWebhookWorker, type WebhookWorker } from '../backend/src/modules/webhooks';
import { startReceiver } from '../backend/src/modules/webhooks/testing/https-receiver';
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
const EVENTS = option('events', 2000);
const ENDPOINTS = option('endpoints', 4);
const WORKERS = option('workers', 1);
const RATE = option('rate', 200);

const throwaway = await createThrowawayPostgres(adminUrl);
const main = await openPostgres(throwaway.url, { max: 10 });
const receiver = await startReceiver();
const clock: Clock = systemClock;
const guard = { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };

const tenant = await createTenant(main.db, clock, { name: 'Bench', domains: ['bench.example.com'], sandbox: false });
for (let i = 0; i < ENDPOINTS; i++) {
  const added = await addEndpoint(main.db, clock, guard, {
    tenantId: tenant.tenantId,
    url: receiver.url(`/bench-${i}`),
    events: ['verification.completed'],
    enabled: true,
  });
  receiver.expectSecret(`/bench-${i}`, added.secret);
}

const committedAt = new Map<string, number>();
async function completion(): Promise<void> {
  const { sessionId: id } = await seedStartedSession(main.db, {
    tenantId: tenant.tenantId,
    pairId: tenant.pairId,
    now: clock.now(),
    returnUrl: 'https://bench.example.com/',
  });
  await completeSession(main.db, id, 'verified', clock.now());
  committedAt.set(id, performance.now());
}

async function startWorkers(): Promise<{ workers: WebhookWorker[]; close(): Promise<void> }> {
  const pools = await Promise.all(Array.from({ length: WORKERS }, () => openPostgres(throwaway.url, { max: 8 })));
  const workers = pools.map((database, i) => createWebhookWorker({ database, clock, logger: silentLogger, guard, workerId: `bench-${i}`, mailer: null }));
  await Promise.all(workers.map((w) => w.start()));
  return {
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(pools.map((p) => p.close()));
    },
  };
}

const expected = () => committedAt.size * ENDPOINTS;
const received = () => receiver.requests().length;
async function waitForAll(timeoutMs = 300_000): Promise<void> {
  const start = performance.now();
  while (received() < expected()) {
    if (performance.now() - start > timeoutMs) throw new Error(`only ${received()} of ${expected()} deliveries arrived`);
    await Bun.sleep(10);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function latencies(): number[] {
  // Commit → receipt, per request; the session id is in the body.
  const out: number[] = [];
  for (const request of receiver.requests()) {
    const sessionId = request.json?.data?.sessionId as string | undefined;
    const at = sessionId ? committedAt.get(sessionId) : undefined;
    if (at !== undefined) out.push(request.receivedAt - at);
  }
  return out.sort((a, b) => a - b);
}

console.log(`webhook benchmark: PostgreSQL, ${ENDPOINTS} endpoint(s), ${WORKERS} worker instance(s), Bun ${Bun.version}`);

// 1. Backlog drain.
for (let i = 0; i < EVENTS; i++) await completion();
const drainStart = performance.now();
const phase1 = await startWorkers();
await waitForAll();
const drainSeconds = (performance.now() - drainStart) / 1000;
await phase1.close();
console.log(
  `backlog: ${expected()} deliveries (${EVENTS} events × ${ENDPOINTS} endpoints) in ${drainSeconds.toFixed(2)} s = ${(expected() / drainSeconds).toFixed(0)} deliveries/s`,
);

// 2. Steady rate, latency from commit to receipt.
receiver.reset();
committedAt.clear();
for (let i = 0; i < ENDPOINTS; i++) receiver.script(`/bench-${i}`, [], { status: 200 });
const phase2 = await startWorkers();
const steadyEvents = Math.min(EVENTS, RATE * 10);
const steadyStart = performance.now();
for (let i = 0; i < steadyEvents; i++) {
  const due = steadyStart + (i * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await Bun.sleep(wait);
  await completion();
}
await waitForAll();
const steadySeconds = (performance.now() - steadyStart) / 1000;
await phase2.close();
const sorted = latencies();
console.log(
  `steady: ${steadyEvents} events at ${RATE}/s target (${(steadyEvents / steadySeconds).toFixed(0)}/s achieved), ${expected()} deliveries; ` +
    `commit → receipt p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
);

await receiver.stop();
await main.close();
await throwaway.drop();
