/**
 * The endpoint state machine, row by row of the spec table "Webhook endpoint delivery", with
 * time moved by hand (no sleeping): first its decisions alone, then every row end to end on every
 * database target (guarded UPDATEs and side effects: settled deliveries, notices, one email per
 * pause), against a real HTTPS receiver whose answers are scripted.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { dashboardNotices, emailOutbox, webhookEndpoints } from '../../../db/schema';
import { TARGETS } from '../../../testing/test-databases';
import type { AttemptResult } from '../delivery/retry-policy';
import { DEFAULT_WEBHOOK_SETTINGS as S } from '../settings';
import { createTestbed, driveToPaused, type Testbed } from '../testing/testbed';
import { redeliverEndpoint, setEndpointEnabled } from './endpoint-config';
import { decideAfterAttempt, effectiveState, type EndpointRow } from './endpoint-state';
import { endpointHealth } from './health';
import { testEndpoint } from './test-endpoint';
import { TEST_AUDIT } from '../../audit/testing/audit-kit';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const endpoint = (fields: Partial<EndpointRow> = {}): EndpointRow => ({
  id: 'whe_1',
  tenantId: 'ten_1',
  url: 'https://hooks.example.com/',
  secret: 'whsec_x',
  events: ['verification.completed'],
  pairId: null,
  enabled: true,
  createdAt: T0,
  legacy: false,
  deliveryState: 'active',
  consecutiveFailures: 0,
  failingSince: null,
  rejectingSince: null,
  lastFailureAt: null,
  lastFailureReason: null,
  retryAt: null,
  probeLeaseUntil: null,
  pausedAt: null,
  pauseReason: null,
  ...fields,
});
const r = (
  statusCode: number | null,
  errorClass: AttemptResult['errorClass'] = statusCode !== null && statusCode < 300 ? null : 'http',
  retryAfter: string | null = null,
): AttemptResult => ({
  statusCode,
  errorClass,
  errorMessage: null,
  retryAfter,
  durationMs: 1,
});

/** Applies a decision to an in-memory row, as the guarded UPDATE would. */
function step(row: EndpointRow, result: AttemptResult, now: Date): EndpointRow {
  const decision = decideAfterAttempt(row, result, now, S);
  return decision.kind === 'none' ? row : { ...row, ...decision.change };
}

describe('effective state', () => {
  test('Disabled is enabled = false whatever the delivery state', () => {
    expect(effectiveState(endpoint({ enabled: false, deliveryState: 'paused' }))).toBe('disabled');
    expect(effectiveState(endpoint({ deliveryState: 'retrying' }))).toBe('retrying');
  });
});

describe('Active → Retrying on repeated delivery failures', () => {
  test('one failure keeps it Active (counted), the second makes it Retrying with a next retry time', () => {
    const once = step(endpoint(), r(500), T0);
    expect(once).toMatchObject({ deliveryState: 'active', consecutiveFailures: 1, failingSince: T0 });
    const twice = step(once, r(503), at(5_000));
    expect(twice).toMatchObject({ deliveryState: 'retrying', consecutiveFailures: 2, failingSince: T0, retryAt: at(10_000) });
  });
  test('a 2xx in Active after one failure clears the count', () => {
    expect(step(step(endpoint(), r(500), T0), r(200), at(1000))).toMatchObject({ deliveryState: 'active', consecutiveFailures: 0, failingSince: null });
  });
  test('a clean Active endpoint is not written on success (no row churn under load)', () => {
    expect(decideAfterAttempt(endpoint(), r(200), T0, S)).toEqual({ kind: 'none' });
  });
  test('the probe spacing grows 5 s, 10 s, 20 s … and is capped at 10 min', () => {
    let row = step(step(endpoint(), r(500), T0), r(500), T0);
    const gaps: number[] = [row.retryAt!.getTime() - T0.getTime()];
    for (let i = 0; i < 10; i++) {
      row = step(row, r(500), T0);
      gaps.push(row.retryAt!.getTime() - T0.getTime());
    }
    expect(gaps).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000, 600_000, 600_000]);
  });
  test('Retry-After on 429/503 spaces the next request (up to 1 h)', () => {
    const row = step(step(endpoint(), r(500), T0), r(429, 'http', '7200'), T0);
    expect(row.retryAt).toEqual(at(HOUR));
  });
});

describe('Retrying → Active when the endpoint returns 2xx', () => {
  test('normal pacing resumes and the failure clocks reset', () => {
    const retrying = endpoint({
      deliveryState: 'retrying',
      consecutiveFailures: 7,
      failingSince: T0,
      rejectingSince: T0,
      retryAt: at(HOUR),
      probeLeaseUntil: at(HOUR),
    });
    expect(step(retrying, r(204), at(2 * HOUR))).toMatchObject({
      deliveryState: 'active',
      consecutiveFailures: 0,
      failingSince: null,
      rejectingSince: null,
      retryAt: null,
      probeLeaseUntil: null,
    });
  });
});

describe('Retrying → Paused after rejections lasting at least 1 hour', () => {
  const retrying = (since: Date) => endpoint({ deliveryState: 'retrying', consecutiveFailures: 5, failingSince: since, rejectingSince: since });
  for (const status of [401, 403, 404, 410]) {
    test(`HTTP ${status}: still Retrying at 59:59, Paused at 1:00:00`, () => {
      expect(step(retrying(T0), r(status), at(HOUR - 1000)).deliveryState).toBe('retrying');
      const paused = step(retrying(T0), r(status), at(HOUR));
      expect(paused).toMatchObject({ deliveryState: 'paused', pausedAt: at(HOUR) });
      expect(paused.pauseReason).toContain(`HTTP ${status}`);
      expect(paused.pauseReason).toContain('1 hour');
    });
  }
  test('a non-public destination is a rejection too', () => {
    expect(step(retrying(T0), r(null, 'destination'), at(HOUR)).deliveryState).toBe('paused');
  });
  test('a 5xx in between restarts the rejection clock (rejections must last the hour)', () => {
    const mixed = step(retrying(T0), r(500), at(30 * MIN));
    expect(mixed.rejectingSince).toBeNull();
    const rejectedAgain = step(mixed, r(404), at(31 * MIN));
    expect(rejectedAgain.rejectingSince).toEqual(at(31 * MIN));
    expect(step(rejectedAgain, r(404), at(HOUR + 30 * MIN)).deliveryState).toBe('retrying');
    expect(step(rejectedAgain, r(404), at(HOUR + 31 * MIN)).deliveryState).toBe('paused');
  });
});

describe('Retrying → Paused after other failures lasting at least 24 hours', () => {
  const retrying = endpoint({ deliveryState: 'retrying', consecutiveFailures: 100, failingSince: T0 });
  const kinds: [string, AttemptResult][] = [
    ['5xx', r(502)],
    ['timeout', r(null, 'timeout')],
    ['connection', r(null, 'connection')],
    ['TLS', r(null, 'tls')],
    ['DNS', r(null, 'dns')],
  ];
  for (const [name, result] of kinds) {
    test(`${name}: still Retrying at 23:59:59, Paused at 24:00:00`, () => {
      expect(step(retrying, result, at(24 * HOUR - 1000)).deliveryState).toBe('retrying');
      const paused = step(retrying, result, at(24 * HOUR));
      expect(paused.deliveryState).toBe('paused');
      expect(paused.pauseReason).toContain('24 hours');
    });
  }
  test('a 5xx lasting 2 hours does not pause (the 1 h rule is for rejections only)', () => {
    expect(step(retrying, r(500), at(2 * HOUR)).deliveryState).toBe('retrying');
  });
});

describe('Paused and Disabled change only by an operator action', () => {
  test('a response still in flight when the endpoint paused does not resume it', () => {
    expect(decideAfterAttempt(endpoint({ deliveryState: 'paused', pausedAt: T0 }), r(200), at(1000), S)).toEqual({ kind: 'none' });
  });
  test('nor does it change a disabled endpoint', () => {
    expect(decideAfterAttempt(endpoint({ enabled: false }), r(500), at(1000), S)).toEqual({ kind: 'none' });
  });
});

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
    /** Each test's routing is its own: earlier tests' endpoints (and their deliveries) go. */
    const isolate = async () => {
      await bed.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.tenantId, bed.tenantId));
    };

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
        expect({ url: row.url, events: row.events, enabled: row.enabled, secret: row.secret }).toEqual({
          url: before.url,
          events: before.events,
          enabled: true,
          secret: before.secret,
        });
        expect((await bed.delivery(queued, endpointId)).undeliveredReason).toBe('endpoint_paused');
        const notices = await bed.database.db.select().from(dashboardNotices).where(eq(dashboardNotices.endpointId, endpointId));
        expect(notices).toHaveLength(1);
        const emails = await bed.database.db
          .select()
          .from(emailOutbox)
          .where(sql`${emailOutbox.dedupeKey} like ${`%${endpointId}%`}`);
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
        const emails = await bed.database.db
          .select()
          .from(emailOutbox)
          .where(sql`${emailOutbox.dedupeKey} like ${`%${endpointId}%`}`);
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
        await driveToPaused(bed, paused.endpointId, pausedPath);
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
        await driveToPaused(bed, endpointId, path);
        const deps = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
        bed.receiver.script(path, [{ status: 500 }], { status: 200 });
        expect(await testEndpoint(deps, bed.tenantId, endpointId, TEST_AUDIT)).toMatchObject({
          delivered: false,
          resumed: false,
          state: 'paused',
          statusCode: 500,
        });
        const result = await testEndpoint(deps, bed.tenantId, endpointId, TEST_AUDIT);
        expect(result).toMatchObject({ delivered: true, resumed: true, state: 'active', event: 'verification.failed' });
        const testRequest = bed.receiver.requests(path).at(-1)!;
        expect(testRequest.serviceSignatureValid).toBe(true);
        expect(testRequest.standardSignatureValid).toBe(true);
        expect(testRequest.json).toMatchObject({
          event: 'verification.failed',
          test: true,
          tenantId: bed.tenantId,
          data: { verified: false, reason: 'age_not_met' },
        });
        expect(testRequest.eventId).toBe(result.eventId);
        void secret;
        const notices = await bed.database.db.select().from(dashboardNotices).where(eq(dashboardNotices.endpointId, endpointId));
        expect(notices.every((n) => n.resolvedAt !== null)).toBe(true);
      });

      test('one email per pause: a second pause after resuming sends a second email, never more', async () => {
        await isolate();
        const path = fresh('two-pauses');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await driveToPaused(bed, endpointId, path);
        bed.receiver.script(path, [], { status: 200 });
        await testEndpoint({ db: bed.database.db, clock: bed.clock, guard: bed.guard }, bed.tenantId, endpointId, TEST_AUDIT);
        await driveToPaused(bed, endpointId, path);
        const emails = await bed.database.db
          .select()
          .from(emailOutbox)
          .where(sql`${emailOutbox.dedupeKey} like ${`%${endpointId}%`}`);
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
        const result = await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false, TEST_AUDIT);
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
        await driveToPaused(bed, pausedEndpoint.endpointId, p);
        expect(await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, pausedEndpoint.endpointId, false, TEST_AUDIT)).toMatchObject({
          state: 'disabled',
        });
      });

      test('Disabled → Active on re-enable; recent undelivered events can then be redelivered', async () => {
        await isolate();
        const path = fresh('reenable');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, false, TEST_AUDIT);
        const missed = await bed.complete((await bed.session()).sessionId);
        await bed.run();
        expect(bed.receiver.requests(path)).toHaveLength(0);
        const deps = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
        await expect(redeliverEndpoint(deps, bed.tenantId, endpointId)).rejects.toThrow(/disabled; enable it first/);
        expect(await setEndpointEnabled(bed.database.db, bed.clock, bed.tenantId, endpointId, true, TEST_AUDIT)).toMatchObject({
          state: 'active',
          changed: true,
        });
        expect(await redeliverEndpoint(deps, bed.tenantId, endpointId)).toMatchObject({ undeliveredEvents: 1 });
        await bed.settle();
        expect(bed.receiver.requests(path).map((r) => r.eventId)).toEqual([missed]);
        expect((await bed.delivery(missed, endpointId)).status).toBe('delivered');
      });

      test('redeliver waits while the endpoint is Retrying and is refused while Paused', async () => {
        await isolate();
        const path = fresh('redeliver-wait');
        const { endpointId } = await bed.endpoint(path, ['verification.completed']);
        await driveToPaused(bed, endpointId, path);
        const deps = { db: bed.database.db, clock: bed.clock, guard: bed.guard };
        await expect(redeliverEndpoint(deps, bed.tenantId, endpointId)).rejects.toThrow(/paused; use test and resume first/);
      });
    });
  });
}
