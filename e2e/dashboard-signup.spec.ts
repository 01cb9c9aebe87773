/**
 * Sign-up of further tenants from the dashboard (issue 12, item 1): offered only when the operator
 * sets DASHBOARD_SIGNUP=true (with SMTP_URL); off by default (e2e/dashboard.spec.ts's server shows
 * no offer). Issue 22, finding 9: sign-up answers the same for a new and a taken email; the account
 * is made from the emailed link, which this spec reads from a local SMTP server.
 */
import { expect, test } from './support/fixtures';
import { DashboardPage } from './pages/dashboard-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DashboardServer } from './support/dashboard-server';
import { SmtpSink } from '../backend/src/modules/notifications/testing/smtp-sink';

let server: DashboardServer;
let smtp: SmtpSink;

test.beforeAll(async ({ target }) => {
  test.setTimeout(180_000);
  smtp = await SmtpSink.start();
  server = await DashboardServer.start(target, { DASHBOARD_SIGNUP: 'true', SMTP_URL: smtp.url });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

test('with DASHBOARD_SIGNUP=true the sign-in page offers sign-up; the emailed link creates the tenant and signs its owner in; a taken email looks the same', async ({
  page,
  request,
}) => {
  // The first tenant still comes from the setup link.
  const link = new URL(await server.setupLink());
  const setup = await request.post(`${server.url}/dashboard/api/setup`, {
    headers: { origin: server.url },
    data: { token: new URLSearchParams(link.hash.slice(1)).get('token'), tenantName: 'First Shop', email: 'first@shop.test', password: 'first owner password' },
  });
  expect(setup.status(), await setup.text()).toBe(201);

  const signUp = async (tenantName: string, email: string, password: string) => {
    await page.context().clearCookies();
    const dashboard = new DashboardPage(page, server.url);
    await dashboard.goto();
    await expect(dashboard.heading).toHaveText('Sign in');
    await page.getByRole('button', { name: 'New here? Create an account' }).click();
    await expect(dashboard.heading).toHaveText('Create a new account');
    await expect(dashboard.heading).toBeFocused();
    await page.getByLabel('Account name (your company or shop)').fill(tenantName);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(dashboard.heading).toHaveText('Check your email');
    await expect(page.getByTestId('signup-sent')).toHaveText(
      `We sent an email to ${email}. Open the link in it to finish creating your account; it works for 24 hours.`,
    );
    return dashboard;
  };

  // A taken email: the same screen, nothing signed in; its owner is told by email.
  await signUp('Copycat', 'first@shop.test', 'another strong password');
  await expectNoSeriousA11yViolations(page, 'sign-up sent');
  const warning = await smtp.waitForMail('first@shop.test', /Someone tried to create an AgeVerify account/);
  expect(warning.text).not.toContain('#secret=');

  const dashboard = await signUp('Second Shop', 'second@shop.test', 'second owner password');
  const confirmation = await smtp.waitForMail('second@shop.test', /Finish creating your AgeVerify account/);
  const confirmLink = /(http:\/\/\S+\/dashboard\/confirm#secret=[\w-]+)/.exec(confirmation.text)?.[1];
  expect(confirmLink, confirmation.text).toBeTruthy();
  await page.goto(confirmLink!);
  await expect(dashboard.heading).toHaveText('Finish creating your account');
  await expect(page.getByText('The account Second Shop, with you (second@shop.test) as its owner.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'sign-up confirmation');
  await page.getByLabel('The password you chose at sign-up').fill('not what I chose');
  await page.getByRole('button', { name: 'Create account and sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('not the password chosen at sign-up');
  await page.getByLabel('The password you chose at sign-up').fill('second owner password');
  await page.getByRole('button', { name: 'Create account and sign in' }).click();
  // The sandbox pair the account starts with, its secret key this once (as setup shows its own).
  await expect(dashboard.heading).toHaveText('Your account is ready');
  await expect(page.getByTestId('setup-secret-key')).toContainText('sk_test_');
  await expect(page.getByTestId('setup-publishable-key')).toContainText('pk_test_');
  // The one-time link has left the address bar.
  expect(new URL(page.url()).hash).not.toContain('secret');
  await expectNoSeriousA11yViolations(page, 'sign-up finished');
  await page.getByRole('button', { name: 'I have stored it: open the dashboard' }).click();
  await expect(dashboard.heading).toHaveText('Overview');
  await expect(page.getByTestId('overview-tenant')).toContainText('Account Second Shop');
  const me = await dashboard.api('GET', '/me');
  expect(me.body.tenants).toEqual([expect.objectContaining({ name: 'Second Shop', role: 'owner' })]);

  // Used once: opening it again says so.
  await page.context().clearCookies();
  await page.goto(confirmLink!);
  await expect(page.getByRole('alert')).toContainText('This link does not work any more');
});
