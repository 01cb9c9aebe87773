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

  /**
   * Records, in order, the `data-testid` of every verify UI element (`age-verify-*`) that appears in
   * this page, across reloads and navigations: the screens the user saw, even those shown for a
   * moment only. Call before the page reaches the verify UI. A screen that never appears is thus
   * proven absent, not merely not visible at the moment of a check.
   */
  async recordScreens(): Promise<string[]> {
    const screens: string[] = [];
    await this.page.exposeFunction('__ageVerifyScreen', (testId: string) => {
      screens.push(testId);
    });
    const serviceOrigin = new URL(this.serviceUrl).origin;
    // Runs before the page's own scripts (and, being injected by the browser, is not subject to the
    // UI's CSP): wraps connectedCallback of each element the UI defines.
    await this.page.addInitScript((origin: string) => {
      if (window.location.origin !== origin || window.location.pathname !== '/verify') return;
      const registry = window.customElements;
      const define = registry.define.bind(registry);
      registry.define = (name: string, constructor: CustomElementConstructor, options?: ElementDefinitionOptions) => {
        if (name.startsWith('age-verify-')) {
          const prototype = constructor.prototype as { connectedCallback?: () => void };
          const connected = prototype.connectedCallback;
          prototype.connectedCallback = function (this: HTMLElement) {
            const testId = this.getAttribute('data-testid');
            if (testId) void (window as unknown as { __ageVerifyScreen(id: string): Promise<void> }).__ageVerifyScreen(testId);
            connected?.call(this);
          };
        }
        define(name, constructor, options);
      };
    }, serviceOrigin);
    return screens;
  }

  /** Sandbox sessions only: the tester picks the outcome. */
  async simulate(outcome: SimulatedOutcome): Promise<void> {
    const button = this.page.getByTestId(`simulate-${outcome}`);
    await expect(button).toBeVisible();
    await button.click();
  }
}
