/**
 * The whole merchant journey in a browser, with a sandbox key pair: shop page → SDK creates the
 * session → hosted verify UI → simulated outcome → redirect back to the merchant → the merchant's
 * server validates and decides (spec "What the service does", steps 1–4).
 */
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';

const JOURNEYS = [
  { outcome: 'verified', access: 'granted' },
  { outcome: 'failed', access: 'denied' },
  { outcome: 'cancelled', access: 'denied' },
] as const;

/** Spec "Verification UI query parameters": the only ones a caller may append to verifyUrl. */
const DISPLAY_PARAMETERS = ['lang', 'skip_intro', 'auto_return'];

for (const { outcome, access } of JOURNEYS) {
  test(`simulate ${outcome}: the callback carries status=${outcome} and the merchant's validation ${access === 'granted' ? 'grants' : 'denies'} access`, async ({
    page,
    environment,
    shop,
    verifyPage,
    returnPage,
  }) => {
    const merchantOrigin = new URL(environment.merchantUrl).origin;
    const merchantUrlsVisited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().startsWith(merchantOrigin)) merchantUrlsVisited.push(frame.url());
    });

    // 1. The SDK on the shop page creates the session with the publishable key.
    await shop.open();
    const created = await shop.verifyMyAge();
    expect(created.status).toBe(201);
    expect(created.requestHeaders.authorization).toBe(`Bearer ${environment.sandbox.publishableKey}`);
    expect(created.requestBody).toMatchObject({ returnUrl: `${environment.merchantUrl}/return`, externalUserId: 'user-42' });
    expect(created.body).toMatchObject({ sandboxMode: true, testMode: false, externalUserId: 'user-42' });
    const session = created.body as { sessionId: string; sessionToken: string; handoffToken: string; verifyUrl: string };

    // 2. The browser lands on verifyUrl as returned: nothing removed, at most display parameters added.
    const openedUrl = await verifyPage.waitUntilOpen();
    const returnedUrl = new URL(session.verifyUrl);
    expect(openedUrl.origin + openedUrl.pathname).toBe(returnedUrl.origin + returnedUrl.pathname);
    for (const [name, value] of returnedUrl.searchParams) expect(openedUrl.searchParams.getAll(name), `verifyUrl parameter ${name}`).toEqual([value]);
    const added = [...openedUrl.searchParams.keys()].filter((name) => !returnedUrl.searchParams.has(name));
    expect(added.filter((name) => !DISPLAY_PARAMETERS.includes(name))).toEqual([]);
    expect(openedUrl.searchParams.get('sessionId')).toBe(session.sessionId);
    expect(openedUrl.searchParams.get('sessionToken')).toBe(session.sessionToken);

    // 3. The tester picks the outcome; the UI redirects to returnUrl.
    await expect(page.getByTestId('intro')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'sandbox intro');
    await verifyPage.start();
    await expect(page.getByTestId('sandbox-panel')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'sandbox panel');
    await verifyPage.simulate(outcome);
    const callback = await returnPage.waitForCallback();
    const arrivedAt = Date.now();

    // Spec "End-user redirect and callback": exactly these parameters, and never a bearer credential.
    expect([...callback.searchParams.keys()].sort()).toEqual(['externalUserId', 'sessionId', 'status', 'timestamp']);
    expect(callback.searchParams.get('sessionId')).toBe(session.sessionId);
    expect(callback.searchParams.get('status')).toBe(outcome);
    expect(callback.searchParams.get('externalUserId')).toBe('user-42');
    const timestamp = callback.searchParams.get('timestamp') ?? '';
    expect(timestamp, 'timestamp is an integer in milliseconds').toMatch(/^\d+$/);
    expect(Number(timestamp)).toBeLessThanOrEqual(arrivedAt);
    expect(Number(timestamp)).toBeGreaterThan(arrivedAt - 60_000);
    expect(merchantUrlsVisited.length).toBeGreaterThan(0);
    for (const url of merchantUrlsVisited) {
      expect(url).not.toContain('sessionToken');
      expect(url).not.toContain(session.sessionToken);
      expect(url).not.toContain(session.handoffToken);
    }

    // 4. What the page says comes from the merchant server's POST /sessions/validate.
    if (access === 'granted') {
      await expect(returnPage.accessGranted).toHaveText('Access granted');
      await expect(returnPage.accessDenied).toHaveCount(0);
    } else {
      await expect(returnPage.accessDenied).toHaveText('Access denied');
      await expect(returnPage.accessGranted).toHaveCount(0);
    }
    await expect(returnPage.validatedStatus).toHaveText(outcome);
    await expect(returnPage.validatedExternalUserId).toHaveText('user-42');
    await expect(returnPage.validatedSessionId).toHaveText(session.sessionId);

    // The validation consumed the session: replaying the same callback grants nothing.
    await page.reload();
    await expect(returnPage.accessDenied).toBeVisible();
    await expect(returnPage.validationError).toHaveText('Session has already been used');
    await expect(returnPage.accessGranted).toHaveCount(0);
  });
}

test.describe('the merchant never trusts the callback parameters', () => {
  test('a forged status=verified for a failed session is denied', async ({ api, environment, returnPage }) => {
    const session = await api.createMerchantSession(environment.sandbox.secretKey);
    expect((await api.simulate(session, 'failed')).ok()).toBe(true);

    await returnPage.open({ sessionId: session.sessionId, status: 'verified', timestamp: String(Date.now()), externalUserId: 'user-42' });
    await expect(returnPage.callbackStatus).toHaveText('status=verified');
    await expect(returnPage.accessDenied).toBeVisible();
    await expect(returnPage.validatedStatus).toHaveText('failed');
    await expect(returnPage.accessGranted).toHaveCount(0);
  });

  test('a forged status=verified for an unfinished session is denied as pending', async ({ api, environment, returnPage }) => {
    const session = await api.createMerchantSession(environment.sandbox.secretKey);

    await returnPage.open({ sessionId: session.sessionId, status: 'verified', timestamp: String(Date.now()) });
    await expect(returnPage.accessDenied).toBeVisible();
    await expect(returnPage.validatedStatus).toHaveText('pending');
    await expect(returnPage.accessGranted).toHaveCount(0);
  });

  test('a made-up sessionId is denied with the service error', async ({ returnPage }) => {
    await returnPage.open({ sessionId: 'ses_doesnotexist', status: 'verified', timestamp: String(Date.now()) });
    await expect(returnPage.accessDenied).toBeVisible();
    await expect(returnPage.validationError).toHaveText('Session not found');
  });
});
