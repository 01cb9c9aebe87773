/**
 * Two-factor sign-in in the dashboard (issue 23, Deliver 5) in Chromium against a backend of its
 * own: the owner turns it on from the account screen (QR code and setup key, a first code, the
 * recovery codes once), signs in with the password and a code, and once with a recovery code;
 * then requires it of members who can manage keys, and an admin without a second factor reaches
 * only the enrolment until they turn it on. axe-core on every new screen. One server, one story.
 */
import { expect, test } from './support/fixtures';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { encodeQr } from '../verify-ui/src/qr-code';
import { wrongTotpCode } from '../backend/src/modules/dashboard/testing/totp';
import { DashboardPage } from './pages/dashboard-page';
import { DashboardTeamPage } from './pages/dashboard-team-page';
import { DashboardTwoFactorPage, freshCode, type Enrolment } from './pages/dashboard-two-factor-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DashboardServer } from './support/dashboard-server';

test.describe.configure({ mode: 'serial' });

const OWNER = { tenantName: 'Acme Shop', name: 'Ada Owner', email: 'ada@acme.test', password: 'correct horse battery' };
const ADMIN = { email: 'adm@acme.test', password: 'admin password 1234' };

let server: DashboardServer;
let ownerContext: BrowserContext;
let ownerPage: Page;
let dashboard: DashboardPage;
let twoFactor: DashboardTwoFactorPage;
let ownerEnrolment: Enrolment;
let tenantId = '';

test.beforeAll(async ({ browser, target }) => {
  test.setTimeout(180_000);
  server = await DashboardServer.start(target);
  ({ context: ownerContext, page: ownerPage } = await newPage(browser));
  dashboard = new DashboardPage(ownerPage, server.url);
  twoFactor = new DashboardTwoFactorPage(ownerPage);
});

test.afterAll(async () => {
  await ownerContext?.close();
  await server?.stop();
});

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return { context, page: await context.newPage() };
}

test('enrolment: the owner turns it on with the password, a QR code of the otpauth URI and the setup key, a first code, and sees the recovery codes once', async () => {
  await dashboard.completeSetup(await server.setupLink(), OWNER);
  tenantId = (await dashboard.api('GET', '/me')).body.tenants[0].tenantId;
  await twoFactor.openAccount();
  await expect(twoFactor.state).toHaveText('Off: your password alone signs you in.');
  await expectNoSeriousA11yViolations(ownerPage, 'account with two-factor sign-in off');

  // A wrong password starts nothing.
  await ownerPage.getByLabel('Your password').fill('not my password');
  await ownerPage.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(ownerPage.getByRole('alert')).toHaveText('The password is wrong.');

  const secret = await twoFactor.start(OWNER.password);
  expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
  // The QR code holds exactly the otpauth URI of this key (drawn with the verify UI's encoder).
  const uri = `otpauth://totp/AgeVerify:${encodeURIComponent(OWNER.email)}?secret=${secret}&issuer=AgeVerify&digits=6&period=30`;
  await expect(twoFactor.qr.locator('path')).toHaveAttribute('d', encodeQr(uri).path);
  await expectNoSeriousA11yViolations(ownerPage, 'two-factor enrolment (QR code and setup key)');

  ownerEnrolment = { secret, recoveryCodes: [], used: new Set() };
  await twoFactor.confirm(wrongTotpCode(secret));
  await expect(ownerPage.getByRole('alert')).toHaveText('This code is wrong. Type the code your app shows now, or a recovery code you have not used.');
  // Not on until a right code: the API still says off.
  expect((await dashboard.api('GET', '/me')).body.twoFactor.enabled).toBe(false);

  await twoFactor.confirm(await freshCode(ownerEnrolment));
  ownerEnrolment.recoveryCodes = await twoFactor.shownRecoveryCodes();
  expect(ownerEnrolment.recoveryCodes).toHaveLength(10);
  for (const code of ownerEnrolment.recoveryCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
  await expect(twoFactor.setupKey).toHaveCount(0);
  await expectNoSeriousA11yViolations(ownerPage, 'recovery codes');
  await twoFactor.dismissRecoveryCodes();
  await expect(twoFactor.recoveryCodes).toHaveCount(0);
  expect((await dashboard.api('GET', '/me')).body.twoFactor.enabled).toBe(true);
  await expectNoSeriousA11yViolations(ownerPage, 'account with two-factor sign-in on');

  // The recovery codes are not shown again, and no secret reached the server's log.
  await ownerPage.reload();
  await expect(twoFactor.state).toContainText('On: signing in asks for a code');
  await expect(twoFactor.recoveryCodes).toHaveCount(0);
  const log = server.log();
  for (const value of [secret, ...ownerEnrolment.recoveryCodes, ...ownerEnrolment.used, OWNER.password]) expect(log).not.toContain(value);
});

test('sign-in: after the password a code is asked for; a wrong code is refused, the right one opens the dashboard', async () => {
  await dashboard.open('Overview');
  await dashboard.signOut();
  await dashboard.signIn(OWNER.email, OWNER.password);
  await expect(dashboard.heading).toHaveText('Two-factor sign-in');
  await expect(dashboard.heading).toBeFocused();
  await expectNoSeriousA11yViolations(ownerPage, 'two-factor sign-in code step');
  // Nothing is signed in yet.
  expect((await dashboard.api('GET', '/me')).status).toBe(401);

  await twoFactor.enterSignInCode(wrongTotpCode(ownerEnrolment.secret));
  await expect(dashboard.alert).toHaveText('This code is wrong. Type the code your app shows now, or a recovery code you have not used.');
  await expectNoSeriousA11yViolations(ownerPage, 'two-factor sign-in with a wrong code');
  await twoFactor.enterSignInCode(await freshCode(ownerEnrolment));
  await expect(dashboard.heading).toHaveText('Overview');
  expect((await dashboard.api('GET', '/me')).body.user.email).toBe(OWNER.email);
});

test('a recovery code signs in once; "Back to sign-in" returns to the password', async () => {
  const [recovery] = ownerEnrolment.recoveryCodes as [string];
  await dashboard.signOut();
  await dashboard.signIn(OWNER.email, OWNER.password);
  await twoFactor.enterSignInCode(recovery);
  await expect(dashboard.heading).toHaveText('Overview');

  await dashboard.signOut();
  await dashboard.signIn(OWNER.email, OWNER.password);
  await twoFactor.enterSignInCode(recovery);
  await expect(dashboard.alert).toHaveText('This code is wrong. Type the code your app shows now, or a recovery code you have not used.');
  await ownerPage.getByRole('button', { name: 'Back to sign-in' }).click();
  await expect(dashboard.heading).toHaveText('Sign in');
  await dashboard.signIn(OWNER.email, OWNER.password);
  await twoFactor.enterSignInCode(ownerEnrolment.recoveryCodes[1]!);
  await expect(dashboard.heading).toHaveText('Overview');
});

test('policy: the owner requires it; a signed-in admin without a second factor is sent to the enrolment and reaches nothing else until enrolled', async ({
  browser,
}) => {
  await dashboard.open('Team');
  const policy = ownerPage.getByTestId('two-factor-policy');
  await expect(policy).toHaveText('Not required: members may sign in with their password alone.');
  const team = new DashboardTeamPage(ownerPage);
  await team.invite(ADMIN.email, 'Admin');
  await dashboard.open('Emails');
  const link = await team.invitationLinkFromOutbox(ADMIN.email);

  // The admin joins while nothing is required, and works as usual.
  const { context, page } = await newPage(browser);
  const admin = new DashboardPage(page, server.url);
  const adminTwoFactor = new DashboardTwoFactorPage(page);
  await page.goto(link);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Create user and join' }).click();
  await expect(admin.heading).toHaveText('Overview');

  // The owner requires two-factor sign-in.
  await dashboard.open('Team');
  await ownerPage.getByLabel('Require two-factor sign-in for members who can manage API keys').check();
  await ownerPage.getByRole('button', { name: 'Save the sign-in policy' }).click();
  await expect(ownerPage.getByRole('status').filter({ hasText: 'The sign-in policy is saved.' })).toBeVisible();
  await expect(policy).toContainText('Required: members who can manage API keys (owners and admins) must sign in with a second factor.');
  await expectNoSeriousA11yViolations(ownerPage, 'team with the two-factor policy');

  // The admin's next screen is refused (403 TWO_FACTOR_REQUIRED): the dashboard sends them to the
  // enrolment, with the reason, and nothing else is left in the navigation.
  await admin.navigation.getByRole('link', { name: 'API keys', exact: true }).click();
  await expect(admin.heading).toHaveText('Your account');
  await expect(page).toHaveURL(/#\/account$/);
  await expect(page.getByTestId('two-factor-held')).toHaveText(
    `${OWNER.tenantName} requires two-factor sign-in of members who can manage API keys. Turn it on below to continue.`,
  );
  await expect(admin.navigation.getByRole('link')).toHaveText(['Your account']);
  await expectNoSeriousA11yViolations(page, 'held on the two-factor enrolment');
  // A typed address leads back there; the API refuses key management with a message that says why.
  await page.goto(`${server.url}/dashboard/#/keys`);
  await expect(admin.heading).toHaveText('Your account');
  await expect(page).toHaveURL(/#\/account$/);
  const refused = await admin.api('POST', `/tenants/${tenantId}/keys`, { sandbox: true });
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe('TWO_FACTOR_REQUIRED');
  expect(refused.body.message).toContain('requires two-factor sign-in of members who can manage API keys');

  await adminTwoFactor.enrol(ADMIN.password);
  await expect(page.getByTestId('two-factor-held')).toHaveCount(0);
  await expect(admin.heading).toHaveText('Your account');
  await admin.open('API keys');
  expect((await admin.api('POST', `/tenants/${tenantId}/keys`, { sandbox: true })).status).toBe(201);
  await context.close();
});

test('turning it off takes the password; the policy then holds the owner back, and without the policy the password alone signs in', async () => {
  // The owner has typed 4 wrong passwords or codes in this 15-minute window; wrong codes and
  // passwords share the limit (5), so the next window starts here.
  server.setClockOffset(15 * 60 * 1000);
  await twoFactor.openAccount();
  await ownerPage.getByLabel('Your password').fill('not my password');
  await ownerPage.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  await expect(ownerPage.getByRole('alert')).toHaveText('The password is wrong.');
  await twoFactor.turnOff(OWNER.password);
  // The tenant requires it of owners: only the enrolment is left.
  await expect(ownerPage.getByTestId('two-factor-held')).toBeVisible();
  await expect(dashboard.navigation.getByRole('link')).toHaveText(['Your account']);

  // Enrolled again, the owner lifts the policy and turns two-factor sign-in off for good.
  ownerEnrolment = await twoFactor.enrol(OWNER.password);
  await dashboard.open('Team');
  await ownerPage.getByLabel('Require two-factor sign-in for members who can manage API keys').uncheck();
  await ownerPage.getByRole('button', { name: 'Save the sign-in policy' }).click();
  await expect(ownerPage.getByTestId('two-factor-policy')).toHaveText('Not required: members may sign in with their password alone.');
  await twoFactor.openAccount();
  await twoFactor.turnOff(OWNER.password);
  await dashboard.open('Overview');
  await dashboard.signOut();
  await dashboard.signIn(OWNER.email, OWNER.password);
  await expect(dashboard.heading).toHaveText('Overview');
});
