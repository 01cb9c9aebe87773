/**
 * A backend process for the multi-process webhook tests (delivery/multi-process.test.ts): it runs the
 * webhook worker against a shared PostgreSQL or an embedded PGlite folder and, in `burst` mode,
 * also completes sessions the way the sessions module does, so that a kill -9 can land in the
 * middle of a burst of completions. Configured by one JSON environment variable; reports on
 * stdout, one JSON object per line.
 *
 *   worker: deliver until SIGTERM (graceful stop) or SIGKILL (crash)
 *   burst:  complete `count` sessions one by one while delivering, then keep delivering
 *   drain:  deliver until nothing is pending, print every completion eventId, exit
 */
import ipaddr from 'ipaddr.js';
import { and, count, eq, inArray } from 'drizzle-orm';
import { systemClock } from '../../../clock';
import { openPglite, openPostgres, type Database } from '../../../db/database';
import { events, webhookDeliveries } from '../../../db/schema';
import { silentLogger } from '../../../log';
import { completeSession } from '../../sessions/session-state';
import { seedStartedSession } from '../../../testing/seed-session';
import { createWebhookWorker } from '../index';
import type { WebhookSettings } from '../settings';

export interface ChildConfig {
  mode: 'worker' | 'burst' | 'drain';
  databaseUrl?: string;
  dataDir?: string;
  caFile: string;
  hosts: Record<string, string[]>;
  settings: Partial<WebhookSettings>;
  workerId: string;
  tenantId?: string;
  pairId?: string;
  count?: number;
}

const say = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function completeOne(database: Database, tenantId: string, pairId: string): Promise<void> {
  const { sessionId } = await seedStartedSession(database.db, { tenantId, pairId, now: systemClock.now(), returnUrl: 'https://shop.example.com/' });
  await completeSession(database.db, sessionId, 'verified', systemClock.now());
}

async function main(): Promise<void> {
  const config = JSON.parse(process.env.WEBHOOK_TEST_CHILD ?? '{}') as ChildConfig;
  const database = config.databaseUrl ? await openPostgres(config.databaseUrl, { max: 6 }) : await openPglite(config.dataDir!);
  const worker = createWebhookWorker({
    database,
    clock: systemClock,
    logger: silentLogger,
    guard: {
      resolver: async (host) => {
        const answer = config.hosts[host];
        if (!answer) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return answer;
      },
      allowedCidrs: [ipaddr.parseCIDR('127.0.0.1/32')],
      caFile: config.caFile,
    },
    settings: config.settings,
    workerId: config.workerId,
    mailer: null,
  });
  process.on('SIGTERM', () => {
    void worker.stop().then(async () => {
      await database.close();
      process.exit(0);
    });
  });
  await worker.start();
  say({ ready: true, pid: process.pid });

  if (config.mode === 'burst') {
    for (let i = 0; i < (config.count ?? 0); i++) {
      await completeOne(database, config.tenantId!, config.pairId!);
      if ((i + 1) % 10 === 0) say({ completed: i + 1 });
    }
    say({ burstDone: true });
  }

  if (config.mode === 'drain') {
    for (;;) {
      const [pending] = await database.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
      if ((pending?.n ?? 0) === 0) break;
      await Bun.sleep(50);
    }
    const completed = await database.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.kind, 'verification.completed')));
    const delivered = await database.db
      .select({ eventId: webhookDeliveries.eventId, status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.eventId, completed.map((e) => e.id).concat('none')));
    await worker.stop();
    await database.close();
    say({ summary: { completionEventIds: completed.map((e) => e.id), deliveries: delivered } });
    process.exit(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`worker-process failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
