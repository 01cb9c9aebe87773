import { expect, type Locator, type Page } from '@playwright/test';

/** The SDK's `POST /sessions/create` call as the browser made it and the service answered it. */
export interface SessionCreation {
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  body: Record<string, unknown>;
}

/** The example merchant's shop page: loads the SDK from the service and starts verification. */
export class ShopPage {
  readonly verifyButton: Locator;
  readonly verifyError: Locator;

  constructor(
    readonly page: Page,
    private readonly merchantUrl: string,
    private readonly serviceUrl: string,
  ) {
    this.verifyButton = page.getByTestId('verify-button');
    this.verifyError = page.getByTestId('verify-error');
  }

  /** Opens the shop and waits until the SDK has loaded and configured itself (the button is enabled). */
  async open(): Promise<void> {
    await this.page.goto(`${this.merchantUrl}/`);
    await expect(this.verifyError).toBeHidden();
    await expect(this.verifyButton).toBeEnabled();
  }

  /**
   * Clicks "Verify my age" and returns the session-creation exchange the SDK made. The call passes
   * through a route unchanged; reading it there is the only reliable way to see the body, because
   * the SDK navigates away as soon as it has the answer.
   */
  async verifyMyAge(): Promise<SessionCreation> {
    const createUrl = `${this.serviceUrl}/api/v1/sessions/create`;
    let resolveCreation!: (creation: SessionCreation) => void;
    const creation = new Promise<SessionCreation>((resolve) => (resolveCreation = resolve));
    await this.page.route(createUrl, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      const response = await route.fetch();
      resolveCreation({
        requestHeaders: await request.allHeaders(),
        requestBody: request.postDataJSON(),
        status: response.status(),
        body: (await response.json()) as Record<string, unknown>,
      });
      await route.fulfill({ response });
    });
    await this.verifyButton.click();
    const result = await creation;
    await this.page.unroute(createUrl);
    return result;
  }

  /** What the page's global `AgeVerify` (the SDK's IIFE build) exposes. */
  sdkGlobal(): Promise<{ version: unknown; hasConstructor: boolean }> {
    return this.page.evaluate(() => {
      const sdk = (window as unknown as { AgeVerify?: { VERSION?: unknown; AgeVerify?: unknown } }).AgeVerify;
      return { version: sdk?.VERSION, hasConstructor: typeof sdk?.AgeVerify === 'function' };
    });
  }
}
