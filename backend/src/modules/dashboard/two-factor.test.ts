/**
 * Two-factor sign-in (issue 23, decision 0057): enrolment confirmed by a first code, sign-in with a
 * code or a recovery code (each once), the sign-in limit on code attempts, replays, turning it off,
 * and the tenant policy that holds back members who can manage keys.
 */
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import type { EnableTwoFactorResponse, MeResponse } from '@ageverify/protocol';
import { openTestDatabase, TARGETS } from '../../testing/test-databases';
import { createTestContext, TEST_SECRET, type TestContext } from '../../testing/test-app';
import { createApp } from '../../app';
import { createLogger } from '../../log';
import { ManualClock } from '../../clock';
import { auditLog, authMembers, authTwoFactors, authUsers } from '../../db/schema';
import { runCommand } from '../../cli/commands';
import { createTenant } from '../tenants/service';
import { addUser, Browser, ORIGIN, PASSWORD, signedIn } from './testing/dashboard-kit';
import { secretOfUri, TOTP_PERIOD_MS, totpCode, wrongTotpCode } from './testing/totp';

const AUTH = '/dashboard/api/auth';

/** A user who turned two-factor sign-in on: the secret their app holds and their recovery codes. */
interface Enrolled {
  secret: string;
  backupCodes: string[];
  /** Codes this user has had accepted (each is accepted once). */
  used: Set<string>;
}

/**
 * A code of the user's app that was not accepted before: this step's, else the next step's (both
 * are valid). When both were used, the clock better-auth reads (Date.now) moves to the next step,
 * as an app user would wait for it.
 */
function freshCode(enrolled: Enrolled): string {
  for (;;) {
    for (const step of [0, 1]) {
      const code = totpCode(enrolled.secret, Date.now(), step);
      if (!enrolled.used.has(code)) {
        enrolled.used.add(code);
        return code;
      }
    }
    setSystemTime(new Date(Date.now() + TOTP_PERIOD_MS));
  }
}

async function enrol(browser: Browser): Promise<Enrolled> {
  const started = await browser.json<EnableTwoFactorResponse>('POST', `${AUTH}/two-factor/enable`, { password: PASSWORD }, 200);
  const enrolled: Enrolled = { secret: secretOfUri(started.totpURI), backupCodes: started.backupCodes, used: new Set() };
  await browser.json('POST', `${AUTH}/two-factor/verify-totp`, { code: freshCode(enrolled) }, 200);
  return enrolled;
}

async function errorOf(response: Response): Promise<{ statusCode: number; message: string; code?: string }> {
  return (await response.json()) as never;
}

for (const target of TARGETS) {
  describe(`dashboard two-factor sign-in [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      ({ tenantId } = await ctx.tenant());
    });
    afterAll(async () => {
      setSystemTime();
      await ctx.close();
    });

    test("the operator's reset (CLI user two-factor-off): the factor is gone, every session ends, the password alone signs in, each tenant's trail says 'cli'", async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      await enrol(owner);
      const { tenantId: second } = await ctx.tenant();
      await ctx.database.db
        .insert(authMembers)
        .values({ id: `mem_${second}`, organizationId: second, userId: owner.user.userId, role: 'admin', createdAt: new Date() });

      const cli = { db: ctx.database.db, clock: new ManualClock(), guard: { resolver: async () => [], allowedCidrs: [] } };
      const reset = await runCommand(cli, ['user', 'two-factor-off', '--email', owner.user.email.toUpperCase()]);
      expect(reset.exitCode).toBe(0);
      expect(JSON.parse(reset.stdout)).toEqual({ userId: owner.user.userId, email: owner.user.email, wasEnabled: true, sessionsEnded: 1 });

      expect(await ctx.database.db.select().from(authTwoFactors).where(eq(authTwoFactors.userId, owner.user.userId))).toEqual([]);
      const [user] = await ctx.database.db.select().from(authUsers).where(eq(authUsers.id, owner.user.userId));
      expect(user!.twoFactorEnabled).toBe(false);
      // The old cookie no longer works; the password alone signs in again.
      expect((await owner.call('GET', '/dashboard/api/me')).status).toBe(401);
      const browser = new Browser(ctx);
      expect(await (await browser.signIn(owner.user.email)).json()).not.toHaveProperty('twoFactorRedirect');
      expect((await browser.call('GET', '/dashboard/api/me')).status).toBe(200);

      for (const tenant of [tenantId, second]) {
        const entries = await ctx.database.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.tenantId, tenant), eq(auditLog.action, 'member.two_factor_reset')));
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          actorType: 'cli',
          targetId: owner.user.userId,
          targetLabel: owner.user.email,
          changes: { twoFactor: { from: true, to: false } },
        });
      }

      // Again: nothing to reset, nothing recorded; an unknown address is a 404 in the CLI's words.
      const twice = await runCommand(cli, ['user', 'two-factor-off', '--email', owner.user.email]);
      expect(JSON.parse(twice.stdout)).toMatchObject({ wasEnabled: false, sessionsEnded: 0 });
      const unknown = await runCommand(cli, ['user', 'two-factor-off', '--email', 'nobody@example.com']);
      expect(unknown.exitCode).not.toBe(0);
      expect(unknown.stderr).toContain('no dashboard user with the email address "nobody@example.com"');
    });

    test('enrolment: the password starts it, the secret and recovery codes are stored encrypted, and only a first right code turns it on', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const elsewhere = new Browser(ctx);
      expect((await elsewhere.signIn(owner.user.email)).status).toBe(200);

      const wrongPassword = await owner.call('POST', `${AUTH}/two-factor/enable`, { password: 'not my password' });
      expect(wrongPassword.status).toBe(400);
      expect(await errorOf(wrongPassword)).toMatchObject({ code: 'TWO_FACTOR_PASSWORD_WRONG', message: 'the password is wrong' });
      const started = await owner.call('POST', `${AUTH}/two-factor/enable`, { password: PASSWORD });
      expect(started.status).toBe(200);
      const { totpURI, backupCodes, ...rest } = (await started.json()) as EnableTwoFactorResponse & Record<string, unknown>;
      expect(rest).toEqual({ method: 'totp' });
      expect(totpURI).toStartWith(`otpauth://totp/AgeVerify:${encodeURIComponent(owner.user.email)}?`);
      expect(new URL(totpURI).searchParams.get('issuer')).toBe('AgeVerify');
      expect(backupCodes).toHaveLength(10);
      for (const code of backupCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
      const secret = secretOfUri(totpURI);

      // Stored as better-auth stores them: encrypted with its key, neither the secret nor a code in clear.
      const [row] = await ctx.database.db.select().from(authTwoFactors).where(eq(authTwoFactors.userId, owner.user.userId));
      expect(row!.verified).toBe(false);
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(secret);
      for (const code of backupCodes) expect(stored).not.toContain(code);

      // Not on yet: the password alone still signs in.
      expect((await owner.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).twoFactor).toEqual({ enabled: false, tenantsRequiring: [] });
      const before = await new Browser(ctx).signIn(owner.user.email);
      expect(before.status).toBe(200);
      expect(await before.json()).not.toHaveProperty('twoFactorRedirect');

      const wrong = await owner.call('POST', `${AUTH}/two-factor/verify-totp`, { code: wrongTotpCode(secret) });
      expect(wrong.status).toBe(401);
      expect(await errorOf(wrong)).toMatchObject({ code: 'TWO_FACTOR_CODE_INVALID', message: expect.stringContaining('the code is wrong') });
      const code = totpCode(secret);
      const confirmed = await owner.call('POST', `${AUTH}/two-factor/verify-totp`, { code: `${code.slice(0, 3)} ${code.slice(3)}` });
      expect(confirmed.status).toBe(200);
      expect(JSON.stringify(await confirmed.json())).not.toContain('token');
      expect((await owner.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).twoFactor.enabled).toBe(true);
      const [user] = await ctx.database.db.select().from(authUsers).where(eq(authUsers.id, owner.user.userId));
      expect(user!.twoFactorEnabled).toBe(true);
      // Sessions opened with the password alone end; this one goes on.
      expect((await elsewhere.call('GET', '/dashboard/api/me')).status).toBe(401);
      // Once on, a second enrolment is refused (turn it off first).
      expect((await owner.call('POST', `${AUTH}/two-factor/enable`, { password: PASSWORD })).status).toBe(400);
    });

    test('sign-in: the password opens only the code step; a wrong code is refused, the right one signs in, and is not accepted twice', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const enrolled = await enrol(owner);

      const browser = new Browser(ctx);
      const challenged = await browser.signIn(owner.user.email);
      expect(challenged.status).toBe(200);
      expect(await challenged.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
      expect([...browser.cookies.keys()]).toEqual(['ageverify.two_factor']);
      expect(challenged.headers.getSetCookie().find((c) => c.startsWith('ageverify.two_factor='))).toMatch(
        /HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/,
      );
      expect((await browser.call('GET', '/dashboard/api/me')).status).toBe(401);

      const wrong = await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: wrongTotpCode(enrolled.secret) });
      expect(wrong.status).toBe(401);
      expect((await errorOf(wrong)).code).toBe('TWO_FACTOR_CODE_INVALID');
      expect((await browser.call('GET', '/dashboard/api/me')).status).toBe(401);

      const code = freshCode(enrolled);
      // Fields other than the code are not forwarded: no trusted device, the next sign-in asks again.
      const signedInNow = await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code, trustDevice: true });
      expect(signedInNow.status).toBe(200);
      expect(JSON.stringify(await signedInNow.json())).not.toContain('token');
      expect([...browser.cookies.keys()]).toEqual(['ageverify.session_token']);
      expect((await browser.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).user.email).toBe(owner.user.email);

      // RFC 6238 section 5.2: the same code is not accepted a second time.
      const again = new Browser(ctx);
      expect((await again.signIn(owner.user.email)).status).toBe(200);
      const replay = await again.call('POST', `${AUTH}/two-factor/verify-totp`, { code });
      expect(replay.status).toBe(401);
      expect((await errorOf(replay)).code).toBe('TWO_FACTOR_CODE_USED');
      expect((await again.call('POST', `${AUTH}/two-factor/verify-totp`, { code: freshCode(enrolled) })).status).toBe(200);
      // Two sign-ins racing with one code: one is accepted.
      const racers = [new Browser(ctx), new Browser(ctx)];
      for (const racer of racers) expect((await racer.signIn(owner.user.email)).status).toBe(200);
      const shared = freshCode(enrolled);
      const raced = await Promise.all(racers.map((racer) => racer.call('POST', `${AUTH}/two-factor/verify-totp`, { code: shared })));
      expect(raced.map((answer) => answer.status).sort()).toEqual([200, 401]);

      // Without the challenge cookie (or with a forged one) there is nothing to finish.
      const stranger = new Browser(ctx);
      stranger.cookies.set('ageverify.two_factor', encodeURIComponent('2fa-forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='));
      const forged = await stranger.call('POST', `${AUTH}/two-factor/verify-totp`, { code: totpCode(enrolled.secret) });
      expect(forged.status).toBe(401);
      expect((await errorOf(forged)).code).toBe('TWO_FACTOR_CHALLENGE_ENDED');

      // A code that is no text, or too long, is refused before it is checked.
      for (const bad of [123456, 'x'.repeat(65), null]) {
        const refused = await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: bad });
        expect(refused.status).toBe(400);
        expect((await errorOf(refused)).message).toContain('code must be text');
      }
    });

    test('a recovery code signs in once', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const enrolled = await enrol(owner);
      const [first, second] = enrolled.backupCodes as [string, string];

      const browser = new Browser(ctx);
      expect(await (await browser.signIn(owner.user.email)).json()).toMatchObject({ twoFactorRedirect: true });
      const recovered = await browser.call('POST', `${AUTH}/two-factor/verify-backup-code`, { code: first });
      expect(recovered.status).toBe(200);
      expect(JSON.stringify(await recovered.json())).not.toContain('token');
      expect((await browser.call('GET', '/dashboard/api/me')).status).toBe(200);

      const later = new Browser(ctx);
      await later.signIn(owner.user.email);
      const reused = await later.call('POST', `${AUTH}/two-factor/verify-backup-code`, { code: first });
      expect(reused.status).toBe(401);
      expect((await errorOf(reused)).code).toBe('TWO_FACTOR_CODE_INVALID');
      expect((await later.call('POST', `${AUTH}/two-factor/verify-backup-code`, { code: second })).status).toBe(200);
      // The stored list lost exactly the two used codes, and stays encrypted.
      const [row] = await ctx.database.db.select().from(authTwoFactors).where(eq(authTwoFactors.userId, owner.user.userId));
      for (const code of enrolled.backupCodes) expect(row!.backupCodes).not.toContain(code);
    });

    test('code attempts count in the sign-in limit: 5 wrong codes per email+IP, then 429 for codes and passwords alike', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const enrolled = await enrol(owner);
      const browser = new Browser(ctx);
      await browser.signIn(owner.user.email);
      for (let i = 0; i < 5; i++)
        expect((await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: wrongTotpCode(enrolled.secret) })).status).toBe(401);
      const limited = await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: freshCode(enrolled) });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await browser.call('POST', `${AUTH}/two-factor/verify-backup-code`, { code: enrolled.backupCodes[0] })).status).toBe(429);
      expect((await new Browser(ctx).signIn(owner.user.email)).status).toBe(429);

      ctx.clock.advance(15 * 60 * 1000);
      const next = new Browser(ctx);
      expect((await next.signIn(owner.user.email)).status).toBe(200);
      expect((await next.call('POST', `${AUTH}/two-factor/verify-totp`, { code: freshCode(enrolled) })).status).toBe(200);
    });

    test('parallel wrong codes: exactly 5 are checked, the rest are 429', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const enrolled = await enrol(owner);
      ctx.clock.advance(15 * 60 * 1000);
      const browser = new Browser(ctx);
      await browser.signIn(owner.user.email);
      const wrong = wrongTotpCode(enrolled.secret);
      const answers = await Promise.all(Array.from({ length: 40 }, () => browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: wrong })));
      const statuses: Record<number, number> = {};
      for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
      // The sign-in took its unit and gave it back: 5 codes are checked, whatever the order.
      expect(statuses).toEqual({ 401: 5, 429: 35 });
      ctx.clock.advance(15 * 60 * 1000);
    });

    test("the plugin's account lock answers 429 in our words", async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const enrolled = await enrol(owner);
      await ctx.database.db
        .update(authTwoFactors)
        .set({ failedVerificationCount: 10, lockedUntil: new Date(Date.now() + 60_000) })
        .where(eq(authTwoFactors.userId, owner.user.userId));
      const browser = new Browser(ctx);
      await browser.signIn(owner.user.email);
      const locked = await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: freshCode(enrolled) });
      expect(locked.status).toBe(429);
      expect(locked.headers.get('retry-after')).toBe('900');
      expect((await errorOf(locked)).message).toContain('too many wrong codes for this user');
    });

    test('turning it off needs the password; sign-in then asks for no code', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      await enrol(owner);
      const wrongPassword = await owner.call('POST', `${AUTH}/two-factor/disable`, { password: 'not my password' });
      expect(wrongPassword.status).toBe(400);
      expect((await errorOf(wrongPassword)).code).toBe('TWO_FACTOR_PASSWORD_WRONG');
      expect((await owner.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).twoFactor.enabled).toBe(true);
      const off = await owner.call('POST', `${AUTH}/two-factor/disable`, { password: PASSWORD });
      expect(off.status).toBe(200);
      expect((await owner.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).twoFactor.enabled).toBe(false);
      expect(await ctx.database.db.select().from(authTwoFactors).where(eq(authTwoFactors.userId, owner.user.userId))).toEqual([]);
      const browser = new Browser(ctx);
      const plain = await browser.signIn(owner.user.email);
      expect(plain.status).toBe(200);
      expect(await plain.json()).not.toHaveProperty('twoFactorRedirect');
      expect((await browser.call('GET', '/dashboard/api/me')).status).toBe(200);
    });

    test.each([
      ['POST', '/two-factor/get-totp-uri', { password: PASSWORD }],
      ['POST', '/two-factor/generate-backup-codes', { password: PASSWORD }],
      ['POST', '/two-factor/send-otp', {}],
      ['POST', '/two-factor/verify-otp', { code: '123456' }],
      ['GET', '/two-factor/verify-totp', undefined],
    ] as const)('%s /dashboard/api/auth%s is not reachable (404)', async (method, path, body) => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      await enrol(owner);
      const answer = await owner.call(method, `${AUTH}${path}`, body);
      expect(answer.status).toBe(404);
      expect(JSON.stringify(await answer.json())).not.toContain('otpauth');
    });
  });

  describe(`dashboard two-factor policy [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    beforeAll(async () => {
      ctx = await createTestContext(target);
      ({ tenantId } = await ctx.tenant());
    });
    afterAll(async () => {
      setSystemTime();
      await ctx.close();
    });

    test('an owner requires it; members who can manage keys and have no second factor get 403 until they enrol; developers are not held back', async () => {
      const owner = await signedIn(ctx, tenantId, 'owner');
      const admin = await signedIn(ctx, tenantId, 'admin');
      const developer = await signedIn(ctx, tenantId, 'developer');
      const policy = `/dashboard/api/tenants/${tenantId}/two-factor-policy`;
      expect(await developer.json('GET', policy, undefined, 200)).toEqual({ required: false });

      // Only owners set it, and only with their own second factor on.
      const byAdmin = await admin.call('PATCH', policy, { required: true });
      expect(byAdmin.status).toBe(403);
      expect((await errorOf(byAdmin)).message).toBe('Your role (admin) cannot change the sign-in policy');
      const ownerWithout = await owner.call('PATCH', policy, { required: true });
      expect(ownerWithout.status).toBe(409);
      expect((await errorOf(ownerWithout)).message).toContain('turn on two-factor sign-in for your own user first');
      expect((await owner.call('PATCH', policy, { required: 'yes' })).status).toBe(400);
      await enrol(owner);
      expect(await owner.json('PATCH', policy, { required: true }, 200)).toEqual({ required: true });
      expect(await owner.json('GET', policy, undefined, 200)).toEqual({ required: true });

      // The admin can manage keys and has no second factor: every tenant route answers 403, key management included.
      for (const [method, path, body] of [
        ['POST', '/keys', { sandbox: true }],
        ['GET', '/keys', undefined],
        ['GET', '/overview', undefined],
        ['GET', '/two-factor-policy', undefined],
      ] as const) {
        const refused = await admin.call(method, `/dashboard/api/tenants/${tenantId}${path}`, body);
        expect(refused.status).toBe(403);
        const error = await errorOf(refused);
        expect(error.code).toBe('TWO_FACTOR_REQUIRED');
        expect(error.message).toContain('requires two-factor sign-in of members who can manage API keys');
      }
      expect((await admin.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).twoFactor).toEqual({ enabled: false, tenantsRequiring: [tenantId] });

      // A developer cannot manage keys: not held back, and refused key management by role as before.
      expect((await developer.call('GET', `/dashboard/api/tenants/${tenantId}/overview`)).status).toBe(200);
      const developerKeys = await developer.call('POST', `/dashboard/api/tenants/${tenantId}/keys`, { sandbox: true });
      expect(developerKeys.status).toBe(403);
      expect((await errorOf(developerKeys)).code).toBeUndefined();

      // The policy is the tenant's: the same admin in another tenant is not held back there.
      const other = await createTenant(ctx.database.db, ctx.clock, { name: 'Other', domains: [], sandbox: true });
      const { insertMember } = await import('../tenants/accounts');
      await insertMember(ctx.database.db, other.tenantId, admin.user.userId, 'admin', ctx.clock.now());
      expect((await admin.call('GET', `/dashboard/api/tenants/${other.tenantId}/keys`)).status).toBe(200);

      // Enrolled, the admin manages keys again.
      await enrol(admin);
      expect((await admin.call('POST', `/dashboard/api/tenants/${tenantId}/keys`, { sandbox: true })).status).toBe(201);
      expect((await admin.json<MeResponse>('GET', '/dashboard/api/me', undefined, 200)).twoFactor).toEqual({ enabled: true, tenantsRequiring: [tenantId] });

      // An owner who turns their own second factor off is held back too, until they enrol again or the policy is off.
      expect((await owner.call('POST', '/dashboard/api/auth/two-factor/disable', { password: PASSWORD })).status).toBe(200);
      expect((await owner.call('GET', `/dashboard/api/tenants/${tenantId}/keys`)).status).toBe(403);
      expect((await owner.call('PATCH', policy, { required: false })).status).toBe(403);
      await enrol(owner);
      expect(await owner.json('PATCH', policy, { required: false }, 200)).toEqual({ required: false });
      const newcomer = await addUser(ctx, tenantId, 'admin');
      const newcomerBrowser = new Browser(ctx);
      await newcomerBrowser.signIn(newcomer.email);
      expect((await newcomerBrowser.call('GET', `/dashboard/api/tenants/${tenantId}/keys`)).status).toBe(200);
    });
  });

  describe(`dashboard two-factor secrets stay out of the logs [${target}]`, () => {
    test('a whole enrolment, sign-in with a code and with a recovery code, and turning it off log no secret, code or password', async () => {
      const lines: string[] = [];
      const database = await openTestDatabase(target);
      try {
        const app = createApp({
          db: database.db,
          clock: new ManualClock(),
          logger: createLogger('debug', (line) => lines.push(line)),
          serverSecret: TEST_SECRET,
          publicBaseUrl: ORIGIN,
          verifyUrl: `${ORIGIN}/verify`,
          maxBodyBytes: 16 * 1024,
        });
        const ctx = { app, clock: new ManualClock(), database } as unknown as TestContext;
        const { tenantId } = await createTenant(database.db, ctx.clock, { name: 'Logged', domains: [], sandbox: true });
        const owner = await signedIn(ctx, tenantId, 'owner');
        const enrolled = await enrol(owner);
        const browser = new Browser(ctx);
        await browser.signIn(owner.user.email);
        await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: wrongTotpCode(enrolled.secret) });
        await browser.call('POST', `${AUTH}/two-factor/verify-totp`, { code: freshCode(enrolled) });
        const other = new Browser(ctx);
        await other.signIn(owner.user.email);
        await other.call('POST', `${AUTH}/two-factor/verify-backup-code`, { code: enrolled.backupCodes[0] });
        await owner.call('POST', `${AUTH}/two-factor/disable`, { password: PASSWORD });
        expect(lines.length).toBeGreaterThan(0);
        const log = lines.join('\n');
        for (const secret of [enrolled.secret, ...enrolled.backupCodes, ...enrolled.used, PASSWORD]) expect(log).not.toContain(secret);
      } finally {
        setSystemTime();
        await database.close();
      }
    });
  });
}
