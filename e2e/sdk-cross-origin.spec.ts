/**
 * The SDK loaded from a merchant's own origin, as sdk/README.md "Usage" tells merchants to: the
 * IIFE by a script tag pinned with Subresource Integrity (`integrity` + `crossorigin="anonymous"`),
 * and the ES module build by `import`. Both are CORS requests to the service, so both need
 * Access-Control-Allow-Origin on /sdk/ (backend/src/http/static-assets.ts); without it Chromium
 * refuses the file and `AgeVerify` never appears.
 */
import { CrossOriginMerchantPage, moduleImportPage, scriptTagPage } from './pages/cross-origin-merchant-page';
import { expect, test } from './support/fixtures';
import { startMerchantOrigin, type MerchantOrigin } from './support/merchant-origin';

const SDK_VERSION = '3.5.0';
const EXPORTS = ['AgeVerify', 'AgeVerifyError', 'VERSION', 'create'];

interface Integrity {
  version: string;
  files: Record<string, { url: string; integrity: string }>;
}

let merchant: MerchantOrigin;

test.beforeAll(async ({ environment }) => {
  const { serviceUrl } = environment;
  const response = await fetch(`${serviceUrl}/sdk/integrity.json`);
  expect(response.status, 'GET /sdk/integrity.json').toBe(200);
  const integrity = (await response.json()) as Integrity;
  const iife = integrity.files['ageverify.iife.min.js'];
  if (!iife) throw new Error(`/sdk/integrity.json lists no ageverify.iife.min.js: ${JSON.stringify(integrity)}`);

  // The merchant origin is only known once its server listens, and the pages name it as returnUrl;
  // so the pages are filled in right after start, before any test opens one.
  const pages: Record<string, string> = {};
  merchant = await startMerchantOrigin(pages);
  const common = { publishableKey: environment.sandbox.publishableKey, returnUrl: `${merchant.url}/return` };
  Object.assign(pages, {
    '/script-tag': scriptTagPage({ ...common, src: new URL(iife.url, serviceUrl).href, integrity: iife.integrity }),
    '/script-tag-stable-path': scriptTagPage({ ...common, src: `${serviceUrl}/sdk/ageverify.iife.min.js`, integrity: iife.integrity }),
    '/script-tag-wrong-integrity': scriptTagPage({ ...common, src: new URL(iife.url, serviceUrl).href, integrity: `sha384-${'A'.repeat(64)}` }),
    '/module-import': moduleImportPage({ ...common, src: `${serviceUrl}/sdk/ageverify.esm.min.js` }),
    '/module-import-versioned': moduleImportPage({ ...common, src: `${serviceUrl}/sdk/${SDK_VERSION}/ageverify.esm.min.js` }),
  });
});

test.afterAll(async () => {
  await merchant?.close();
});

test('the merchant page is on another origin than the service', async ({ environment }) => {
  expect(new URL(merchant.url).origin).not.toBe(new URL(environment.serviceUrl).origin);
});

const LOADS = [
  ['the IIFE by a script tag with integrity and crossorigin="anonymous" (versioned path)', '/script-tag'],
  ['the IIFE by a script tag with integrity and crossorigin="anonymous" (stable path)', '/script-tag-stable-path'],
  ['the ES module build by import (stable path)', '/module-import'],
  ['the ES module build by import (versioned path)', '/module-import-versioned'],
] as const;

for (const [name, path] of LOADS) {
  test(`${name}: AgeVerify.VERSION is ${SDK_VERSION} and the SDK finds the service itself`, async ({ page }) => {
    const merchantPage = new CrossOriginMerchantPage(page, merchant.url);
    const outcome = await merchantPage.load(path);
    expect(outcome).toEqual({ loaded: true, version: SDK_VERSION, exports: EXPORTS, constructed: true });
  });
}

// Shows the integrity attribute is really checked, so the passing script-tag cases above did pass the check.
test('a script tag whose integrity value does not match is refused', async ({ page }) => {
  const merchantPage = new CrossOriginMerchantPage(page, merchant.url);
  const outcome = await merchantPage.load('/script-tag-wrong-integrity');
  expect(outcome).toEqual({ loaded: false, error: 'the script element fired error (CORS or integrity refusal)' });
  expect(await page.evaluate(() => typeof (window as unknown as { AgeVerify?: unknown }).AgeVerify)).toBe('undefined');
});
