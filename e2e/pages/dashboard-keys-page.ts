import { expect, type Locator, type Page } from '@playwright/test';

/** The API keys screen: create a pair (its secret key shown once), revoke with confirmation. */
export class DashboardKeysPage {
  readonly newPublishableKey: Locator;
  readonly newSecretKey: Locator;
  readonly createLive: Locator;
  readonly createSandbox: Locator;
  readonly readOnlyNote: Locator;

  constructor(readonly page: Page) {
    this.newPublishableKey = page.getByTestId('new-publishable-key');
    this.newSecretKey = page.getByTestId('new-secret-key');
    this.createLive = page.getByRole('button', { name: 'Create live key pair' });
    this.createSandbox = page.getByRole('button', { name: 'Create sandbox key pair' });
    this.readOnlyNote = page.getByTestId('keys-read-only');
  }

  /** Creates a pair and returns the keys as the screen shows them (the secret this once). */
  async create(kind: 'live' | 'sandbox', label?: string): Promise<{ publishableKey: string; secretKey: string }> {
    if (label !== undefined) await this.page.getByLabel('Label (optional)').fill(label);
    await (kind === 'live' ? this.createLive : this.createSandbox).click();
    await expect(this.newSecretKey).toBeVisible();
    const keys = { publishableKey: (await this.newPublishableKey.textContent())!.trim(), secretKey: (await this.newSecretKey.textContent())!.trim() };
    await this.page.getByRole('button', { name: 'I have stored it' }).click();
    await expect(this.newSecretKey).toHaveCount(0);
    return keys;
  }

  row(publishableKey: string): Locator {
    return this.page.getByRole('row').filter({ hasText: publishableKey });
  }

  /** Renames a pair in its row (Enter saves). */
  async rename(publishableKey: string, label: string): Promise<void> {
    await this.page.getByRole('button', { name: `Rename the pair ${publishableKey}` }).click();
    const field = this.page.getByRole('textbox', { name: `Label of the pair ${publishableKey}` });
    await expect(field).toBeFocused();
    await field.fill(label);
    await field.press('Enter');
    await expect(field).toHaveCount(0);
  }

  async revoke(publishableKey: string): Promise<void> {
    await this.page.getByRole('button', { name: `Revoke the pair ${publishableKey}` }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Revoke this key pair?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(this.row(publishableKey)).toContainText('Revoked');
  }
}
