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
      registry.define = (name: string, elementClass: CustomElementConstructor, options?: ElementDefinitionOptions) => {
        if (name.startsWith('age-verify-')) {
          const prototype = elementClass.prototype as { connectedCallback?: () => void };
          const connected = prototype.connectedCallback;
          prototype.connectedCallback = function (this: HTMLElement) {
            const testId = this.getAttribute('data-testid');
            if (testId) void (window as unknown as { __ageVerifyScreen(id: string): Promise<void> }).__ageVerifyScreen(testId);
            connected?.call(this);
          };
        }
        define(name, elementClass, options);
      };
    }, serviceOrigin);
    return screens;
  }

  /** Live check: "Turn on the camera" on the explanation, then wait until the preview shows frames. */
  async allowCamera(testId: 'selfie-camera' | 'document-camera'): Promise<void> {
    await this.page.getByTestId('camera-allow').click();
    await expect(this.page.getByTestId(testId).getByTestId('camera-preview')).toHaveAttribute('data-live', 'true', { timeout: 20_000 });
  }

  /** Live check: takes the picture(s) with the camera that is showing. */
  async capture(): Promise<void> {
    const button = this.page.getByTestId('capture');
    await expect(button).toBeEnabled();
    await button.click();
  }

  /** Live check: picks the document type and continues. */
  async chooseDocument(type: 'passport' | 'id_card' | 'driving_licence'): Promise<void> {
    await this.page.getByTestId(`document-${type}`).check();
    await this.page.getByTestId('document-continue').click();
  }

  /** Live check, upload fallback: gives the file input a photo (as picked from the gallery or camera app). */
  async uploadPhoto(path: string): Promise<void> {
    await this.page.getByTestId('upload-photo').setInputFiles(path);
  }

  /** Sandbox sessions only: the tester picks the outcome. */
  async simulate(outcome: SimulatedOutcome): Promise<void> {
    const button = this.page.getByTestId(`simulate-${outcome}`);
    await expect(button).toBeVisible();
    await button.click();
  }
}
