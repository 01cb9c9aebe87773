/**
 * Live L1 (face age estimation) against the real backend and verification engine: Chromium's
 * fake camera shows a public-domain photo of an adult (e2e/fixtures/astronaut.jpg). NEEDS THE
 * ENGINE (POST /api/v1/verify/checks, branch wip/engine); the UI side alone is covered by
 * live-ui-contract.spec.ts.
 */
import { devices } from '@playwright/test';
import { VerifyPage } from './pages/verify-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { fakeCameraLaunchOptions, fixtureImage } from './support/fake-camera';
import { ENGINE_MISSING, engineAvailable } from './support/engine';
import { expect, test } from './support/fixtures';
import { createLiveSession, expectCallback, withParams } from './support/live-sessions';

test.use({ launchOptions: fakeCameraLaunchOptions('astronaut') });

test.beforeEach(async ({ request, environment }) => {
  test.skip(!(await engineAvailable(request, environment.serviceUrl)), ENGINE_MISSING);
});

test('an adult face through the camera is verified; the merchant validates verified', async ({ page, environment, api, verifyPage, returnPage }) => {
  const session = await createLiveSession(api, environment, { verificationMode: 'L1', challengeAge: 25 });
  await page.goto(session.verifyUrl);
  await verifyPage.start();
  await expectNoSeriousA11yViolations(page, 'camera explanation');
  await verifyPage.allowCamera('selfie-camera');
  await verifyPage.capture();
  await expect(page.getByTestId('result-heading')).toBeVisible({ timeout: 60_000 });
  const callback = await returnPage.waitForCallback();
  expectCallback(callback, session.sessionId, 'verified');
  const validation = await api.validate(environment.live.secretKey, session.sessionId);
  expect(await validation.json()).toMatchObject({ sessionId: session.sessionId, verified: true });
});

test('the same face at challengeAge 99 fails (or steps up and then fails without a document)', async ({ page, environment, api, verifyPage, returnPage }) => {
  const session = await createLiveSession(api, environment, { verificationMode: 'L1', challengeAge: 99 });
  await page.goto(withParams(session.verifyUrl, { skip_intro: 'true' }));
  await verifyPage.allowCamera('selfie-camera');
  await verifyPage.capture();
  const stepUp = page.getByTestId('step-up-reason');
  const result = page.getByTestId('result-heading');
  await expect(stepUp.or(result)).toBeVisible({ timeout: 60_000 });
  if (await stepUp.isVisible()) {
    // Tenant allows step-up: continue in the same session, and offer a selfie instead of a document until the engine gives up.
    await page.getByTestId('step-up-continue').click();
    await verifyPage.chooseDocument('passport');
    await page.getByTestId('camera-allow').click();
    await page.getByTestId('upload-instead').click();
    for (let attempt = 0; attempt < 10 && !(await result.isVisible()); attempt++) {
      await verifyPage.uploadPhoto(fixtureImage('astronaut'));
      await expect(page.getByTestId('retry-hint').or(result).or(page.getByTestId('camera-explanation'))).toBeVisible({ timeout: 60_000 });
      if (await page.getByTestId('retake').isVisible()) await page.getByTestId('retake').click();
    }
  }
  await expect(result).toBeVisible();
  const callback = await returnPage.waitForCallback();
  expectCallback(callback, session.sessionId, 'failed');
  const validation = await api.validate(environment.live.secretKey, session.sessionId);
  expect(await validation.json()).toMatchObject({ verified: false });
});

test('QR handoff: the phone completes a live L1 check with its camera; the desktop redirects', async ({ page, browser, environment, api, returnPage }) => {
  const session = await createLiveSession(api, environment, { verificationMode: 'L1', challengeAge: 25 });
  await page.goto(session.verifyUrl);
  await page.getByTestId('handoff-open').click();
  const link = (await page.getByTestId('handoff-link').textContent())?.trim() ?? '';

  const phoneContext = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const phone = await phoneContext.newPage();
    const phoneVerify = new VerifyPage(phone, environment.serviceUrl);
    await phone.goto(link);
    await phoneVerify.start();
    await phoneVerify.allowCamera('selfie-camera');
    await phoneVerify.capture();
    await expect(phone.getByTestId('handoff-done')).toBeVisible({ timeout: 60_000 });
    expect(new URL(phone.url()).pathname).toBe('/verify');

    const callback = await returnPage.waitForCallback();
    expectCallback(callback, session.sessionId, 'verified');
  } finally {
    await phoneContext.close();
  }
});
