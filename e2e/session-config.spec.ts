/**
 * The verify UI runs on the stored session only (spec "Session creation result", verifyUrl rules:
 * display parameters "never override the authenticated session configuration"), and a billing
 * block stops it before any check (spec billingBlock).
 */
import { expect, test } from './support/fixtures';
import { de } from '../verify-ui/src/locales/de';
import { expectNoSeriousA11yViolations } from './support/axe';
import { runCli } from './support/cli';

test('tampering with every display parameter of verifyUrl changes neither the UI nor the result', async ({
  page,
  environment,
  api,
  verifyPage,
  returnPage,
}) => {
  const created = await api.createSession(environment.sandbox.publishableKey, {
    returnUrl: `${environment.merchantUrl}/return`,
    externalUserId: 'user-42',
    merchantName: 'Demo Shop',
  });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { sessionId: string; verifyUrl: string };

  const tampered = new URL(session.verifyUrl);
  const forged = {
    returnUrl: 'https://evil.example.net/steal',
    cancelUrl: 'https://evil.example.net/cancel',
    merchantName: 'Evil Corp',
    externalUserId: 'attacker',
    blocked: 'PLAN_LIMIT_REACHED',
    portalUrl: 'https://evil.example.net/portal',
  };
  for (const [name, value] of Object.entries(forged)) tampered.searchParams.set(name, value);
  await page.goto(tampered.toString());

  // The UI shows the stored merchant name and no billing block.
  await expect(page.getByText('Demo Shop').first()).toBeVisible();
  await expect(page.getByText('Evil Corp')).toHaveCount(0);
  await expect(page.getByTestId('billing-block')).toHaveCount(0);

  await verifyPage.start();
  await verifyPage.simulate('verified');
  const callback = await returnPage.waitForCallback();
  expect(callback.origin).toBe(new URL(environment.merchantUrl).origin);
  expect(callback.searchParams.get('externalUserId')).toBe('user-42');
  await expect(returnPage.accessGranted).toBeVisible();
  await expect(returnPage.validatedExternalUserId).toHaveText('user-42');
});

test('a billing-blocked session shows the block message and the portal link, and never starts a check', async ({ page, environment, api }) => {
  const tenant = runCli(environment, 'tenant', 'create', '--name', 'Lapsed Shop', '--domain', '127.0.0.1');
  runCli(environment, 'plan', 'set', '--tenant', tenant.tenantId, '--active', 'false', '--portal-url', 'https://billing.example.com/portal');
  const created = await api.createSession(tenant.publishableKey, { returnUrl: `${environment.merchantUrl}/return` });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { verifyUrl: string; billingBlock: { code: string; message: string } };
  expect(session.billingBlock.code).toBe('SUBSCRIPTION_REQUIRED');

  // Even with the display parameter removed, the stored block applies.
  const withoutHint = new URL(session.verifyUrl);
  withoutHint.searchParams.delete('blocked');
  withoutHint.searchParams.delete('portalUrl');
  await page.goto(withoutHint.toString());
  const block = page.getByTestId('billing-block');
  await expect(block).toBeVisible();
  await expect(block).toContainText(session.billingBlock.message);
  await expect(page.getByTestId('portal-link')).toHaveAttribute('href', 'https://billing.example.com/portal');
  await expect(page.getByTestId('start')).toHaveCount(0);
  await expect(page.getByTestId('simulate-verified')).toHaveCount(0);
});

test('a billing block is fully translated and offers the way back to the merchant (status=cancelled)', async ({ page, environment, api, returnPage }) => {
  const tenant = runCli(environment, 'tenant', 'create', '--name', 'Lapsed Shop DE', '--domain', '127.0.0.1');
  runCli(environment, 'plan', 'set', '--tenant', tenant.tenantId, '--active', 'false', '--portal-url', 'https://billing.example.com/portal');
  const created = await api.createSession(tenant.publishableKey, { returnUrl: `${environment.merchantUrl}/return`, externalUserId: 'user-7' });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { sessionId: string; verifyUrl: string };

  const url = new URL(session.verifyUrl);
  url.searchParams.set('lang', 'de');
  await page.goto(url.toString());
  const block = page.getByTestId('billing-block');
  await expect(block).toContainText(de.blocked.heading);
  await expect(block).toContainText(de.blocked.codes.SUBSCRIPTION_REQUIRED);
  await expect(page.getByTestId('portal-link')).toHaveText(de.blocked.portalLink);
  await expectNoSeriousA11yViolations(page, 'billing block (de)');

  await page.getByTestId('blocked-back').click();
  const callback = await returnPage.waitForCallback();
  expect(callback.searchParams.get('sessionId')).toBe(session.sessionId);
  expect(callback.searchParams.get('status')).toBe('cancelled');
  expect(callback.searchParams.get('externalUserId')).toBe('user-7');
});
