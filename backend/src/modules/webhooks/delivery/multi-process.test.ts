/**
 * Several backend processes (../testing/worker-process.ts), real clock, real network:
 *
 * - two processes on one PostgreSQL: every event delivered, no attempt sent twice without a
 *   crash, and a Retrying endpoint gets one request at a time across both processes;
 * - kill -9 during a burst of completions: after a restart every committed completion is
 *   delivered at least once and none is missing (PostgreSQL, and PGlite in a data folder).
 *
 * Timing knobs are shortened for the run (lease 2 s, attempt timeout 1.5 s, probes every
 * ≤ 0.5 s); the rules are the same. Waits are for work to finish, with generous limits; nothing
 * asserts a duration.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { ManualClock } from '../../../clock';
import { openPglite } from '../../../db/database';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { TARGETS } from '../../../testing/test-databases';
import { createTenant } from '../../tenants/service';
import { addEndpoint } from '../endpoints/endpoint-config';
import type { WebhookSettings } from '../settings';
import { startReceiver, type Receiver } from '../testing/https-receiver';
import { createTestbed, fakeResolver, LOOPBACK_ONLY, type Testbed } from '../testing/testbed';
import type { ChildConfig } from '../testing/worker-process';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

const CHILD = join(import.meta.dir, '..', 'testing', 'worker-process.ts');
const FAST: Partial<WebhookSettings> = {
  attemptTimeoutMs: 1_500,
  leaseMs: 2_000,
  pollIntervalMs: 200,
  completionFirstDelayMs: 100,
  completionMaxDelayMs: 500,
  endpointFirstDelayMs: 100,
  endpointMaxDelayMs: 500,
};

interface Child {
  messages: Record<string, any>[];
  proc: ReturnType<typeof Bun.spawn>;
  waitFor(check: (message: Record<string, any>) => boolean, timeoutMs?: number): Promise<Record<string, any>>;
  exited: Promise<number>;
}

function spawnChild(config: ChildConfig): Child {
  const proc = Bun.spawn(['bun', CHILD], { env: { ...process.env, WEBHOOK_TEST_CHILD: JSON.stringify(config) }, stdout: 'pipe', stderr: 'pipe' });
  const messages: Record<string, any>[] = [];
  let stderr = '';
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      buffer += decoder.decode(chunk);
      for (let eol = buffer.indexOf('\n'); eol !== -1; eol = buffer.indexOf('\n')) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 1);
        if (line.trim()) messages.push(JSON.parse(line));
      }
    }
  })();
  void (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  return {
    messages,
    proc,
    exited: proc.exited,
    async waitFor(check, timeoutMs = 20_000) {
      const start = performance.now();
      for (;;) {
        const found = messages.find(check);
        if (found) return found;
        if (proc.exitCode !== null && proc.exitCode !== 0) throw new Error(`child exited ${proc.exitCode}: ${stderr}`);
        if (performance.now() - start > timeoutMs) throw new Error(`child did not report in time; stderr: ${stderr}`);
        await Bun.sleep(20);
      }
    },
  };
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error('timed out waiting');
    await Bun.sleep(25);
  }
}

describe.skipIf(!TARGETS.includes('postgres'))('two backend processes on one PostgreSQL', () => {
  let bed: Testbed;
  const children: Child[] = [];
  beforeAll(async () => {
    bed = await createTestbed('postgres');
  });
  afterAll(async () => {
    for (const child of children) child.proc.kill('SIGKILL');
    await bed.close();
  });

  test('each event delivered, no attempt sent twice, and per-endpoint pacing holds across both', async () => {
    bed.clock.set(new Date()); // the children run on the real clock
    const a = await bed.endpoint('/multi-a', ['verification.completed']);
    const b = await bed.endpoint('/multi-b', ['verification.completed']);
    bed.receiver.script('/multi-b', [], { status: 503, delayMs: 60 });
    const base = { databaseUrl: bed.database.url!, caFile: bed.receiver.caFile, hosts: { 'hooks.test': ['127.0.0.1'] }, settings: FAST };
    children.push(spawnChild({ ...base, mode: 'worker', workerId: 'backend-1' }), spawnChild({ ...base, mode: 'worker', workerId: 'backend-2' }));
    await Promise.all(children.map((c) => c.waitFor((m) => m.ready)));

    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      bed.clock.set(new Date());
      ids.push(await bed.complete((await bed.session()).sessionId));
    }
    await until(async () => (await bed.endpointRow(b.endpointId)).deliveryState === 'retrying');
    // Whatever was in flight when it turned Retrying finishes first; then one request at a time.
    await until(
      async () =>
        (
          await bed.database.db
            .select({ n: count() })
            .from(webhookDeliveries)
            .where(sql`${webhookDeliveries.endpointId} = ${b.endpointId} and ${webhookDeliveries.leaseUntil} > now()`)
        )[0]!.n <= 1,
    );
    bed.receiver.resetPeak('/multi-b');
    const probesBefore = bed.receiver.requests('/multi-b').length;
    await until(() => bed.receiver.requests('/multi-b').length >= probesBefore + 4);
    expect(bed.receiver.maxConcurrent('/multi-b')).toBe(1);

    bed.receiver.script('/multi-b', [], { status: 200 });
    await until(
      async () => (await bed.database.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')))[0]!.n === 0,
      30_000,
    );

    // Endpoint A never failed: each event exactly once.
    const toA = bed.receiver.requests('/multi-a');
    expect(toA).toHaveLength(40);
    expect(new Set(toA.map((r) => r.eventId))).toEqual(new Set(ids));
    // Every request to B is one recorded attempt: nothing was sent twice by two processes.
    const attemptsB = await bed.database.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, b.endpointId));
    expect(attemptsB.filter((x) => x.outcome !== 'interrupted')).toHaveLength(bed.receiver.requests('/multi-b').length);
    const keys = attemptsB.map((x) => `${x.deliveryId}#${x.attemptNumber}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(
      new Set(
        bed.receiver
          .requests('/multi-b')
          .filter((r) => r.json?.event)
          .map((r) => r.eventId),
      ),
    ).toEqual(new Set(ids));
    // Both processes did part of the work.
    const workers = await bed.database.db
      .selectDistinct({ workerId: webhookAttempts.workerId })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.endpointId, a.endpointId));
    expect(workers.map((w) => w.workerId).sort()).toEqual(['backend-1', 'backend-2']);

    for (const child of children) child.proc.kill('SIGTERM');
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0]);
  }, 60_000);
});

for (const target of TARGETS) {
  describe(`kill -9 during a burst of completions [${target}]`, () => {
    let receiver: Receiver;
    let bed: Testbed | null = null;
    let dataDir: string | null = null;
    const children: Child[] = [];
    beforeAll(async () => {
      if (target === 'postgres') {
        bed = await createTestbed('postgres');
        receiver = bed.receiver;
      } else {
        receiver = await startReceiver();
        dataDir = mkdtempSync(join(tmpdir(), 'ageverify-crash-'));
      }
    });
    afterAll(async () => {
      for (const child of children) child.proc.kill('SIGKILL');
      if (bed) await bed.close();
      else await receiver.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    test('after a restart every committed completion is delivered at least once; none is missing', async () => {
      const path = '/crash';
      receiver.script(path, [], { status: 200, delayMs: 5 });
      const hosts = { 'hooks.test': ['127.0.0.1'] };
      const guard = { resolver: fakeResolver(hosts), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };
      let tenantId: string;
      let pairId: string;
      const where: Pick<ChildConfig, 'databaseUrl' | 'dataDir'> = {};
      if (bed) {
        const added = await addEndpoint(
          bed.database.db,
          bed.clock,
          guard,
          {
            tenantId: bed.tenantId,
            url: receiver.url(path),
            events: ['verification.completed'],
            enabled: true,
          },
          TEST_AUDIT,
        );
        receiver.expectSecret(path, added.secret);
        ({ tenantId, pairId } = bed);
        where.databaseUrl = bed.database.url!;
      } else {
        // The embedded database in a folder: set up, then closed so the backend process can take its lock.
        const database = await openPglite(dataDir!);
        const clock = new ManualClock(new Date());
        const tenant = await createTenant(database.db, clock, { name: 'Crash', domains: ['c.example.com'], sandbox: false });
        const added = await addEndpoint(
          database.db,
          clock,
          guard,
          {
            tenantId: tenant.tenantId,
            url: receiver.url(path),
            events: ['verification.completed'],
            enabled: true,
          },
          TEST_AUDIT,
        );
        receiver.expectSecret(path, added.secret);
        ({ tenantId, pairId } = tenant);
        await database.close();
        where.dataDir = dataDir!;
      }
      const base = { ...where, caFile: receiver.caFile, hosts, settings: FAST };

      const burst = spawnChild({ ...base, mode: 'burst', workerId: 'doomed', tenantId, pairId, count: 200 });
      children.push(burst);
      await burst.waitFor((m) => m.completed >= 30, 30_000);
      // Mid-burst, once deliveries are going out (or the burst is well along).
      await until(() => receiver.requests(path).length >= 5 || burst.messages.some((m) => m.completed >= 80));
      burst.proc.kill('SIGKILL'); // some completions committed, some deliveries claimed or in flight
      await burst.exited;
      const completedBeforeKill = Math.max(...burst.messages.filter((m) => m.completed).map((m) => m.completed as number));
      expect(completedBeforeKill).toBeLessThan(200);

      const restarted = spawnChild({ ...base, mode: 'drain', workerId: 'restarted' });
      children.push(restarted);
      const { summary } = await restarted.waitFor((m) => m.summary, 40_000);
      const committed: string[] = summary.completionEventIds;
      expect(committed.length).toBeGreaterThanOrEqual(completedBeforeKill);
      const received = new Set(receiver.eventIds(path));
      const missing = committed.filter((id) => !received.has(id));
      expect(missing).toEqual([]);
      expect(summary.deliveries.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
      expect(receiver.requests(path).every((r) => r.serviceSignatureValid)).toBe(true);
      void webhookEndpoints;
    }, 60_000);
  });
}
