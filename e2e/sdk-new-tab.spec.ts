/**
 * The SDK's new-tab mode in a real browser (spec "Browser SDK": `mode: 'new-tab'`, `newTabTarget`,
 * `onComplete`, `onCancel`, `cancelUrl`; "End-user redirect and callback": the cross-window message
 * and `cancelled` when a new-tab flow is closed). Redirect mode, the default, is the merchant
 * journey of verify-sandbox.spec.ts.
 *
 * The SDK runs on the SDK lab page (support/sdk-lab.ts), a merchant page that loads the SDK from
 * the service; the merchant app's /return page on the same origin stands for the merchant server.
 */
import type { Page } from '@playwright/test';
import { VerifyPage } from './pages/verify-page';
import { expect, test } from './support/fixtures';

/** sdk/README.md "Modes": a 500×760 popup centred over the page; the tab gets no features. */
const POPUP_FEATURES = /^width=500,height=760,left=\d+,top=\d+,resizable=yes,scrollbars=yes$/;

/** Navigations of the page's main frame after it first loaded the lab. */
function mainFrameNavigations(page: Page): string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  return urls;
}

function expectRecentMilliseconds(value: unknown, startedAt: number): void {
  expect(typeof value, 'timestamp is a number').toBe('number');
  expect(Number.isInteger(value), 'timestamp is whole milliseconds').toBe(true);
  expect(value as number).toBeGreaterThanOrEqual(startedAt - 5_000);
  expect(value as number).toBeLessThanOrEqual(Date.now());
}

const TARGETS = [
  { newTabTarget: undefined, name: 'popup (the default newTabTarget)', popup: true, features: POPUP_FEATURES },
  { newTabTarget: 'tab', name: 'tab', popup: false, features: /^$/ },
] as const;

for (const { newTabTarget, name, popup, features } of TARGETS) {
  test(`new-tab mode as a ${name}: the opener stays, onComplete gets {sessionId, status, timestamp, externalUserId}, the merchant validates it`, async ({
    page,
    environment,
    sdkLab,
  }) => {
    const { returnPage } = sdkLab;
    const startedAt = Date.now();
    await sdkLab.open();
    const openerNavigations = mainFrameNavigations(page);
    const creations = await sdkLab.recordSessionCreations();
    const cancelReports: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/verify/cancel')) cancelReports.push(request.url());
    });
    await sdkLab.configure({
      apiKey: environment.sandbox.publishableKey,
      returnUrl: sdkLab.returnUrl,
      mode: 'new-tab',
      ...(newTabTarget ? { newTabTarget } : {}),
    });

    // Playwright reports tabs and popups alike as new pages of the context.
    const opened = page.context().waitForEvent('page');
    await sdkLab.verify({ externalUserId: 'user-42' });
    const flowWindow = await opened;

    // The SDK opened the window itself, inside the click, blank, with the target's features.
    const open = await sdkLab.waitForEvent('window.open');
    expect(open).toMatchObject({ url: '', target: '_blank' });
    expect(open.features).toMatch(features);

    // The window goes to verifyUrl exactly as the service returned it (no display options were given).
    const verify = new VerifyPage(flowWindow, environment.serviceUrl);
    const openedUrl = await verify.waitUntilOpen();
    expect(creations).toHaveLength(1);
    const created = creations[0]!;
    expect(created.status).toBe(201);
    expect(created.requestHeaders.authorization).toBe(`Bearer ${environment.sandbox.publishableKey}`);
    expect(created.requestBody).toEqual({ returnUrl: sdkLab.returnUrl, externalUserId: 'user-42' });
    const session = created.body as { sessionId: string; verifyUrl: string };
    expect(openedUrl.href).toBe(session.verifyUrl);
    await expect(flowWindow.getByTestId('intro')).toBeVisible();
    // What the browser made of it: a popup has no toolbar and the requested size; a tab is a normal window.
    const shape = await flowWindow.evaluate(() => ({ toolbar: window.toolbar.visible, width: window.innerWidth, height: window.innerHeight }));
    if (popup) expect(shape).toEqual({ toolbar: false, width: 500, height: 760 });
    else expect(shape.toolbar).toBe(true);
    expect(await flowWindow.evaluate(() => window.opener !== null), 'the window keeps its opener (no noopener)').toBe(true);
    expect(await sdkLab.waitForEvent('verify-result')).toEqual({
      type: 'verify-result',
      result: { ok: true, sessionId: session.sessionId, verifyUrl: session.verifyUrl, mode: 'new-tab' },
    });

    await verify.start();
    await verify.simulate('verified');

    // onComplete gets exactly the documented fields (spec "Browser SDK", onComplete).
    const { argument } = await sdkLab.waitForEvent('complete');
    expect(argument.count).toBe(1);
    expect([...argument.keys].sort()).toEqual(['externalUserId', 'sessionId', 'status', 'timestamp']);
    expect(argument.value).toEqual({ sessionId: session.sessionId, status: 'verified', timestamp: expect.any(Number), externalUserId: 'user-42' });
    expectRecentMilliseconds(argument.value.timestamp, startedAt);

    // The window closes after the result: the verify UI closes it after its result screen (or the
    // user does). That close is not a cancellation: the SDK stopped watching when the message
    // arrived (it reads window.closed every 500 ms, then would report POST /verify/cancel).
    await flowWindow.waitForEvent('close', { timeout: 5_000 }).catch(() => flowWindow.close());
    await page.waitForTimeout(1_200);
    expect(cancelReports).toEqual([]);
    expect(sdkLab.eventsOf('cancel')).toEqual([]);
    expect(sdkLab.eventsOf('error')).toEqual([]);
    expect(sdkLab.eventsOf('window.open')).toHaveLength(1);

    // The opener never left the lab page: onComplete replaces the redirect to returnUrl.
    expect(openerNavigations).toEqual([]);
    expect(page.url()).toBe(sdkLab.url);

    // What a merchant's onComplete does next: its server validates the sessionId with the secret key.
    await returnPage.open({ sessionId: argument.value.sessionId as string });
    await expect(returnPage.accessGranted).toHaveText('Access granted');
    await expect(returnPage.validatedStatus).toHaveText('verified');
    await expect(returnPage.validatedSessionId).toHaveText(session.sessionId);
    await expect(returnPage.validatedExternalUserId).toHaveText('user-42');
  });
}

test.describe('closing the verification window before completion', () => {
  test('fires onCancel({sessionId}), records the cancellation and sends the opener to cancelUrl with status, sessionId and timestamp', async ({
    page,
    environment,
    sdkLab,
  }) => {
    const { returnPage } = sdkLab;
    const startedAt = Date.now();
    await sdkLab.open();
    const creations = await sdkLab.recordSessionCreations();
    // The merchant's /return page validates whatever sessionId it is given, so it serves as cancelUrl
    // too; its own query parameter must survive (spec "URL rules": existing parameters preserved).
    const cancelUrl = `${sdkLab.returnUrl}?flow=popup-closed`;
    await sdkLab.configure({ apiKey: environment.sandbox.publishableKey, returnUrl: sdkLab.returnUrl, cancelUrl, mode: 'new-tab' });

    const popupOpened = page.waitForEvent('popup');
    await sdkLab.verify();
    const popup = await popupOpened;
    const verify = new VerifyPage(popup, environment.serviceUrl);
    await verify.waitUntilOpen();
    await expect(popup.getByTestId('intro')).toBeVisible();
    const session = creations[0]!.body as { sessionId: string };
    expect(creations[0]!.requestBody).toEqual({ returnUrl: sdkLab.returnUrl, cancelUrl });

    await popup.close();

    const { argument } = await sdkLab.waitForEvent('cancel');
    expect(argument).toEqual({ count: 1, keys: ['sessionId'], value: { sessionId: session.sessionId } });

    const callback = await returnPage.waitForCallback();
    expect([...callback.searchParams.keys()].sort()).toEqual(['flow', 'sessionId', 'status', 'timestamp']);
    expect(callback.searchParams.get('flow')).toBe('popup-closed');
    expect(callback.searchParams.get('status')).toBe('cancelled');
    expect(callback.searchParams.get('sessionId')).toBe(session.sessionId);
    expect(callback.searchParams.get('timestamp')).toMatch(/^\d+$/);
    expectRecentMilliseconds(Number(callback.searchParams.get('timestamp')), startedAt);
    expect(sdkLab.eventsOf('complete')).toEqual([]);

    // The merchant server's validation (secret key) says the session was cancelled: the service
    // recorded verification.cancelled, it is not only the page's opinion.
    await expect(returnPage.accessDenied).toBeVisible();
    await expect(returnPage.validatedStatus).toHaveText('cancelled');
    await expect(returnPage.validatedSessionId).toHaveText(session.sessionId);
  });

  test('onCancel returning false keeps the opener on its page; the session is still recorded as cancelled', async ({ page, environment, sdkLab, api }) => {
    await sdkLab.open();
    const openerNavigations = mainFrameNavigations(page);
    const creations = await sdkLab.recordSessionCreations();
    await sdkLab.configure(
      {
        apiKey: environment.sandbox.publishableKey,
        returnUrl: sdkLab.returnUrl,
        cancelUrl: `${sdkLab.returnUrl}?flow=popup-closed`,
        mode: 'new-tab',
      },
      { onComplete: true, onCancel: true, onCancelReturns: false, onError: true },
    );

    const popupOpened = page.waitForEvent('popup');
    await sdkLab.verify({ externalUserId: 'user-42' });
    const popup = await popupOpened;
    await new VerifyPage(popup, environment.serviceUrl).waitUntilOpen();
    await expect(popup.getByTestId('intro')).toBeVisible();
    const session = creations[0]!.body as { sessionId: string };

    await popup.close();
    const { argument } = await sdkLab.waitForEvent('cancel');
    expect(argument.value).toEqual({ sessionId: session.sessionId });

    // The SDK would navigate right after onCancel returns; give a navigation ample time to start.
    await page.waitForTimeout(1_000);
    expect(openerNavigations).toEqual([]);
    expect(page.url()).toBe(sdkLab.url);

    const validation = await api.validate(environment.sandbox.secretKey, session.sessionId);
    expect(validation.status()).toBe(200);
    expect(await validation.json()).toMatchObject({
      sessionId: session.sessionId,
      status: 'cancelled',
      verified: false,
      accessGranted: false,
      externalUserId: 'user-42',
    });
  });
});
