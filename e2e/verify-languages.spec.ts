/**
 * The verify UI in the user's language (issue 23): a refusal explained in the page language (never
 * the server's English message), a language switch on every page that changes every text in place
 * without losing the flow (sandbox, a live check mid-capture, the QR handoff's phone, the SDK's
 * new-tab window), and an L2 check that says what it really checks: the tenant's legal minimum age
 * on the document, not challengeAge.
 */
import { devices } from '@playwright/test';
import { de } from '../verify-ui/src/locales/de';
import { en } from '../verify-ui/src/locales/en';
import { errorsDe } from '../verify-ui/src/locales/errors-de';
import { errorsFr } from '../verify-ui/src/locales/errors-fr';
import { es } from '../verify-ui/src/locales/es';
import { fr } from '../verify-ui/src/locales/fr';
import { it as itLocale } from '../verify-ui/src/locales/it';
import { liveDe } from '../verify-ui/src/locales/live-de';
import { liveEs } from '../verify-ui/src/locales/live-es';
import { liveFr } from '../verify-ui/src/locales/live-fr';
import { liveIt } from '../verify-ui/src/locales/live-it';
import { pt } from '../verify-ui/src/locales/pt';
import { VerifyPage } from './pages/verify-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { runCli } from './support/cli';
import { fakeCameraLaunchOptions } from './support/fake-camera';
import { expect, test } from './support/fixtures';
import { captureSelfie } from './support/liveness-camera';
import { createLiveSession, withParams } from './support/live-sessions';
import { playEngine } from './support/played-engine';

test.use({ launchOptions: fakeCameraLaunchOptions('astronaut') });

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

test('a German error page explains the refusal in German; the server’s English message never shows', async ({ page, api, environment }) => {
  const session = await api.createMerchantSession(environment.sandbox.secretKey);
  const tampered = new URL(session.verifyUrl);
  tampered.searchParams.set('sessionToken', `${session.sessionToken}x`);
  tampered.searchParams.set('lang', 'de');
  await page.goto(tampered.href);

  const error = page.getByTestId('error');
  await expect(error).toContainText(de.error.heading);
  await expect(error).toContainText(de.error.unauthorized);
  // The explanation loads with the first refusal (a small chunk in the page language).
  await expect(error).toContainText(fill(de.error.details, { message: errorsDe.apiErrors.INVALID_SESSION_TOKEN }));
  await expect(error).not.toContainText('Invalid session token');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoSeriousA11yViolations(page, 'error page (de) with the language switch');

  // The switch works on the error page too, detail included.
  await page.getByTestId('language-switch').selectOption('fr');
  await expect(error).toContainText(fill(fr.error.details, { message: errorsFr.apiErrors.INVALID_SESSION_TOKEN }));
  await expect(error).toContainText(fr.error.unauthorized);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('a message the page does not know gets a German generic detail, not the English words', async ({ page, api, environment }) => {
  const session = await api.createMerchantSession(environment.sandbox.secretKey);
  const english = 'A refusal this page has never heard of';
  await page.route('**/api/v1/verify/session', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 400, message: [english], timestamp: new Date().toISOString(), path: '/api/v1/verify/session', error: 'Bad Request' }),
    }),
  );
  await page.goto(withParams(session.verifyUrl, { lang: 'de' }));
  const error = page.getByTestId('error');
  await expect(error).toContainText(fill(de.error.details, { message: fill(de.error.unknownDetail, { status: 400 }) }));
  await expect(error).not.toContainText(english);
});

test('the language switch: keyboard, each language named in itself, every text changes in place, the sandbox flow goes on', async ({
  page,
  api,
  environment,
  verifyPage,
  returnPage,
}) => {
  const session = await api.createMerchantSession(environment.sandbox.secretKey);
  await page.goto(withParams(session.verifyUrl, { lang: 'de' }));
  await expect(page.getByTestId('start')).toHaveText(de.intro.start);

  // The first stop of the keyboard, named in the page language, each option in its own.
  const language = page.getByTestId('language-switch');
  await page.keyboard.press('Tab');
  await expect(language).toBeFocused();
  await expect(language).toHaveValue('de');
  await expect(language).toHaveAccessibleName(de.app.language);
  await expect(language.locator('option')).toHaveText(['English', 'Deutsch', 'Español', 'Français', 'Português', 'Italiano']);
  await expect(language.locator('option[value="pt"]')).toHaveAttribute('lang', 'pt');

  // Arrow keys change the language at once, without a reload (the mark on the window stays); focus stays on the switch.
  const notReloaded = async () => expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByTestId('start')).toHaveText(es.intro.start);
  await expect(language).toBeFocused();
  await expect(language).toHaveAccessibleName(es.app.language);

  await language.selectOption('fr');
  await expect(page.getByTestId('start')).toHaveText(fr.intro.start);
  await expect(page.getByTestId('intro')).toContainText(fr.intro.stepsHeading);
  await expect(page).toHaveTitle(fr.app.title);
  await notReloaded();
  // The choice is in the address (a display parameter); the credentials are untouched.
  const address = new URL(page.url());
  expect(address.searchParams.get('lang')).toBe('fr');
  expect(address.searchParams.get('sessionId')).toBe(session.sessionId);
  expect(address.searchParams.get('sessionToken')).toBe(session.sessionToken);
  await expectNoSeriousA11yViolations(page, 'intro with the language switch (fr)');

  await verifyPage.start();
  await expect(page.getByTestId('simulate-verified')).toHaveText(fr.sandbox.verified);
  await expectNoSeriousA11yViolations(page, 'sandbox panel with the language switch (fr)');

  // Mid-flow: the panel stays (no intro again), now in Italian.
  await language.selectOption('it');
  await expect(page.getByTestId('simulate-verified')).toHaveText(itLocale.sandbox.verified);
  await expect(page.getByTestId('sandbox-panel')).toBeVisible();
  await expect(page.getByTestId('intro')).toHaveCount(0);
  await notReloaded();

  // A reload keeps the language (it is in the address).
  await page.reload();
  await expect(page.getByTestId('start')).toHaveText(itLocale.intro.start);
  await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  await verifyPage.start();
  await verifyPage.simulate('verified');
  const callback = await returnPage.waitForCallback();
  expect(callback.searchParams.get('sessionId')).toBe(session.sessionId);
  expect(callback.searchParams.get('status')).toBe('verified');
});

test('a live check keeps its pictures and its camera through two language changes', async ({ page, api, environment, verifyPage }) => {
  test.slow(); // a live check with face match through the real models: about 40 s on a busy 2-core machine, against 60 s
  const session = await createLiveSession(api, environment, { faceMatchEnabled: true });
  const failedUrl = withParams(`${environment.merchantUrl}/return`, {
    sessionId: session.sessionId,
    status: 'failed',
    timestamp: String(Date.now()),
    externalUserId: 'user-42',
  });
  const { submissions } = await playEngine(page, [
    { decision: 'step_up', next: 'document' },
    { decision: 'failed', status: 'failed', reason: 'document_expired', redirectUrl: failedUrl },
  ]);
  await page.goto(withParams(session.verifyUrl, { lang: 'de', skip_intro: 'true' }));
  await verifyPage.allowCamera('selfie-camera');
  await captureSelfie(page);
  await expect(page.getByTestId('step-up-reason')).toHaveText(liveDe.stepUp.body);

  // French: the live strings of the new language arrive first, then every text changes.
  const language = page.getByTestId('language-switch');
  await language.selectOption('fr');
  await expect(page.getByTestId('step-up-reason')).toHaveText(liveFr.stepUp.body);
  await page.getByTestId('step-up-continue').click();
  await expect(page.getByTestId('document-choice')).toContainText(liveFr.document.chooseHeading);
  // What the document proves: the tenant's legal minimum age (18 by default), not challengeAge.
  await expect(page.getByTestId('document-rule')).toHaveText(fill(fr.intro.documentRule, { age: 18 }));
  await expectNoSeriousA11yViolations(page, 'document choice with the language switch (fr)');
  await verifyPage.chooseDocument('id_card');
  await verifyPage.allowCamera('document-camera');

  // Italian while the camera runs: the same preview goes on, only the words change.
  await language.selectOption('it');
  await expect(page.getByTestId('document-camera')).toContainText(liveIt.camera.idCardGuide);
  await expect(page.getByTestId('document-camera').getByTestId('camera-preview')).toHaveAttribute('data-live', 'true');
  await verifyPage.capture();
  // Face match: a new selfie for the document's check (the first one's challenge was used), in Italian.
  await expect(page.getByTestId('camera-explanation')).toHaveText(liveIt.camera.selfieAfterDocument);
  await verifyPage.allowCamera('selfie-camera');
  await captureSelfie(page);
  await expect(page.getByTestId('result-reason')).toHaveText(liveIt.result.reasons.document_expired);
  await page.waitForURL(failedUrl);

  // The document went out, taken in Italian after a German start, with its selfie: nothing was lost on the way.
  expect(submissions).toHaveLength(2);
  expect(submissions[1]!.fields).toMatchObject({ check: 'document', documentType: 'id_card' });
  expect(submissions[1]!.images.filter((image) => image.name === 'selfie').length).toBeGreaterThan(0);
  expect(submissions[1]!.images.filter((image) => image.name === 'document')).toHaveLength(1);
});

test('an L2 session says what it checks: the legal minimum age on the document, not challengeAge', async ({ page, api, environment }) => {
  const created = await api.createSession(environment.sandbox.publishableKey, {
    returnUrl: `${environment.merchantUrl}/return`,
    merchantName: 'Demo Shop',
    verificationMode: 'L2',
    challengeAge: 30,
  });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { verifyUrl: string };
  await page.goto(withParams(session.verifyUrl, { lang: 'en' }));
  const intro = page.getByTestId('intro');
  await expect(page.getByTestId('intro-lead')).toHaveText(fill(en.intro.documentLeadMerchant, { merchant: 'Demo Shop' }));
  await expect(page.getByTestId('intro-document-rule')).toHaveText(fill(en.intro.documentRule, { age: 18 }));
  await expect(intro).not.toContainText('30');
  await expect(intro).toContainText(en.intro.stepDocument);

  // Another tenant sets its legal minimum age to 21: the page names 21, in any language.
  const tenant = runCli(environment, 'tenant', 'create', '--name', 'Wine Shop', '--domain', '127.0.0.1', '--sandbox');
  runCli(environment, 'policy', 'set', '--tenant', tenant.tenantId, '--legal-minimum-age', '21');
  const strict = await api.createSession(tenant.publishableKey, { returnUrl: `${environment.merchantUrl}/return`, verificationMode: 'L2' });
  expect(strict.status()).toBe(201);
  await page.goto(withParams(((await strict.json()) as { verifyUrl: string }).verifyUrl, { lang: 'pt' }));
  await expect(page.getByTestId('intro-document-rule')).toHaveText(fill(pt.intro.documentRule, { age: 21 }));
  await page.getByTestId('language-switch').selectOption('de');
  await expect(page.getByTestId('intro-document-rule')).toHaveText(fill(de.intro.documentRule, { age: 21 }));
  // No merchantName given: the tenant's name is shown.
  await expect(page.getByTestId('intro-lead')).toHaveText(fill(de.intro.documentLeadMerchant, { merchant: 'Wine Shop' }));

  // An L1 session keeps saying challengeAge: that is what the face estimate is held against.
  const l1 = await api.createSession(environment.sandbox.publishableKey, { returnUrl: `${environment.merchantUrl}/return`, challengeAge: 30 });
  await page.goto(withParams(((await l1.json()) as { verifyUrl: string }).verifyUrl, { lang: 'en' }));
  await expect(page.getByTestId('intro-lead')).toHaveText(fill(en.intro.leadMerchant, { merchant: 'Demo Shop', age: 30 }));
  await expect(page.getByTestId('intro-document-rule')).toHaveCount(0);
});

test('QR handoff: a language chosen on the computer goes into the QR code; the phone page has its own switch', async ({ page, browser, api, environment }) => {
  const session = await createLiveSession(api, environment);
  await page.goto(withParams(session.verifyUrl, { lang: 'de' }));
  await page.getByTestId('handoff-open').click();
  await page.getByTestId('language-switch').selectOption('fr');
  await expect(page.getByTestId('handoff-open')).toHaveCount(0);
  await expect(page.getByTestId('handoff-waiting')).toHaveText(fr.handoff.waiting);
  await expect(page.getByTestId('handoff-link')).toContainText('lang=fr');
  const link = new URL((await page.getByTestId('handoff-link').textContent())?.trim() ?? '');
  expect(link.searchParams.get('lang')).toBe('fr');
  expect(link.searchParams.get('handoffToken')).toBeTruthy();
  await expectNoSeriousA11yViolations(page, 'handoff panel with the language switch (fr)');

  const phoneContext = await browser.newContext({ ...devices['Pixel 7'], locale: 'en-US' });
  try {
    const phone = await phoneContext.newPage();
    await phone.goto(link.href);
    await expect(phone.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(phone.getByTestId('start')).toHaveText(fr.intro.start);
    await phone.getByTestId('language-switch').selectOption('es');
    await expect(phone.getByTestId('start')).toHaveText(es.intro.start);
    const address = new URL(phone.url());
    expect(address.searchParams.get('lang')).toBe('es');
    expect(address.searchParams.get('handoffToken')).toBe(link.searchParams.get('handoffToken'));
    await expectNoSeriousA11yViolations(phone, 'phone intro with the language switch (es)');
    await phone.getByTestId('start').click();
    await expect(phone.getByTestId('camera-explanation')).toHaveText(liveEs.camera.selfieIntro);
  } finally {
    await phoneContext.close();
  }
});

test('the SDK’s new-tab window: the switch changes the language there, and onComplete still arrives', async ({ page, environment, sdkLab }) => {
  await sdkLab.open();
  await sdkLab.configure({ apiKey: environment.sandbox.publishableKey, returnUrl: sdkLab.returnUrl, mode: 'new-tab', language: 'de' });
  const opened = page.context().waitForEvent('page');
  await sdkLab.verify({ externalUserId: 'user-42' });
  const flowWindow = await opened;
  const verify = new VerifyPage(flowWindow, environment.serviceUrl);
  await verify.waitUntilOpen();
  await expect(flowWindow.getByTestId('start')).toHaveText(de.intro.start);

  await flowWindow.getByTestId('language-switch').selectOption('pt');
  await expect(flowWindow.getByTestId('start')).toHaveText(pt.intro.start);
  await expect(flowWindow.getByTestId('intro')).toContainText(pt.intro.heading);
  await verify.start();
  await expect(flowWindow.getByTestId('simulate-verified')).toHaveText(pt.sandbox.verified);
  await verify.simulate('verified');

  const { argument } = await sdkLab.waitForEvent('complete');
  expect(argument.value).toMatchObject({ status: 'verified', externalUserId: 'user-42' });
});
