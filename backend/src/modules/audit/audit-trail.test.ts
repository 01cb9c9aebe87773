/**
 * The audit trail end to end on every database target (issue 23, Deliver 4): each kind of change,
 * made in the dashboard (a user, from an address) and by the CLI (actor "cli") and the service
 * (actor "system"), is recorded with who, when, from where and what changed; the listing filters
 * and pages; the exports carry the same entries; no secret reaches an entry or an export; only
 * owners and admins read it; a change and its entry commit together.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import type { AuditEntryView } from '@ageverify/protocol';
import { runCommand, type CommandContext } from '../../cli/commands';
import { sha256Hex } from '../../crypto';
import { auditLog, authUsers, keyPairs } from '../../db/schema';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { TARGETS } from '../../testing/test-databases';
import { Browser, invitationSecretFromOutbox, PASSWORD, signedIn } from '../dashboard/testing/dashboard-kit';
import { revokeKeyPair } from '../tenants/service';
import { testEndpoint } from '../webhooks/endpoints/test-endpoint';
import type { GuardOptions } from '../webhooks/destinations/destination-guard';
import { startReceiver, type Receiver } from '../webhooks/testing/https-receiver';
import { createTestbed, driveToPaused, fakeResolver, LOOPBACK_ONLY, type Testbed } from '../webhooks/testing/testbed';
import { userAudit } from './audit-context';
import { recordAudit } from './record';
import { AUDIT_RETENTION_DAYS, purgeExpiredAuditEntries } from './retention';

const OWNER_IP = '203.0.113.7';
const INVITEE_IP = '198.51.100.23';
const DAY_ONE = new Date('2026-01-15T12:00:00.000Z');
const DAY_THREE = new Date('2026-01-17T08:30:00.000Z');
type Signed = Browser & { user: { userId: string; email: string } };

for (const target of TARGETS) {
  describe(`audit trail [${target}]`, () => {
    let ctx: TestContext;
    let receiver: Receiver;
    let guard: GuardOptions;
    let cli: CommandContext;
    let tenantId: string;
    let otherTenantId: string;
    let owner: Signed;
    let admin: Signed;
    let developer: Signed;
    let outsider: Signed;
    /** Every secret the story makes or uses; none may be found in an entry or an export. */
    const secrets: string[] = [PASSWORD];
    const api = (path: string) => `/dashboard/api/tenants/${tenantId}${path}`;
    /** A dashboard call from `ip` (the test app reads the client address from x-test-ip). */
    const from = async (browser: Browser, ip: string, method: string, path: string, body?: unknown, status = 200) => {
      const response = await browser.call(method, path, body, { headers: { 'x-test-ip': ip } });
      const text = await response.text();
      if (response.status !== status) throw new Error(`${method} ${path}: expected ${status}, got ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as Record<string, any>;
    };
    const list = async (query = '', browser: Browser = owner): Promise<AuditEntryView[]> =>
      (await browser.json('GET', api(`/audit${query ? `?${query}` : ''}`), undefined, 200)).entries;
    const cliRun = async (...argv: string[]) => {
      const result = await runCommand(cli, argv);
      if (result.exitCode !== 0) throw new Error(`cli ${argv.join(' ')}: ${result.stderr}`);
      return JSON.parse(result.stdout) as Record<string, any>;
    };

    beforeAll(async () => {
      receiver = await startReceiver();
      guard = { resolver: fakeResolver({ 'hooks.test': ['127.0.0.1'] }), allowedCidrs: LOOPBACK_ONLY, caFile: receiver.caFile };
      ctx = await createTestContext(target, { webhookGuard: guard, clientIp: (request) => request.headers.get('x-test-ip') });
      cli = { db: ctx.database.db, clock: ctx.clock, guard };
      ctx.clock.set(DAY_ONE);
      const shop = await ctx.tenant({ name: 'Audit Shop', sandbox: false });
      tenantId = shop.tenantId;
      secrets.push(shop.secretKey);
      otherTenantId = (await ctx.tenant({ name: 'Other Shop' })).tenantId;
      owner = await signedIn(ctx, tenantId, 'owner');
      admin = await signedIn(ctx, tenantId, 'admin');
      developer = await signedIn(ctx, tenantId, 'developer');
      outsider = await signedIn(ctx, otherTenantId, 'owner');
    });
    afterAll(async () => {
      await ctx.close();
      await receiver.stop();
    });

    test('each kind of dashboard change is recorded with who, when, from which address and what changed', async () => {
      const created = await from(owner, OWNER_IP, 'POST', api('/keys'), { sandbox: false, label: 'Checkout' }, 201);
      secrets.push(created.secretKey);
      const pairId = created.pairId as string;
      await from(owner, OWNER_IP, 'PATCH', api(`/keys/${pairId}`), { label: 'Checkout v2' });
      await from(owner, OWNER_IP, 'POST', api(`/keys/${pairId}/revoke`), { only: 'publishable' });
      await from(owner, OWNER_IP, 'POST', api(`/keys/${pairId}/revoke`), {});
      // Revoking again changes nothing, so it records nothing.
      await from(owner, OWNER_IP, 'POST', api(`/keys/${pairId}/revoke`), {});

      await from(owner, OWNER_IP, 'POST', api('/domains'), { domain: 'https://Pay.Example.com/checkout' }, 201);
      await from(owner, OWNER_IP, 'DELETE', api('/domains/pay.example.com'));

      const url = receiver.url('/audit-hook', 'hooks.test');
      const endpoint = await from(owner, OWNER_IP, 'POST', api('/webhooks'), { url, events: ['session.started'] }, 201);
      secrets.push(endpoint.secret);
      const endpointId = endpoint.endpoint.endpointId as string;
      await from(owner, OWNER_IP, 'PATCH', api(`/webhooks/${endpointId}`), { events: ['session.started', 'verification.completed'] });
      await from(owner, OWNER_IP, 'POST', api(`/webhooks/${endpointId}/disable`), {});
      await from(owner, OWNER_IP, 'POST', api(`/webhooks/${endpointId}/enable`), {});
      secrets.push((await from(owner, OWNER_IP, 'POST', api(`/webhooks/${endpointId}/rotate-secret`), {})).secret);
      await from(owner, OWNER_IP, 'DELETE', api(`/webhooks/${endpointId}`));

      const cancelled = await from(owner, OWNER_IP, 'POST', api('/invitations'), { email: 'first@invitee.test', role: 'developer' }, 201);
      await from(owner, OWNER_IP, 'DELETE', api(`/invitations/${cancelled.invitationId}`));
      await from(owner, OWNER_IP, 'POST', api('/invitations'), { email: 'Dev@Invitee.test', role: 'developer' }, 201);
      const invitationSecret = await invitationSecretFromOutbox(ctx, tenantId, 'dev@invitee.test');
      secrets.push(invitationSecret, 'invitee password 42');
      const invitee = new Browser(ctx);
      await from(invitee, INVITEE_IP, 'POST', '/dashboard/api/invitations/accept', { secret: invitationSecret, password: 'invitee password 42' });
      const inviteeId = (await invitee.json('GET', '/dashboard/api/me', undefined, 200)).user.id as string;
      await from(owner, OWNER_IP, 'PATCH', api(`/members/${inviteeId}`), { role: 'admin' });
      await from(owner, OWNER_IP, 'DELETE', api(`/members/${inviteeId}`));

      const ownerActor = { type: 'user' as const, userId: owner.user.userId, email: owner.user.email };
      const mine = await list(`actor=${encodeURIComponent(owner.user.email)}`);
      // Newest first; with one clock time, the id breaks ties, so compare as sets and then in detail.
      expect(mine.map((entry): string => entry.action).toSorted()).toEqual(
        [
          'key.created',
          'key.renamed',
          'key.publishable_revoked',
          'key.revoked',
          'domain.added',
          'domain.removed',
          'endpoint.created',
          'endpoint.updated',
          'endpoint.disabled',
          'endpoint.enabled',
          'endpoint.secret_rotated',
          'endpoint.deleted',
          'member.invited',
          'member.invitation_cancelled',
          'member.invited',
          'member.role_changed',
          'member.removed',
        ].toSorted(),
      );
      for (const entry of mine) {
        expect([entry.action, entry.actor, entry.ip, entry.occurredAt]).toEqual([entry.action, ownerActor, OWNER_IP, DAY_ONE.toISOString()]);
      }
      const one = (action: string) => mine.filter((entry) => entry.action === action);
      expect(one('key.created')[0]).toMatchObject({
        targetId: pairId,
        targetLabel: 'Checkout',
        changes: { label: { from: null, to: 'Checkout' }, sandbox: { from: null, to: false }, publishableKey: { from: null, to: created.publishableKey } },
      });
      expect(one('key.renamed')[0]).toMatchObject({ targetId: pairId, changes: { label: { from: 'Checkout', to: 'Checkout v2' } } });
      expect(one('key.publishable_revoked')[0]).toMatchObject({ targetLabel: 'Checkout v2', changes: { revoked: { from: null, to: 'publishable' } } });
      expect(one('key.revoked')[0]).toMatchObject({ targetId: pairId, changes: { revoked: { from: 'publishable', to: 'pair' } } });
      expect(one('domain.added')[0]).toMatchObject({ targetId: 'pay.example.com', changes: { domain: { from: null, to: 'pay.example.com' } } });
      expect(one('domain.removed')[0]).toMatchObject({ targetId: 'pay.example.com', changes: { domain: { from: 'pay.example.com', to: null } } });
      expect(one('endpoint.created')[0]).toMatchObject({
        targetId: endpointId,
        targetLabel: url,
        changes: { url: { from: null, to: url }, events: { from: null, to: ['session.started'] }, enabled: { from: null, to: true } },
      });
      expect(one('endpoint.updated')[0]!.changes).toEqual({ events: { from: ['session.started'], to: ['session.started', 'verification.completed'] } });
      expect(one('endpoint.disabled')[0]!.changes).toEqual({ enabled: { from: true, to: false } });
      expect(one('endpoint.enabled')[0]!.changes).toEqual({ enabled: { from: false, to: true } });
      expect(one('endpoint.secret_rotated')[0]).toMatchObject({ targetId: endpointId, changes: {} });
      expect(one('endpoint.deleted')[0]!.changes).toMatchObject({ url: { from: url, to: null } });
      expect(one('member.invitation_cancelled')[0]).toMatchObject({
        targetId: cancelled.invitationId,
        targetLabel: 'first@invitee.test',
        changes: { status: { from: 'pending', to: 'canceled' } },
      });
      expect(
        one('member.invited')
          .map((entry) => entry.changes.email?.to)
          .toSorted(),
      ).toEqual(['dev@invitee.test', 'first@invitee.test']);
      expect(one('member.role_changed')[0]).toMatchObject({
        targetId: inviteeId,
        targetLabel: 'dev@invitee.test',
        changes: { role: { from: 'developer', to: 'admin' } },
      });
      expect(one('member.removed')[0]).toMatchObject({
        targetId: inviteeId,
        changes: { email: { from: 'dev@invitee.test', to: null }, role: { from: 'admin', to: null } },
      });

      // Accepting is the invitee's own change, from their address.
      expect(await list('action=member.joined')).toEqual([
        expect.objectContaining({
          actor: { type: 'user', userId: inviteeId, email: 'dev@invitee.test' },
          ip: INVITEE_IP,
          targetId: inviteeId,
          changes: expect.objectContaining({ role: { from: null, to: 'developer' } }),
        }),
      ]);
      // The tenant made for the test: the system, no address.
      expect((await list('action=tenant')).map((entry) => [entry.action, entry.actor.type, entry.ip, entry.targetLabel])).toEqual([
        ['tenant.created', 'system', null, 'Audit Shop'],
      ]);
    });

    test('CLI changes are recorded with actor "cli" and no address', async () => {
      ctx.clock.set(DAY_THREE);
      const pair = await cliRun('keys', 'create', '--tenant', tenantId, '--label', 'Operator pair');
      secrets.push(pair.secretKey);
      await cliRun('keys', 'rename', '--tenant', tenantId, '--pair', pair.pairId, '--label', 'Operator pair 2');
      await cliRun('keys', 'revoke', '--tenant', tenantId, '--pair', pair.pairId);
      await cliRun('domains', 'add', '--tenant', tenantId, '--domain', 'cli.example.com');
      await cliRun('domains', 'remove', '--tenant', tenantId, '--domain', 'cli.example.com');
      await cliRun('policy', 'set', '--tenant', tenantId, '--legal-minimum-age', '21', '--mode', 'L2');
      // The same policy again changes nothing: no entry.
      await cliRun('policy', 'set', '--tenant', tenantId, '--legal-minimum-age', '21');
      await cliRun('plan', 'set', '--tenant', tenantId, '--code', 'pro', '--monthly', '1000', '--portal-url', 'https://billing.example.com/acme');
      await cliRun('rate-limit', 'set', '--tenant', tenantId, '--create', '600');
      await cliRun('tenant', 'suspend', '--tenant', tenantId);
      await cliRun('tenant', 'activate', '--tenant', tenantId);
      const hook = await cliRun('webhooks', 'add', '--tenant', tenantId, '--url', receiver.url('/cli-hook', 'hooks.test'), '--events', 'session.started');
      secrets.push(hook.secret);
      await cliRun('webhooks', 'edit', '--tenant', tenantId, '--endpoint', hook.endpointId, '--events', 'session.started,session.timeout');
      await cliRun('webhooks', 'disable', '--tenant', tenantId, '--endpoint', hook.endpointId);
      await cliRun('webhooks', 'remove', '--tenant', tenantId, '--endpoint', hook.endpointId);
      // The legacy single webhook of another tenant: its signing secret is given on the command line.
      const legacySecret = 'whsec_bGVnYWN5IHNpZ25pbmcgc2VjcmV0IGZvciB0ZXN0cyE=';
      secrets.push(legacySecret);
      await cliRun(
        'webhooks',
        'legacy-set',
        '--tenant',
        otherTenantId,
        '--url',
        receiver.url('/legacy', 'hooks.test'),
        '--events',
        'verification.completed',
        '--secret',
        legacySecret,
      );
      const made = await cliRun(
        'tenant',
        'create',
        '--name',
        'CLI Shop',
        '--domain',
        'made.example.com',
        '--owner',
        'boss@cli.test',
        '--password',
        'cli owner password 7',
      );
      secrets.push(made.secretKey, 'cli owner password 7');

      const entries = await list('actor=cli');
      expect(entries.map((entry): string => entry.action).toSorted()).toEqual(
        [
          'key.created',
          'key.renamed',
          'key.revoked',
          'domain.added',
          'domain.removed',
          'policy.changed',
          'plan.changed',
          'tenant.rate_limits_changed',
          'tenant.suspended',
          'tenant.activated',
          'endpoint.created',
          'endpoint.updated',
          'endpoint.disabled',
          'endpoint.deleted',
        ].toSorted(),
      );
      for (const entry of entries)
        expect([entry.action, entry.actor, entry.ip, entry.occurredAt]).toEqual([
          entry.action,
          { type: 'cli', userId: null, email: null },
          null,
          DAY_THREE.toISOString(),
        ]);
      const one = (action: string) => entries.find((entry) => entry.action === action)!;
      expect(one('policy.changed').changes).toEqual({ verificationMode: { from: 'L1', to: 'L2' }, legalMinimumAge: { from: 18, to: 21 } });
      expect(one('plan.changed').changes).toEqual({
        code: { from: 'free', to: 'pro' },
        monthlyAllowance: { from: null, to: 1000 },
        portalUrl: { from: null, to: 'https://billing.example.com/acme' },
      });
      expect(one('tenant.rate_limits_changed').changes).toEqual({ create: { from: null, to: 600 } });
      expect(one('tenant.suspended').changes).toEqual({ status: { from: 'active', to: 'suspended' } });

      // The other tenants' entries are theirs: the legacy webhook, and a tenant made with its owner.
      const otherOwner = await signedIn(ctx, otherTenantId, 'admin');
      const legacy = (await otherOwner.json('GET', `/dashboard/api/tenants/${otherTenantId}/audit?action=endpoint.legacy_set`, undefined, 200)).entries;
      expect(legacy).toEqual([
        expect.objectContaining({
          actor: { type: 'cli', userId: null, email: null },
          changes: expect.objectContaining({ events: { from: null, to: ['verification.completed'] } }),
        }),
      ]);
      const madeEntries = await ctx.database.db.select().from(auditLog).where(eq(auditLog.tenantId, made.tenantId));
      expect(madeEntries.map((row) => [row.action, row.actorType, row.targetId]).toSorted()).toEqual(
        [
          ['tenant.created', 'cli', made.tenantId],
          ['domain.added', 'cli', 'made.example.com'],
          ['key.created', 'cli', made.pairId],
        ].toSorted(),
      );
      expect(madeEntries.find((row) => row.action === 'tenant.created')!.changes).toEqual({
        name: { from: null, to: 'CLI Shop' },
        owner: { from: null, to: 'boss@cli.test' },
      });
    });

    test("an owner's change of the two-factor requirement is recorded (issue 23's policy, decision 0057)", async () => {
      // The owner's own second factor, as enrolment leaves it (turning the requirement on needs it).
      await ctx.database.db.update(authUsers).set({ twoFactorEnabled: true }).where(eq(authUsers.id, owner.user.userId));
      await from(owner, OWNER_IP, 'PATCH', api('/two-factor-policy'), { required: true });
      await from(owner, OWNER_IP, 'PATCH', api('/two-factor-policy'), { required: true });
      await from(owner, OWNER_IP, 'PATCH', api('/two-factor-policy'), { required: false });
      await ctx.database.db.update(authUsers).set({ twoFactorEnabled: false }).where(eq(authUsers.id, owner.user.userId));
      const entries = await list('action=policy.two_factor_changed');
      // The same value again is no change. (One clock time: the id orders ties, so order the pair here.)
      for (const entry of entries) expect([entry.actor.email, entry.ip]).toEqual([owner.user.email, OWNER_IP]);
      expect(entries.map((entry) => JSON.stringify(entry.changes)).sort()).toEqual([
        JSON.stringify({ twoFactorRequired: { from: false, to: true } }),
        JSON.stringify({ twoFactorRequired: { from: true, to: false } }),
      ]);
    });

    test('filters: an action or its group, an actor by kind, id or email, a date range; keyset pages', async () => {
      const all = await list('limit=200');
      expect(all.length).toBeGreaterThan(30);
      // Newest first.
      expect(all.map((entry) => entry.occurredAt)).toEqual(
        all
          .map((entry) => entry.occurredAt)
          .toSorted()
          .reverse(),
      );
      expect((await list('action=key')).every((entry) => entry.action.startsWith('key.'))).toBe(true);
      expect((await list('action=key')).length).toBe(all.filter((entry) => entry.action.startsWith('key.')).length);
      expect((await list('action=key.revoked')).map((entry) => entry.actor.type).toSorted()).toEqual(['cli', 'user']);
      expect(await list(`actor=${owner.user.userId}`)).toEqual(await list(`actor=${encodeURIComponent(owner.user.email.toUpperCase())}`));
      expect((await list('actor=system')).map((entry): string => entry.action).toSorted()).toEqual(['domain.added', 'key.created', 'tenant.created']);
      // Whole UTC days, `to` inclusive.
      expect((await list('from=2026-01-16')).every((entry) => entry.occurredAt === DAY_THREE.toISOString())).toBe(true);
      expect((await list('from=2026-01-16')).length).toBe(all.filter((entry) => entry.occurredAt === DAY_THREE.toISOString()).length);
      expect((await list('to=2026-01-15')).length).toBe(all.filter((entry) => entry.occurredAt === DAY_ONE.toISOString()).length);
      expect(await list('from=2026-01-16&to=2026-01-16')).toEqual([]);
      expect((await list('action=key&actor=cli&from=2026-01-17&to=2026-01-17')).map((entry) => entry.action).toSorted()).toEqual([
        'key.created',
        'key.renamed',
        'key.revoked',
      ]);

      // Pages of 4, cursor to cursor, are the whole list in order, each entry once.
      const paged: AuditEntryView[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await owner.json('GET', api(`/audit?${query}`), undefined, 200);
        expect(page.entries.length).toBeLessThanOrEqual(4);
        paged.push(...page.entries);
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged.map((entry) => entry.entryId)).toEqual(all.map((entry) => entry.entryId));
    });

    test('a bad filter is a 400 in the dashboard error body that says what is wrong', async () => {
      const cases: [query: string, message: string | string[]][] = [
        ['action=keys', ['action must be a group (tenant, key, domain, endpoint, member, policy, plan) or one of their actions, such as key.revoked']],
        ['actor=nobody', ['actor must be cli, system, a user id (usr_…) or an email address']],
        ['from=2026-13-01', ['from must be a date (YYYY-MM-DD)']],
        ['from=2026-01-17&to=2026-01-15', ['from must be no later than to']],
        ['limit=500', ['limit must be a whole number from 1 to 200']],
        ['cursor=not-ours', 'cursor is not one this API returned'],
      ];
      for (const [query, message] of cases) {
        const response = await owner.call('GET', api(`/audit?${query}`));
        expect([query, response.status]).toEqual([query, 400]);
        expect(await response.json()).toMatchObject({ statusCode: 400, message });
      }
      const noFormat = await owner.call('GET', api('/audit/export?action=key'));
      expect(noFormat.status).toBe(400);
      expect(await noFormat.json()).toMatchObject({ statusCode: 400, message: ['format must be one of: csv, jsonl'] });
      const tooLong = await owner.call('GET', api(`/audit?actor=${'a'.repeat(300)}`));
      expect(tooLong.status).toBe(400);
    });

    test('exports: CSV and JSON lines hold the filtered entries as the listing answers them', async () => {
      const revoked = await list('action=key.revoked');
      const csv = await owner.call('GET', api('/audit/export?format=csv&action=key.revoked'));
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toBe('attachment; filename="audit.csv"');
      const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
      expect(rows.map((row) => [row.entryId, row.action, row.actorType, row.actorEmail, row.ip, row.targetId])).toEqual(
        revoked.map((entry) => [entry.entryId, 'key.revoked', entry.actor.type, entry.actor.email ?? '', entry.ip ?? '', entry.targetId ?? '']),
      );
      expect(JSON.parse(rows[0]!.changes!)).toEqual(revoked[0]!.changes);

      const jsonl = await owner.call('GET', api('/audit/export?format=jsonl&from=2026-01-15&to=2026-01-15'));
      expect(jsonl.status).toBe(200);
      expect(jsonl.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
      expect(jsonl.headers.get('content-disposition')).toBe('attachment; filename="audit-from-2026-01-15-to-2026-01-15.jsonl"');
      const lines = (await jsonl.text())
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines).toEqual(await list('from=2026-01-15&to=2026-01-15&limit=200'));
    });

    test('no secret reaches an entry, the listing or an export', async () => {
      const [row] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.tenantId, tenantId));
      expect(row).toBeDefined();
      const stored = JSON.stringify(await ctx.database.db.select().from(auditLog));
      const listed = JSON.stringify(await list('limit=200'));
      const csv = await (await owner.call('GET', api('/audit/export?format=csv'))).text();
      const jsonl = await (await owner.call('GET', api('/audit/export?format=jsonl'))).text();
      expect(secrets.length).toBeGreaterThan(10);
      for (const secret of secrets) {
        for (const [where, text] of [
          ['table', stored],
          ['listing', listed],
          ['csv', csv],
          ['jsonl', jsonl],
        ] as const) {
          expect([where, secret, text.includes(secret)]).toEqual([where, secret, false]);
          // Nor a digest of it (what the database keeps of a secret key).
          expect([where, secret, text.includes(sha256Hex(secret))]).toEqual([where, secret, false]);
        }
      }
      // A merchant who pastes a secret key into a label gets the label, with the key redacted in the trail.
      ctx.clock.advance(60_000);
      const pasted = await from(owner, OWNER_IP, 'POST', api('/keys'), { sandbox: true, label: `copy of ${secrets[1]}` }, 201);
      const [entry] = await list('action=key.created&limit=1');
      expect(entry!.targetId).toBe(pasted.pairId);
      expect(entry!.changes.label).toEqual({ from: null, to: 'copy of [redacted: secret API key]' });
    });

    test('only owners and admins read the trail, and only of their own tenant', async () => {
      expect((await admin.call('GET', api('/audit'))).status).toBe(200);
      expect((await admin.call('GET', api('/audit/export?format=jsonl'))).status).toBe(200);
      for (const path of ['/audit', '/audit/export?format=csv']) {
        const refused = await developer.call('GET', api(path));
        expect([path, refused.status]).toEqual([path, 403]);
        expect(await refused.json()).toMatchObject({ message: 'Your role (developer) cannot read the audit trail' });
        expect((await outsider.call('GET', api(path))).status).toBe(404);
        expect((await new Browser(ctx).call('GET', api(path))).status).toBe(401);
      }
      // Tenant B's entries never show in tenant A's trail.
      const ids = new Set((await list('limit=200')).map((entry) => entry.entryId));
      const others = await ctx.database.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.tenantId, otherTenantId));
      expect(others.length).toBeGreaterThan(0);
      expect(others.some((other) => ids.has(other.id))).toBe(false);
    });

    test('a change and its entry commit together: when the entry cannot be written, the change is not made', async () => {
      const made = await from(owner, OWNER_IP, 'POST', api('/keys'), { sandbox: true }, 201);
      const before = (await list('limit=200')).length;
      const broken = { ...userAudit({ id: owner.user.userId, email: owner.user.email }, OWNER_IP, new Date(Number.NaN)) };
      await expect(revokeKeyPair(ctx.database.db, ctx.clock, tenantId, made.pairId, 'pair', broken)).rejects.toThrow();
      const [pair] = await ctx.database.db.select().from(keyPairs).where(eq(keyPairs.id, made.pairId));
      expect(pair!.revokedAt).toBeNull();
      expect((await list('limit=200')).length).toBe(before);
      // A refused change records nothing either.
      expect((await owner.call('PATCH', api(`/keys/${made.pairId}`), { label: 'x'.repeat(101) })).status).toBe(400);
      expect((await list('limit=200')).length).toBe(before);
    });

    test(`entries older than ${AUDIT_RETENTION_DAYS} days are removed; younger ones stay`, async () => {
      const now = new Date('2027-03-01T00:00:00.000Z');
      const day = 24 * 60 * 60 * 1000;
      for (const [age, label] of [
        [AUDIT_RETENTION_DAYS + 1, 'old'],
        [AUDIT_RETENTION_DAYS - 1, 'young'],
      ] as const) {
        await recordAudit(
          ctx.database.db,
          { actor: { type: 'system' }, ip: null, at: new Date(now.getTime() - age * day) },
          {
            tenantId: otherTenantId,
            action: 'plan.changed',
            targetId: label,
            changes: {},
          },
        );
      }
      const removed = await purgeExpiredAuditEntries(ctx.database.db, now);
      expect(removed).toBeGreaterThanOrEqual(1);
      const left = await ctx.database.db.select({ targetId: auditLog.targetId }).from(auditLog).where(eq(auditLog.action, 'plan.changed'));
      expect(left.map((row) => row.targetId)).toContain('young');
      expect(left.map((row) => row.targetId)).not.toContain('old');
    });
  });

  describe(`audit trail: the service's own changes [${target}]`, () => {
    let bed: Testbed;
    beforeAll(async () => {
      bed = await createTestbed(target);
    });
    afterAll(() => bed.close());

    test('an endpoint paused by the delivery worker is recorded with actor "system"; test and resume by its tester', async () => {
      const { endpointId } = await bed.endpoint('/pausing', ['verification.completed']);
      await driveToPaused(bed, endpointId, '/pausing');
      const paused = await bed.database.db.select().from(auditLog).where(eq(auditLog.action, 'endpoint.paused'));
      expect(paused).toEqual([
        expect.objectContaining({
          tenantId: bed.tenantId,
          actorType: 'system',
          actorUserId: null,
          ip: null,
          targetId: endpointId,
          changes: { state: { from: 'retrying', to: 'paused' }, reason: { from: null, to: expect.stringContaining('rejections') } },
        }),
      ]);
      bed.receiver.script('/pausing', [], { status: 200 });
      const tester = userAudit({ id: 'usr_tester', email: 'tester@shop.test' }, '192.0.2.4', bed.clock.now());
      expect(await testEndpoint({ db: bed.database.db, clock: bed.clock, guard: bed.guard }, bed.tenantId, endpointId, tester)).toMatchObject({
        resumed: true,
      });
      const resumed = await bed.database.db.select().from(auditLog).where(eq(auditLog.action, 'endpoint.resumed'));
      expect(resumed).toEqual([
        expect.objectContaining({ actorType: 'user', actorEmail: 'tester@shop.test', ip: '192.0.2.4', changes: { state: { from: 'paused', to: 'active' } } }),
      ]);
    });
  });
}
