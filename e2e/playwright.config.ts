/**
 * End-to-end suite: a real browser against the real backend, the built SDK and verify UI, and the
 * example merchant app. One Playwright project per database target (pglite always, postgres when
 * TEST_DATABASE_URL is set), so every spec runs against each database.
 *
 * Run: `bun run test` (builds first), or after `bun run build`:
 *   node node_modules/@playwright/test/cli.js test -c e2e/playwright.config.ts
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './support/browser';
import { databaseTargets, type TargetName } from './support/environment';

export default defineConfig<{ target: TargetName }>({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/playwright',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    headless: true,
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: databaseTargets().map((target) => ({ name: target, use: { target } })),
});
