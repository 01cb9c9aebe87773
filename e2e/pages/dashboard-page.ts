import { expect, type Locator, type Page } from '@playwright/test';

export type DashboardScreen = 'Overview' | 'API keys' | 'Allowed domains' | 'Webhooks' | 'Sessions' | 'Team' | 'Emails' | 'Audit trail';

/**
 * The tenant dashboard's frame (issue 12): the entry pages (setup, sign-in, invitation), the
 * navigation, the account menu and the tenant switcher. Screens have page objects of their own.
 * Every element lives in an open shadow root; Playwright's role and label locators pierce them.
 */
export class DashboardPage {
  readonly heading: Locator;
  readonly navigation: Locator;
  readonly alert: Locator;
  readonly status: Locator;

  constructor(
    readonly page: Page,
    readonly serviceUrl: string,
  ) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.navigation = page.getByRole('navigation', { name: 'Dashboard' });
    this.alert = page.getByRole('alert');
    this.status = page.getByRole('status');
  }

  async goto(path = '/dashboard/'): Promise<void> {
    await this.page.goto(`${this.serviceUrl}${path}`);
  }

  /** Sets up the first tenant; returns the sandbox pair setup made, as the screen shows it (the secret this once). */
  async completeSetup(
    link: string,
    account: { tenantName: string; name: string; email: string; password: string },
  ): Promise<{ publishableKey: string; secretKey: string }> {
    await this.page.goto(link);
    await expect(this.heading).toHaveText('Set up AgeVerify');
    await this.page.getByLabel('Account name (your company or shop)').fill(account.tenantName);
    await this.page.getByLabel('Your name (optional)').fill(account.name);
    await this.page.getByLabel('Email').fill(account.email);
    await this.page.getByLabel('Password', { exact: true }).fill(account.password);
    await this.page.getByRole('button', { name: 'Create account' }).click();
    await expect(this.heading).toHaveText('Your account is ready');
    const secretKey = this.page.getByTestId('setup-secret-key');
    await expect(secretKey).toBeVisible();
    await expect(this.page.getByText('shown only this once')).toBeVisible();
    const keys = {
      publishableKey: (await this.page.getByTestId('setup-publishable-key').textContent())!.trim(),
      secretKey: (await secretKey.textContent())!.trim(),
    };
    await this.page.getByRole('button', { name: 'I have stored it: open the dashboard' }).click();
    await expect(this.heading).toHaveText('Overview');
    return keys;
  }

  async signIn(email: string, password: string): Promise<void> {
    await expect(this.heading).toHaveText('Sign in');
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async signOut(): Promise<void> {
    await this.page.getByRole('button', { name: /^Account: / }).click();
    await this.page.getByRole('button', { name: 'Sign out' }).click();
    await expect(this.heading).toHaveText('Sign in');
  }

  async open(screen: DashboardScreen): Promise<void> {
    await this.navigation.getByRole('link', { name: screen, exact: true }).click();
    await expect(this.heading).toHaveText(screen);
  }

  /** The tenant switcher (shown when the user belongs to several tenants). */
  get tenantSwitcher(): Locator {
    return this.page.getByLabel('Account', { exact: true });
  }

  /** Calls the dashboard API from the page, with its cookie and Origin, as the app itself would. */
  async api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; body: any }> {
    return this.page.evaluate(
      async ({ method, path, body }) => {
        const init: RequestInit = { method, headers: { accept: 'application/json' } };
        if (method !== 'GET') {
          init.headers = { accept: 'application/json', 'content-type': 'application/json' };
          init.body = JSON.stringify(body ?? {});
        }
        const response = await fetch(`/dashboard/api${path}`, init);
        const text = await response.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        return { status: response.status, body: parsed };
      },
      { method, path, body },
    );
  }
}
