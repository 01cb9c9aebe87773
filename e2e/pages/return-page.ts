import type { Locator, Page } from '@playwright/test';

/**
 * The merchant's /return page. `callbackUrl()` is what the verify UI sent the browser to; the
 * locators show what the merchant's server learnt from POST /sessions/validate.
 */
export class ReturnPage {
  readonly accessGranted: Locator;
  readonly accessDenied: Locator;
  readonly validatedStatus: Locator;
  readonly validatedExternalUserId: Locator;
  readonly validatedSessionId: Locator;
  readonly validationError: Locator;
  readonly callbackStatus: Locator;

  constructor(
    readonly page: Page,
    private readonly merchantUrl: string,
  ) {
    this.accessGranted = page.getByTestId('access-granted');
    this.accessDenied = page.getByTestId('access-denied');
    this.validatedStatus = page.getByTestId('validated-status');
    this.validatedExternalUserId = page.getByTestId('validated-external-user-id');
    this.validatedSessionId = page.getByTestId('validated-session-id');
    this.validationError = page.getByTestId('validation-error');
    this.callbackStatus = page.getByTestId('callback-status');
  }

  /** Waits for the redirect back to the merchant and returns the callback URL. */
  async waitForCallback(): Promise<URL> {
    const merchantOrigin = new URL(this.merchantUrl).origin;
    await this.page.waitForURL((url) => url.origin === merchantOrigin && url.pathname === '/return');
    return new URL(this.page.url());
  }

  /** Opens /return with hand-made query parameters, as a forged or replayed callback would. */
  async open(params: Record<string, string>): Promise<void> {
    await this.page.goto(`${this.merchantUrl}/return?${new URLSearchParams(params)}`);
  }
}
