import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, inArray } from 'drizzle-orm';
import { SESSION_LIFETIME_MS } from '@ageverify/protocol';
import { ManualClock } from '../../clock';
import { events, sessions, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { openTestDatabase, TARGETS, type TestDatabase } from '../../testing/test-databases';
import { seedStartedSession } from '../../testing/seed-session';
import { createTenant } from '../tenants/service';
import { EXPIRY_BATCH_SIZE, sweepExpiredSessions } from './expiry-sweeper';

for (const target of TARGETS) {
  describe(`batched expiry sweep (${target})`, () => {
    let database: TestDatabase;
    const clock = new ManualClock(new Date('2026-05-10T12:00:00Z'));
    beforeAll(async () => {
      database = await openTestDatabase(target);
    }, 60_000);
    afterAll(() => database?.close());

    async function dueSessions(count: number): Promise<string[]> {
      const tenant = await createTenant(database.db, clock, { name: 'Shop', domains: [], sandbox: false });
      const ids: string[] = [];
      for (let i = 0; i < count; i++)
        ids.push((await seedStartedSession(database.db, { tenantId: tenant.tenantId, pairId: tenant.pairId, now: clock.now() })).sessionId);
      clock.advance(SESSION_LIFETIME_MS + 1_000);
      return ids;
    }
    const timeouts = (ids: string[]) =>
      database.db
        .select()
        .from(events)
        .where(and(inArray(events.sessionId, ids), eq(events.kind, 'session.timeout')));

    test('stops between batches when asked: whole batches expired, the rest untouched', async () => {
      const ids = await dueSessions(25);
      let batches = 0;
      const expired = await sweepExpiredSessions(database.db, clock.now(), { batchSize: 10, shouldStop: () => batches++ >= 1 });
      expect(expired).toBe(10);
      const states = await database.db.select({ state: sessions.state }).from(sessions).where(inArray(sessions.id, ids));
      expect(states.filter((row) => row.state === 'EXPIRED')).toHaveLength(10);
      expect(await timeouts(ids)).toHaveLength(10);
      expect(await sweepExpiredSessions(database.db, clock.now(), { batchSize: 10 })).toBeGreaterThanOrEqual(15);
    });

    test('a batch routed to 20 endpoints: more delivery rows than one statement can carry, all recorded', async () => {
      const tenant = await createTenant(database.db, clock, { name: 'Many endpoints', domains: [], sandbox: false });
      const now = clock.now();
      await database.db.insert(webhookEndpoints).values(
        Array.from({ length: 20 }, (_, i) => ({
          id: `whe_many_${i}_${tenant.tenantId}`,
          tenantId: tenant.tenantId,
          url: `https://hooks.example.com/${i}`,
          secret: 'whsec_test',
          events: ['session.timeout'],
          createdAt: now,
        })),
      );
      const due = 400; // 400 sessions × 20 endpoints × 12 parameters = 96,000 > 65,535
      await database.db.insert(sessions).values(
        Array.from({ length: due }, (_, i) => ({
          id: `ses_many_${i}_${tenant.tenantId}`,
          tenantId: tenant.tenantId,
          pairId: tenant.pairId,
          sandbox: false,
          state: 'PENDING' as const,
          returnUrl: 'https://shop.example.com/done',
          verificationMode: 'L1' as const,
          challengeAge: 25,
          faceMatchEnabled: false,
          sessionTokenHash: `t${i}`,
          handoffTokenHash: `h${i}`,
          createdWith: 'secret' as const,
          createdAt: new Date(now.getTime() - SESSION_LIFETIME_MS - 60_000),
          expiresAt: new Date(now.getTime() - 60_000),
        })),
      );
      expect(due).toBeLessThanOrEqual(EXPIRY_BATCH_SIZE);
      expect(await sweepExpiredSessions(database.db, now)).toBeGreaterThanOrEqual(due);
      const routed = await database.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.tenantId, tenant.tenantId));
      expect(routed).toHaveLength(due * 20);
    }, 60_000);

    test('racing sweeps: one session.timeout per session, timestamped at the deadline', async () => {
      const ids = await dueSessions(30);
      const counts = await Promise.all([
        sweepExpiredSessions(database.db, clock.now(), { batchSize: 7 }),
        sweepExpiredSessions(database.db, clock.now(), { batchSize: 7 }),
      ]);
      expect(counts[0]! + counts[1]!).toBe(30);
      const recorded = await timeouts(ids);
      expect(recorded).toHaveLength(30);
      expect(new Set(recorded.map((row) => row.sessionId)).size).toBe(30);
      const deadlines = new Map((await database.db.select().from(sessions).where(inArray(sessions.id, ids))).map((row) => [row.id, row.expiresAt.getTime()]));
      for (const row of recorded) expect(row.occurredAt.getTime()).toBe(deadlines.get(row.sessionId)!);
    });
  });
}
