/**
 * Every tenant route of the dashboard API (issue 12 acceptance: "API-level tests for every
 * dashboard route"): signed out → 401, a member of another tenant → 404 (tenant A never sees
 * tenant B), a developer → 403 where the role may not act, and each happy path.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { silentLogger } from '../../log';
import { createKeyPair } from '../tenants/service';
import { keyPairs, sessions } from '../../db/schema';
import { seedStartedSession } from '../../testing/seed-session';
import { completeSession } from '../sessions/session-state';
import { createDispatcher } from '../webhooks/delivery/dispatcher';
import type { GuardOptions } from '../webhooks/destinations/destination-guard';
import { startReceiver, type Receiver } from '../webhooks/testing/https-receiver';
import { fakeResolver, LOOPBACK_ONLY } from '../webhooks/testing/testbed';
import { webhookSettings } from '../webhooks/settings';
import { Browser, invitationSecretFromOutbox, signedIn } from './testing/dashboard-kit';
import { TEST_AUDIT } from '../audit/testing/audit-kit';

type Need = 'read' | 'integrate' | 'keys' | 'members' | 'emails' | 'audit';
interface Route {
  method: string;
  path: string;
  body?: unknown;
  need: Need;
}

/** Every tenant route, with ids that need not exist: the gate answers before any look-up. */
const ROUTES: Route[] = [
  { method: 'GET', path: '/overview', need: 'read' },
  { method: 'GET', path: '/keys', need: 'read' },
  { method: 'POST', path: '/keys', body: { sandbox: true }, need: 'keys' },
  { method: 'PATCH', path: '/keys/kp_x', body: { label: 'x' }, need: 'keys' },
  { method: 'POST', path: '/keys/kp_x/revoke', body: {}, need: 'keys' },
  { method: 'GET', path: '/domains', need: 'read' },
  { method: 'POST', path: '/domains', body: { domain: 'x.example.com' }, need: 'integrate' },
  { method: 'DELETE', path: '/domains/x.example.com', need: 'integrate' },
  { method: 'GET', path: '/webhooks', need: 'read' },
  { method: 'POST', path: '/webhooks', body: { url: 'https://hooks.test/x', events: ['session.started'] }, need: 'integrate' },
  { method: 'PATCH', path: '/webhooks/whe_x', body: { events: ['session.started'] }, need: 'integrate' },
  { method: 'POST', path: '/webhooks/whe_x/enable', need: 'integrate' },
  { method: 'POST', path: '/webhooks/whe_x/disable', need: 'integrate' },
  { method: 'DELETE', path: '/webhooks/whe_x', need: 'integrate' },
  { method: 'POST', path: '/webhooks/whe_x/rotate-secret', need: 'integrate' },
  { method: 'POST', path: '/webhooks/whe_x/test-and-resume', need: 'integrate' },
  { method: 'POST', path: '/webhooks/whe_x/redeliver', need: 'integrate' },
  { method: 'GET', path: '/webhooks/whe_x/deliveries', need: 'read' },
  { method: 'POST', path: '/webhooks/whe_x/deliveries/evt_x/resend', need: 'integrate' },
  { method: 'GET', path: '/sessions', need: 'read' },
  { method: 'GET', path: '/sessions/ses_x', need: 'read' },
  { method: 'POST', path: '/try-it', need: 'integrate' },
  { method: 'GET', path: '/emails', need: 'emails' },
  { method: 'GET', path: '/members', need: 'read' },
  { method: 'POST', path: '/invitations', body: { email: 'x@example.com', role: 'developer' }, need: 'members' },
  { method: 'DELETE', path: '/invitations/inv_x', need: 'members' },
  { method: 'PATCH', path: '/members/usr_x', body: { role: 'admin' }, need: 'members' },
  { method: 'DELETE', path: '/members/usr_x', need: 'members' },
  { method: 'GET', path: '/stats/sessions', need: 'read' },
  { method: 'GET', path: '/stats/webhooks', need: 'read' },
  { method: 'GET', path: '/audit', need: 'audit' },
  { method: 'GET', path: '/audit/export?format=csv', need: 'audit' },
];

const DEVELOPER_REFUSAL: Partial<Record<Need, string>> = {
  keys: 'Your role (developer) cannot manage API keys',
  members: 'Your role (developer) cannot manage members and invitations',
  emails: 'Your role (developer) cannot read the email outbox',
  audit: 'Your role (developer) cannot read the audit trail',
};

for (const target of TARGETS) {
  describe(`dashboard tenant routes [${target}]`, () => {
    let ctx: TestContext;
    let receiver: Receiver;
    let guard: GuardOptions;
    let tenantA: string;
    let tenantB: string;
    let shopKey: string;
    let owner: Browser & { user: { userId: string; email: string } };
    let developer: Browser & { user: { userId: string; email: string } };
    let outsider: Browser & { user: { userId: string; email: string } };
    const api = (tenantId: string, path: string) => `/dashboard/api/tenants/${tenantId}${path}`;

    beforeAll(async () => {
      receiver = await startReceiver();
      guard = { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };
      ctx = await createTestContext(target, { webhookGuard: guard });
      const shopA = await ctx.tenant({ name: 'Shop A', sandbox: false });
      tenantA = shopA.tenantId;
      shopKey = shopA.secretKey;
      // A sandbox pair for "Try it", which a developer may use but not create (the test below).
      await createKeyPair(ctx.database.db, ctx.clock, tenantA, true, undefined, TEST_AUDIT);
      tenantB = (await ctx.tenant({ name: 'Shop B' })).tenantId;
      owner = await signedIn(ctx, tenantA, 'owner');
      developer = await signedIn(ctx, tenantA, 'developer');
      outsider = await signedIn(ctx, tenantB, 'owner');
    });
    afterAll(async () => {
      await ctx.close();
      await receiver.stop();
    });

    test('signed out: 401 on every route', async () => {
      const anonymous = new Browser(ctx);
      for (const route of ROUTES) {
        const response = await anonymous.call(route.method, api(tenantA, route.path), route.body);
        expect([route.method, route.path, response.status]).toEqual([route.method, route.path, 401]);
        expect(await response.json()).toMatchObject({ statusCode: 401, message: 'Sign in to use the dashboard' });
      }
      expect((await anonymous.call('GET', '/dashboard/api/me')).status).toBe(401);
    });

    test("another tenant's member: 404 on every route, worded like a tenant that does not exist", async () => {
      for (const route of ROUTES) {
        const response = await outsider.call(route.method, api(tenantA, route.path), route.body);
        expect([route.method, route.path, response.status]).toEqual([route.method, route.path, 404]);
        expect(await response.json()).toMatchObject({ statusCode: 404, message: `no tenant with id "${tenantA}"` });
        const missing = await outsider.call(route.method, api('ten_doesnotexist', route.path), route.body);
        expect(((await missing.json()) as { message: string }).message).toBe('no tenant with id "ten_doesnotexist"');
      }
    });

    test('developer: 403 on keys, members, the email outbox and the audit trail; reads and integration allowed', async () => {
      for (const route of ROUTES) {
        const response = await developer.call(route.method, api(tenantA, route.path), route.body);
        const refusal = DEVELOPER_REFUSAL[route.need];
        if (refusal) {
          expect([route.method, route.path, response.status]).toEqual([route.method, route.path, 403]);
          expect(await response.json()).toMatchObject({ statusCode: 403, message: refusal });
        } else {
          // Past the gate: the route's own answer (a 404 for the made-up ids, never 401/403).
          expect([route.method, route.path, [401, 403].includes(response.status)]).toEqual([route.method, route.path, false]);
          expect(response.status).toBeLessThan(500);
        }
      }
    });

    test('overview: tenant, role, plan and usage', async () => {
      const overview = await owner.json('GET', api(tenantA, '/overview'), undefined, 200);
      // Usage counts every plan's sessions (issue 23): the earlier tests' "Try it" made sandbox ones.
      const made = await ctx.database.db.select().from(sessions).where(eq(sessions.tenantId, tenantA));
      expect(overview).toEqual({
        tenant: { tenantId: tenantA, name: 'Shop A', status: 'active' },
        role: 'owner',
        plan: {
          name: 'free',
          monthlyAllowance: null,
          usedThisMonth: made.filter((row) => !row.sandbox).length,
          sandboxAllowance: null,
          sandboxUsedThisMonth: made.filter((row) => row.sandbox).length,
          billingPortalUrl: null,
        },
        notices: [],
      });
      expect((await developer.json('GET', api(tenantA, '/overview'), undefined, 200)).role).toBe('developer');
    });

    test('keys: create (secret once), list, revoke publishable then pair; the API refuses a revoked key', async () => {
      const created = await owner.json('POST', api(tenantA, '/keys'), { sandbox: false }, 201);
      expect(created.secretKey).toStartWith('sk_live_');
      const listed = await developer.json('GET', api(tenantA, '/keys'), undefined, 200);
      const pair = listed.pairs.find((p: { pairId: string }) => p.pairId === created.pairId);
      expect(pair).toMatchObject({ sandbox: false, publishableKey: created.publishableKey, revokedAt: null, launchUnavailable: false });
      expect(pair.secretKeyHint).toBe(`sk_live_…${created.secretKey.slice(-4)}`);
      expect(JSON.stringify(listed)).not.toContain(created.secretKey);

      const half = await owner.json('POST', api(tenantA, `/keys/${created.pairId}/revoke`), { only: 'publishable' }, 200);
      expect(half).toMatchObject({ revokedAt: null, launchUnavailable: true });
      expect(half.publishableRevokedAt).toBeString();
      const launch = await ctx.request('POST', '/api/v1/sessions/create', { key: created.secretKey, body: { returnUrl: 'https://shop.example.com/r' } });
      expect(launch.status).toBe(503);

      const whole = await owner.json('POST', api(tenantA, `/keys/${created.pairId}/revoke`), {}, 200);
      expect(whole).toMatchObject({ launchUnavailable: false });
      expect(whole.revokedAt).toBeString();
      const refused = await ctx.request('POST', '/api/v1/sessions/create', { key: created.secretKey, body: { returnUrl: 'https://shop.example.com/r' } });
      expect(refused.status).toBe(401);

      // Another tenant's pair is not found through this tenant.
      const [pairB] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantB));
      expect((await owner.call('POST', api(tenantA, `/keys/${pairB!.id}/revoke`), {})).status).toBe(404);
    });

    test('keys: a label given at creation, trimmed, listed, renamed and removed; bad labels are 400 saying why', async () => {
      const created = await owner.json('POST', api(tenantA, '/keys'), { sandbox: true, label: '  Checkout server  ' }, 201);
      expect(created).toMatchObject({ label: 'Checkout server', sandbox: true });
      const listed = async () =>
        (await developer.json('GET', api(tenantA, '/keys'), undefined, 200)).pairs.find((p: { pairId: string }) => p.pairId === created.pairId);
      expect((await listed()).label).toBe('Checkout server');
      // No label: null, in the answer and the list.
      const plain = await owner.json('POST', api(tenantA, '/keys'), { sandbox: true }, 201);
      expect(plain.label).toBeNull();

      const renamed = await owner.json('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: 'Staging 🚀' }, 200);
      expect(renamed).toMatchObject({ pairId: created.pairId, label: 'Staging 🚀', publishableKey: created.publishableKey });
      expect((await listed()).label).toBe('Staging 🚀');
      // A hundred characters fit (an emoji counts once); blank and null remove the label.
      const hundred = `${'x'.repeat(99)}🚀`;
      expect((await owner.json('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: ` ${hundred} ` }, 200)).label).toBe(hundred);
      expect((await owner.json('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: '   ' }, 200)).label).toBeNull();
      expect((await owner.json('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: 'Back' }, 200)).label).toBe('Back');
      expect((await owner.json('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: null }, 200)).label).toBeNull();

      const tooLong = await owner.call('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: 'y'.repeat(101) });
      expect(tooLong.status).toBe(400);
      expect(await tooLong.json()).toMatchObject({ statusCode: 400, message: 'label must be at most 100 characters after trimming spaces, got 101' });
      const tooLongAtCreate = await owner.call('POST', api(tenantA, '/keys'), { sandbox: true, label: 'z'.repeat(150) });
      expect(tooLongAtCreate.status).toBe(400);
      expect(((await tooLongAtCreate.json()) as { message: string }).message).toBe('label must be at most 100 characters after trimming spaces, got 150');
      const lineBreak = await owner.call('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: 'two\nlines' });
      expect(lineBreak.status).toBe(400);
      expect(((await lineBreak.json()) as { message: string }).message).toContain('must not contain control characters');
      const notText = await owner.call('PATCH', api(tenantA, `/keys/${created.pairId}`), { label: 42 });
      expect(notText.status).toBe(400);
      expect(await notText.json()).toMatchObject({ statusCode: 400, message: ['label must be a string'] });
      // Refused labels changed nothing.
      expect((await listed()).label).toBeNull();

      // Another tenant's pair, or none: 404 through this tenant.
      const [pairB] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantB));
      const foreign = await owner.call('PATCH', api(tenantA, `/keys/${pairB!.id}`), { label: 'mine' });
      expect(foreign.status).toBe(404);
      expect((await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.id, pairB!.id)))[0]!.label).toBeNull();
      expect((await owner.call('PATCH', api(tenantA, '/keys/kp_nope'), { label: 'x' })).status).toBe(404);
    });

    test('domains: add with validation, a pasted URL reduced to its host, remove', async () => {
      expect(await developer.json('POST', api(tenantA, '/domains'), { domain: 'Dev.Example.com' }, 201)).toEqual({
        domain: 'dev.example.com',
        reducedFrom: null,
        domains: ['dev.example.com', 'shop.example.com'],
      });
      const bad = await developer.call('POST', api(tenantA, '/domains'), { domain: 'ftp://files.example.com/x' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toContain('got a ftp: URL');
      // Issue 23: a pasted return URL becomes its host, and the answer says what was stored.
      expect(await developer.json('POST', api(tenantA, '/domains'), { domain: 'https://Pay.Example.com:8443/return?x=1' }, 201)).toEqual({
        domain: 'pay.example.com',
        reducedFrom: 'https://Pay.Example.com:8443/return?x=1',
        domains: ['dev.example.com', 'pay.example.com', 'shop.example.com'],
      });
      const session = await ctx.request('POST', '/api/v1/sessions/create', { key: shopKey, body: { returnUrl: 'https://pay.example.com/return' } });
      expect(session.status).toBe(201);
      expect(await developer.json('DELETE', api(tenantA, '/domains/pay.example.com'), undefined, 200)).toEqual({
        domains: ['dev.example.com', 'shop.example.com'],
      });
      expect(await developer.json('DELETE', api(tenantA, '/domains/dev.example.com'), undefined, 200)).toEqual({ domains: ['shop.example.com'] });
      expect((await developer.call('DELETE', api(tenantA, '/domains/nope.example.com'))).status).toBe(404);
    });

    test('webhooks: create, deliver, log with attempts and body, edit, rotate, resend, test, disable, delete', async () => {
      const url = receiver.url('/dash-hook', 'hooks.test');
      const refused = await developer.call('POST', api(tenantA, '/webhooks'), { url: 'http://hooks.test/x', events: ['session.started'] });
      expect(refused.status).toBe(400);
      const created = await developer.json('POST', api(tenantA, '/webhooks'), { url, events: ['session.started', 'verification.completed'] }, 201);
      expect(created.secret).toStartWith('whsec_');
      receiver.expectSecret('/dash-hook', created.secret);
      expect(created.endpoint).toMatchObject({ url, enabled: true, state: 'active', health: 'healthy', undelivered: 0, pairId: null, redelivery: null });
      const endpointId = created.endpoint.endpointId as string;

      const list = await developer.json('GET', api(tenantA, '/webhooks'), undefined, 200);
      expect(list).toMatchObject({ limit: 20, legacy: null });
      // (the developer test above made one too: POST /webhooks is open to developers)
      expect(list.endpoints.map((e: { endpointId: string }) => e.endpointId)).toContain(endpointId);
      expect((await outsider.json('GET', api(tenantB, '/webhooks'), undefined, 200)).endpoints).toEqual([]);
      expect((await outsider.call('GET', api(tenantB, `/webhooks/${endpointId}/deliveries`))).status).toBe(404);

      // A real event delivered by the dispatcher.
      const [pair] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantA));
      const { sessionId, startedEventId } = await seedStartedSession(ctx.database.db, { tenantId: tenantA, pairId: pair!.id, now: ctx.clock.now() });
      const dispatcher = createDispatcher({
        db: ctx.database.db,
        clock: ctx.clock,
        logger: silentLogger,
        guard,
        settings: webhookSettings(),
        workerId: 'dash-test',
      });
      await dispatcher.runOnce();
      expect(receiver.eventIds('/dash-hook')).toEqual([startedEventId]);
      const log = await developer.json('GET', api(tenantA, `/webhooks/${endpointId}/deliveries`), undefined, 200);
      expect(log.nextCursor).toBeNull();
      expect(log.deliveries).toHaveLength(1);
      const [delivery] = log.deliveries;
      expect(delivery).toMatchObject({ eventId: startedEventId, kind: 'session.started', sessionId, state: 'delivered' });
      expect(delivery.body).toBe(receiver.requests('/dash-hook')[0]!.text);
      expect(delivery.attempts).toEqual([{ at: expect.any(String), status: 200, durationMs: expect.any(Number), error: null }]);
      expect(
        (await developer.json('GET', api(tenantA, '/webhooks'), undefined, 200)).endpoints.find((e: { endpointId: string }) => e.endpointId === endpointId)
          .lastSuccessAt,
      ).toBeString();

      // Resend one event: the same eventId and the same body again.
      expect(await developer.json('POST', api(tenantA, `/webhooks/${endpointId}/deliveries/${startedEventId}/resend`), undefined, 202)).toEqual({
        eventId: startedEventId,
      });
      await dispatcher.runOnce();
      const bodies = receiver.requests('/dash-hook').map((r) => r.text);
      expect(bodies).toHaveLength(2);
      expect(bodies[1]).toBe(bodies[0]);
      expect((await developer.call('POST', api(tenantA, `/webhooks/${endpointId}/deliveries/evt_nope/resend`))).status).toBe(404);

      // Rotate: the old secret no longer signs.
      const rotated = await developer.json('POST', api(tenantA, `/webhooks/${endpointId}/rotate-secret`), undefined, 200);
      expect(rotated.secret).toStartWith('whsec_');
      expect(rotated.secret).not.toBe(created.secret);
      receiver.expectSecret('/dash-hook', rotated.secret);
      const tested = await developer.json('POST', api(tenantA, `/webhooks/${endpointId}/test-and-resume`), undefined, 200);
      expect(tested).toMatchObject({ ok: true, status: 200, error: null, endpoint: { endpointId, state: 'active' } });
      // The test event was signed with the new secret only.
      expect(receiver.requests('/dash-hook').at(-1)!.serviceSignatureValid).toBe(true);

      const edited = await developer.json('PATCH', api(tenantA, `/webhooks/${endpointId}`), { events: ['session.timeout'] }, 200);
      expect(edited.events).toEqual(['session.timeout']);
      expect((await developer.call('PATCH', api(tenantA, `/webhooks/${endpointId}`), { events: ['nope'] })).status).toBe(400);

      expect(await developer.json('POST', api(tenantA, `/webhooks/${endpointId}/redeliver`), undefined, 202)).toEqual({ events: 0, batches: 0 });
      expect((await developer.json('POST', api(tenantA, `/webhooks/${endpointId}/disable`), undefined, 200)).state).toBe('disabled');
      expect((await developer.call('POST', api(tenantA, `/webhooks/${endpointId}/redeliver`))).status).toBe(409);
      expect((await developer.json('POST', api(tenantA, `/webhooks/${endpointId}/enable`), undefined, 200)).state).toBe('active');
      await completeSession(ctx.database.db, sessionId, 'verified', ctx.clock.now());
      expect(await developer.json('DELETE', api(tenantA, `/webhooks/${endpointId}`), undefined, 200)).toEqual({ endpointId, removed: true });
      expect((await developer.call('DELETE', api(tenantA, `/webhooks/${endpointId}`))).status).toBe(404);
    });

    test('sessions: list with filters and search, keyset pages, detail with events; try-it', async () => {
      const [pair] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantA));
      const made: string[] = [];
      for (let i = 0; i < 53; i++) {
        ctx.clock.advance(1000);
        made.push(
          (await seedStartedSession(ctx.database.db, { tenantId: tenantA, pairId: pair!.id, now: ctx.clock.now(), externalUserId: `user-${i}` })).sessionId,
        );
      }
      const first = await developer.json('GET', api(tenantA, '/sessions'), undefined, 200);
      expect(first.sessions).toHaveLength(50);
      expect(first.sessions[0].sessionId).toBe(made.at(-1));
      const second = await developer.json('GET', api(tenantA, `/sessions?cursor=${first.nextCursor}`), undefined, 200);
      const seen = [...first.sessions, ...second.sessions].map((s: { sessionId: string }) => s.sessionId);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(expect.arrayContaining(made));
      expect((await developer.call('GET', api(tenantA, '/sessions?cursor=garbage'))).status).toBe(400);
      expect((await developer.call('GET', api(tenantA, '/sessions?status=nope'))).status).toBe(400);

      const found = await developer.json('GET', api(tenantA, '/sessions?q=user-7'), undefined, 200);
      expect(found.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([made[7]]);
      await completeSession(ctx.database.db, made[3]!, 'failed', ctx.clock.now());
      const failed = await developer.json('GET', api(tenantA, '/sessions?status=FAILED&sandbox=false'), undefined, 200);
      expect(failed.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([made[3]]);
      expect(failed.sessions[0]).toMatchObject({
        status: 'FAILED',
        failureReason: 'age_not_met',
        verificationMode: 'L1',
        challengeAge: 25,
        externalUserId: 'user-3',
      });

      const detail = await developer.json('GET', api(tenantA, `/sessions/${made[3]}`), undefined, 200);
      expect(detail.events.map((e: { kind: string }) => e.kind)).toEqual(['session.started', 'verification.failed']);
      // Issue 24: the session page shows the receipt of the decision, the same one on every visit.
      expect(JSON.parse(Buffer.from(detail.receipt.split('.')[1], 'base64url').toString())).toMatchObject({
        sub: made[3],
        outcome: 'failed',
        reason: 'age_not_met',
      });
      expect((await developer.json('GET', api(tenantA, `/sessions/${made[3]}`), undefined, 200)).receipt).toBe(detail.receipt);
      expect((await developer.json('GET', api(tenantA, `/sessions/${made[4]}`), undefined, 200)).receipt).toBeNull();
      // Tenant B cannot see A's session through its own tenant.
      expect((await outsider.call('GET', api(tenantB, `/sessions/${made[3]}`))).status).toBe(404);
      expect((await outsider.json('GET', api(tenantB, `/sessions?q=${made[3]}`), undefined, 200)).sessions).toEqual([]);

      const tried = await developer.json('POST', api(tenantA, '/try-it'), undefined, 201);
      expect(tried.verifyUrl).toStartWith('http://localhost:3000/verify');
      const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, tried.sessionId));
      expect(row).toMatchObject({ sandbox: true, tenantId: tenantA, returnUrl: `http://localhost:3000/dashboard/#/sessions/${tried.sessionId}` });
    });

    test('"Try it" without a sandbox pair: a developer gets 403 and no key pair is made; an owner makes it, then the developer can try', async () => {
      const { tenantId } = await ctx.tenant({ name: 'Live only', sandbox: false });
      const dev = await signedIn(ctx, tenantId, 'developer');
      const boss = await signedIn(ctx, tenantId, 'owner');
      const sandboxPairs = async () => (await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantId))).filter((p) => p.sandbox);
      expect(await sandboxPairs()).toHaveLength(0);

      const refused = await dev.call('POST', api(tenantId, '/try-it'));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        statusCode: 403,
        message:
          'Your role (developer) cannot create API keys, and this tenant has no active sandbox key pair for "Try it"; ask an owner or admin to create one',
      });
      expect(await sandboxPairs()).toHaveLength(0);

      await boss.json('POST', api(tenantId, '/try-it'), undefined, 201);
      expect(await sandboxPairs()).toHaveLength(1);
      await dev.json('POST', api(tenantId, '/try-it'), undefined, 201);
      expect(await sandboxPairs()).toHaveLength(1);
    });

    test('members: list, role change, removal; admins cannot touch owners; the last owner stays', async () => {
      const admin = await signedIn(ctx, tenantA, 'admin');
      const members = await developer.json('GET', api(tenantA, '/members'), undefined, 200);
      expect(members.members.map((m: { role: string }) => m.role)).toEqual(expect.arrayContaining(['owner', 'developer', 'admin']));

      const promoted = await admin.json('PATCH', api(tenantA, `/members/${developer.user.userId}`), { role: 'admin' }, 200);
      expect(promoted).toMatchObject({ userId: developer.user.userId, role: 'admin' });
      await admin.json('PATCH', api(tenantA, `/members/${developer.user.userId}`), { role: 'developer' }, 200);

      const demoteOwner = await admin.call('PATCH', api(tenantA, `/members/${owner.user.userId}`), { role: 'developer' });
      expect(demoteOwner.status).toBe(403);
      expect((await admin.call('DELETE', api(tenantA, `/members/${owner.user.userId}`))).status).toBe(403);
      expect((await owner.call('PATCH', api(tenantA, `/members/${owner.user.userId}`), { role: 'admin' })).status).toBe(409);
      const lastOwner = await owner.call('DELETE', api(tenantA, `/members/${owner.user.userId}`));
      expect(lastOwner.status).toBe(409);
      expect(((await lastOwner.json()) as { message: string }).message).toContain('last owner');

      const invitation = await admin.json('POST', api(tenantA, '/invitations'), { email: 'later@example.com', role: 'admin' }, 201);
      expect((await admin.json('GET', api(tenantA, '/members'), undefined, 200)).invitations.map((i: { invitationId: string }) => i.invitationId)).toContain(
        invitation.invitationId,
      );
      // The emailed secret opens the invitation until it is cancelled, then no more.
      const secret = await invitationSecretFromOutbox(ctx, tenantA, 'later@example.com');
      expect((await new Browser(ctx).call('POST', '/dashboard/api/invitations/lookup', { secret })).status).toBe(200);
      expect(await admin.json('DELETE', api(tenantA, `/invitations/${invitation.invitationId}`), undefined, 200)).toEqual({
        invitationId: invitation.invitationId,
        status: 'canceled',
      });
      expect((await new Browser(ctx).call('POST', '/dashboard/api/invitations/lookup', { secret })).status).toBe(404);

      const leaving = await signedIn(ctx, tenantA, 'developer');
      expect(await owner.json('DELETE', api(tenantA, `/members/${leaving.user.userId}`), undefined, 200)).toEqual({
        userId: leaving.user.userId,
        removed: true,
      });
      expect((await leaving.call('GET', api(tenantA, '/overview'))).status).toBe(404);
    });
  });
}
