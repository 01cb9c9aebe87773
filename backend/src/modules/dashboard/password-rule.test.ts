/**
 * Issue 22, finding 6 through the routes: `aaaaaaaaaa` and `1111111111` were accepted (length was
 * the only rule). A password change and the CLI's owner now go through the strength rule too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runCommand } from '../../cli/commands';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { TARGETS } from '../../testing/test-databases';
import { PASSWORD, signedIn } from './testing/dashboard-kit';

for (const target of TARGETS) {
  describe(`password rule [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    test('a password change to a guessable password is refused with advice; a strong one is taken', async () => {
      const { tenantId } = await ctx.tenant();
      const owner = await signedIn(ctx, tenantId, 'owner');
      for (const weak of ['aaaaaaaaaa', '1111111111']) {
        const response = await owner.call('POST', '/dashboard/api/auth/change-password', { currentPassword: PASSWORD, newPassword: weak });
        expect([weak, response.status]).toEqual([weak, 400]);
        expect(((await response.json()) as { message: string }).message).toStartWith('password is too easy to guess. Repeated characters');
      }
      const strong = await owner.call('POST', '/dashboard/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a brand new password' });
      expect(strong.status).toBe(200);
    });

    test("the CLI's owner password goes through the same rule", async () => {
      const result = await runCommand({ db: ctx.database.db, clock: ctx.clock, guard: { allowedCidrs: [], caFile: null } }, [
        'tenant',
        'create',
        '--name',
        'Weak Shop',
        '--domain',
        'weak.example.com',
        '--owner',
        'weak@example.com',
        '--password',
        '1111111111',
      ]);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain('password is too easy to guess');
    });
  });
}
