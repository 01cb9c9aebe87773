/**
 * The dashboard's accounts (issue 12): first-run setup, sign-in with better-auth, CSRF, login rate
 * limit, sign-up switch, invitations through the email outbox, and the migration of users rows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, TEST_SECRET, type TestContext } from '../../testing/test-app';
import { createApp } from '../../app';
import { silentLogger } from '../../log';
import { authMembers, authUsers, emailOutbox } from '../../db/schema';
import { createTenant } from '../tenants/service';
import { issueSetupToken } from './setup';
import { Browser, PASSWORD, signedIn } from './testing/dashboard-kit';

for (const target of TARGETS) {
  describe(`dashboard first-run setup [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    test('GET / redirects to the dashboard', async () => {
      const response = await ctx.request('GET', '/');
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/dashboard/');
    });

    test('the setup token creates the first tenant and signs in, once', async () => {
      const browser = new Browser(ctx);
      expect(await browser.json('GET', '/dashboard/api/setup')).toEqual({ needed: true, signupEnabled: false });
      const token = (await issueSetupToken(ctx.database.db))!;
      expect(token).toBeString();

      const wrong = await browser.call('POST', '/dashboard/api/setup', { token: 'nope', tenantName: 'First', email: 'first@example.com', password: PASSWORD });
      expect(wrong.status).toBe(403);

      // Bad input does not spend the token.
      const short = await browser.call('POST', '/dashboard/api/setup', { token, tenantName: 'First', email: 'first@example.com', password: 'short' });
      expect(short.status).toBe(400);

      const created = await browser.call('POST', '/dashboard/api/setup', {
        token,
        tenantName: 'First Shop',
        email: 'First@Example.com',
        password: PASSWORD,
        name: 'Ada',
      });
      expect(created.status).toBe(201);
      const { tenantId } = (await created.json()) as { tenantId: string };
      expect(tenantId).toStartWith('ten_');
      const cookie = created.headers.getSetCookie().find((c) => c.startsWith('ageverify.session_token='))!;
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).not.toContain('Secure');

      const me = await browser.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me).toEqual({
        user: { id: expect.any(String), email: 'first@example.com', name: 'Ada' },
        tenants: [{ tenantId, name: 'First Shop', role: 'owner' }],
      });
      expect(await browser.json('GET', '/dashboard/api/setup')).toEqual({ needed: false, signupEnabled: false });

      // The same token again: a tenant exists now (409); a fresh token is refused too.
      const again = await new Browser(ctx).call('POST', '/dashboard/api/setup', {
        token,
        tenantName: 'Second',
        email: 'second@example.com',
        password: PASSWORD,
      });
      expect(again.status).toBe(409);
      expect(await issueSetupToken(ctx.database.db)).toBeNull();
    });

    test('sign-up is off by default', async () => {
      const response = await new Browser(ctx).call('POST', '/dashboard/api/signup', { tenantName: 'X', email: 'x@example.com', password: PASSWORD });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toContain('sign-up is not enabled');
    });
  });

  describe(`dashboard sign-up when the operator allows it [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target, { dashboardSignup: true });
      await ctx.tenant({ name: 'Existing' });
    });
    afterAll(() => ctx.close());

    test('DASHBOARD_SIGNUP=true: a further tenant and its owner, signed in; a taken email is refused', async () => {
      const browser = new Browser(ctx);
      expect(await browser.json('GET', '/dashboard/api/setup')).toEqual({ needed: false, signupEnabled: true });
      const created = await browser.call('POST', '/dashboard/api/signup', { tenantName: 'Second Shop', email: 'second@example.com', password: PASSWORD });
      expect(created.status).toBe(201);
      const { tenantId } = (await created.json()) as { tenantId: string };
      const me = await browser.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants).toEqual([{ tenantId, name: 'Second Shop', role: 'owner' }]);
      const taken = await new Browser(ctx).call('POST', '/dashboard/api/signup', { tenantName: 'Third', email: 'second@example.com', password: PASSWORD });
      expect(taken.status).toBe(409);
      // better-auth's own sign-up endpoint stays closed.
      const direct = await new Browser(ctx).call('POST', '/dashboard/api/auth/sign-up/email', { email: 'x@example.com', password: PASSWORD, name: 'X' });
      expect(direct.status).toBeGreaterThanOrEqual(400);
      expect(direct.status).toBeLessThan(500);
    });
  });

  describe(`dashboard sign-in, CSRF and rate limit [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      ({ tenantId } = await createTenant(ctx.database.db, ctx.clock, {
        name: 'CLI Shop',
        domains: [],
        sandbox: true,
        owner: { email: 'cli-owner@example.com', password: PASSWORD },
      }));
    });
    afterAll(() => ctx.close());

    test('an owner made by the CLI signs in, changes the password and signs out', async () => {
      const browser = new Browser(ctx);
      const signIn = await browser.signIn('cli-owner@example.com');
      expect(signIn.status).toBe(200);
      // The token lives only in the HttpOnly cookie, never in a body a script could read.
      const signInBody = (await signIn.json()) as Record<string, any>;
      expect(signInBody.user.email).toBe('cli-owner@example.com');
      expect(signInBody.token).toBeUndefined();
      const me = await browser.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants).toEqual([{ tenantId, name: 'CLI Shop', role: 'owner' }]);
      const session = await browser.json('GET', '/dashboard/api/auth/get-session', undefined, 200);
      expect(session.user.email).toBe('cli-owner@example.com');
      expect(session.session.token).toBeUndefined();
      const changed = await browser.call('POST', '/dashboard/api/auth/change-password', {
        currentPassword: PASSWORD,
        newPassword: 'another horse battery',
        revokeOtherSessions: true,
      });
      expect(changed.status).toBe(200);
      expect((await browser.call('POST', '/dashboard/api/auth/sign-out', {})).status).toBe(200);
      expect((await browser.call('GET', '/dashboard/api/me')).status).toBe(401);
      expect((await browser.signIn('cli-owner@example.com')).status).toBe(401);
      expect((await browser.signIn('cli-owner@example.com', 'another horse battery')).status).toBe(200);
    });

    test('state-changing requests without our Origin, or ours without JSON, are refused', async () => {
      const browser = await signedIn(ctx, tenantId, 'owner');
      for (const origin of [null, 'https://evil.example.com']) {
        const response = await browser.call('POST', `/dashboard/api/tenants/${tenantId}/domains`, { domain: 'a.example.com' }, { origin });
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ statusCode: 403, message: 'Cross-site request refused' });
        const signIn = await new Browser(ctx).call('POST', '/dashboard/api/auth/sign-in/email', { email: browser.user.email, password: PASSWORD }, { origin });
        expect(signIn.status).toBe(403);
      }
      const form = await browser.call('POST', `/dashboard/api/tenants/${tenantId}/domains`, { domain: 'a.example.com' }, { contentType: 'text/plain' });
      expect(form.status).toBe(403);
      const ok = await browser.call('POST', `/dashboard/api/tenants/${tenantId}/domains`, { domain: 'a.example.com' });
      expect(ok.status).toBe(201);
    });

    test('5 failed sign-ins per email+IP in 15 minutes, then 429 with Retry-After', async () => {
      const browser = new Browser(ctx);
      const email = 'limited@example.com';
      await createTenant(ctx.database.db, ctx.clock, { name: 'L', domains: [], sandbox: true, owner: { email, password: PASSWORD } });
      for (let i = 0; i < 5; i++) expect((await browser.signIn(email, 'wrong password!')).status).toBe(401);
      const limited = await browser.signIn(email, PASSWORD);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({ statusCode: 429 });
      // Another email from the same address is not limited.
      expect((await browser.signIn('cli-owner@example.com', 'wrong password!')).status).toBe(401);
      ctx.clock.advance(15 * 60 * 1000);
      expect((await browser.signIn(email, PASSWORD)).status).toBe(200);
    });
  });

  describe(`dashboard over HTTPS [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    test('PUBLIC_BASE_URL https: Secure cookies, and only that origin is trusted', async () => {
      await createTenant(ctx.database.db, ctx.clock, { name: 'TLS', domains: [], sandbox: true, owner: { email: 'tls@example.com', password: PASSWORD } });
      const app = createApp({
        db: ctx.database.db,
        clock: ctx.clock,
        logger: silentLogger,
        serverSecret: TEST_SECRET,
        publicBaseUrl: 'https://dash.example.com',
        verifyUrl: 'https://dash.example.com/verify',
        maxBodyBytes: 16 * 1024,
      });
      const browser = new Browser({ ...ctx, app } as TestContext);
      const plain = await browser.call('POST', '/dashboard/api/auth/sign-in/email', { email: 'tls@example.com', password: PASSWORD });
      expect(plain.status).toBe(403);
      const signedInOverTls = await browser.call(
        'POST',
        '/dashboard/api/auth/sign-in/email',
        { email: 'tls@example.com', password: PASSWORD },
        { origin: 'https://dash.example.com' },
      );
      expect(signedInOverTls.status).toBe(200);
      const cookie = signedInOverTls.headers.getSetCookie().find((c) => c.includes('ageverify.session_token='))!;
      expect(cookie).toStartWith('__Secure-ageverify.session_token=');
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
    });
  });

  describe(`dashboard invitations [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      ({ tenantId } = await ctx.tenant());
    });
    afterAll(() => ctx.close());

    test('invitation → email in the outbox → accept → member with the role', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const invitation = await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: 'dev@example.com', role: 'developer' }, 201);
      expect(invitation).toMatchObject({ email: 'dev@example.com', role: 'developer', status: 'pending' });

      const mails = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.tenantId, tenantId));
      const mail = mails.find((m) => m.recipients.includes('dev@example.com'))!;
      expect(mail.status).toBe('pending');
      expect(mail.text).toContain(`http://localhost:3000/dashboard/invite#id=${invitation.invitationId}`);
      const listed = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/emails`, undefined, 200);
      expect(listed.emails.some((e: { to: string }) => e.to === 'dev@example.com')).toBe(true);

      const invitee = new Browser(ctx);
      const info = await invitee.json('GET', `/dashboard/api/invitations/${invitation.invitationId}`, undefined, 200);
      expect(info).toMatchObject({ email: 'dev@example.com', tenantName: 'Test Shop', role: 'developer', accountExists: false });
      const accepted = await invitee.call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, { password: PASSWORD, name: 'Dev' });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({ tenantId });
      const me = await invitee.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants).toEqual([{ tenantId, name: 'Test Shop', role: 'developer' }]);

      // Used once.
      expect((await new Browser(ctx).call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, { password: PASSWORD })).status).toBe(404);
      const members = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/members`, undefined, 200);
      expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toContainEqual(['dev@example.com', 'developer']);
    });

    test('an expired invitation is refused (410); a short password is refused (400) and the invitation stays open', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const invitation = await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: 'late@example.com', role: 'admin' }, 201);
      const short = await new Browser(ctx).call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, { password: 'short' });
      expect(short.status).toBe(400);
      expect((await new Browser(ctx).call('GET', `/dashboard/api/invitations/${invitation.invitationId}`)).status).toBe(200);
      // better-auth set expiresAt with the system clock: move the test clock past it.
      ctx.clock.set(new Date(new Date(invitation.expiresAt).getTime() + 1000));
      const late = await new Browser(ctx).call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, { password: PASSWORD });
      expect(late.status).toBe(410);
      ctx.clock.set(new Date());
    });

    test('an existing user accepts while signed in', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const other = await ctx.tenant({ name: 'Other' });
      const elsewhere = await signedIn(ctx, other.tenantId, 'owner');
      const invitation = await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: elsewhere.user.email, role: 'admin' }, 201);
      const info = await new Browser(ctx).json('GET', `/dashboard/api/invitations/${invitation.invitationId}`, undefined, 200);
      expect(info.accountExists).toBe(true);
      expect((await new Browser(ctx).call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, { password: PASSWORD })).status).toBe(409);
      expect((await owner.call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, {})).status).toBe(403);
      expect((await elsewhere.call('POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, {})).status).toBe(200);
      const me = await elsewhere.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants.map((t: { role: string }) => t.role).sort()).toEqual(['admin', 'owner']);
      const [row] = await ctx.database.db.select().from(authUsers).where(eq(authUsers.email, elsewhere.user.email));
      const memberships = await ctx.database.db.select().from(authMembers).where(eq(authMembers.userId, row!.id));
      expect(memberships).toHaveLength(2);
    });
  });
}
