import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** The audit trail screen (issue 23): the entries table, its filters and the export links. */
export class DashboardAuditPage {
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByTestId('audit-entries');
  }

  /** The rows of the entries table (the header row excluded). */
  get rows(): Locator {
    return this.table.locator('tbody tr');
  }

  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** Sets the filters given (a change's value, e.g. `key.revoked` or `key`; the actor's text) and applies them. */
  async filter(filters: { action?: string; actor?: string; from?: string; to?: string }): Promise<void> {
    if (filters.action !== undefined) await this.page.getByLabel('Change', { exact: true }).selectOption(filters.action);
    if (filters.actor !== undefined) await this.page.getByLabel('Made by', { exact: true }).fill(filters.actor);
    if (filters.from !== undefined) await this.page.getByLabel('From', { exact: true }).fill(filters.from);
    if (filters.to !== undefined) await this.page.getByLabel('To (inclusive)').fill(filters.to);
    await this.page.getByRole('button', { name: 'Apply' }).click();
  }

  /** Clicks an export link and waits for the file the browser downloads. */
  async download(format: 'CSV' | 'JSON lines'): Promise<{ download: Download; text: string }> {
    const started = this.page.waitForEvent('download');
    await this.page.getByRole('link', { name: `Download ${format}` }).click();
    const download = await started;
    const path = await download.path();
    expect(path).toBeTruthy();
    const { readFileSync } = await import('node:fs');
    return { download, text: readFileSync(path, 'utf8') };
  }
}
