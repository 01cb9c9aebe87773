/**
 * The last-owner rule under concurrency (issue 25, item 3): a tenant's two owners each stepping down
 * (demoting or removing themselves) at the same moment must leave exactly one owner. With a count followed by an update both
 * requests read "2 owners" and both pass; the guarded statement (tenants/accounts.ts) lets one
 * through and refuses the other with 409. On PGlite (one connection) the requests serialise; on
 * PostgreSQL they run on separate connections and really overlap.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { TARGETS } from '../../testing/test-databases';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { ownerCount } from '../tenants/accounts';
import { signedIn } from './testing/dashboard-kit';

const ROUNDS = 4;
/** Each round signs two users in (a password hash each); the default 5 s is too short for all rounds. */
const TIMEOUT_MS = 60_000;

for (const target of TARGETS) {
  describe(`the last owner under concurrent changes [${target}]`, () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext(target);
    });
    afterAll(() => ctx.close());

    const api = (tenantId: string, path: string) => `/dashboard/api/tenants/${tenantId}${path}`;

    for (const [name, request] of [
      ['demotions', (userId: string) => ({ method: 'PATCH', path: `/members/${userId}`, body: { role: 'admin' } })],
      ['removals', (userId: string) => ({ method: 'DELETE', path: `/members/${userId}`, body: undefined })],
    ] as const) {
      test(
        `${name}: the tenant's two owners step down at once: one passes, the other is 409, one owner stays`,
        async () => {
          for (let round = 0; round < ROUNDS; round++) {
            const { tenantId } = await ctx.tenant({ name: `Race ${round}` });
            const a = await signedIn(ctx, tenantId, 'owner');
            const b = await signedIn(ctx, tenantId, 'owner');
            // The tenant's own owner from ctx.tenant is removed first, so a and b are the only two.
            const others = (await a.json('GET', api(tenantId, '/members'), undefined, 200)).members.filter(
              (m: { userId: string; role: string }) => m.role === 'owner' && m.userId !== a.user.userId && m.userId !== b.user.userId,
            );
            for (const other of others) await a.json('DELETE', api(tenantId, `/members/${other.userId}`), undefined, 200);
            expect(await ownerCount(ctx.database.db, tenantId)).toBe(2);

            // Each demotes or removes themself, at the same moment.
            const ra = request(a.user.userId);
            const rb = request(b.user.userId);
            const statuses = (await Promise.all([a.call(ra.method, api(tenantId, ra.path), ra.body), b.call(rb.method, api(tenantId, rb.path), rb.body)])).map(
              (response) => response.status,
            );
            expect(statuses.toSorted()).toEqual([200, 409]);
            expect(await ownerCount(ctx.database.db, tenantId)).toBe(1);
          }
        },
        TIMEOUT_MS,
      );
    }
  });
}
