/**
 * The dashboard's accounts (issue 12): first-run setup, sign-in with better-auth, CSRF, login rate
 * limit, sign-up switch, invitations through the email outbox, and the migration of users rows.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import type { FirstRunSetupResponse } from '@ageverify/protocol';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, TEST_SECRET, type TestContext } from '../../testing/test-app';
import { createApp } from '../../app';
import { silentLogger } from '../../log';
import { authInvitations, authMembers, authUsers, emailOutbox, pendingSignups, tenants } from '../../db/schema';
import { createTenant } from '../tenants/service';
import { issueSetupToken } from './setup';
import { Browser, invitationSecretFromOutbox, PASSWORD, signedIn } from './testing/dashboard-kit';

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
      const { tenantId, sandboxKeyPair, ...rest } = (await created.json()) as FirstRunSetupResponse;
      expect(tenantId).toStartWith('ten_');
      expect(rest).toEqual({});
      // The sandbox pair setup made, its secret key this once (issue 23, decision 0052): it is the
      // tenant's only pair, and its secret key works against the merchant API.
      expect(sandboxKeyPair).toEqual({
        pairId: expect.stringMatching(/^kp_/),
        label: null,
        sandbox: true,
        publishableKey: expect.stringMatching(/^pk_test_/),
        secretKey: expect.stringMatching(/^sk_test_/),
      });
      const session = await ctx.request('POST', '/api/v1/sessions/create', { key: sandboxKeyPair.secretKey, body: { returnUrl: 'http://localhost/done' } });
      expect(session.status).toBe(201);
      const pairs = await browser.json('GET', `/dashboard/api/tenants/${tenantId}/keys`, undefined, 200);
      expect(pairs.pairs.map((pair: { pairId: string }) => pair.pairId)).toEqual([sandboxKeyPair.pairId]);
      expect(JSON.stringify(pairs)).not.toContain(sandboxKeyPair.secretKey);
      const cookie = created.headers.getSetCookie().find((c) => c.startsWith('ageverify.session_token='))!;
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).not.toContain('Secure');

      const me = await browser.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me).toEqual({
        user: { id: expect.any(String), email: 'first@example.com', name: 'Ada' },
        tenants: [{ tenantId, name: 'First Shop', role: 'owner' }],
        twoFactor: { enabled: false, tenantsRequiring: [] },
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
      expect((await new Browser(ctx).call('POST', '/dashboard/api/signup/lookup', { secret: 'x' })).status).toBe(404);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/signup/confirm', { secret: 'x', password: PASSWORD })).status).toBe(404);
    });
  });

  describe(`dashboard sign-up when the operator allows it [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target, { dashboardSignup: true });
      await ctx.tenant({ name: 'Existing' });
    });
    afterAll(() => ctx.close());

    /** The mail queued for one address (there is no tenant yet, so no dashboard shows it). */
    async function mailTo(email: string) {
      const rows = await ctx.database.db.select().from(emailOutbox).orderBy(asc(emailOutbox.createdAt));
      return rows.filter((row) => row.recipients.includes(email));
    }
    function secretIn(text: string): string {
      const secret = /\/dashboard\/confirm#secret=([\w-]+)/.exec(text)?.[1];
      if (!secret) throw new Error(`no sign-up link in: ${text}`);
      return secret;
    }

    // Issue 22, finding 9: a taken email used to answer 409, telling anyone who is a customer.
    test('DASHBOARD_SIGNUP=true: a new and a taken email get the same answer; only the emails differ', async () => {
      await createTenant(ctx.database.db, ctx.clock, {
        name: 'Owned',
        domains: [],
        sandbox: true,
        owner: { email: 'owner@example.com', password: PASSWORD },
      });
      const browser = new Browser(ctx);
      expect(await browser.json('GET', '/dashboard/api/setup')).toEqual({ needed: false, signupEnabled: true });
      const tenantsBefore = (await ctx.database.db.select().from(tenants)).length;
      const fresh = await new Browser(ctx).call('POST', '/dashboard/api/signup', {
        tenantName: 'Second Shop',
        email: 'Second@Example.com',
        password: PASSWORD,
      });
      const taken = await new Browser(ctx).call('POST', '/dashboard/api/signup', { tenantName: 'Third', email: 'owner@example.com', password: PASSWORD });
      for (const [answer, email] of [
        [fresh, 'second@example.com'],
        [taken, 'owner@example.com'],
      ] as const) {
        expect(answer.status).toBe(202);
        expect(answer.headers.get('set-cookie')).toBeNull();
        expect(await answer.json()).toEqual({ email });
      }
      // Nothing is created before the link is used.
      expect((await ctx.database.db.select().from(tenants)).length).toBe(tenantsBefore);
      expect(await ctx.database.db.select().from(authUsers).where(eq(authUsers.email, 'second@example.com'))).toEqual([]);
      const [confirmation] = await mailTo('second@example.com');
      expect(confirmation!.subject).toBe('Finish creating your AgeVerify account');
      expect(confirmation!.tenantId).toBeNull();
      secretIn(confirmation!.text);
      const [warning] = await mailTo('owner@example.com');
      expect(warning!.subject).toBe('Someone tried to create an AgeVerify account with your email');
      expect(warning!.text).not.toContain('#secret=');
      // A second try for the taken address within the hour adds no second mail to its owner.
      expect(
        (await new Browser(ctx).call('POST', '/dashboard/api/signup', { tenantName: 'Again', email: 'owner@example.com', password: PASSWORD })).status,
      ).toBe(202);
      expect(await mailTo('owner@example.com')).toHaveLength(1);
      // better-auth's own sign-up endpoint stays closed.
      const direct = await new Browser(ctx).call('POST', '/dashboard/api/auth/sign-up/email', { email: 'x@example.com', password: PASSWORD, name: 'X' });
      expect(direct.status).toBe(404);
    });

    test('the emailed link, with the password chosen at sign-up, creates the tenant and signs its owner in, once', async () => {
      const secret = secretIn((await mailTo('second@example.com'))[0]!.text);
      const browser = new Browser(ctx);
      expect(await browser.json('POST', '/dashboard/api/signup/lookup', { secret }, 200)).toEqual({
        email: 'second@example.com',
        tenantName: 'Second Shop',
        expiresAt: expect.any(String),
      });
      const wrong = await browser.call('POST', '/dashboard/api/signup/confirm', { secret, password: 'not the password chosen' });
      expect(wrong.status).toBe(403);
      expect(((await wrong.json()) as { message: string }).message).toContain('not the password chosen at sign-up');
      const done = await browser.call('POST', '/dashboard/api/signup/confirm', { secret, password: PASSWORD });
      expect(done.status).toBe(201);
      const { tenantId, sandboxKeyPair } = (await done.json()) as FirstRunSetupResponse;
      const me = await browser.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants).toEqual([{ tenantId, name: 'Second Shop', role: 'owner' }]);
      // The sandbox pair it made, with its secret key this once (as setup does, decision 0052).
      expect(sandboxKeyPair).toMatchObject({
        sandbox: true,
        publishableKey: expect.stringMatching(/^pk_test_/),
        secretKey: expect.stringMatching(/^sk_test_/),
      });
      // Used: the link is gone, and so is any other pending sign-up of that address.
      const again = await new Browser(ctx).call('POST', '/dashboard/api/signup/confirm', { secret, password: PASSWORD });
      expect(again.status).toBe(404);
      expect(((await again.json()) as { message: string }).message).toContain('this sign-up link is not valid');
      expect(await ctx.database.db.select().from(pendingSignups).where(eq(pendingSignups.email, 'second@example.com'))).toEqual([]);
    });

    test('a link is refused once expired (24 hours), and a made-up one always', async () => {
      ctx.clock.advance(60 * 60 * 1000);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/signup', { tenantName: 'Late', email: 'late@example.com', password: PASSWORD })).status).toBe(
        202,
      );
      const secret = secretIn((await mailTo('late@example.com'))[0]!.text);
      ctx.clock.advance(24 * 60 * 60 * 1000);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/signup/confirm', { secret, password: PASSWORD })).status).toBe(404);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/signup/lookup', { secret: 'made-up' })).status).toBe(404);
      expect(await ctx.database.db.select().from(authUsers).where(eq(authUsers.email, 'late@example.com'))).toEqual([]);
    });

    // Issue 22, finding 9: sign-up had no limit (30 tenants in a row).
    test('5 sign-up attempts per address in 15 minutes, then 429 with Retry-After', async () => {
      ctx.clock.advance(15 * 60 * 1000);
      const attempt = (i: number) =>
        new Browser(ctx).call('POST', '/dashboard/api/signup', { tenantName: `Shop ${i}`, email: `many-${i}@example.com`, password: PASSWORD });
      const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(attempt));
      expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 202, 202, 202, 429, 429]);
      const limited = answers.find((a) => a.status === 429)!;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
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

  // Issue 22, findings 2, 4, 5 and 10: limits that hold under a burst, and better-auth's own routes.
  describe(`dashboard password limits and better-auth routes [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      ({ tenantId } = await ctx.tenant());
    });
    afterAll(() => ctx.close());

    test('100 parallel wrong sign-ins for one email: exactly 5 are checked, the rest are 429, and then the right password is 429 too', async () => {
      const email = 'burst@example.com';
      await createTenant(ctx.database.db, ctx.clock, { name: 'B', domains: [], sandbox: true, owner: { email, password: PASSWORD } });
      const answers = await Promise.all(Array.from({ length: 100 }, () => new Browser(ctx).signIn(email, 'wrong password!')));
      const right = (await new Browser(ctx).signIn(email, PASSWORD)).status;
      ctx.clock.advance(15 * 60 * 1000);
      const statuses: Record<number, number> = {};
      for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
      // Exactly 5 reach the password check, whatever order the database serves the burst in: the
      // 95 refused by the email's bucket never count in the address's (sign-in-limit.ts).
      expect(statuses).toEqual({ 401: 5, 429: 95 });
      expect(right).toBe(429);
      expect((await new Browser(ctx).signIn(email, PASSWORD)).status).toBe(200);
    });

    test('30 failed password checks per address whatever the email; attempts refused by an email bucket do not count in it', async () => {
      ctx.clock.advance(15 * 60 * 1000);
      const email = 'per-address@example.com';
      await createTenant(ctx.database.db, ctx.clock, { name: 'A', domains: [], sandbox: true, owner: { email, password: PASSWORD } });
      const browser = new Browser(ctx);
      const statuses: number[] = [];
      try {
        // 5 checks and 3 refusals of the first email, then 5 checks of each of five more: 30 checks.
        for (let i = 0; i < 8; i++) statuses.push((await browser.signIn('guess-0@example.com', 'wrong password!')).status);
        for (let n = 1; n <= 5; n++) for (let i = 0; i < 5; i++) statuses.push((await browser.signIn(`guess-${n}@example.com`, 'wrong password!')).status);
        expect(statuses).toEqual([...Array(5).fill(401), ...Array(3).fill(429), ...Array(25).fill(401)]);
        // The address's bucket is full: a new email, even with its right password, is refused.
        const limited = await browser.signIn(email, PASSWORD);
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        // The next tests share this address (no client IP in tests): they start in a new window.
        ctx.clock.advance(15 * 60 * 1000);
      }
      expect((await browser.signIn(email, PASSWORD)).status).toBe(200);
    });

    test('change-password shares the limit (parallel wrong current passwords), and always ends the other sessions', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const elsewhere = new Browser(ctx);
      expect((await elsewhere.signIn(owner.user.email)).status).toBe(200);
      const wrong = await Promise.all(
        Array.from({ length: 20 }, () =>
          owner.call('POST', '/dashboard/api/auth/change-password', { currentPassword: 'not my password', newPassword: 'a new long password 1' }),
        ),
      );
      expect(wrong.filter((a) => a.status === 429)).toHaveLength(15);
      const right = await owner.call('POST', '/dashboard/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a new long password 1' });
      expect(right.status).toBe(429);
      ctx.clock.advance(15 * 60 * 1000);
      // The client asks to keep the other sessions; the server ends them anyway.
      const changed = await owner.call('POST', '/dashboard/api/auth/change-password', {
        currentPassword: PASSWORD,
        newPassword: 'a new long password 1',
        revokeOtherSessions: false,
      });
      expect(changed.status).toBe(200);
      expect((await elsewhere.call('GET', '/dashboard/api/me')).status).toBe(401);
      expect((await owner.call('GET', '/dashboard/api/me')).status).toBe(200);
    });

    test.each([
      ['POST', '/organization/update', { data: { name: 'Renamed' } }],
      ['POST', '/organization/delete', {}],
      ['POST', '/organization/set-active', {}],
      ['POST', '/organization/invite-member', { email: 'x@example.com', role: 'admin' }],
      ['POST', '/organization/accept-invitation', { invitationId: 'inv_x' }],
      ['GET', '/organization/list-invitations', undefined],
      ['GET', '/organization/get-full-organization', undefined],
      ['POST', '/organization/update-member-role', { memberId: 'mem_x', role: 'owner' }],
      ['POST', '/organization/remove-member', { memberIdOrEmail: 'x' }],
      ['POST', '/organization/leave', {}],
      ['GET', '/list-sessions', undefined],
      ['POST', '/revoke-sessions', {}],
      ['POST', '/verify-password', { password: 'x' }],
      ['POST', '/update-user', { name: 'x' }],
      ['POST', '/change-email', { newEmail: 'x@example.com' }],
      ['POST', '/delete-user', {}],
      ['POST', '/sign-up/email', { email: 'x@example.com', password: 'long enough password', name: 'x' }],
      ['POST', '/request-password-reset', { email: 'x@example.com' }],
      ['GET', '/sign-in/email', undefined],
    ] as const)('%s /dashboard/api/auth%s is not reachable (404), even for a signed-in owner', async (method, path, body) => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const answer = await owner.call(method, `/dashboard/api/auth${path}`, body);
      expect(answer.status).toBe(404);
      expect(JSON.stringify(await answer.json())).not.toContain('token');
    });

    test('the organisation keeps its name and members after owners try better-auth directly', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      await owner.call('POST', '/dashboard/api/auth/organization/update', { organizationId: tenantId, data: { name: 'Renamed' } });
      await owner.call('POST', '/dashboard/api/auth/organization/delete', { organizationId: tenantId });
      const me = await owner.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants).toEqual([{ tenantId, name: 'Test Shop', role: 'owner' }]);
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

    /** The acceptance secret, as only the invitee's email carries it (the latest email to that address). */
    function secretFromEmail(email: string): Promise<string> {
      return invitationSecretFromOutbox(ctx, tenantId, email);
    }

    test('invitation → email in the outbox → accept with the emailed secret → member with the role', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const invitation = await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: 'dev@example.com', role: 'developer' }, 201);
      expect(invitation).toMatchObject({ email: 'dev@example.com', role: 'developer', status: 'pending' });

      const mails = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.tenantId, tenantId));
      const mail = mails.find((m) => m.recipients.includes('dev@example.com'))!;
      expect(mail.status).toBe('pending');
      expect(mail.text).toMatch(/http:\/\/localhost:3000\/dashboard\/invite#secret=[\w-]{43}\n/);
      expect(mail.text).not.toContain(invitation.invitationId);
      const listed = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/emails`, undefined, 200);
      expect(listed.emails.some((e: { to: string }) => e.to === 'dev@example.com')).toBe(true);

      const secret = await secretFromEmail('dev@example.com');
      const invitee = new Browser(ctx);
      const info = await invitee.json('POST', '/dashboard/api/invitations/lookup', { secret }, 200);
      expect(info).toMatchObject({ email: 'dev@example.com', tenantName: 'Test Shop', role: 'developer', accountExists: false });
      const accepted = await invitee.call('POST', '/dashboard/api/invitations/accept', { secret, password: PASSWORD, name: 'Dev' });
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({ tenantId });
      const me = await invitee.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me).toMatchObject({ user: { email: 'dev@example.com' }, tenants: [{ tenantId, name: 'Test Shop', role: 'developer' }] });

      // Used once.
      expect((await new Browser(ctx).call('POST', '/dashboard/api/invitations/accept', { secret, password: PASSWORD })).status).toBe(404);
      const members = await owner.json('GET', `/dashboard/api/tenants/${tenantId}/members`, undefined, 200);
      expect(members.members.map((m: { email: string; role: string }) => [m.email, m.role])).toContainEqual(['dev@example.com', 'developer']);
    });

    // Issue 22, finding 1: a developer saw pending invitation ids and accepted an admin's invitation with one.
    test('a member who sees an invitation id cannot accept it: only the emailed secret does, and it is stored hashed', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const developer = await signedIn(ctx, tenantId, 'developer');
      const invitation = await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: 'boss@example.com', role: 'admin' }, 201);
      const members = await developer.json('GET', `/dashboard/api/tenants/${tenantId}/members`, undefined, 200);
      const seen = members.invitations.find((i: { email: string }) => i.email === 'boss@example.com');
      expect(seen).toEqual({
        invitationId: invitation.invitationId,
        email: 'boss@example.com',
        role: 'admin',
        expiresAt: expect.any(String),
        status: 'pending',
      });

      const secret = await secretFromEmail('boss@example.com');
      // Neither the list, nor the creation answer, nor the database holds the secret.
      expect(JSON.stringify(members)).not.toContain(secret);
      expect(JSON.stringify(invitation)).not.toContain(secret);
      const [row] = await ctx.database.db.select().from(authInvitations).where(eq(authInvitations.id, invitation.invitationId));
      expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(secret);

      // The attacker's attempts with the id: the old id routes and the id as a secret, with or without a cookie.
      const attacker = new Browser(ctx);
      const attempts: [Browser, string, string, unknown][] = [
        [attacker, 'POST', `/dashboard/api/invitations/${invitation.invitationId}/accept`, { password: 'attacker chosen password 42' }],
        [attacker, 'GET', `/dashboard/api/invitations/${invitation.invitationId}`, undefined],
        [attacker, 'POST', '/dashboard/api/invitations/accept', { secret: invitation.invitationId, password: 'attacker chosen password 42' }],
        [developer, 'POST', '/dashboard/api/invitations/accept', { secret: invitation.invitationId }],
        [attacker, 'POST', '/dashboard/api/invitations/lookup', { secret: invitation.invitationId }],
        [attacker, 'POST', '/dashboard/api/invitations/accept', { secret: `${secret}x`, password: 'attacker chosen password 42' }],
      ];
      for (const [who, method, path, body] of attempts) {
        const answer = await who.call(method, path, body);
        expect([method, path, answer.status]).toEqual([method, path, 404]);
      }
      expect(await ctx.database.db.select().from(authUsers).where(eq(authUsers.email, 'boss@example.com'))).toHaveLength(0);
      // The developer holding the real link still cannot take it: it is for another email.
      expect((await developer.call('POST', '/dashboard/api/invitations/accept', { secret })).status).toBe(403);

      // A resend replaces the secret: the older link stops working, the newest one accepts.
      ctx.clock.advance(1000);
      await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: 'boss@example.com', role: 'admin' }, 201);
      const newer = await secretFromEmail('boss@example.com');
      expect(newer).not.toBe(secret);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/invitations/lookup', { secret })).status).toBe(404);
      const boss = new Browser(ctx);
      expect((await boss.call('POST', '/dashboard/api/invitations/accept', { secret: newer, password: PASSWORD })).status).toBe(200);
      expect((await boss.json('GET', '/dashboard/api/me', undefined, 200)).user.email).toBe('boss@example.com');
    });

    test('an expired invitation is refused (410); a short password is refused (400) and the invitation stays open', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: 'late@example.com', role: 'admin' }, 201);
      const secret = await secretFromEmail('late@example.com');
      const short = await new Browser(ctx).call('POST', '/dashboard/api/invitations/accept', { secret, password: 'short' });
      expect(short.status).toBe(400);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/invitations/lookup', { secret })).status).toBe(200);
      const invitation = await new Browser(ctx).json('POST', '/dashboard/api/invitations/lookup', { secret }, 200);
      // better-auth set expiresAt with the system clock: move the test clock past it.
      ctx.clock.set(new Date(new Date(invitation.expiresAt).getTime() + 1000));
      const late = await new Browser(ctx).call('POST', '/dashboard/api/invitations/accept', { secret, password: PASSWORD });
      expect(late.status).toBe(410);
      ctx.clock.set(new Date());
    });

    test('an existing user accepts while signed in', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const other = await ctx.tenant({ name: 'Other' });
      const elsewhere = await signedIn(ctx, other.tenantId, 'owner');
      await owner.json('POST', `/dashboard/api/tenants/${tenantId}/invitations`, { email: elsewhere.user.email, role: 'admin' }, 201);
      const secret = await secretFromEmail(elsewhere.user.email);
      const info = await new Browser(ctx).json('POST', '/dashboard/api/invitations/lookup', { secret }, 200);
      expect(info.accountExists).toBe(true);
      expect((await new Browser(ctx).call('POST', '/dashboard/api/invitations/accept', { secret, password: PASSWORD })).status).toBe(409);
      expect((await owner.call('POST', '/dashboard/api/invitations/accept', { secret })).status).toBe(403);
      expect((await elsewhere.call('POST', '/dashboard/api/invitations/accept', { secret })).status).toBe(200);
      const me = await elsewhere.json('GET', '/dashboard/api/me', undefined, 200);
      expect(me.tenants.map((t: { role: string }) => t.role).sort()).toEqual(['admin', 'owner']);
      const [row] = await ctx.database.db.select().from(authUsers).where(eq(authUsers.email, elsewhere.user.email));
      const memberships = await ctx.database.db.select().from(authMembers).where(eq(authMembers.userId, row!.id));
      expect(memberships).toHaveLength(2);
    });
  });
}
