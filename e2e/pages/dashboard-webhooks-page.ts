import { expect, type Locator, type Page } from '@playwright/test';

/** The webhooks screens: the endpoint list with its create form, and one endpoint with its delivery log. */
export class DashboardWebhooksPage {
  readonly signingSecret: Locator;
  readonly state: Locator;
  readonly deliveries: Locator;
  readonly actionStatus: Locator;

  constructor(readonly page: Page) {
    this.signingSecret = page.getByTestId('new-signing-secret');
    this.state = page.getByTestId('endpoint-state');
    this.deliveries = page.getByTestId('deliveries').locator(':scope > li');
    this.actionStatus = page.getByTestId('action-status');
  }

  /** Creates an endpoint for the given kinds and returns the signing secret shown once. */
  async create(url: string, events: string[]): Promise<string> {
    await this.page.getByRole('button', { name: 'Add endpoint' }).click();
    await this.page.getByLabel('URL').fill(url);
    for (const checkbox of await this.page.getByRole('group', { name: 'Events' }).getByRole('checkbox').all()) {
      const kind = await checkbox.getAttribute('value');
      await checkbox.setChecked(events.includes(kind!));
    }
    await this.page.getByRole('button', { name: 'Create endpoint' }).click();
    await expect(this.signingSecret).toBeVisible();
    const secret = (await this.signingSecret.textContent())!.trim();
    await this.page.getByRole('button', { name: 'I have stored it' }).click();
    return secret;
  }

  async openEndpoint(url: string): Promise<void> {
    await this.page.getByRole('link', { name: url, exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(url);
  }

  delivery(eventId: string): Locator {
    return this.page.locator(`li[data-event-id="${eventId}"]`);
  }

  async refreshLog(): Promise<void> {
    await this.page.getByRole('button', { name: 'Refresh' }).click();
  }

  async testAndResume(): Promise<void> {
    await this.page.getByRole('button', { name: 'Test and resume' }).click();
  }

  async redeliver(): Promise<void> {
    await this.page.getByRole('button', { name: 'Redeliver' }).click();
    await this.page.getByRole('dialog', { name: 'Redeliver undelivered events?' }).getByRole('button', { name: 'Redeliver' }).click();
  }
}
