/**
 * Webhook delivery end to end, on every database target: the outbox, every Delivery rule (spec
 * "Events", rules 1–12) and every row of the "Webhook endpoint delivery" state table, against a
 * real HTTPS receiver whose answers are scripted. Time moves through the manual clock (1 h, 24 h,
 * 7 days) and never by sleeping.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, sql } from 'drizzle-orm';
import { dashboardNotices, emailOutbox, events, sessions, tenants, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema';
import { openPostgres, type Database } from '../../../db/database';
import { silentLogger } from '../../../log';
import { TARGETS } from '../../../testing/test-databases';
import { seedStartedSession } from '../../../testing/seed-session';
import { recordEvent } from '../../events/outbox';
import { createDispatcher } from './dispatcher';
import { addEndpoint, redeliverEndpoint, setEndpointEnabled, setLegacyWebhook, updateEndpoint } from '../endpoints/endpoint-config';
import { testEndpoint } from '../endpoints/test-endpoint';
import { endpointHealth, eventAttempts } from '../endpoints/health';
import { attemptDelivery } from './attempt';
import { createTestbed, type Testbed } from '../testing/testbed';

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
    const envelope = (text: string) => JSON.parse(text) as { event: string; timestamp: string; tenantId: string; test: boolean; data: Record<string, unknown> };
    /** Each test's routing is its own: earlier tests' endpoints (and their deliveries) go. */
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

    describe('outbox and envelope', () => {
      test('the event and its deliveries are written in the transaction of the state change: a rollback leaves neither', async () => {
        await isolate();
        await bed.endpoint(fresh('outbox'), ['session.started']);
        const before = await bed.database.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
        const sessionId = (await bed.session()).sessionId;
        const [session] = await bed.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
        await expect(
          bed.database.db.transaction(async (tx) => {
            await recordEvent(tx, { kind: 'verification.failed', session: session!, occurredAt: bed.clock.now(), createdAt: bed.clock.now(), reason: 'age_not_met' });
            throw new Error('state change failed');
          }),
        ).rejects.toThrow('state change failed');
        const failed = await bed.database.db.select().from(events).where(and(eq(events.sessionId, sessionId), eq(events.kind, 'verification.failed')));
        expect(failed).toHaveLength(0);
        const after = await bed.database.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
        expect(after[0]!.n).toBe(before[0]!.n + 1); // only session.started's delivery
        await bed.run();
      });

      test('completion: envelope fields in order, timestamp = event creation time, eventId in data, externalUserId only when given', async () => {
        await isolate();
        const path = fresh('completion');
        await bed.endpoint(path, ['verification.completed']);
        const withUser = await bed.session({ externalUserId: 'user-42' });
        const createdAt = bed.clock.now();
        const eventId = await bed.complete(withUser.sessionId);
        const without = await bed.session();
        const otherId = await bed.complete(without.sessionId);
        bed.clock.advance(3 * SEC); // sent later: the timestamp stays the creation time
        await bed.run();
        const [first, second] = bed.receiver.requests(path);
        expect(Object.keys(envelope(first!.text))).toEqual(['event', 'timestamp', 'tenantId', 'test', 'data']);
        expect(envelope(first!.text)).toEqual({
          event: 'verification.completed',
          timestamp: createdAt.toISOString(),
          tenantId: bed.tenantId,
          test: false,
          data: { sessionId: withUser.sessionId, verified: true, verificationMode: 'L1', challengeAge: 25, timestamp: createdAt.toISOString(), externalUserId: 'user-42', eventId },
        });
        expect(first!.eventId).toBe(eventId);
        expect(envelope(second!.text).data).not.toHaveProperty('externalUserId');
        expect(envelope(second!.text).data.eventId).toBe(otherId);
      });

      test('timeout: envelope timestamp and data.timestamp are the session deadline; expiresAt and eventId present', async () => {
        await isolate();
        const path = fresh('timeout');
        await bed.endpoint(path, ['session.timeout']);
        const { sessionId } = await bed.session();
        const [session] = await bed.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
        bed.clock.advance(11 * MIN);
        const eventId = await bed.expire(sessionId);
        await bed.run();
        const body = envelope(bed.receiver.requests(path)[0]!.text);
        expect(body.timestamp).toBe(session!.expiresAt.toISOString());
        expect(body.data).toEqual({ sessionId, verificationMode: 'L1', challengeAge: 25, expiresAt: session!.expiresAt.toISOString(), timestamp: session!.expiresAt.toISOString(), eventId });
      });

      test('started/failed/cancelled: timestamp is the send time, fixed at the first send, identical for every endpoint and retry', async () => {
        await isolate();
        const a = fresh('send-time-a');
        const b = fresh('send-time-b');
        await bed.endpoint(a, ['verification.failed', 'verification.cancelled']);
        await bed.endpoint(b, ['verification.failed']);
        bed.receiver.script(b, [{ status: 500 }]);
        const failed = await bed.session();
        const occurred = bed.clock.now();
        const failedId = await bed.complete(failed.sessionId, 'failed');
        const cancelled = await bed.session();
        await bed.complete(cancelled.sessionId, 'cancelled');
        bed.clock.advance(7 * SEC);
        const sentAt = bed.clock.now();
        await bed.run();
        bed.clock.advance(30 * SEC);
        await bed.run(); // b's retry
        const toA = bed.receiver.requests(a).find((r) => r.eventId === failedId)!;
        const toB = bed.receiver.requests(b).filter((r) => r.eventId === failedId);
        expect(toB).toHaveLength(2);
        expect(envelope(toA.text).timestamp).toBe(sentAt.toISOString());
        expect(envelope(toA.text).data.timestamp).toBe(occurred.toISOString());
        expect(envelope(toA.text).data).toMatchObject({ verified: false, reason: 'age_not_met' });
        for (const r of toB) expect(r.text).toBe(toA.text);
        const cancel = envelope(bed.receiver.requests(a).find((r) => r.json?.event === 'verification.cancelled')!.text);
        expect(cancel.data).toMatchObject({ verified: false, reason: 'cancelled' });
      });

      test('sandbox sessions carry test: true', async () => {
        await isolate();
        const path = fresh('sandbox');
        await bed.endpoint(path, ['session.started']);
        await bed.session({ sandbox: true });
        await bed.run();
        expect(envelope(bed.receiver.requests(path)[0]!.text).test).toBe(true);
      });
    });

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
        await attemptDelivery({ url: claimed!.url, eventId, body: claimed!.body, secret: claimed!.secret, sentAt: bed.clock.now() }, bed.guard, { timeoutMs: 5_000 });
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
        expect(await bed.delivery(startedEventId, endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'attempts_exhausted', totalAttempts: 3 });
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
        await updateEndpoint(bed.database.db, bed.guard, { tenantId: bed.tenantId, endpointId, url: bed.receiver.url(newPath) });
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
          (await bed.database.db.select({ endpointId: webhookDeliveries.endpointId }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId))).map((r) => r.endpointId).sort();
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
        const pendingAfterRelease = await db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries).where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
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
        await pause(bed, endpointId, path);
        const missed = await bed.complete((await bed.session()).sessionId);
        bed.receiver.script(path, [], { status: 200 });
        const before = bed.receiver.requests(path).length;
        const resumed = await testEndpoint({ db: bed.database.db, clock: bed.clock, guard: bed.guard }, bed.tenantId, endpointId);
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
        await setLegacyWebhook(db, bed.guard, { tenantId: legacyTenant.tenantId, url: bed.receiver.url(path), secret: legacySecret, events: ['verification.completed'] });
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
        const created = await addEndpoint(db, bed.clock, bed.guard, { tenantId: legacyTenant.tenantId, url: bed.receiver.url(newPath), events: ['verification.completed'], enabled: true });
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
        await setLegacyWebhook(db, bed.guard, { tenantId: t.tenantId, url: bed.receiver.url('/limits-legacy'), secret: 's', events: ['session.started'] });
        await createSessionFor(bed, t.tenantId, t.pairId); // materialises the legacy row
        for (let i = 0; i < 19; i++) await addEndpoint(db, bed.clock, bed.guard, { tenantId: t.tenantId, url: bed.receiver.url(`/limits-${i}`), events: ['session.started'], enabled: false });
        // 19 + the migrated legacy endpoint = 20: the 21st is refused.
        await expect(addEndpoint(db, bed.clock, bed.guard, { tenantId: t.tenantId, url: bed.receiver.url('/limits-x'), events: ['session.started'], enabled: false })).rejects.toThrow(/already has 20 webhook endpoints/);
        await db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.tenantId, t.tenantId));
      });
    });

    describe('endpoint state table', () => {
      test('Retrying → Paused after rejections lasting ≥ 1 h: dashboard notice, one email to owners and admins, settings unchanged', async () => {
        await isolate();
        const path = fresh('pause-1h');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [], { status: 410 });
        const first = bed.clock.now().getTime();
        const queued = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        const before = await bed.endpointRow(endpointId);
        let pausedAt: number | null = null;
        for (let i = 0; i < 200 && pausedAt === null; i++) {
          await bed.step();
          const row = await bed.endpointRow(endpointId);
          if (row.deliveryState === 'paused') pausedAt = row.pausedAt!.getTime();
          else expect(bed.clock.now().getTime() - first).toBeLessThan(HOUR + 10 * MIN);
        }
        expect(pausedAt).not.toBeNull();
        expect(pausedAt! - first).toBeGreaterThanOrEqual(HOUR);
        expect(pausedAt! - first).toBeLessThanOrEqual(HOUR + 10 * MIN);
        const row = await bed.endpointRow(endpointId);
        expect(row.pauseReason).toContain('HTTP 410');
        expect({ url: row.url, events: row.events, enabled: row.enabled, secret: row.secret }).toEqual({ url: before.url, events: before.events, enabled: true, secret: before.secret });
        expect((await bed.delivery(queued, endpointId)).undeliveredReason).toBe('endpoint_paused');
        const notices = await bed.database.db.select().from(dashboardNotices).where(eq(dashboardNotices.endpointId, endpointId));
        expect(notices).toHaveLength(1);
        const emails = await bed.database.db.select().from(emailOutbox).where(sql`${emailOutbox.dedupeKey} like ${`%${endpointId}%`}`);
        expect(emails).toHaveLength(1);
        expect(emails[0]!.recipients).toHaveLength(2);
        expect(emails[0]!.recipients.some((r) => r.startsWith('owner-'))).toBe(true);
        expect(emails[0]!.recipients.some((r) => r.startsWith('admin-'))).toBe(true);
        expect(emails[0]!.recipients.some((r) => r.startsWith('developer-'))).toBe(false);
        const health = (await endpointHealth(bed.database.db, bed.clock.now(), bed.tenantId, endpointId))[0]!;
        expect(health).toMatchObject({ state: 'paused', health: 'paused', pause: { pausedAt: new Date(pausedAt!).toISOString() } });
        expect(health.undeliveredEvents).toBeGreaterThanOrEqual(1);
      });

      test('Retrying → Paused after other failures lasting ≥ 24 h (5xx with Retry-After: 1 h, so hourly requests)', async () => {
        await isolate();
        const path = fresh('pause-24h');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [], { status: 503, retryAfter: '3600' });
        const first = bed.clock.now().getTime();
        await bed.complete((await bed.session()).sessionId);
        await bed.run();
        let later: string | null = null;
        for (let i = 0; i < 60; i++) {
          await bed.step();
          const row = await bed.endpointRow(endpointId);
          if (row.deliveryState === 'paused') break;
          expect(row.deliveryState).toBe('retrying');
          expect(bed.clock.now().getTime() - first).toBeLessThan(DAY);
          // Traffic keeps coming while it fails.
          if (!later && bed.clock.now().getTime() - first >= 12 * HOUR) later = await bed.complete((await bed.session()).sessionId);
        }
        const row = await bed.endpointRow(endpointId);
        expect(row.deliveryState).toBe('paused');
        expect(row.pausedAt!.getTime() - first).toBe(DAY);
        expect(row.pauseReason).toContain('HTTP 503');
        expect(row.pauseReason).toContain('24 hours');
        expect((await bed.delivery(later!, endpointId)).undeliveredReason).toBe('endpoint_paused');
        const emails = await bed.database.db.select().from(emailOutbox).where(sql`${emailOutbox.dedupeKey} like ${`%${endpointId}%`}`);
        expect(emails).toHaveLength(1);
        // Hourly, as asked: the spacing honoured Retry-After (up to 1 h).
        const times = bed.receiver.requests(path).map((r) => r.receivedAt);
        expect(times.length).toBeLessThanOrEqual(26);
      });

      test('Paused: new events are recorded as not delivered and not sent; other endpoints are unaffected', async () => {
        await isolate();
        const pausedPath = fresh('paused');
        const otherPath = fresh('paused-other');
        const paused = await bed.endpoint(pausedPath, ['verification.completed']);
        const other = await bed.endpoint(otherPath, ['verification.completed']);
        await pause(bed, paused.endpointId, pausedPath);
        bed.receiver.script(pausedPath, [], { status: 200 });
        const before = bed.receiver.requests(pausedPath).length;
        const eventId = await bed.complete((await bed.session()).sessionId);
        await bed.settle();
        expect(await bed.delivery(eventId, paused.endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'endpoint_paused', totalAttempts: 0 });
        expect(bed.receiver.requests(pausedPath).length).toBe(before);
        expect((await bed.delivery(eventId, other.endpointId)).status).toBe('delivered');
      });

      test('Paused → Active by test and resume: the signed test event must succeed; a failing test keeps it Paused', async () => {
        await isolate();
        const path = fresh('resume');
        const { endpointId, secret } = await bed.endpoint(path, ['verification.failed', 'verification.completed']);
        await pause(bed, endpointId, path);
        const deps = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
        bed.receiver.script(path, [{ status: 500 }], { status: 200 });
        expect(await testEndpoint(deps, bed.tenantId, endpointId)).toMatchObject({ delivered: false, resumed: false, state: 'paused', statusCode: 500 });
        const result = await testEndpoint(deps, bed.tenantId, endpointId);
        expect(result).toMatchObject({ delivered: true, resumed: true, state: 'active', event: 'verification.failed' });
        const testRequest = bed.receiver.requests(path).at(-1)!;
        expect(testRequest.serviceSignatureValid).toBe(true);
        expect(testRequest.standardSignatureValid).toBe(true);
        expect(testRequest.json).toMatchObject({ event: 'verification.failed', test: true, tenantId: bed.tenantId, data: { verified: false, reason: 'age_not_met' } });
        expect(testRequest.eventId).toBe(result.eventId);
        void secret;
        const notices = await bed.database.db.select().from(dashboardNotices).where(eq(dashboardNotices.endpointId, endpointId));
        expect(notices.every((n) => n.resolvedAt !== null)).toBe(true);
      });

      test('one email per pause: a second pause after resuming sends a second email, never more', async () => {
        await isolate();
        const path = fresh('two-pauses');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await pause(bed, endpointId, path);
        bed.receiver.script(path, [], { status: 200 });
        await testEndpoint({ db: bed.database.db, clock: bed.clock, guard: bed.guard }, bed.tenantId, endpointId);
        await pause(bed, endpointId, path);
        const emails = await bed.database.db.select().from(emailOutbox).where(sql`${emailOutbox.dedupeKey} like ${`%${endpointId}%`}`);
        expect(emails).toHaveLength(2);
      });

      test('Active, Retrying or Paused → Disabled: new events and queued retries stop', async () => {
        await isolate();
        const path = fresh('disable');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [], { status: 503 });
        const queued = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        await bed.step();
        expect((await bed.endpointRow(endpointId)).deliveryState).toBe('retrying');
        const sent = bed.receiver.requests(path).length;
        const result = await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false);
        expect(result).toMatchObject({ state: 'disabled', changed: true });
        const fresh1 = await bed.complete((await bed.session()).sessionId);
        bed.clock.advance(HOUR);
        await bed.settle();
        expect(bed.receiver.requests(path).length).toBe(sent);
        expect(await bed.delivery(queued, endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'endpoint_disabled' });
        expect(await bed.delivery(fresh1, endpointId)).toMatchObject({ status: 'undelivered', undeliveredReason: 'endpoint_disabled' });
        // A paused endpoint can be disabled too.
        const p = fresh('disable-paused');
        const pausedEndpoint = await bed.endpoint(p, ['verification.completed']);
        await pause(bed, pausedEndpoint.endpointId, p);
        expect(await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, pausedEndpoint.endpointId, false)).toMatchObject({ state: 'disabled' });
      });

      test('Disabled → Active on re-enable; recent undelivered events can then be redelivered', async () => {
        await isolate();
        const path = fresh('reenable');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false);
        const missed = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(0);
        const deps = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
        await expect(redeliverEndpoint(deps, bed.tenantId, endpointId)).rejects.toThrow(/disabled; enable it first/);
        expect(await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, true)).toMatchObject({ state: 'active', changed: true });
        expect(await redeliverEndpoint(deps, bed.tenantId, endpointId)).toMatchObject({ undeliveredEvents: 1 });
        await bed.settle();
        expect(bed.receiver.requests(path).map((r) => r.eventId)).toEqual([missed]);
        expect((await bed.delivery(missed, endpointId)).status).toBe('delivered');
      });

      test('redeliver waits while the endpoint is Retrying and is refused while Paused', async () => {
        await isolate();
        const path = fresh('redeliver-wait');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await pause(bed, endpointId, path);
        const deps = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
        await expect(redeliverEndpoint(deps, bed.tenantId, endpointId)).rejects.toThrow(/paused; use test and resume first/);
      });
    });

    describe('dispatcher safety', () => {
      test('a crash after claim: the lease runs out, another instance re-claims and sends; the interrupted attempt is recorded', async () => {
        await isolate();
        const path = fresh('crash-after-claim');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        const eventId = await bed.complete((await bed.session()).sessionId);
        const crashed = createDispatcher({ db: bed.database.db, clock: bed.clock, logger: silentLogger, guard: bed.guard, settings: bed.settings, workerId: 'crashed' });
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
        const slow = createDispatcher({ db: bed.database.db, clock: bed.clock, logger: silentLogger, guard: bed.guard, settings: bed.settings, workerId: 'slow' });
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
          const b = createDispatcher({ db: (second ?? bed.database).db, clock: bed.clock, logger: silentLogger, guard: bed.guard, settings: bed.settings, workerId: 'b' });
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

    describe('health and attempts', () => {
      test('per endpoint: state, last successful delivery, undelivered count, last failure; per event: every attempt', async () => {
        await isolate();
        const path = fresh('health');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        bed.receiver.script(path, [{ status: 200 }, { status: 500 }, { status: 500 }]);
        const ok = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        const deliveredAt = bed.clock.now().toISOString();
        bed.clock.advance(MIN);
        const failing = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        await bed.step();
        const [health] = await endpointHealth(bed.database.db, bed.clock.now(), bed.tenantId, endpointId);
        expect(health).toMatchObject({
          endpointId,
          state: 'retrying',
          health: 'failing',
          lastSuccessfulDeliveryAt: deliveredAt,
          pendingDeliveries: 1,
          deliveredEvents: 1,
          consecutiveFailures: 2,
          lastFailure: { reason: 'HTTP 500' },
        });
        const detail = await eventAttempts(bed.database.db, bed.tenantId, failing);
        expect(detail!.deliveries[0]!.attempts.map((a) => [a.attemptNumber, a.statusCode, a.errorClass, a.outcome])).toEqual([
          [1, 500, 'http', 'failure'],
          [2, 500, 'http', 'failure'],
        ]);
        expect(detail!.deliveries[0]!.attempts.every((a) => typeof a.durationMs === 'number')).toBe(true);
        expect(await eventAttempts(bed.database.db, 'ten_other', ok)).toBeNull(); // tenant isolation
        await bed.database.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpointId));
      });
    });
  });
}

/** Drives an endpoint into Paused with an hour of 404s. */
async function pause(bed: Testbed, endpointId: string, path: string): Promise<void> {
  bed.receiver.script(path, [], { status: 404 });
  await bed.complete((await bed.session()).sessionId);
  for (let i = 0; i < 300; i++) {
    await bed.step();
    if ((await bed.endpointRow(endpointId)).deliveryState === 'paused') return;
  }
  throw new Error('endpoint did not pause');
}

/** A PENDING session of another tenant, created like POST /sessions/create does (event in the same transaction). */
async function createSessionFor(bed: Testbed, tenantId: string, pairId: string): Promise<string> {
  const { sessionId } = await seedStartedSession(bed.database.db, { tenantId, pairId, now: bed.clock.now(), returnUrl: 'https://legacy.example.com/' });
  return sessionId;
}
