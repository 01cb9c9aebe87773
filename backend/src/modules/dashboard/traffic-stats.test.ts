/**
 * The charts' figures (issue 23, Deliver 2) on both databases: a known set of sessions made through
 * the merchant API, the verify UI's API and the live-check route (with a stand-in engine), and a
 * known set of webhook deliveries and attempts, each counted exactly. Also the period's edges, the
 * live/sandbox split, tenant isolation and the refusals of bad input.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import type { SessionTrafficResponse, WebhookTrafficResponse } from '@ageverify/protocol';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { newId, randomBase62 } from '../../ids';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { TARGETS } from '../../testing/test-databases';
import { createKeyPair } from '../tenants/service';
import { liveHeadFrames } from '../engine/liveness/testing/synthetic-head';
import type { FaceAnalysis } from '../engine/faces/face-analysis';
import type { EngineFindings } from '../engine/model';
import { signedIn } from './testing/dashboard-kit';
import { periodOf } from './traffic-stats';
import { TEST_AUDIT } from '../audit/testing/audit-kit';

type Json = Record<string, any>;

const face = (estimatedAge: number) => ({
  faceCount: 1,
  face: {
    box: [0.3, 0.25, 0.4, 0.5],
    widthPx: 256,
    detectorScore: 0.9,
    yaw: 0,
    pitch: 0,
    roll: 0,
    brightness: 120,
    sharpness: 200,
    estimatedAge,
    antispoof: 0.8,
    liveness: 0.9,
    embedding: [1, 0],
  },
});
const ageEstimate = (estimatedAge: number): EngineFindings => ({ kind: 'age_estimation', frames: [face(estimatedAge) as never] });
const adultPassport: EngineFindings = {
  kind: 'document',
  documentType: 'passport',
  reading: {
    source: 'mrz',
    found: true,
    format: 'TD3',
    valid: true,
    invalidFields: [],
    birthDate: '900101',
    expirationDate: '300101',
    documentCode: 'P',
    agreeing: 2,
  },
  portrait: face(30) as never,
  frames: [face(30) as never],
};

const zero = { PENDING: 0, VERIFIED: 0, FAILED: 0, CANCELLED: 0, EXPIRED: 0 };

test('periodOf: the given number of UTC days up to and including today', () => {
  const { period, start, end, dayKeys } = periodOf(new Date('2026-03-01T00:30:00+02:00'), 3);
  // 00:30 at +02:00 is still 28 February in UTC.
  expect(period).toEqual({ days: 3, from: '2026-02-26', to: '2026-02-28' });
  expect(dayKeys).toEqual(['2026-02-26', '2026-02-27', '2026-02-28']);
  expect([start.toISOString(), end.toISOString()]).toEqual(['2026-02-26T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
});

for (const target of TARGETS) {
  describe(`dashboard traffic figures [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    let otherTenantId: string;
    let liveKey: string;
    let sandboxKey: string;
    let owner: Awaited<ReturnType<typeof signedIn>>;
    const findings: EngineFindings[] = [];
    const engine = {
      run: async () => {
        const next = findings.shift();
        if (!next) throw new Error('test engine: no findings queued');
        return { findings: next, timings: {} };
      },
    };

    const sessionStats = (query = '') => owner.json<SessionTrafficResponse>('GET', `/dashboard/api/tenants/${tenantId}/stats/sessions${query}`, undefined, 200);
    const webhookStats = (query = '') => owner.json<WebhookTrafficResponse>('GET', `/dashboard/api/tenants/${tenantId}/stats/webhooks${query}`, undefined, 200);

    async function create(key: string, at: string, body: Json = {}): Promise<{ sessionId: string; sessionToken: string }> {
      ctx.clock.set(new Date(at));
      const response = await ctx.request('POST', '/api/v1/sessions/create', { key, body: { returnUrl: 'https://shop.example.com/back', ...body } });
      expect(response.status).toBe(201);
      return ctx.json(response);
    }
    const verify = async (path: string, session: { sessionId: string; sessionToken: string }, extra: Json = {}) => {
      const response = await ctx.request('POST', `/api/v1/verify/${path}`, {
        body: { sessionId: session.sessionId, sessionToken: session.sessionToken, ...extra },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return ctx.json(response);
    };
    const open = (session: { sessionId: string; sessionToken: string }) => verify('session', session);
    const simulate = (session: { sessionId: string; sessionToken: string }, outcome: string) => verify('simulate', session, { outcome });
    const validate = async (key: string, sessionId: string) => {
      const response = await ctx.request('POST', '/api/v1/sessions/validate', { key, body: { sessionId } });
      expect(response.status).toBe(200);
    };
    /** A check as the verify UI sends it; a selfie answers the session's liveness challenge, followed by a live head (synthetic-head.ts). */
    async function check(session: { sessionId: string; sessionToken: string }, kind: 'age_estimation' | 'document', result: EngineFindings) {
      const form = new FormData();
      form.append('sessionId', session.sessionId);
      form.append('sessionToken', session.sessionToken);
      form.append('check', kind);
      if (kind === 'document') form.append('documentType', 'passport');
      const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' });
      if (kind === 'document') {
        findings.push(result);
        form.append('document', jpeg, 'image.jpg');
      } else {
        const challenge = await verify('challenges', session);
        const live = liveHeadFrames(result.frames[0] as FaceAnalysis, challenge.moves);
        findings.push({ ...result, frames: live.frames });
        form.append('challengeId', challenge.challengeId);
        form.append('selfieSteps', live.steps.join(','));
        for (const _ of live.steps) form.append('selfie', jpeg, 'image.jpg');
      }
      const response = await ctx.app.handle(new Request('http://localhost:3000/api/v1/verify/checks', { method: 'POST', body: form }));
      expect(response.status, await response.clone().text()).toBe(200);
      return ctx.json(response);
    }

    beforeAll(async () => {
      ctx = await createTestContext(target, { engine, l1AgeMargin: 5 });
      ctx.clock.set(new Date('2026-04-01T08:00:00Z'));
      const live = await ctx.tenant({ sandbox: false });
      tenantId = live.tenantId;
      liveKey = live.secretKey;
      sandboxKey = (await createKeyPair(ctx.database.db, ctx.clock, tenantId, true, undefined, TEST_AUDIT)).secretKey;
      owner = await signedIn(ctx, tenantId, 'owner');
      const other = await ctx.tenant({ sandbox: true, name: 'Other Shop' });
      otherTenantId = other.tenantId;

      // Outside a 30-day period ending 2026-05-20, inside a 31-day one: a live L1 session left PENDING.
      await create(liveKey, '2026-04-20T23:59:59Z', { verificationMode: 'L1' });

      // 2026-05-18, sandbox: verified and validated, failed, cancelled; the UI loaded each.
      const a = await create(sandboxKey, '2026-05-18T09:00:00Z');
      await open(a);
      await simulate(a, 'verified');
      await validate(sandboxKey, a.sessionId);
      const b = await create(sandboxKey, '2026-05-18T09:10:00Z');
      await open(b);
      await simulate(b, 'failed');
      const c = await create(sandboxKey, '2026-05-18T09:20:00Z');
      await open(c);
      await simulate(c, 'cancelled');

      // 2026-05-19, sandbox: verified through the simulate API alone (never opened, never captured);
      // one created five minutes before midnight, never finished: past its deadline at 00:05.
      const d = await create(sandboxKey, '2026-05-19T12:00:00Z');
      await simulate(d, 'verified');
      await create(sandboxKey, '2026-05-19T23:55:00Z');

      // 2026-05-20 (today), live. F: L1, inconclusive estimate, steps up, a passport verifies; validated.
      const f = await create(liveKey, '2026-05-20T09:00:00Z', { verificationMode: 'L1', challengeAge: 25, faceMatchEnabled: false });
      await open(f);
      expect(await check(f, 'age_estimation', ageEstimate(22))).toMatchObject({ decision: 'step_up' });
      expect(await check(f, 'document', adultPassport)).toMatchObject({ decision: 'verified' });
      await validate(liveKey, f.sessionId);
      // G: L1, a clear estimate verifies at once.
      const g = await create(liveKey, '2026-05-20T09:10:00Z', { verificationMode: 'L1', challengeAge: 25 });
      await open(g);
      expect(await check(g, 'age_estimation', ageEstimate(40))).toMatchObject({ decision: 'verified' });
      // I: L1, steps up, then the user closes the window.
      const i = await create(liveKey, '2026-05-20T09:20:00Z', { verificationMode: 'L1', challengeAge: 25, faceMatchEnabled: false });
      await open(i);
      await open(i); // a reload is not a second opening
      expect(await check(i, 'age_estimation', ageEstimate(22))).toMatchObject({ decision: 'step_up' });
      await verify('cancel', i);
      // H: L2, created, still pending at 10:00.
      await create(liveKey, '2026-05-20T09:58:00Z', { verificationMode: 'L2' });

      // Another tenant's sessions are never counted.
      const stranger = await create(other.secretKey, '2026-05-20T09:30:00Z');
      await simulate(stranger, 'verified');

      ctx.clock.set(new Date('2026-05-20T10:00:00Z'));
    });
    afterAll(() => ctx.close());

    test('sandbox sessions per day by status over 30 days, with the funnel: the known set exactly', async () => {
      const stats = await sessionStats('?sandbox=true');
      expect(stats.period).toEqual({ days: 30, from: '2026-04-21', to: '2026-05-20' });
      expect(stats.sandbox).toBe(true);
      expect(stats.perDay).toHaveLength(30);
      expect(stats.perDay[0]!.day).toBe('2026-04-21');
      const days = Object.fromEntries(stats.perDay.filter((day) => day.total > 0).map((day) => [day.day, day.counts]));
      expect(days).toEqual({
        '2026-05-18': { ...zero, VERIFIED: 1, FAILED: 1, CANCELLED: 1 },
        // The session past its deadline counts as expired before any sweep wrote it so.
        '2026-05-19': { ...zero, VERIFIED: 1, EXPIRED: 1 },
      });
      expect(stats.totals).toEqual({ ...zero, VERIFIED: 2, FAILED: 1, CANCELLED: 1, EXPIRED: 1, total: 5 });
      // Simulated outcomes skip the capture; the cancelled session was no decision.
      expect(stats.funnel).toEqual({ created: 5, opened: 3, captured: 0, decided: 3, validated: 1 });
      expect(stats.stepUp).toEqual({ l1Sessions: 5, estimated: 0, steppedUp: 0, finished: 0, verified: 0 });
    });

    test('live sessions: the funnel and the L1 → document step-up with its completion', async () => {
      const stats = await sessionStats('?sandbox=false');
      expect(stats.perDay.at(-1)).toEqual({ day: '2026-05-20', counts: { ...zero, VERIFIED: 2, CANCELLED: 1, PENDING: 1 }, total: 4 });
      expect(stats.totals).toEqual({ ...zero, VERIFIED: 2, CANCELLED: 1, PENDING: 1, total: 4 });
      expect(stats.funnel).toEqual({ created: 4, opened: 3, captured: 3, decided: 2, validated: 1 });
      // F, G and I had an estimate; F and I stepped up; F finished (verified), I was cancelled. H is L2.
      expect(stats.stepUp).toEqual({ l1Sessions: 3, estimated: 3, steppedUp: 2, finished: 1, verified: 1 });
    });

    test('without a filter live and sandbox add up; days widens the period by whole UTC days', async () => {
      const all = await sessionStats();
      expect(all.sandbox).toBeNull();
      expect(all.totals.total).toBe(9);
      expect(all.funnel).toEqual({ created: 9, opened: 6, captured: 3, decided: 5, validated: 2 });
      const wider = await sessionStats('?days=31');
      expect(wider.period).toEqual({ days: 31, from: '2026-04-20', to: '2026-05-20' });
      expect(wider.perDay[0]).toEqual({ day: '2026-04-20', counts: { ...zero, EXPIRED: 1 }, total: 1 });
      expect(wider.totals.total).toBe(10);
      const today = await sessionStats('?days=1');
      expect(today.perDay).toHaveLength(1);
      expect(today.totals.total).toBe(4);
    });

    test('bad input is refused with a 400 that says what is wrong', async () => {
      for (const days of ['0', '91', 'abc', '1.5', '', '-3', '1e1', '0030x']) {
        for (const path of ['sessions', 'webhooks']) {
          const body = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/stats/${path}?days=${encodeURIComponent(days)}`, undefined, 400);
          expect(body.message).toContain('days must be a whole number from 1 to 90');
        }
      }
      const sandbox = await owner.call('GET', `/dashboard/api/tenants/${tenantId}/stats/sessions?sandbox=maybe`);
      expect(sandbox.status).toBe(400);
    });

    describe('webhook deliveries', () => {
      let mine: string;
      let second: string;
      beforeAll(async () => {
        const db = ctx.database.db;
        const endpoint = async (tenant: string) => {
          const id = newId('endpoint');
          await db.insert(webhookEndpoints).values({
            id,
            tenantId: tenant,
            url: `https://hooks.example.com/${id}`,
            secret: 'whsec_test',
            events: ['session.started'],
            createdAt: new Date('2026-05-01T00:00:00Z'),
          });
          return id;
        };
        mine = await endpoint(tenantId);
        second = await endpoint(tenantId);
        const stranger = await endpoint(otherTenantId);
        const eventIds = (await db.select({ id: events.id }).from(events).where(eq(events.tenantId, tenantId))).map((row) => row.id);
        const strangerEvent = (await db.select({ id: events.id }).from(events).where(eq(events.tenantId, otherTenantId)))[0]!.id;
        let nextEvent = 0;
        const delivery = async (endpointId: string, status: string, createdAt: string, tenant = tenantId, eventId = eventIds[nextEvent++]!) => {
          const id = `dlv_${randomBase62(16)}`;
          const at = new Date(createdAt);
          await db.insert(webhookDeliveries).values({
            id,
            tenantId: tenant,
            eventId,
            endpointId,
            url: 'https://hooks.example.com/',
            policy: 'completion',
            status,
            nextAttemptAt: at,
            deadlineAt: new Date(at.getTime() + 86_400_000),
            createdAt: at,
          });
          return id;
        };
        const attempt = async (
          endpointId: string,
          deliveryId: string | null,
          startedAt: string,
          durationMs: number | null,
          outcome: 'success' | 'failure' | 'rejection',
          tenant = tenantId,
        ) => {
          await db.insert(webhookAttempts).values({
            id: `att_${randomBase62(16)}`,
            tenantId: tenant,
            endpointId,
            deliveryId,
            eventId: null,
            purpose: deliveryId ? 'delivery' : 'test',
            attemptNumber: 1,
            url: 'https://hooks.example.com/',
            startedAt: new Date(startedAt),
            durationMs,
            statusCode: outcome === 'success' ? 200 : durationMs === null ? null : 503,
            errorClass: outcome === 'success' ? null : durationMs === null ? 'destination' : 'http',
            outcome,
          });
        };
        // 2026-05-19: three deliveries to `mine` (two delivered, one not) with six attempts, one to `second`.
        const d1 = await delivery(mine, 'delivered', '2026-05-19T08:00:00Z');
        const d2 = await delivery(mine, 'delivered', '2026-05-19T09:00:00Z');
        const d3 = await delivery(mine, 'undelivered', '2026-05-19T10:00:00Z');
        await attempt(mine, d1, '2026-05-19T08:00:01Z', 10, 'success');
        await attempt(mine, d1, '2026-05-19T08:00:02Z', 20, 'success');
        await attempt(mine, d2, '2026-05-19T09:00:01Z', 30, 'success');
        await attempt(mine, d2, '2026-05-19T09:00:02Z', 40, 'success');
        await attempt(mine, d3, '2026-05-19T10:00:01Z', 100, 'failure');
        // Refused before any request was sent: an attempt without a duration.
        await attempt(mine, d3, '2026-05-19T10:00:02Z', null, 'rejection');
        const d4 = await delivery(second, 'delivered', '2026-05-19T11:00:00Z');
        await attempt(second, d4, '2026-05-19T11:00:01Z', 500, 'success');
        // Today: one still pending, and a dashboard test request (no delivery).
        await delivery(mine, 'pending', '2026-05-20T09:00:00Z');
        await attempt(mine, null, '2026-05-20T09:30:00Z', 50, 'success');
        // Before the period, and another tenant's: never counted.
        const old = await delivery(mine, 'undelivered', '2026-04-20T12:00:00Z');
        await attempt(mine, old, '2026-04-20T12:00:01Z', 9999, 'failure');
        const theirs = await delivery(stranger, 'delivered', '2026-05-19T08:00:00Z', otherTenantId, strangerEvent);
        await attempt(stranger, theirs, '2026-05-19T08:00:01Z', 7777, 'success', otherTenantId);
      });

      test('one endpoint: deliveries per day by state, attempts and latency (median, p95) exactly', async () => {
        const stats = await webhookStats(`?endpointId=${mine}`);
        expect(stats.endpointId).toBe(mine);
        expect(stats.retentionDays).toBe(30);
        expect(stats.perDay).toHaveLength(30);
        const days = Object.fromEntries(stats.perDay.filter((day) => day.total > 0 || day.attempts > 0).map(({ day, ...rest }) => [day, rest]));
        expect(days).toEqual({
          // Durations 10, 20, 30, 40, 100: median 30; p95 = 40 + 0.8 × (100 − 40) = 88.
          '2026-05-19': {
            counts: { delivered: 2, undelivered: 1, pending: 0 },
            total: 3,
            attempts: 6,
            failedAttempts: 2,
            latencyMedianMs: 30,
            latencyP95Ms: 88,
          },
          '2026-05-20': {
            counts: { delivered: 0, undelivered: 0, pending: 1 },
            total: 1,
            attempts: 1,
            failedAttempts: 0,
            latencyMedianMs: 50,
            latencyP95Ms: 50,
          },
        });
        // 10, 20, 30, 40, 50, 100: median 35; p95 = 50 + 0.75 × (100 − 50) = 87.5, rounded.
        expect(stats.totals).toEqual({
          counts: { delivered: 2, undelivered: 1, pending: 1 },
          total: 4,
          attempts: 7,
          failedAttempts: 2,
          latencyMedianMs: 35,
          latencyP95Ms: 88,
        });
        // Days without any request have no latency rather than 0 ms.
        expect(stats.perDay[0]).toMatchObject({ attempts: 0, latencyMedianMs: null, latencyP95Ms: null });
      });

      test('all endpoints together; another tenant’s endpoint answers 404', async () => {
        const stats = await webhookStats();
        expect(stats.endpointId).toBeNull();
        const may19 = stats.perDay.find((day) => day.day === '2026-05-19')!;
        // 10, 20, 30, 40, 100, 500: median 35; p95 = 100 + 0.75 × (500 − 100) = 400.
        expect(may19).toMatchObject({
          counts: { delivered: 3, undelivered: 1, pending: 0 },
          attempts: 7,
          failedAttempts: 2,
          latencyMedianMs: 35,
          latencyP95Ms: 400,
        });
        expect(stats.totals).toMatchObject({ total: 5, attempts: 8 });
        const wider = await webhookStats(`?days=31&endpointId=${mine}`);
        expect(wider.perDay[0]).toMatchObject({ day: '2026-04-20', counts: { undelivered: 1 }, attempts: 1, latencyMedianMs: 9999 });
        const stranger = (await ctx.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.tenantId, otherTenantId)))[0]!;
        await owner.json('GET', `/dashboard/api/tenants/${tenantId}/stats/webhooks?endpointId=${stranger.id}`, undefined, 404);
        expect(second).toMatch(/^whe_/);
      });
    });
  });
}
