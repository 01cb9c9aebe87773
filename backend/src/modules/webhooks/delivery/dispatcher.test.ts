/**
 * Webhook delivery end to end, on every database target: every Delivery rule (spec "Events",
 * rules 1–12) and the dispatcher's safety across crashes, stale leases and concurrent
 * instances, against a real HTTPS receiver whose answers are scripted. Time moves through the
 * manual clock (1 h, 24 h, 7 days) and never by sleeping.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, sql } from 'drizzle-orm';
import { tenants, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { openPostgres, type Database } from '../../../db/database';
import { silentLogger } from '../../../log';
import { TARGETS } from '../../../testing/test-databases';
import { seedStartedSession } from '../../../testing/seed-session';
import { addEndpoint, redeliverEndpoint, setLegacyWebhook, updateEndpoint } from '../endpoints/endpoint-config';
import { endpointHealth, eventAttempts } from '../endpoints/health';
import { testEndpoint } from '../endpoints/test-endpoint';
import { createTestbed, driveToPaused, type Testbed } from '../testing/testbed';
import { attemptDelivery } from './attempt';
import { createDispatcher } from './dispatcher';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

for (const target of TARGETS) {
  describe(`webhook delivery [${target}]`, () => {
    let bed: Testbed;
    beforeAll(async () => {
      bed = await createTestbed(target);
    });
    afterAll(() => bed.close());

    let pathCounter = 0;
    /** A fresh receiver path per test, so tests never see each other's requests. */
    const fresh = (name: string) => `/${name}-${++pathCounter}`;
    const attemptsOf = async (eventId: string) => (await eventAttempts(bed.database.db, bed.tenantId, eventId))!.deliveries;
    /** Each test's routing is its own: earlier tests' endpoints (and their deliveries) go. */
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

    describe('delivery rules', () => {
      test('rule 1: at-least-once; the receiver authenticates the raw body (both signatures) and deduplicates by eventId', async () => {
        await isolate();
        const path = fresh('rule1');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        const eventId = await bed.complete((await bed.session()).sessionId);
        // A crash between send and record: the request went out, the record never happened.
        const [claimed] = await bed.dispatcher.claim(10);
        const row = await bed.delivery(eventId, endpointId);
        expect(claimed!.deliveryId).toBe(row.id);
        await attemptDelivery({ url: claimed!.url, eventId, body: claimed!.body, secret: claimed!.secret, sentAt: bed.clock.now() }, bed.guard, {
          timeoutMs: 5_000,
        });
        bed.clock.advance(bed.settings.leaseMs + SEC);
        await bed.run();
        const received = bed.receiver.requests(path);
        expect(received).toHaveLength(2);
        expect(received.every((r) => r.serviceSignatureValid && r.standardSignatureValid)).toBe(true);
        expect(received[1]!.text).toBe(received[0]!.text);
        expect(received[1]!.duplicate).toBe(true);
        expect(bed.receiver.eventIds(path)).toEqual([eventId]);
        expect((await bed.delivery(eventId, endpointId)).status).toBe('delivered');
      });

      test('rule 2: completing a session does not wait for webhook delivery', async () => {
        await isolate();
        const path = fresh('rule2');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [{ hang: true }]);
        const eventId = await bed.complete((await bed.session()).sessionId);
        expect((await bed.delivery(eventId, endpointId)).status).toBe('pending');
        expect(bed.receiver.requests(path)).toHaveLength(0);
        await bed.database.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
      });

      test('rule 3: completions retry with capped exponential backoff (≤ 10 min between attempts) for 24 h, then not delivered', async () => {
        await isolate();
        const path = fresh('rule3');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [], { status: 503 });
        const start = bed.clock.now();
        const eventId = await bed.complete((await bed.session()).sessionId);
        await bed.settle(400);
        const delivery = await bed.delivery(eventId, endpointId);
        expect(delivery).toMatchObject({ status: 'undelivered', undeliveredReason: 'expired' });
        const attempts = (await attemptsOf(eventId))[0]!.attempts;
        const times = attempts.map((a) => Date.parse(a.startedAt));
        const gaps = times.slice(1).map((t, i) => t - times[i]!);
        if (gaps.length < 3) console.log(JSON.stringify(await attemptsOf(eventId), null, 1));
        expect(Math.max(...gaps)).toBeLessThanOrEqual(10 * MIN);
        expect(gaps.slice(0, 3)).toEqual([5 * SEC, 10 * SEC, 20 * SEC]);
        // The last attempt falls within the 24 h window, none after it.
        expect(times.at(-1)! - start.getTime()).toBeLessThanOrEqual(DAY);
        expect(times.at(-1)! - start.getTime()).toBeGreaterThan(DAY - 10 * MIN);
        // Same bytes and eventId on every retry.
        const received = bed.receiver.requests(path);
        expect(received.length).toBe(attempts.length);
        expect(new Set(received.map((r) => r.text)).size).toBe(1);
        expect(new Set(received.map((r) => r.eventId))).toEqual(new Set([eventId]));
      }, 30_000);

      test('rule 4: timeouts retry the configured 3 times, exponential at 5-second granularity, body preserved', async () => {
        await isolate();
        const path = fresh('rule4');
        const { endpointId } = await bed.endpoint(path, ['session.timeout']);
        bed.receiver.script(path, [], { status: 500 });
        const { sessionId } = await bed.session();
        bed.clock.advance(10 * MIN + 1_234);
        const eventId = await bed.expire(sessionId);
        await bed.settle();
        const attempts = (await attemptsOf(eventId))[0]!.attempts;
        if (attempts.length !== 3) console.log(JSON.stringify(await attemptsOf(eventId), null, 1), bed.clock.now());
        expect(attempts).toHaveLength(3);
        const times = attempts.map((a) => Date.parse(a.startedAt));
        expect(times[1]! % (5 * SEC)).toBe(0);
        expect(times[2]! % (5 * SEC)).toBe(0);
        expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(5 * SEC);
        expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(10 * SEC);
        expect(await bed.delivery(eventId, endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'attempts_exhausted' });
        expect(new Set(bed.receiver.requests(path).map((r) => r.text)).size).toBe(1);
      });

      test('rule 5: other kinds use the 3-attempt in-request sequence; 401 and 404 are not retried', async () => {
        await isolate();
        const flaky = fresh('rule5-flaky');
        const gone = fresh('rule5-404');
        const auth = fresh('rule5-401');
        const e1 = await bed.endpoint(flaky, ['session.started']);
        const e2 = await bed.endpoint(gone, ['session.started']);
        const e3 = await bed.endpoint(auth, ['session.started']);
        bed.receiver.script(flaky, [{ status: 500 }, { status: 502 }, { status: 200 }]);
        bed.receiver.script(gone, [], { status: 404 });
        bed.receiver.script(auth, [], { status: 401 });
        const { startedEventId } = await bed.session();
        await bed.settle();
        expect(await bed.delivery(startedEventId, e1.endpointId)).toMatchObject({ status: 'delivered', totalAttempts: 3 });
        expect(await bed.delivery(startedEventId, e2.endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'rejected', totalAttempts: 1 });
        expect(await bed.delivery(startedEventId, e3.endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'rejected', totalAttempts: 1 });
        expect(bed.receiver.requests(gone)).toHaveLength(1);
      });

      test('rule 5: three failures end the in-request sequence as not delivered', async () => {
        await isolate();
        const path = fresh('rule5-exhausted');
        const { endpointId } = await bed.endpoint(path, ['session.started']);
        bed.receiver.script(path, [], { status: 500 });
        const { startedEventId } = await bed.session();
        await bed.settle();
        expect(await bed.delivery(startedEventId, endpointId)).toMatchObject({
          status: 'undelivered',
          undeliveredReason: 'attempts_exhausted',
          totalAttempts: 3,
        });
      });

      test('rule 6 / Active → Retrying: a failing endpoint gets one request at a time, paced per endpoint; others are unaffected', async () => {
        await isolate();
        const failing = fresh('rule6-failing');
        const healthy = fresh('rule6-healthy');
        const f = await bed.endpoint(failing, ['verification.completed']);
        await bed.endpoint(healthy, ['verification.completed']);
        bed.receiver.script(failing, [], { status: 503 });
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) ids.push(await bed.complete((await bed.session()).sessionId));
        await bed.run();
        // The first burst went out while Active; the failures made it Retrying.
        expect(bed.receiver.requests(failing)).toHaveLength(8);
        expect(bed.receiver.requests(healthy)).toHaveLength(8);
        expect((await bed.endpointRow(f.endpointId)).deliveryState).toBe('retrying');
        // From now on: one request per due time, never two at once, whichever event is due.
        for (let i = 0; i < 6; i++) {
          const before = bed.receiver.requests(failing).length;
          await bed.step();
          expect(bed.receiver.requests(failing).length - before).toBe(1);
        }
        // Retrying → Active: the next 2xx resumes normal pacing and the rest flows at once.
        bed.receiver.script(failing, [], { status: 200 });
        await bed.step();
        await bed.run();
        expect((await bed.endpointRow(f.endpointId)).deliveryState).toBe('active');
        for (const id of ids) expect((await bed.delivery(id, f.endpointId)).status).toBe('delivered');
      });

      test('rule 7: Retry-After on 429/503 is respected, up to one hour', async () => {
        await isolate();
        const path = fresh('rule7');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [{ status: 429, retryAfter: '120' }, { status: 503, retryAfter: '86400' }, { status: 200 }]);
        const eventId = await bed.complete((await bed.session()).sessionId);
        const t0 = bed.clock.now().getTime();
        await bed.run();
        expect((await bed.delivery(eventId, endpointId)).nextAttemptAt.getTime()).toBe(t0 + 120 * SEC);
        bed.clock.advance(119 * SEC);
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(1);
        bed.clock.advance(SEC);
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(2);
        const t1 = bed.clock.now().getTime();
        // 86400 s asked, one hour honoured: per delivery and for the endpoint's pacing.
        expect((await bed.delivery(eventId, endpointId)).nextAttemptAt.getTime()).toBe(t1 + HOUR);
        expect((await bed.endpointRow(endpointId)).retryAt!.getTime()).toBe(t1 + HOUR);
        bed.clock.advance(HOUR - SEC);
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(2);
        bed.clock.advance(SEC);
        await bed.run();
        expect((await bed.delivery(eventId, endpointId)).status).toBe('delivered');
      });

      test('rule 8: editing an endpoint does not redirect an already queued event', async () => {
        await isolate();
        const oldPath = fresh('rule8-old');
        const newPath = fresh('rule8-new');
        const { endpointId, secret } = await bed.endpoint(oldPath, ['verification.completed']);
        bed.receiver.script(oldPath, [{ status: 500 }]);
        const queued = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        bed.receiver.expectSecret(newPath, secret);
        await updateEndpoint(bed.database.db, bed.guard, { tenantId: bed.tenantId, endpointId, url: bed.receiver.url(newPath) }, TEST_AUDIT);
        const later = await bed.complete((await bed.session()).sessionId);
        await bed.settle();
        expect(bed.receiver.requests(oldPath).map((r) => r.eventId)).toEqual([queued, queued]);
        expect(bed.receiver.requests(newPath).map((r) => r.eventId)).toEqual([later]);
      });

      test('rule 9: routing by subscribed kind, by pairId scope, and account-wide', async () => {
        await isolate();
        const pair2 = await bed.secondPair();
        const completedOnly = await bed.endpoint(fresh('rule9-completed'), ['verification.completed']);
        const scoped = await bed.endpoint(fresh('rule9-pair2'), ['session.started', 'verification.completed'], { pairId: pair2 });
        const accountWide = await bed.endpoint(fresh('rule9-all'), ['session.started']);
        const s1 = await bed.session();
        const c1 = await bed.complete(s1.sessionId);
        const s2 = await bed.session({ pairId: pair2 });
        const c2 = await bed.complete(s2.sessionId);
        const routed = async (eventId: string) =>
          (await bed.database.db.select({ endpointId: webhookDeliveries.endpointId }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)))
            .map((r) => r.endpointId)
            .sort();
        expect(await routed(s1.startedEventId)).toEqual([accountWide.endpointId]);
        expect(await routed(c1)).toEqual([completedOnly.endpointId]);
        expect(await routed(s2.startedEventId)).toEqual([scoped.endpointId, accountWide.endpointId].sort());
        expect(await routed(c2)).toEqual([completedOnly.endpointId, scoped.endpointId].sort());
        await bed.run();
      });

      test('rule 10: redeliver sends the last 7 days of undelivered events in batches of ≤ 500, original eventId and body, current secret', async () => {
        await isolate();
        const path = fresh('rule10');
        const { endpointId } = await bed.endpoint(path, ['verification.failed']);
        const db = bed.database.db;
        // One event that was sent and rejected: its body was fixed at that first send.
        bed.receiver.script(path, [], { status: 404 });
        const failedOnce = await bed.complete((await bed.session()).sessionId, 'failed');
        await bed.settle();
        const originalBody = bed.receiver.requests(path)[0]!.text;
        expect(await bed.delivery(failedOnce, endpointId)).toMatchObject({ status: 'undelivered' });
        // 520 more undelivered events: 505 within the last 7 days, 15 older (bulk-inserted).
        const { sessionId } = await bed.session();
        const now = bed.clock.now().getTime();
        await db.execute(sql`
          insert into events (id, tenant_id, session_id, pair_id, kind, test, data, occurred_at, created_at)
          select 'evt_bulk_' || g, ${bed.tenantId}, ${sessionId}, ${bed.pairId}, 'verification.failed', false,
                 jsonb_build_object('sessionId', ${sessionId}::text, 'verified', false, 'verificationMode', 'L1', 'reason', 'age_not_met', 'challengeAge', 25, 'timestamp', 'x'),
                 to_timestamp((${now}::float8 - (case when g <= 505 then 6 else 8 end) * 86400000 + g) / 1000), to_timestamp((${now}::float8 - (case when g <= 505 then 6 else 8 end) * 86400000 + g) / 1000)
          from generate_series(1, 520) g`);
        await db.execute(sql`
          insert into webhook_deliveries (id, tenant_id, event_id, endpoint_id, url, policy, status, undelivered_reason, next_attempt_at, deadline_at, created_at, settled_at)
          select 'dlv_bulk_' || g, ${bed.tenantId}, 'evt_bulk_' || g, ${endpointId}, ${bed.receiver.url(path)}, 'in-request', 'undelivered', 'endpoint_paused',
                 e.created_at, e.created_at + interval '1 day', e.created_at, e.created_at
          from generate_series(1, 520) g join events e on e.id = 'evt_bulk_' || g`);
        // The endpoint's secret changed since (rotated): redelivery signs with the current one.
        const rotated = 'whsec_cm90YXRlZC1zZWNyZXQtZm9yLXJlZGVsaXZlcnktdGVzdHMhIQ==';
        await db.update(webhookEndpoints).set({ secret: rotated }).where(eq(webhookEndpoints.id, endpointId));
        bed.receiver.expectSecret(path, rotated);
        bed.receiver.script(path, [], { status: 200 });
        bed.clock.advance(DAY);
        const request = await redeliverEndpoint({ db, clock: bed.clock, guard: bed.guard }, bed.tenantId, endpointId);
        expect(request).toMatchObject({ undeliveredEvents: 506, batches: 2 });
        const before = bed.receiver.requests(path).length;
        // Batch 1: at most 500 in flight at once; batch 2 only after batch 1 settled.
        await bed.dispatcher.housekeeping();
        const pendingAfterRelease = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
        expect(pendingAfterRelease[0]!.n).toBe(500);
        await bed.settle();
        await bed.settle();
        await bed.run(); // the request is done once no batch is left
        const redelivered = bed.receiver.requests(path).slice(before);
        expect(redelivered).toHaveLength(506);
        expect(redelivered.every((r) => r.serviceSignatureValid === true && r.standardSignatureValid === true)).toBe(true);
        const again = redelivered.find((r) => r.eventId === failedOnce)!;
        expect(again.text).toBe(originalBody);
        expect(redelivered.some((r) => r.eventId === 'evt_bulk_506')).toBe(false); // 8 days old
        const health = (await endpointHealth(db, bed.clock.now(), bed.tenantId, endpointId))[0]!;
        expect(health.redelivery).toMatchObject({ status: 'done', batches: 2, queued: 506 });
        expect(health.undeliveredEvents).toBe(15);
      }, 30_000);

      test('rule 11: resuming a paused endpoint does not resend past events', async () => {
        await isolate();
        const path = fresh('rule11');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await driveToPaused(bed, endpointId, path);
        const missed = await bed.complete((await bed.session()).sessionId);
        bed.receiver.script(path, [], { status: 200 });
        const before = bed.receiver.requests(path).length;
        const resumed = await testEndpoint({ db: bed.database.db, clock: bed.clock, guard: bed.guard }, bed.tenantId, endpointId, TEST_AUDIT);
        expect(resumed).toMatchObject({ delivered: true, resumed: true, state: 'active' });
        await bed.settle();
        const after = bed.receiver.requests(path).slice(before);
        expect(after).toHaveLength(1); // the test event only
        expect(after[0]!.json).toMatchObject({ test: true });
        expect(after.some((r) => r.eventId === missed)).toBe(false);
        expect((await bed.delivery(missed, endpointId)).status).toBe('undelivered');
      });

      test('rule 12: the legacy webhook receives events until the first endpoint exists; creating it migrates URL, secret and events', async () => {
        await isolate();
        const db = bed.database.db;
        const { createTenant } = await import('../../tenants/service');
        const legacyTenant = await createTenant(db, bed.clock, { name: 'Legacy', domains: ['legacy.example.com'], sandbox: false });
        const path = fresh('rule12-legacy');
        const legacySecret = 'legacy-shared-secret-v0';
        await setLegacyWebhook(
          db,
          bed.guard,
          {
            tenantId: legacyTenant.tenantId,
            url: bed.receiver.url(path),
            secret: legacySecret,
            events: ['verification.completed'],
          },
          TEST_AUDIT,
        );
        bed.receiver.expectSecret(path, legacySecret);
        const legacyBed = { ...bed, tenantId: legacyTenant.tenantId, pairId: legacyTenant.pairId };
        const sessionIn = async () => {
          const { completeSession } = await import('../../sessions/session-state');
          const s = await createSessionFor(bed, legacyTenant.tenantId, legacyTenant.pairId);
          await completeSession(db, s, 'verified', bed.clock.now());
          return s;
        };
        await sessionIn();
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(1);
        expect(bed.receiver.requests(path)[0]!.serviceSignatureValid).toBe(true);
        // The first endpoint migrates the legacy configuration: two endpoints now, legacy columns cleared.
        const newPath = fresh('rule12-new');
        const created = await addEndpoint(
          db,
          bed.clock,
          bed.guard,
          {
            tenantId: legacyTenant.tenantId,
            url: bed.receiver.url(newPath),
            events: ['verification.completed'],
            enabled: true,
          },
          TEST_AUDIT,
        );
        bed.receiver.expectSecret(newPath, created.secret);
        expect(created.migratedLegacyEndpointId).toBeDefined();
        const migrated = await bed.endpointRow(created.migratedLegacyEndpointId!);
        expect(migrated).toMatchObject({ url: bed.receiver.url(path), secret: legacySecret, events: ['verification.completed'], legacy: false });
        const [tenant] = await db.select().from(tenants).where(eq(tenants.id, legacyTenant.tenantId));
        expect(tenant!.legacyWebhookUrl).toBeNull();
        await sessionIn();
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(2); // the migrated endpoint, same URL and secret
        expect(bed.receiver.requests(newPath)).toHaveLength(1);
        expect(bed.receiver.requests(path).every((r) => r.serviceSignatureValid)).toBe(true);
        void legacyBed;
      });

      test('limits: the legacy webhook is not counted among the 20 endpoints', async () => {
        const db = bed.database.db;
        const { createTenant } = await import('../../tenants/service');
        const t = await createTenant(db, bed.clock, { name: 'Limits', domains: ['limits.example.com'], sandbox: false });
        await setLegacyWebhook(
          db,
          bed.guard,
          { tenantId: t.tenantId, url: bed.receiver.url('/limits-legacy'), secret: 's', events: ['session.started'] },
          TEST_AUDIT,
        );
        await createSessionFor(bed, t.tenantId, t.pairId); // materialises the legacy row
        for (let i = 0; i < 19; i++)
          await addEndpoint(
            db,
            bed.clock,
            bed.guard,
            {
              tenantId: t.tenantId,
              url: bed.receiver.url(`/limits-${i}`),
              events: ['session.started'],
              enabled: false,
            },
            TEST_AUDIT,
          );
        // 19 + the migrated legacy endpoint = 20: the 21st is refused.
        await expect(
          addEndpoint(
            db,
            bed.clock,
            bed.guard,
            { tenantId: t.tenantId, url: bed.receiver.url('/limits-x'), events: ['session.started'], enabled: false },
            TEST_AUDIT,
          ),
        ).rejects.toThrow(/already has 20 webhook endpoints/);
        await db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.tenantId, t.tenantId));
      });
    });

    describe('dispatcher safety', () => {
      test('a crash after claim: the lease runs out, another instance re-claims and sends; the interrupted attempt is recorded', async () => {
        await isolate();
        const path = fresh('crash-after-claim');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        const eventId = await bed.complete((await bed.session()).sessionId);
        const crashed = createDispatcher({
          db: bed.database.db,
          clock: bed.clock,
          logger: silentLogger,
          guard: bed.guard,
          settings: bed.settings,
          workerId: 'crashed',
        });
        expect(await crashed.claim(10)).toHaveLength(1); // …and the process dies here
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(0); // still leased
        bed.clock.advance(bed.settings.leaseMs);
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(1);
        const [delivery] = await attemptsOf(eventId);
        expect(delivery!.status).toBe('delivered');
        expect(delivery!.attempts.map((a) => [a.attemptNumber, a.outcome])).toEqual([
          [1, 'interrupted'],
          [2, 'success'],
        ]);
        expect(delivery!.attempts[0]!.error).toContain('crashed');
        void endpointId;
      });

      test('a result recorded by a worker whose lease was taken over does not undo the new holder', async () => {
        await isolate();
        const path = fresh('stale-lease');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [{ status: 500 }], { status: 200 });
        const eventId = await bed.complete((await bed.session()).sessionId);
        const slow = createDispatcher({
          db: bed.database.db,
          clock: bed.clock,
          logger: silentLogger,
          guard: bed.guard,
          settings: bed.settings,
          workerId: 'slow',
        });
        const [stale] = await slow.claim(10);
        bed.clock.advance(bed.settings.leaseMs);
        await bed.run(); // the new holder delivers (the receiver's 500 went to... the new holder)
        await bed.settle();
        await slow.deliver(stale!); // the old holder finally records: a 200 now, harmless
        expect((await bed.delivery(eventId, endpointId)).status).toBe('delivered');
      });

      test('two dispatchers on separate connections never send the same attempt twice', async () => {
        await isolate();
        const path = fresh('two-dispatchers');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        const ids: string[] = [];
        for (let i = 0; i < 40; i++) ids.push(await bed.complete((await bed.session()).sessionId));
        // A second connection pool on PostgreSQL; PGlite has one connection, which serialises them.
        const second: Database | null = bed.database.url ? await openPostgres(bed.database.url, { max: 4 }) : null;
        try {
          const settings = { ...bed.settings, claimBatchSize: 5 };
          const a = createDispatcher({ db: bed.database.db, clock: bed.clock, logger: silentLogger, guard: bed.guard, settings, workerId: 'a' });
          const b = createDispatcher({ db: (second ?? bed.database).db, clock: bed.clock, logger: silentLogger, guard: bed.guard, settings, workerId: 'b' });
          const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
          expect(ra.length + rb.length).toBe(40);
          if (second) expect(ra.length > 0 && rb.length > 0).toBe(true);
        } finally {
          await second?.close();
        }
        const received = bed.receiver.requests(path);
        expect(received).toHaveLength(40);
        expect(new Set(received.map((r) => r.eventId)).size).toBe(40);
        const attempts = await bed.database.db.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpointId));
        expect(attempts).toHaveLength(40);
        for (const id of ids) expect((await bed.delivery(id, endpointId)).status).toBe('delivered');
      });

      test('pacing holds across dispatchers: a Retrying endpoint gets one request even when both claim at once', async () => {
        await isolate();
        const path = fresh('pacing-two');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [], { status: 503 });
        for (let i = 0; i < 6; i++) await bed.complete((await bed.session()).sessionId);
        await bed.run();
        expect((await bed.endpointRow(endpointId)).deliveryState).toBe('retrying');
        const second: Database | null = bed.database.url ? await openPostgres(bed.database.url, { max: 4 }) : null;
        try {
          const a = createDispatcher({ db: bed.database.db, clock: bed.clock, logger: silentLogger, guard: bed.guard, settings: bed.settings, workerId: 'a' });
          const b = createDispatcher({
            db: (second ?? bed.database).db,
            clock: bed.clock,
            logger: silentLogger,
            guard: bed.guard,
            settings: bed.settings,
            workerId: 'b',
          });
          for (let round = 0; round < 4; round++) {
            const due = await bed.nextDueAt();
            bed.clock.set(due!);
            const before = bed.receiver.requests(path).length;
            const [ca, cb] = await Promise.all([a.claim(10), b.claim(10)]);
            expect(ca.length + cb.length).toBe(1);
            await Promise.all([...ca.map(a.deliver), ...cb.map(b.deliver)]);
            expect(bed.receiver.requests(path).length - before).toBe(1);
          }
        } finally {
          await second?.close();
        }
        await bed.database.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
      });
    });
  });
}

/** A PENDING session of another tenant, created like POST /sessions/create does (event in the same transaction). */
async function createSessionFor(bed: Testbed, tenantId: string, pairId: string): Promise<string> {
  const { sessionId } = await seedStartedSession(bed.database.db, { tenantId, pairId, now: bed.clock.now(), returnUrl: 'https://legacy.example.com/' });
  return sessionId;
}
