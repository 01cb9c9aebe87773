/**
 * QR handoff (spec "Browser SDK": "a desktop user can continue on mobile; the desktop polls for
 * completion and redirects when the mobile device finishes. The session stays valid across the
 * device switch"). Two browser contexts share nothing but the link the desktop shows: the desktop
 * runs the merchant journey, a phone-emulated context opens the handoff link and completes the
 * check, and the desktop, polling, takes the user back to the merchant.
 */
import { devices } from '@playwright/test';
import { VerifyPage } from './pages/verify-page';
import { expect, test } from './support/fixtures';

test('the phone completes the session from the QR link; the desktop redirects to the merchant, who grants access', async ({
  page,
  browser,
  environment,
  shop,
  verifyPage,
  returnPage,
}) => {
  // Desktop: the shop's SDK creates the session and sends the browser to the verify UI.
  await shop.open();
  const created = await shop.verifyMyAge();
  expect(created.status).toBe(201);
  const session = created.body as { sessionId: string; sessionToken: string };
  await verifyPage.waitUntilOpen();
  await expect(page.getByTestId('intro')).toBeVisible();

  await page.getByTestId('handoff-open').click();
  await expect(page.getByTestId('handoff-qr')).toBeVisible();
  await expect(page.getByTestId('handoff-waiting')).toBeVisible();
  const link = new URL((await page.getByTestId('handoff-link').textContent())?.trim() ?? '');

  // The link opens this session's verify UI with the handoff token, never the desktop's sessionToken.
  expect(link.origin + link.pathname).toBe(`${new URL(environment.serviceUrl).origin}/verify`);
  expect(link.searchParams.get('sessionId')).toBe(session.sessionId);
  expect(link.searchParams.get('handoffToken')).toBeTruthy();
  expect(link.searchParams.has('sessionToken')).toBe(false);
  expect(link.href).not.toContain(session.sessionToken);

  // Phone: another browser context (no shared cookies or storage), a mobile device.
  const phoneContext = await browser.newContext({ ...devices['Pixel 7'] });
  try {
    const phone = await phoneContext.newPage();
    const phoneVerify = new VerifyPage(phone, environment.serviceUrl);
    await phone.goto(link.href);
    await phoneVerify.start();
    await phoneVerify.simulate('verified');
    await expect(phone.getByTestId('handoff-done')).toBeVisible();
    // The phone stays on the verify UI: taking the user back to the merchant is the desktop's job.
    expect(new URL(phone.url()).pathname).toBe('/verify');
    await expect(phone.getByTestId('handoff-open')).toHaveCount(0);

    // Desktop: the poll sees the session end and follows the callback, as a local completion would.
    const callback = await returnPage.waitForCallback();
    expect([...callback.searchParams.keys()].sort()).toEqual(['externalUserId', 'sessionId', 'status', 'timestamp']);
    expect(callback.searchParams.get('sessionId')).toBe(session.sessionId);
    expect(callback.searchParams.get('status')).toBe('verified');
    expect(callback.searchParams.get('externalUserId')).toBe('user-42');
    await expect(returnPage.accessGranted).toHaveText('Access granted');
    await expect(returnPage.validatedStatus).toHaveText('verified');
    await expect(returnPage.validatedSessionId).toHaveText(session.sessionId);
    await expect(returnPage.validatedExternalUserId).toHaveText('user-42');

    // The phone, reloaded after the fact, still only says the session is done; it never redirects.
    await phone.reload();
    await expect(phone.getByTestId('handoff-done')).toBeVisible();
    expect(new URL(phone.url()).pathname).toBe('/verify');
  } finally {
    await phoneContext.close();
  }
});
