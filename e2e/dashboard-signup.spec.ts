/**
 * Sign-up of further tenants from the dashboard (issue 12, item 1): offered only when the operator
 * sets DASHBOARD_SIGNUP=true; off by default (e2e/dashboard.spec.ts's server shows no offer).
 */
import { expect, test } from './support/fixtures';
import { DashboardPage } from './pages/dashboard-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { DashboardServer } from './support/dashboard-server';

let server: DashboardServer;

test.beforeAll(async ({ target }) => {
  test.setTimeout(180_000);
  server = await DashboardServer.start(target, { DASHBOARD_SIGNUP: 'true' });
});

test.afterAll(async () => {
  await server?.stop();
});

test('with DASHBOARD_SIGNUP=true the sign-in page offers sign-up; it creates a tenant and signs its owner in', async ({ page, request }) => {
  // The first tenant still comes from the setup link.
  const link = new URL(await server.setupLink());
  const setup = await request.post(`${server.url}/dashboard/api/setup`, {
    headers: { origin: server.url },
    data: { token: new URLSearchParams(link.hash.slice(1)).get('token'), tenantName: 'First Shop', email: 'first@shop.test', password: 'first owner password' },
  });
  expect(setup.status(), await setup.text()).toBe(201);

  const dashboard = new DashboardPage(page, server.url);
  await dashboard.goto();
  await expect(dashboard.heading).toHaveText('Sign in');
  await page.getByRole('button', { name: 'New here? Create an account' }).click();
  await expect(dashboard.heading).toHaveText('Create a new account');
  await expect(dashboard.heading).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'sign-up');
  await page.getByLabel('Account name (your company or shop)').fill('Second Shop');
  await page.getByLabel('Email').fill('second@shop.test');
  await page.getByLabel('Password', { exact: true }).fill('second owner password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(dashboard.heading).toHaveText('Overview');
  await expect(page.getByTestId('overview-tenant')).toContainText('Account Second Shop');
  const me = await dashboard.api('GET', '/me');
  expect(me.body.tenants).toEqual([expect.objectContaining({ name: 'Second Shop', role: 'owner' })]);
});
