/**
 * The suite's `test`: Playwright's, plus the running services of the project's database target
 * and page objects bound to them. Specs import `test` and `expect` from here.
 */
import { test as base } from '@playwright/test';
import { ReturnPage } from '../pages/return-page';
import { SdkLabPage } from '../pages/sdk-lab-page';
import { ShopPage } from '../pages/shop-page';
import { VerifyPage } from '../pages/verify-page';
import { readTargetEnvironment, type TargetEnvironment, type TargetName } from './environment';
import { ServiceApi } from './service-api';

interface WorkerFixtures {
  /** Set per Playwright project in playwright.config.ts. */
  target: TargetName;
  environment: TargetEnvironment;
}

interface TestFixtures {
  shop: ShopPage;
  verifyPage: VerifyPage;
  returnPage: ReturnPage;
  api: ServiceApi;
  /** A merchant page that runs the SDK with any options (support/sdk-lab.ts). */
  sdkLab: SdkLabPage;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  target: ['pglite', { option: true, scope: 'worker' }],
  environment: [async ({ target }, use) => use(readTargetEnvironment(target)), { scope: 'worker' }],
  shop: async ({ page, environment }, use) => use(new ShopPage(page, environment.merchantUrl, environment.serviceUrl)),
  verifyPage: async ({ page, environment }, use) => use(new VerifyPage(page, environment.serviceUrl)),
  returnPage: async ({ page, environment }, use) => use(new ReturnPage(page, environment.merchantUrl)),
  api: async ({ request, environment }, use) => use(new ServiceApi(request, environment)),
  sdkLab: async ({ page, environment }, use) => use(new SdkLabPage(page, environment.sdkLabUrl, environment.serviceUrl)),
});

export { expect } from '@playwright/test';
