import type { Page } from '@playwright/test';

/**
 * A merchant page on another origin than the service, loading the SDK the two ways sdk/README.md
 * documents: a script tag with `integrity` and `crossorigin="anonymous"` (the IIFE), and an
 * ES-module `import` (the ESM build). Both are CORS requests, so they work only when the service
 * answers them with Access-Control-Allow-Origin (backend/src/http/static-assets.ts).
 *
 * Each page reports one outcome: what the loaded SDK exposes, and whether `new AgeVerify(...)`
 * without `baseUrl` works, i.e. whether the SDK found the service from its own URL.
 */

/** What a page reports once the SDK has loaded, or failed to. */
export type SdkLoadOutcome =
  | { loaded: true; version: string; exports: string[]; constructed: true }
  | { loaded: true; version: string; exports: string[]; constructed: false; error: string }
  | { loaded: false; error: string };

/** The page gives up after this long, so a script that never loads fails the test with a reason. */
const LOAD_TIMEOUT_MS = 10_000;

/** Sets `window.__sdkOutcome`, a promise the test awaits, and `describeSdk`, which each page calls. */
function outcomeScript(publishableKey: string, returnUrl: string): string {
  return `<script>
    window.__sdkOutcome = new Promise(function (resolve) {
      window.__settle = resolve;
      setTimeout(function () { resolve({ loaded: false, error: 'no load or error event within ${LOAD_TIMEOUT_MS} ms' }); }, ${LOAD_TIMEOUT_MS});
    });
    window.describeSdk = function (sdk) {
      var outcome = { loaded: true, version: sdk.VERSION, exports: Object.keys(sdk).sort(), constructed: true };
      try {
        new sdk.AgeVerify({ apiKey: ${JSON.stringify(publishableKey)}, returnUrl: ${JSON.stringify(returnUrl)} });
      } catch (error) {
        outcome.constructed = false;
        outcome.error = String(error && error.code) + ': ' + String(error && error.message);
      }
      window.__settle(outcome);
    };
  </script>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

export interface MerchantPageOptions {
  /** Absolute URL of the SDK file on the service. */
  src: string;
  publishableKey: string;
  /** The merchant's return page, on the merchant's origin. */
  returnUrl: string;
}

/** `<script src integrity crossorigin="anonymous">`, the way sdk/README.md pins the IIFE. */
export function scriptTagPage(options: MerchantPageOptions & { integrity: string }): string {
  return page(
    'Merchant page: script tag',
    `${outcomeScript(options.publishableKey, options.returnUrl)}
    <script src="${options.src}" integrity="${options.integrity}" crossorigin="anonymous"
            onload="describeSdk(window.AgeVerify)"
            onerror="__settle({ loaded: false, error: 'the script element fired error (CORS or integrity refusal)' })"></script>`,
  );
}

/** `<script type="module">import * as AgeVerify from '…'</script>`, the way sdk/README.md imports the ESM build. */
export function moduleImportPage(options: MerchantPageOptions): string {
  return page(
    'Merchant page: ES module',
    `${outcomeScript(options.publishableKey, options.returnUrl)}
    <script type="module" onerror="__settle({ loaded: false, error: 'the module script fired error (CORS refusal?)' })">
      import * as AgeVerify from ${JSON.stringify(options.src)};
      describeSdk(AgeVerify);
    </script>`,
  );
}

export class CrossOriginMerchantPage {
  constructor(
    readonly page: Page,
    private readonly merchantUrl: string,
  ) {}

  /** Opens one of the merchant's pages and returns what it reports about the SDK. */
  async load(path: string): Promise<SdkLoadOutcome> {
    await this.page.goto(new URL(path, this.merchantUrl).href);
    return this.page.evaluate(() => (window as unknown as { __sdkOutcome: Promise<SdkLoadOutcome> }).__sdkOutcome);
  }
}
