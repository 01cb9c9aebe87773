/**
 * Live L2 (ID document + face match) against the real backend and verification engine. NEEDS THE
 * ENGINE and its generated passport: the document is given through the photo-upload fallback
 * (Chromium's fake camera shows one video per browser, and the selfie comes from it). The passport
 * image is looked up as e2e/fixtures/passport.{jpg,png}, then in backend/src/modules/engine/fixtures
 * (the engine's own); "another adult" (other-adult.png, CC0, see that folder's README) likewise,
 * for the face-mismatch journey.
 */
import { chromium } from '@playwright/test';
import { VerifyPage } from './pages/verify-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { fakeCameraLaunchOptions, findFixtureImage } from './support/fake-camera';
import { ENGINE_MISSING, engineAvailable } from './support/engine';
import { expect, test } from './support/fixtures';
import { createLiveSession, expectCallback } from './support/live-sessions';

const PASSPORT = findFixtureImage('passport', 'passport-astronaut', 'specimen-passport');
const OTHER_ADULT = findFixtureImage('other-adult', 'another-adult', 'adult-2');

test.use({ launchOptions: fakeCameraLaunchOptions('astronaut') });

test.beforeEach(async ({ request, environment }) => {
  test.skip(!(await engineAvailable(request, environment.serviceUrl)), ENGINE_MISSING);
});

test('the passport, then the selfie: verified', async ({ page, environment, api, verifyPage, returnPage }) => {
  test.skip(!PASSPORT, 'No passport fixture yet: it comes with the engine (backend/src/modules/engine/fixtures).');
  const session = await createLiveSession(api, environment, { verificationMode: 'L2', faceMatchEnabled: true, challengeAge: 25 });
  await page.goto(session.verifyUrl);
  await verifyPage.start();
  await verifyPage.chooseDocument('passport');
  await page.getByTestId('camera-allow').click();
  await page.getByTestId('upload-instead').click();
  await verifyPage.uploadPhoto(PASSPORT!);
  // Face match on: the selfie is asked for next; once the camera was set aside it is an upload too, so try the camera again.
  await page.getByTestId('camera-retry').click();
  await expect(page.getByTestId('selfie-camera').getByTestId('camera-preview')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  await expectNoSeriousA11yViolations(page, 'selfie after document');
  await verifyPage.capture();
  await expect(page.getByTestId('result-heading')).toBeVisible({ timeout: 60_000 });
  const callback = await returnPage.waitForCallback();
  expectCallback(callback, session.sessionId, 'verified');
});

test("face match on: another person's selfie is refused", async ({ environment, api }) => {
  test.skip(!PASSPORT || !OTHER_ADULT, 'Needs the engine fixtures: a passport and a photo of another adult.');
  // A second browser plus, when this runs first, the engine's cold start (models, OCR) on a busy machine.
  test.slow();
  const browser = await chromium.launch(fakeCameraLaunchOptions(OTHER_ADULT!.replace(/^.*\//, '').replace(/\.(jpg|png)$/, '')));
  try {
    const page = await browser.newPage();
    const verifyPage = new VerifyPage(page, environment.serviceUrl);
    const session = await createLiveSession(api, environment, { verificationMode: 'L2', faceMatchEnabled: true, challengeAge: 25 });
    await page.goto(session.verifyUrl);
    await verifyPage.start();
    await verifyPage.chooseDocument('passport');
    await page.getByTestId('camera-allow').click();
    await page.getByTestId('upload-instead').click();
    await verifyPage.uploadPhoto(PASSPORT!);
    await page.getByTestId('camera-retry').click();
    await expect(page.getByTestId('selfie-camera').getByTestId('camera-preview')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
    await verifyPage.capture();
    await expect(page.getByTestId('result-reason')).toHaveAttribute('data-reason', 'face_mismatch', { timeout: 60_000 });
    await page.waitForURL((url) => url.pathname === '/return');
    expectCallback(new URL(page.url()), session.sessionId, 'failed');
  } finally {
    await browser.close();
  }
});
