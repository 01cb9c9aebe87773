/**
 * Issue 23, item 6: cancelled is its own status and filter, and the sessions of a date range
 * export as CSV (on both databases).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { TARGETS } from '../../testing/test-databases';
import { signedIn } from './testing/dashboard-kit';

for (const target of TARGETS) {
  describe(`dashboard sessions: cancelled, CSV export [${target}]`, () => {
    let ctx: TestContext;
    let tenantId: string;
    let key: string;
    let developer: Awaited<ReturnType<typeof signedIn>>;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      ctx = await createTestContext(target);
      const shop = await ctx.tenant({ sandbox: true });
      tenantId = shop.tenantId;
      key = shop.secretKey;
      developer = await signedIn(ctx, tenantId, 'developer');
      const days = { verified: '2026-05-01T10:00:00Z', failed: '2026-05-02T10:00:00Z', cancelled: '2026-05-03T23:59:59Z', pending: '2026-05-05T00:00:00Z' };
      for (const [outcome, at] of Object.entries(days)) {
        ctx.clock.set(new Date(at));
        const created = await ctx.json(
          await ctx.request('POST', '/api/v1/sessions/create', {
            key,
            body: { returnUrl: 'https://shop.example.com/back', externalUserId: outcome === 'failed' ? '=HYPERLINK("http://evil")' : `user-${outcome}` },
          }),
        );
        ids[outcome] = created.sessionId;
        if (outcome !== 'pending') {
          const simulated = await ctx.request('POST', '/api/v1/verify/simulate', {
            body: { sessionId: created.sessionId, sessionToken: created.sessionToken, outcome },
          });
          expect(simulated.status).toBe(200);
        }
      }
    });
    afterAll(() => ctx.close());

    const list = async (status: string) =>
      (await developer.json('GET', `/dashboard/api/tenants/${tenantId}/sessions?status=${status}`, undefined, 200)).sessions.map(
        (session: { sessionId: string; status: string }) => [session.sessionId, session.status],
      );

    test('a cancelled session is CANCELLED, filtered apart from FAILED', async () => {
      expect(await list('CANCELLED')).toEqual([[ids.cancelled, 'CANCELLED']]);
      expect(await list('FAILED')).toEqual([[ids.failed, 'FAILED']]);
      const detail = await developer.json('GET', `/dashboard/api/tenants/${tenantId}/sessions/${ids.cancelled}`, undefined, 200);
      expect(detail.session.status).toBe('CANCELLED');
      expect((await developer.call('GET', `/dashboard/api/tenants/${tenantId}/sessions?status=cancelled`)).status).toBe(400);
    });

    test('CSV export of a date range: whole UTC days, inclusive, newest first, formulas defused', async () => {
      const response = await developer.call('GET', `/dashboard/api/tenants/${tenantId}/sessions/export.csv?from=2026-05-02&to=2026-05-03`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="sessions-2026-05-02-to-2026-05-03.csv"');
      const rows = parse(await response.text(), { columns: true }) as Record<string, string>[];
      expect(rows.map((row) => [row.sessionId, row.status, row.externalUserId])).toEqual([
        [ids.cancelled, 'CANCELLED', 'user-cancelled'],
        [ids.failed, 'FAILED', `'=HYPERLINK("http://evil")`],
      ]);
      expect(Object.keys(rows[0]!)).toEqual([
        'sessionId',
        'status',
        'verificationMode',
        'challengeAge',
        'externalUserId',
        'sandbox',
        'failureReason',
        'createdAt',
        'completedAt',
      ]);
      expect(rows[0]).toMatchObject({
        verificationMode: 'L1',
        challengeAge: '25',
        sandbox: 'true',
        failureReason: 'cancelled',
        createdAt: '2026-05-03T23:59:59.000Z',
      });
    });

    test('a bad range is a 400 that says what is wrong', async () => {
      for (const query of ['from=2026-05-03&to=2026-05-02', 'from=2026-02-30&to=2026-03-01', 'from=2025-01-01&to=2026-05-02', 'from=yesterday&to=2026-05-02']) {
        const response = await developer.call('GET', `/dashboard/api/tenants/${tenantId}/sessions/export.csv?${query}`);
        expect([query, response.status]).toEqual([query, 400]);
        expect(((await response.json()) as { message: string }).message).toBe(
          'from and to must be dates (YYYY-MM-DD), from no later than to, at most 366 days apart',
        );
      }
      expect((await developer.call('GET', `/dashboard/api/tenants/${tenantId}/sessions/export.csv?from=2026-05-01`)).status).toBe(400);
    });
  });
}
