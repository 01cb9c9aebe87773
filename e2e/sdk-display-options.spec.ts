/**
 * The SDK's display options reach the verify UI and take effect (spec "Verification UI query
 * parameters": `lang`, `skip_intro`, `auto_return`; spec "Browser SDK": `language`, and
 * `verify({ language, skipIntro, autoReturn })` merging over the constructor defaults). The SDK
 * appends only these parameters to verifyUrl and leaves the rest of it as returned.
 */
import type { SessionCreation } from './pages/shop-page';
import { expect, test } from './support/fixtures';

/** The verifyUrl of the one session the SDK created. */
function createdVerifyUrl(creations: SessionCreation[]): string {
  expect(creations).toHaveLength(1);
  expect(creations[0]!.status).toBe(201);
  return (creations[0]!.body as { verifyUrl: string }).verifyUrl;
}

test.describe('language', () => {
  // The browser prefers French, so German can only come from the lang parameter.
  test.use({ locale: 'fr-FR' });

  test("verify({ language: 'de' }) over the constructor's 'fr' shows the verify UI in German", async ({ page, environment, sdkLab, verifyPage }) => {
    await sdkLab.open();
    const creations = await sdkLab.recordSessionCreations();
    await sdkLab.configure({ apiKey: environment.sandbox.publishableKey, returnUrl: sdkLab.returnUrl, language: 'fr' });
    await sdkLab.verify({ language: 'de', externalUserId: 'user-42' });

    const opened = await verifyPage.waitUntilOpen();
    const verifyUrl = createdVerifyUrl(creations);
    // The language is a display parameter, never part of the session request.
    expect(creations[0]!.requestBody).toEqual({ returnUrl: sdkLab.returnUrl, externalUserId: 'user-42' });
    expect(opened.href).toBe(`${verifyUrl}&lang=de`);

    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Bestätigen Sie Ihr Alter' })).toBeVisible();
    await expect(page.getByTestId('start')).toHaveText('Starten');
    await verifyPage.start();
    await expect(page.getByTestId('simulate-verified')).toHaveText('Verifiziert simulieren');
  });
});

test('skipIntro: true goes straight to the sandbox buttons, never showing the intro', async ({ page, environment, sdkLab, verifyPage }) => {
  const screens = await verifyPage.recordScreens();
  await sdkLab.open();
  const creations = await sdkLab.recordSessionCreations();
  await sdkLab.configure({ apiKey: environment.sandbox.publishableKey, returnUrl: sdkLab.returnUrl });
  await sdkLab.verify({ skipIntro: true, externalUserId: 'user-42' });

  const opened = await verifyPage.waitUntilOpen();
  expect(opened.href).toBe(`${createdVerifyUrl(creations)}&skip_intro=true`);
  await expect(page.getByTestId('simulate-verified')).toBeVisible();
  await expect(page.getByTestId('start')).toHaveCount(0);

  await verifyPage.simulate('verified');
  const callback = await sdkLab.returnPage.waitForCallback();
  expect(callback.searchParams.get('status')).toBe('verified');
  await expect(sdkLab.returnPage.accessGranted).toBeVisible();
  // Without auto_return the result screen is shown before the redirect (the probe sees it).
  expect(screens).not.toContain('intro');
  expect(screens.filter((screen) => screen !== 'loading' && screen !== 'handoff')).toEqual(['sandbox-panel', 'result']);
});

test('autoReturn: true redirects to returnUrl right after the outcome, never showing the result screen', async ({ page, environment, sdkLab, verifyPage }) => {
  const screens = await verifyPage.recordScreens();
  await sdkLab.open();
  const creations = await sdkLab.recordSessionCreations();
  await sdkLab.configure({ apiKey: environment.sandbox.publishableKey, returnUrl: sdkLab.returnUrl });
  await sdkLab.verify({ autoReturn: true, externalUserId: 'user-42' });

  const opened = await verifyPage.waitUntilOpen();
  const session = creations[0]!.body as { sessionId: string };
  expect(opened.href).toBe(`${createdVerifyUrl(creations)}&auto_return=true`);
  await expect(page.getByTestId('intro')).toBeVisible();
  await verifyPage.start();
  await verifyPage.simulate('verified');

  const callback = await sdkLab.returnPage.waitForCallback();
  expect(callback.searchParams.get('sessionId')).toBe(session.sessionId);
  expect(callback.searchParams.get('status')).toBe('verified');
  expect(callback.searchParams.get('externalUserId')).toBe('user-42');
  await expect(sdkLab.returnPage.accessGranted).toBeVisible();
  await expect(sdkLab.returnPage.validatedSessionId).toHaveText(session.sessionId);
  expect(screens).not.toContain('result');
  expect(screens.filter((screen) => screen !== 'loading' && screen !== 'handoff')).toEqual(['intro', 'sandbox-panel', 'redirecting']);
});
