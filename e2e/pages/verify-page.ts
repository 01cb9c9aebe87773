import { expect, type Page } from '@playwright/test';
import type { SimulatedOutcome } from '../support/service-api';

/** The hosted verify UI (a Lit app; test ids are found through its open shadow roots). */
export class VerifyPage {
  constructor(
    readonly page: Page,
    private readonly serviceUrl: string,
  ) {}

  /** Waits for the browser to be on the service's /verify page. */
  async waitUntilOpen(): Promise<URL> {
    const serviceOrigin = new URL(this.serviceUrl).origin;
    await this.page.waitForURL((url) => url.origin === serviceOrigin && url.pathname === '/verify');
    return new URL(this.page.url());
  }

  async start(): Promise<void> {
    const button = this.page.getByTestId('start');
    await expect(button).toBeVisible();
    await button.click();
  }

  /** Sandbox sessions only: the tester picks the outcome. */
  async simulate(outcome: SimulatedOutcome): Promise<void> {
    const button = this.page.getByTestId(`simulate-${outcome}`);
    await expect(button).toBeVisible();
    await button.click();
  }
}
