import { describe, expect, test } from 'bun:test';
import { createApp } from '../app';
import { ManualClock } from '../clock';
import { createLogger } from '../log';
import { openTestDatabase } from '../testing/test-databases';
import { loggedPath } from './logged-path';

const BASE = 'http://localhost:3000';

describe('loggedPath: credentials never reach the logs (issue 22, finding 7)', () => {
  test.each([
    ['/dashboard/api/invitations/inv_SECRET123', '/dashboard/api/invitations/:invitationId'],
    ['/dashboard/api/invitations/inv_SECRET123/accept', '/dashboard/api/invitations/:invitationId/accept'],
    ['/dashboard/api/tenants/ten_1/invitations/inv_SECRET123', '/dashboard/api/tenants/ten_1/invitations/:invitationId'],
    ['/verify?sessionId=ses_1&sessionToken=SECRET123', '/verify'],
    ['/verify/?sessionId=ses_1&handoffToken=SECRET123&lang=de', '/verify/'],
    ['/dashboard/setup?token=SECRET123', '/dashboard/setup'],
    ['/dashboard/api/auth/reset-password?token=SECRET123', '/dashboard/api/auth/reset-password'],
    // Not credentials: kept, so the line still says what was touched.
    ['/api/v1/sessions/ses_1', '/api/v1/sessions/ses_1'],
    ['/dashboard/api/tenants/ten_1/webhooks/whe_1/rotate-secret', '/dashboard/api/tenants/ten_1/webhooks/whe_1/rotate-secret'],
  ])('%s is logged as %s', (path, logged) => {
    expect(loggedPath(`${BASE}${path}`)).toBe(logged);
    expect(loggedPath(`${BASE}${path}`)).not.toContain('SECRET123');
  });

  test('the access log line of an invitation look-up and acceptance carries no invitation id', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const lines: string[] = [];
      const app = createApp({
        db: database.db,
        clock: new ManualClock(),
        logger: createLogger('info', (line) => lines.push(line)),
        serverSecret: 'x'.repeat(40),
        publicBaseUrl: BASE,
        verifyUrl: `${BASE}/verify`,
        maxBodyBytes: 1024,
      });
      await app.handle(new Request(`${BASE}/dashboard/api/invitations/inv_SECRET123`));
      await app.handle(
        new Request(`${BASE}/dashboard/api/invitations/inv_SECRET123/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE },
          body: JSON.stringify({ name: 'A', password: 'x'.repeat(12) }),
        }),
      );
      await app.handle(new Request(`${BASE}/verify?sessionId=ses_1&sessionToken=SECRET123`));
      await Bun.sleep(10); // onAfterResponse runs after the response is handed over
      const requests = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
      expect(requests.map((line) => line.path)).toEqual([
        '/dashboard/api/invitations/:invitationId',
        '/dashboard/api/invitations/:invitationId/accept',
        '/verify',
      ]);
      expect(lines.join('\n')).not.toContain('SECRET123');
    } finally {
      await database.close();
    }
  }, 30_000);
});
